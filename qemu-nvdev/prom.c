/*
 * nvdev PROM (0x300000): the VBIOS ROM as seen through BAR0.  Readable only
 * while bit 0 of PCI config register 0x50 (ROM shadow) is clear, which is
 * how nouveau's PROM source reads it (bios/shadowrom.c, pci/base.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "nvdev.h"

/* a byte inside every image, outside the headers drivers parse */
#define PROM_FAULT_BYTE 0x0040

static uint64_t nv_prom_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                             unsigned size, bool *unimp)
{
    uint64_t val = 0;

    if (pci_get_long(PCI_DEVICE(s)->config + 0x50) & 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PROM read at 0x%06" HWADDR_PRIx
                      " while ROM access is disabled (PCI 0x50 bit 0)\n",
                      u->base + addr);
        return 0;
    }
    for (unsigned i = 0; i < size; i++) {
        if (addr + i < s->rom_size) {
            uint8_t b = s->rom[addr + i];
            if (s->fault_prom && addr + i == PROM_FAULT_BYTE) {
                b ^= 0x01;          /* fault=prom-checksum */
            }
            val |= (uint64_t)b << (8 * i);
        }
    }
    return val;
}

static void nv_prom_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                          uint64_t val, unsigned size, bool *unimp)
{
    qemu_log_mask(LOG_GUEST_ERROR, "nvdev: write to the ROM at 0x%06"
                  HWADDR_PRIx " ignored\n", u->base + addr);
}

const NVUnit nv_unit_prom = {
    .name = "PROM", .base = 0x300000, .size = 0x100000,
    .read = nv_prom_read, .write = nv_prom_write,
};
