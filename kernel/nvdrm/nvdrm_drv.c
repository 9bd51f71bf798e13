// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: PCI probe and the DRM device.  Identify the chip and its memory,
 * load and parse the VBIOS, then a KMS device over GEM VRAM buffers with
 * fbdev emulation and vblank interrupts.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/sizes.h>

#include <drm/drm_aperture.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_fb_helper.h>
#include <drm/drm_gem_vram_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_probe_helper.h>

#include "nvdrm_drv.h"

DEFINE_DRM_GEM_FOPS(nvdrm_fops);

static const struct drm_driver nvdrm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_MODESET | DRIVER_ATOMIC,
	.fops = &nvdrm_fops,
	.name = "nvdrm",
	.desc = "NVIDIA NV04 to NV4x",
	.date = "20261203",
	.major = 1,
	.minor = 0,
	DRM_GEM_VRAM_DRIVER,
};

/*
 * VRAM for buffers: what BAR1 shows of it, less the top megabyte, where
 * these chips keep instance memory (RAMIN) and the VBIOS may have set it
 * up, and less the heads' cursor images just below that.  Returns the
 * cursor images' VRAM offset.
 */
static s64 nvdrm_vram_init(struct nvdrm_device *ndev)
{
	struct pci_dev *pdev = ndev->pdev;
	u64 size = min_t(u64, ndev->vram_size, pci_resource_len(pdev, 1));
	u64 cursors = NVDRM_MAX_HEADS * NVDRM_CURSOR_SIZE;
	int ret;

	if (size <= SZ_2M) {
		drm_err(&ndev->drm, "BAR1 shows only %llu bytes of VRAM\n", size);
		return -ENODEV;
	}
	size -= SZ_1M + cursors;
	ret = drmm_vram_helper_init(&ndev->drm, pci_resource_start(pdev, 1),
				    size);
	return ret ? ret : size;
}

static void nvdrm_vbios_free(struct drm_device *drm, void *data)
{
	kvfree(data);
}

static int nvdrm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct nvdrm_device *ndev;
	s64 cursors;
	int ret;

	if (pdev->vendor != PCI_VENDOR_ID_NVIDIA && pdev->vendor != 0x12d2)
		return -ENODEV;

	ret = drm_aperture_remove_conflicting_pci_framebuffers(pdev, &nvdrm_driver);
	if (ret)
		return ret;

	ndev = devm_drm_dev_alloc(dev, &nvdrm_driver, struct nvdrm_device, drm);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	ndev->pdev = pdev;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ndev->mmio = pcim_iomap(pdev, 0, 0);
	if (!ndev->mmio)
		return -ENOMEM;

	ret = nvdrm_chip_identify(ndev);
	if (ret)
		return ret;
	ret = nvdrm_vbios_load(ndev);
	if (ret)
		return ret;
	ret = drmm_add_action_or_reset(&ndev->drm, nvdrm_vbios_free,
				       ndev->vbios.data);
	if (ret)
		return ret;

	dev_info(dev, "%s (BOOT_0 0x%08x), %llu MiB %s, crystal %u kHz\n",
		 ndev->chip->name, ndev->boot0, ndev->vram_size >> 20,
		 ndev->vram_ddr ? "DDR" : "SDR", ndev->crystal);
	if (ndev->vbios.bit_offset)
		dev_info(dev, "VBIOS: %zu bytes from PROM, checksum ok, BIT at 0x%04x\n",
			 ndev->vbios.size, ndev->vbios.bit_offset);
	else
		dev_info(dev, "VBIOS: %zu bytes from PROM, checksum ok, BMP %u.%02x\n",
			 ndev->vbios.size, ndev->vbios.bmp_major,
			 ndev->vbios.bmp_minor);

	ret = nvdrm_vbios_parse(ndev);
	if (ret)
		return ret;
	nvdrm_arb_init(ndev);
	cursors = nvdrm_vram_init(ndev);
	if (cursors < 0)
		return cursors;
	ret = nvdrm_i2c_init(ndev);
	if (ret)
		return ret;
	ret = nvdrm_kms_init(ndev, cursors);
	if (ret)
		goto err_i2c;
	ret = nvdrm_irq_init(ndev);
	if (ret)
		goto err_poll;

	pci_set_drvdata(pdev, ndev);
	ret = drm_dev_register(&ndev->drm, 0);
	if (ret)
		goto err_irq;
	drm_fbdev_generic_setup(&ndev->drm, 32);
	return 0;

err_irq:
	nvdrm_irq_fini(ndev);
err_poll:
	drm_kms_helper_poll_fini(&ndev->drm);
	nvdrm_kms_fini(ndev);
err_i2c:
	nvdrm_i2c_fini(ndev);
	return ret;
}

static void nvdrm_remove(struct pci_dev *pdev)
{
	struct nvdrm_device *ndev = pci_get_drvdata(pdev);

	drm_dev_unplug(&ndev->drm);
	drm_kms_helper_poll_fini(&ndev->drm);
	drm_atomic_helper_shutdown(&ndev->drm);
	nvdrm_irq_fini(ndev);
	nvdrm_kms_fini(ndev);
	nvdrm_i2c_fini(ndev);
}

static void nvdrm_shutdown(struct pci_dev *pdev)
{
	struct nvdrm_device *ndev = pci_get_drvdata(pdev);

	if (ndev)
		drm_atomic_helper_shutdown(&ndev->drm);
}

static const struct pci_device_id nvdrm_pci_table[] = {
	{ PCI_DEVICE_CLASS(PCI_CLASS_DISPLAY_VGA << 8, 0xffffff) },
	{ }
};
MODULE_DEVICE_TABLE(pci, nvdrm_pci_table);

static struct pci_driver nvdrm_pci_driver = {
	.name = "nvdrm",
	.id_table = nvdrm_pci_table,
	.probe = nvdrm_probe,
	.remove = nvdrm_remove,
	.shutdown = nvdrm_shutdown,
};
module_pci_driver(nvdrm_pci_driver);

MODULE_DESCRIPTION("DRM/KMS driver for NVIDIA NV04 to NV4x");
MODULE_LICENSE("GPL");
