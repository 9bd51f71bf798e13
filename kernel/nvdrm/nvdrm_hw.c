// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the VGA-compatible and extended display registers of each head,
 * and the video PLLs: M/N/P search within the VBIOS limits (single and
 * two-stage, as nouveau's nv04_pll_calc does it) and programming.
 */
#include <linux/delay.h>
#include <linux/kernel.h>

#include "nvdrm_drv.h"

#define NV_PRMCIO(head)		(0x601000 + (head) * 0x2000)
#define NV_PRMVIO		0x0c0000
#define NV_PCRTC(head)		(0x600000 + (head) * 0x2000)
#define NV_PRAMDAC(head)	(0x680000 + (head) * 0x2000)

#define VGA_ARX			0x3c0
#define VGA_MISC_W		0x3c2
#define VGA_SRX			0x3c4
#define VGA_GRX			0x3ce
#define VGA_CRX			0x3d4
#define VGA_INP1		0x3da

#define NV_CIO_SR_LOCK_INDEX	0x1f
#define NV_CIO_SR_UNLOCK_RW	0x57
#define NV_CIO_SR_LOCK_VALUE	0x99
#define NV_CIO_CRE_44		0x44

#define NV_PRAMDAC_VPLL_COEFF	0x508
#define NV_PRAMDAC_PLL_SELECT	0x50c
#define NV_RAMDAC_VPLL2		0x520
#define NV_RAMDAC_VPLL_B	0x578
#define NV_RAMDAC_VPLL2_B	0x57c
#define PLLSEL_VPLL1		0x10000200	/* PROG_VPLL | VCLK_RATIO_DB2 */
#define PLLSEL_VPLL2		0x20000800	/* SOURCE_VPLL2 | VCLK2_RATIO_DB2 */
#define PLLSEL_TV		0x000f0000

u8 nvdrm_rd_cr(struct nvdrm_device *ndev, int head, u8 index)
{
	nv_wr08(ndev, NV_PRMCIO(head) + VGA_CRX, index);
	return nv_rd08(ndev, NV_PRMCIO(head) + VGA_CRX + 1);
}

void nvdrm_wr_cr(struct nvdrm_device *ndev, int head, u8 index, u8 val)
{
	nv_wr08(ndev, NV_PRMCIO(head) + VGA_CRX, index);
	nv_wr08(ndev, NV_PRMCIO(head) + VGA_CRX + 1, val);
}

/* The sequencer, graphics controller and misc output register exist once
 * before NV40; CR44 on head A selects whose they are.
 */
static u32 prmvio(struct nvdrm_device *ndev, int head)
{
	return NV_PRMVIO + (ndev->chip->funcs->prmvio_per_head ? head * 0x2000 : 0);
}

u8 nvdrm_rd_sr(struct nvdrm_device *ndev, int head, u8 index)
{
	nv_wr08(ndev, prmvio(ndev, head) + VGA_SRX, index);
	return nv_rd08(ndev, prmvio(ndev, head) + VGA_SRX + 1);
}

void nvdrm_wr_sr(struct nvdrm_device *ndev, int head, u8 index, u8 val)
{
	nv_wr08(ndev, prmvio(ndev, head) + VGA_SRX, index);
	nv_wr08(ndev, prmvio(ndev, head) + VGA_SRX + 1, val);
}

void nvdrm_wr_gr(struct nvdrm_device *ndev, int head, u8 index, u8 val)
{
	nv_wr08(ndev, prmvio(ndev, head) + VGA_GRX, index);
	nv_wr08(ndev, prmvio(ndev, head) + VGA_GRX + 1, val);
}

void nvdrm_wr_misc(struct nvdrm_device *ndev, int head, u8 val)
{
	nv_wr08(ndev, prmvio(ndev, head) + VGA_MISC_W, val);
}

/* The attribute controller: reading INP1 resets its index/data flip-flop;
 * bit 5 of the index keeps the palette (and so the display) enabled.
 */
void nvdrm_wr_ar(struct nvdrm_device *ndev, int head, u8 index, u8 val)
{
	nv_rd08(ndev, NV_PRMCIO(head) + VGA_INP1);
	nv_wr08(ndev, NV_PRMCIO(head) + VGA_ARX, index);
	nv_wr08(ndev, NV_PRMCIO(head) + VGA_ARX, val);
}

void nvdrm_set_owner(struct nvdrm_device *ndev, int head)
{
	if (ndev->chip->funcs->heads < 2)
		return;
	/* NV11 needs CR2E read on both heads first, as nouveau does */
	if (ndev->chip->chipset == 0x11) {
		nvdrm_rd_cr(ndev, 0, 0x2e);
		nvdrm_rd_cr(ndev, 1, 0x2e);
	}
	nvdrm_wr_cr(ndev, 0, NV_CIO_CRE_44, head * 0x3);
	if (ndev->chip->chipset == 0x11) {
		nvdrm_wr_cr(ndev, 0, 0x2e, nvdrm_rd_cr(ndev, 0, 0x2e));
		nvdrm_wr_cr(ndev, 0, 0x2e, nvdrm_rd_cr(ndev, 0, 0x2e));
	}
}

void nvdrm_unlock_crtcs(struct nvdrm_device *ndev, bool unlock)
{
	int head;

	for (head = 0; head < ndev->chip->funcs->heads; head++) {
		nvdrm_set_owner(ndev, head);
		nvdrm_wr_cr(ndev, head, NV_CIO_SR_LOCK_INDEX,
			    unlock ? NV_CIO_SR_UNLOCK_RW : NV_CIO_SR_LOCK_VALUE);
	}
	nvdrm_set_owner(ndev, 0);
}

u32 nvdrm_rd_ramdac(struct nvdrm_device *ndev, int head, u32 reg)
{
	return nv_rd32(ndev, NV_PRAMDAC(head) + reg);
}

void nvdrm_wr_ramdac(struct nvdrm_device *ndev, int head, u32 reg, u32 val)
{
	nv_wr32(ndev, NV_PRAMDAC(head) + reg, val);
}

u32 nvdrm_rd_crtc(struct nvdrm_device *ndev, int head, u32 reg)
{
	return nv_rd32(ndev, NV_PCRTC(head) + reg);
}

void nvdrm_wr_crtc(struct nvdrm_device *ndev, int head, u32 reg, u32 val)
{
	nv_wr32(ndev, NV_PCRTC(head) + reg, val);
}

/*
 * Single-stage search: clock * 2^P within the VCO, crystal / M within the
 * input range, N rounded; the closest wins (exhaustively).
 */
static int pll_single(struct nvdrm_device *ndev,
		      const struct nvdrm_pll_limits *lim, int clk,
		      struct nvdrm_pll_vals *pv)
{
	int minvco = lim->vco1_min, maxvco = lim->vco1_max;
	int min_m = lim->vco1_min_m, max_m = lim->vco1_max_m;
	int min_n = lim->vco1_min_n, max_n = lim->vco1_max_n;
	int min_u = lim->vco1_min_in, max_u = lim->vco1_max_in;
	int max_p = lim->max_p, crystal = lim->refclk;
	int cv = ndev->vbios.chip_version;
	int m, n, p, best = INT_MAX, bestclk = 0;

	/* the high-clock M limits nouveau found on NV1x/NV2x/NV3x */
	if (cv < 0x17 || cv == 0x1a || cv == 0x20) {
		if (clk > 250000)
			max_m = 6;
		if (clk > 340000)
			max_m = 2;
	} else if (cv < 0x40) {
		if (clk > 150000)
			max_m = 6;
		if (clk > 200000)
			max_m = 4;
		if (clk > 340000)
			max_m = 2;
	}
	if (clk * (1 << max_p) < minvco) {
		minvco = clk * max_p;
		maxvco = minvco * 2;
	}
	if (clk + clk / 200 > maxvco)
		maxvco = clk + clk / 200;

	for (p = 0; p <= max_p; p++) {
		int clkp = clk << p;

		if (clkp < minvco)
			continue;
		if (clkp > maxvco)
			break;
		for (m = min_m; m <= max_m; m++) {
			int calc, delta;

			if (crystal / m < min_u)
				return bestclk;
			if (crystal / m > max_u)
				continue;
			n = (clkp * m + crystal / 2) / crystal;
			if (n < min_n)
				continue;
			if (n > max_n)
				break;
			calc = ((n * crystal + (1 << p) / 2) / (1 << p) + m / 2) / m;
			delta = abs(calc - clk);
			if (delta < best) {
				best = delta;
				bestclk = calc;
				*pv = (struct nvdrm_pll_vals) {
					.n1 = n, .m1 = m, .n2 = 1, .m2 = 1,
					.log2p = p, .clock = calc,
				};
				if (!delta)
					return bestclk;
			}
		}
	}
	return bestclk;
}

/* Two-stage search: crystal * N1 / M1 into VCO1, then * N2 / M2 into VCO2
 * (N2 / M2 between 4 and 10 before NV50), then >> P.
 */
static int pll_double(struct nvdrm_device *ndev,
		      const struct nvdrm_pll_limits *lim, int clk,
		      struct nvdrm_pll_vals *pv)
{
	int maxvco2 = lim->vco2_max, crystal = lim->refclk;
	bool fixed2 = lim->vco2_min_m == lim->vco2_max_m &&
		      lim->vco2_min_n == lim->vco2_max_n;
	int vco2 = (maxvco2 - maxvco2 / 200) / 2;
	int m1, n1, m2, n2, log2p = 0, clkp;
	int best = INT_MAX, bestclk = 0;

	while (clk && log2p < lim->max_p && clk <= (vco2 >> log2p))
		log2p++;
	clkp = clk << log2p;
	if (maxvco2 < clk + clk / 200)
		maxvco2 = clk + clk / 200;

	for (m1 = lim->vco1_min_m; m1 <= lim->vco1_max_m; m1++) {
		if (crystal / m1 < (int)lim->vco1_min_in)
			return bestclk;
		if (crystal / m1 > (int)lim->vco1_max_in)
			continue;
		for (n1 = lim->vco1_min_n; n1 <= lim->vco1_max_n; n1++) {
			int c1 = crystal * n1 / m1;

			if (c1 < (int)lim->vco1_min)
				continue;
			if (c1 > (int)lim->vco1_max)
				break;
			for (m2 = lim->vco2_min_m; m2 <= lim->vco2_max_m; m2++) {
				int c2, out, delta;

				if (c1 / m2 < (int)lim->vco2_min_in)
					break;
				if (c1 / m2 > (int)lim->vco2_max_in)
					continue;
				n2 = (clkp * m2 + c1 / 2) / c1;
				if (n2 < lim->vco2_min_n)
					continue;
				if (n2 > lim->vco2_max_n)
					break;
				if (!fixed2) {
					if (ndev->vbios.chip_version < 0x60 &&
					    (n2 / m2 < 4 || n2 / m2 > 10))
						continue;
					c2 = c1 * n2 / m2;
					if (c2 < (int)lim->vco2_min)
						break;
					if (c2 > maxvco2)
						continue;
				} else {
					c2 = c1;
				}
				out = c2 >> log2p;
				delta = abs(out - clk);
				if (delta < best) {
					best = delta;
					bestclk = out;
					*pv = (struct nvdrm_pll_vals) {
						.n1 = n1, .m1 = m1, .n2 = n2,
						.m2 = m2, .log2p = log2p,
						.clock = out,
					};
					if (!delta)
						return bestclk;
				}
			}
		}
	}
	return bestclk;
}

int nvdrm_pll_calc(struct nvdrm_device *ndev,
		   const struct nvdrm_pll_limits *lim, int clock,
		   struct nvdrm_pll_vals *pv)
{
	int ret;

	if (lim->vco2_max && ndev->chip->funcs->two_reg_pll)
		ret = pll_double(ndev, lim, clock, pv);
	else
		ret = pll_single(ndev, lim, clock, pv);
	return ret ? 0 : -ERANGE;
}

/*
 * Program head @head's VPLL for @clock kHz and select it as the head's
 * pixel clock source.
 */
int nvdrm_vpll_set(struct nvdrm_device *ndev, int head, int clock)
{
	u32 reg = head ? NV_RAMDAC_VPLL2 : NV_PRAMDAC_VPLL_COEFF;
	struct nvdrm_pll_limits lim;
	struct nvdrm_pll_vals pv;
	u32 sel;
	int ret;

	nvdrm_vbios_pll(ndev, 0x680000 + reg, &lim);
	ret = nvdrm_pll_calc(ndev, &lim, clock, &pv);
	if (ret) {
		drm_err(&ndev->drm, "head %d: no VPLL setting for %d kHz\n",
			head, clock);
		return ret;
	}
	drm_dbg_kms(&ndev->drm, "head %d: %d kHz: N1 %d M1 %d N2 %d M2 %d P %d (%d kHz)\n",
		    head, clock, pv.n1, pv.m1, pv.n2, pv.m2, pv.log2p, pv.clock);

	if (ndev->chip->funcs->two_reg_pll) {
		u32 reg2 = head ? NV_RAMDAC_VPLL2_B : NV_RAMDAC_VPLL_B;

		nvdrm_wr_ramdac(ndev, 0, reg2, BIT(31) | pv.n2 << 8 | pv.m2);
		nvdrm_wr_ramdac(ndev, 0, reg, pv.log2p << 16 | pv.n1 << 8 | pv.m1);
	} else {
		u32 old = nvdrm_rd_ramdac(ndev, 0, reg);
		u32 nm = pv.n1 << 8 | pv.m1;
		u32 pll = (old & 0xfff80000) | pv.log2p << 16 | nm;
		int old_n = (old >> 8) & 0xff, old_m = old & 0xff;
		u8 cv = ndev->vbios.chip_version;

		/* as the VBIOS does: going up, the post divider first; going
		 * down, N and M first; then let the VCO settle on old chips
		 */
		if (old_m && old_n / old_m < pv.n1 / pv.m1)
			nvdrm_wr_ramdac(ndev, 0, reg,
					pv.log2p << 16 | (old & 0xffff));
		else
			nvdrm_wr_ramdac(ndev, 0, reg, (old & 0xffff0000) | nm);
		if ((cv < 0x17 || cv == 0x1a) && cv != 0x11)
			msleep(64);
		nvdrm_wr_ramdac(ndev, 0, reg, pll);
	}

	/*
	 * Clock selection as nouveau leaves it: the programmable VPLL for
	 * this head (with the VCLK ratio bit nouveau sets), the other head's
	 * and the TV bits kept, NVPLL and MPLL programmable before NV41.
	 */
	sel = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_PLL_SELECT) &
	      (PLLSEL_VPLL1 | PLLSEL_VPLL2 | PLLSEL_TV);
	if (ndev->chip->chipset >= 0x40)
		sel |= 4;			/* USE_VPLL2_TRUE */
	if (ndev->chip->chipset < 0x41)
		sel |= 0x500;			/* PROG_MPLL | PROG_NVPLL */
	sel |= head ? PLLSEL_VPLL2 : PLLSEL_VPLL1;
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_PLL_SELECT, sel);
	return 0;
}
