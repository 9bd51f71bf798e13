// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the backlight of a laptop's built-in panel, as a backlight class
 * device on the LVDS connector.  NV4x mobile parts drive it with a PWM
 * whose duty cycle, in 31sts, sits in bits 20:16 of 0x15f0 (nouveau's
 * NV40_PMC_BACKLIGHT); the rest of the register (the PWM's enable, which
 * the VBIOS's panel power scripts own) is left alone.  The device is
 * registered only where POST left the PWM running, as nouveau does.
 */
#include <linux/backlight.h>
#include <linux/bitfield.h>

#include <drm/drm_file.h>

#include "nvdrm_drv.h"

#define NV40_PBUS_PWM		0x0015f0
#define NV40_PWM_DUTY		GENMASK(20, 16)

static bool nv40_bl_present(struct nvdrm_device *ndev)
{
	return nv_rd32(ndev, NV40_PBUS_PWM) & NV40_PWM_DUTY;
}

static int nv40_bl_get(struct nvdrm_device *ndev)
{
	return FIELD_GET(NV40_PWM_DUTY, nv_rd32(ndev, NV40_PBUS_PWM));
}

static void nv40_bl_set(struct nvdrm_device *ndev, int level)
{
	u32 reg = nv_rd32(ndev, NV40_PBUS_PWM) & ~NV40_PWM_DUTY;

	nv_wr32(ndev, NV40_PBUS_PWM, reg | FIELD_PREP(NV40_PWM_DUTY, level));
}

const struct nvdrm_backlight_funcs nvdrm_nv40_backlight = {
	.present = nv40_bl_present,
	.get = nv40_bl_get,
	.set = nv40_bl_set,
	.max = 31,
};

static int nvdrm_bl_get_brightness(struct backlight_device *bd)
{
	struct nvdrm_output *o = bl_get_data(bd);

	return o->ndev->chip->funcs->backlight->get(o->ndev);
}

static int nvdrm_bl_update_status(struct backlight_device *bd)
{
	struct nvdrm_output *o = bl_get_data(bd);

	o->ndev->chip->funcs->backlight->set(o->ndev,
					      backlight_get_brightness(bd));
	return 0;
}

static const struct backlight_ops nvdrm_bl_ops = {
	.options = BL_CORE_SUSPENDRESUME,
	.get_brightness = nvdrm_bl_get_brightness,
	.update_status = nvdrm_bl_update_status,
};

/* From the connector's late_register: its sysfs device is the parent. */
int nvdrm_backlight_register(struct nvdrm_output *o)
{
	const struct nvdrm_backlight_funcs *bl = o->ndev->chip->funcs->backlight;
	struct backlight_properties props = {
		.type = BACKLIGHT_RAW,
	};
	struct backlight_device *bd;
	char name[24];

	if (!IS_REACHABLE(CONFIG_BACKLIGHT_CLASS_DEVICE) || !bl ||
	    !bl->present(o->ndev))
		return 0;
	props.max_brightness = bl->max;
	props.brightness = bl->get(o->ndev);
	snprintf(name, sizeof(name), "nvdrm_bl%d", o->ndev->drm.primary->index);
	bd = backlight_device_register(name, o->connector.kdev, o,
				       &nvdrm_bl_ops, &props);
	if (IS_ERR(bd)) {
		drm_err(&o->ndev->drm, "backlight %s: %ld\n", name, PTR_ERR(bd));
		return PTR_ERR(bd);
	}
	o->backlight = bd;
	drm_info(&o->ndev->drm, "%s: backlight %s, brightness %d/%d\n",
		 o->connector.name, name, props.brightness, bl->max);
	return 0;
}

void nvdrm_backlight_unregister(struct nvdrm_output *o)
{
	backlight_device_unregister(o->backlight);
	o->backlight = NULL;
}
