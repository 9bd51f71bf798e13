/*
 * nvdev PRAMIN (0x700000): instance memory.  Before NV40 the 1 MiB window
 * maps the last 1 MiB of VRAM, linearly (a simplification: real parts may
 * scramble the order in blocks).  nouveau reads it first when looking for
 * the VBIOS, so its content must not look like a ROM unless one was put
 * there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "nvdev.h"

#define PRAMIN_SIZE 0x100000

static uint8_t *pramin_ptr(NVDevState *s, hwaddr addr)
{
    /* addr < PRAMIN_SIZE (the region's size) and VRAM >= 1 MiB */
    return s->vga.vram_ptr + s->vga.vram_size - PRAMIN_SIZE + addr;
}

static uint64_t nv_pramin_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    return ldn_le_p(pramin_ptr(s, addr), size);
}

static void nv_pramin_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    stn_le_p(pramin_ptr(s, addr), size, val);
    memory_region_set_dirty(&s->vga.vram, s->vga.vram_size - PRAMIN_SIZE +
                            addr, size);
}

const NVUnit nv_unit_pramin = {
    .name = "PRAMIN", .base = 0x700000, .size = PRAMIN_SIZE,
    .read = nv_pramin_read, .write = nv_pramin_write,
};
