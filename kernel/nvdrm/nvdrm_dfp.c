// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: TMDS (DVI) and LVDS outputs of the chip itself.  Each head's
 * RAMDAC has a flat-panel timing generator (the FP_* registers) that
 * re-times the CRTC's pixels for the sink; the VBIOS's TMDS script for the
 * pixel clock sets the transmitter up, and the driver then binds the
 * transmitter to the head -- as nouveau's dispnv04/dfp.c.  An LVDS panel
 * has its own scripts in the VBIOS's LVDS table: panel off, a reset for
 * the link count and colour depth by pixel clock, panel on (nouveau's
 * call_lvds_script).  The mode goes out as it is: DVI sinks get it
 * centred, a panel only its native mode (no GPU scaling yet).
 */
#include <drm/drm_atomic.h>
#include <drm/drm_modes.h>

#include "nvdrm_drv.h"

/* the timing generator: vertical registers, the horizontal ones at +0x20 */
#define NV_PRAMDAC_FP_VDISPLAY_END	0x800
#define NV_PRAMDAC_FP_HDISPLAY_END	0x820
enum {
	FP_DISPLAY_END, FP_TOTAL, FP_CRTC, FP_SYNC_START, FP_SYNC_END,
	FP_VALID_START, FP_VALID_END, FP_REGS
};

#define NV_PRAMDAC_FP_TG_CONTROL	0x848
#define FP_TG_VSYNC_POS			BIT(0)
#define FP_TG_VSYNC_DISABLE		(2 << 0)
#define FP_TG_HSYNC_POS			BIT(4)
#define FP_TG_HSYNC_DISABLE		(2 << 4)
#define FP_TG_MODE_CENTER		BIT(8)
#define FP_TG_MODE_NATIVE		(2 << 8)
#define FP_TG_READ_PROG			BIT(20)
#define FP_TG_WIDTH_12			BIT(24)
#define FP_TG_DISPEN_POS		BIT(28)
#define FP_TG_DISPEN_DISABLE		(2 << 28)
#define FP_TG_DUAL_LINK			(8 << 28)
#define FP_TG_ON	(FP_TG_DISPEN_POS | FP_TG_HSYNC_POS | FP_TG_VSYNC_POS)
#define FP_TG_OFF	(FP_TG_DISPEN_DISABLE | FP_TG_HSYNC_DISABLE | \
			 FP_TG_VSYNC_DISABLE)
#define NV_PRAMDAC_FP_MARGIN_COLOR	0x84c
#define NV_PRAMDAC_FP_DEBUG_0		0x880
/* bilinear X/Y interpolation with rounding, TMDS on, scalers enabled */
#define FP_DEBUG_0_TMDS			0x01101191
#define NV_PRAMDAC_FP_DEBUG_1		0x884
#define NV_PRAMDAC_FP_DEBUG_2		0x888
#define NV_PRAMDAC_FP_TMDS_CONTROL	0x8b0
#define TMDS_CONTROL_WRITE_DISABLE	BIT(16)
#define NV_PRAMDAC_FP_TMDS_DATA		0x8b4
#define NV_PRAMDAC_TEST_CONTROL		0x608
#define NV_PRAMDAC_SEL_CLK		0x524
#define NV_PBUS_POWERCTRL_2		0x001588

#define CR_LCD				0x33	/* FP routing */
#define CR_LCD_ROUTE_MASK		0x3b

#define NV_PEXTDEV_BOOT_0_FP_12BIT	(8 << 12)

#define DUAL_LINK_KHZ			165000

/* the head's RAMDAC the output sits behind (DCB OR C: the second) */
static int dfp_ramdac(const struct nvdrm_dcb_output *dcb)
{
	return (dcb->or & 4) >> 2;
}

static void tmds_write(struct nvdrm_device *ndev,
		       const struct nvdrm_dcb_output *dcb, int link, u8 addr,
		       u8 data)
{
	int ramdac = dfp_ramdac(dcb);

	nvdrm_wr_ramdac(ndev, ramdac, NV_PRAMDAC_FP_TMDS_DATA + link * 8, data);
	nvdrm_wr_ramdac(ndev, ramdac, NV_PRAMDAC_FP_TMDS_CONTROL + link * 8,
			addr);
}

static u16 vb16_at(const struct nvdrm_vbios *vb, u32 at)
{
	return at + 2 <= vb->size ? vb->data[at] | vb->data[at + 1] << 8 : 0;
}

/*
 * The script for @clock in a pixel-clock comparison table: records of
 * {clock / 10 kHz, script}, highest clock first, the last of clock 0
 * serving every lower clock; before VBIOS 5.x the script is a byte, its
 * index in the init script table (nouveau's clkcmptable).
 */
static u16 clock_script(const struct nvdrm_vbios *vb, u16 table, int clock)
{
	int rec = vb->major_version < 5 ? 3 : 4;
	u32 at;
	u16 min;

	if (!table)
		return 0;
	for (at = table; at + rec <= vb->size; at += rec) {
		min = vb16_at(vb, at);
		if (clock < min * 10)
			continue;
		if (rec == 4)
			return vb16_at(vb, at + 2);
		if (!vb->script_table)
			return 0;
		return vb16_at(vb, vb->script_table + 2 * vb->data[at + 2]);
	}
	return 0;
}

/* a TMDS output's script: the table for OR A, or the one for B and C */
static u16 tmds_script(struct nvdrm_device *ndev,
		       const struct nvdrm_dcb_output *dcb, int clock)
{
	const struct nvdrm_vbios *vb = &ndev->vbios;

	return clock_script(vb, vb->tmds_table[ffs(dcb->or) == 1 ? 0 : 1],
			    clock);
}

/* ---- LVDS panels -------------------------------------------------------- */

enum lvds_script { LVDS_RESET = 2, LVDS_PANEL_ON = 5, LVDS_PANEL_OFF = 6 };

/*
 * Two links from the table's transition clock: nouveau goes by the clock
 * on NV4x whatever the strap's record says (nouveau_bios_parse_lvds_table),
 * and the reset script it picks must match what the panel is sent.
 */
static bool lvds_dual_link(const struct nvdrm_vbios *vb, int clock)
{
	return clock >= vb->lvds_duallink_khz;
}

/* the DCB says the strap's record describes the panel (before DCB 2.2
 * always so)
 */
static bool lvds_strapped(struct nvdrm_output *o)
{
	return o->ndev->vbios.dcb_version < 0x22 || o->dcb->conf & 1;
}

/*
 * The table's scripts for output set @set (1: OR C): panel on at +7, off
 * at +11; the reset scripts by pixel clock from the clock tables at +15,
 * by set, link count and colour depth (run_lvds_table).
 */
static u16 lvds_script(struct nvdrm_output *o, enum lvds_script which,
		       int clock)
{
	const struct nvdrm_vbios *vb = &o->ndev->vbios;
	int set = o->dcb->or == 4, t = vb->lvds_table;
	bool is24;

	switch (which) {
	case LVDS_PANEL_ON:
		return vb16_at(vb, t + 7 + 2 * set);
	case LVDS_PANEL_OFF:
		return vb16_at(vb, t + 11 + 2 * set);
	case LVDS_RESET:
		if (lvds_strapped(o))
			is24 = vb->lvds_conf & 2;
		else
			is24 = vb->lvds_24bit_mask &
			       ((set ? 4 : 1) << o->dual_link);
		return clock_script(vb, vb16_at(vb, t + 15 + 8 * set +
						   4 * o->dual_link + 2 * is24),
				    clock);
	}
	return 0;
}

/* the transmitter (both links of a dual-link mode) on the head */
static void dfp_bind(struct nvdrm_output *o, int head, bool dl)
{
	const struct nvdrm_dcb_output *dcb = o->dcb;
	u8 tmds04 = head == dfp_ramdac(dcb) ? 0x80 : 0x88;

	if (dcb->type == NVDRM_OUTPUT_LVDS)
		tmds04 |= 0x01;
	tmds_write(o->ndev, dcb, 0, 0x04, tmds04);
	if (dl)
		tmds_write(o->ndev, dcb, 1, 0x04, tmds04 ^ 0x08);
}

/* A VBIOS output script on @head, which may not move the output's PLL. */
static void dfp_run_script(struct nvdrm_output *o, int head, u16 script)
{
	struct nvdrm_device *ndev = o->ndev;
	u32 binding = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_SEL_CLK) & 0x50000;

	nvdrm_set_owner(ndev, head);
	nvdrm_script_run(ndev, script, o->dcb, head);
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_SEL_CLK,
			(nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_SEL_CLK) &
			 ~0x50000) | binding);
}

/*
 * One of the panel's scripts, not twice in a row on a head; the reset
 * comes after the panel is off, and before it is on (the 3.0 table's
 * power_off_for_reset and reset_after_pclk_change).  Then the link goes
 * back on the head, and PBUS_POWERCTRL_2, which some scripts set and
 * which breaks the overlay, back to 0.
 */
static void lvds_run(struct nvdrm_output *o, int head, enum lvds_script which,
		     int clock)
{
	struct nvdrm_device *ndev = o->ndev;
	u16 script;

	/* DCB 2.2 on: conf bit 2 says whether the panel has power scripts */
	if (which != LVDS_RESET && ndev->vbios.dcb_version >= 0x22 &&
	    !(o->dcb->conf & 4))
		return;
	if (o->lvds_last == (which << 1 | head))
		return;
	if (which == LVDS_RESET)
		lvds_run(o, head, LVDS_PANEL_OFF, clock);
	if (which == LVDS_PANEL_ON)
		lvds_run(o, head, LVDS_RESET, clock);
	script = lvds_script(o, which, clock);
	if (!script) {
		drm_warn(&ndev->drm, "DCB output %d: no LVDS script %d for %d kHz\n",
			 o->index, which, clock);
		return;
	}
	dfp_run_script(o, head, script);
	dfp_bind(o, head, o->dual_link);
	o->lvds_last = which << 1 | head;
	nv_wr32(ndev, NV_PBUS_POWERCTRL_2, 0);
}

/* The panel's own mode, where the strap names one in the flat panel table
 * (nouveau_bios_fp_mode): false if there is none.
 */
bool nvdrm_fp_mode(struct nvdrm_device *ndev, struct drm_display_mode *m)
{
	const struct nvdrm_vbios *vb = &ndev->vbios;
	u16 r = vb->fp_mode;

	if (!r || !vb16_at(vb, r))
		return false;
	memset(m, 0, sizeof(*m));
	m->clock = vb16_at(vb, r) * 10;
	m->hdisplay = vb16_at(vb, r + 4) + 1;
	m->hsync_start = vb16_at(vb, r + 10) + 1;
	m->hsync_end = vb16_at(vb, r + 12) + 1;
	m->htotal = vb16_at(vb, r + 14) + 1;
	m->vdisplay = vb16_at(vb, r + 18) + 1;
	m->vsync_start = vb16_at(vb, r + 24) + 1;
	m->vsync_end = vb16_at(vb, r + 26) + 1;
	m->vtotal = vb16_at(vb, r + 28) + 1;
	m->flags = (vb->data[r + 30] & 0x10 ? DRM_MODE_FLAG_PHSYNC :
					     DRM_MODE_FLAG_NHSYNC) |
		   (vb->data[r + 30] & 0x01 ? DRM_MODE_FLAG_PVSYNC :
					     DRM_MODE_FLAG_NVSYNC);
	m->type = DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED;
	drm_mode_set_name(m);
	return true;
}

/* ---- both --------------------------------------------------------------- */

void nvdrm_dfp_mode_set(struct nvdrm_output *o, int head,
			const struct drm_display_mode *m)
{
	struct nvdrm_device *ndev = o->ndev;
	u32 fp_h[FP_REGS], fp_v[FP_REGS], fpc, sel;
	int porch = ndev->vbios.digital_min_front_porch, i;

	fp_h[FP_DISPLAY_END] = m->hdisplay - 1;
	fp_h[FP_TOTAL] = m->htotal - 1;
	/* GeForce4-style timing generators want a minimum front porch */
	if (ndev->chip->funcs->gf4_disp &&
	    m->hsync_start - m->hdisplay < porch)
		fp_h[FP_CRTC] = m->hsync_start - porch - 1;
	else
		fp_h[FP_CRTC] = m->hdisplay;
	fp_h[FP_SYNC_START] = m->hsync_start - 1;
	fp_h[FP_SYNC_END] = m->hsync_end - 1;
	fp_h[FP_VALID_START] = m->hskew;
	fp_h[FP_VALID_END] = m->hdisplay - 1;

	fp_v[FP_DISPLAY_END] = m->vdisplay - 1;
	fp_v[FP_TOTAL] = m->vtotal - 1;
	fp_v[FP_CRTC] = m->vtotal - 5 - 1;
	fp_v[FP_SYNC_START] = m->vsync_start - 1;
	fp_v[FP_SYNC_END] = m->vsync_end - 1;
	fp_v[FP_VALID_START] = 0;
	fp_v[FP_VALID_END] = m->vdisplay - 1;

	for (i = 0; i < FP_REGS; i++) {
		nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_VDISPLAY_END + 4 * i,
				fp_v[i]);
		nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_HDISPLAY_END + 4 * i,
				fp_h[i]);
	}

	/* what a DVI sink is sent unscaled, centred if it is bigger; a
	 * panel gets its native mode
	 */
	fpc = nvdrm_rd_ramdac(ndev, head, NV_PRAMDAC_FP_TG_CONTROL);
	fpc = (fpc & (BIT(26) | FP_TG_READ_PROG)) | FP_TG_DISPEN_POS;
	if (o->dcb->type == NVDRM_OUTPUT_LVDS) {
		fpc |= FP_TG_MODE_NATIVE;
		o->dual_link = lvds_dual_link(&ndev->vbios, m->clock);
	} else {
		fpc |= FP_TG_MODE_CENTER;
		o->dual_link = m->clock > DUAL_LINK_KHZ;
	}
	if (m->flags & DRM_MODE_FLAG_PVSYNC)
		fpc |= FP_TG_VSYNC_POS;
	if (m->flags & DRM_MODE_FLAG_PHSYNC)
		fpc |= FP_TG_HSYNC_POS;
	if (nv_rd32(ndev, NV_PEXTDEV_BOOT_0) & NV_PEXTDEV_BOOT_0_FP_12BIT)
		fpc |= FP_TG_WIDTH_12;
	if (o->dual_link)
		fpc |= FP_TG_DUAL_LINK;
	o->fp_control = fpc;
	/* the timing generator stays off until the link is up */
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_TG_CONTROL,
			(fpc & ~FP_TG_ON) | FP_TG_OFF);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_DEBUG_0, FP_DEBUG_0_TMDS);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_DEBUG_1, 0);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_DEBUG_2, 0);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_MARGIN_COLOR, 0);

	/* route the head to the flat panel interface */
	i = (nvdrm_rd_cr(ndev, head, CR_LCD) & ~CR_LCD_ROUTE_MASK) | 0x3;
	if (ndev->chip->funcs->heads > 1)
		i |= head ? 0 : 0x8;
	nvdrm_wr_cr(ndev, head, CR_LCD, i);

	/* which VPLL clocks the output: bit 16 (OR A) or 18 set for head B */
	sel = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_SEL_CLK);
	i = o->dcb->or & 1 ? 0x10000 : 0x40000;
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_SEL_CLK,
			head ? sel | i : sel & ~i);
}

void nvdrm_dfp_enable(struct nvdrm_output *o, int head, int clock)
{
	struct nvdrm_device *ndev = o->ndev;
	const struct nvdrm_dcb_output *dcb = o->dcb;
	bool lvds = dcb->type == NVDRM_OUTPUT_LVDS;
	u16 script;
	u32 tp;

	if (lvds) {
		lvds_run(o, head, LVDS_RESET, clock);
	} else {
		script = tmds_script(ndev, dcb, clock);
		if (script)
			dfp_run_script(o, head, script);
		else
			drm_warn(&ndev->drm, "DCB output %d: no TMDS script for %d kHz\n",
				 o->index, clock);
		/* the DVI link went up at TMDS dual-link clocks */
		dfp_bind(o, head, clock >= DUAL_LINK_KHZ);
	}

	tp = ndev->chip->chipset < 0x44 ? 0xf0000000 : 0x00100000;
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_TEST_CONTROL +
			(ffs(dcb->or) - 1) * 0x68, tp);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_TG_CONTROL, o->fp_control);
	if (lvds)
		lvds_run(o, head, LVDS_PANEL_ON, clock);
}

/* Cut the head's flat panel output (if it is on, unless @always). */
static void fp_off(struct nvdrm_device *ndev, int head, bool always)
{
	u32 fpc = nvdrm_rd_ramdac(ndev, head, NV_PRAMDAC_FP_TG_CONTROL);

	if (always || fpc & FP_TG_ON)
		nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_FP_TG_CONTROL,
				(fpc & ~FP_TG_ON) | FP_TG_OFF);
}

void nvdrm_dfp_disable(struct nvdrm_output *o, int head)
{
	if (o->dcb->type == NVDRM_OUTPUT_LVDS)
		lvds_run(o, head, LVDS_PANEL_OFF, 0);
	fp_off(o->ndev, head, true);
}

/* A head that a CRT now drives leaves the flat panel interface. */
void nvdrm_dfp_release_head(struct nvdrm_device *ndev, int head)
{
	fp_off(ndev, head, false);
	nvdrm_wr_cr(ndev, head, CR_LCD,
		    nvdrm_rd_cr(ndev, head, CR_LCD) & ~CR_LCD_ROUTE_MASK);
}

/*
 * The fastest pixel clock the transmitter takes: on-chip links are slower
 * on older chips (nouveau's get_tmds_link_bandwidth), doubled where the
 * DCB gives the output two links (two adjacent OR bits).
 */
int nvdrm_dfp_max_clock(const struct nvdrm_output *o)
{
	u16 chipset = o->ndev->chip->chipset;
	u8 or = o->dcb->or;
	int links = or && (1 << (ffs(or) - 1)) * 3 == or ? 2 : 1;

	if (o->dcb->location || chipset >= 0x46)
		return 165000 * links;
	if (chipset >= 0x40)
		return 155000 * links;
	if (chipset >= 0x18)
		return 135000 * links;
	return 112000 * links;
}
