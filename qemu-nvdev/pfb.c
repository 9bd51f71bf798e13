/*
 * nvdev PFB (0x100000): memory interface.  What nouveau reads to size VRAM:
 * NV04/NV05 from the PFB_BOOT_0 straps (fb/ramnv04.c), NV10..NV3x from
 * 0x10020c with the type in CFG0 bit 0 (fb/ramnv10.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "nvdev.h"

#define TLB_FLUSH_TRIGGER   0x02
#define TLB_FLUSH_DONE      0x20
#define GART44_FLUSH        0x20
#define GART44_FLUSH_DONE   0x01

static uint32_t nv04_boot0(NVDevState *s)
{
    uint32_t b;

    switch (s->vram_mb) {
    case 4:
        b = 1;
        break;
    case 8:
        b = 2;
        break;
    case 16:
        b = 3;
        break;
    default:                        /* 32 MiB */
        b = 0;
        break;
    }
    /* bits 5:3 > 2 select SDRAM, <= 2 SGRAM */
    return b | (s->ram_type == NVBIOS_RAM_SGRAM ? 0x00 : 0x20);
}

uint32_t nv_pfb_reg(NVDevState *s, uint32_t off)
{
    return off < sizeof(s->pfb.regs) ? s->pfb.regs[off >> 2] : 0;
}

void nv_pfb_reset(NVDevState *s)
{
    memset(s->pfb.regs, 0, sizeof(s->pfb.regs));
    if (s->chip->caps & NV_CAP_PFB_NV10) {
        s->pfb.regs[NV_PFB_CFG0 >> 2] =
            s->ram_type == NVBIOS_RAM_DDR1 ? 0x00000001 : 0;
    }
}

static uint64_t nv_pfb_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                            unsigned size, bool *unimp)
{
    if ((s->chip->caps & NV_CAP_PFB_NV04) && addr == NV_PFB_BOOT_0) {
        return nv04_boot0(s);
    }
    if ((s->chip->caps & NV_CAP_PFB_NV10) && addr == NV_PFB_FIFO_DATA) {
        return (uint64_t)s->vram_mb << 20;
    }
    if ((s->chip->caps & NV_CAP_RAM_PFB914) && addr == NV_PFB_RAM_TYPE_NV49) {
        /* no SDRAM on these: the board's DDR1, or "unknown" (3) */
        return s->ram_type == NVBIOS_RAM_DDR1 ? 0x0 : 0x3;
    }
    if ((s->chip->caps & (NV_CAP_RAM_PBUS1218 | NV_CAP_RAM_PFB914)) == 0 &&
        (s->chip->caps & NV_CAP_NV40) && addr == NV_PFB_RAM_TYPE) {
        return s->ram_type == NVBIOS_RAM_DDR1 ? 0x1 : 0x0;
    }
    if ((s->chip->caps & NV_CAP_NV40) && addr == NV_PFB_GART_TLB_FLUSH) {
        /* the GART is not modelled: a flush completes at once */
        uint32_t v = s->pfb.regs[addr >> 2];
        return v & TLB_FLUSH_TRIGGER ? v | TLB_FLUSH_DONE : v;
    }
    if ((s->chip->caps & NV_CAP_NV44_GART) && addr == NV_PFB_GART_FLUSH) {
        /* the device caches no GART entry: a flush is done at once */
        uint32_t v = s->pfb.regs[addr >> 2];
        return v & GART44_FLUSH ? v | GART44_FLUSH_DONE : v;
    }
    return nv_plain_read(s, s->pfb.regs, u, addr, unimp);
}

static void nv_pfb_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                         uint64_t val, unsigned size, bool *unimp)
{
    if (addr == NV_PFB_BOOT_0 || addr == NV_PFB_FIFO_DATA) {
        *unimp = true;              /* straps: read-only here */
        return;
    }
    nv_plain_write(s, s->pfb.regs, u, addr, val, unimp);
}

const NVUnit nv_unit_pfb = {
    .name = "PFB", .base = 0x100000, .size = 0x1000, .dword = true,
    .read = nv_pfb_read, .write = nv_pfb_write,
};

const VMStateDescription vmstate_nv_pfb = {
    .name = "nvdev/pfb",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(pfb.regs, NVDevState, NV_PLAIN_WORDS),
        VMSTATE_END_OF_LIST()
    },
};
