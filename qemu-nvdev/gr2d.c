/*
 * nvdev 2D and memory-to-memory classes of PGRAPH, NV04..NV4x.
 *
 * The objects a DRM driver's console and buffer moves use (nouveau's
 * nv04_fbcon.c and nouveau_bo0039.c), with the method offsets of the
 * classes as NVIDIA's headers and envytools name them:
 *   0x0019 clip rectangle      0x0042/0x0062 2D surfaces
 *   0x0043 ROP                 0x0044 pattern
 *   0x004a GDI rectangle and text (solid fills, 1 bpp colour expansion)
 *   0x005f/0x009f image blit   0x0039 memory to memory format (M2MF)
 * Surfaces live in VRAM behind a DMA object; every row a method touches
 * is bounds-checked through it (dma.c), a miss stops the operation with
 * a PGRAPH DMA fault.  Overlapping blits copy as if through a buffer.
 *
 * ROPs are the Windows ROP3 codes: bit (P << 2 | S << 1 | D) of the code
 * is the result for pattern bit P, source bit S, destination bit D.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "nvdev.h"

enum {
    CLS_CLIP = 0x19, CLS_M2MF = 0x39, CLS_SURF2D_NV04 = 0x42,
    CLS_ROP = 0x43, CLS_PATTERN = 0x44, CLS_GDI = 0x4a,
    CLS_BLIT_NV04 = 0x5f, CLS_SURF2D_NV10 = 0x62, CLS_BLIT_NV15 = 0x9f,
};

/* SET_OPERATION */
#define OP_SRCCOPY_AND  0
#define OP_ROP_AND      1
#define OP_SRCCOPY      3

static const struct {
    uint32_t cls;
    const char *name;
} classes[] = {
    { CLS_CLIP, "NV01_CLIP" },
    { CLS_M2MF, "NV03_M2MF" },
    { CLS_SURF2D_NV04, "NV04_SURF2D" },
    { CLS_ROP, "NV03_ROP" },
    { CLS_PATTERN, "NV04_PATTERN" },
    { CLS_GDI, "NV04_GDI" },
    { CLS_BLIT_NV04, "NV04_BLIT" },
    { CLS_SURF2D_NV10, "NV10_SURF2D" },
    { CLS_BLIT_NV15, "NV15_BLIT" },
};

bool nv_gr2d_known_class(uint32_t cls)
{
    for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
        if (classes[i].cls == cls) {
            return true;
        }
    }
    return false;
}

const char *nv_gr_class_name(uint32_t cls)
{
    for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
        if (classes[i].cls == cls) {
            return classes[i].name;
        }
    }
    return "PGRAPH";
}

/* ---- surfaces ---------------------------------------------------------- */

/* Bytes per pixel of a SURF2D colour format, 0 if not one */
static unsigned surf_bpp(uint32_t fmt)
{
    switch (fmt) {
    case 1:                         /* Y8 */
        return 1;
    case 2 ... 5:                   /* X1R5G5B5 x2, R5G6B5, Y16 */
        return 2;
    case 6 ... 0xb:                 /* X8R8G8B8 x2, X1A7R8G8B8 x2, A8R8G8B8, Y32 */
        return 4;
    default:
        return 0;
    }
}

typedef struct Surface {
    NVDmaObj dma;
    uint32_t offset, pitch;
    unsigned bpp;
    uint32_t mask;                  /* the bits a pixel store keeps */
} Surface;

/* X bits of a format read as zero: X1R5G5B5, X8R8G8B8, X1A7R8G8B8 */
static uint32_t surf_mask(uint32_t fmt)
{
    switch (fmt) {
    case 2:
    case 3:
        return 0x7fff;
    case 6:
    case 7:
        return 0x00ffffff;
    case 8:
    case 9:
        return 0x7fffffff;
    default:
        return ~0u;
    }
}

static bool surface(NVDevState *s, const uint32_t *ctx, bool dst, Surface *sf)
{
    uint32_t inst = ctx[dst ? GC_SURF_DMA_DST : GC_SURF_DMA_SRC];

    sf->bpp = surf_bpp(ctx[GC_SURF_FORMAT]);
    sf->mask = surf_mask(ctx[GC_SURF_FORMAT]);
    sf->offset = ctx[dst ? GC_SURF_OFFSET_DST : GC_SURF_OFFSET_SRC];
    sf->pitch = dst ? ctx[GC_SURF_PITCH] >> 16 : ctx[GC_SURF_PITCH] & 0xffff;
    if (!sf->bpp || !inst) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: 2D operation without "
                      "a surface (format %u, ctxdma 0x%x)\n",
                      ctx[GC_SURF_FORMAT], inst);
        return false;
    }
    return nv_dma_object(s, inst, &sf->dma, "PGRAPH surface");
}

/* The @w pixels of row @y from column @x, or NULL (logged) */
static uint8_t *surf_row(NVDevState *s, Surface *sf, int x, int y, int w,
                         bool write)
{
    uint64_t off = sf->offset + (uint64_t)y * sf->pitch + (uint64_t)x * sf->bpp;

    if (off > UINT32_MAX) {
        return NULL;
    }
    return nv_dma_vram(s, &sf->dma, off, w * sf->bpp, write);
}

static uint32_t get_px(const uint8_t *p, unsigned bpp)
{
    return bpp == 1 ? *p : bpp == 2 ? lduw_le_p(p) : ldl_le_p(p);
}

static void put_px(uint8_t *p, const Surface *sf, uint32_t v)
{
    unsigned bpp = sf->bpp;

    v &= sf->mask;
    if (bpp == 1) {
        *p = v;
    } else if (bpp == 2) {
        stw_le_p(p, v);
    } else {
        stl_le_p(p, v);
    }
}

/*
 * A colour of a GDI/pattern colour format (1 A16R5G6B5, 2 X16A1R5G5B5,
 * 3 A8R8G8B8) as a pixel of the surface's format.
 */
static uint32_t to_surface(uint32_t c, uint32_t cfmt, uint32_t sfmt)
{
    unsigned bpp = surf_bpp(sfmt);

    if (bpp == 2 && sfmt == 4 && cfmt == 3) {
        return ((c >> 8) & 0xf800) | ((c >> 5) & 0x07e0) | ((c >> 3) & 0x1f);
    }
    if (bpp == 4 && cfmt == 1) {
        return ((c & 0xf800) << 8) | ((c & 0x07e0) << 5) | ((c & 0x1f) << 3);
    }
    return bpp == 4 ? c : c & ((1u << (bpp * 8)) - 1);
}

static uint32_t rop3(uint8_t rop, uint32_t p, uint32_t sv, uint32_t d)
{
    uint32_t out = 0;

    for (int i = 0; i < 8; i++) {
        if (rop & (1 << i)) {
            out |= (i & 4 ? p : ~p) & (i & 2 ? sv : ~sv) & (i & 1 ? d : ~d);
        }
    }
    return out;
}

/* The pattern's colour at surface pixel (x, y): 8x8 monochrome */
static uint32_t pattern_px(const uint32_t *ctx, int x, int y)
{
    unsigned bit = (y & 7) * 8 + (x & 7);
    uint32_t bits = bit < 32 ? ctx[GC_PATT_BITS0] : ctx[GC_PATT_BITS1];
    bool one;

    /* monochrome format 1 (CGA6): MSB first in each byte */
    if (ctx[GC_PATT_MONO_FORMAT] == 1) {
        one = (bits >> ((bit & 24) + 7 - (bit & 7))) & 1;
    } else {
        one = (bits >> (bit & 31)) & 1;
    }
    return to_surface(one ? ctx[GC_PATT_COLOR1] : ctx[GC_PATT_COLOR0],
                      ctx[GC_PATT_COLOR_FORMAT], ctx[GC_SURF_FORMAT]);
}

/* ---- clipping ---------------------------------------------------------- */

typedef struct Rect {
    int x0, y0, x1, y1;             /* [x0, x1) x [y0, y1) */
} Rect;

static int16_t lo16(uint32_t v)
{
    return v & 0xffff;
}

static int16_t hi16(uint32_t v)
{
    return v >> 16;
}

static void clip_to(Rect *r, const Rect *c)
{
    r->x0 = MAX(r->x0, c->x0);
    r->y0 = MAX(r->y0, c->y0);
    r->x1 = MIN(r->x1, c->x1);
    r->y1 = MIN(r->y1, c->y1);
}

/* The clip rectangle object's bounds; unbounded until one was set */
static Rect user_clip(const uint32_t *ctx)
{
    Rect c = { -32768, -32768, 32767, 32767 };

    if (ctx[GC_CLIP_SIZE]) {
        c.x0 = lo16(ctx[GC_CLIP_POINT]);
        c.y0 = hi16(ctx[GC_CLIP_POINT]);
        c.x1 = c.x0 + (ctx[GC_CLIP_SIZE] & 0xffff);
        c.y1 = c.y0 + (ctx[GC_CLIP_SIZE] >> 16);
    }
    c.x0 = MAX(c.x0, 0);
    c.y0 = MAX(c.y0, 0);
    return c;
}

/* ---- GDI: rectangles and colour expansion ------------------------------ */

/* One pixel of a GDI operation through its ROP/operation */
static uint32_t gdi_px(const uint32_t *ctx, uint32_t src, uint32_t dst,
                       int x, int y)
{
    if (ctx[GC_GDI_OPERATION] == OP_ROP_AND) {
        return rop3(ctx[GC_ROP], pattern_px(ctx, x, y), src, dst);
    }
    return src;
}

static NVGrResult gdi_fill(NVDevState *s, uint32_t *ctx, uint32_t point,
                           uint32_t size)
{
    Rect r = { hi16(point), lo16(point), 0, 0 };
    Rect c = user_clip(ctx);
    uint32_t color = to_surface(ctx[GC_GDI_COLOR1_A], ctx[GC_GDI_COLOR_FORMAT],
                                ctx[GC_SURF_FORMAT]);
    Surface sf;

    r.x1 = r.x0 + (size >> 16);
    r.y1 = r.y0 + (size & 0xffff);
    clip_to(&r, &c);
    if (r.x0 >= r.x1 || r.y0 >= r.y1) {
        return NV_GR_DONE;
    }
    if (!surface(s, ctx, true, &sf)) {
        return NV_GR_DMA_W_FAULT;
    }
    for (int y = r.y0; y < r.y1; y++) {
        uint8_t *p = surf_row(s, &sf, r.x0, y, r.x1 - r.x0, true);

        if (!p) {
            return NV_GR_DMA_W_FAULT;
        }
        for (int x = r.x0; x < r.x1; x++) {
            uint8_t *q = p + (x - r.x0) * sf.bpp;
            put_px(q, &sf, gdi_px(ctx, color, get_px(q, sf.bpp), x, y));
        }
        nv_dma_vram_dirty(s, p, (r.x1 - r.x0) * sf.bpp);
    }
    nv_pgraph_work(s, (uint64_t)(r.x1 - r.x0) * (r.y1 - r.y0) * sf.bpp);
    return NV_GR_DONE;
}

/* 32 pixels of 1 bpp colour-expanded image data (0x0c00..0x0dfc) */
static NVGrResult gdi_image_data(NVDevState *s, uint32_t *ctx, uint32_t data)
{
    uint32_t in_w = ctx[GC_GDI_SIZE_IN] & 0xffff, in_h = ctx[GC_GDI_SIZE_IN] >> 16;
    uint32_t out_w = ctx[GC_GDI_SIZE_OUT] & 0xffff;
    uint32_t out_h = ctx[GC_GDI_SIZE_OUT] >> 16;
    int px = lo16(ctx[GC_GDI_POINT]), py = hi16(ctx[GC_GDI_POINT]);
    Rect c = user_clip(ctx);
    Rect c2 = { lo16(ctx[GC_GDI_CLIP0]), hi16(ctx[GC_GDI_CLIP0]),
                lo16(ctx[GC_GDI_CLIP1]), hi16(ctx[GC_GDI_CLIP1]) };
    uint32_t fg = to_surface(ctx[GC_GDI_COLOR1_C], ctx[GC_GDI_COLOR_FORMAT],
                             ctx[GC_SURF_FORMAT]);
    uint32_t bg = to_surface(ctx[GC_GDI_COLOR0_C], ctx[GC_GDI_COLOR_FORMAT],
                             ctx[GC_SURF_FORMAT]);
    uint8_t *lo = NULL, *hi = NULL;     /* what this word drew */
    uint8_t *row_p = NULL;              /* the clipped row being drawn */
    int row_y = INT_MIN, row_x0 = 0;
    bool fault = false;
    Surface sf;

    if (!in_w || ctx[GC_GDI_PIXELS] >= in_w * in_h) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: GDI image data beyond "
                      "the %ux%u image\n", in_w, in_h);
        return NV_GR_DATA_ERROR;
    }
    clip_to(&c, &c2);
    if (!surface(s, ctx, true, &sf)) {
        return NV_GR_DMA_W_FAULT;
    }
    for (int i = 0; i < 32 && ctx[GC_GDI_PIXELS] < in_w * in_h; i++) {
        uint32_t n = ctx[GC_GDI_PIXELS]++;
        uint32_t col = n % in_w, row = n / in_w;
        int x = px + col, y = py + row;
        bool one;
        uint8_t *p;

        /* monochrome format 1 (CGA6): bytes LSB first, bits MSB first */
        if (ctx[GC_GDI_MONO_FORMAT] == 1) {
            one = (data >> ((i & 24) + 7 - (i & 7))) & 1;
        } else {
            one = (data >> i) & 1;
        }
        if (col >= out_w || row >= out_h || x < c.x0 || x >= c.x1 ||
            y < c.y0 || y >= c.y1) {
            continue;
        }
        if (y != row_y) {
            int x1 = MIN(px + (int)MIN(in_w, out_w), c.x1);

            row_y = y;
            row_x0 = MAX(px, c.x0);
            row_p = surf_row(s, &sf, row_x0, y, x1 - row_x0, true);
        }
        if (!row_p) {
            fault = true;
            break;
        }
        p = row_p + (x - row_x0) * sf.bpp;
        put_px(p, &sf, gdi_px(ctx, one ? fg : bg, get_px(p, sf.bpp), x, y));
        lo = lo && lo < p ? lo : p;
        hi = hi && hi > p + sf.bpp ? hi : p + sf.bpp;
    }
    /* one dirty range for the word's pixels (a few rows of a glyph): the
     * display redraws a few pages more, rather than taking a dirty-bitmap
     * update per pixel */
    if (lo) {
        nv_dma_vram_dirty(s, lo, hi - lo);
    }
    return fault ? NV_GR_DMA_W_FAULT : NV_GR_DONE;
}

static NVGrResult gdi_method(NVDevState *s, uint32_t *ctx, uint32_t mthd,
                             uint32_t data)
{
    switch (mthd) {
    case 0x0184:                    /* beta1, beta4: not used by the ops */
    case 0x0190:
    case 0x0194:
    case 0x0188:                    /* the pattern, the ROP and the surfaces */
    case 0x018c:                    /* objects: their state is the context */
    case 0x0198:
        return NV_GR_DONE;
    case 0x02fc:
        if (data > 5) {
            return NV_GR_DATA_ERROR;
        }
        ctx[GC_GDI_OPERATION] = data;
        return NV_GR_DONE;
    case 0x0300:
        if (data < 1 || data > 3) {
            return NV_GR_DATA_ERROR;
        }
        ctx[GC_GDI_COLOR_FORMAT] = data;
        return NV_GR_DONE;
    case 0x0304:
        if (data < 1 || data > 2) {
            return NV_GR_DATA_ERROR;
        }
        ctx[GC_GDI_MONO_FORMAT] = data;
        return NV_GR_DONE;
    case 0x03fc:
        ctx[GC_GDI_COLOR1_A] = data;
        return NV_GR_DONE;
    case 0x0400 ... 0x04fc:         /* 32 x (point, size): size launches */
        if (!(mthd & 4)) {
            ctx[GC_GDI_POINT] = data;
            return NV_GR_DONE;
        }
        return gdi_fill(s, ctx, ctx[GC_GDI_POINT], data);
    case 0x0be4:
        ctx[GC_GDI_CLIP0] = data;
        return NV_GR_DONE;
    case 0x0be8:
        ctx[GC_GDI_CLIP1] = data;
        return NV_GR_DONE;
    case 0x0bec:
        ctx[GC_GDI_COLOR0_C] = data;
        return NV_GR_DONE;
    case 0x0bf0:
        ctx[GC_GDI_COLOR1_C] = data;
        return NV_GR_DONE;
    case 0x0bf4:
        ctx[GC_GDI_SIZE_IN] = data;
        return NV_GR_DONE;
    case 0x0bf8:
        ctx[GC_GDI_SIZE_OUT] = data;
        return NV_GR_DONE;
    case 0x0bfc:
        ctx[GC_GDI_POINT] = data;
        ctx[GC_GDI_PIXELS] = 0;
        return NV_GR_DONE;
    case 0x0c00 ... 0x0dfc:
        return gdi_image_data(s, ctx, data);
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}

/* ---- image blit -------------------------------------------------------- */

static NVGrResult blit(NVDevState *s, uint32_t *ctx, uint32_t size)
{
    int sx = lo16(ctx[GC_BLIT_POINT_IN]), sy = hi16(ctx[GC_BLIT_POINT_IN]);
    Rect r = { lo16(ctx[GC_BLIT_POINT_OUT]), hi16(ctx[GC_BLIT_POINT_OUT]) };
    Rect c = user_clip(ctx);
    Surface src, dst;
    int w, dy, y0, y1, step;
    g_autofree uint8_t *row = NULL;

    r.x1 = r.x0 + (size & 0xffff);
    r.y1 = r.y0 + (size >> 16);
    sx -= r.x0;                     /* source = destination + (sx, sy) */
    sy -= r.y0;
    clip_to(&r, &c);
    if (r.x0 + sx < 0) {
        r.x0 = -sx;
    }
    if (r.y0 + sy < 0) {
        r.y0 = -sy;
    }
    if (r.x0 >= r.x1 || r.y0 >= r.y1) {
        return NV_GR_DONE;
    }
    if (!surface(s, ctx, false, &src) || !surface(s, ctx, true, &dst)) {
        return NV_GR_DMA_R_FAULT;
    }
    w = r.x1 - r.x0;
    row = g_malloc(w * dst.bpp);
    /* a source above its destination is copied bottom-up, so that no
     * row is overwritten before it is read */
    if (sy > 0) {
        y0 = r.y0, y1 = r.y1, step = 1;
    } else {
        y0 = r.y1 - 1, y1 = r.y0 - 1, step = -1;
    }
    for (dy = y0; dy != y1; dy += step) {
        uint8_t *sp = surf_row(s, &src, r.x0 + sx, dy + sy, w, false);
        uint8_t *dp = surf_row(s, &dst, r.x0, dy, w, true);

        if (!sp) {
            return NV_GR_DMA_R_FAULT;
        }
        if (!dp) {
            return NV_GR_DMA_W_FAULT;
        }
        memcpy(row, sp, w * dst.bpp);
        if (ctx[GC_BLIT_OPERATION] == OP_ROP_AND) {
            for (int x = 0; x < w; x++) {
                uint8_t *q = dp + x * dst.bpp;
                put_px(row + x * dst.bpp, &dst,
                       rop3(ctx[GC_ROP], pattern_px(ctx, r.x0 + x, dy),
                            get_px(row + x * dst.bpp, dst.bpp),
                            get_px(q, dst.bpp)));
            }
        }
        memcpy(dp, row, w * dst.bpp);
        nv_dma_vram_dirty(s, dp, w * dst.bpp);
    }
    nv_pgraph_work(s, 2ull * w * (r.y1 - r.y0) * dst.bpp);
    return NV_GR_DONE;
}

static NVGrResult blit_method(NVDevState *s, uint32_t *ctx, uint32_t cls,
                              uint32_t mthd, uint32_t data)
{
    switch (mthd) {
    case 0x0120 ... 0x0128:         /* NV15: flip synchronisation */
        return cls == CLS_BLIT_NV15 ? NV_GR_DONE : NV_GR_ILLEGAL_MTHD;
    case 0x0184 ... 0x019c:         /* colour key, clip, pattern, ROP, beta, surfaces */
        return NV_GR_DONE;
    case 0x02fc:
        if (data > 5) {
            return NV_GR_DATA_ERROR;
        }
        ctx[GC_BLIT_OPERATION] = data;
        return NV_GR_DONE;
    case 0x0300:
        ctx[GC_BLIT_POINT_IN] = data;
        return NV_GR_DONE;
    case 0x0304:
        ctx[GC_BLIT_POINT_OUT] = data;
        return NV_GR_DONE;
    case 0x0308:
        return blit(s, ctx, data);
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}

/* ---- memory to memory -------------------------------------------------- */

static NVGrResult m2mf(NVDevState *s, uint32_t *ctx)
{
    uint32_t len = ctx[GC_M2MF_LINE_LENGTH], lines = ctx[GC_M2MF_LINE_COUNT];
    uint8_t buf[4096];
    NVDmaObj in, out;

    if (ctx[GC_M2MF_FORMAT] != 0x101) {
        qemu_log_mask(LOG_UNIMP, "nvdev: PGRAPH: M2MF format 0x%x: only "
                      "byte copies (0x101) are modelled, copying bytes\n",
                      ctx[GC_M2MF_FORMAT]);
    }
    if (!nv_dma_object(s, ctx[GC_M2MF_DMA_IN], &in, "M2MF in") ||
        !nv_dma_object(s, ctx[GC_M2MF_DMA_OUT], &out, "M2MF out")) {
        return NV_GR_DMA_R_FAULT;
    }
    for (uint32_t l = 0; l < lines; l++) {
        uint64_t src = ctx[GC_M2MF_OFFSET_IN] +
                       (uint64_t)l * (int32_t)ctx[GC_M2MF_PITCH_IN];
        uint64_t dst = ctx[GC_M2MF_OFFSET_OUT] +
                       (uint64_t)l * (int32_t)ctx[GC_M2MF_PITCH_OUT];

        for (uint32_t done = 0; done < len; done += sizeof(buf)) {
            uint32_t n = MIN(sizeof(buf), len - done);

            if (src + done > UINT32_MAX ||
                !nv_dma_rw(s, &in, src + done, buf, n, false, "M2MF in")) {
                return NV_GR_DMA_R_FAULT;
            }
            if (dst + done > UINT32_MAX ||
                !nv_dma_rw(s, &out, dst + done, buf, n, true, "M2MF out")) {
                return NV_GR_DMA_W_FAULT;
            }
        }
    }
    nv_pgraph_work(s, 2ull * len * lines);
    return NV_GR_DONE;
}

static NVGrResult m2mf_method(NVDevState *s, uint32_t *ctx, uint32_t mthd,
                              uint32_t data)
{
    static const int regs[] = {
        [0x30c >> 2] = GC_M2MF_OFFSET_IN, [0x310 >> 2] = GC_M2MF_OFFSET_OUT,
        [0x314 >> 2] = GC_M2MF_PITCH_IN, [0x318 >> 2] = GC_M2MF_PITCH_OUT,
        [0x31c >> 2] = GC_M2MF_LINE_LENGTH, [0x320 >> 2] = GC_M2MF_LINE_COUNT,
        [0x324 >> 2] = GC_M2MF_FORMAT,
    };

    switch (mthd) {
    case 0x0184:
        ctx[GC_M2MF_DMA_IN] = data;
        return NV_GR_DONE;
    case 0x0188:
        ctx[GC_M2MF_DMA_OUT] = data;
        return NV_GR_DONE;
    case 0x030c ... 0x0324:
        ctx[regs[mthd >> 2]] = data;
        return NV_GR_DONE;
    case 0x0328: {                  /* BUFFER_NOTIFY: go */
        NVGrResult r = m2mf(s, ctx);

        if (r == NV_GR_DONE && ctx[GC_NOTIFY_PENDING]) {
            /* the notifier: timestamp, return value, status 0 = done */
            uint32_t note[4] = { 0, 0, 0, 0 };
            NVDmaObj n;

            ctx[GC_NOTIFY_PENDING] = 0;
            if (!nv_dma_object(s, ctx[GC_NOTIFY_DMA], &n, "M2MF notify") ||
                !nv_dma_rw(s, &n, 0, note, sizeof(note), true, "M2MF notify")) {
                return NV_GR_DMA_W_FAULT;
            }
        }
        return r;
    }
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}

/* ---- context objects --------------------------------------------------- */

static NVGrResult surf2d_method(uint32_t *ctx, uint32_t mthd, uint32_t data)
{
    switch (mthd) {
    case 0x0184:
        ctx[GC_SURF_DMA_SRC] = data;
        return NV_GR_DONE;
    case 0x0188:
        ctx[GC_SURF_DMA_DST] = data;
        return NV_GR_DONE;
    case 0x0300:
        if (!surf_bpp(data)) {
            return NV_GR_DATA_ERROR;
        }
        ctx[GC_SURF_FORMAT] = data;
        return NV_GR_DONE;
    case 0x0304:
        ctx[GC_SURF_PITCH] = data;
        return NV_GR_DONE;
    case 0x0308:
        ctx[GC_SURF_OFFSET_SRC] = data;
        return NV_GR_DONE;
    case 0x030c:
        ctx[GC_SURF_OFFSET_DST] = data;
        return NV_GR_DONE;
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}

static NVGrResult pattern_method(uint32_t *ctx, uint32_t mthd, uint32_t data)
{
    switch (mthd) {
    case 0x0300:
        ctx[GC_PATT_COLOR_FORMAT] = data;
        return NV_GR_DONE;
    case 0x0304:
        ctx[GC_PATT_MONO_FORMAT] = data;
        return NV_GR_DONE;
    case 0x0308:
        ctx[GC_PATT_SHAPE] = data;
        return NV_GR_DONE;
    case 0x030c:                    /* pattern select: monochrome */
        return NV_GR_DONE;
    case 0x0310:
        ctx[GC_PATT_COLOR0] = data;
        return NV_GR_DONE;
    case 0x0314:
        ctx[GC_PATT_COLOR1] = data;
        return NV_GR_DONE;
    case 0x0318:
        ctx[GC_PATT_BITS0] = data;
        return NV_GR_DONE;
    case 0x031c:
        ctx[GC_PATT_BITS1] = data;
        return NV_GR_DONE;
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}

NVGrResult nv_gr2d_method(NVDevState *s, uint32_t *ctx, uint32_t cls,
                          uint32_t mthd, uint32_t data)
{
    /* methods every class has */
    switch (mthd) {
    case 0x0100:                    /* NO_OPERATION */
        return NV_GR_DONE;
    case 0x0104:                    /* NOTIFY */
        ctx[GC_NOTIFY_PENDING] = data + 1;
        return NV_GR_DONE;
    case 0x0180:                    /* SET_CONTEXT_DMA_NOTIFY */
        ctx[GC_NOTIFY_DMA] = data;
        return NV_GR_DONE;
    default:
        break;
    }
    switch (cls) {
    case CLS_CLIP:
        if (mthd == 0x0300 || mthd == 0x0304) {
            ctx[mthd == 0x0300 ? GC_CLIP_POINT : GC_CLIP_SIZE] = data;
            return NV_GR_DONE;
        }
        return NV_GR_ILLEGAL_MTHD;
    case CLS_ROP:
        if (mthd == 0x0300) {
            ctx[GC_ROP] = data & 0xff;
            return NV_GR_DONE;
        }
        return NV_GR_ILLEGAL_MTHD;
    case CLS_PATTERN:
        return pattern_method(ctx, mthd, data);
    case CLS_SURF2D_NV04:
    case CLS_SURF2D_NV10:
        return surf2d_method(ctx, mthd, data);
    case CLS_GDI:
        return gdi_method(s, ctx, mthd, data);
    case CLS_BLIT_NV04:
    case CLS_BLIT_NV15:
        return blit_method(s, ctx, cls, mthd, data);
    case CLS_M2MF:
        return m2mf_method(s, ctx, mthd, data);
    default:
        return NV_GR_ILLEGAL_MTHD;
    }
}
