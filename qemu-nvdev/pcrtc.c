/*
 * nvdev PCRTC (0x600000, head B at 0x602000): per-head interrupt, start
 * address and configuration.  Vblank comes from a QEMU_CLOCK_VIRTUAL timer
 * at the frame rate of the head's programmed mode (60 Hz until a mode with
 * a known pixel clock is set).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nvdev.h"
#include "trace.h"

#define NV_PCRTC_INTR_0         0x100
#define NV_PCRTC_INTR_EN_0      0x140
#define NV_PCRTC_RASTER         0x808

#define NV_PCRTC_INTR_VBLANK    1u

#define DEFAULT_FRAME_NS        16683333    /* 59.94 Hz */
#define DEFAULT_VTOTAL          525
#define DEFAULT_VDISPLAY        480

static void nv_pcrtc_vblank(void *opaque)
{
    NVDevState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    for (int head = 0; head < 2; head++) {
        if (s->vblank_timer[head] && !timer_pending(s->vblank_timer[head])) {
            s->pcrtc_intr[head] |= NV_PCRTC_INTR_VBLANK;
            trace_nvdev_vblank(head);
            timer_mod(s->vblank_timer[head],
                      now - now % DEFAULT_FRAME_NS + DEFAULT_FRAME_NS);
        }
    }
    nvdev_update_irq(s);
}

void nv_pcrtc_init(NVDevState *s)
{
    int heads = (s->chip->caps & NV_CAP_TWO_HEADS) ? 2 : 1;

    for (int head = 0; head < heads; head++) {
        s->vblank_timer[head] = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                             nv_pcrtc_vblank, s);
    }
}

void nv_pcrtc_reset(NVDevState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    memset(s->pcrtc_regs, 0, sizeof(s->pcrtc_regs));
    for (int head = 0; head < 2; head++) {
        s->pcrtc_intr[head] = 0;
        s->pcrtc_intr_en[head] = 0;
        if (s->vblank_timer[head]) {
            timer_mod(s->vblank_timer[head],
                      now - now % DEFAULT_FRAME_NS + DEFAULT_FRAME_NS);
        }
    }
}

/* Current scanout line, and bit 16 while in vertical blanking. */
static uint32_t nv_pcrtc_raster(NVDevState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t line = (now % DEFAULT_FRAME_NS) * DEFAULT_VTOTAL /
                    DEFAULT_FRAME_NS;

    return line | (line >= DEFAULT_VDISPLAY ? 0x10000 : 0);
}

static uint64_t nv_pcrtc_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                              unsigned size, bool *unimp)
{
    int head = u->instance;

    switch (addr) {
    case NV_PCRTC_INTR_0:
        return s->pcrtc_intr[head];
    case NV_PCRTC_INTR_EN_0:
        return s->pcrtc_intr_en[head];
    case NV_PCRTC_RASTER:
        return nv_pcrtc_raster(s);
    default:
        return nv_plain_read(s, s->pcrtc_regs[head], u, addr, unimp);
    }
}

static void nv_pcrtc_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                           uint64_t val, unsigned size, bool *unimp)
{
    int head = u->instance;

    switch (addr) {
    case NV_PCRTC_INTR_0:
        s->pcrtc_intr[head] &= ~val;
        nvdev_update_irq(s);
        break;
    case NV_PCRTC_INTR_EN_0:
        s->pcrtc_intr_en[head] = val & NV_PCRTC_INTR_VBLANK;
        nvdev_update_irq(s);
        break;
    default:
        nv_plain_write(s, s->pcrtc_regs[head], u, addr, val, unimp);
        break;
    }
}

const NVUnit nv_unit_pcrtc[2] = {
    { .name = "PCRTC0", .base = 0x600000, .size = 0x1000, .instance = 0,
      .dword = true, .read = nv_pcrtc_read, .write = nv_pcrtc_write },
    { .name = "PCRTC1", .base = 0x602000, .size = 0x1000, .instance = 1,
      .needs_caps = NV_CAP_TWO_HEADS, .dword = true,
      .read = nv_pcrtc_read, .write = nv_pcrtc_write },
};
