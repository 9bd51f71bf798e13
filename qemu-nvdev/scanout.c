/*
 * nvdev scanout: the NV extended CRTC registers feed QEMU's VGA renderer
 * (its get_bpp / get_offsets / get_resolution hooks), so the console and
 * `screendump` show what the driver put in VRAM.
 *
 *   CR28 bits 1:0   pixel format: 0 VGA, 1 8 bpp, 2 15/16 bpp, 3 32 bpp
 *                   (PRAMDAC GENERAL_CONTROL bit 12 selects 565)
 *   CR13, CR19 7:5, CR42 bit 6   pitch in units of 8 bytes
 *   CR01 + CR2D bit 1            horizontal display end
 *   CR12 + CR07 bits 1,6 + CR25 bit 1 + CR41 bit 2   vertical display end
 *   PCRTC START (0x600800)       start address in bytes
 * With CR28 = 0 the standard VGA computations apply.  Head A only.
 *
 * The hardware cursor (dispnv04/cursor.c, crtc.c) is drawn over the
 * picture: enabled by CR31 bit 0, at VRAM offset CR2F << 24 | CR30[6:0] << 17
 * | CR31[7:2] << 11, 32 or 64 pixels square (PCRTC CURSOR_CONFIG bits 16
 * and 26:24), A1R5G5B5 or, with CURSOR_CONFIG bit 12, premultiplied
 * A8R8G8B8, at PRAMDAC CU_START_POS (signed X in 15:0, Y in 31:16).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "ui/console.h"
#include "nvdev.h"


static NVDevState *nv_of(VGACommonState *vga)
{
    return container_of(vga, NVDevState, vga);
}

static bool extended(VGACommonState *vga)
{
    return vga->cr[NV_CR_PIXEL] & 3;
}

static int nv_get_bpp(VGACommonState *vga)
{
    NVDevState *s = nv_of(vga);

    switch (vga->cr[NV_CR_PIXEL] & 3) {
    case 1:
        return 8;
    case 2:
        return (nv_pramdac_reg(s, 0, NV_PRAMDAC_GENERAL_CONTROL) &
                R_NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL_MASK) ? 16 : 15;
    case 3:
        return 32;
    default:
        return s->vga_get_bpp(vga);
    }
}

static void nv_get_offsets(VGACommonState *vga, uint32_t *pline_offset,
                           uint32_t *pstart_addr, uint32_t *pline_compare)
{
    NVDevState *s = nv_of(vga);
    const uint8_t *cr = vga->cr;

    if (!extended(vga)) {
        s->vga_get_offsets(vga, pline_offset, pstart_addr, pline_compare);
        return;
    }
    *pline_offset = (cr[0x13] | (cr[NV_CR_RPC0] & 0xe0) << 3 |
                     (cr[NV_CR_42] & 0x40) << 5) * 8;
    /* the renderer counts the start in 32-bit words */
    *pstart_addr = (nv_pcrtc_reg(s, 0, NV_PCRTC_START) &
                    (vga->vram_size - 1)) / 4;
    *pline_compare = 0xffff;        /* no split screen in extended modes */
}

static void nv_get_resolution(VGACommonState *vga, int *pwidth, int *pheight)
{
    NVDevState *s = nv_of(vga);
    const uint8_t *cr = vga->cr;

    if (!extended(vga)) {
        s->vga_get_resolution(vga, pwidth, pheight);
        return;
    }
    *pwidth = (cr[0x01] + 1 + ((cr[NV_CR_HEB] & 0x02) << 7)) * 8;
    *pheight = (cr[0x12] | (cr[0x07] & 0x02) << 7 | (cr[0x07] & 0x40) << 3 |
                (cr[NV_CR_LSR] & 0x02) << 9 |
                (cr[NV_CR_EBR] & 0x04) << 9) + 1;
}

static unsigned bit(uint8_t v, int n)
{
    return (v >> n) & 1;
}

/*
 * A head's frame: its programmed totals (dispnv04/crtc.c conventions) and
 * its VPLL's pixel clock.  False while the head is not in an extended mode
 * or its clock is not set up.
 */
#define VPLL_B_VCO2_ENABLE      (1u << 31)
#define VPLL_B_SINGLE_STAGE     0x011f  /* what NVIDIA's drivers write */

/*
 * A head's pixel clock in Hz: crystal * N / M >> P, on chips with the
 * second register times N2 / M2 while that stage is on (nouveau's
 * nouveau_hw_decode_pll); 0 if unprogrammed.
 */
static uint64_t vpll_hz(NVDevState *s, int head)
{
    uint32_t a = nv_pramdac_reg(s, 0, head ? NV_PRAMDAC_VPLL2 :
                                              NV_PRAMDAC_VPLL_COEFF);
    uint32_t m = a & 0xff, n = (a >> 8) & 0xff, p = (a >> 16) & 7;
    uint64_t hz = (uint64_t)nv_crystal_khz(s) * 1000;

    if (!m || !n) {
        return 0;
    }
    hz = hz * n / m;
    if (s->chip->caps & NV_CAP_TWO_REG_PLL) {
        uint32_t b = nv_pramdac_reg(s, 0, head ? NV_PRAMDAC_VPLL2_B :
                                                  NV_PRAMDAC_VPLL_B);
        uint32_t m2 = b & 0xff, n2 = (b >> 8) & 0xff;

        if ((b & VPLL_B_VCO2_ENABLE) && (b & 0xffff) != VPLL_B_SINGLE_STAGE) {
            if (!m2 || !n2) {
                return 0;
            }
            hz = hz * n2 / m2;
        }
    }
    return hz >> p;
}

bool nv_crtc_frame(NVDevState *s, int head, uint64_t *frame_ns,
                   uint32_t *vtotal, uint32_t *vdisplay)
{
    const uint8_t *cr = nv_cr_file(s, head);
    uint64_t hz, htotal;

    if (!(cr[NV_CR_PIXEL] & 3)) {
        return false;
    }
    hz = vpll_hz(s, head);
    htotal = ((cr[0x00] | bit(cr[NV_CR_HEB], 0) << 8) + 5) * 8;
    *vtotal = (cr[0x06] | bit(cr[0x07], 0) << 8 | bit(cr[0x07], 5) << 9 |
               bit(cr[NV_CR_LSR], 0) << 10 |
               bit(cr[NV_CR_EBR], 0) << 11) + 2;
    *vdisplay = (cr[0x12] | bit(cr[0x07], 1) << 8 | bit(cr[0x07], 6) << 9 |
                 bit(cr[NV_CR_LSR], 1) << 10 |
                 bit(cr[NV_CR_EBR], 2) << 11) + 1;
    if (!hz || *vdisplay >= *vtotal) {
        return false;
    }
    *frame_ns = htotal * *vtotal * NANOSECONDS_PER_SECOND / hz;
    return *frame_ns > 0;
}

#define CURSOR_CONFIG_BPP_32    (1u << 12)
#define CURSOR_CONFIG_PIXELS_64 (1u << 16)

typedef struct NVCursor {
    bool on;
    uint32_t offset;
    int x, y, size;
    bool argb;
} NVCursor;

static void cursor_state(NVDevState *s, NVCursor *c)
{
    const uint8_t *cr = nv_cr_file(s, 0);
    uint32_t cfg = nv_pcrtc_reg(s, 0, NV_PCRTC_CURSOR_CONFIG);
    uint32_t pos = nv_pramdac_reg(s, 0, NV_PRAMDAC_CU_START_POS);

    c->on = (cr[0x31] & 1) && extended(&s->vga);
    c->offset = (uint32_t)cr[0x2f] << 24 | (cr[0x30] & 0x7f) << 17 |
                (cr[0x31] >> 2) << 11;
    c->x = (int16_t)(pos & 0xffff);
    c->y = (int16_t)(pos >> 16);
    c->size = (cfg & CURSOR_CONFIG_PIXELS_64) ? 64 : 32;
    c->argb = cfg & CURSOR_CONFIG_BPP_32;
}

/* Cursor registers changed: redraw everything (and stop sharing the
 * guest's framebuffer as the surface while a cursor is on). */
void nv_cursor_changed(NVDevState *s)
{
    NVCursor c;

    cursor_state(s, &c);
    s->vga.force_shadow = c.on;
    s->vga.full_update_gfx = 1;
}

static uint8_t blend(uint8_t src, uint8_t dst, uint8_t alpha)
{
    return MIN(255, src + dst * (255 - alpha) / 255);
}

static void nv_cursor_draw_line(VGACommonState *vga, uint8_t *d, int y)
{
    NVDevState *s = nv_of(vga);
    uint32_t *dp = (uint32_t *)d;
    int width, height, bytes;
    NVCursor c;

    cursor_state(s, &c);
    if (!c.on || y < c.y || y >= c.y + c.size) {
        return;
    }
    nv_get_resolution(vga, &width, &height);
    bytes = c.argb ? 4 : 2;
    for (int i = 0; i < c.size; i++) {
        int x = c.x + i;
        /* 64-bit: an offset near 4 GiB must not wrap back into VRAM. */
        uint64_t off = (uint64_t)c.offset +
                       ((uint64_t)(y - c.y) * c.size + i) * bytes;
        uint32_t px, out;

        if (x < 0 || x >= width || off + bytes > vga->vram_size) {
            continue;
        }
        if (c.argb) {
            uint8_t a;
            px = ldl_le_p(vga->vram_ptr + off);
            a = px >> 24;
            out = blend(px >> 16, dp[x] >> 16, a) << 16 |
                  blend(px >> 8, dp[x] >> 8, a) << 8 | blend(px, dp[x], a);
        } else {
            px = lduw_le_p(vga->vram_ptr + off);
            if (!(px & 0x8000)) {
                continue;               /* transparent */
            }
            out = ((px >> 10) & 0x1f) << 19 | ((px >> 5) & 0x1f) << 11 |
                  (px & 0x1f) << 3;
        }
        dp[x] = out;
    }
}

/*
 * Head B (NV11, NV17+) is a second console of its own: QEMU's VGA core
 * renders head A only.  It shows 15/16/32 bpp extended modes from head B's
 * CRTC registers and PCRTC1 START, 8 bpp through head B's own palette
 * (6-bit, or 8-bit with PRAMDAC1 GENERAL_CONTROL bit 20); VGA modes show
 * black.
 */
static void nv_headb_update(void *opaque)
{
    NVDevState *s = opaque;
    const uint8_t *cr = nv_cr_file(s, 1);
    DisplaySurface *surface;
    uint32_t start, pitch, fmt = cr[NV_CR_PIXEL] & 3;
    bool rgb565;
    int w, h, bytes;
    uint8_t *dst;

    w = (cr[0x01] + 1 + ((cr[NV_CR_HEB] & 0x02) << 7)) * 8;
    h = (cr[0x12] | (cr[0x07] & 0x02) << 7 | (cr[0x07] & 0x40) << 3 |
         (cr[NV_CR_LSR] & 0x02) << 9 |
         (cr[NV_CR_EBR] & 0x04) << 9) + 1;
    if (fmt < 1 || w < 8 || h < 8) {
        w = 640;
        h = 480;
        fmt = 0;
    }
    surface = qemu_console_surface(s->headb_con);
    if (!surface || surface_width(surface) != w ||
        surface_height(surface) != h) {
        qemu_console_resize(s->headb_con, w, h);
        surface = qemu_console_surface(s->headb_con);
    }
    dst = surface_data(surface);
    if (!fmt) {
        memset(dst, 0, surface_stride(surface) * h);
        dpy_gfx_update_full(s->headb_con);
        return;
    }
    bytes = fmt == 3 ? 4 : fmt;
    rgb565 = nv_pramdac_reg(s, 1, NV_PRAMDAC_GENERAL_CONTROL) &
             R_NV_PRAMDAC_GENERAL_CONTROL_ALT_MODE_SEL_MASK;
    pitch = (cr[0x13] | (cr[NV_CR_RPC0] & 0xe0) << 3 |
             (cr[NV_CR_42] & 0x40) << 5) * 8;
    start = nv_pcrtc_reg(s, 1, NV_PCRTC_START);
    for (int y = 0; y < h; y++) {
        uint32_t *line = (uint32_t *)(dst + y * surface_stride(surface));
        for (int x = 0; x < w; x++) {
            uint64_t off = (uint64_t)start + (uint64_t)y * pitch + x * bytes;
            uint32_t px = 0;

            if (off + bytes <= s->vga.vram_size) {
                if (bytes == 1) {
                    const uint8_t *c = nv_headb_colour(s,
                                                       s->vga.vram_ptr[off]);
                    int sh = (nv_pramdac_reg(s, 1, NV_PRAMDAC_GENERAL_CONTROL)
                              & (1u << 20)) ? 0 : 2;
                    px = (c[0] << sh & 0xff) << 16 | (c[1] << sh & 0xff) << 8 |
                         (c[2] << sh & 0xff);
                } else if (bytes == 4) {
                    px = ldl_le_p(s->vga.vram_ptr + off) & 0xffffff;
                } else {
                    uint32_t v = lduw_le_p(s->vga.vram_ptr + off);
                    px = rgb565 ?
                        ((v >> 11) & 0x1f) << 19 | ((v >> 5) & 0x3f) << 10 |
                        (v & 0x1f) << 3 :
                        ((v >> 10) & 0x1f) << 19 | ((v >> 5) & 0x1f) << 11 |
                        (v & 0x1f) << 3;
                }
            }
            line[x] = px;
        }
    }
    dpy_gfx_update_full(s->headb_con);
}

static const GraphicHwOps nv_headb_ops = {
    .gfx_update = nv_headb_update,
};

void nv_scanout_init_headb(NVDevState *s)
{
    if (s->chip->caps & NV_CAP_TWO_HEADS) {
        s->headb_con = graphic_console_init(DEVICE(s), 1, &nv_headb_ops, s);
    }
}

void nv_scanout_init(NVDevState *s)
{
    VGACommonState *vga = &s->vga;

    s->vga_get_bpp = vga->get_bpp;
    s->vga_get_offsets = vga->get_offsets;
    s->vga_get_resolution = vga->get_resolution;
    vga->get_bpp = nv_get_bpp;
    vga->get_offsets = nv_get_offsets;
    vga->get_resolution = nv_get_resolution;
    vga->cursor_draw_line = nv_cursor_draw_line;
}
