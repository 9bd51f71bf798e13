/*
 * nvdev PCRTC (0x600000, head B at 0x602000): per-head interrupt, start
 * address and configuration.  Vblank comes from a QEMU_CLOCK_VIRTUAL timer
 * at the frame rate of the head's programmed mode: htotal * vtotal over
 * the VPLL's pixel clock (59.94 Hz, 525 lines, until an extended mode with
 * a clock is set).  RASTER reads the line being scanned out.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"
#include "trace.h"



#define DEFAULT_FRAME_NS        16683333    /* 59.94 Hz */
#define DEFAULT_VTOTAL          525
#define DEFAULT_VDISPLAY        480
/*
 * The shortest frame the device times: 100 us, 10 kHz.  A guest can program
 * a few-line mode on a fast VPLL (a frame of well under a microsecond);
 * real monitors sync to nothing above a few hundred Hz, and a vblank timer
 * at megahertz rates would only spend host time.
 */
#define MIN_FRAME_NS            100000

static void frame(NVDevState *s, int head, uint64_t *frame_ns,
                  uint32_t *vtotal, uint32_t *vdisplay)
{
    if (!nv_crtc_frame(s, head, frame_ns, vtotal, vdisplay)) {
        *frame_ns = DEFAULT_FRAME_NS;
        *vtotal = DEFAULT_VTOTAL;
        *vdisplay = DEFAULT_VDISPLAY;
    } else if (*frame_ns < MIN_FRAME_NS) {
        if (!s->pcrtc[head].floored) {
            qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PCRTC%d: a frame of %"
                          PRIu64 " ns (%u lines): timed as %u ns\n", head,
                          *frame_ns, *vtotal, MIN_FRAME_NS);
            s->pcrtc[head].floored = true;
        }
        *frame_ns = MIN_FRAME_NS;
    } else {
        s->pcrtc[head].floored = false;
    }
}

/*
 * Frames start at multiples of the frame period on the virtual clock;
 * vblank begins vdisplay lines into a frame.  The timer runs only while
 * the VBLANK bit is clear: once it is set, further frames change nothing
 * a guest can see (RASTER is computed from the clock) until it is
 * acknowledged.
 */
static void schedule_vblank(NVDevState *s, int head)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t period, start, next;
    uint32_t vtotal, vdisplay;

    if (s->pcrtc[head].intr & R_NV_PCRTC_INTR_0_VBLANK_MASK) {
        timer_del(s->pcrtc[head].vblank_timer);
        return;
    }
    frame(s, head, &period, &vtotal, &vdisplay);
    start = period * vdisplay / vtotal;
    next = now - now % period + start;
    if (next <= now) {
        next += period;
    }
    timer_mod(s->pcrtc[head].vblank_timer, next);
}

static void nv_pcrtc_vblank(NVDevState *s, int head)
{
    s->pcrtc[head].intr |= R_NV_PCRTC_INTR_0_VBLANK_MASK;
    trace_nvdev_vblank(head);
    if (s->pcrtc[head].intr_en) {
        /* only while the driver listens: an idle head's frames are noise */
        nvdev_trace_record(s, 'V', 4, "vblank", head, s->pcrtc[head].intr,
                           head ? "PCRTC1" : "PCRTC0", "VBLANK", false);
    }
    nvdev_update_irq(s);
    schedule_vblank(s, head);
}

static void nv_pcrtc_vblank0(void *opaque)
{
    nv_pcrtc_vblank(opaque, 0);
}

static void nv_pcrtc_vblank1(void *opaque)
{
    nv_pcrtc_vblank(opaque, 1);
}

void nv_pcrtc_init(NVDevState *s)
{
    int heads = (s->chip->caps & NV_CAP_TWO_HEADS) ? 2 : 1;

    s->pcrtc[0].vblank_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                            nv_pcrtc_vblank0, s);
    if (heads > 1) {
        s->pcrtc[1].vblank_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                                nv_pcrtc_vblank1, s);
    }
}

void nv_pcrtc_exit(NVDevState *s)
{
    for (int head = 0; head < 2; head++) {
        g_clear_pointer(&s->pcrtc[head].vblank_timer, timer_free);
    }
}

/* a head's interrupts pending and enabled, for PMC */
uint32_t nv_pcrtc_intr(NVDevState *s, int head)
{
    return s->pcrtc[head].intr & s->pcrtc[head].intr_en;
}

uint32_t nv_pcrtc_reg(NVDevState *s, int head, uint32_t off)
{
    return off < sizeof(s->pcrtc[0].regs) ? s->pcrtc[head].regs[off >> 2] : 0;
}

void nv_pcrtc_reset(NVDevState *s)
{
    for (int head = 0; head < 2; head++) {
        memset(s->pcrtc[head].regs, 0, sizeof(s->pcrtc[head].regs));
        s->pcrtc[head].intr = 0;
        s->pcrtc[head].intr_en = 0;
        if (s->pcrtc[head].vblank_timer) {
            schedule_vblank(s, head);
        }
    }
}

/* Current scanout line, and bit 16 while in vertical blanking. */
static uint32_t nv_pcrtc_raster(NVDevState *s, int head)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t period;
    uint32_t vtotal, vdisplay, line;

    frame(s, head, &period, &vtotal, &vdisplay);
    line = (now % period) * vtotal / period;
    return line | (line >= vdisplay ? 0x10000 : 0);
}

static uint64_t nv_pcrtc_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                              unsigned size, bool *unimp)
{
    int head = u->instance;
    uint64_t val;

    switch (addr) {
    case NV_PCRTC_INTR_0:
        return s->pcrtc[head].intr;
    case NV_PCRTC_INTR_EN_0:
        return s->pcrtc[head].intr_en;
    case NV_PCRTC_RASTER:
        return nv_pcrtc_raster(s, head);
    default:
        if (!head && nv_i2c_pcrtc_read(s, addr, &val)) {
            return val;                     /* a C51 I2C port */
        }
        return nv_plain_read(s, s->pcrtc[head].regs, u, addr, unimp);
    }
}

static void nv_pcrtc_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                           uint64_t val, unsigned size, bool *unimp)
{
    int head = u->instance;

    switch (addr) {
    case NV_PCRTC_INTR_0:
        s->pcrtc[head].intr &= ~val;
        nvdev_update_irq(s);
        if (FIELD_EX32(val, NV_PCRTC_INTR_0, VBLANK) &&
            s->pcrtc[head].vblank_timer &&
            !timer_pending(s->pcrtc[head].vblank_timer)) {
            schedule_vblank(s, head);
        }
        break;
    case NV_PCRTC_INTR_EN_0:
        s->pcrtc[head].intr_en = val & R_NV_PCRTC_INTR_0_VBLANK_MASK;
        nvdev_update_irq(s);
        break;
    default:
        if (!head && nv_i2c_pcrtc_write(s, addr, val)) {
            break;                          /* a C51 I2C port */
        }
        nv_plain_write(s, s->pcrtc[head].regs, u, addr, val, unimp);
        if (addr == NV_PCRTC_CURSOR_CONFIG && !head) {
            nv_cursor_changed(s);           /* CURSOR_CONFIG */
        }
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

static const VMStateDescription vmstate_nv_pcrtc_head = {
    .name = "nvdev/pcrtc-head",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, NVPcrtcState, NV_PLAIN_WORDS),
        VMSTATE_UINT32(intr, NVPcrtcState),
        VMSTATE_UINT32(intr_en, NVPcrtcState),
        VMSTATE_TIMER_PTR(vblank_timer, NVPcrtcState),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_nv_pcrtc = {
    .name = "nvdev/pcrtc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(pcrtc, NVDevState, 2, 1,
                             vmstate_nv_pcrtc_head, NVPcrtcState),
        VMSTATE_END_OF_LIST()
    },
};
