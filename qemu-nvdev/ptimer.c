/*
 * nvdev PTIMER (0x009000): the 64-bit nanosecond counter every nvkm wait
 * depends on, and its alarm interrupt.
 *
 * The counter is clocked from NVCLK (the core PLL, PRAMDAC NVPLL_COEFF at
 * the board's crystal).  Each tick adds 32 to TIME, and ticks come at
 * NVCLK * DENOMINATOR / NUMERATOR, so a driver that knows NVCLK programs
 * NUMERATOR = NVCLK and DENOMINATOR = 31.25 MHz to count nanoseconds.
 * Time is QEMU_CLOCK_VIRTUAL, so with -icount the counter is deterministic.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"
#include "trace.h"



uint32_t nv_crystal_khz(NVDevState *s)
{
    uint32_t mask = (s->chip->caps & NV_CAP_CRYSTAL_27) ? 0x00400040 : 0x40;

    switch (s->strap & mask) {
    case 0x00000000: return 13500;
    case 0x00000040: return 14318;
    case 0x00400000: return 27000;
    default:         return 25000;
    }
}

uint64_t nv_ptimer_nvclk_khz(NVDevState *s)
{
    uint32_t coef = nv_pramdac_reg(s, 0, NV_PRAMDAC_NVPLL_COEFF);
    uint32_t m = coef & 0xff, n = (coef >> 8) & 0xff, p = (coef >> 16) & 7;

    if (!m) {
        return 0;
    }
    return (uint64_t)nv_crystal_khz(s) * n / m >> p;
}

/* TIME units per 10^6 ns: as a fraction mul / div. */
static bool rate(NVDevState *s, uint64_t *mul, uint64_t *div)
{
    uint64_t nvclk = nv_ptimer_nvclk_khz(s);

    if (!nvclk || !s->ptimer.num || !s->ptimer.den) {
        return false;       /* no clock or a zero ratio: the counter stops */
    }
    *mul = nvclk * 32 * s->ptimer.den;
    *div = (uint64_t)s->ptimer.num * 1000000;
    return true;
}

static uint64_t nv_ptimer_time(NVDevState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint64_t mul, div, lo, hi;

    if (!rate(s, &mul, &div)) {
        return s->ptimer.base_time;
    }
    mulu64(&lo, &hi, now - s->ptimer.base_ns, mul);
    divu128(&lo, &hi, div);
    return (s->ptimer.base_time + lo) & ~0x1full;
}

/*
 * The alarm timer runs only while the ALARM bit is clear: once set, TIME_0
 * passing ALARM_0 again changes nothing until the bit is acknowledged (so
 * an alarm nobody takes fires once, not every 2^32 ticks).
 */
static void nv_ptimer_schedule_alarm(NVDevState *s)
{
    uint64_t mul, div, delta, lo, hi;
    uint32_t now32;

    if (FIELD_EX32(s->ptimer.intr, NV_PTIMER_INTR_0, ALARM) ||
        !rate(s, &mul, &div)) {
        timer_del(s->ptimer.timer);
        return;
    }
    now32 = nv_ptimer_time(s);
    delta = (uint32_t)(s->ptimer.alarm0 - now32);
    if (!delta) {
        delta = 1ull << 32;
    }
    /* ns until TIME_0 reaches ALARM_0, rounded up */
    mulu64(&lo, &hi, delta, div);
    lo += mul - 1;
    hi += lo < mul - 1;
    divu128(&lo, &hi, mul);
    timer_mod(s->ptimer.timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + lo);
}

/* Call before anything the rate depends on (NUM, DEN, NVPLL) changes. */
void nv_ptimer_rebase(NVDevState *s)
{
    s->ptimer.base_time = nv_ptimer_time(s);
    s->ptimer.base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void nv_ptimer_alarm_cb(void *opaque)
{
    NVDevState *s = opaque;

    trace_nvdev_ptimer_alarm(s->ptimer.alarm0);
    s->ptimer.intr |= R_NV_PTIMER_INTR_0_ALARM_MASK;
    nvdev_update_irq(s);
}

static uint64_t nv_ptimer_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    switch (addr) {
    case NV_PTIMER_INTR_0:
        return s->ptimer.intr;
    case NV_PTIMER_INTR_EN_0:
        return s->ptimer.intr_en;
    case NV_PTIMER_NUMERATOR:
        return s->ptimer.num;
    case NV_PTIMER_DENOMINATOR:
        return s->ptimer.den;
    case NV_PTIMER_TIME_0:
        return (uint32_t)nv_ptimer_time(s);
    case NV_PTIMER_TIME_1:
        return nv_ptimer_time(s) >> 32;
    case NV_PTIMER_ALARM_0:
        return s->ptimer.alarm0;
    default:
        *unimp = true;
        return 0;
    }
}

static void nv_ptimer_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    uint64_t t;

    switch (addr) {
    case NV_PTIMER_INTR_0:
        s->ptimer.intr &= ~val;
        nvdev_update_irq(s);
        if (val & R_NV_PTIMER_INTR_0_ALARM_MASK) {
            nv_ptimer_schedule_alarm(s);
        }
        break;
    case NV_PTIMER_INTR_EN_0:
        s->ptimer.intr_en = val & R_NV_PTIMER_INTR_0_ALARM_MASK;
        nvdev_update_irq(s);
        break;
    case NV_PTIMER_NUMERATOR:
    case NV_PTIMER_DENOMINATOR:
        nv_ptimer_rebase(s);
        if (addr == NV_PTIMER_NUMERATOR) {
            s->ptimer.num = val & 0xffff;
        } else {
            s->ptimer.den = val & 0xffff;
        }
        if (!s->ptimer.num || !s->ptimer.den) {
            qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PTIMER: ratio %u/%u "
                          "stops the counter\n", s->ptimer.den,
                          s->ptimer.num);
        }
        nv_ptimer_schedule_alarm(s);
        break;
    case NV_PTIMER_TIME_0:
    case NV_PTIMER_TIME_1:
        t = nv_ptimer_time(s);
        if (addr == NV_PTIMER_TIME_0) {
            t = (t & 0xffffffff00000000ull) | (val & 0xffffffe0);
        } else {
            t = (t & 0xffffffffull) | (val << 32);
        }
        s->ptimer.base_time = t;
        s->ptimer.base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        nv_ptimer_schedule_alarm(s);
        break;
    case NV_PTIMER_ALARM_0:
        s->ptimer.alarm0 = val & 0xffffffe0;
        nv_ptimer_schedule_alarm(s);
        break;
    default:
        *unimp = true;
        break;
    }
}

void nv_ptimer_init(NVDevState *s)
{
    s->ptimer.timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, nv_ptimer_alarm_cb, s);
}

void nv_ptimer_exit(NVDevState *s)
{
    g_clear_pointer(&s->ptimer.timer, timer_free);
}

/* its interrupts pending and enabled, for PMC */
uint32_t nv_ptimer_intr(NVDevState *s)
{
    return s->ptimer.intr & s->ptimer.intr_en;
}

void nv_ptimer_reset(NVDevState *s)
{
    /* 1/1 at reset: the counter runs (fast) until a driver sets a ratio */
    s->ptimer.num = 1;
    s->ptimer.den = 1;
    s->ptimer.base_time = 0;
    s->ptimer.base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    s->ptimer.alarm0 = 0xffffffe0;
    s->ptimer.intr = 0;
    s->ptimer.intr_en = 0;
    nv_ptimer_schedule_alarm(s);
}

const NVUnit nv_unit_ptimer = {
    .name = "PTIMER", .base = 0x009000, .size = 0x1000, .dword = true,
    .read = nv_ptimer_read, .write = nv_ptimer_write,
};

const VMStateDescription vmstate_nv_ptimer = {
    .name = "nvdev/ptimer",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(ptimer.num, NVDevState),
        VMSTATE_UINT32(ptimer.den, NVDevState),
        VMSTATE_UINT64(ptimer.base_time, NVDevState),
        VMSTATE_INT64(ptimer.base_ns, NVDevState),
        VMSTATE_UINT32(ptimer.alarm0, NVDevState),
        VMSTATE_UINT32(ptimer.intr, NVDevState),
        VMSTATE_UINT32(ptimer.intr_en, NVDevState),
        VMSTATE_TIMER_PTR(ptimer.timer, NVDevState),
        VMSTATE_END_OF_LIST()
    },
};
