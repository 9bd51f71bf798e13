// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the CRTC FIFO arbitration.  Scanout fetches from memory into a
 * FIFO in bursts; CR1B is the burst size (log2 of 16-byte units) and
 * CR20 (with CR47 on NV20 on) the low watermark in 8-byte units at which
 * the FIFO asks for more.  Too small and the picture snows on memory
 * contention.  NV04 and NV1x compute them from the pixel, memory and core
 * clocks and the memory's latency, as NVIDIA's X driver did (nouveau's
 * arb.c); from NV20 the FIFO is 2 KiB and fixed values do.
 */
#include <linux/log2.h>
#include <linux/math64.h>

#include "nvdrm_drv.h"

#define NV_PRAMDAC_NVPLL	0x680500
#define NV_PRAMDAC_MPLL		0x680504
#define NV04_PFB_CFG1		0x100204

/* A single-register PLL's output, from its limits' reference clock. */
static int nvdrm_pll_khz(struct nvdrm_device *ndev, u32 reg)
{
	struct nvdrm_pll_limits lim;
	u32 v = nv_rd32(ndev, reg);
	u32 m = v & 0xff, n = (v >> 8) & 0xff, log2p = (v >> 16) & 7;

	nvdrm_vbios_pll(ndev, reg, &lim);
	return m ? lim.refclk * n / m >> log2p : 0;
}

/* The memory as POST set it up: its clocks, latencies and bus. */
void nvdrm_arb_init(struct nvdrm_device *ndev)
{
	struct nvdrm_mem_timing *t = &ndev->mem;
	u32 cfg1 = nv_rd32(ndev, NV04_PFB_CFG1);

	t->mclk = nvdrm_pll_khz(ndev, NV_PRAMDAC_MPLL);
	t->nvclk = nvdrm_pll_khz(ndev, NV_PRAMDAC_NVPLL);
	t->cas = cfg1 & 0xf;
	t->page_miss = ((cfg1 >> 4) & 0xf) + (cfg1 >> 31);
	t->ddr = nv_rd32(ndev, NV_PFB_CFG0) & BIT(0);
	t->width = nv_rd32(ndev, NV_PEXTDEV_BOOT_0) & BIT(4) ? 128 : 64;
}

/* ns that @clocks cycles of a @khz clock take */
static int cycles_ns(int clocks, int khz)
{
	return clocks * 1000 * 1000 / khz;
}

/* bytes a @rate kB/s stream moves in @ns */
static int ns_bytes(int ns, int rate)
{
	return div_s64((s64)ns * rate, 1000 * 1000);
}

/*
 * NV04: a 128-byte burst; the watermark covers the refill latency of
 * three page misses plus the fixed pipeline at the scanout's drain rate.
 * With a watermark past the FIFO's 512 bytes, or a burst the memory
 * cannot keep up with, take one fewer extra memory clock and retry.
 */
static void nv04_fifo_arb(struct nvdrm_device *ndev, int clock, int bpp,
			  struct nvdrm_fifo_arb *arb)
{
	const struct nvdrm_mem_timing *t = &ndev->mem;
	const int burst = 128, core_clocks = 10;
	int extra, lwm = 0;

	if (!t->mclk || !t->nvclk || !clock)
		goto out;

	for (extra = 3; ; extra--) {
		int drain = clock * bpp / 8;		/* kB/s */
		int latency = cycles_ns(3 * t->page_miss, t->mclk) +
			      cycles_ns(13 + t->cas + extra, t->mclk) +
			      cycles_ns(core_clocks, t->nvclk) +
			      cycles_ns(core_clocks, clock);
		int m1, p1;

		lwm = ns_bytes(latency, drain) + 1;
		m1 = lwm + burst - 512;
		p1 = m1 * clock / t->mclk * bpp / 8;
		if (!((p1 < m1 && m1 > 0) || lwm > 519) || !extra)
			break;
	}
out:
	arb->burst = ilog2(burst >> 4);
	arb->lwm = max(lwm, 384) >> 3;
}

/*
 * NV1x: the burst is the largest power of two that neither overflows the
 * FIFO (1 KiB, 1.5 KiB with two heads) while the other latencies pass
 * nor holds the memory longer than 80 ns; the watermark sits 10 % of the
 * way from the least that survives the refill latency to the most the
 * FIFO allows.
 */
static void nv10_fifo_arb(struct nvdrm_device *ndev, int clock, int bpp,
			  struct nvdrm_fifo_arb *arb)
{
	const struct nvdrm_mem_timing *t = &ndev->mem;
	const bool two_heads = ndev->chip->funcs->heads > 1;
	const int burst_ns = 80;
	int fill, drain, fifo, mem_clocks, fill_ns, extra_ns, extra_clocks;
	int burst, min_lwm, max_lwm;

	fill = t->mclk * t->width / 8;		/* kB/s */
	drain = clock * bpp / 8;
	if (!t->mclk || !t->nvclk || !clock || fill <= drain) {
		/* no clocks to go by, or the memory cannot feed the mode:
		 * the largest burst, the watermark at half the FIFO
		 */
		arb->burst = ilog2(1024 >> 4);
		arb->lwm = (two_heads ? 768 : 512) >> 3;
		return;
	}
	fifo = two_heads ? 1536 : 1024;

	/* edge sync, arbiter request, tiling, latency FIFO, request and
	 * data return, and 256 bits gathered per read
	 */
	mem_clocks = 1 + 1 + 5 + 2 + 2 + 7 + (t->ddr ? 1 : 2) * t->width / 32;
	fill_ns = cycles_ns(mem_clocks, t->mclk) +
		  cycles_ns(3 + 2 + 1 + 1 + 1 + 1, t->nvclk) +	/* to the FIFO */
		  cycles_ns(4, clock);				/* lwm detect */
	/* the overlay's fetches, page misses and a margin */
	extra_clocks = 4 * t->page_miss + mem_clocks + (bpp == 32 ? 8 : 4);
	extra_ns = cycles_ns(extra_clocks, t->mclk);
	if (two_heads)
		extra_ns += fill_ns + extra_ns + burst_ns;

	burst = div_s64((s64)(1 + fifo - ns_bytes(extra_ns, drain)) *
			(fill / 1000), (fill - drain) / 1000 ?: 1);
	burst = min3(burst, 1024, ns_bytes(burst_ns, fill));
	burst = rounddown_pow_of_two(max(burst, 16));

	min_lwm = ns_bytes(fill_ns + extra_ns, drain) + 1;
	max_lwm = fifo - burst + ns_bytes(fill_ns, drain) +
		  div_s64((s64)burst * drain, fill);

	arb->burst = ilog2(burst >> 4);
	arb->lwm = (min_lwm + 10 * (max_lwm - min_lwm) / 100) >> 3;
}

/* NV20 on: a 2 KiB FIFO, 512-byte bursts, the watermark one burst short
 * of full
 */
static void nv20_fifo_arb(struct nvdrm_device *ndev, int clock, int bpp,
			  struct nvdrm_fifo_arb *arb)
{
	arb->burst = ilog2(512 >> 5);
	arb->lwm = (2048 - 512) >> 3;
}

const struct nvdrm_arb_funcs nvdrm_nv04_arb = {
	.calc = nv04_fifo_arb,
};

const struct nvdrm_arb_funcs nvdrm_nv10_arb = {
	.calc = nv10_fifo_arb,
};

const struct nvdrm_arb_funcs nvdrm_nv20_arb = {
	.calc = nv20_fifo_arb,
	.lwm_cr47 = true,
};
