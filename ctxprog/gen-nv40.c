/*
 * libctxprog: a generator of NV40-family context programs and of the
 * initial values of the context image they save and load.
 *
 * The image is a sequence of PGRAPH register ranges, in the order the
 * program transfers them, followed by two areas of hidden state the
 * program moves with xfer (a block of 3D state and the per-vertex-unit
 * shader state).  Which ranges a chipset has, and the values a fresh
 * context starts with, are the tables below, one row a fact: "registers
 * REG..REG+4*(COUNT-1) are context state on these chipsets".  The walk
 * over them is done once: it writes the program (as assembler source,
 * then assembled by ctxprog_asm()) and lays the defaults out at the image
 * position each register got, so the two always agree.
 *
 * The chipset facts are those Linux 6.1's nouveau knows (its generator
 * is what runs on these cards today): the register ranges, the vertex
 * unit counts, the hidden-state sizes.  Where it keys a fact on a chipset
 * number comparison, the tables spell out the chipsets it selects.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <string.h>

/* one bit a chipset */
enum {
    C40 = 1 << 0, C41 = 1 << 1, C42 = 1 << 2, C43 = 1 << 3, C44 = 1 << 4,
    C46 = 1 << 5, C47 = 1 << 6, C49 = 1 << 7, C4A = 1 << 8, C4B = 1 << 9,
    C4C = 1 << 10, C4E = 1 << 11, C63 = 1 << 12, C67 = 1 << 13,
    C68 = 1 << 14,
    ALL = (1 << 15) - 1,
    NOT40 = ALL & ~C40,
    G70 = C47 | C49 | C4B,              /* GeForce 7800/7900 class */
    /* the NV44-class 3D engine (class 0x4497): smaller hidden state */
    CURIE = C44 | C46 | C4A | C4C | C4E | C63 | C67 | C68,
    IGP = C4C | C4E | C63 | C67 | C68,
};

static const CtxprogChip chips[] = {
    { 0x40, "NV40", 6, false }, { 0x41, "NV41", 5, false },
    { 0x42, "NV42", 5, false }, { 0x43, "NV43", 3, false },
    { 0x44, "NV44", 3, true }, { 0x46, "NV46", 3, true },
    { 0x47, "NV47", 8, false }, { 0x49, "NV49", 8, false },
    { 0x4a, "NV4A", 3, true }, { 0x4b, "NV4B", 8, false },
    { 0x4c, "NV4C", 1, true }, { 0x4e, "NV4E", 1, true },
    { 0x63, "NV63", 1, true }, { 0x67, "NV67", 1, true },
    { 0x68, "NV68", 1, true },
};

#define VS_UNITS 0xffff     /* a count: one register a vertex unit */

typedef struct Range {
    uint32_t reg;
    uint16_t count;
    uint16_t chips;
} Range;

typedef struct Default {
    uint32_t reg;
    uint32_t value;
    uint16_t chips;
    uint16_t repeat;        /* registers from reg, 4 apart */
} Default;

/* the general PGRAPH state, saved and loaded on every switch */
static const Range general[] = {
    { 0x4000a4, 1, ALL }, { 0x400144, 58, ALL }, { 0x400314, 1, ALL },
    { 0x400400, 10, ALL }, { 0x400480, 10, ALL }, { 0x400500, 19, ALL },
    { 0x400560, 6, ALL }, { 0x40057c, 5, ALL }, { 0x400710, 3, ALL },
    { 0x400724, 1, ALL }, { 0x400770, 3, ALL },
    { 0x400814, 4, C40 }, { 0x400828, 5, C40 }, { 0x400840, 5, C40 },
    { 0x400858, 4, C40 }, { 0x40086c, 9, C40 }, { 0x4009c0, 8, C40 },
    { 0x400840, 20, NOT40 }, { 0x400894, 11, NOT40 },
    { 0x4008e0, 2, NOT40 }, { 0x4008f8, 2, NOT40 },
    { 0x4009f8, 1, C4C | C63 | C67 | C68 },
    { 0x400a00, 73, ALL }, { 0x401000, 4, ALL }, { 0x405004, 1, ALL },
    { 0x403448, 1, G70 }, { 0x403440, 1, ALL & ~G70 },
};

/* 3D state, first block: only while the 3D engine holds state */
static const Range state3d[] = {
    { 0x401880, 51, C40 }, { 0x401880, 32, C46 | G70 },
    { 0x401900, 16, C46 }, { 0x401940, 3, C46 | G70 },
    { 0x40194c, 18, ALL },
    { 0x4019a0, 2, C40 }, { 0x4019ac, 5, C40 },
    { 0x4019a0, 1, NOT40 }, { 0x4019b4, 3, NOT40 },
    { 0x4019c0, 18, C46 | G70 },
    { 0x401a08, 8, ALL }, { 0x401a2c, 4, ALL }, { 0x401a44, 26, ALL },
    { 0x401ab8, 3, C40 }, { 0x401ab8, 1, NOT40 }, { 0x401ac0, 1, NOT40 },
    { 0x401ad0, 8, ALL },
    { 0x401b10, 2, C40 }, { 0x401b10, 1, NOT40 },
    { 0x401b18, 6, C40 }, { 0x401b18, 5, NOT40 },
    { 0x401b30, 25, ALL }, { 0x401b94, 1, ALL & ~(C44 | C4A | C4E) },
    { 0x401b98, 8, ALL }, { 0x401bc0, 9, ALL }, { 0x401c00, 192, ALL },
    { 0x400f5c, 3, ALL }, { 0x400f84, 1, ALL },
};

/* 3D state, second block */
static const Range state3d_2[] = {
    { 0x402000, 1, ALL }, { 0x402404, 1, C40 }, { 0x402404, 2, NOT40 },
    { 0x402440, 1, C44 | C46 | C4A | C4C | C4E | C67 },
    { 0x402480, 8, C40 }, { 0x402480, 9, NOT40 },
    { 0x402500, 31, ALL }, { 0x40257c, 6, C40 }, { 0x402594, 16, ALL },
    { 0x402800, 17, ALL },
    { 0x402864, 1, G70 }, { 0x402870, 3, G70 },
    { 0x402900, 1, C49 | C4B }, { 0x402940, 1, C49 | C4B },
    { 0x402980, 1, C49 | C4B }, { 0x4029c0, 1, C49 | C4B },
    { 0x402a00, 1, C49 | C4B }, { 0x402a40, 1, C49 | C4B },
    { 0x402a80, 1, C49 | C4B }, { 0x402ac0, 1, C49 | C4B },
    { 0x402844, 1, ALL & ~G70 }, { 0x402850, 1, C40 },
    { 0x402850, 2, ALL & ~G70 & ~C40 },
    { 0x402c00, 4, ALL },
    { 0x402c20, 40, G70 }, { 0x4030b8, 13, G70 },
    { 0x402c10, 4, ALL & ~G70 },
    { 0x402c20, 36, C40 }, { 0x402c20, 24, C41 | C42 },
    { 0x402c20, 16, C43 | C44 | C46 | C4A }, { 0x402c20, 8, IGP },
    { 0x402cb0, 12, C40 }, { 0x402cb0, 13, ALL & ~G70 & ~C40 },
    { 0x403400, 4, C40 }, { 0x403400, 3, NOT40 },
    { 0x403410, 4, C40 }, { 0x403410, 3, NOT40 },
    { 0x403420, VS_UNITS, ALL },
    { 0x403600, 1, NOT40 }, { 0x403800, 1, ALL }, { 0x403c18, 1, ALL },
    { 0x405018, 1, C46 | G70 }, { 0x405c24, 1, C46 | G70 },
    { 0x405800, 11, ALL & ~C4E }, { 0x407000, 1, ALL },
};

static const Default defaults[] = {
    { 0x4000a4, 0x00000008, ALL, 1 }, { 0x400144, 0x00000001, ALL, 1 },
    { 0x400514, 0x00040000, ALL, 1 }, { 0x400524, 0x55555555, ALL, 4 },
    { 0x400568, 0x0000ffff, ALL, 2 },
    { 0x400710, 0x20010001, ALL, 1 }, { 0x400714, 0x0f73ef00, ALL, 1 },
    { 0x400724, 0x02008821, ALL, 1 },
    { 0x400850, 0x00000040, C40, 1 }, { 0x400858, 0x00000040, C40, 2 },
    { 0x400864, 0x80000000, C40, 1 }, { 0x40086c, 0x80000000, C40, 4 },
    { 0x400888, 0x00000040, C40, 1 }, { 0x40088c, 0x80000000, C40, 1 },
    { 0x4009cc, 0x80000000, C40, 1 }, { 0x4009dc, 0x80000000, C40, 1 },
    { 0x400860, 0x00000001, CURIE, 8 },
    { 0x400880, 0x00000040, NOT40, 3 }, { 0x400894, 0x00000040, NOT40, 1 },
    { 0x4008a0, 0x80000000, NOT40 & ~CURIE, 8 },
    { 0x400b0c, 0x0b0b0b0c, ALL, 1 },
    { 0x403448, 0x00001010, G70, 1 }, { 0x403440, 0x00000010, C40, 1 },
    { 0x403440, 0x00003010, C44 | C46 | C4A, 1 },
    { 0x403440, 0x00001010, C41 | C42 | C43 | IGP, 1 },
    /* 3D, first block */
    { 0x401940, 0x00000100, C40, 1 }, { 0x401880, 0x00000111, C46 | G70, 16 },
    { 0x401954, 0x00000111, ALL, 1 }, { 0x401958, 0x00080060, ALL, 1 },
    { 0x401974, 0x00000080, ALL, 1 }, { 0x401978, 0xffff0000, ALL, 1 },
    { 0x40197c, 0x00000001, ALL, 1 }, { 0x401990, 0x46400000, ALL, 1 },
    { 0x4019bc, 0xffff0000, ALL, 1 }, { 0x4019c0, 0x88888888, C46 | G70, 16 },
    { 0x401a10, 0x0fff0000, ALL, 2 }, { 0x401a1c, 0x00011100, ALL, 1 },
    { 0x401a44, 0x07ff0000, ALL, 16 }, { 0x401a8c, 0x4b7fffff, ALL, 1 },
    { 0x401ad0, 0x30201000, ALL, 1 }, { 0x401ad4, 0x70605040, ALL, 1 },
    { 0x401ad8, 0xb8a89888, ALL, 1 }, { 0x401adc, 0xf8e8d8c8, ALL, 1 },
    { 0x401b10, 0x40100000, ALL, 1 }, { 0x401b28, 0x00000004, C40, 1 },
    { 0x401b34, 0x0000ffff, ALL, 1 }, { 0x401b68, 0x435185d6, ALL, 1 },
    { 0x401b6c, 0x2155b699, ALL, 1 }, { 0x401b70, 0xfedcba98, ALL, 1 },
    { 0x401b74, 0x00000098, ALL, 1 }, { 0x401b84, 0xffffffff, ALL, 1 },
    { 0x401b88, 0x00ff7000, ALL, 1 }, { 0x401b8c, 0x0000ffff, ALL, 1 },
    { 0x401b9c, 0x00ff0000, ALL, 1 }, { 0x401be0, 0x00ffff00, ALL, 1 },
    /* the 16 fragment texture units, then the 4 vertex texture units */
    { 0x401c40, 0x00018488, ALL, 16 }, { 0x401c80, 0x00028202, ALL, 16 },
    { 0x401d00, 0x0000aae4, ALL, 16 }, { 0x401d40, 0x01012000, ALL, 16 },
    { 0x401d80, 0x00080008, ALL, 16 }, { 0x401e00, 0x00100008, ALL, 16 },
    { 0x401e90, 0x0001bc80, ALL, 4 }, { 0x401ea0, 0x00000202, ALL, 4 },
    { 0x401ec0, 0x00000008, ALL, 4 }, { 0x401ee0, 0x00080008, ALL, 4 },
    { 0x400f5c, 0x00000002, ALL, 1 },
    /* 3D, second block */
    { 0x402404, 0x00000001, C40, 1 }, { 0x402404, 0x00000020, C4C | C4E | C67, 1 },
    { 0x402404, 0x00000421, C46 | C49 | C4B, 1 },
    { 0x402404, 0x00000021, C41 | C42 | C43 | C44 | C47 | C4A | C63 | C68, 1 },
    { 0x402408, 0x030c30c3, NOT40, 1 },
    { 0x402440, 0x00011001, C44 | C46 | C4A | C4C | C4E | C67, 1 },
    { 0x402488, 0x3e020200, ALL, 1 }, { 0x40248c, 0x00ffffff, ALL, 1 },
    { 0x402490, 0x60103f00, C40, 1 }, { 0x402490, 0x40103f00, C47, 1 },
    { 0x402490, 0x20103f00, C41 | C42 | C49 | C4B, 1 },
    { 0x402490, 0x0c103f00, C43 | CURIE, 1 },
    { 0x40249c, 0x00020000, C40 | C41 | C42 | C43, 1 },
    { 0x40249c, 0x00040000, ALL & ~(C40 | C41 | C42 | C43), 1 },
    { 0x402530, 0x00008100, ALL, 1 }, { 0x402800, 0x00000001, ALL, 1 },
    { 0x402864, 0x00001001, G70, 1 }, { 0x402878, 0x00000003, G70, 1 },
    { 0x402844, 0x00000001, C40, 1 }, { 0x402844, 0x00001001, ALL & ~G70 & ~C40, 1 },
    { 0x402854, 0x00000003, ALL & ~G70 & ~C40, 1 },
    { 0x402c00, 0x80800001, C40, 1 }, { 0x402c00, 0x00888001, NOT40, 1 },
    { 0x402c40, 0xffffffff, G70, 32 },
    { 0x4030dc, 0x00000005, G70, 1 }, { 0x4030e8, 0x0000ffff, G70, 1 },
    { 0x402cd4, 0x00000005, ALL & ~G70, 1 },
    { 0x402ce0, 0x0000ffff, ALL & ~G70 & ~C40, 1 },
    { 0x403420, 0x00005555, ALL, VS_UNITS },
    { 0x403600, 0x00000001, NOT40, 1 }, { 0x403c18, 0x00000001, ALL, 1 },
    { 0x405018, 0x08e00001, C46 | G70, 1 }, { 0x405c24, 0x000e3000, C46 | G70, 1 },
};

/*
 * The per-vertex-unit shader state (xfer area 1, after a 0x300-byte
 * block: 16 pairs whose first word is 1.0f at 0x280): one area of
 * @vs_words a unit, holding 363 six-word entries starting 1 and
 * @b1_count four-word entries starting 1.0f.
 */
typedef struct ShaderLayout {
    uint16_t chips;
    uint32_t vs_bytes, b0_bytes, b1_bytes;
    unsigned b1_count;
} ShaderLayout;

static const ShaderLayout shader_layouts[] = {
    { C40, 0x6aa0, 0x2200, 0x55a0, 128 },
    { C41 | C42, 0x4f00, 0x2200, 0x4400, 64 },
    { ALL & ~(C40 | C41 | C42 | CURIE), 0x4a40, 0x1d40, 0x3f40, 64 },
    { CURIE, 0x4980, 0x1d40, 0x3f40, 64 },
};

#define SHADER_HEAD_WORDS   (0x300 / 4)
#define SHADER_B0_COUNT     363
#define FLOAT_ONE           0x3f800000

const CtxprogChip *ctxprog_nv40_chips(size_t *n)
{
    *n = G_N_ELEMENTS(chips);
    return chips;
}

const CtxprogChip *ctxprog_nv40_chip(const char *name)
{
    const char *s = g_ascii_strncasecmp(name, "nv", 2) ? name : name + 2;
    char *end;
    guint64 v = g_ascii_strtoull(s, &end, 16);      /* "nv4e", "0x4e", "4e" */

    if (end == s || *end) {
        return NULL;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(chips); i++) {
        if (chips[i].chipset == v) {
            return &chips[i];
        }
    }
    return NULL;
}

typedef struct Gen {
    const CtxprogChip *chip;
    uint16_t bit;
    GString *src;
    uint32_t pos;               /* the image position, in words */
    GArray *placed;             /* (Range with count resolved, position) */
} Gen;

typedef struct Placed {
    uint32_t reg, count, pos;
} Placed;

static uint16_t chip_bit(const CtxprogChip *chip)
{
    return 1 << (chip - chips);
}

static unsigned range_count(const Gen *g, unsigned count)
{
    return count == VS_UNITS ? g->chip->vs_units : count;
}

static void emit(Gen *g, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void emit(Gen *g, const char *fmt, ...)
{
    va_list ap;

    g_string_append_c(g->src, '\t');
    va_start(ap, fmt);
    g_string_append_vprintf(g->src, fmt, ap);
    va_end(ap);
    g_string_append_c(g->src, '\n');
}

static void label(Gen *g, const char *name)
{
    g_string_append_printf(g->src, "%s:\n", name);
}

/* transfer the chip's ranges of @table, laying them out in the image */
static void ranges(Gen *g, const Range *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned count = range_count(g, table[i].count);
        Placed p = { table[i].reg, count, g->pos };

        if (!(table[i].chips & g->bit)) {
            continue;
        }
        if (count > 63) {       /* wider than the count field: from $sr */
            emit(g, "lsr 0x%05x", count);
            emit(g, "ctx 0x%06x, $sr", table[i].reg);
        } else {
            emit(g, "ctx 0x%06x, %u", table[i].reg, count);
        }
        g_array_append_val(g->placed, p);
        g->pos += count;
    }
}

static void set_pointer(Gen *g)
{
    emit(g, "lsr 0x%05x", g->pos);
    emit(g, "cmd set_context_pointer");
}

static bool place(Gen *g, uint32_t reg, uint32_t *pos)
{
    for (guint i = 0; i < g->placed->len; i++) {
        Placed *p = &g_array_index(g->placed, Placed, i);

        if (reg >= p->reg && reg < p->reg + 4 * p->count) {
            *pos = p->pos + (reg - p->reg) / 4;
            return true;
        }
    }
    return false;
}

static void put(uint32_t *image, uint32_t size, uint32_t pos, uint32_t value)
{
    g_assert(pos < size);
    image[pos] = value;
}

bool ctxprog_nv40_generate(const CtxprogChip *chip, CtxprogGen *out,
                           GError **errp)
{
    Gen g = {
        .chip = chip, .bit = chip_bit(chip), .src = g_string_new(NULL),
        .placed = g_array_new(FALSE, FALSE, sizeof(Placed)),
    };
    const ShaderLayout *sh = NULL;
    uint32_t hidden, shader, *image;
    bool ok = false;

    for (size_t i = 0; i < G_N_ELEMENTS(shader_layouts); i++) {
        if (shader_layouts[i].chips & g.bit) {
            sh = &shader_layouts[i];
        }
    }
    g_assert(sh);
    g_string_append_printf(g.src, "; %s context program (nvctxprog gen)\n",
                           chip->name);

    /* which way: a save first (then back to look for a load), else a load */
    emit(&g, "bra auto_save, set, setup_save");
    emit(&g, "bra user_save, set, setup_save");
    label(&g, "check_load");
    emit(&g, "bra auto_load, set, setup_auto_load");
    emit(&g, "bra user_load, set, setup_load");
    emit(&g, "bra always, set, exit");
    label(&g, "setup_auto_load");
    emit(&g, "wait status, clear");
    emit(&g, "cmd next_to_swap");
    label(&g, "setup_load");
    emit(&g, "wait status, clear");
    emit(&g, "set swap_direction, clear");
    /* a load first resets units and waits out a timer of 0x20 */
    emit(&g, "reset 1, 0x0880");
    emit(&g, "reset 0, 0x1ffe");
    emit(&g, ".word 0x01940000");
    emit(&g, "lsr 0x00020");
    emit(&g, "cmd start_timer");
    emit(&g, "wait timer, clear");
    emit(&g, "cmd clear_reset");
    emit(&g, "bra always, set, swap_state");
    label(&g, "setup_save");
    emit(&g, "set swap_direction, set");

    /* the image: word 0 is the context's own address, state from 0x20 */
    label(&g, "swap_state");
    g.pos = 0x20 / 4;
    set_pointer(&g);
    ranges(&g, general, G_N_ELEMENTS(general));
    emit(&g, "wait status, clear");
    emit(&g, "bra state3d, clear, prepare_exit");
    ranges(&g, state3d, G_N_ELEMENTS(state3d));
    emit(&g, "wait status, clear");
    ranges(&g, state3d_2, G_N_ELEMENTS(state3d_2));

    /* hidden 3D state: xfer area 1 from 0, $sr words (4 fewer on a save) */
    hidden = chip->curie ? 0x84 : 0x684;
    emit(&g, "lsr2 0x00000");
    emit(&g, "lsr 0x%05x", hidden - 4);
    emit(&g, "bra swap_direction, set, hidden_is_save");
    emit(&g, "lsr 0x%05x", hidden);
    label(&g, "hidden_is_save");
    emit(&g, "xfer main, 0");
    g.pos += hidden;

    /* per-vertex-unit shader state */
    set_pointer(&g);
    shader = g.pos;
    emit(&g, "lsr 0x%05x", SHADER_HEAD_WORDS + chip->vs_units * sh->vs_bytes / 4);
    emit(&g, "xfer main, %u", chip->curie ? 5 : 8);
    g.pos += SHADER_HEAD_WORDS + chip->vs_units * sh->vs_bytes / 4;

    label(&g, "prepare_exit");
    emit(&g, "bra swap_direction, set, check_load");
    emit(&g, "bra user_save, set, exit");
    emit(&g, "cmd next_to_current");
    label(&g, "exit");
    emit(&g, "set user_save, clear");
    emit(&g, "set user_load, clear");
    emit(&g, "cmd end");

    out->words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    out->vals = g_array_new(FALSE, FALSE, sizeof(CtxprogVal));
    out->image_size = g.pos * 4;
    if (!ctxprog_asm(CTXPROG_NV40, g.src->str, out->words, errp)) {
        goto done;
    }
    if (out->words->len > CTXPROG_NV40_MAX) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_RANGE,
                    "%s: %u instructions, CTXCTL holds %u", chip->name,
                    out->words->len, CTXPROG_NV40_MAX);
        goto done;
    }

    /* the initial image: register defaults where their range went */
    image = g_new0(uint32_t, g.pos);
    for (size_t i = 0; i < G_N_ELEMENTS(defaults); i++) {
        const Default *d = &defaults[i];
        unsigned n = d->repeat == VS_UNITS ? chip->vs_units : d->repeat;

        if (!(d->chips & g.bit)) {
            continue;
        }
        for (unsigned k = 0; k < n; k++) {
            uint32_t pos;

            if (!place(&g, d->reg + 4 * k, &pos)) {
                g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_RANGE,
                            "%s: a default for 0x%06x, which no range holds",
                            chip->name, d->reg + 4 * k);
                g_free(image);
                goto done;
            }
            put(image, g.pos, pos, d->value);
        }
    }
    for (unsigned i = 0; i < 16; i++) {
        put(image, g.pos, shader + 0x280 / 4 + 2 * i, FLOAT_ONE);
    }
    for (unsigned vs = 0; vs < chip->vs_units; vs++) {
        uint32_t unit = shader + SHADER_HEAD_WORDS + vs * sh->vs_bytes / 4;

        for (unsigned i = 0; i < SHADER_B0_COUNT; i++) {
            put(image, g.pos, unit + sh->b0_bytes / 4 + 6 * i, 1);
        }
        for (unsigned i = 0; i < sh->b1_count; i++) {
            put(image, g.pos, unit + sh->b1_bytes / 4 + 4 * i, FLOAT_ONE);
        }
    }
    for (uint32_t i = 0; i < g.pos; i++) {
        if (image[i]) {
            CtxprogVal v = { i, image[i] };

            g_array_append_val(out->vals, v);
        }
    }
    g_free(image);
    ok = true;
done:
    out->source = g_string_free(g.src, FALSE);
    g_array_free(g.placed, TRUE);
    if (!ok) {
        g_array_free(out->words, TRUE);
        g_array_free(out->vals, TRUE);
        out->words = out->vals = NULL;
    }
    return ok;
}

void ctxprog_gen_clear(CtxprogGen *gen)
{
    if (gen->words) {
        g_array_free(gen->words, TRUE);
    }
    if (gen->vals) {
        g_array_free(gen->vals, TRUE);
    }
    g_free(gen->source);
    memset(gen, 0, sizeof(*gen));
}
