// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: DAC load detection, for a CRT with no DDC.  NV04 to NV11 ramp
 * the blue level of palette entry 0 on head A while sampling the DAC's
 * sense comparator in INP0 bit 4; GeForce4-style displays (NV17 on) insert
 * a test point of known intensity and read SENSEB_ALLHI in TEST_CONTROL.
 * Both as nouveau's dispnv04/dac.c does them.
 */
#include <linux/delay.h>
#include <linux/iopoll.h>

#include "nvdrm_drv.h"

#define NV_PRMCIO_INP0		0x6013c2
#define NV_PRMCIO_INP1		0x6013da
#define NV_PRMDIO_MASK		0x6813c6
#define NV_PRMDIO_READ_ADDR	0x6813c7
#define NV_PRMDIO_WRITE_ADDR	0x6813c8
#define NV_PRMDIO_DATA		0x6813c9
#define NV_PBUS_POWERCTRL_2	0x001588
#define NV_PBUS_POWERCTRL_4	0x001590

#define NV_PRAMDAC_GENERAL_CONTROL	0x600
#define NV_PRAMDAC_TEST_CONTROL		0x608
#define TEST_CONTROL_TP_INS_EN		BIT(12)
#define TEST_CONTROL_PWRDWN_DAC_OFF	BIT(16)
#define TEST_CONTROL_SENSEB_ALLHI	BIT(28)
#define NV_PRAMDAC_TESTPOINT_DATA	0x610
#define TESTPOINT_NOTBLANK		(8u << 28)
#define NV_PRAMDAC_DACCLK		0x52c

#define MAX_HBLANK_OSC		20
#define MAX_SAMPLE_PAIRS	10

/* Wait up to 10 ms for INP1 bit 0 (display disabled: blanking) to be @v;
 * busy, since a scanline is some tens of microseconds.
 */
static int wait_blank(struct nvdrm_device *ndev, bool v)
{
	u32 inp1;

	return readl_poll_timeout_atomic(ndev->mmio + NV_PRMCIO_INP1, inp1,
					 !!(inp1 & 1) == v, 1, 10000);
}

static bool sense(struct nvdrm_device *ndev)
{
	return nv_rd08(ndev, NV_PRMCIO_INP0) & 0x10;
}

/* Two readings of the comparator, each at the start of a scanline. */
static int sample_load_twice(struct nvdrm_device *ndev, bool s[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		bool a, b;
		int j = 0;

		if (wait_blank(ndev, false) || wait_blank(ndev, true) ||
		    wait_blank(ndev, false))
			return -EBUSY;
		usleep_range(100, 120);
		a = sense(ndev);
		do {
			usleep_range(100, 120);
			b = sense(ndev);
			if (a != b && b == sense(ndev)) {
				/* two agreeing readings replace the first */
				a = b;
				b = !a;
			}
		} while (a != b && ++j < MAX_HBLANK_OSC);
		s[i] = j == MAX_HBLANK_OSC ? false : a;
	}
	return 0;
}

bool nvdrm_nv04_dac_load(struct nvdrm_device *ndev,
			 const struct nvdrm_dcb_output *dcb)
{
	u8 seq1, pi, rpc1, cr17, pal[3], mask, blue;
	u32 test, gen;
	bool s = true;
	int i;

	nvdrm_set_owner(ndev, 0);
	cr17 = nvdrm_rd_cr(ndev, 0, 0x17);
	nvdrm_wr_cr(ndev, 0, 0x17, cr17 | 0x80);
	seq1 = nvdrm_rd_sr(ndev, 0, 0x01);
	nvdrm_wr_sr(ndev, 0, 0x01, seq1 & ~0x20);
	test = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL,
			test & ~TEST_CONTROL_PWRDWN_DAC_OFF);
	usleep_range(10000, 11000);

	pi = nvdrm_rd_cr(ndev, 0, 0x28);
	nvdrm_wr_cr(ndev, 0, 0x28, pi & ~0x83);
	rpc1 = nvdrm_rd_cr(ndev, 0, 0x1a);
	nvdrm_wr_cr(ndev, 0, 0x1a, rpc1 & ~0xc0);

	nv_wr08(ndev, NV_PRMDIO_READ_ADDR, 0);
	for (i = 0; i < 3; i++)
		pal[i] = nv_rd08(ndev, NV_PRMDIO_DATA);
	mask = nv_rd08(ndev, NV_PRMDIO_MASK);
	nv_wr08(ndev, NV_PRMDIO_MASK, 0);
	gen = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_GENERAL_CONTROL);
	/* 6-bit DAC, no 75 ohm termination, pixel mixing on */
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_GENERAL_CONTROL,
			(gen & ~(BIT(20) | (2 << 16))) | (3 << 4));

	/* with a load the sense stays high as blue ramps up to 0x17 */
	for (blue = 8; blue < 0x18 && s; blue++) {
		bool pair[2];

		nv_wr08(ndev, NV_PRMDIO_WRITE_ADDR, 0);
		nv_wr08(ndev, NV_PRMDIO_DATA, 0);
		nv_wr08(ndev, NV_PRMDIO_DATA, 0);
		nv_wr08(ndev, NV_PRMDIO_DATA, blue);
		i = 0;
		do {
			if (sample_load_twice(ndev, pair))
				goto out;
		} while (pair[0] != pair[1] && ++i < MAX_SAMPLE_PAIRS);
		s = i == MAX_SAMPLE_PAIRS ? false : pair[0];
		if (!s)
			break;
	}
out:
	nv_wr08(ndev, NV_PRMDIO_MASK, mask);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_GENERAL_CONTROL, gen);
	nv_wr08(ndev, NV_PRMDIO_WRITE_ADDR, 0);
	for (i = 0; i < 3; i++)
		nv_wr08(ndev, NV_PRMDIO_DATA, pal[i]);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL, test);
	nvdrm_wr_cr(ndev, 0, 0x28, pi);
	nvdrm_wr_cr(ndev, 0, 0x1a, rpc1);
	nvdrm_wr_sr(ndev, 0, 0x01, seq1);
	nvdrm_wr_cr(ndev, 0, 0x17, cr17);
	return blue == 0x18;
}

bool nvdrm_nv17_dac_load(struct nvdrm_device *ndev,
			 const struct nvdrm_dcb_output *dcb)
{
	u32 off = (ffs(dcb->or) - 1) * 0x68;	/* DAC B's registers */
	u32 testval = ndev->vbios.dactestval ? ndev->vbios.dactestval :
		      0x140 | 0x140 << 10 | 0x140 << 20;
	u32 test, pc2, pc4 = 0, routput, sample, t;
	int head;

	test = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL + off);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL + off,
			test & ~TEST_CONTROL_PWRDWN_DAC_OFF);
	pc2 = nv_rd32(ndev, NV_PBUS_POWERCTRL_2);
	nv_wr32(ndev, NV_PBUS_POWERCTRL_2, pc2 & 0xd7ffffff);
	if (off == 0x68) {
		pc4 = nv_rd32(ndev, NV_PBUS_POWERCTRL_4);
		nv_wr32(ndev, NV_PBUS_POWERCTRL_4, pc4 & 0xffffffcf);
	}
	usleep_range(4000, 5000);

	/* route the DAC to a head, the idle one if there is one */
	routput = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + off);
	head = (routput & 0x100) >> 8;
	if (!(nvdrm_rd_cr(ndev, head, 0x1a) & 0xc0))
		head ^= 1;
	t = (routput & 0xfffffece) | head << 8;
	if (ndev->chip->chipset >= 0x40)
		t &= ~(0x1a << 16);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + off, t);
	usleep_range(1000, 1500);
	t = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + off);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + off, t | 1);

	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_TESTPOINT_DATA,
			TESTPOINT_NOTBLANK | testval);
	t = nvdrm_rd_ramdac(ndev, head, NV_PRAMDAC_TEST_CONTROL);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_TEST_CONTROL,
			t | TEST_CONTROL_TP_INS_EN);
	usleep_range(5000, 6000);
	/* twice, in case the first is a residual current */
	sample = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL + off);
	sample &= nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL + off);
	t = nvdrm_rd_ramdac(ndev, head, NV_PRAMDAC_TEST_CONTROL);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_TEST_CONTROL,
			t & ~TEST_CONTROL_TP_INS_EN);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_TESTPOINT_DATA, 0);

	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + off, routput);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL + off, test);
	if (off == 0x68)
		nv_wr32(ndev, NV_PBUS_POWERCTRL_4, pc4);
	nv_wr32(ndev, NV_PBUS_POWERCTRL_2, pc2);
	return sample & TEST_CONTROL_SENSEB_ALLHI;
}
