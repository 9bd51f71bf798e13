// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the VBIOS init-script opcodes that output scripts use (the TMDS
 * and LVDS scripts of the output tables), run as nouveau's
 * nvkm/subdev/bios/init.c runs them.  A script is walked once to check
 * that every opcode is one of these and lies inside the image, then run;
 * anything else is refused before a register is touched.
 */
#include <linux/delay.h>

#include "nvdrm_drv.h"

#define INIT_NOT		0x38
#define INIT_TMDS		0x4f
#define INIT_ZM_TMDS_GROUP	0x50
#define INIT_CR			0x52
#define INIT_ZM_CR		0x53
#define INIT_ZM_CR_GROUP	0x54
#define INIT_NV_REG		0x6e
#define INIT_DONE		0x71
#define INIT_RESUME		0x72
#define INIT_TIME		0x74
#define INIT_ZM_REG		0x7a

/* a script longer than this is taken for garbage */
#define SCRIPT_MAX_OPS		256

struct nvdrm_script {
	struct nvdrm_device *ndev;
	const struct nvdrm_dcb_output *outp;
	int head;
	u32 offset;
	bool execute;
};

static u8 rd08(struct nvdrm_script *s, u32 at)
{
	return s->ndev->vbios.data[at];
}

static u16 rd16(struct nvdrm_script *s, u32 at)
{
	return rd08(s, at) | rd08(s, at + 1) << 8;
}

static u32 rd32(struct nvdrm_script *s, u32 at)
{
	return rd16(s, at) | (u32)rd16(s, at + 2) << 16;
}

/* The length of the opcode at @at, 0 if it is not one we run. */
static u32 op_len(struct nvdrm_script *s, u32 at)
{
	size_t size = s->ndev->vbios.size;

	switch (rd08(s, at)) {
	case INIT_NOT:
	case INIT_DONE:
	case INIT_RESUME:
		return 1;
	case INIT_TMDS:
		return 5;
	case INIT_ZM_TMDS_GROUP:
		return at + 3 <= size ? 3 + 2 * rd08(s, at + 2) : 0;
	case INIT_CR:
		return 4;
	case INIT_ZM_CR:
	case INIT_TIME:
		return 3;
	case INIT_ZM_CR_GROUP:
		return at + 2 <= size ? 2 + 2 * rd08(s, at + 1) : 0;
	case INIT_NV_REG:
		return 13;
	case INIT_ZM_REG:
		return 9;
	default:
		return 0;
	}
}

/*
 * The RAMDAC TMDS index register an INIT_TMDS selector means: 0x80 the
 * output's own link, 0x81 its other one; below that a fixed list.
 */
static u32 tmds_reg(struct nvdrm_script *s, u8 sel)
{
	static const u32 fixed[] = { 0x6808b0, 0x6808b8, 0x6828b0, 0x6828b8 };
	static const u16 by_or[13] = { 0, 0, 0x8, 0, 0x2000, 0, 0, 0, 0x2008,
				       0, 0, 0, 0x2000 };
	u32 off;

	if (sel < 0x80)
		return sel < ARRAY_SIZE(fixed) ? fixed[sel] : 0;
	if (!s->outp || s->outp->or >= ARRAY_SIZE(by_or))
		return 0;
	off = by_or[s->outp->or];
	if (sel == 0x81)
		off ^= 8;
	return 0x6808b0 + off;
}

static void tmds_write(struct nvdrm_script *s, u8 sel, u8 addr, u8 mask,
		       u8 data)
{
	u32 reg = tmds_reg(s, sel);
	u32 old;

	if (!reg)
		return;
	if (mask) {
		nv_wr32(s->ndev, reg, addr | 0x10000);	/* read back */
		old = nv_rd32(s->ndev, reg + 4) & mask;
	} else {
		old = 0;
	}
	nv_wr32(s->ndev, reg + 4, data | old);
	nv_wr32(s->ndev, reg, addr);
}

static void run_op(struct nvdrm_script *s, u32 at)
{
	struct nvdrm_device *ndev = s->ndev;
	u32 reg;
	u8 n;
	int i;

	switch (rd08(s, at)) {
	case INIT_NOT:
		s->execute = !s->execute;
		return;
	case INIT_RESUME:
		s->execute = true;
		return;
	}
	if (!s->execute)
		return;

	switch (rd08(s, at)) {
	case INIT_TMDS:
		tmds_write(s, rd08(s, at + 1), rd08(s, at + 2), rd08(s, at + 3),
			   rd08(s, at + 4));
		break;
	case INIT_ZM_TMDS_GROUP:
		n = rd08(s, at + 2);
		for (i = 0; i < n; i++)
			tmds_write(s, rd08(s, at + 1), rd08(s, at + 3 + 2 * i), 0,
				   rd08(s, at + 4 + 2 * i));
		break;
	case INIT_CR:
		nvdrm_wr_cr(ndev, s->head, rd08(s, at + 1),
			    (nvdrm_rd_cr(ndev, s->head, rd08(s, at + 1)) &
			     rd08(s, at + 2)) | rd08(s, at + 3));
		break;
	case INIT_ZM_CR:
		nvdrm_wr_cr(ndev, s->head, rd08(s, at + 1), rd08(s, at + 2));
		break;
	case INIT_ZM_CR_GROUP:
		n = rd08(s, at + 1);
		for (i = 0; i < n; i++)
			nvdrm_wr_cr(ndev, s->head, rd08(s, at + 2 + 2 * i),
				    rd08(s, at + 3 + 2 * i));
		break;
	case INIT_NV_REG:
		reg = rd32(s, at + 1);
		nv_wr32(ndev, reg, (nv_rd32(ndev, reg) & rd32(s, at + 5)) |
			rd32(s, at + 9));
		break;
	case INIT_ZM_REG:
		nv_wr32(ndev, rd32(s, at + 1), rd32(s, at + 5));
		break;
	case INIT_TIME:
		udelay(min_t(u16, rd16(s, at + 1), 1000));
		break;
	}
}

/*
 * Registers a script may write: the display engine's, and the one PBUS
 * register a panel's power scripts use, NV4x's backlight PWM; not the
 * rest of PMC or PBUS.
 */
#define NV40_PBUS_PWM		0x0015f0

static bool reg_ok(u32 reg)
{
	return !(reg & 3) && ((reg >= 0x600000 && reg < 0x700000) ||
			      reg == NV40_PBUS_PWM);
}

int nvdrm_script_run(struct nvdrm_device *ndev, u16 offset,
		     const struct nvdrm_dcb_output *outp, int head)
{
	struct nvdrm_script s = {
		.ndev = ndev, .outp = outp, .head = head, .execute = true,
	};
	u32 at = offset, len;
	int n;

	/* walk it first */
	for (n = 0; ; n++) {
		u8 op;

		if (n == SCRIPT_MAX_OPS || at >= ndev->vbios.size) {
			drm_err(&ndev->drm, "VBIOS script 0x%04x: no INIT_DONE\n",
				offset);
			return -EINVAL;
		}
		op = rd08(&s, at);
		if (op == INIT_DONE)
			break;
		len = op_len(&s, at);
		if (!len) {
			drm_err(&ndev->drm, "VBIOS script 0x%04x: opcode 0x%02x at 0x%04x not supported, not run\n",
				offset, op, at);
			return -EOPNOTSUPP;
		}
		if (at + len > ndev->vbios.size) {
			drm_err(&ndev->drm, "VBIOS script 0x%04x: opcode at 0x%04x ends past the image\n",
				offset, at);
			return -EINVAL;
		}
		if ((op == INIT_ZM_REG || op == INIT_NV_REG) &&
		    !reg_ok(rd32(&s, at + 1))) {
			drm_err(&ndev->drm, "VBIOS script 0x%04x writes 0x%08x, outside the display: not run\n",
				offset, rd32(&s, at + 1));
			return -EINVAL;
		}
		at += len;
	}

	drm_dbg_kms(&ndev->drm, "running VBIOS script at 0x%04x on head %d\n",
		    offset, head);
	for (at = offset; rd08(&s, at) != INIT_DONE; at += op_len(&s, at))
		run_op(&s, at);
	return 0;
}
