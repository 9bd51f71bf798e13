/*
 * nvdev PBUS (0x001000): bus interrupts, debug registers, the mirror of
 * the PCI configuration space at 0x1800 that pre-NV50 nouveau uses
 * (nvkm/subdev/pci/nv04.c), and on NV4x the panel backlight's PWM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "nvdev.h"
#include "trace.h"


/*
 * NV4x: the backlight PWM of a mobile part (nouveau's NV40_PMC_BACKLIGHT):
 * the duty cycle in 20:16, in 31sts, which nouveau's backlight device
 * reads and writes; bit 31 turns the PWM output on, as on the NV1x-NV3x
 * register at 0x10f0 (nvidiafb's backlight), here left to the VBIOS's
 * panel power scripts.  A board with a panel comes out of POST with it
 * lit at full duty; one without has nothing on the line and reads 0.
 */

static bool has_pwm(NVDevState *s)
{
    return s->chip->caps & NV_CAP_NV40;
}

uint32_t nv_pbus_reg(NVDevState *s, uint32_t off)
{
    return off < sizeof(s->pbus.regs) ? s->pbus.regs[off >> 2] : 0;
}

/* its interrupts pending and enabled, for PMC */
uint32_t nv_pbus_intr(NVDevState *s)
{
    return s->pbus.intr & s->pbus.intr_en;
}

void nv_pbus_reset(NVDevState *s)
{
    s->pbus.intr = 0;
    s->pbus.intr_en = 0;
    memset(s->pbus.regs, 0, sizeof(s->pbus.regs));
    if (has_pwm(s) && s->lvds_i2c >= 0) {
        s->pbus.regs[NV_PBUS_BACKLIGHT >> 2] =
            R_NV_PBUS_BACKLIGHT_ENABLE_MASK | R_NV_PBUS_BACKLIGHT_DUTY_MASK;
    }
}

static void pwm_write(NVDevState *s, uint32_t val)
{
    uint32_t old = s->pbus.regs[NV_PBUS_BACKLIGHT >> 2];

    s->pbus.regs[NV_PBUS_BACKLIGHT >> 2] = val;
    if ((old ^ val) & (R_NV_PBUS_BACKLIGHT_ENABLE_MASK |
                       R_NV_PBUS_BACKLIGHT_DUTY_MASK)) {
        trace_nvdev_backlight(FIELD_EX32(val, NV_PBUS_BACKLIGHT, ENABLE),
                              FIELD_EX32(val, NV_PBUS_BACKLIGHT, DUTY));
    }
}

static uint64_t nv_pbus_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                             unsigned size, bool *unimp)
{
    if (addr >= NV_PBUS_PCI_NV_0 && addr < NV_PBUS_PCI_NV_0 + 0x100) {
        return nvdev_pci_config_read(s, addr - NV_PBUS_PCI_NV_0, size);
    }
    if (size != 4) {
        *unimp = true;
        return 0;
    }
    switch (addr) {
    case NV_PBUS_INTR_0:
        return s->pbus.intr;
    case NV_PBUS_INTR_EN_0:
        return s->pbus.intr_en;
    case NV_PBUS_BACKLIGHT:
        if (!has_pwm(s)) {
            *unimp = true;
            return 0;
        }
        return s->pbus.regs[addr >> 2];
    case NV_PBUS_RAM_CFG:
        if (!(s->chip->caps & NV_CAP_RAM_PBUS1218)) {
            return nv_plain_read(s, s->pbus.regs, u, addr, unimp);
        }
        /* 9:8 the RAM type: 0 SDRAM, 1 DDR1 (2 GDDR3, 3 DDR2) */
        return (s->pbus.regs[addr >> 2] & ~0x300u) |
               (s->ram_type == NVBIOS_RAM_DDR1 ? 0x100 : 0);
    case NV_PBUS_GRAPH_UNITS:
        if (s->chip->family != NV_40) {
            *unimp = true;
        }
        return s->chip->hw_units;
    default:
        return nv_plain_read(s, s->pbus.regs, u, addr, unimp);
    }
}

static void nv_pbus_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                          uint64_t val, unsigned size, bool *unimp)
{
    if (addr >= NV_PBUS_PCI_NV_0 && addr < NV_PBUS_PCI_NV_0 + 0x100) {
        nvdev_pci_config_write(s, addr - NV_PBUS_PCI_NV_0, val, size);
        return;
    }
    if (size != 4) {
        *unimp = true;
        return;
    }
    switch (addr) {
    case NV_PBUS_INTR_0:
        s->pbus.intr &= ~val;
        nvdev_update_irq(s);
        break;
    case NV_PBUS_INTR_EN_0:
        s->pbus.intr_en = val;
        nvdev_update_irq(s);
        break;
    case NV_PBUS_BACKLIGHT:
        if (!has_pwm(s)) {
            *unimp = true;
            return;
        }
        pwm_write(s, val);
        break;
    case NV_PBUS_GRAPH_UNITS:
        *unimp = s->chip->family != NV_40;
        break;
    default:
        nv_plain_write(s, s->pbus.regs, u, addr, val, unimp);
        break;
    }
}

/* Not .dword: the config mirror takes byte accesses (nvkm_pci_wr08). */
const NVUnit nv_unit_pbus = {
    .name = "PBUS", .base = 0x001000, .size = 0x1000,
    .read = nv_pbus_read, .write = nv_pbus_write,
};

/* NV40 and later: the PCI configuration space mirror moved to 0x088000
 * (nvkm/subdev/pci/nv40.c). */
static uint64_t nv_pci40_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                              unsigned size, bool *unimp)
{
    if (addr >= 0x100) {
        *unimp = true;
        return 0;
    }
    return nvdev_pci_config_read(s, addr, size);
}

static void nv_pci40_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                           uint64_t val, unsigned size, bool *unimp)
{
    if (addr >= 0x100) {
        *unimp = true;
        return;
    }
    nvdev_pci_config_write(s, addr, val, size);
}

const NVUnit nv_unit_pci40 = {
    .name = "PCI", .base = 0x088000, .size = 0x1000, .needs_caps = NV_CAP_NV40,
    .read = nv_pci40_read, .write = nv_pci40_write,
};

const VMStateDescription vmstate_nv_pbus = {
    .name = "nvdev/pbus",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(pbus.intr, NVDevState),
        VMSTATE_UINT32(pbus.intr_en, NVDevState),
        VMSTATE_UINT32_ARRAY(pbus.regs, NVDevState, NV_PLAIN_WORDS),
        VMSTATE_END_OF_LIST()
    },
};
