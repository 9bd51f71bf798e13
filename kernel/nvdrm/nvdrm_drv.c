// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: PCI probe.  Stage 0: identify the chip and its memory and load
 * the VBIOS; mode setting comes next.
 */
#include <linux/module.h>
#include <linux/pci.h>

#include "nvdrm_drv.h"

static int nvdrm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct nvdrm_device *ndev;
	int ret;

	if (pdev->vendor != PCI_VENDOR_ID_NVIDIA && pdev->vendor != 0x12d2)
		return -ENODEV;

	ndev = devm_kzalloc(dev, sizeof(*ndev), GFP_KERNEL);
	if (!ndev)
		return -ENOMEM;
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

	dev_info(dev, "%s (BOOT_0 0x%08x), %llu MiB %s\n", ndev->chip->name,
		 ndev->boot0, ndev->vram_size >> 20,
		 ndev->vram_ddr ? "DDR" : "SDR");
	if (ndev->vbios.bit_offset)
		dev_info(dev, "VBIOS: %zu bytes from PROM, checksum ok, BIT at 0x%04x\n",
			 ndev->vbios.size, ndev->vbios.bit_offset);
	else
		dev_info(dev, "VBIOS: %zu bytes from PROM, checksum ok, BMP %u.%02x\n",
			 ndev->vbios.size, ndev->vbios.bmp_major,
			 ndev->vbios.bmp_minor);
	pci_set_drvdata(pdev, ndev);
	return 0;
}

static void nvdrm_remove(struct pci_dev *pdev)
{
	struct nvdrm_device *ndev = pci_get_drvdata(pdev);

	kvfree(ndev->vbios.data);
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
};
module_pci_driver(nvdrm_pci_driver);

MODULE_DESCRIPTION("DRM/KMS driver for NVIDIA NV04 to NV4x");
MODULE_LICENSE("GPL");
