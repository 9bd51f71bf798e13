/*
 * libnvbios: build a VBIOS image from a GKeyFile board description
 * (vbios/boards/README.md describes the keys).
 *
 * Layout of a built image:
 *   0x0000  ROM header: 0x55AA, size / 512, x86 entry (a far return)
 *   0x0036  DCB pointer
 *   0x0060  nvdev board record ("NVDEVBRD")
 *   0x00a0  PCI data structure ("PCIR")
 *   0x0100  BMP structure, or the BIT header and entries
 *   0x0200  the tables, one after the other as they are needed: BIT entry
 *           data, DAC load values, TMDS table, DCB with its I2C, GPIO and
 *           connector tables, PLL limits, performance table, the init
 *           script table, the scripts
 * The last byte of the image is adjusted so that the image sums to zero,
 * and the result is parsed back before it is returned.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define OFF_HWINFO  0x0058      /* real images' strap overrides, to 0x6b */
#define OFF_BOARD   0x0070
#define OFF_PCIR    0x00a0
#define OFF_BMP     0x0100
#define OFF_HEAP    0x0200

#define MAX_FIXUPS  64

typedef struct Fixup {
    uint32_t pos;
    uint8_t size;
    char name[16];
} Fixup;

typedef struct Builder {
    GKeyFile *kf;
    uint8_t *rom;
    size_t size;
    uint32_t heap;          /* next free byte */
    uint8_t dcb_version;
    bool bit;
    unsigned bmp;           /* BMP version, major << 8 | minor */
    /* init scripts */
    uint16_t scripts[NVBIOS_MAX_SCRIPTS];
    int n_scripts;
    GHashTable *labels;     /* "script0", "sub1" -> offset */
    Fixup fixups[MAX_FIXUPS];
    int n_fixups;
    /* what the BIT entries point at */
    uint32_t pll, perf, tmds, daccmp;
    uint32_t tmds_clk[2];   /* TMDS output pixel-clock comparison tables */
    uint32_t extra[NVBIOS_MAX_SCRIPTS]; /* scripts in the table past its end */
    int n_extra;
    uint8_t major;          /* the VBIOS version's first number */
} Builder;

#define BUILD_FAIL(...) \
    do { g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD, __VA_ARGS__); \
         return false; } while (0)

static void put8(Builder *b, uint32_t off, uint32_t v)
{
    b->rom[off] = v;
}

static void put16(Builder *b, uint32_t off, uint32_t v)
{
    put8(b, off, v & 0xff);
    put8(b, off + 1, v >> 8);
}

static void put32(Builder *b, uint32_t off, uint32_t v)
{
    put16(b, off, v & 0xffff);
    put16(b, off + 2, v >> 16);
}

/* Space for a table of @len bytes; 0 (and an error) if the image is full. */
static uint32_t alloc(Builder *b, uint32_t len, const char *what,
                      GError **errp)
{
    uint32_t at = b->heap;

    if (at + len >= b->size - 1) {      /* the last byte is the checksum */
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "%s (%u bytes) does not fit in the %zu KiB image",
                    what, len, b->size / 1024);
        return 0;
    }
    b->heap += len;
    return at;
}

static bool parse_num(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    return !errno && end != s && !*end && *out <= max;
}

static bool get_num(GKeyFile *kf, const char *grp, const char *key,
                    uint64_t def, uint64_t max, uint64_t *out, GError **errp)
{
    g_autofree char *s = g_key_file_get_string(kf, grp, key, NULL);

    if (!s) {
        *out = def;
        return true;
    }
    g_strstrip(s);
    if (!parse_num(s, max, out)) {
        BUILD_FAIL("[%s] %s=%s: expected a number up to 0x%" G_GINT64_MODIFIER
                   "x", grp, key, s, max);
    }
    return true;
}

/* "a;b;c" into @n numbers, each up to @max. */
static bool get_list(GKeyFile *kf, const char *grp, const char *key,
                     const char *what, uint64_t *v, gsize n, uint64_t max,
                     GError **errp)
{
    g_auto(GStrv) s = g_key_file_get_string_list(kf, grp, key, NULL, NULL);
    gsize cnt = s ? g_strv_length(s) : 0;

    for (gsize i = 0; i < cnt && i < n; i++) {
        if (!parse_num(g_strstrip(s[i]), max, &v[i])) {
            cnt = 0;
            break;
        }
    }
    if (cnt != n) {
        BUILD_FAIL("[%s] %s: expected \"%s\"", grp, key, what);
    }
    return true;
}

/* A "min-max" pair of numbers. */
static bool get_range(GKeyFile *kf, const char *grp, const char *key,
                      uint64_t max, uint64_t *lo, uint64_t *hi, GError **errp)
{
    g_autofree char *s = g_key_file_get_string(kf, grp, key, NULL);
    g_auto(GStrv) p = NULL;

    *lo = *hi = 0;
    if (!s) {
        return true;
    }
    p = g_strsplit(g_strstrip(s), "-", 3);
    if (g_strv_length(p) != 2 || !parse_num(p[0], max, lo) ||
        !parse_num(p[1], max, hi) || *lo > *hi) {
        BUILD_FAIL("[%s] %s=%s: expected \"min-max\", each up to %"
                   G_GINT64_MODIFIER "u", grp, key, s, max);
    }
    return true;
}

/* ---- init scripts ------------------------------------------------------- */

/*
 * One instruction in text form: the opcode's name (with or without INIT_)
 * and its fixed operands in order, leaving out an element count, which is
 * counted from the elements that follow, e.g.
 *   zm_reg 0x009200 217
 *   zm_cr_group 0x1f 0x57 0x20 0x00      (two {addr data} elements)
 *   sub_direct @sub0                     (a label: scriptN or subN)
 */
static bool emit_insn(Builder *b, const char *text, GError **errp)
{
    g_auto(GStrv) tok = g_strsplit_set(text, " \t", -1);
    g_autoptr(GPtrArray) w = g_ptr_array_new();
    g_auto(GStrv) args = NULL, elems = NULL;
    const NVBiosOpcode *op;
    uint32_t start = b->heap, pos, count_pos = 0;
    unsigned nargs = 0, nel = 0, esize, i, a, len;

    for (i = 0; tok[i]; i++) {
        if (*tok[i]) {
            g_ptr_array_add(w, tok[i]);
        }
    }
    if (!w->len) {
        return true;
    }
    op = nvbios_opcode_by_name(w->pdata[0]);
    if (!op) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "unknown init script instruction \"%s\"",
                    (char *)w->pdata[0]);
        return false;
    }
    args = g_strsplit(op->args, " ", -1);
    elems = g_strsplit(op->elems, " ", -1);
    for (i = 0; args[i] && *args[i]; i++) {
        nargs += !(op->count_at && g_str_has_prefix(args[i], "count:"));
    }
    for (i = 0; elems[i] && *elems[i]; i++) {
        nel++;
    }
    esize = nvbios_fields_size(op->elems);
    if (w->len - 1 < nargs || (!nel && w->len - 1 != nargs) ||
        (nel && (w->len - 1 - nargs) % nel)) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "\"%s\": %s takes %u operands (%s)%s", text, op->name,
                    nargs, op->args, nel ? " then whole elements" : "");
        return false;
    }
    len = op->len + (w->len - 1 - nargs) / (nel ? nel : 1) * esize;
    if (!alloc(b, len, "init scripts", errp)) {
        return false;
    }
    put8(b, start, op->op);
    pos = start + 1;
    a = 1;
    for (int pass = 0; pass < 2; pass++) {
        GStrv f = pass ? elems : args;
        unsigned reps = pass ? (nel ? (w->len - 1 - nargs) / nel : 0) : 1;
        for (unsigned r = 0; r < reps; r++) {
            for (i = 0; f[i] && *f[i]; i++) {
                const char *colon = strchr(f[i], ':');
                unsigned size = colon[1] - '0';
                uint64_t v, max = (1ull << (8 * size)) - 1;
                const char *word;

                if (!pass && op->count_at && g_str_has_prefix(f[i], "count:")) {
                    count_pos = pos;
                    pos += size;
                    continue;
                }
                word = w->pdata[a++];
                if (word[0] == '@') {
                    Fixup *fx;
                    if (b->n_fixups >= MAX_FIXUPS || size != 2) {
                        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                                    "\"%s\": a label can only be a 16-bit "
                                    "operand", text);
                        return false;
                    }
                    fx = &b->fixups[b->n_fixups++];
                    fx->pos = pos;
                    fx->size = size;
                    g_strlcpy(fx->name, word + 1, sizeof(fx->name));
                    pos += size;
                    continue;
                }
                if (!parse_num(word, max, &v)) {
                    g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                                "\"%s\": operand %u (%.*s) is not a number "
                                "up to 0x%" G_GINT64_MODIFIER "x", text, a - 1,
                                (int)(colon - f[i]), f[i], max);
                    return false;
                }
                for (unsigned k = 0; k < size; k++) {
                    put8(b, pos++, (v >> (8 * k)) & 0xff);
                }
            }
        }
    }
    if (count_pos) {
        unsigned n = (w->len - 1 - nargs) / nel;
        if (n > 0xff) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                        "\"%s\": more than 255 elements", text);
            return false;
        }
        put8(b, count_pos, n);
    }
    return true;
}

static bool emit_script(Builder *b, const char *key, GError **errp)
{
    g_auto(GStrv) insns = NULL;
    gsize count;

    insns = g_key_file_get_string_list(b->kf, "init", key, &count, errp);
    if (!insns) {
        return false;
    }
    g_hash_table_insert(b->labels, g_strdup(key), GUINT_TO_POINTER(b->heap));
    for (gsize i = 0; i < count; i++) {
        GError *err = NULL;
        if (!emit_insn(b, insns[i], &err)) {
            g_propagate_prefixed_error(errp, err, "[init] %s: ", key);
            return false;
        }
    }
    return emit_insn(b, "done", errp);
}

/* [init] script0..N (listed in the script table), sub0..N (reachable
 * only through INIT_SUB_DIRECT / INIT_JUMP labels). */
static bool build_scripts(Builder *b, GError **errp)
{
    unsigned max = b->bit || b->bmp >= 0x0510 ? NVBIOS_MAX_SCRIPTS : 2;

    for (unsigned s = 0; s < NVBIOS_MAX_SCRIPTS; s++) {
        g_autofree char *key = g_strdup_printf("script%u", s);
        if (!g_key_file_has_key(b->kf, "init", key, NULL)) {
            break;
        }
        if (s >= max) {
            BUILD_FAIL("[init] %s: BMP %x.%02x has room for two scripts", key,
                       b->bmp >> 8, b->bmp & 0xff);
        }
        b->scripts[b->n_scripts++] = b->heap;
        if (!emit_script(b, key, errp)) {
            return false;
        }
    }
    for (unsigned s = 0; s < NVBIOS_MAX_SCRIPTS; s++) {
        g_autofree char *key = g_strdup_printf("sub%u", s);
        if (g_key_file_has_key(b->kf, "init", key, NULL) &&
            !emit_script(b, key, errp)) {
            return false;
        }
    }
    for (int i = 0; i < b->n_fixups; i++) {
        gpointer v;
        if (!g_hash_table_lookup_extended(b->labels, b->fixups[i].name, NULL,
                                          &v)) {
            BUILD_FAIL("[init]: label @%s names no script", b->fixups[i].name);
        }
        put16(b, b->fixups[i].pos, GPOINTER_TO_UINT(v));
    }
    return true;
}

/* the script table the init table points at (BIT, BMP 5.10+) */
static uint32_t build_script_table(Builder *b, GError **errp)
{
    uint32_t n = b->n_scripts + 1 + b->n_extra;
    uint32_t t = alloc(b, 2 * n, "init script table", errp);

    for (int i = 0; t && i < b->n_scripts; i++) {
        put16(b, t + 2 * i, b->scripts[i]);
    }
    /* then 0, which ends POST's scripts, then scripts run by index */
    for (int i = 0; t && i < b->n_extra; i++) {
        put16(b, t + 2 * (b->n_scripts + 1 + i), b->extra[i]);
    }
    return t;
}

/* ---- DCB and its tables -------------------------------------------------- */

static const struct {
    const char *name;
    uint8_t type;
} output_types[] = {
    { "crt", NVBIOS_OUTPUT_ANALOG },
    { "tv", NVBIOS_OUTPUT_TV },
    { "tmds", NVBIOS_OUTPUT_TMDS },
    { "lvds", NVBIOS_OUTPUT_LVDS },
};

typedef struct Output {
    uint8_t type;
    uint64_t i2c, heads, connector, bus, location, or_mask, conf, ctype;
} Output;

static bool read_output(Builder *b, int n, Output *o, GError **errp)
{
    g_autofree char *grp = g_strdup_printf("output%d", n);
    g_autofree char *type = g_key_file_get_string(b->kf, grp, "type", NULL);
    size_t t;

    for (t = 0; type && t < G_N_ELEMENTS(output_types); t++) {
        if (!strcmp(type, output_types[t].name)) {
            break;
        }
    }
    if (!type || t == G_N_ELEMENTS(output_types)) {
        BUILD_FAIL("[%s] type=%s: expected crt, tv, tmds or lvds", grp,
                   type ? type : "(missing)");
    }
    o->type = output_types[t].type;
    return get_num(b->kf, grp, "i2c", 0, 0xf, &o->i2c, errp) &&
           get_num(b->kf, grp, "heads", 1, 0xf, &o->heads, errp) &&
           get_num(b->kf, grp, "connector", n, 0xf, &o->connector, errp) &&
           get_num(b->kf, grp, "bus", n, 0xf, &o->bus, errp) &&
           get_num(b->kf, grp, "location", 0, 3, &o->location, errp) &&
           get_num(b->kf, grp, "or", 1, 0xf, &o->or_mask, errp) &&
           get_num(b->kf, grp, "conf", 0, 0xffffffff, &o->conf, errp) &&
           get_num(b->kf, grp, "connector_type", 0, 0xff, &o->ctype, errp);
}

static uint32_t dcb15_conn(const Output *o)
{
    static const uint8_t type15[] = { 0, 1, 2, 3 };
    return type15[o->type] | o->i2c << 14 | ((o->heads - 1) & 7) << 18 |
           (o->location & 0xf) << 21 | (o->bus & 7) << 25;
}

/*
 * The I2C table.  From DCB 3.0 it has a 5-byte header, as on real images:
 * version, header and entry sizes, entry count, and a byte of two default
 * port indices (the first CRT output's, low nibble, and the first TV
 * output's, or 0 and 1 where there is none; envytools' def[0], def[1]).
 */
static bool build_i2c(Builder *b, const Output *out, int n, GError **errp,
                      uint32_t *at)
{
    bool hdr = b->dcb_version >= 0x30;
    uint32_t e = alloc(b, (hdr ? 5 : 0) + 4 * NVBIOS_MAX_I2C, "I2C table",
                       errp);
    unsigned def[2] = { 0xff, 0xff };

    if (!e) {
        return false;
    }
    *at = e;
    if (hdr) {
        for (int i = 0; i < n; i++) {
            unsigned k = out[i].type == NVBIOS_OUTPUT_ANALOG ? 0 :
                         out[i].type == NVBIOS_OUTPUT_TV ? 1 : 2;
            if (k < 2 && def[k] == 0xff) {
                def[k] = out[i].i2c & 0xf;
            }
        }
        put8(b, e, b->dcb_version >= 0x40 ? 0x40 : 0x30);
        put8(b, e + 1, 5);
        put8(b, e + 2, NVBIOS_MAX_I2C);
        put8(b, e + 3, 4);
        put8(b, e + 4, (def[0] == 0xff ? 0 : def[0]) |
                       (def[1] == 0xff ? 1 : def[1]) << 4);
        e += 5;
    }
    for (int i = 0; i < NVBIOS_MAX_I2C; i++) {
        g_autofree char *key = g_strdup_printf("port%d", i);
        uint64_t v[2];

        /* unused: type 7 before 3.0, 0xff from 3.0 */
        put32(b, e + 4 * i, hdr ? 0xff000000 : 0x07000000);
        g_autofree char *val = NULL;

        if (!g_key_file_has_key(b->kf, "i2c", key, NULL)) {
            continue;
        }
        val = g_key_file_get_string(b->kf, "i2c", key, NULL);
        if (val && g_str_has_prefix(g_strstrip(val), "pcrtc:")) {
            /* C51's: a word at 0x600800 + byte 1, type 4 in byte 3 */
            if (!hdr || !parse_num(g_strstrip(val + 6), 0xfc, &v[0]) ||
                v[0] & 3) {
                BUILD_FAIL("[i2c] %s=%s: expected \"pcrtc:OFFSET\", a word "
                           "offset below 0x100 from 0x600800 (DCB 3.0 on)",
                           key, val);
            }
            put32(b, e + 4 * i, v[0] << 8 | NVBIOS_I2C_NV4E << 24);
            continue;
        }
        if (!get_list(b->kf, "i2c", key, "drive;sense", v, 2, 0xff, errp)) {
            return false;
        }
        put32(b, e + 4 * i, v[0] | v[1] << 8);
    }
    return true;
}

/* [gpio] entryN=line;func;log0;log1 */
static bool build_gpio(Builder *b, uint32_t *at, GError **errp)
{
    bool v4 = b->dcb_version >= 0x40;
    unsigned n = 0, esz = v4 ? 4 : 2;
    uint32_t g;

    *at = 0;
    while (n < NVBIOS_MAX_GPIO) {
        g_autofree char *key = g_strdup_printf("entry%u", n);
        if (!g_key_file_has_key(b->kf, "gpio", key, NULL)) {
            break;
        }
        n++;
    }
    if (!n) {
        return true;
    }
    if (b->dcb_version < 0x22) {
        BUILD_FAIL("[gpio]: DCB %x.%x has no GPIO table (2.2 and later do)",
                   b->dcb_version >> 4, b->dcb_version & 0xf);
    }
    g = alloc(b, 4 + n * esz, "GPIO table", errp);
    if (!g) {
        return false;
    }
    put8(b, g, v4 ? 0x40 : 0x30);
    put8(b, g + 1, 4);
    put8(b, g + 2, n);
    put8(b, g + 3, esz);
    for (unsigned i = 0; i < n; i++) {
        g_autofree char *key = g_strdup_printf("entry%u", i);
        uint64_t v[4];
        uint32_t e = g + 4 + i * esz;

        if (!get_list(b->kf, "gpio", key, "line;func;log0;log1", v, 4, 0xff,
                      errp)) {
            return false;
        }
        if (v[0] > 0x1f || (!v4 && v[1] > 0x3f) || v[2] > 3 || v[3] > 3) {
            BUILD_FAIL("[gpio] %s: line up to 31, func up to 0x%x, log "
                       "values up to 3", key, v4 ? 0xff : 0x3f);
        }
        if (v4) {
            put32(b, e, v[0] | v[1] << 8 | v[2] << 27 | v[3] << 29);
        } else {
            put16(b, e, v[0] | v[1] << 5 | v[2] << 11 | v[3] << 13);
        }
    }
    *at = g;
    return true;
}

static bool build_dcb(Builder *b, GError **errp)
{
    Output out[NVBIOS_MAX_DCB];
    uint32_t dcb, e, hdr, len, i2c, gpio = 0;
    int n;
    uint8_t ver = b->dcb_version;

    for (n = 0; n < NVBIOS_MAX_DCB - 1; n++) {
        g_autofree char *grp = g_strdup_printf("output%d", n);
        if (!g_key_file_has_group(b->kf, grp)) {
            break;
        }
        if (!read_output(b, n, &out[n], errp)) {
            return false;
        }
    }
    if (!n) {
        return true;        /* no DCB: nouveau fabricates one on BMP boards */
    }
    if (ver != 0x15 && (ver < 0x20 || ver > 0x22) && ver != 0x30 &&
        ver != 0x40) {
        BUILD_FAIL("[board] dcb_version=0x%02x: the builder writes DCB 1.5, "
                   "2.0-2.2, 3.0 and 4.0", ver);
    }
    if (ver == 0x15) {
        /* "DEV_REC", then version, ?, I2C pointer, 10-byte entries */
        uint32_t rec = alloc(b, 7, "DCB", errp);
        if (!rec) {
            return false;
        }
        memcpy(b->rom + rec, "DEV_REC", 7);
        hdr = 4;
        len = 10;
    } else if (ver < 0x30) {
        /*
         * DCB 2.x: a pre-header before it, as real images have (envytools'
         * "RDCB"): 0x18 bytes ending in its version 0x16; from 2.2 the
         * GPIO table pointer is at -0x0f (nouveau wants the last byte
         * >= 0x13 for that), the input devices' at -3.
         */
        uint32_t pre = alloc(b, 0x18, "DCB 2.x pre-header", errp);

        if (!pre) {
            return false;
        }
        put8(b, pre + 0x17, 0x16);
        hdr = len = 8;
    } else {
        /* 23 bytes, as on real images: pointers up to the connector
         * table's at +0x14, then a byte at +0x16 (0 here) */
        hdr = 0x17;
        len = 8;
    }
    dcb = alloc(b, hdr + (n + 1) * len, "DCB", errp);
    if (!dcb) {
        return false;
    }
    put8(b, dcb, ver);
    put16(b, 0x36, dcb);
    if (ver >= 0x30) {
        put8(b, dcb + 1, hdr);
        put8(b, dcb + 2, n + 1);
        put8(b, dcb + 3, len);
        put32(b, dcb + 6, 0x4edcbdcb);
    } else if (ver >= 0x20) {
        put32(b, dcb + 4, 0x4edcbdcb);
    }
    e = dcb + hdr;
    for (int i = 0; i < n; i++, e += len) {
        const Output *o = &out[i];
        uint32_t conn = ver == 0x15 ? dcb15_conn(o) :
                        o->type | o->i2c << 4 | o->heads << 8 |
                        o->connector << 12 | o->bus << 16 |
                        o->location << 20 | o->or_mask << 24;
        if (!conn) {
            BUILD_FAIL("[output%d]: encodes as 0x00000000, which ends a DCB "
                       "%x.%x table", i, ver >> 4, ver & 0xf);
        }
        put32(b, e, conn);
        put32(b, e + (ver == 0x15 ? 6 : 4), o->conf);
    }
    put32(b, e, NVBIOS_OUTPUT_EOL);     /* end marker entry */

    if (!build_i2c(b, out, n, errp, &i2c)) {
        return false;
    }
    put16(b, dcb + (ver >= 0x30 ? 4 : 2), i2c);
    if (!build_gpio(b, &gpio, errp)) {
        return false;
    }
    if (gpio) {
        put16(b, ver >= 0x30 ? dcb + 0x0a : dcb - 0x0f, gpio);
    }
    if (ver >= 0x30) {
        /* connector table: one entry per connector index the outputs
         * name (outputs may share one); 2-byte entries in 3.0, 4 in 4.0 */
        unsigned esz = ver >= 0x40 ? 4 : 2, nconn = 0;
        uint32_t conns[NVBIOS_MAX_DCB], c;
        for (int i = 0; i < n; i++) {
            unsigned idx = out[i].connector;
            while (nconn <= idx) {
                conns[nconn] = 0xff | nconn << 8;      /* 0xff: unused */
                nconn++;
            }
            if ((conns[idx] & 0xff) == 0xff) {
                conns[idx] = out[i].ctype | idx << 8;
            }
        }
        c = alloc(b, 5 + esz * nconn, "connector table", errp);
        if (!c) {
            return false;
        }
        put16(b, dcb + 0x14, c);
        put8(b, c, ver >= 0x40 ? 0x40 : 0x30);
        put8(b, c + 1, 5);
        put8(b, c + 2, nconn);
        put8(b, c + 3, esz);
        for (unsigned i = 0; i < nconn; i++) {
            if (esz == 4) {
                put32(b, c + 5 + 4 * i, conns[i]);
            } else {
                put16(b, c + 5 + 2 * i, conns[i]);
            }
        }
    }
    return true;
}

/* ---- PLL limits, performance levels, TMDS, DAC values -------------------- */

/*
 * [board] pll_version=0x11: one [pll0] for every PLL (BMP 5.24+, BIT 'C');
 * pll_version=0x21: [pllN] per register (BIT 'C').  Keys: reg, vco1, vco2
 * (kHz "min-max"), vco1_in, vco2_in, vco1_n, vco1_m, vco2_n, vco2_m,
 * max_p, bias_p, refclk.
 */
static bool build_pll(Builder *b, GError **errp)
{
    uint64_t ver;
    int n;

    if (!get_num(b->kf, "board", "pll_version", 0, 0xff, &ver, errp)) {
        return false;
    }
    for (n = 0; n < NVBIOS_MAX_PLL; n++) {
        g_autofree char *grp = g_strdup_printf("pll%d", n);
        if (!g_key_file_has_group(b->kf, grp)) {
            break;
        }
    }
    if (!n) {
        return true;
    }
    if (ver != 0x10 && ver != 0x11 && ver != 0x20 && ver != 0x21) {
        BUILD_FAIL("[board] pll_version=0x%02x: the builder writes PLL limits "
                   "1.0, 1.1, 2.0 and 2.1", (unsigned)ver);
    }
    if (ver < 0x20 && n != 1) {
        BUILD_FAIL("[pll1]: PLL limits 1.x hold one record for every PLL");
    }
    if (ver < 0x20 && !b->bit && b->bmp < 0x0524) {
        BUILD_FAIL("[pll0]: BMP %x.%02x has no PLL limits pointer (5.24 and "
                   "later do)", b->bmp >> 8, b->bmp & 0xff);
    }
    if (ver >= 0x20 && !b->bit) {
        BUILD_FAIL("[board] pll_version=0x%02x needs a BIT image", (unsigned)ver);
    }
    b->pll = alloc(b, ver < 0x20 ? 25 : 4 + 0x23 * n, "PLL limits", errp);
    if (!b->pll) {
        return false;
    }
    put8(b, b->pll, ver);
    if (ver >= 0x20) {
        put8(b, b->pll + 1, 4);
        put8(b, b->pll + 2, 0x23);
        put8(b, b->pll + 3, n);
    }
    for (int i = 0; i < n; i++) {
        g_autofree char *grp = g_strdup_printf("pll%d", i);
        uint64_t reg, v[8], nm[8], max_p, bias_p, refclk;
        uint32_t e = ver < 0x20 ? b->pll + 1 : b->pll + 4 + 0x23 * i;
        static const char *ranges[] = { "vco1", "vco2", "vco1_in", "vco2_in" };
        static const char *nms[] = { "vco1_n", "vco1_m", "vco2_n", "vco2_m" };

        for (int k = 0; k < 4; k++) {
            if (!get_range(b->kf, grp, ranges[k], 0xffffffff, &v[2 * k],
                           &v[2 * k + 1], errp) ||
                !get_range(b->kf, grp, nms[k], 0xff, &nm[2 * k],
                           &nm[2 * k + 1], errp)) {
                return false;
            }
        }
        if (!v[1]) {
            BUILD_FAIL("[%s] vco1=min-max (kHz) is required", grp);
        }
        if (!get_num(b->kf, grp, "reg", 0, 0xffffffff, &reg, errp) ||
            !get_num(b->kf, grp, "max_p", 6, 0xff, &max_p, errp) ||
            !get_num(b->kf, grp, "bias_p", 0, 0xff, &bias_p, errp) ||
            !get_num(b->kf, grp, "refclk", 0, 0xffffffff, &refclk, errp)) {
            return false;
        }
        if (ver < 0x20) {
            /* kHz, 32 bits: VCO1, VCO2 ranges, then the two minimum inputs */
            put32(b, e + 0, v[0]);
            put32(b, e + 4, v[1]);
            put32(b, e + 8, v[2]);
            put32(b, e + 12, v[3]);
            put32(b, e + 16, v[4]);
            put32(b, e + 20, v[6]);
            continue;
        }
        if (!reg) {
            BUILD_FAIL("[%s] reg= (the PLL's register) is required in a "
                       "version 2.x table", grp);
        }
        put32(b, e, reg);
        /* MHz, 16 bits: vco1 min/max, vco2 min/max, min inputs, max inputs */
        {
            static const int order[] = { 0, 1, 2, 3, 4, 6, 5, 7 };
            for (int k = 0; k < 8; k++) {
                uint64_t khz = v[order[k]];
                if (khz % 1000 || khz / 1000 > 0xffff) {
                    BUILD_FAIL("[%s]: %" G_GINT64_MODIFIER "u kHz: a version "
                               "2.x table holds whole MHz", grp, khz);
                }
                put16(b, e + 4 + 2 * k, khz / 1000);
            }
        }
        for (int k = 0; k < 8; k++) {
            put8(b, e + 20 + k, nm[k]);
        }
        put8(b, e + 29, max_p);
        put8(b, e + 30, bias_p);
        put32(b, e + 31, refclk);
    }
    return true;
}

/* [perf] levelN=pstate;core_mhz;memory_mhz, as a version 2.1 table. */
static bool build_perf(Builder *b, GError **errp)
{
    int n;

    for (n = 0; n < NVBIOS_MAX_PERF; n++) {
        g_autofree char *key = g_strdup_printf("level%d", n);
        if (!g_key_file_has_key(b->kf, "perf", key, NULL)) {
            break;
        }
    }
    if (!g_key_file_has_group(b->kf, "perf")) {
        return true;
    }
    b->perf = alloc(b, 6 + 14 * n, "performance table", errp);
    if (!b->perf) {
        return false;
    }
    put8(b, b->perf, 0x21);
    put8(b, b->perf + 1, 6);
    put8(b, b->perf + 2, n);
    put8(b, b->perf + 3, 14);
    for (int i = 0; i < n; i++) {
        g_autofree char *key = g_strdup_printf("level%d", i);
        uint64_t v[3];
        uint32_t e = b->perf + 6 + 14 * i;
        if (!get_list(b->kf, "perf", key, "pstate;core_mhz;memory_mhz", v, 3,
                      0xffff, errp)) {
            return false;
        }
        put8(b, e, v[0]);
        put16(b, e + 6, v[1]);          /* shader clock; core = shader + 0 */
        put16(b, e + 0x0b, v[2] / 2);   /* memory, 2 MHz units */
    }
    return true;
}

/* TMDS table 1.1 (BIT 'T'): two stub scripts, no output clock tables. */
static bool build_tmds(Builder *b, GError **errp)
{
    uint32_t stub;

    b->tmds = alloc(b, 15, "TMDS table", errp);
    stub = b->tmds ? alloc(b, 1, "TMDS stub script", errp) : 0;
    if (!stub) {
        return false;
    }
    put8(b, b->tmds, 0x11);
    put8(b, b->tmds + 1, 15);
    put16(b, b->tmds + 7, stub);
    put16(b, b->tmds + 9, stub);
    put8(b, stub, 0x71);                /* INIT_DONE */
    return true;
}

/*
 * A pixel-clock comparison table (nouveau's clkcmptable) from a list of
 * "KHZ @subN" from the highest clock down: the first entry whose clock the
 * mode's reaches names the script, e.g. "165000 @sub1;0 @sub0"; the last,
 * of clock 0, serves every clock below the others and ends the table.  The
 * records' form follows the VBIOS version: before 5.x, 3 bytes {clock / 10
 * kHz, index}, the index into the init script table, past the entry that
 * ends the scripts run at POST; from 5.x, 4 bytes {clock / 10 kHz,
 * script}.  Built after the scripts, whose labels they name, and before
 * the script table.  No key, no table (*at = 0).
 */
static bool build_clock_table(Builder *b, const char *grp, const char *key,
                              uint32_t *at, GError **errp)
{
    unsigned rec = b->major < 5 ? 3 : 4;
    g_auto(GStrv) ent = NULL;
    uint64_t prev = UINT64_MAX;
    gsize n;

    *at = 0;
    if (!g_key_file_has_key(b->kf, grp, key, NULL)) {
        return true;
    }
    if (rec == 3 && !b->bit && b->bmp < 0x0510) {
        BUILD_FAIL("[%s] %s: VBIOS version %u.x names scripts by their "
                   "index in a script table, which BMP %x.%02x lacks",
                   grp, key, b->major, b->bmp >> 8, b->bmp & 0xff);
    }
    ent = g_key_file_get_string_list(b->kf, grp, key, &n, errp);
    if (!ent) {
        return false;
    }
    *at = alloc(b, rec * n, "clock table", errp);
    if (!*at) {
        return false;
    }
    for (gsize i = 0; i < n; i++) {
        g_auto(GStrv) w = g_strsplit(g_strstrip(ent[i]), " ", 2);
        uint32_t r = *at + rec * i, script;
        uint64_t khz;
        gpointer v;
        int k;

        if (!w[0] || !w[1] || !parse_num(w[0], 655350, &khz) ||
            w[1][0] != '@') {
            BUILD_FAIL("[%s] %s: \"%s\": expected KHZ @label", grp, key,
                       ent[i]);
        }
        if (khz % 10 || khz >= prev) {
            BUILD_FAIL("[%s] %s: \"%s\": clocks go down in 10 kHz steps",
                       grp, key, ent[i]);
        }
        if (!g_hash_table_lookup_extended(b->labels, w[1] + 1, NULL, &v)) {
            BUILD_FAIL("[%s] %s: label %s names no script", grp, key, w[1]);
        }
        script = GPOINTER_TO_UINT(v);
        put16(b, r, khz / 10);
        prev = khz;
        if (rec == 4) {
            put16(b, r + 2, script);
            continue;
        }
        for (k = 0; k < b->n_extra && b->extra[k] != script; k++) {
        }
        if (k == b->n_extra) {
            if (b->n_scripts + 1 + k >= NVBIOS_MAX_SCRIPTS) {
                BUILD_FAIL("[%s] %s: the script table is full", grp, key);
            }
            b->extra[b->n_extra++] = script;
        }
        put8(b, r + 2, b->n_scripts + 1 + k);
    }
    if (prev) {
        BUILD_FAIL("[%s] %s: the last entry's clock must be 0 (it serves "
                   "every clock below the others)", grp, key);
    }
    return true;
}

/*
 * [tmds] output0=, output1=: the clock tables of the TMDS output scripts
 * (nouveau's run_tmds_table: output0 serves DCB outputs with OR A, output1
 * those with OR B or C).
 */
static bool build_tmds_clocks(Builder *b, GError **errp)
{
    return build_clock_table(b, "tmds", "output0", &b->tmds_clk[0], errp) &&
           build_clock_table(b, "tmds", "output1", &b->tmds_clk[1], errp);
}

/* a script label ("@sub2") or nothing ("" or no key): its offset or 0 */
static bool get_label(Builder *b, const char *grp, const char *key,
                      uint32_t *at, GError **errp)
{
    g_autofree char *v = g_key_file_get_string(b->kf, grp, key, NULL);
    gpointer p;

    *at = 0;
    if (!v || !*g_strstrip(v)) {
        return true;
    }
    if (v[0] != '@' ||
        !g_hash_table_lookup_extended(b->labels, v + 1, NULL, &p)) {
        BUILD_FAIL("[%s] %s=%s: expected @label of a script", grp, key, v);
    }
    *at = GPOINTER_TO_UINT(p);
    return true;
}

/*
 * [fp]: the flat panel table, version 2.0 as NV4x BIT VBIOSes carry it
 * (nouveau's parse_fp_mode_table): records=N slots, min_front_porch=,
 * mode0..: "KHZ HDISP HSYNC_START HSYNC_END HTOTAL VDISP VSYNC_START
 * VSYNC_END VTOTAL [+hsync] [+vsync]"; a slot without a mode is an empty
 * record.  The LVDS table's records name the mode a strap selects.
 */
#define FP_HEADER   5
#define FP_RECORD   37

static bool build_fp(Builder *b, uint32_t *at, GError **errp)
{
    uint64_t records, porch;
    uint32_t o;

    *at = 0;
    if (!g_key_file_has_group(b->kf, "fp")) {
        return true;
    }
    if (!get_num(b->kf, "fp", "records", 16, NVBIOS_MAX_FP_MODES, &records,
                 errp) ||
        !get_num(b->kf, "fp", "min_front_porch", 0x4b, 0xff, &porch, errp)) {
        return false;
    }
    o = alloc(b, FP_HEADER + FP_RECORD * records, "flat panel table", errp);
    if (!o) {
        return false;
    }
    put8(b, o, 0x20);
    put8(b, o + 1, FP_HEADER);
    put8(b, o + 2, FP_RECORD);
    put8(b, o + 3, records);
    put8(b, o + 4, porch);
    for (unsigned i = 0; i < records; i++) {
        g_autofree char *key = g_strdup_printf("mode%u", i);
        g_autofree char *v = g_key_file_get_string(b->kf, "fp", key, NULL);
        g_auto(GStrv) w = NULL;
        uint64_t t[9];
        uint32_t r = o + FP_HEADER + FP_RECORD * i;
        uint8_t flags = 0;
        int n;

        if (!v) {
            continue;
        }
        w = g_strsplit_set(g_strstrip(v), " \t", -1);
        for (n = 0; w[n] && n < 9; n++) {
            if (!parse_num(w[n], n ? 0x10000 : 655350, &t[n]) ||
                (n && !t[n])) {
                break;
            }
        }
        if (n < 9 || t[0] % 10 ||
            t[1] > t[2] || t[2] > t[3] || t[3] > t[4] ||
            t[5] > t[6] || t[6] > t[7] || t[7] > t[8]) {
            BUILD_FAIL("[fp] %s=%s: expected KHZ (10 kHz steps) and "
                       "display, sync start, sync end, total in order, "
                       "horizontal then vertical", key, v);
        }
        for (; w[n]; n++) {
            if (!strcmp(w[n], "+hsync")) {
                flags |= 0x10;
            } else if (!strcmp(w[n], "+vsync")) {
                flags |= 0x01;
            } else if (*w[n]) {
                BUILD_FAIL("[fp] %s: \"%s\": expected +hsync or +vsync",
                           key, w[n]);
            }
        }
        put16(b, r, t[0] / 10);
        put16(b, r + 4, t[1] - 1);
        put16(b, r + 6, 0);             /* H valid start, end */
        put16(b, r + 8, t[1] - 1);
        put16(b, r + 10, t[2] - 1);
        put16(b, r + 12, t[3] - 1);
        put16(b, r + 14, t[4] - 1);
        put16(b, r + 18, t[5] - 1);
        put16(b, r + 20, 0);            /* V valid start, end */
        put16(b, r + 22, t[5] - 1);
        put16(b, r + 24, t[6] - 1);
        put16(b, r + 26, t[7] - 1);
        put16(b, r + 28, t[8] - 1);
        put8(b, r + 30, flags);
    }
    *at = o;
    return true;
}

/*
 * [lvds]: the LVDS manufacturer table, version 3.0 as NV4x BIT VBIOSes
 * carry it (nouveau's run_lvds_table, nouveau_bios_parse_lvds_table):
 * 16 records by FP strap, strapN=CONF;FP_INDEX (conf bit 0 dual link,
 * bit 1 24-bit; unlisted: 0;15, no strapped mode, DDC), duallink_khz= and
 * strapless_24bit= for EDID panels, panel_on0/1= and panel_off0/1=
 * (@labels; set 1 serves OR C), reset0..7= clock tables as [tmds] takes
 * them, indexed set * 4 + dual link * 2 + 24-bit.
 */
#define LVDS_HEADER 0x1f

static bool build_lvds(Builder *b, uint32_t *at, GError **errp)
{
    uint64_t duallink, mask;
    uint32_t o;

    *at = 0;
    if (!g_key_file_has_group(b->kf, "lvds")) {
        return true;
    }
    if (!get_num(b->kf, "lvds", "duallink_khz", 0, 655350, &duallink,
                 errp) ||
        !get_num(b->kf, "lvds", "strapless_24bit", 0, 0xff, &mask, errp)) {
        return false;
    }
    o = alloc(b, LVDS_HEADER + 2 * NVBIOS_LVDS_RECORDS, "LVDS table", errp);
    if (!o) {
        return false;
    }
    put8(b, o, 0x30);
    put8(b, o + 1, LVDS_HEADER);
    put8(b, o + 2, 2);
    put8(b, o + 3, NVBIOS_LVDS_RECORDS);
    put8(b, o + 4, mask);
    put16(b, o + 5, duallink / 10);
    for (int i = 0; i < 2; i++) {
        g_autofree char *on = g_strdup_printf("panel_on%d", i);
        g_autofree char *off = g_strdup_printf("panel_off%d", i);
        uint32_t p_on, p_off;

        if (!get_label(b, "lvds", on, &p_on, errp) ||
            !get_label(b, "lvds", off, &p_off, errp)) {
            return false;
        }
        put16(b, o + 7 + 2 * i, p_on);
        put16(b, o + 11 + 2 * i, p_off);
    }
    for (int i = 0; i < 8; i++) {
        g_autofree char *key = g_strdup_printf("reset%d", i);
        uint32_t t;

        if (!build_clock_table(b, "lvds", key, &t, errp)) {
            return false;
        }
        put16(b, o + 15 + 2 * i, t);
    }
    for (int i = 0; i < NVBIOS_LVDS_RECORDS; i++) {
        g_autofree char *key = g_strdup_printf("strap%d", i);
        uint64_t rec[2] = { 0, 0xf };

        if (g_key_file_has_key(b->kf, "lvds", key, NULL) &&
            !get_list(b->kf, "lvds", key, "CONF;FP_INDEX", rec, 2, 0xff,
                      errp)) {
            return false;
        }
        put8(b, o + LVDS_HEADER + 2 * i, rec[0]);
        put8(b, o + LVDS_HEADER + 2 * i + 1, rec[1]);
    }
    *at = o;
    return true;
}

/* DAC load detection test values (BIT 'i' +13), version 1.0. */
static bool build_daccmp(Builder *b, GError **errp)
{
    uint64_t dac, tv;

    if (!get_num(b->kf, "board", "dac_test", 0, 0xffffffff, &dac, errp) ||
        !get_num(b->kf, "board", "tv_dac_test", 0, 0xffffffff, &tv, errp)) {
        return false;
    }
    if (!dac && !tv) {
        return true;
    }
    b->daccmp = alloc(b, 12, "DAC load table", errp);
    if (!b->daccmp) {
        return false;
    }
    put8(b, b->daccmp, 0x10);
    put8(b, b->daccmp + 1, 4);          /* header length */
    put8(b, b->daccmp + 2, 4);          /* entry length */
    put8(b, b->daccmp + 3, 2);          /* entries: DAC, TV DAC */
    put32(b, b->daccmp + 4, dac);
    put32(b, b->daccmp + 8, tv);
    return true;
}

/* ---- BIT and BMP --------------------------------------------------------- */

/*
 * BIT: "\xff\xb8BIT", version 1.0, then 6-byte entries {id, version,
 * length, pointer}: 'i' (version 2 as on real NV4x images, 0x19 bytes:
 * version, feature byte, DAC load values, build date, the PCI device ID
 * the image was built for), 'I' (the
 * init table), 'C' (PLL limits), 'D' (display), 'M' (memory), 'P'
 * (performance), 'T' (TMDS), 'L' (LVDS), each with the
 * length nouveau checks for.
 */
static bool build_bit(Builder *b, const uint8_t ver[4], uint64_t feature,
                      GError **errp)
{
    struct { char id; uint8_t version; uint16_t len; uint32_t off; } e[] = {
        { 'i', 2, 0x19, 0 }, { 'I', 1, 14, 0 }, { 'C', 1, 10, 0 },
        { 'D', 1, 4, 0 }, { 'M', 1, 5, 0 }, { 'P', 1, 20, 0 },
        { 'T', 1, 2, 0 }, { 'L', 1, 2, 0 },
    };
    uint32_t o = OFF_BMP, tbl, lvds;

    for (size_t i = 0; i < G_N_ELEMENTS(e); i++) {
        e[i].off = alloc(b, e[i].len, "BIT entry data", errp);
        if (!e[i].off) {
            return false;
        }
    }
    if (!build_tmds(b, errp) || !build_daccmp(b, errp) ||
        !build_pll(b, errp) || !build_perf(b, errp)) {
        return false;
    }
    memcpy(b->rom + o, "\xff\xb8" "BIT\0", 6);
    put16(b, o + 6, 0x0100);            /* BIT version 1.0 */
    put8(b, o + 8, 12);                 /* header size */
    put8(b, o + 9, 6);                  /* entry size */
    put8(b, o + 10, G_N_ELEMENTS(e));
    put8(b, o + 11, 0x100 - nvbios_sum(b->rom + o, 11));
    for (size_t i = 0; i < G_N_ELEMENTS(e); i++) {
        put8(b, o + 12 + 6 * i, e[i].id);
        put8(b, o + 13 + 6 * i, e[i].version);
        put16(b, o + 14 + 6 * i, e[i].len);
        put16(b, o + 16 + 6 * i, e[i].off);
    }
    /* 'i' */
    for (int i = 0; i < 4; i++) {
        put8(b, e[0].off + i, ver[i]);
    }
    put8(b, e[0].off + 5, feature);
    put16(b, e[0].off + 13, b->daccmp);
    memcpy(b->rom + e[0].off + 0x0f, "01/01/06", 8);      /* MM/DD/YY */
    put16(b, e[0].off + 0x17, b->rom[OFF_PCIR + 6] | b->rom[OFF_PCIR + 7] << 8);
    /* 'C': PLL limits pointer at +8 */
    put16(b, e[2].off + 8, b->pll);
    /* 'P': performance table pointer at +0 */
    put32(b, e[5].off, b->perf);
    /* 'T': TMDS table pointer */
    put16(b, e[6].off, b->tmds);
    /* 'D': the flat panel table at +2 */
    if (!build_fp(b, &tbl, errp)) {
        return false;
    }
    put16(b, e[3].off + 2, tbl);
    /* 'I': script table pointer first; the scripts come last */
    if (!build_scripts(b, errp) || !build_tmds_clocks(b, errp) ||
        !build_lvds(b, &lvds, errp) ||
        !(tbl = build_script_table(b, errp))) {
        return false;
    }
    put16(b, e[1].off, tbl);
    put16(b, e[7].off, lvds);
    put16(b, b->tmds + 11, b->tmds_clk[0]);
    put16(b, b->tmds + 13, b->tmds_clk[1]);
    return true;
}

static bool build_bmp(Builder *b, const uint8_t ver[4], uint64_t feature,
                      uint64_t chip, GError **errp)
{
    uint64_t i2c_crt, i2c_tv, i2c_panel, vco_min, vco_max, duallink;
    unsigned len = nvbios_bmp_length(b->bmp >> 8, b->bmp & 0xff);
    uint32_t o = OFF_BMP;

    if (!get_num(b->kf, "board", "i2c_crt", 0, 0xff, &i2c_crt, errp) ||
        !get_num(b->kf, "board", "i2c_tv", 1, 0xff, &i2c_tv, errp) ||
        !get_num(b->kf, "board", "i2c_panel", 0xff, 0xff, &i2c_panel, errp) ||
        !get_range(b->kf, "board", "vco", 0xffffffff, &vco_min, &vco_max,
                   errp) ||
        !get_num(b->kf, "board", "duallink_khz", 165000, 655350, &duallink,
                 errp)) {
        return false;
    }
    if (g_key_file_has_group(b->kf, "fp") ||
        g_key_file_has_group(b->kf, "lvds")) {
        BUILD_FAIL("[fp], [lvds]: the 2.0 flat panel and 3.0 LVDS tables "
                   "are a BIT VBIOS's (bit=true)");
    }
    if (!vco_max) {
        vco_min = 128000;
        vco_max = 350000;
    }
    if (!build_pll(b, errp) || !build_scripts(b, errp) ||
        !build_tmds_clocks(b, errp)) {
        return false;
    }
    if ((b->tmds_clk[0] || b->tmds_clk[1]) && len <= 94) {
        BUILD_FAIL("[tmds]: BMP %x.%02x is too short for the TMDS tables",
                   b->bmp >> 8, b->bmp & 0xff);
    }
    memcpy(b->rom + o, "\xff\x7fNV\0", 5);
    put8(b, o + 5, b->bmp >> 8);
    put8(b, o + 6, b->bmp & 0xff);
    put8(b, o + 9, feature);
    for (int i = 0; i < 4; i++) {
        put8(b, o + 10 + i, ver[i]);
    }
    if (chip) {
        put8(b, o + 12, chip);
    }
    if (b->bmp >= 0x0510) {
        /* the init table at +75: script table pointer first (then macro,
         * condition and function tables, none here) */
        uint32_t tbl = build_script_table(b, errp);
        if (!tbl) {
            return false;
        }
        put16(b, o + 75, tbl);
    } else {
        put16(b, o + 18, b->scripts[0]);
        put16(b, o + 20, b->scripts[1]);
    }
    put8(b, o + 54, i2c_crt);
    put8(b, o + 55, i2c_tv);
    put8(b, o + 56, i2c_panel);
    if (len > 74) {
        /* single-stage PLL VCO limits, kHz */
        put32(b, o + 67, vco_max);
        put32(b, o + 71, vco_min);
    }
    if (len > 94) {
        put16(b, o + 89, b->tmds_clk[0]);
        put16(b, o + 91, b->tmds_clk[1]);
    }
    if (len > 143) {
        put16(b, o + 142, b->pll);
    }
    if (len > 157) {
        put16(b, o + 156, duallink / 10);
    }
    put8(b, o + 7, 0x100 - nvbios_sum(b->rom + o, 7));
    return true;
}

/* ---- the whole image ----------------------------------------------------- */

static const char *ram_types[] = { "sdram", "ddr", "sgram" };

static bool build(Builder *b, GError **errp)
{
    GKeyFile *kf = b->kf;
    uint64_t vendor, device, kib, bmp, vram, strap, nvpll, mpll, feature;
    uint64_t chip, tv_port, tv_addr, dcbv;
    g_autofree char *tv_enc = NULL, *ram = NULL, *version = NULL;
    int tv_encoder = NVBIOS_TV_ENCODER_NONE, ram_type = 0;
    uint8_t ver[4] = { 0, 0, 0, 0 };

    if (!g_key_file_has_group(kf, "board")) {
        BUILD_FAIL("no [board] group");
    }
    if (!get_num(kf, "board", "vendor", 0x10de, 0xffff, &vendor, errp) ||
        !get_num(kf, "board", "device", 0, 0xffff, &device, errp) ||
        !get_num(kf, "board", "rom_kib", 64, 1024, &kib, errp) ||
        !get_num(kf, "board", "bmp_version", 0x0506, 0xffff, &bmp, errp) ||
        !get_num(kf, "board", "feature_byte", 0, 0xff, &feature, errp) ||
        !get_num(kf, "board", "chip_version", 0, 0xff, &chip, errp) ||
        !get_num(kf, "board", "vram_mb", 16, 512, &vram, errp) ||
        !get_num(kf, "board", "strap", 0, 0xffffffff, &strap, errp) ||
        !get_num(kf, "board", "nvpll", 0, 0xffffffff, &nvpll, errp) ||
        !get_num(kf, "board", "mpll", 0, 0xffffffff, &mpll, errp) ||
        !get_num(kf, "board", "dcb_version", 0x22, 0xff, &dcbv, errp) ||
        !get_num(kf, "board", "tv_encoder_i2c", 1, NVBIOS_MAX_I2C - 1,
                 &tv_port, errp) ||
        !get_num(kf, "board", "tv_encoder_addr", 0x75, 0x7f, &tv_addr, errp)) {
        return false;
    }
    tv_enc = g_key_file_get_string(kf, "board", "tv_encoder", NULL);
    if (tv_enc && !strcmp(tv_enc, "ch7006")) {
        tv_encoder = NVBIOS_TV_ENCODER_CH7006;
    } else if (tv_enc && strcmp(tv_enc, "none")) {
        BUILD_FAIL("[board] tv_encoder=%s: expected ch7006 or none", tv_enc);
    }
    if (!device) {
        BUILD_FAIL("[board] device= (the PCI device ID) is required");
    }
    if (kib < 2 || (kib & (kib - 1))) {
        BUILD_FAIL("[board] rom_kib=%u: a power of two of at least 2",
                   (unsigned)kib);
    }
    b->bit = g_key_file_get_boolean(kf, "board", "bit", NULL);
    b->bmp = bmp;
    b->dcb_version = dcbv;
    if (!b->bit && g_key_file_has_group(kf, "perf")) {
        BUILD_FAIL("[perf]: the builder writes a performance table only in "
                   "a BIT image");
    }
    if (!b->bit && (bmp >> 8) != 5) {
        BUILD_FAIL("[board] bmp_version=0x%04x: the builder writes BMP 5.x "
                   "(or BIT, with bit=true)", (unsigned)bmp);
    }
    ram = g_key_file_get_string(kf, "board", "ram_type", NULL);
    if (ram) {
        for (ram_type = 0; ram_type < (int)G_N_ELEMENTS(ram_types); ram_type++) {
            if (!strcmp(ram, ram_types[ram_type])) {
                break;
            }
        }
        if (ram_type == (int)G_N_ELEMENTS(ram_types)) {
            BUILD_FAIL("[board] ram_type=%s: expected sdram, ddr or sgram",
                       ram);
        }
    }
    version = g_key_file_get_string(kf, "board", "bios_version", NULL);
    if (version) {
        /* "major.chip.minor.micro", as nouveau prints it */
        g_auto(GStrv) p = g_strsplit(version, ".", -1);
        for (int i = 0; i < 4; i++) {
            char *end;
            uint64_t v = p[i] ? strtoull(p[i], &end, 16) : 0;
            if (!p[i] || end == p[i] || *end || v > 0xff) {
                BUILD_FAIL("[board] bios_version=%s: expected four "
                           "dot-separated bytes", version);
            }
            ver[3 - i] = v;
        }
        if (chip) {
            ver[2] = chip;
        }
    }
    b->major = ver[3];

    b->size = kib * 1024;
    b->rom = g_malloc0(b->size);
    b->heap = OFF_HEAP;

    /* ROM header; the x86 entry at 3 is a far return. */
    put16(b, 0, 0xaa55);
    put8(b, 2, b->size / 512);
    put8(b, 3, 0xcb);
    put16(b, 0x18, OFF_PCIR);

    /* PCI data structure */
    memcpy(b->rom + OFF_PCIR, "PCIR", 4);
    put16(b, OFF_PCIR + 4, vendor);
    put16(b, OFF_PCIR + 6, device);
    put16(b, OFF_PCIR + 0x0a, 0x18);
    put8(b, OFF_PCIR + 0x0f, 0x03);        /* class: display, VGA */
    put16(b, OFF_PCIR + 0x10, b->size / 512);
    put8(b, OFF_PCIR + 0x14, 0x00);        /* x86 code */
    put8(b, OFF_PCIR + 0x15, 0x80);        /* last image */

    /* board record */
    memcpy(b->rom + OFF_BOARD, NVBIOS_BOARD_SIG, 8);
    put8(b, OFF_BOARD + 8, 1);
    put8(b, OFF_BOARD + 9, NVBIOS_BOARD_LEN);
    put16(b, OFF_BOARD + 10, vram);
    put8(b, OFF_BOARD + 12, ram_type);
    put8(b, OFF_BOARD + 13, tv_encoder);
    put8(b, OFF_BOARD + 14, tv_encoder ? tv_port : 0);
    put8(b, OFF_BOARD + 15, tv_encoder ? tv_addr : 0);
    put32(b, OFF_BOARD + 16, strap);
    put32(b, OFF_BOARD + 20, nvpll);
    put32(b, OFF_BOARD + 24, mpll);

    if (!build_dcb(b, errp)) {
        return false;
    }
    if (b->dcb_version >= 0x20) {
        /*
         * The block real images from DCB 2.0 on have at 0x58: two strap
         * override masks and values (none here), an MMIO init list
         * pointer (none), signature 0xa5 at 0x6a and a byte that makes
         * 0x58-0x6b sum to zero (envytools' "HWINFO ext").
         */
        put8(b, OFF_HWINFO + 0x12, 0xa5);
        put8(b, OFF_HWINFO + 0x13, 0x100 - nvbios_sum(b->rom + OFF_HWINFO, 0x13));
    }
    return b->bit ? build_bit(b, ver, feature, errp)
                  : build_bmp(b, ver, feature, chip, errp);
}

GByteArray *nvbios_build(GKeyFile *kf, GError **errp)
{
    Builder b = { .kf = kf };
    GError *err = NULL;
    NVBios parsed;
    bool ok;

    b.labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    ok = build(&b, errp);
    g_hash_table_unref(b.labels);
    if (!ok) {
        g_free(b.rom);
        return NULL;
    }
    /* image checksum in the last byte */
    put8(&b, b.size - 1, 0x100 - nvbios_sum(b.rom, b.size - 1));
    if (!nvbios_parse(&parsed, b.rom, b.size, &err)) {
        g_propagate_prefixed_error(errp, err, "the built image does not "
                                   "parse: ");
        g_free(b.rom);
        return NULL;
    }
    return g_byte_array_new_take(b.rom, b.size);
}

/*
 * A board file with "base=NAME" in [board] is NAME.ini (in the same
 * directory) with this file's keys set over it, key by key.
 */
#define BOARD_BASE_DEPTH 4

static bool load_board(GKeyFile *kf, const char *path, int depth,
                       GError **errp)
{
    g_autoptr(GKeyFile) own = g_key_file_new();
    g_autofree gchar *base = NULL;
    g_auto(GStrv) groups = NULL;

    if (!g_key_file_load_from_file(own, path, G_KEY_FILE_NONE, errp)) {
        return false;
    }
    base = g_key_file_get_string(own, "board", "base", NULL);
    if (base) {
        g_autofree gchar *dir = g_path_get_dirname(path);
        g_autofree gchar *file = g_strconcat(base, ".ini", NULL);
        g_autofree gchar *bpath = g_build_filename(dir, file, NULL);

        if (depth >= BOARD_BASE_DEPTH || strchr(base, '/')) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                        "%s: base=%s: not a board beside it, or bases nested "
                        "deeper than %d", path, base, BOARD_BASE_DEPTH);
            return false;
        }
        if (!load_board(kf, bpath, depth + 1, errp)) {
            return false;
        }
    }
    groups = g_key_file_get_groups(own, NULL);
    for (unsigned i = 0; groups[i]; i++) {
        g_auto(GStrv) keys = g_key_file_get_keys(own, groups[i], NULL, NULL);

        for (unsigned k = 0; keys && keys[k]; k++) {
            g_autofree gchar *v = g_key_file_get_value(own, groups[i], keys[k],
                                                       NULL);
            if (strcmp(keys[k], "base")) {
                g_key_file_set_value(kf, groups[i], keys[k], v);
            }
        }
    }
    return true;
}

GByteArray *nvbios_build_file(const char *path, GError **errp)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    GError *err = NULL;
    GByteArray *rom;

    if (!load_board(kf, path, 0, errp)) {
        return NULL;
    }
    rom = nvbios_build(kf, &err);
    if (!rom) {
        g_propagate_prefixed_error(errp, err, "%s: ", path);
    }
    return rom;
}
