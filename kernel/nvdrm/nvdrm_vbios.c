// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the VBIOS, read from the PROM window of BAR0 with the ROM shadow
 * bit (PCI config 0x50, mirrored at 0x1850) cleared, and validated: ROM
 * signature, PCI data structure, image size and the 8-bit checksum.
 */
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "nvdrm_drv.h"

static u16 rd16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static u16 find(const u8 *data, size_t size, const char *sig, size_t len)
{
	size_t i;

	for (i = 0; i + len <= size && i < 0x10000; i++)
		if (!memcmp(data + i, sig, len))
			return i;
	return 0;
}

static int nvdrm_vbios_check(struct nvdrm_device *ndev, const u8 *rom,
			     size_t *size)
{
	struct device *dev = &ndev->pdev->dev;
	u16 pcir;
	size_t i, len;
	u8 sum = 0;

	if (rd16(rom) != 0xaa55) {
		dev_err(dev, "VBIOS: ROM signature 0x%04x, expected 0xaa55\n",
			rd16(rom));
		return -EINVAL;
	}
	pcir = rd16(rom + 0x18);
	if (pcir + 0x18 > NV_PROM_SIZE || memcmp(rom + pcir, "PCIR", 4)) {
		dev_err(dev, "VBIOS: no PCI data structure at 0x%x\n", pcir);
		return -EINVAL;
	}
	len = rd16(rom + pcir + 0x10) * 512;
	if (!len || len > NV_PROM_SIZE) {
		dev_err(dev, "VBIOS: image size %zu is not valid\n", len);
		return -EINVAL;
	}
	for (i = 0; i < len; i++)
		sum += rom[i];
	if (sum) {
		dev_err(dev, "VBIOS: bad checksum (sum 0x%02x over %zu bytes)\n",
			sum, len);
		return -EINVAL;
	}
	ndev->vbios.pci_device = rd16(rom + pcir + 6);
	*size = len;
	return 0;
}

int nvdrm_vbios_load(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	struct nvdrm_vbios *vb = &ndev->vbios;
	u32 shadow;
	size_t size, i, want;
	u8 *rom;
	int ret;

	rom = kvmalloc(NV_PROM_SIZE, GFP_KERNEL);
	if (!rom)
		return -ENOMEM;

	shadow = nv_rd32(ndev, NV_PBUS_PCI_NV_20);
	nv_wr32(ndev, NV_PBUS_PCI_NV_20, shadow & ~1);
	/* the header first, then as much as the image says it is */
	for (i = 0; i < 0x200; i += 4)
		*(u32 *)(rom + i) = nv_rd32(ndev, NV_PROM + i);
	want = SZ_64K;
	if (rd16(rom) == 0xaa55)
		want = clamp_t(size_t, rom[2] * 512, SZ_64K, NV_PROM_SIZE);
	for (; i < want; i += 4)
		*(u32 *)(rom + i) = nv_rd32(ndev, NV_PROM + i);
	nv_wr32(ndev, NV_PBUS_PCI_NV_20, shadow | 1);

	ret = nvdrm_vbios_check(ndev, rom, &size);
	if (ret) {
		kvfree(rom);
		return ret;
	}
	vb->data = rom;
	vb->size = size;
	vb->bmp_offset = find(rom, size, "\xff\x7fNV\0", 5);
	if (vb->bmp_offset) {
		vb->bmp_major = rom[vb->bmp_offset + 5];
		vb->bmp_minor = rom[vb->bmp_offset + 6];
	}
	vb->bit_offset = find(rom, size, "\xff\xb8\x42IT", 5);	/* 0x42 = B */
	if (!vb->bmp_offset && !vb->bit_offset)
		dev_warn(dev, "VBIOS: neither BMP nor BIT found\n");
	return 0;
}
