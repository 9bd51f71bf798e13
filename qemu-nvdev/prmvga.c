/*
 * nvdev VGA: the legacy ports and their BAR0 windows PRMVIO (0x0c0000:
 * sequencer, graphics, misc), PRMCIO (0x601000 / 0x603000: CRTC,
 * attribute, status) and PRMDIO (0x681000 / 0x683000: palette DAC), plus
 * the NV extended CRTC registers.
 *
 * QEMU's VGA core holds head A's standard state (and renders it); head B
 * has CRTC, sequencer, graphics and misc registers of its own.  CR1F
 * unlocks the extended registers (0x57) or locks them (0x99); CR44
 * selects which head the legacy ports and PRMVIO reach, but for NV4x's
 * second PRMVIO window at 0x0c2000, which is head B's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"

#define VGA_CR_LAST_STD     0x18
#define NV_CIO_SR_UNLOCK_RW 0x57
#define NV_CIO_SR_LOCK_VAL  0x99

static uint8_t *cr_file(NVDevState *s, int head)
{
    return head ? s->prmvga.crb : s->vga.cr;
}

/* a head's CRTC registers, for the scanout */
const uint8_t *nv_cr_file(NVDevState *s, int head)
{
    return cr_file(s, head);
}

static uint8_t *cr_index(NVDevState *s, int head)
{
    return head ? &s->prmvga.crb_index : &s->vga.cr_index;
}

/*
 * The extended registers' lock (CR1F): NV11's heads have one each unless
 * PBUS_DEBUG_1 bit 28 ties them; the later two-head chips have one for
 * both (nouveau's NVLockVgaCrtcs writes head B's only on NV11).
 */
#define PBUS_DEBUG_1_HEADS_TIED (1u << 28)

static bool *ext_lock(NVDevState *s, int head)
{
    bool own = head && (s->chip->caps & NV_CAP_CR_LOCK_EACH) &&
               !(nv_pbus_reg(s, NV_PBUS_DEBUG_1) & PBUS_DEBUG_1_HEADS_TIED);

    return &s->prmvga.ext_unlocked[own ? 1 : 0];
}

static uint8_t nv_crtc_read(NVDevState *s, int head)
{
    uint8_t *cr = cr_file(s, head);
    uint8_t idx = *cr_index(s, head);
    bool unlocked = *ext_lock(s, head);

    if (idx == NV_CR_LOCK) {
        return unlocked ? 0x03 : 0x00;
    }
    if (idx > VGA_CR_LAST_STD && !unlocked) {
        return 0x00;
    }
    if (!head && idx > VGA_CR_LAST_STD) {
        uint8_t val;
        if (nv_i2c_sense(s, idx, &val)) {
            return val;
        }
    }
    return cr[idx];
}

static void nv_crtc_write(NVDevState *s, int head, uint8_t val)
{
    uint8_t *cr = cr_file(s, head);
    uint8_t idx = *cr_index(s, head);

    if (idx == NV_CR_LOCK) {
        if (val == NV_CIO_SR_UNLOCK_RW) {
            *ext_lock(s, head) = true;
        } else if (val == NV_CIO_SR_LOCK_VAL) {
            *ext_lock(s, head) = false;
        }
        return;
    }
    if (idx > VGA_CR_LAST_STD) {
        if (*ext_lock(s, head)) {
            cr[idx] = val;
            if (!head) {
                nv_i2c_drive(s, idx, val);
                if (idx >= 0x2f && idx <= 0x31) {
                    nv_cursor_changed(s);
                }
            }
        }
        return;
    }
    /* standard registers: CR11 bit 7 protects CR00..CR07 but CR07 bit 4 */
    if ((cr[0x11] & 0x80) && idx <= 0x07) {
        if (idx == 0x07) {
            cr[0x07] = (cr[0x07] & ~0x10) | (val & 0x10);
        }
        return;
    }
    cr[idx] = val;
    if (!head) {
        s->vga.update_retrace_info(&s->vga);
    }
}

/*
 * NV04-style DAC load detection (dispnv04/dac.c nv04_dac_detect): the
 * driver shows palette entry 0 on every pixel and ramps its blue level
 * while reading INP0 bit 4.  The comparator trips (sense low) once the blue
 * output exceeds its threshold; an unterminated output (no monitor) swings
 * twice as high, so it trips at half the level a 75 ohm load allows.
 */
#define DAC_SENSE_THRESHOLD 0x18

uint8_t nv_dac_sense_st00(NVDevState *s)
{
    uint8_t st00 = vga_ioport_read(&s->vga, 0x3c2) & ~0x10;
    bool load = strcmp(s->monitor, "none") != 0;
    bool powered = !(nv_pramdac_reg(s, 0, NV_PRAMDAC_TEST_CONTROL) &
                     R_NV_PRAMDAC_TEST_CONTROL_PWRDWN_DAC_OFF_MASK);
    unsigned level = s->vga.palette[2] * (load ? 1 : 2);

    if (powered && level < DAC_SENSE_THRESHOLD) {
        st00 |= 0x10;
    }
    return st00;
}

static int owner_head(NVDevState *s)
{
    return (s->chip->caps & NV_CAP_TWO_HEADS) &&
           s->vga.cr[NV_CR_OWNER] == 3;
}

/*
 * Head B's sequencer, graphics controller and misc output: register files
 * of their own (the VGA core's are head A's), with the VGA's index widths.
 * Head B scans out through PCRTC1/PRAMDAC1 alone, so nothing here changes
 * its picture; the driver reads back what it wrote.
 */
static bool vga_b_read(NVDevState *s, uint16_t port, uint8_t *val)
{
    switch (port) {
    case 0x3c4:
        *val = s->prmvga.srb_index;
        return true;
    case 0x3c5:
        *val = s->prmvga.srb[s->prmvga.srb_index];
        return true;
    case 0x3ce:
        *val = s->prmvga.grb_index;
        return true;
    case 0x3cf:
        *val = s->prmvga.grb[s->prmvga.grb_index];
        return true;
    case 0x3cc:
        *val = s->prmvga.miscb;
        return true;
    default:
        return false;
    }
}

static bool vga_b_write(NVDevState *s, uint16_t port, uint8_t val)
{
    switch (port) {
    case 0x3c2:
        s->prmvga.miscb = val;
        return true;
    case 0x3c4:
        s->prmvga.srb_index = val & (ARRAY_SIZE(s->prmvga.srb) - 1);
        return true;
    case 0x3c5:
        s->prmvga.srb[s->prmvga.srb_index] = val;
        return true;
    case 0x3ce:
        s->prmvga.grb_index = val & (ARRAY_SIZE(s->prmvga.grb) - 1);
        return true;
    case 0x3cf:
        s->prmvga.grb[s->prmvga.grb_index] = val;
        return true;
    default:
        return false;
    }
}

/* head B's palette entry for the pixel value @index (PRMDIO1's mask
 * applied): three components as the driver wrote them */
const uint8_t *nv_headb_colour(NVDevState *s, uint8_t index)
{
    return &s->prmvga.palb[(index & s->prmvga.palb_mask) * 3];
}

/* what a loaded stream may not hold: indices into head B's files */
static int nv_prmvga_post_load(void *opaque, int version_id)
{
    NVDevState *s = opaque;
    NVPrmvgaState *v = &s->prmvga;

    if (v->srb_index >= ARRAY_SIZE(v->srb) ||
        v->grb_index >= ARRAY_SIZE(v->grb) ||
        v->palb_sub >= ARRAY_SIZE(v->palb_cache)) {
        error_report("nvdev: migration: head B's VGA index out of range "
                     "(SR %u, GR %u, palette %u)", v->srb_index, v->grb_index,
                     v->palb_sub);
        return -EINVAL;
    }
    return 0;
}

const VMStateDescription vmstate_nv_prmvga = {
    .name = "nvdev/prmvga",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = nv_prmvga_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL_ARRAY(prmvga.ext_unlocked, NVDevState, 2),
        VMSTATE_UINT8_ARRAY(prmvga.crb, NVDevState, 256),
        VMSTATE_UINT8(prmvga.crb_index, NVDevState),
        VMSTATE_UINT8_ARRAY(prmvga.srb, NVDevState, 8),
        VMSTATE_UINT8(prmvga.srb_index, NVDevState),
        VMSTATE_UINT8_ARRAY(prmvga.grb, NVDevState, 16),
        VMSTATE_UINT8(prmvga.grb_index, NVDevState),
        VMSTATE_UINT8(prmvga.miscb, NVDevState),
        VMSTATE_UINT8_ARRAY(prmvga.palb, NVDevState, 768),
        VMSTATE_UINT8(prmvga.palb_mask, NVDevState),
        VMSTATE_UINT8(prmvga.palb_windex, NVDevState),
        VMSTATE_UINT8(prmvga.palb_rindex, NVDevState),
        VMSTATE_UINT8(prmvga.palb_sub, NVDevState),
        VMSTATE_UINT8_ARRAY(prmvga.palb_cache, NVDevState, 3),
        VMSTATE_END_OF_LIST()
    },
};

uint8_t nv_vga_port_read(NVDevState *s, int head, uint16_t port)
{
    uint8_t val;

    if (head && vga_b_read(s, port, &val)) {
        return val;
    }
    switch (port) {
    case 0x3b4:
    case 0x3d4:
        return *cr_index(s, head);
    case 0x3b5:
    case 0x3d5:
        return nv_crtc_read(s, head);
    case 0x3c2:
        if (!head) {
            return nv_dac_sense_st00(s);
        }
        return vga_ioport_read(&s->vga, port);
    case 0x3ba:
    case 0x3da:
        /* ST01 also resets the attribute flip-flop */
        s->vga.ar_flip_flop = 0;
        s->vga.st01 = s->vga.retrace(&s->vga);
        return s->vga.st01;
    default:
        return vga_ioport_read(&s->vga, port);
    }
}

void nv_vga_port_write(NVDevState *s, int head, uint16_t port, uint8_t val)
{
    if (head && vga_b_write(s, port, val)) {
        return;
    }
    switch (port) {
    case 0x3b4:
    case 0x3d4:
        *cr_index(s, head) = val;
        break;
    case 0x3b5:
    case 0x3d5:
        nv_crtc_write(s, head, val);
        break;
    default:
        vga_ioport_write(&s->vga, port, val);
        break;
    }
}

void nv_vga_reset(NVDevState *s)
{
    memset(s->prmvga.crb, 0, sizeof(s->prmvga.crb));
    memset(s->prmvga.palb, 0, sizeof(s->prmvga.palb));
    s->prmvga.palb_mask = 0xff;
    s->prmvga.palb_windex = s->prmvga.palb_rindex = s->prmvga.palb_sub = 0;
    s->prmvga.crb_index = 0;
    s->prmvga.ext_unlocked[0] = s->prmvga.ext_unlocked[1] = false;
    memset(s->prmvga.srb, 0, sizeof(s->prmvga.srb));
    memset(s->prmvga.grb, 0, sizeof(s->prmvga.grb));
    s->prmvga.srb_index = s->prmvga.grb_index = s->prmvga.miscb = 0;
}

/* ---- BAR0 windows ------------------------------------------------------ */

static bool prmvio_port(hwaddr addr)
{
    return addr == 0x3c2 || addr == 0x3c3 || addr == 0x3c4 || addr == 0x3c5 ||
           addr == 0x3cc || addr == 0x3ce || addr == 0x3cf;
}

static bool prmcio_port(hwaddr addr)
{
    return addr == 0x3c0 || addr == 0x3c1 || addr == 0x3c2 ||
           addr == 0x3d4 || addr == 0x3d5 || addr == 0x3da ||
           addr == 0x3b4 || addr == 0x3b5 || addr == 0x3ba;
}

static bool prmdio_port(hwaddr addr)
{
    return addr >= 0x3c6 && addr <= 0x3c9;
}

/* The head a PRMVIO window reaches: its own on NV4x, else CR44's choice */
static int prmvio_head(NVDevState *s, const NVUnit *u)
{
    return (s->chip->caps & NV_CAP_PRMVIO_EACH) ? u->instance : owner_head(s);
}

static uint64_t nv_prmvio_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    if (size != 1 || !prmvio_port(addr)) {
        *unimp = true;
        return 0;
    }
    return nv_vga_port_read(s, prmvio_head(s, u), addr);
}

static void nv_prmvio_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    if (size != 1 || !prmvio_port(addr)) {
        *unimp = true;
        return;
    }
    nv_vga_port_write(s, prmvio_head(s, u), addr, val);
}

static uint64_t nv_prmcio_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    if (size != 1 || !prmcio_port(addr)) {
        *unimp = true;
        return 0;
    }
    return nv_vga_port_read(s, u->instance, addr);
}

static void nv_prmcio_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    if (size != 1 || !prmcio_port(addr)) {
        *unimp = true;
        return;
    }
    nv_vga_port_write(s, u->instance, addr, val);
}

/* Head B's palette DAC, with the VGA DAC's index and triplet protocol. */
static uint8_t palb_read(NVDevState *s, hwaddr port)
{
    uint8_t v;

    switch (port) {
    case 0x3c6:
        return s->prmvga.palb_mask;
    case 0x3c8:
        return s->prmvga.palb_windex;
    case 0x3c9:
        v = s->prmvga.palb[s->prmvga.palb_rindex * 3 + s->prmvga.palb_sub];
        if (++s->prmvga.palb_sub == 3) {
            s->prmvga.palb_sub = 0;
            s->prmvga.palb_rindex++;
        }
        return v;
    default:                            /* 0x3c7: DAC state */
        return 0;
    }
}

static void palb_write(NVDevState *s, hwaddr port, uint8_t val)
{
    NVPrmvgaState *v = &s->prmvga;

    switch (port) {
    case 0x3c6:
        v->palb_mask = val;
        break;
    case 0x3c7:
        v->palb_rindex = val;
        v->palb_sub = 0;
        break;
    case 0x3c8:
        v->palb_windex = val;
        v->palb_sub = 0;
        break;
    default:                            /* 0x3c9 */
        v->palb_cache[v->palb_sub++] = val;
        if (v->palb_sub == 3) {
            memcpy(&v->palb[v->palb_windex * 3], v->palb_cache, 3);
            v->palb_sub = 0;
            v->palb_windex++;
        }
        break;
    }
}

static uint64_t nv_prmdio_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    if (size != 1 || !prmdio_port(addr)) {
        *unimp = true;
        return 0;
    }
    return u->instance ? palb_read(s, addr) : nv_vga_port_read(s, 0, addr);
}

static void nv_prmdio_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    if (size != 1 || !prmdio_port(addr)) {
        *unimp = true;
        return;
    }
    if (u->instance) {
        palb_write(s, addr, val);
    } else {
        nv_vga_port_write(s, 0, addr, val);
    }
}

const NVUnit nv_unit_prmvio[2] = {
    { .name = "PRMVIO", .bytewise = true, .instance = 0,
      .base = 0x0c0000, .size = 0x1000,
      .read = nv_prmvio_read, .write = nv_prmvio_write },
    { .name = "PRMVIO1", .bytewise = true, .instance = 1,
      .base = 0x0c2000, .size = 0x1000,
      .needs_caps = NV_CAP_PRMVIO_EACH,
      .read = nv_prmvio_read, .write = nv_prmvio_write },
};

const NVUnit nv_unit_prmcio[2] = {
    { .name = "PRMCIO0", .bytewise = true, .instance = 0,
      .base = 0x601000, .size = 0x1000,
      .read = nv_prmcio_read, .write = nv_prmcio_write },
    { .name = "PRMCIO1", .bytewise = true, .instance = 1,
      .base = 0x603000, .size = 0x1000,
      .needs_caps = NV_CAP_TWO_HEADS,
      .read = nv_prmcio_read, .write = nv_prmcio_write },
};

const NVUnit nv_unit_prmdio[2] = {
    { .name = "PRMDIO0", .bytewise = true, .instance = 0,
      .base = 0x681000, .size = 0x1000,
      .read = nv_prmdio_read, .write = nv_prmdio_write },
    { .name = "PRMDIO1", .bytewise = true, .instance = 1,
      .base = 0x683000, .size = 0x1000,
      .needs_caps = NV_CAP_TWO_HEADS,
      .read = nv_prmdio_read, .write = nv_prmdio_write },
};

/* ---- legacy I/O ports 0x3b0..0x3df ------------------------------------- */

static bool legacy_port_valid(NVDevState *s, uint16_t port)
{
    bool color = s->vga.msr & 0x01;

    return !((color && port >= 0x3b0 && port <= 0x3bf) ||
             (!color && port >= 0x3d0 && port <= 0x3df));
}

static uint64_t nv_vga_legacy_read(void *opaque, hwaddr addr, unsigned size)
{
    NVDevState *s = opaque;
    uint16_t port = 0x3b0 + addr;
    uint8_t val = 0xff;

    if (legacy_port_valid(s, port)) {
        val = nv_vga_port_read(s, owner_head(s), port);
    }
    nvdev_trace_access(s, 'R', 1, "io", port, val, "VGA", false);
    return val;
}

static void nv_vga_legacy_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    NVDevState *s = opaque;
    uint16_t port = 0x3b0 + addr;

    nvdev_trace_access(s, 'W', 1, "io", port, val, "VGA", false);
    if (legacy_port_valid(s, port)) {
        nv_vga_port_write(s, owner_head(s), port, val);
    }
}

const MemoryRegionOps nv_vga_legacy_ops = {
    .read = nv_vga_legacy_read,
    .write = nv_vga_legacy_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 2 },
    .impl = { .min_access_size = 1, .max_access_size = 1 },
};
