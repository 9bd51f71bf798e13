// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: chip identification from PMC BOOT_0, and the per-family
 * functions.
 */
#include <linux/bits.h>
#include <linux/sizes.h>

#include "nvdrm_drv.h"

/* NV04/NV05: size and type from the PFB_BOOT_0 straps. */
static int nv04_vram(struct nvdrm_device *ndev, u64 *size, bool *ddr)
{
	static const u64 sizes[] = { SZ_32M, SZ_4M, SZ_8M, SZ_16M };
	u32 boot0 = nv_rd32(ndev, NV_PFB_BOOT_0);

	if (boot0 & BIT(8))
		*size = (((boot0 >> 12) & 0xf) * 2 + 2) * SZ_1M;
	else
		*size = sizes[boot0 & 3];
	*ddr = false;
	return 0;
}

/* NV10 to NV4x: the amount in bytes, the type in CFG0 bit 0. */
static int nv10_vram(struct nvdrm_device *ndev, u64 *size, bool *ddr)
{
	*size = nv_rd32(ndev, NV10_PFB_FIFO_DATA) & 0xff000000;
	*ddr = nv_rd32(ndev, NV_PFB_CFG0) & BIT(0);
	return *size ? 0 : -ENODEV;
}

/* NV40 and later: the type moved to 0x100474 (bit 0 DDR1). */
static int nv40_vram(struct nvdrm_device *ndev, u64 *size, bool *ddr)
{
	*size = nv_rd32(ndev, NV10_PFB_FIFO_DATA) & 0xff000000;
	*ddr = nv_rd32(ndev, NV41_PFB_RAM_TYPE) & BIT(0);
	return *size ? 0 : -ENODEV;
}

/*
 * The families as far as the display is concerned: one or two heads,
 * where the VGA sequencer lives, whether the VPLLs have a second stage in
 * a second register and the pitch a bit 11 in CR42.
 */
static const struct nvdrm_family_funcs nv04_family = {
	.name = "NV04",
	.vram = nv04_vram,
	.heads = 1,
	.crtc_cfg = 4,		/* START_ADDRESS_HSYNC, NV04 encoding */
	.dac_load = nvdrm_nv04_dac_load,
	.arb = &nvdrm_nv04_arb,
};

static const struct nvdrm_family_funcs nv10_family = {
	.name = "NV10",
	.vram = nv10_vram,
	.heads = 1,
	.crtc_cfg = 2,
	.dac_load = nvdrm_nv04_dac_load,
	.arb = &nvdrm_nv10_arb,
};

/* NV20: an NV10 display with NV20's 2 KiB scanout FIFO */
static const struct nvdrm_family_funcs nv20_family = {
	.name = "NV20",
	.vram = nv10_vram,
	.heads = 1,
	.crtc_cfg = 2,
	.dac_load = nvdrm_nv04_dac_load,
	.arb = &nvdrm_nv20_arb,
};

static const struct nvdrm_family_funcs nv11_family = {
	.name = "NV11",
	.vram = nv10_vram,
	.heads = 2,
	.crtc_cfg = 2,
	.dac_load = nvdrm_nv04_dac_load,
	.cursor_argb = true,
	.arb = &nvdrm_nv10_arb,
};

static const struct nvdrm_family_funcs nv17_family = {
	.name = "NV17",
	.vram = nv10_vram,
	.heads = 2,
	.gf4_disp = true,
	.dac_load = nvdrm_nv17_dac_load,
	.crtc_cfg = 2,
	.cursor_argb = true,
	.arb = &nvdrm_nv10_arb,
};

/* NV25 to NV35 but NV31: the NV17 display, NV20's scanout FIFO */
static const struct nvdrm_family_funcs nv25_family = {
	.name = "NV25",
	.vram = nv10_vram,
	.heads = 2,
	.gf4_disp = true,
	.dac_load = nvdrm_nv17_dac_load,
	.crtc_cfg = 2,
	.cursor_argb = true,
	.arb = &nvdrm_nv20_arb,
};

static const struct nvdrm_family_funcs nv31_family = {
	.name = "NV31",
	.vram = nv10_vram,
	.heads = 2,
	.gf4_disp = true,
	.dac_load = nvdrm_nv17_dac_load,
	.two_reg_pll = true,
	.crtc_cfg = 2,
	.cursor_argb = true,
	.arb = &nvdrm_nv20_arb,
};

static const struct nvdrm_family_funcs nv40_family = {
	.name = "NV40",
	.vram = nv40_vram,
	.heads = 2,
	.gf4_disp = true,
	.dac_load = nvdrm_nv17_dac_load,
	.two_reg_pll = true,
	.prmvio_per_head = true,
	.crtc_cfg = 2,
	.cursor_argb = true,
	.backlight = &nvdrm_nv40_backlight,
	.arb = &nvdrm_nv20_arb,
};

/* named as nouveau names them (device/base.c), so the two logs agree */
static const struct nvdrm_chip nvdrm_chips[] = {
	{ 0x04, "NV04", &nv04_family },
	{ 0x05, "NV05", &nv04_family },
	{ 0x10, "NV10", &nv10_family },
	{ 0x11, "NV11", &nv11_family },
	{ 0x15, "NV15", &nv10_family },
	{ 0x17, "NV17", &nv17_family },
	{ 0x18, "NV18", &nv17_family },
	{ 0x20, "NV20", &nv20_family },
	{ 0x25, "NV25", &nv25_family },
	{ 0x28, "NV28", &nv25_family },
	{ 0x2a, "NV2A", &nv25_family },	/* the Xbox's: NV25's display */
	{ 0x30, "NV30", &nv25_family },
	{ 0x31, "NV31", &nv31_family },
	{ 0x34, "NV34", &nv25_family },
	{ 0x35, "NV35", &nv25_family },
	{ 0x36, "NV36", &nv31_family },
	{ 0x40, "NV40", &nv40_family },
	{ 0x41, "NV41", &nv40_family },
	{ 0x42, "NV42", &nv40_family },
	{ 0x43, "NV43", &nv40_family },
	{ 0x44, "NV44", &nv40_family },
	{ 0x45, "NV45", &nv40_family },
	{ 0x46, "G72", &nv40_family },
	{ 0x47, "G70", &nv40_family },
	{ 0x49, "G71", &nv40_family },
	{ 0x4a, "NV44A", &nv40_family },
	{ 0x4b, "G73", &nv40_family },
	{ 0x4c, "C61", &nv40_family, .igp = true },
	{ 0x4e, "C51", &nv40_family, .igp = true },
	{ 0x63, "C73", &nv40_family, .igp = true },
	{ 0x67, "C67", &nv40_family, .igp = true },
	{ 0x68, "C68", &nv40_family, .igp = true },
};

/* The crystal from the PEXTDEV straps (bit 6; and bit 22 from NV17). */
static u32 nvdrm_crystal(struct nvdrm_device *ndev, u16 chipset)
{
	u32 strap = nv_rd32(ndev, NV_PEXTDEV_BOOT_0);

	if (chipset < 0x17 || (chipset >= 0x20 && chipset < 0x25))
		strap &= 0x00000040;
	else
		strap &= 0x00400040;
	switch (strap) {
	case 0x00000000: return 13500;
	case 0x00000040: return 14318;
	case 0x00400000: return 27000;
	default: return 25000;
	}
}

int nvdrm_chip_identify(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	u32 boot0 = nv_rd32(ndev, NV_PMC_BOOT_0);
	u16 chipset;
	size_t i;
	int ret;

	ndev->boot0 = boot0;
	if (boot0 == 0xffffffff) {
		dev_err(dev, "BOOT_0 reads 0xffffffff: the card does not answer\n");
		return -ENODEV;
	}
	if (nv_rd32(ndev, NV_PMC_BOOT_1)) {
		dev_err(dev, "BOOT_1 is 0x%08x: big-endian MMIO not supported\n",
			nv_rd32(ndev, NV_PMC_BOOT_1));
		return -ENODEV;
	}
	if (boot0 & 0x1f000000)
		chipset = (boot0 >> 20) & 0x1ff;
	else if ((boot0 & 0xff00fff0) == 0x20004000)
		chipset = (boot0 & 0x00f00000) ? 0x05 : 0x04;
	else
		chipset = 0;

	for (i = 0; i < ARRAY_SIZE(nvdrm_chips); i++)
		if (nvdrm_chips[i].chipset == chipset)
			break;
	if (i == ARRAY_SIZE(nvdrm_chips)) {
		dev_err(dev, "unsupported chipset (BOOT_0 0x%08x)\n", boot0);
		return -ENODEV;
	}
	ndev->chip = &nvdrm_chips[i];
	ndev->crystal = nvdrm_crystal(ndev, chipset);

	ret = ndev->chip->funcs->vram(ndev, &ndev->vram_size, &ndev->vram_ddr);
	if (ret) {
		dev_err(dev, "%s: cannot size VRAM\n", ndev->chip->name);
		return ret;
	}
	return 0;
}
