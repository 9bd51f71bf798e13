// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the card's interrupt and vblank.  PMC INTR_0 sums the units'
 * pending and enabled interrupts; the driver listens to the heads' PCRTC
 * vblank only.  These chips have no frame counter, so DRM counts vblanks
 * itself and timestamps them from the raster position (PCRTC RASTER).
 */
#include <linux/interrupt.h>

#include <drm/drm_vblank.h>

#include "nvdrm_drv.h"

#define NV_PMC_INTR_0		0x000100
#define NV_PMC_INTR_EN_0	0x000140
#define PMC_INTR_EN_HW		BIT(0)	/* the units' interrupts, not software */
#define PMC_INTR_CRTC(head)	BIT(24 + (head))

#define NV_PBUS_INTR_EN_0	0x001140
#define NV_PTIMER_INTR_EN_0	0x009140

#define NV_PCRTC_INTR_0		0x100
#define NV_PCRTC_INTR_EN_0	0x140
#define PCRTC_INTR_VBLANK	BIT(0)
#define NV_PCRTC_RASTER		0x808
#define PCRTC_RASTER_POS	0x7ff

/*
 * The units' own interrupt enables, by their PMC INTR_0 bit: what the
 * handler turns off when a unit it does not listen to asserts anyway.
 */
static const struct {
	u32 pmc;
	u32 en;
} nvdrm_units[] = {
	{ BIT(4),  0x002140 },	/* PFIFO */
	{ BIT(12), 0x400140 },	/* PGRAPH */
	{ BIT(16), 0x008140 },	/* PVIDEO */
	{ BIT(20), NV_PTIMER_INTR_EN_0 },
	{ BIT(28), NV_PBUS_INTR_EN_0 },
};

static void nvdrm_irq_mask(struct nvdrm_device *ndev, u32 intr)
{
	u32 left = intr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nvdrm_units); i++) {
		if (!(intr & nvdrm_units[i].pmc))
			continue;
		nv_wr32(ndev, nvdrm_units[i].en, 0);
		left &= ~nvdrm_units[i].pmc;
	}
	/* a source with no enable of its own: the whole card goes quiet */
	if (left)
		nv_wr32(ndev, NV_PMC_INTR_EN_0, 0);
	drm_err_ratelimited(&ndev->drm, "unexpected interrupt 0x%08x, %s\n",
			    intr, left ? "all of the card's masked" :
			    "its units' masked");
}

static irqreturn_t nvdrm_irq(int irq, void *arg)
{
	struct nvdrm_device *ndev = arg;
	u32 intr = nv_rd32(ndev, NV_PMC_INTR_0);
	u32 handled = 0;
	int head;

	if (!intr || intr == ~0u)	/* not ours, or the card is gone */
		return IRQ_NONE;

	for (head = 0; head < ndev->chip->funcs->heads; head++) {
		if (!(intr & PMC_INTR_CRTC(head)))
			continue;
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_0, PCRTC_INTR_VBLANK);
		drm_crtc_handle_vblank(&ndev->heads[head].crtc);
		handled |= PMC_INTR_CRTC(head);
	}
	/*
	 * Nothing else is enabled, so a unit asserting regardless would hold
	 * the level-triggered line forever: mask what was not handled, even
	 * when a vblank came with it.
	 */
	if (intr & ~handled)
		nvdrm_irq_mask(ndev, intr & ~handled);
	return IRQ_HANDLED;
}

int nvdrm_irq_init(struct nvdrm_device *ndev)
{
	int head, ret;

	/* only vblank: the units POST may have left listening stay quiet */
	nv_wr32(ndev, NV_PMC_INTR_EN_0, 0);
	nv_wr32(ndev, NV_PBUS_INTR_EN_0, 0);
	nv_wr32(ndev, NV_PTIMER_INTR_EN_0, 0);
	for (head = 0; head < ndev->chip->funcs->heads; head++) {
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_EN_0, 0);
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_0, PCRTC_INTR_VBLANK);
	}

	ret = drm_vblank_init(&ndev->drm, ndev->chip->funcs->heads);
	if (ret)
		return ret;
	ret = request_irq(ndev->pdev->irq, nvdrm_irq, IRQF_SHARED, "nvdrm",
			  ndev);
	if (ret) {
		drm_err(&ndev->drm, "cannot have IRQ %d: %d\n",
			ndev->pdev->irq, ret);
		return ret;
	}
	nv_wr32(ndev, NV_PMC_INTR_EN_0, PMC_INTR_EN_HW);
	return 0;
}

void nvdrm_irq_fini(struct nvdrm_device *ndev)
{
	int head;

	nv_wr32(ndev, NV_PMC_INTR_EN_0, 0);
	for (head = 0; head < ndev->chip->funcs->heads; head++)
		nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_EN_0, 0);
	free_irq(ndev->pdev->irq, ndev);
}

int nvdrm_enable_vblank(struct drm_crtc *crtc)
{
	struct nvdrm_device *ndev = to_nvdrm(crtc->dev);
	int head = to_head(crtc)->index;

	/* a vblank latched while nobody listened is stale */
	nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_0, PCRTC_INTR_VBLANK);
	nvdrm_wr_crtc(ndev, head, NV_PCRTC_INTR_EN_0, PCRTC_INTR_VBLANK);
	return 0;
}

void nvdrm_disable_vblank(struct drm_crtc *crtc)
{
	nvdrm_wr_crtc(to_nvdrm(crtc->dev), to_head(crtc)->index,
		      NV_PCRTC_INTR_EN_0, 0);
}

/*
 * The line being scanned out, counted from the first active line; DRM
 * wants the lines of vertical blanking as negative, up to 0 where the
 * next frame's active area begins.  The raster counter has no pixel
 * position.
 */
bool nvdrm_scanout_position(struct drm_crtc *crtc, bool in_vblank_irq,
			    int *vpos, int *hpos, ktime_t *stime,
			    ktime_t *etime, const struct drm_display_mode *mode)
{
	struct nvdrm_device *ndev = to_nvdrm(crtc->dev);
	int line;

	if (!mode->crtc_vtotal)
		return false;
	if (stime)
		*stime = ktime_get();
	line = nvdrm_rd_crtc(ndev, to_head(crtc)->index, NV_PCRTC_RASTER) &
	       PCRTC_RASTER_POS;
	if (etime)
		*etime = ktime_get();
	if (line >= mode->crtc_vblank_start)
		line -= mode->crtc_vtotal;
	*vpos = line;
	*hpos = 0;
	return true;
}
