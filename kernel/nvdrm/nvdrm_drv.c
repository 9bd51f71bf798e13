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
	/*
	 * Only now that the chip is known to be one this driver drives may
	 * the firmware's framebuffer (vesafb, efifb, vgacon) go.
	 */
	ret = drm_aperture_remove_conflicting_pci_framebuffers(pdev, &nvdrm_driver);
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
		dev_info(dev, "VBIOS: %zu bytes from %s, checksum ok, BIT at 0x%04x\n",
			 ndev->vbios.size, ndev->vbios.source,
			 ndev->vbios.bit_offset);
	else
		dev_info(dev, "VBIOS: %zu bytes from %s, checksum ok, BMP %u.%02x\n",
			 ndev->vbios.size, ndev->vbios.source,
			 ndev->vbios.bmp_major, ndev->vbios.bmp_minor);

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

/*
 * The chips nvdrm_chip.c drives, by PCI device ID: NVIDIA gives each chip
 * a block of IDs, one per board variant, and BOOT_0 has the last word.
 * Later chips (NV50 on) and the nForce IGPs (NV1A, NV1F: their memory
 * size is the host bridge's) are left to other drivers.
 */
#define NV_ID(id)	{ PCI_VDEVICE(NVIDIA, id) }
#define NVSGS_ID(id)	{ PCI_DEVICE(0x12d2, id) }	/* the NV04/NV05 joint venture */

static const struct pci_device_id nvdrm_pci_table[] = {
	/* NV04 RIVA TNT */
	NV_ID(0x0020),
	/* NV05 RIVA TNT2 */
	NV_ID(0x0028), NV_ID(0x0029), NV_ID(0x002a), NV_ID(0x002b), NV_ID(0x002c), NV_ID(0x002d),
	NV_ID(0x002e), NV_ID(0x002f),
	/* NV10 GeForce 256 */
	NV_ID(0x0100), NV_ID(0x0101), NV_ID(0x0102), NV_ID(0x0103),
	/* NV11 GeForce2 MX */
	NV_ID(0x0110), NV_ID(0x0111), NV_ID(0x0112), NV_ID(0x0113),
	/* NV15 GeForce2 GTS */
	NV_ID(0x0150), NV_ID(0x0151), NV_ID(0x0152), NV_ID(0x0153),
	/* NV17 GeForce4 MX */
	NV_ID(0x0170), NV_ID(0x0171), NV_ID(0x0172), NV_ID(0x0173), NV_ID(0x0174), NV_ID(0x0175),
	NV_ID(0x0176), NV_ID(0x0177), NV_ID(0x0178), NV_ID(0x0179), NV_ID(0x017a), NV_ID(0x017b),
	NV_ID(0x017c), NV_ID(0x017d), NV_ID(0x017e), NV_ID(0x017f),
	/* NV18 GeForce4 MX AGP 8x */
	NV_ID(0x0180), NV_ID(0x0181), NV_ID(0x0182), NV_ID(0x0183), NV_ID(0x0184), NV_ID(0x0185),
	NV_ID(0x0186), NV_ID(0x0187), NV_ID(0x0188), NV_ID(0x0189), NV_ID(0x018a), NV_ID(0x018b),
	NV_ID(0x018c), NV_ID(0x018d), NV_ID(0x018e), NV_ID(0x018f),
	/* NV20 GeForce3 */
	NV_ID(0x0200), NV_ID(0x0201), NV_ID(0x0202), NV_ID(0x0203),
	/* NV25 GeForce4 Ti */
	NV_ID(0x0250), NV_ID(0x0251), NV_ID(0x0252), NV_ID(0x0253), NV_ID(0x0254), NV_ID(0x0255),
	NV_ID(0x0256), NV_ID(0x0257), NV_ID(0x0258), NV_ID(0x0259), NV_ID(0x025a), NV_ID(0x025b),
	NV_ID(0x025c), NV_ID(0x025d), NV_ID(0x025e), NV_ID(0x025f),
	/* NV28 GeForce4 Ti AGP 8x */
	NV_ID(0x0280), NV_ID(0x0281), NV_ID(0x0282), NV_ID(0x0283), NV_ID(0x0284), NV_ID(0x0285),
	NV_ID(0x0286), NV_ID(0x0287), NV_ID(0x0288), NV_ID(0x0289), NV_ID(0x028a), NV_ID(0x028b),
	NV_ID(0x028c), NV_ID(0x028d), NV_ID(0x028e), NV_ID(0x028f),
	/* NV2A, the Xbox's GPU */
	NV_ID(0x02a0),
	/* NV30 GeForce FX 5800 */
	NV_ID(0x0300), NV_ID(0x0301), NV_ID(0x0302), NV_ID(0x0303), NV_ID(0x0304), NV_ID(0x0305),
	NV_ID(0x0306), NV_ID(0x0307), NV_ID(0x0308), NV_ID(0x0309), NV_ID(0x030a), NV_ID(0x030b),
	NV_ID(0x030c), NV_ID(0x030d), NV_ID(0x030e), NV_ID(0x030f),
	/* NV31 GeForce FX 5600 */
	NV_ID(0x0310), NV_ID(0x0311), NV_ID(0x0312), NV_ID(0x0313), NV_ID(0x0314), NV_ID(0x0315),
	NV_ID(0x0316), NV_ID(0x0317), NV_ID(0x0318), NV_ID(0x0319), NV_ID(0x031a), NV_ID(0x031b),
	NV_ID(0x031c), NV_ID(0x031d), NV_ID(0x031e), NV_ID(0x031f),
	/* NV34 GeForce FX 5200 */
	NV_ID(0x0320), NV_ID(0x0321), NV_ID(0x0322), NV_ID(0x0323), NV_ID(0x0324), NV_ID(0x0325),
	NV_ID(0x0326), NV_ID(0x0327), NV_ID(0x0328), NV_ID(0x0329), NV_ID(0x032a), NV_ID(0x032b),
	NV_ID(0x032c), NV_ID(0x032d), NV_ID(0x032e), NV_ID(0x032f),
	/* NV35 GeForce FX 5900 */
	NV_ID(0x0330), NV_ID(0x0331), NV_ID(0x0332), NV_ID(0x0333), NV_ID(0x0334), NV_ID(0x0335),
	NV_ID(0x0336), NV_ID(0x0337), NV_ID(0x0338), NV_ID(0x0339), NV_ID(0x033a), NV_ID(0x033b),
	NV_ID(0x033c), NV_ID(0x033d), NV_ID(0x033e), NV_ID(0x033f),
	/* NV36 GeForce FX 5700 */
	NV_ID(0x0340), NV_ID(0x0341), NV_ID(0x0342), NV_ID(0x0343), NV_ID(0x0344), NV_ID(0x0345),
	NV_ID(0x0346), NV_ID(0x0347), NV_ID(0x0348), NV_ID(0x0349), NV_ID(0x034a), NV_ID(0x034b),
	NV_ID(0x034c), NV_ID(0x034d), NV_ID(0x034e), NV_ID(0x034f),
	/* NV40, NV45 GeForce 6800 */
	NV_ID(0x0040), NV_ID(0x0041), NV_ID(0x0042), NV_ID(0x0043), NV_ID(0x0044), NV_ID(0x0045),
	NV_ID(0x0046), NV_ID(0x0047), NV_ID(0x0048), NV_ID(0x0049), NV_ID(0x004a), NV_ID(0x004b),
	NV_ID(0x004c), NV_ID(0x004d), NV_ID(0x004e), NV_ID(0x004f),
	/* NV41, NV42 GeForce 6800 */
	NV_ID(0x00c0), NV_ID(0x00c1), NV_ID(0x00c2), NV_ID(0x00c3), NV_ID(0x00c4), NV_ID(0x00c5),
	NV_ID(0x00c6), NV_ID(0x00c7), NV_ID(0x00c8), NV_ID(0x00c9), NV_ID(0x00ca), NV_ID(0x00cb),
	NV_ID(0x00cc), NV_ID(0x00cd), NV_ID(0x00ce), NV_ID(0x00cf),
	/* NV43 GeForce 6600 */
	NV_ID(0x0140), NV_ID(0x0141), NV_ID(0x0142), NV_ID(0x0143), NV_ID(0x0144), NV_ID(0x0145),
	NV_ID(0x0146), NV_ID(0x0147), NV_ID(0x0148), NV_ID(0x0149), NV_ID(0x014a), NV_ID(0x014b),
	NV_ID(0x014c), NV_ID(0x014d), NV_ID(0x014e), NV_ID(0x014f),
	/* NV44 GeForce 6200 */
	NV_ID(0x0160), NV_ID(0x0161), NV_ID(0x0162), NV_ID(0x0163), NV_ID(0x0164), NV_ID(0x0165),
	NV_ID(0x0166), NV_ID(0x0167), NV_ID(0x0168), NV_ID(0x0169), NV_ID(0x016a), NV_ID(0x016b),
	NV_ID(0x016c), NV_ID(0x016d), NV_ID(0x016e), NV_ID(0x016f),
	/* G72 (NV46) GeForce 7300 */
	NV_ID(0x01d0), NV_ID(0x01d1), NV_ID(0x01d2), NV_ID(0x01d3), NV_ID(0x01d4), NV_ID(0x01d5),
	NV_ID(0x01d6), NV_ID(0x01d7), NV_ID(0x01d8), NV_ID(0x01d9), NV_ID(0x01da), NV_ID(0x01db),
	NV_ID(0x01dc), NV_ID(0x01dd), NV_ID(0x01de), NV_ID(0x01df),
	/* NV44A (NV4A) GeForce 6200 AGP */
	NV_ID(0x0220), NV_ID(0x0221), NV_ID(0x0222), NV_ID(0x0223), NV_ID(0x0224), NV_ID(0x0225),
	NV_ID(0x0226), NV_ID(0x0227), NV_ID(0x0228), NV_ID(0x0229), NV_ID(0x022a), NV_ID(0x022b),
	NV_ID(0x022c), NV_ID(0x022d), NV_ID(0x022e), NV_ID(0x022f),
	/* C51 (NV4E) GeForce 6100/6150 IGP */
	NV_ID(0x0240), NV_ID(0x0241), NV_ID(0x0242), NV_ID(0x0243), NV_ID(0x0244), NV_ID(0x0245),
	NV_ID(0x0246), NV_ID(0x0247), NV_ID(0x0248), NV_ID(0x0249), NV_ID(0x024a), NV_ID(0x024b),
	NV_ID(0x024c), NV_ID(0x024d), NV_ID(0x024e), NV_ID(0x024f),
	/* C61 (NV4C) GeForce 6100/6150 IGP */
	NV_ID(0x03d0), NV_ID(0x03d1), NV_ID(0x03d2), NV_ID(0x03d3), NV_ID(0x03d4), NV_ID(0x03d5),
	NV_ID(0x03d6), NV_ID(0x03d7), NV_ID(0x03d8), NV_ID(0x03d9), NV_ID(0x03da), NV_ID(0x03db),
	NV_ID(0x03dc), NV_ID(0x03dd), NV_ID(0x03de), NV_ID(0x03df),
	/* C67 and C68 (NV67, NV68) GeForce 7000M-7150M IGP */
	NV_ID(0x0530), NV_ID(0x0531), NV_ID(0x0532), NV_ID(0x0533), NV_ID(0x0534), NV_ID(0x0535),
	NV_ID(0x0536), NV_ID(0x0537), NV_ID(0x0538), NV_ID(0x0539), NV_ID(0x053a), NV_ID(0x053b),
	NV_ID(0x053c), NV_ID(0x053d), NV_ID(0x053e), NV_ID(0x053f),
	/* C73 (NV63) GeForce 7050-7150 IGP */
	NV_ID(0x07e0), NV_ID(0x07e1), NV_ID(0x07e2), NV_ID(0x07e3), NV_ID(0x07e4), NV_ID(0x07e5),
	NV_ID(0x07e6), NV_ID(0x07e7), NV_ID(0x07e8), NV_ID(0x07e9), NV_ID(0x07ea), NV_ID(0x07eb),
	NV_ID(0x07ec), NV_ID(0x07ed), NV_ID(0x07ee), NV_ID(0x07ef),
	/* G70 (NV47) GeForce 7800 */
	NV_ID(0x0090), NV_ID(0x0091), NV_ID(0x0092), NV_ID(0x0093), NV_ID(0x0094), NV_ID(0x0095),
	NV_ID(0x0096), NV_ID(0x0097), NV_ID(0x0098), NV_ID(0x0099), NV_ID(0x009a), NV_ID(0x009b),
	NV_ID(0x009c), NV_ID(0x009d), NV_ID(0x009e), NV_ID(0x009f),
	/* G71 (NV49) GeForce 7900 */
	NV_ID(0x0290), NV_ID(0x0291), NV_ID(0x0292), NV_ID(0x0293), NV_ID(0x0294), NV_ID(0x0295),
	NV_ID(0x0296), NV_ID(0x0297), NV_ID(0x0298), NV_ID(0x0299), NV_ID(0x029a), NV_ID(0x029b),
	NV_ID(0x029c), NV_ID(0x029d), NV_ID(0x029e), NV_ID(0x029f),
	/* G73 (NV4B) GeForce 7600 */
	NV_ID(0x0390), NV_ID(0x0391), NV_ID(0x0392), NV_ID(0x0393), NV_ID(0x0394), NV_ID(0x0395),
	NV_ID(0x0396), NV_ID(0x0397), NV_ID(0x0398), NV_ID(0x0399), NV_ID(0x039a), NV_ID(0x039b),
	NV_ID(0x039c), NV_ID(0x039d), NV_ID(0x039e), NV_ID(0x039f),
	NVSGS_ID(0x0020), NVSGS_ID(0x0028), NVSGS_ID(0x0029), NVSGS_ID(0x002c),
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
