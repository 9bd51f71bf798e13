/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvdrm: a DRM/KMS driver for NVIDIA NV04..NV4x, written for the nvdev
 * virtual card and for the real thing.
 */
#ifndef NVDRM_DRV_H
#define NVDRM_DRV_H

#include <linux/io.h>
#include <linux/pci.h>
#include <linux/types.h>

#define NV_PMC_BOOT_0		0x000000
#define NV_PMC_BOOT_1		0x000004
#define NV_PBUS_PCI_NV_20	0x001850	/* ROM shadow: bit 0 = disabled */
#define NV_PFB_BOOT_0		0x100000
#define NV_PFB_CFG0		0x100200
#define NV10_PFB_FIFO_DATA	0x10020c
#define NV41_PFB_RAM_TYPE	0x100474
#define NV_PROM			0x300000
#define NV_PROM_SIZE		0x100000

struct nvdrm_device;

/*
 * What differs between chipset families, chosen once at probe from
 * BOOT_0 (as nvkm does with its per-chipset constructors).
 */
struct nvdrm_family_funcs {
	const char *name;
	/* VRAM size in bytes and whether it is DDR */
	int (*vram)(struct nvdrm_device *ndev, u64 *size, bool *ddr);
};

struct nvdrm_chip {
	u16 chipset;		/* 0x04, 0x05, 0x10, 0x11, ... 0x4e */
	const char *name;
	const struct nvdrm_family_funcs *funcs;
};

struct nvdrm_vbios {
	u8 *data;
	size_t size;
	u16 pci_device;
	u16 bmp_offset;		/* 0 if none */
	u8 bmp_major, bmp_minor;
	u16 bit_offset;		/* 0 if none */
};

struct nvdrm_device {
	struct pci_dev *pdev;
	void __iomem *mmio;
	u32 boot0;
	const struct nvdrm_chip *chip;
	u64 vram_size;
	bool vram_ddr;
	struct nvdrm_vbios vbios;
};

static inline u32 nv_rd32(struct nvdrm_device *ndev, u32 reg)
{
	return ioread32(ndev->mmio + reg);
}

static inline void nv_wr32(struct nvdrm_device *ndev, u32 reg, u32 val)
{
	iowrite32(val, ndev->mmio + reg);
}

int nvdrm_chip_identify(struct nvdrm_device *ndev);
int nvdrm_vbios_load(struct nvdrm_device *ndev);

#endif
