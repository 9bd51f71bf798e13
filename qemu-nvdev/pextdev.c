/*
 * nvdev PEXTDEV (0x101000): the board straps (crystal frequency, flat
 * panel strap, ...) from the VBIOS board record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nvdev.h"


static uint64_t nv_pextdev_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                                unsigned size, bool *unimp)
{
    if (addr == NV_PEXTDEV_BOOT_0) {
        return s->strap;
    }
    *unimp = true;
    return 0;
}

static void nv_pextdev_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                             uint64_t val, unsigned size, bool *unimp)
{
    *unimp = true;                  /* strap overrides are not modelled */
}

const NVUnit nv_unit_pextdev = {
    .name = "PEXTDEV", .base = 0x101000, .size = 0x1000, .dword = true,
    .read = nv_pextdev_read, .write = nv_pextdev_write,
};
