/*
 * nvdev PMC (0x000000): identification, the interrupt summary and engine
 * enables.  nv_pmc_intr() is the one place that folds the units' pending
 * interrupts together.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"



uint32_t nv_pmc_intr(NVDevState *s)
{
    uint32_t intr = s->pmc.intr_sw;

    if (nv_pfifo_intr(s)) {
        intr |= R_NV_PMC_INTR_0_PFIFO_MASK;
    }
    if (nv_pgraph_intr(s)) {
        intr |= R_NV_PMC_INTR_0_PGRAPH_MASK;
    }
    if (nv_ptimer_intr(s)) {
        intr |= R_NV_PMC_INTR_0_PTIMER_MASK;
    }
    if (nv_pcrtc_intr(s, 0)) {
        intr |= R_NV_PMC_INTR_0_CRTC0_MASK;
    }
    if (nv_pcrtc_intr(s, 1)) {
        intr |= R_NV_PMC_INTR_0_CRTC1_MASK;
    }
    if (nv_pbus_intr(s)) {
        intr |= R_NV_PMC_INTR_0_PBUS_MASK;
    }
    return intr;
}

void nv_pmc_reset(NVDevState *s)
{
    s->pmc.intr_sw = 0;
    s->pmc.intr_en = 0;
    s->pmc.enable = 0;
    s->pmc.boot1 = 0;
}

static uint64_t nv_pmc_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                            unsigned size, bool *unimp)
{
    switch (addr) {
    case NV_PMC_BOOT_0:
        return s->chip->boot0;
    case NV_PMC_BOOT_1:
        return s->pmc.boot1;
    case NV_PMC_INTR_0:
        return nv_pmc_intr(s);
    case NV_PMC_INTR_EN_0:
        return s->pmc.intr_en;
    case NV_PMC_ENABLE:
        return s->pmc.enable;
    default:
        *unimp = true;
        return 0;
    }
}

static void nv_pmc_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                         uint64_t val, unsigned size, bool *unimp)
{
    switch (addr) {
    case NV_PMC_BOOT_1:
        /* Endian switch: the model is little-endian only, as x86 hosts. */
        if (val & 0x01000001) {
            qemu_log_mask(LOG_UNIMP, "nvdev: PMC: big-endian MMIO mode "
                          "requested (BOOT_1 = 0x%08" PRIx64 ")\n", val);
        }
        break;
    case NV_PMC_INTR_0:
        s->pmc.intr_sw = val & R_NV_PMC_INTR_0_SOFTWARE_MASK;
        nvdev_update_irq(s);
        break;
    case NV_PMC_INTR_EN_0:
        s->pmc.intr_en = val & 3;
        nvdev_update_irq(s);
        break;
    case NV_PMC_ENABLE:
        s->pmc.enable = val;
        break;
    default:
        *unimp = true;
        break;
    }
}

const NVUnit nv_unit_pmc = {
    .name = "PMC", .base = 0x000000, .size = 0x1000, .dword = true,
    .read = nv_pmc_read, .write = nv_pmc_write,
};

const VMStateDescription vmstate_nv_pmc = {
    .name = "nvdev/pmc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(pmc.intr_sw, NVDevState),
        VMSTATE_UINT32(pmc.intr_en, NVDevState),
        VMSTATE_UINT32(pmc.enable, NVDevState),
        VMSTATE_UINT32(pmc.boot1, NVDevState),
        VMSTATE_BOOL(pmc.irq_level, NVDevState),
        VMSTATE_END_OF_LIST()
    },
};
