/*
 * nvdev PBUS (0x001000): bus interrupts, debug registers, and the mirror
 * of the PCI configuration space at 0x1800 that pre-NV50 nouveau uses
 * (nvkm/subdev/pci/nv04.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nvdev.h"

#define NV_PBUS_INTR_0      0x100
#define NV_PBUS_INTR_EN_0   0x140
#define NV_PBUS_PCI_NV_0    0x800   /* config space mirror, 256 bytes */

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
        return s->pbus_intr;
    case NV_PBUS_INTR_EN_0:
        return s->pbus_intr_en;
    default:
        return nv_plain_read(s, s->pbus_regs, u, addr, unimp);
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
        s->pbus_intr &= ~val;
        nvdev_update_irq(s);
        break;
    case NV_PBUS_INTR_EN_0:
        s->pbus_intr_en = val;
        nvdev_update_irq(s);
        break;
    default:
        nv_plain_write(s, s->pbus_regs, u, addr, val, unimp);
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
