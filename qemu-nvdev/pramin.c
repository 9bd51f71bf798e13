/*
 * nvdev PRAMIN (0x700000): instance memory, RAMIN.
 *
 * Before NV50, RAMIN is the end of VRAM addressed backwards: RAMIN offset
 * 0 is the top of VRAM and offsets grow towards the framebuffer, so the
 * driver's low instance offsets never overlap what it hands out as
 * framebuffer memory from the bottom (nouveau reserves the last 512 KiB
 * on NV04-NV3x for RAMIN, more on NV40).  Reversal is in 64-byte units
 * here; the granularity is not publicly documented and nothing but a
 * VRAM dump through BAR1 could tell.  The same mapping serves the 1 MiB
 * window in BAR0, the NV40 BAR2 aperture and every engine of the device
 * that reads objects (PFIFO's RAMHT/RAMFC, DMA objects, PGRAPH).
 *
 * nouveau reads the window first when looking for the VBIOS, so its
 * content must not look like a ROM unless one was put there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "nvdev.h"

#define PRAMIN_WINDOW   0x100000
#define RAMIN_UNIT      64

uint32_t nv_ramin_size(NVDevState *s)
{
    return s->vga.vram_size;
}

static uint32_t ramin_unit(NVDevState *s)
{
    return s->chip->caps & NV_CAP_RAMIN_512K ? 512 * KiB : RAMIN_UNIT;
}

/* VRAM offset of RAMIN byte @off (< nv_ramin_size) */
static uint64_t ramin_vram(NVDevState *s, uint32_t off)
{
    uint32_t unit = ramin_unit(s);

    return s->vga.vram_size - (off / unit + 1) * unit + off % unit;
}

/* The RAMIN offset at VRAM offset @vram (the inverse of ramin_vram) */
bool nv_ramin_of_vram(NVDevState *s, uint64_t vram, uint32_t *off)
{
    uint32_t unit = ramin_unit(s);

    if (vram >= s->vga.vram_size) {
        return false;
    }
    *off = (s->vga.vram_size / unit - 1 - vram / unit) * unit + vram % unit;
    return true;
}

bool nv_ramin_valid(NVDevState *s, uint32_t off, uint32_t len)
{
    return len <= nv_ramin_size(s) && off <= nv_ramin_size(s) - len;
}

uint32_t nv_ramin_rd32(NVDevState *s, uint32_t off)
{
    off &= ~3u;
    if (!nv_ramin_valid(s, off, 4)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: RAMIN read at 0x%x beyond "
                      "instance memory (0x%x bytes)\n", off, nv_ramin_size(s));
        return 0;
    }
    return ldl_le_p(s->vga.vram_ptr + ramin_vram(s, off));
}

void nv_ramin_wr32(NVDevState *s, uint32_t off, uint32_t val)
{
    uint64_t v;

    off &= ~3u;
    if (!nv_ramin_valid(s, off, 4)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: RAMIN write at 0x%x beyond "
                      "instance memory (0x%x bytes)\n", off, nv_ramin_size(s));
        return;
    }
    v = ramin_vram(s, off);
    stl_le_p(s->vga.vram_ptr + v, val);
    memory_region_set_dirty(&s->vga.vram, v, 4);
}

/* A 1, 2 or 4 byte access at @off, which a 64-byte unit never splits */
static uint64_t ramin_read(NVDevState *s, uint32_t off, unsigned size)
{
    if (!nv_ramin_valid(s, off, size)) {
        return 0;
    }
    return ldn_le_p(s->vga.vram_ptr + ramin_vram(s, off), size);
}

static void ramin_write(NVDevState *s, uint32_t off, uint64_t val,
                        unsigned size)
{
    uint64_t v;

    if (!nv_ramin_valid(s, off, size)) {
        return;
    }
    v = ramin_vram(s, off);
    stn_le_p(s->vga.vram_ptr + v, size, val);
    memory_region_set_dirty(&s->vga.vram, v, size);
}

static uint64_t nv_pramin_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    return ramin_read(s, addr, size);
}

static void nv_pramin_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    ramin_write(s, addr, val, size);
}

const NVUnit nv_unit_pramin = {
    .name = "PRAMIN", .base = 0x700000, .size = PRAMIN_WINDOW,
    .read = nv_pramin_read, .write = nv_pramin_write,
};

/* NV40 BAR2: the RAMIN aperture, the same mapping as the BAR0 window */
static uint64_t nv_ramin_bar_read(void *opaque, hwaddr addr, unsigned size)
{
    return ramin_read(opaque, addr, size);
}

static void nv_ramin_bar_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    ramin_write(opaque, addr, val, size);
}

const MemoryRegionOps nv_ramin_bar_ops = {
    .read = nv_ramin_bar_read,
    .write = nv_ramin_bar_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};
