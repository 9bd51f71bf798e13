// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: atomic mode setting.  One CRTC with a primary plane per head,
 * one encoder and connector per DCB output.  A mode is programmed the way
 * the hardware (and nouveau's dispnv04) wants it: the VGA timing registers
 * with their extended overflow bits, the NV extended CRTC registers, the
 * head's VPLL from the VBIOS PLL limits, and the RAMDAC general control;
 * the plane sets the start address, pitch and pixel depth.
 */
#include <linux/delay.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_edid.h>
#include <drm/drm_fourcc.h>
#include <drm/i2c/ch7006.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_gem_vram_helper.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "nvdrm_drv.h"

/* extended CRTC registers */
#define CR_RPC0			0x19	/* 7:5 pitch 10:8 */
#define CR_RPC1			0x1a	/* 2 large screen, 7:6 sync off */
#define CR_LSR			0x25
#define CR_PIXEL		0x28	/* 1:0 depth; 7 slaved (FP/TV) */
#define CR_HEB			0x2d
#define CR_ILACE		0x39
#define CR_SCRATCH3		0x3b
#define CR_EBR			0x41
#define CR_42			0x42	/* 6 pitch 11 */
#define CR_53			0x53
#define CR_54			0x54
#define CR_59			0x59

#define NV_PCRTC_START		0x800
#define NV_PCRTC_CONFIG		0x804
#define NV_PCRTC_830		0x830
#define NV_PCRTC_834		0x834
#define NV_PCRTC_ENGINE_CTRL	0x860
#define NV_CRTC_FSEL_I2C	BIT(4)

#define NV_PRAMDAC_GENERAL_CONTROL	0x600
#define GENCTRL_PIXMIX_ON	(3 << 4)
#define GENCTRL_VGA_STATE_SEL	BIT(8)
#define GENCTRL_ALT_MODE_SEL	BIT(12)
#define GENCTRL_BPC_8BITS	BIT(20)
#define GENCTRL_PIPE_LONG	(2 << 28)
#define NV_PRAMDAC_DACCLK	0x52c

/* bit @from of @v placed at @to */
#define XB(v, from, to)		((((v) >> (from)) & 1) << (to))

static const u32 nvdrm_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_RGB565,
};

static struct nvdrm_output *to_output(struct drm_connector *c)
{
	return container_of(c, struct nvdrm_output, connector);
}

/* ---- CRTC ------------------------------------------------------------- */

static enum drm_mode_status nvdrm_crtc_mode_valid(struct drm_crtc *crtc,
						  const struct drm_display_mode *m)
{
	if (m->clock > 350000)
		return MODE_CLOCK_HIGH;
	if (m->crtc_htotal > 4096 * 2 || m->hdisplay > 2048 ||
	    m->vdisplay > 2048 || m->crtc_vtotal > 4096)
		return MODE_BAD;
	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		return MODE_NO_INTERLACE;
	return MODE_OK;
}

static int nvdrm_crtc_atomic_check(struct drm_crtc *crtc,
				   struct drm_atomic_state *state)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);
	struct nvdrm_device *ndev = to_nvdrm(crtc->dev);
	struct nvdrm_pll_limits lim;
	struct nvdrm_pll_vals pv;
	u32 reg = to_head(crtc)->index ? 0x680520 : 0x680508;

	if (!cs->enable)
		return 0;
	nvdrm_vbios_pll(ndev, reg, &lim);
	if (nvdrm_pll_calc(ndev, &lim, cs->adjusted_mode.clock, &pv)) {
		drm_dbg_kms(crtc->dev, "no VPLL setting for %d kHz\n",
			    cs->adjusted_mode.clock);
		return -EINVAL;
	}
	return 0;
}

/*
 * The timing registers for @m, as the VGA layout wants them (units of 8
 * pixels horizontally, overflow bits scattered over CR07, CR09, CR25,
 * CR2D, CR41) -- the same values nouveau's nv_crtc_mode_set_vga computes.
 */
static void nvdrm_crtc_set_timings(struct nvdrm_device *ndev, int head,
				   const struct drm_display_mode *m,
				   bool digital)
{
	int hde = (m->crtc_hdisplay >> 3) - 1;
	int hrs = (m->crtc_hsync_start >> 3) + 1;
	int hre = (m->crtc_hsync_end >> 3) + 1;
	int ht = (m->crtc_htotal >> 3) - 5;
	int hbs = hde;
	int hbe = (m->crtc_htotal >> 3) - 1;
	int vde = m->crtc_vdisplay - 1;
	int vrs = m->crtc_vsync_start - 1;
	int vre = m->crtc_vsync_end - 1;
	int vt = m->crtc_vtotal - 2;
	int vbs = vde;
	int vbe = m->crtc_vtotal - 1;
	u8 misc, cr11;
	int i;

	if (digital) {
		/* the flat panel's own timing generator sets the syncs */
		vrs = vt - 3;
		vre = vt - 2;
		vbs = vrs;
		hrs = ht - 5;
		hre = ht - 2;
		hbe = ht + 4;
	}

	misc = 0x23;
	if (m->flags & DRM_MODE_FLAG_NHSYNC)
		misc |= 0x40;
	if (m->flags & DRM_MODE_FLAG_NVSYNC)
		misc |= 0x80;

	/* sequencer in reset while the clocking changes */
	nvdrm_wr_sr(ndev, head, 0x00, 0x01);
	nvdrm_wr_misc(ndev, head, misc);
	nvdrm_wr_sr(ndev, head, 0x01, 0x21);	/* 8-dot, screen off */
	nvdrm_wr_sr(ndev, head, 0x02, 0x0f);
	nvdrm_wr_sr(ndev, head, 0x03, 0x00);
	nvdrm_wr_sr(ndev, head, 0x04, 0x0e);
	nvdrm_wr_sr(ndev, head, 0x00, 0x03);

	/* CR00-07 are write-protected while CR11 bit 7 is set */
	cr11 = nvdrm_rd_cr(ndev, head, 0x11);
	nvdrm_wr_cr(ndev, head, 0x11, cr11 & 0x7f);
	nvdrm_wr_cr(ndev, head, 0x00, ht);
	nvdrm_wr_cr(ndev, head, 0x01, hde);
	nvdrm_wr_cr(ndev, head, 0x02, hbs);
	nvdrm_wr_cr(ndev, head, 0x03, 0x80 | (hbe & 0x1f));
	nvdrm_wr_cr(ndev, head, 0x04, hrs);
	nvdrm_wr_cr(ndev, head, 0x05, XB(hbe, 5, 7) | (hre & 0x1f));
	nvdrm_wr_cr(ndev, head, 0x06, vt);
	nvdrm_wr_cr(ndev, head, 0x07,
		    XB(vrs, 9, 7) | XB(vde, 9, 6) | XB(vt, 9, 5) | BIT(4) |
		    XB(vbs, 8, 3) | XB(vrs, 8, 2) | XB(vde, 8, 1) |
		    XB(vt, 8, 0));
	nvdrm_wr_cr(ndev, head, 0x08, 0x00);
	nvdrm_wr_cr(ndev, head, 0x09,
		    ((m->flags & DRM_MODE_FLAG_DBLSCAN) ? 0x80 : 0) | BIT(6) |
		    XB(vbs, 9, 5));
	for (i = 0x0a; i <= 0x0f; i++)
		nvdrm_wr_cr(ndev, head, i, 0x00);
	nvdrm_wr_cr(ndev, head, 0x10, vrs);
	nvdrm_wr_cr(ndev, head, 0x12, vde);
	nvdrm_wr_cr(ndev, head, 0x14, 0x00);
	nvdrm_wr_cr(ndev, head, 0x15, vbs);
	nvdrm_wr_cr(ndev, head, 0x16, vbe);
	nvdrm_wr_cr(ndev, head, 0x17, 0x43);	/* sync off until enabled */
	nvdrm_wr_cr(ndev, head, 0x18, 0xff);
	nvdrm_wr_cr(ndev, head, 0x11, BIT(5) | (vre & 0x0f));

	nvdrm_wr_cr(ndev, head, CR_RPC1, m->crtc_hdisplay < 1280 ? 0x04 : 0x00);
	nvdrm_wr_cr(ndev, head, CR_LSR,
		    XB(hbe, 6, 4) | XB(vbs, 10, 3) | XB(vrs, 10, 2) |
		    XB(vde, 10, 1) | XB(vt, 10, 0));
	nvdrm_wr_cr(ndev, head, CR_HEB,
		    XB(hrs, 8, 3) | XB(hbs, 8, 2) | XB(hde, 8, 1) | XB(ht, 8, 0));
	if (ndev->chip->chipset >= 0x10)
		nvdrm_wr_cr(ndev, head, CR_EBR,
			    XB(vbs, 11, 3) | XB(vrs, 11, 2) | XB(vde, 11, 1) |
			    XB(vt, 11, 0));
	nvdrm_wr_cr(ndev, head, CR_ILACE, 0xff);	/* interlace off */

	/* graphics controller and attributes: a packed-pixel graphics mode */
	nvdrm_wr_gr(ndev, head, 0x00, 0x00);
	nvdrm_wr_gr(ndev, head, 0x01, 0x00);
	nvdrm_wr_gr(ndev, head, 0x02, 0x00);
	nvdrm_wr_gr(ndev, head, 0x03, 0x00);
	nvdrm_wr_gr(ndev, head, 0x04, 0x00);
	nvdrm_wr_gr(ndev, head, 0x05, 0x40);
	nvdrm_wr_gr(ndev, head, 0x06, 0x05);
	nvdrm_wr_gr(ndev, head, 0x07, 0x0f);
	nvdrm_wr_gr(ndev, head, 0x08, 0xff);
	for (i = 0; i < 16; i++)
		nvdrm_wr_ar(ndev, head, i, i);
	nvdrm_wr_ar(ndev, head, 0x10, 0x01);
	nvdrm_wr_ar(ndev, head, 0x11, 0x00);
	nvdrm_wr_ar(ndev, head, 0x12, 0x0f);
	nvdrm_wr_ar(ndev, head, 0x13, 0x00);
	nvdrm_wr_ar(ndev, head, 0x14 | 0x20, 0x00);	/* palette on again */
}

static void nvdrm_crtc_mode_set_nofb(struct drm_crtc *crtc)
{
	struct nvdrm_device *ndev = to_nvdrm(crtc->dev);
	struct drm_display_mode *m = &crtc->state->adjusted_mode;
	int head = to_head(crtc)->index;
	struct drm_encoder *enc;
	bool digital = false, tv = false, lvds = false;
	u32 mask = crtc->state->encoder_mask;

	drm_for_each_encoder_mask(enc, crtc->dev, mask) {
		struct nvdrm_output *o = container_of(enc, struct nvdrm_output,
						      slave.base);
		if (o->dcb->type == NVDRM_OUTPUT_TMDS ||
		    o->dcb->type == NVDRM_OUTPUT_LVDS)
			digital = true;
		lvds |= o->dcb->type == NVDRM_OUTPUT_LVDS;
		if (o->dcb->type == NVDRM_OUTPUT_TV)
			tv = true;
	}

	nvdrm_set_owner(ndev, head);
	if (ndev->chip->funcs->heads > 1)
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_ENGINE_CTRL,
			      head ? 0 : NV_CRTC_FSEL_I2C);
	nvdrm_wr_crtc(ndev, head, NV_PCRTC_CONFIG, ndev->chip->funcs->crtc_cfg);
	nvdrm_crtc_set_timings(ndev, head, m, digital);

	/* an encoder that makes its own timing slaves the CRTC to it */
	nvdrm_wr_cr(ndev, head, CR_PIXEL, (nvdrm_rd_cr(ndev, head, CR_PIXEL) &
					   0x7f) | (digital || tv ? 0x80 : 0));

	/* 0x22: a CRT on this head, 0x88 TMDS, 0x11 LVDS (the VBIOS reads
	 * this)
	 */
	nvdrm_wr_cr(ndev, head, CR_SCRATCH3, lvds ? 0x11 : digital ? 0x88 : 0x22);
	if (ndev->chip->funcs->gf4_disp) {
		nvdrm_wr_cr(ndev, head, CR_53, 0);
		nvdrm_wr_cr(ndev, head, CR_54, 0);
		nvdrm_wr_cr(ndev, head, CR_59, 0);
	}
	if (ndev->chip->chipset >= 0x10) {
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_830, m->crtc_vdisplay - 3);
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_834, m->crtc_vdisplay - 1);
	}
	nvdrm_vpll_set(ndev, head, m->clock);
}

/* DPMS on or off: SR01 bit 5 blanks the screen, CR17 bit 7 and CR1A bits
 * 7:6 gate the syncs.
 */
static void nvdrm_crtc_dpms(struct nvdrm_device *ndev, int head, bool on)
{
	u8 rpc1 = nvdrm_rd_cr(ndev, head, CR_RPC1) & ~0xc0;

	nvdrm_set_owner(ndev, head);
	nvdrm_wr_sr(ndev, head, 0x00, 0x01);
	nvdrm_wr_sr(ndev, head, 0x01, (nvdrm_rd_sr(ndev, head, 0x01) & ~0x20) |
		    (on ? 0 : 0x20));
	nvdrm_wr_cr(ndev, head, 0x17, (nvdrm_rd_cr(ndev, head, 0x17) & ~0x80) |
		    (on ? 0x80 : 0));
	nvdrm_wr_sr(ndev, head, 0x00, 0x03);
	nvdrm_wr_cr(ndev, head, CR_RPC1, rpc1 | (on ? 0 : 0xc0));
}

/*
 * The palette, which is the gamma ramp in the direct-colour modes: 256
 * entries of 8 bits per channel (GENERAL_CONTROL BPC_8BITS), a linear ramp
 * unless userspace set GAMMA_LUT.
 */
#define NV_PRMDIO(head)		(0x681000 + (head) * 0x2000)
#define VGA_PEL_MASK		0x3c6
#define VGA_PEL_IW		0x3c8
#define VGA_PEL_D		0x3c9

/*
 * The start address written by the plane is latched at the next vblank:
 * that is when the commit is done, for a head that runs.
 */
static void nvdrm_crtc_event(struct drm_crtc *crtc, struct drm_crtc_state *cs)
{
	if (!cs->event)
		return;
	spin_lock_irq(&crtc->dev->event_lock);
	if (cs->active && drm_crtc_vblank_get(crtc) == 0)
		drm_crtc_arm_vblank_event(crtc, cs->event);
	else
		drm_crtc_send_vblank_event(crtc, cs->event);
	spin_unlock_irq(&crtc->dev->event_lock);
	cs->event = NULL;
}

static void nvdrm_crtc_atomic_flush(struct drm_crtc *crtc,
				    struct drm_atomic_state *state)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);
	struct nvdrm_device *ndev = to_nvdrm(crtc->dev);
	u32 dio = NV_PRMDIO(to_head(crtc)->index);
	const struct drm_color_lut *lut = NULL;
	int i;

	if (cs->color_mgmt_changed || drm_atomic_crtc_needs_modeset(cs)) {
		if (cs->gamma_lut)
			lut = cs->gamma_lut->data;
		nv_wr08(ndev, dio + VGA_PEL_MASK, 0xff);
		nv_wr08(ndev, dio + VGA_PEL_IW, 0);
		for (i = 0; i < 256; i++) {
			nv_wr08(ndev, dio + VGA_PEL_D, lut ? lut[i].red >> 8 : i);
			nv_wr08(ndev, dio + VGA_PEL_D,
				lut ? lut[i].green >> 8 : i);
			nv_wr08(ndev, dio + VGA_PEL_D, lut ? lut[i].blue >> 8 : i);
		}
	}

	/*
	 * A head being switched on gets its vblanks only in atomic_enable,
	 * which the helpers call after the planes: its event waits for it.
	 */
	if (!(cs->active && drm_atomic_crtc_needs_modeset(cs)))
		nvdrm_crtc_event(crtc, cs);
}

static void nvdrm_crtc_atomic_enable(struct drm_crtc *crtc,
				     struct drm_atomic_state *state)
{
	nvdrm_crtc_dpms(to_nvdrm(crtc->dev), to_head(crtc)->index, true);
	drm_crtc_vblank_on(crtc);
	nvdrm_crtc_event(crtc, drm_atomic_get_new_crtc_state(state, crtc));
}

static void nvdrm_crtc_atomic_disable(struct drm_crtc *crtc,
				      struct drm_atomic_state *state)
{
	nvdrm_crtc_dpms(to_nvdrm(crtc->dev), to_head(crtc)->index, false);
	/* the head goes dark at the end of its frame: the commit (and its
	 * event) is done then, not before
	 */
	drm_crtc_wait_one_vblank(crtc);
	drm_crtc_vblank_off(crtc);
}

static const struct drm_crtc_helper_funcs nvdrm_crtc_helper_funcs = {
	.mode_valid = nvdrm_crtc_mode_valid,
	.atomic_check = nvdrm_crtc_atomic_check,
	.mode_set_nofb = nvdrm_crtc_mode_set_nofb,
	.atomic_flush = nvdrm_crtc_atomic_flush,
	.atomic_enable = nvdrm_crtc_atomic_enable,
	.atomic_disable = nvdrm_crtc_atomic_disable,
	.get_scanout_position = nvdrm_scanout_position,
};

static const struct drm_crtc_funcs nvdrm_crtc_funcs = {
	.reset = drm_atomic_helper_crtc_reset,
	.destroy = drm_crtc_cleanup,
	.set_config = drm_atomic_helper_set_config,
	.page_flip = drm_atomic_helper_page_flip,
	.atomic_duplicate_state = drm_atomic_helper_crtc_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_crtc_destroy_state,
	.enable_vblank = nvdrm_enable_vblank,
	.disable_vblank = nvdrm_disable_vblank,
	.get_vblank_timestamp = drm_crtc_vblank_helper_get_vblank_timestamp,
};

/* ---- primary plane ------------------------------------------------------ */

#define CR_FF			0x1b	/* FIFO burst */
#define CR_FFLWM		0x20	/* FIFO low watermark 7:0 */
#define CR_47			0x47	/* and its 10:8 */

/* The scanout FIFO's arbitration for the mode and the pixel depth. */
static void nvdrm_fifo_arb(struct nvdrm_device *ndev, int head,
			   const struct drm_display_mode *mode, int bpp)
{
	const struct nvdrm_arb_funcs *arb = ndev->chip->funcs->arb;
	struct nvdrm_fifo_arb v;

	arb->calc(ndev, mode->clock, bpp, &v);
	nvdrm_wr_cr(ndev, head, CR_FF, v.burst);
	nvdrm_wr_cr(ndev, head, CR_FFLWM, v.lwm & 0xff);
	if (arb->lwm_cr47)
		nvdrm_wr_cr(ndev, head, CR_47, v.lwm >> 8);
}

static int nvdrm_plane_atomic_check(struct drm_plane *plane,
				    struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *cs;

	if (!ps->crtc)
		return 0;
	cs = drm_atomic_get_new_crtc_state(state, ps->crtc);
	return drm_atomic_helper_check_plane_state(ps, cs,
						   DRM_PLANE_NO_SCALING,
						   DRM_PLANE_NO_SCALING,
						   false, true);
}

static void nvdrm_plane_atomic_update(struct drm_plane *plane,
				      struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct nvdrm_device *ndev = to_nvdrm(plane->dev);
	struct drm_framebuffer *fb = ps->fb;
	struct drm_crtc_state *cs;
	struct drm_gem_vram_object *gbo;
	int head = container_of(plane, struct nvdrm_head, primary)->index;
	u32 pitch, start, genctrl;
	u8 depth;
	s64 base;

	if (!fb || !ps->crtc || !ps->visible)
		return;
	cs = drm_atomic_get_new_crtc_state(state, ps->crtc);
	gbo = drm_gem_vram_of_gem(fb->obj[0]);
	base = drm_gem_vram_offset(gbo);
	if (base < 0)
		return;
	start = base + fb->offsets[0] + (ps->src.y1 >> 16) * fb->pitches[0] +
		(ps->src.x1 >> 16) * fb->format->cpp[0];
	pitch = fb->pitches[0] / 8;
	depth = fb->format->depth == 16 ? 2 : 3;

	nvdrm_set_owner(ndev, head);
	nvdrm_wr_cr(ndev, head, 0x13, pitch & 0xff);
	nvdrm_wr_cr(ndev, head, CR_RPC0, (nvdrm_rd_cr(ndev, head, CR_RPC0) &
					  0x1f) | ((pitch >> 8) & 7) << 5);
	if (ndev->chip->funcs->gf4_disp)
		nvdrm_wr_cr(ndev, head, CR_42, XB(pitch, 11, 6));
	nvdrm_wr_cr(ndev, head, CR_PIXEL,
		    (nvdrm_rd_cr(ndev, head, CR_PIXEL) & ~0x03) | depth);

	genctrl = GENCTRL_BPC_8BITS | GENCTRL_VGA_STATE_SEL | GENCTRL_PIXMIX_ON;
	if (fb->format->depth == 16)
		genctrl |= GENCTRL_ALT_MODE_SEL;
	if (ndev->chip->chipset >= 0x11)
		genctrl |= GENCTRL_PIPE_LONG;
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_GENERAL_CONTROL, genctrl);
	nvdrm_wr_crtc(ndev, head, NV_PCRTC_START, start);
	nvdrm_fifo_arb(ndev, head, &cs->mode, fb->format->cpp[0] * 8);
}

static const struct drm_plane_helper_funcs nvdrm_plane_helper_funcs = {
	DRM_GEM_VRAM_PLANE_HELPER_FUNCS,
	.atomic_check = nvdrm_plane_atomic_check,
	.atomic_update = nvdrm_plane_atomic_update,
};

static const struct drm_plane_funcs nvdrm_plane_funcs = {
	.update_plane = drm_atomic_helper_update_plane,
	.disable_plane = drm_atomic_helper_disable_plane,
	.destroy = drm_plane_cleanup,
	.reset = drm_atomic_helper_plane_reset,
	.atomic_duplicate_state = drm_atomic_helper_plane_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_plane_destroy_state,
};

/* ---- cursor plane ------------------------------------------------------ */

#define CR_HCUR_ADDR2		0x2f	/* address 31:24 */
#define CR_HCUR_ADDR0		0x30	/* 7 in VRAM; 6:0 address 23:17 */
#define CR_HCUR_ADDR1		0x31	/* 7:2 address 16:11; 0 enable */
#define NV_PCRTC_CURSOR_CONFIG	0x810
#define CURSOR_CFG_PNVM		BIT(8)
#define CURSOR_CFG_BPP_32	BIT(12)
#define CURSOR_CFG_PIXELS_64	BIT(16)
#define CURSOR_CFG_LINES_64	(4 << 24)
#define NV_PRAMDAC_CU_START_POS	0x300

static const u32 nvdrm_cursor_formats[] = {
	DRM_FORMAT_ARGB8888,
};

static int nvdrm_cursor_atomic_check(struct drm_plane *plane,
				     struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *cs;

	if (!ps->crtc)
		return 0;
	if (ps->fb && (ps->fb->width != 64 || ps->fb->height != 64 ||
		       ps->crtc_w != 64 || ps->crtc_h != 64))
		return -EINVAL;
	cs = drm_atomic_get_new_crtc_state(state, ps->crtc);
	return drm_atomic_helper_check_plane_state(ps, cs,
						   DRM_PLANE_NO_SCALING,
						   DRM_PLANE_NO_SCALING,
						   true, true);
}

/*
 * The image is copied into the head's own cursor memory: as premultiplied
 * A8R8G8B8 with alpha bumped where it equals a colour channel (the
 * hardware misbehaves otherwise, nouveau found), or as A1R5G5B5 before
 * NV11.
 */
static void nvdrm_cursor_upload(struct nvdrm_device *ndev,
				struct nvdrm_head *h, struct drm_framebuffer *fb,
				const struct iosys_map *src)
{
	int x, y;

	for (y = 0; y < 64; y++) {
		for (x = 0; x < 64; x++) {
			u32 p = iosys_map_rd(src, y * fb->pitches[0] + x * 4, u32);
			u32 a = p >> 24;
			int i = y * 64 + x;

			if (!ndev->chip->funcs->cursor_argb) {
				iowrite16((p & 0x80000000) >> 16 |
					  (p & 0xf80000) >> 9 |
					  (p & 0xf800) >> 6 | (p & 0xf8) >> 3,
					  h->cursor_image + 2 * i);
				continue;
			}
			if (a > 0 && a < 255)
				p = (p & 0x00ffffff) | (a + 1) << 24;
			iowrite32(p, h->cursor_image + 4 * i);
		}
	}
}

static void nvdrm_cursor_show(struct nvdrm_device *ndev, struct nvdrm_head *h,
			      bool on)
{
	u8 cr31 = nvdrm_rd_cr(ndev, h->index, CR_HCUR_ADDR1);

	nvdrm_wr_cr(ndev, h->index, CR_HCUR_ADDR1, on ? cr31 | 1 : cr31 & ~1);
	/* some NV40s take a cursor change only when the position is written */
	nvdrm_wr_ramdac(ndev, h->index, NV_PRAMDAC_CU_START_POS,
			nvdrm_rd_ramdac(ndev, h->index, NV_PRAMDAC_CU_START_POS));
}

static void nvdrm_cursor_atomic_update(struct drm_plane *plane,
				       struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct drm_plane_state *old = drm_atomic_get_old_plane_state(state, plane);
	struct drm_shadow_plane_state *shadow = to_drm_shadow_plane_state(ps);
	struct nvdrm_device *ndev = to_nvdrm(plane->dev);
	struct nvdrm_head *h = container_of(plane, struct nvdrm_head, cursor);
	u32 off = h->cursor_offset;

	if (!ps->fb || !ps->visible) {
		nvdrm_cursor_show(ndev, h, false);
		return;
	}
	if (ps->fb != old->fb)
		nvdrm_cursor_upload(ndev, h, ps->fb, &shadow->data[0]);

	nvdrm_set_owner(ndev, h->index);
	nvdrm_wr_crtc(ndev, h->index, NV_PCRTC_CURSOR_CONFIG,
		      CURSOR_CFG_LINES_64 | CURSOR_CFG_PIXELS_64 |
		      CURSOR_CFG_PNVM |
		      (ndev->chip->funcs->cursor_argb ? CURSOR_CFG_BPP_32 : 0));
	nvdrm_wr_cr(ndev, h->index, CR_HCUR_ADDR0, 0x80 | ((off >> 17) & 0x7f));
	nvdrm_wr_cr(ndev, h->index, CR_HCUR_ADDR2, off >> 24);
	nvdrm_wr_cr(ndev, h->index, CR_HCUR_ADDR1,
		    ((off >> 11) & 0x3f) << 2 |
		    (nvdrm_rd_cr(ndev, h->index, CR_HCUR_ADDR1) & 1));
	nvdrm_wr_ramdac(ndev, h->index, NV_PRAMDAC_CU_START_POS,
			(ps->crtc_y & 0xffff) << 16 | (ps->crtc_x & 0xffff));
	nvdrm_cursor_show(ndev, h, true);
}

static void nvdrm_cursor_atomic_disable(struct drm_plane *plane,
					struct drm_atomic_state *state)
{
	struct nvdrm_head *h = container_of(plane, struct nvdrm_head, cursor);

	nvdrm_cursor_show(to_nvdrm(plane->dev), h, false);
}

/*
 * Legacy cursor moves and image changes take effect at once, as the
 * hardware takes them (the position and the image are latched at the next
 * frame by the RAMDAC): no commit waits for a vblank.  The new state is
 * folded into the current one, as the helpers ask, with the shadow
 * mapping following its framebuffer.
 */
static int nvdrm_cursor_atomic_async_check(struct drm_plane *plane,
					   struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);

	if (!plane->state || !plane->state->fb || !ps->fb ||
	    ps->crtc != plane->state->crtc)
		return -EINVAL;
	return nvdrm_cursor_atomic_check(plane, state);
}

static void nvdrm_cursor_atomic_async_update(struct drm_plane *plane,
					     struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct drm_plane_state *cur = plane->state;
	struct drm_shadow_plane_state *new_shadow = to_drm_shadow_plane_state(ps);
	struct drm_shadow_plane_state *cur_shadow = to_drm_shadow_plane_state(cur);
	struct nvdrm_device *ndev = to_nvdrm(plane->dev);
	struct nvdrm_head *h = container_of(plane, struct nvdrm_head, cursor);
	int i;

	if (ps->fb != cur->fb)
		nvdrm_cursor_upload(ndev, h, ps->fb, &new_shadow->data[0]);
	cur->crtc_x = ps->crtc_x;
	cur->crtc_y = ps->crtc_y;
	cur->crtc_w = ps->crtc_w;
	cur->crtc_h = ps->crtc_h;
	cur->src_x = ps->src_x;
	cur->src_y = ps->src_y;
	cur->src_w = ps->src_w;
	cur->src_h = ps->src_h;
	cur->src = ps->src;
	cur->dst = ps->dst;
	cur->visible = ps->visible;
	/* the old framebuffer and its mapping go with the new state */
	swap(cur->fb, ps->fb);
	for (i = 0; i < DRM_FORMAT_MAX_PLANES; i++) {
		swap(cur_shadow->map[i], new_shadow->map[i]);
		swap(cur_shadow->data[i], new_shadow->data[i]);
	}
	nvdrm_wr_ramdac(ndev, h->index, NV_PRAMDAC_CU_START_POS,
			(cur->crtc_y & 0xffff) << 16 | (cur->crtc_x & 0xffff));
	nvdrm_cursor_show(ndev, h, cur->visible);
}

static const struct drm_plane_helper_funcs nvdrm_cursor_helper_funcs = {
	DRM_GEM_SHADOW_PLANE_HELPER_FUNCS,
	.atomic_check = nvdrm_cursor_atomic_check,
	.atomic_update = nvdrm_cursor_atomic_update,
	.atomic_disable = nvdrm_cursor_atomic_disable,
	.atomic_async_check = nvdrm_cursor_atomic_async_check,
	.atomic_async_update = nvdrm_cursor_atomic_async_update,
};

static const struct drm_plane_funcs nvdrm_cursor_funcs = {
	.update_plane = drm_atomic_helper_update_plane,
	.disable_plane = drm_atomic_helper_disable_plane,
	.destroy = drm_plane_cleanup,
	DRM_GEM_SHADOW_PLANE_FUNCS,
};

/* ---- outputs ------------------------------------------------------------ */

static void nvdrm_encoder_atomic_mode_set(struct drm_encoder *enc,
					  struct drm_crtc_state *cs,
					  struct drm_connector_state *conn)
{
	struct nvdrm_output *o = container_of(enc, struct nvdrm_output, slave.base);
	struct nvdrm_device *ndev = o->ndev;
	int head = to_head(cs->crtc)->index;

	/* on GeForce4-style displays each DAC picks the head it shows */
	if (ndev->chip->funcs->gf4_disp && o->dcb->type == NVDRM_OUTPUT_ANALOG) {
		u32 dac = (ffs(o->dcb->or) - 1) * 0x68;

		nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_DACCLK + dac,
				head << 8 | 1);
	}
	nvdrm_dfp_release_head(ndev, head);
}

static const struct drm_encoder_funcs nvdrm_encoder_funcs = {
	.destroy = drm_encoder_cleanup,
};

static const struct drm_encoder_helper_funcs nvdrm_encoder_helper_funcs = {
	.atomic_mode_set = nvdrm_encoder_atomic_mode_set,
};

static struct nvdrm_output *to_enc_output(struct drm_encoder *enc)
{
	return container_of(enc, struct nvdrm_output, slave.base);
}

static void nvdrm_tmds_atomic_mode_set(struct drm_encoder *enc,
				       struct drm_crtc_state *cs,
				       struct drm_connector_state *conn)
{
	nvdrm_dfp_mode_set(to_enc_output(enc), to_head(cs->crtc)->index,
			   &cs->adjusted_mode);
}

static void nvdrm_tmds_atomic_enable(struct drm_encoder *enc,
				     struct drm_atomic_state *state)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state,
								  enc->crtc);

	nvdrm_dfp_enable(to_enc_output(enc), to_head(enc->crtc)->index,
			 cs->adjusted_mode.clock);
}

static void nvdrm_tmds_atomic_disable(struct drm_encoder *enc,
				      struct drm_atomic_state *state)
{
	nvdrm_dfp_disable(to_enc_output(enc), to_head(enc->crtc)->index);
}

static const struct drm_encoder_helper_funcs nvdrm_tmds_helper_funcs = {
	.atomic_mode_set = nvdrm_tmds_atomic_mode_set,
	.atomic_enable = nvdrm_tmds_atomic_enable,
	.atomic_disable = nvdrm_tmds_atomic_disable,
};

static int nvdrm_connector_get_modes(struct drm_connector *connector)
{
	struct nvdrm_output *o = to_output(connector);
	struct edid *edid = NULL;
	int n = 0;

	if (o->ddc)
		edid = drm_get_edid(connector, &o->ddc->adapter);
	drm_connector_update_edid_property(connector, edid);
	if (edid) {
		n = drm_add_edid_modes(connector, edid);
		kfree(edid);
	}
	if (!n && connector->connector_type != DRM_MODE_CONNECTOR_DVID) {
		n = drm_add_modes_noedid(connector, 1024, 768);
		drm_set_preferred_mode(connector, 1024, 768);
	}
	return n;
}

/* Whether the sink on @o's DDC says it is digital: -1 without an EDID. */
static int nvdrm_edid_digital(struct nvdrm_output *o)
{
	struct edid *edid = drm_get_edid(&o->connector, &o->ddc->adapter);
	int digital;

	if (!edid)
		return -1;
	digital = !!(edid->input & DRM_EDID_INPUT_DIGITAL);
	kfree(edid);
	return digital;
}

/* On connectors that share a DDC bus the EDID says whose sink it is. */
static bool nvdrm_ddc_sink_is(struct nvdrm_output *o)
{
	if (!o->shared_ddc)
		return true;
	return nvdrm_edid_digital(o) == (o->dcb->type == NVDRM_OUTPUT_TMDS);
}

static int nvdrm_connector_detect(struct drm_connector *connector,
				  struct drm_modeset_acquire_ctx *ctx,
				  bool force)
{
	struct nvdrm_output *o = to_output(connector);
	struct nvdrm_output *analog = o, *digital = o->other;
	bool answers = o->ddc && drm_probe_ddc(&o->ddc->adapter);

	/*
	 * Telling a DVI-I sink's kind, or whose sink answers a shared bus,
	 * takes the whole EDID: tens of milliseconds of bit-banged I2C in
	 * udelay().  A poll (!force) that finds the bus answering as it did
	 * keeps what the last detection read; userspace's probes read again.
	 */
	if (!force && answers && o->ddc_answered &&
	    connector->status != connector_status_unknown)
		return connector->status;
	o->ddc_answered = answers;
	if (o->other && o->dcb->type == NVDRM_OUTPUT_TMDS)
		swap(analog, digital);
	o->sink = o;
	if (answers) {
		if (!o->other)
			return nvdrm_ddc_sink_is(o) ?
			       connector_status_connected :
			       connector_status_disconnected;
		/* DVI-I: the EDID's digital bit picks the encoder */
		o->sink = nvdrm_edid_digital(o) > 0 ? digital : analog;
		return connector_status_connected;
	}
	/* a CRT without DDC still loads its DAC */
	if (analog->dcb->type == NVDRM_OUTPUT_ANALOG &&
	    o->ndev->chip->funcs->dac_load(o->ndev, analog->dcb)) {
		o->sink = analog;
		return connector_status_connected;
	}
	return connector_status_disconnected;
}

static struct drm_encoder *nvdrm_dvii_best_encoder(struct drm_connector *connector)
{
	struct nvdrm_output *o = to_output(connector);

	return &(o->sink ? o->sink : o)->slave.base;
}

static enum drm_mode_status nvdrm_dvii_mode_valid(struct drm_connector *connector,
						  struct drm_display_mode *mode)
{
	struct nvdrm_output *o = to_output(connector), *sink = o->sink;

	if (sink && sink->dcb->type == NVDRM_OUTPUT_TMDS &&
	    mode->clock > nvdrm_dfp_max_clock(sink))
		return MODE_CLOCK_HIGH;
	return MODE_OK;
}

static const struct drm_connector_helper_funcs nvdrm_dvii_connector_helper_funcs = {
	.get_modes = nvdrm_connector_get_modes,
	.detect_ctx = nvdrm_connector_detect,
	.best_encoder = nvdrm_dvii_best_encoder,
	.mode_valid = nvdrm_dvii_mode_valid,
};

static const struct drm_connector_helper_funcs nvdrm_connector_helper_funcs = {
	.get_modes = nvdrm_connector_get_modes,
	.detect_ctx = nvdrm_connector_detect,
};

static enum drm_mode_status nvdrm_tmds_mode_valid(struct drm_connector *connector,
						  struct drm_display_mode *mode)
{
	if (mode->clock > nvdrm_dfp_max_clock(to_output(connector)))
		return MODE_CLOCK_HIGH;
	return MODE_OK;
}

static const struct drm_connector_helper_funcs nvdrm_tmds_connector_helper_funcs = {
	.get_modes = nvdrm_connector_get_modes,
	.detect_ctx = nvdrm_connector_detect,
	.mode_valid = nvdrm_tmds_mode_valid,
};

/* ---- LVDS panels: the native mode only, from the EDID or the VBIOS ----- */

static int nvdrm_lvds_get_modes(struct drm_connector *connector)
{
	struct nvdrm_output *o = to_output(connector);
	struct nvdrm_device *ndev = o->ndev;
	struct drm_display_mode fp, *m;
	struct edid *edid = NULL;
	int n = 0;

	if (o->ddc && !ndev->vbios.fp_no_ddc)
		edid = drm_get_edid(connector, &o->ddc->adapter);
	drm_connector_update_edid_property(connector, edid);
	if (edid) {
		n = drm_add_edid_modes(connector, edid);
		kfree(edid);
	}
	if (!n && nvdrm_fp_mode(ndev, &fp)) {
		m = drm_mode_duplicate(connector->dev, &fp);
		if (m) {
			drm_mode_probed_add(connector, m);
			n = 1;
		}
	}
	/* the panel's size: its preferred mode's, else its first's */
	o->panel_w = 0;
	o->panel_h = 0;
	list_for_each_entry(m, &connector->probed_modes, head) {
		if (!o->panel_w || m->type & DRM_MODE_TYPE_PREFERRED) {
			o->panel_w = m->hdisplay;
			o->panel_h = m->vdisplay;
		}
		if (m->type & DRM_MODE_TYPE_PREFERRED)
			break;
	}
	return n;
}

static int nvdrm_lvds_detect(struct drm_connector *connector,
			     struct drm_modeset_acquire_ctx *ctx, bool force)
{
	struct nvdrm_output *o = to_output(connector);
	struct drm_display_mode fp;

	if (o->ddc && !o->ndev->vbios.fp_no_ddc &&
	    drm_probe_ddc(&o->ddc->adapter))
		return connector_status_connected;
	return nvdrm_fp_mode(o->ndev, &fp) ? connector_status_connected :
					     connector_status_disconnected;
}

/* no GPU scaling yet: a panel shows its own resolution only */
static enum drm_mode_status nvdrm_lvds_mode_valid(struct drm_connector *connector,
						  struct drm_display_mode *mode)
{
	struct nvdrm_output *o = to_output(connector);

	if (mode->hdisplay != o->panel_w || mode->vdisplay != o->panel_h)
		return MODE_PANEL;
	return MODE_OK;
}

static const struct drm_connector_helper_funcs nvdrm_lvds_connector_helper_funcs = {
	.get_modes = nvdrm_lvds_get_modes,
	.detect_ctx = nvdrm_lvds_detect,
	.mode_valid = nvdrm_lvds_mode_valid,
};

static int nvdrm_lvds_late_register(struct drm_connector *connector)
{
	return nvdrm_backlight_register(to_output(connector));
}

static void nvdrm_lvds_early_unregister(struct drm_connector *connector)
{
	nvdrm_backlight_unregister(to_output(connector));
}

static const struct drm_connector_funcs nvdrm_lvds_connector_funcs = {
	.reset = drm_atomic_helper_connector_reset,
	.fill_modes = drm_helper_probe_single_connector_modes,
	.destroy = drm_connector_cleanup,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
	.late_register = nvdrm_lvds_late_register,
	.early_unregister = nvdrm_lvds_early_unregister,
};

static const struct drm_connector_funcs nvdrm_connector_funcs = {
	.reset = drm_atomic_helper_connector_reset,
	.fill_modes = drm_helper_probe_single_connector_modes,
	.destroy = drm_connector_cleanup,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
};

/* ---- TV through an I2C encoder (CH7006) ------------------------------- */

#define CR_49			0x49	/* bit 4: a TV encoder on this head */
#define NV_PRAMDAC_PLL_SELECT	0x50c
#define PLLSEL_TV_HEAD(h)	((h) ? 0xc0000 : 0x30000)
#define NV_PRAMDAC_TV_SETUP	0x700
#define NV_PRAMDAC_TV_VTOTAL	0x720

/* as nouveau sets the CH7006 up for NV04-style TV out (i2c_board_info
 * wants it writable)
 */
static struct ch7006_encoder_params nvdrm_ch7006_params = {
	CH7006_FORMAT_RGB24m12I, CH7006_CLOCK_MASTER,
	0, 0, 0,
	CH7006_SYNC_SLAVE, CH7006_SYNC_SEPARATED,
	CH7006_POUT_3_3V, CH7006_ACTIVE_HSYNC
};

static const struct drm_encoder_slave_funcs *slave_funcs(struct drm_encoder *e)
{
	return to_encoder_slave(e)->slave_funcs;
}

static void nvdrm_tv_mode_set(struct drm_encoder *enc,
			      struct drm_display_mode *mode,
			      struct drm_display_mode *adjusted)
{
	struct nvdrm_output *o = container_of(enc, struct nvdrm_output, slave.base);
	int head = to_head(enc->crtc)->index;
	/* total sizes, then the TV signals' delays relative to the VGA port:
	 * vskew, vsync delay, htotal, hskew, hsync delay, hsync delay 2
	 */
	const u32 tv[] = {
		adjusted->vtotal, 1, 1, adjusted->htotal, 1, 1, 64,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(tv); i++)
		nvdrm_wr_ramdac(o->ndev, head, NV_PRAMDAC_TV_VTOTAL + 4 * i, tv[i]);
	slave_funcs(enc)->mode_set(enc, mode, adjusted);
}

static void nvdrm_tv_bind(struct nvdrm_device *ndev, int head, bool bind)
{
	u8 cr49 = nvdrm_rd_cr(ndev, head, CR_49);

	nvdrm_wr_cr(ndev, head, CR_49, bind ? cr49 | 0x10 : cr49 & ~0x10);
	nvdrm_wr_ramdac(ndev, head, NV_PRAMDAC_TV_SETUP, 0);
}

static void nvdrm_tv_enable(struct drm_encoder *enc)
{
	struct nvdrm_output *o = container_of(enc, struct nvdrm_output, slave.base);
	struct nvdrm_device *ndev = o->ndev;
	int head = to_head(enc->crtc)->index;
	u32 sel;

	if (ndev->chip->funcs->heads > 1)
		nvdrm_tv_bind(ndev, head ^ 1, false);
	nvdrm_tv_bind(ndev, head, true);
	/* the TV encoder clocks the head; the VGA port's hsync is off */
	sel = nvdrm_rd_ramdac(ndev, 0, NV_PRAMDAC_PLL_SELECT);
	sel &= ~(PLLSEL_TV_HEAD(0) | PLLSEL_TV_HEAD(1));
	nvdrm_wr_ramdac(ndev, 0, NV_PRAMDAC_PLL_SELECT, sel | PLLSEL_TV_HEAD(head));
	nvdrm_wr_cr(ndev, head, CR_RPC1, nvdrm_rd_cr(ndev, head, CR_RPC1) | 0x80);
	slave_funcs(enc)->dpms(enc, DRM_MODE_DPMS_ON);
}

static void nvdrm_tv_disable(struct drm_encoder *enc)
{
	struct nvdrm_output *o = container_of(enc, struct nvdrm_output, slave.base);
	u32 sel;

	slave_funcs(enc)->dpms(enc, DRM_MODE_DPMS_OFF);
	sel = nvdrm_rd_ramdac(o->ndev, 0, NV_PRAMDAC_PLL_SELECT);
	nvdrm_wr_ramdac(o->ndev, 0, NV_PRAMDAC_PLL_SELECT,
			sel & ~(PLLSEL_TV_HEAD(0) | PLLSEL_TV_HEAD(1)));
}

static const struct drm_encoder_helper_funcs nvdrm_tv_helper_funcs = {
	.mode_fixup = drm_i2c_encoder_mode_fixup,
	.mode_set = nvdrm_tv_mode_set,
	.enable = nvdrm_tv_enable,
	.disable = nvdrm_tv_disable,
};

/* The I2C client goes with its bus, before the encoder itself. */
static void nvdrm_tv_release(struct drm_encoder *enc)
{
	struct drm_encoder_slave *slave = to_encoder_slave(enc);

	if (slave->slave_funcs && slave->bus_priv)
		slave->slave_funcs->destroy(enc);
}

static void nvdrm_tv_destroy(struct drm_encoder *enc)
{
	nvdrm_tv_release(enc);
	drm_encoder_cleanup(enc);
}

static const struct drm_encoder_funcs nvdrm_tv_encoder_funcs = {
	.destroy = nvdrm_tv_destroy,
};

static int nvdrm_tv_get_modes(struct drm_connector *connector)
{
	struct drm_encoder *enc = &to_output(connector)->slave.base;

	return slave_funcs(enc)->get_modes(enc, connector);
}

static enum drm_mode_status nvdrm_tv_mode_valid(struct drm_connector *connector,
						struct drm_display_mode *mode)
{
	struct drm_encoder *enc = &to_output(connector)->slave.base;

	return slave_funcs(enc)->mode_valid(enc, mode);
}

static int nvdrm_tv_detect(struct drm_connector *connector,
			   struct drm_modeset_acquire_ctx *ctx, bool force)
{
	struct drm_encoder *enc = &to_output(connector)->slave.base;

	return slave_funcs(enc)->detect(enc, connector);
}

/*
 * The encoder's private properties: standard TV properties live in the
 * atomic connector state; the CH7006's "scale" is kept here.  Changing it
 * would have the CH7006 driver reprogram the mode through the legacy CRTC
 * helpers, so only its current value is accepted.
 */
static int nvdrm_tv_atomic_get_property(struct drm_connector *connector,
					const struct drm_connector_state *state,
					struct drm_property *property, u64 *val)
{
	struct nvdrm_output *o = to_output(connector);

	if (property != o->scale_prop)
		return -EINVAL;
	*val = o->scale;
	return 0;
}

static int nvdrm_tv_atomic_set_property(struct drm_connector *connector,
					struct drm_connector_state *state,
					struct drm_property *property, u64 val)
{
	struct nvdrm_output *o = to_output(connector);

	if (property != o->scale_prop || val != o->scale)
		return -EINVAL;
	return 0;
}

static const struct drm_connector_funcs nvdrm_tv_connector_funcs = {
	.reset = drm_atomic_helper_connector_reset,
	.fill_modes = drm_helper_probe_single_connector_modes,
	.destroy = drm_connector_cleanup,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
	.atomic_get_property = nvdrm_tv_atomic_get_property,
	.atomic_set_property = nvdrm_tv_atomic_set_property,
};

/* After the encoder has attached its properties: find its private one. */
static void nvdrm_tv_find_scale(struct nvdrm_output *o)
{
	struct drm_object_properties *props = o->connector.base.properties;
	int i;

	for (i = 0; i < props->count; i++) {
		if (!strcmp(props->properties[i]->name, "scale")) {
			o->scale_prop = props->properties[i];
			o->scale = props->values[i];
		}
	}
}

static const struct drm_connector_helper_funcs nvdrm_tv_connector_helper_funcs = {
	.get_modes = nvdrm_tv_get_modes,
	.mode_valid = nvdrm_tv_mode_valid,
	.detect_ctx = nvdrm_tv_detect,
};

static int nvdrm_tv_init(struct nvdrm_device *ndev, struct nvdrm_output *o)
{
	struct i2c_board_info info = {
		I2C_BOARD_INFO("ch7006", 0x75),
		.platform_data = &nvdrm_ch7006_params,
	};
	struct drm_encoder *enc = &o->slave.base;
	int ret;

	if (!o->ddc || !i2c_probe_func_quick_read(&o->ddc->adapter, 0x75)) {
		drm_info(&ndev->drm, "DCB output %d: no TV encoder answers at 0x75\n",
			 o->index);
		return -ENODEV;
	}
	ret = drm_encoder_init(&ndev->drm, enc, &nvdrm_tv_encoder_funcs,
			       DRM_MODE_ENCODER_TVDAC, NULL);
	if (ret)
		return ret;
	drm_encoder_helper_add(enc, &nvdrm_tv_helper_funcs);
	ret = drm_i2c_encoder_init(&ndev->drm, &o->slave, &o->ddc->adapter, &info);
	if (ret) {
		drm_encoder_cleanup(enc);
		return ret;
	}
	ret = drm_connector_init_with_ddc(&ndev->drm, &o->connector,
					  &nvdrm_tv_connector_funcs,
					  DRM_MODE_CONNECTOR_TV,
					  &o->ddc->adapter);
	if (ret)
		return ret;
	drm_connector_helper_add(&o->connector, &nvdrm_tv_connector_helper_funcs);
	ret = slave_funcs(enc)->create_resources(enc, &o->connector);
	if (ret)
		return ret;
	nvdrm_tv_find_scale(o);
	return 0;
}

static u32 nvdrm_possible_crtcs(struct nvdrm_device *ndev,
				const struct nvdrm_dcb_output *dcb)
{
	u32 crtcs = dcb->heads & GENMASK(ndev->chip->funcs->heads - 1, 0);

	return crtcs ? crtcs : BIT(0);
}

/* The output already made whose connector @dcb shares (DVI-I), or NULL. */
static struct nvdrm_output *nvdrm_connector_owner(struct nvdrm_device *ndev,
						  const struct nvdrm_dcb_output *dcb)
{
	int k;

	for (k = 0; k < ndev->n_outputs; k++) {
		struct nvdrm_output *o = &ndev->outputs[k];

		if (o->dcb->connector == dcb->connector && !o->other &&
		    o->dcb->type != dcb->type &&
		    (o->dcb->type == NVDRM_OUTPUT_ANALOG ||
		     o->dcb->type == NVDRM_OUTPUT_TMDS))
			return o;
	}
	return NULL;
}

static int nvdrm_output_init(struct nvdrm_device *ndev, int i,
			     const struct nvdrm_dcb_output *dcb)
{
	struct nvdrm_output *o = &ndev->outputs[ndev->n_outputs];
	struct nvdrm_output *owner;
	const struct drm_encoder_helper_funcs *helpers =
		&nvdrm_encoder_helper_funcs;
	int enc_type, conn_type, ret, j;

	o->ndev = ndev;
	o->dcb = dcb;
	o->index = i;
	if (dcb->i2c < NVDRM_MAX_I2C && ndev->i2c[dcb->i2c].registered)
		o->ddc = &ndev->i2c[dcb->i2c];

	switch (dcb->type) {
	case NVDRM_OUTPUT_ANALOG:
		enc_type = DRM_MODE_ENCODER_DAC;
		conn_type = DRM_MODE_CONNECTOR_VGA;
		break;
	case NVDRM_OUTPUT_TMDS:
		if (!ndev->chip->funcs->gf4_disp) {
			/* NV11's and NV2x's TMDS links are not driven yet */
			drm_info(&ndev->drm, "DCB output %d (TMDS): not driven on %s\n",
				 i, ndev->chip->name);
			return 0;
		}
		enc_type = DRM_MODE_ENCODER_TMDS;
		conn_type = DRM_MODE_CONNECTOR_DVID;
		helpers = &nvdrm_tmds_helper_funcs;
		break;
	case NVDRM_OUTPUT_LVDS:
		if (!ndev->vbios.lvds_table) {
			/* the scripts of older LVDS tables are not run yet */
			drm_info(&ndev->drm, "DCB output %d (LVDS): not driven without an LVDS 3.0 table\n",
				 i);
			return 0;
		}
		enc_type = DRM_MODE_ENCODER_LVDS;
		conn_type = DRM_MODE_CONNECTOR_LVDS;
		helpers = &nvdrm_tmds_helper_funcs;
		o->lvds_last = -1;
		break;
	case NVDRM_OUTPUT_TV:
		if (dcb->location) {
			ret = nvdrm_tv_init(ndev, o);
			if (ret == -ENODEV)
				return 0;
			if (ret)
				return ret;
			goto attach;
		}
		fallthrough;
	default:
		drm_info(&ndev->drm, "DCB output %d (type %u): not driven yet\n",
			 i, dcb->type);
		return 0;
	}

	/* outputs that share a connector: a DVI-I connector, one DDC bus */
	for (j = 0; j < ndev->vbios.n_outputs; j++) {
		const struct nvdrm_dcb_output *other = &ndev->vbios.outputs[j];

		if (j == i || other->type == dcb->type ||
		    (other->type != NVDRM_OUTPUT_ANALOG &&
		     other->type != NVDRM_OUTPUT_TMDS))
			continue;
		if (other->connector == dcb->connector)
			conn_type = DRM_MODE_CONNECTOR_DVII;
		if (other->i2c == dcb->i2c)
			o->shared_ddc = true;
	}

	ret = drm_encoder_init(&ndev->drm, &o->slave.base, &nvdrm_encoder_funcs,
			       enc_type, NULL);
	if (ret)
		return ret;
	drm_encoder_helper_add(&o->slave.base, helpers);

	/* the second half of a DVI-I connector joins the first's */
	owner = conn_type == DRM_MODE_CONNECTOR_DVII ?
		nvdrm_connector_owner(ndev, dcb) : NULL;
	if (owner) {
		owner->other = o;
		o->slave.base.possible_crtcs = nvdrm_possible_crtcs(ndev, dcb);
		ndev->n_outputs++;
		return drm_connector_attach_encoder(&owner->connector,
						    &o->slave.base);
	}

	ret = drm_connector_init_with_ddc(&ndev->drm, &o->connector,
					  dcb->type == NVDRM_OUTPUT_LVDS ?
					  &nvdrm_lvds_connector_funcs :
					  &nvdrm_connector_funcs, conn_type,
					  o->ddc ? &o->ddc->adapter : NULL);
	if (ret)
		return ret;
	switch (conn_type == DRM_MODE_CONNECTOR_DVII ? -1 : dcb->type) {
	case -1:
		drm_connector_helper_add(&o->connector,
					 &nvdrm_dvii_connector_helper_funcs);
		break;
	case NVDRM_OUTPUT_TMDS:
		drm_connector_helper_add(&o->connector,
					 &nvdrm_tmds_connector_helper_funcs);
		break;
	case NVDRM_OUTPUT_LVDS:
		/* built in: no hotplug to poll for */
		drm_connector_helper_add(&o->connector,
					 &nvdrm_lvds_connector_helper_funcs);
		goto attach;
	default:
		drm_connector_helper_add(&o->connector,
					 &nvdrm_connector_helper_funcs);
		break;
	}
	o->connector.polled = DRM_CONNECTOR_POLL_CONNECT |
			      DRM_CONNECTOR_POLL_DISCONNECT;
attach:
	o->slave.base.possible_crtcs = nvdrm_possible_crtcs(ndev, dcb);
	ndev->n_outputs++;
	return drm_connector_attach_encoder(&o->connector, &o->slave.base);
}

/* ---- the device --------------------------------------------------------- */

/* Only what a plane can scan out: a linear buffer of one of its formats. */
static struct drm_framebuffer *
nvdrm_fb_create(struct drm_device *drm, struct drm_file *file,
		const struct drm_mode_fb_cmd2 *cmd)
{
	if (!drm_any_plane_has_format(drm, cmd->pixel_format, cmd->modifier[0])) {
		drm_dbg_kms(drm, "no plane scans out %p4cc with modifier 0x%llx\n",
			    &cmd->pixel_format, cmd->modifier[0]);
		return ERR_PTR(-EINVAL);
	}
	return drm_gem_fb_create(drm, file, cmd);
}

/*
 * A mode is kept if one framebuffer of it at 32 bpp fits in VRAM, as
 * nouveau keeps it (drm_vram_helper_mode_valid asks for two, for page
 * flips, and drops 1920x1080 on a 16 MiB TNT); a flip that finds no room
 * for a second buffer fails on its own.
 */
static enum drm_mode_status nvdrm_mode_valid(struct drm_device *drm,
					     const struct drm_display_mode *mode)
{
	u64 size = (u64)mode->hdisplay * mode->vdisplay * 4;

	if (WARN_ON(!drm->vram_mm))
		return MODE_BAD;
	return size > drm->vram_mm->vram_size ? MODE_MEM : MODE_OK;
}

static const struct drm_mode_config_funcs nvdrm_mode_config_funcs = {
	.fb_create = nvdrm_fb_create,
	.mode_valid = nvdrm_mode_valid,
	.atomic_check = drm_atomic_helper_check,
	.atomic_commit = drm_atomic_helper_commit,
};

int nvdrm_kms_init(struct nvdrm_device *ndev, u64 cursor_vram)
{
	struct drm_device *drm = &ndev->drm;
	int i, ret;

	ret = drmm_mode_config_init(drm);
	if (ret)
		return ret;
	drm->mode_config.min_width = 0;	/* a cursor is a 64x64 framebuffer */
	drm->mode_config.min_height = 0;
	/* the CRTC's pitch and start address reach 4096 pixels from NV10 on
	 * (nouveau_display.c: 2048 before Celsius)
	 */
	drm->mode_config.max_width = ndev->chip->chipset < 0x10 ? 2048 : 4096;
	drm->mode_config.max_height = drm->mode_config.max_width;
	drm->mode_config.preferred_depth = 24;
	/* fbdev draws into a shadow: a buffer vmapped where it lies could
	 * not move to VRAM to be scanned out
	 */
	drm->mode_config.prefer_shadow_fbdev = true;
	drm->mode_config.cursor_width = 64;
	drm->mode_config.cursor_height = 64;
	drm->mode_config.funcs = &nvdrm_mode_config_funcs;

	nvdrm_unlock_crtcs(ndev, true);

	for (i = 0; i < ndev->chip->funcs->heads; i++) {
		struct nvdrm_head *h = &ndev->heads[i];

		h->index = i;
		ret = drm_universal_plane_init(drm, &h->primary, BIT(i),
					       &nvdrm_plane_funcs, nvdrm_formats,
					       ARRAY_SIZE(nvdrm_formats), NULL,
					       DRM_PLANE_TYPE_PRIMARY, NULL);
		if (ret)
			return ret;
		drm_plane_helper_add(&h->primary, &nvdrm_plane_helper_funcs);

		h->cursor_offset = cursor_vram + i * NVDRM_CURSOR_SIZE;
		h->cursor_image = devm_ioremap_wc(drm->dev,
						  pci_resource_start(ndev->pdev, 1) +
						  h->cursor_offset,
						  NVDRM_CURSOR_SIZE);
		if (!h->cursor_image)
			return -ENOMEM;
		ret = drm_universal_plane_init(drm, &h->cursor, BIT(i),
					       &nvdrm_cursor_funcs,
					       nvdrm_cursor_formats,
					       ARRAY_SIZE(nvdrm_cursor_formats),
					       NULL, DRM_PLANE_TYPE_CURSOR, NULL);
		if (ret)
			return ret;
		drm_plane_helper_add(&h->cursor, &nvdrm_cursor_helper_funcs);
		ret = drm_crtc_init_with_planes(drm, &h->crtc, &h->primary,
						&h->cursor, &nvdrm_crtc_funcs, NULL);
		if (ret)
			return ret;
		drm_crtc_helper_add(&h->crtc, &nvdrm_crtc_helper_funcs);
		drm_mode_crtc_set_gamma_size(&h->crtc, 256);
		drm_crtc_enable_color_mgmt(&h->crtc, 0, false, 256);
	}

	for (i = 0; i < ndev->vbios.n_outputs; i++) {
		ret = nvdrm_output_init(ndev, i, &ndev->vbios.outputs[i]);
		if (ret)
			return ret;
	}
	drm_mode_config_reset(drm);
	drm_kms_helper_poll_init(drm);
	return 0;
}

/* Before the I2C buses go: the encoders that are I2C clients on them. */
void nvdrm_kms_fini(struct nvdrm_device *ndev)
{
	int i;

	for (i = 0; i < ndev->n_outputs; i++)
		if (ndev->outputs[i].dcb->type == NVDRM_OUTPUT_TV)
			nvdrm_tv_release(&ndev->outputs[i].slave.base);
}
