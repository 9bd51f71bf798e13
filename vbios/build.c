/*
 * libnvbios: build a VBIOS image from a GKeyFile board description.
 *
 * Layout of a built image (all offsets fixed, each table bounded):
 *   0x0000  ROM header: 0x55AA, size / 512, x86 entry (a far return)
 *   0x0036  DCB pointer
 *   0x0060  nvdev board record ("NVDEVBRD")
 *   0x00a0  PCI data structure ("PCIR")
 *   0x0100  BMP structure
 *   0x0200  DCB, followed by its I2C table
 *   0x03c0  init script table (BMP 5.10 and later: BMP +75 points here)
 *   0x0400  init scripts
 * The last byte of the image is adjusted so that the image sums to zero.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define OFF_BOARD   0x0060
#define OFF_PCIR    0x00a0
#define OFF_BMP     0x0100
#define OFF_DCB     0x0200
#define OFF_SCRIPT_TABLE 0x03c0
#define DCB30_HDR   0x16
#define OFF_BIT_I   0x0180  /* BIT 'i' data */
#define OFF_BIT_INIT 0x01a0 /* BIT 'I' data: the init table */
#define OFF_SCRIPTS 0x0400
#define END_DCB     OFF_SCRIPT_TABLE

typedef struct Builder {
    uint8_t *rom;
    size_t size;
    uint32_t script_pos;
    const char *path;
} Builder;

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

static bool get_num(GKeyFile *kf, const char *grp, const char *key,
                    uint64_t def, uint64_t max, uint64_t *out, GError **errp)
{
    g_autofree char *s = g_key_file_get_string(kf, grp, key, NULL);
    char *end;

    if (!s) {
        *out = def;
        return true;
    }
    g_strstrip(s);
    errno = 0;
    *out = strtoull(s, &end, 0);
    if (errno || end == s || *end || *out > max) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[%s] %s=%s: expected a number up to 0x%" G_GINT64_MODIFIER
                    "x", grp, key, s, max);
        return false;
    }
    return true;
}

static bool parse_num(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    return !errno && end != s && !*end && *out <= max;
}

static const struct {
    const char *name;
    uint8_t type;
} output_types[] = {
    { "crt", NVBIOS_OUTPUT_ANALOG },
    { "tv", NVBIOS_OUTPUT_TV },
    { "tmds", NVBIOS_OUTPUT_TMDS },
    { "lvds", NVBIOS_OUTPUT_LVDS },
};

/*
 * One init script instruction in text form, e.g. "zm_reg 0x9200 0x8" or
 * "zm_cr 0x1f 0x57".  Appends its bytes at b->script_pos.
 */
static bool emit_insn(Builder *b, const char *text, GError **errp)
{
    static const struct {
        const char *name;
        uint8_t op;
        uint8_t nargs;
        uint8_t argsz[3];
    } forms[] = {
        { "zm_reg", 0x7a, 2, { 4, 4 } },
        { "zm_reg16", 0x77, 2, { 4, 2 } },
        { "nv_reg", 0x6e, 3, { 4, 4, 4 } },
        { "or_reg", 0x48, 2, { 4, 4 } },
        { "andn_reg", 0x47, 2, { 4, 4 } },
        { "zm_cr", 0x53, 2, { 1, 1 } },
        { "cr", 0x52, 3, { 1, 1, 1 } },
        { "zm_index_io", 0x62, 3, { 2, 1, 1 } },
        { "index_io", 0x78, 3, { 2, 1, 1 } },
        { "time", 0x74, 1, { 2 } },
        { "resume", 0x72, 0, { 0 } },
        { "done", 0x71, 0, { 0 } },
    };
    g_auto(GStrv) tok = g_strsplit_set(text, " \t", -1);
    GPtrArray *words = g_ptr_array_new();
    size_t i;
    bool ok = false;

    for (i = 0; tok[i]; i++) {
        if (*tok[i]) {
            g_ptr_array_add(words, tok[i]);
        }
    }
    if (!words->len) {
        ok = true;
        goto out;
    }
    for (i = 0; i < G_N_ELEMENTS(forms); i++) {
        if (!g_ascii_strcasecmp(words->pdata[0], forms[i].name)) {
            break;
        }
    }
    if (i == G_N_ELEMENTS(forms)) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "unknown init script instruction \"%s\"",
                    (char *)words->pdata[0]);
        goto out;
    }
    if (words->len - 1 != forms[i].nargs) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "\"%s\": %s takes %u arguments", text, forms[i].name,
                    forms[i].nargs);
        goto out;
    }
    {
        size_t len = 1;
        for (int a = 0; a < forms[i].nargs; a++) {
            len += forms[i].argsz[a];
        }
        if (b->script_pos + len >= b->size - 1) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                        "init scripts do not fit in the image");
            goto out;
        }
    }
    put8(b, b->script_pos++, forms[i].op);
    for (int a = 0; a < forms[i].nargs; a++) {
        uint64_t v, max = (1ull << (8 * forms[i].argsz[a])) - 1;
        if (!parse_num(words->pdata[a + 1], max, &v)) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                        "\"%s\": argument %d is not a number up to 0x%"
                        G_GINT64_MODIFIER "x", text, a + 1, max);
            goto out;
        }
        for (int k = 0; k < forms[i].argsz[a]; k++) {
            put8(b, b->script_pos++, (v >> (8 * k)) & 0xff);
        }
    }
    ok = true;
out:
    g_ptr_array_free(words, true);
    return ok;
}

static bool build_scripts(Builder *b, GKeyFile *kf, uint16_t *ptrs,
                          int *n, GError **errp)
{
    *n = 0;
    b->script_pos = OFF_SCRIPTS;
    for (int s = 0; s < 2; s++) {
        g_autofree char *key = g_strdup_printf("script%d", s);
        g_auto(GStrv) insns = NULL;
        gsize count;

        if (!g_key_file_has_key(kf, "init", key, NULL)) {
            break;
        }
        insns = g_key_file_get_string_list(kf, "init", key, &count, errp);
        if (!insns) {
            return false;
        }
        ptrs[(*n)++] = b->script_pos;
        for (gsize i = 0; i < count; i++) {
            GError *err = NULL;
            if (!emit_insn(b, insns[i], &err)) {
                g_propagate_prefixed_error(errp, err, "[init] %s: ", key);
                return false;
            }
        }
        if (!emit_insn(b, "done", errp)) {
            return false;
        }
    }
    return true;
}

static bool build_dcb(Builder *b, GKeyFile *kf, GError **errp)
{
    uint64_t ver;
    uint32_t e = OFF_DCB + 8;
    int n = 0;

    if (!g_key_file_has_group(kf, "output0")) {
        return true;        /* no DCB: nouveau fabricates one on BMP boards */
    }
    if (!get_num(kf, "board", "dcb_version", 0x22, 0xff, &ver, errp)) {
        return false;
    }
    if (ver < 0x20 || ver > 0x30) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[board] dcb_version=0x%02x: the builder writes DCB 2.x "
                    "and 3.0", (unsigned)ver);
        return false;
    }
    put8(b, OFF_DCB, ver);
    if (ver >= 0x30) {
        /* 3.0: header 0x16 bytes (connector table pointer at +0x14) */
        put8(b, OFF_DCB + 1, DCB30_HDR);
        put8(b, OFF_DCB + 3, 8);
        put32(b, OFF_DCB + 6, 0x4edcbdcb);
        e = OFF_DCB + DCB30_HDR;
    } else {
        put32(b, OFF_DCB + 4, 0x4edcbdcb);
    }
    put16(b, 0x36, OFF_DCB);

    for (n = 0; n < NVBIOS_MAX_DCB; n++) {
        g_autofree char *grp = g_strdup_printf("output%d", n);
        g_autofree char *type = NULL;
        uint64_t i2c, heads, connector, bus, location, or_mask, conf;
        size_t t;

        if (!g_key_file_has_group(kf, grp)) {
            break;
        }
        type = g_key_file_get_string(kf, grp, "type", NULL);
        for (t = 0; type && t < G_N_ELEMENTS(output_types); t++) {
            if (!strcmp(type, output_types[t].name)) {
                break;
            }
        }
        if (!type || t == G_N_ELEMENTS(output_types)) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                        "[%s] type=%s: expected crt, tv, tmds or lvds", grp,
                        type ? type : "(missing)");
            return false;
        }
        if (!get_num(kf, grp, "i2c", 0, 0xf, &i2c, errp) ||
            !get_num(kf, grp, "heads", 1, 0xf, &heads, errp) ||
            !get_num(kf, grp, "connector", n, 0xf, &connector, errp) ||
            !get_num(kf, grp, "bus", n, 0xf, &bus, errp) ||
            !get_num(kf, grp, "location", 0, 3, &location, errp) ||
            !get_num(kf, grp, "or", 1, 0xf, &or_mask, errp) ||
            !get_num(kf, grp, "conf", 0, 0xffffffff, &conf, errp)) {
            return false;
        }
        put32(b, e, output_types[t].type | i2c << 4 | heads << 8 |
              connector << 12 | bus << 16 | location << 20 | or_mask << 24);
        put32(b, e + 4, conf);
        e += 8;
    }
    put32(b, e, NVBIOS_OUTPUT_EOL);     /* end marker entry */
    e += 8;
    if (ver >= 0x30) {
        put8(b, OFF_DCB + 2, n + 1);
        /* connector table: version, header 5, count, entry size 2; one
         * entry per connector index the outputs name (outputs may share) */
        int nconn = 0;
        uint16_t conns[NVBIOS_MAX_DCB];
        for (int i = 0; i < n; i++) {
            g_autofree char *grp = g_strdup_printf("output%d", i);
            uint64_t idx, ctype;
            if (!get_num(kf, grp, "connector", i, NVBIOS_MAX_DCB - 1, &idx, errp) ||
                !get_num(kf, grp, "connector_type", 0x00, 0xff, &ctype, errp)) {
                return false;
            }
            while (nconn <= (int)idx) {
                conns[nconn] = 0xff | nconn << 8;      /* 0xff: unused */
                nconn++;
            }
            if ((conns[idx] & 0xff) == 0xff) {
                conns[idx] = ctype | idx << 8;
            }
        }
        put16(b, OFF_DCB + 0x14, e);
        put8(b, e, 0x30);
        put8(b, e + 1, 5);
        put8(b, e + 2, nconn);
        put8(b, e + 3, 2);
        for (int i = 0; i < nconn; i++) {
            put16(b, e + 5 + 2 * i, conns[i]);
        }
        e += 5 + 2 * nconn;
        /* I2C table 3.0: version, header 4, count, entry size 4 */
        put16(b, OFF_DCB + 4, e);
        put8(b, e, 0x30);
        put8(b, e + 1, 4);
        put8(b, e + 2, NVBIOS_MAX_I2C);
        put8(b, e + 3, 4);
        e += 4;
    } else {
        /* I2C table right after the entries: 16 x 4 bytes, no header */
        put16(b, OFF_DCB + 2, e);
    }
    for (int i = 0; i < NVBIOS_MAX_I2C; i++) {
        g_autofree char *key = g_strdup_printf("port%d", i);
        g_auto(GStrv) v = NULL;
        gsize cnt = 0;
        uint64_t drive, sense;

        /* unused: type 7 before 3.0, 0xff from 3.0 */
        put32(b, e + 4 * i, ver >= 0x30 ? 0xff000000 : 0x07000000);
        if (!g_key_file_has_key(kf, "i2c", key, NULL)) {
            continue;
        }
        v = g_key_file_get_string_list(kf, "i2c", key, &cnt, NULL);
        if (cnt != 2 || !parse_num(g_strstrip(v[0]), 0xff, &drive) ||
            !parse_num(g_strstrip(v[1]), 0xff, &sense)) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                        "[i2c] %s: expected \"drive;sense\" CRTC indices", key);
            return false;
        }
        put32(b, e + 4 * i, drive | sense << 8);
    }
    if (e + 4 * NVBIOS_MAX_I2C > END_DCB) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "DCB and I2C table do not fit below 0x%x", END_DCB);
        return false;
    }
    return true;
}

/*
 * BIT (NV4x-era, also late NV3x): the header "\xff\xb8BIT", then 6-byte
 * entries {id, version, length, offset}.  We write 'i' (version, feature
 * byte; 15 bytes as nouveau wants, no DAC compare table) and 'I' (the init
 * table: script table pointer first, 14 bytes).
 */
static void build_bit(Builder *b, const uint8_t ver[4], uint64_t feature,
                      uint64_t chip, const uint16_t *scripts, int nscripts)
{
    static const struct { char id; uint8_t version; uint16_t len, off; } e[] = {
        { 'i', 1, 15, OFF_BIT_I },
        { 'I', 1, 14, OFF_BIT_INIT },
    };
    uint32_t o = OFF_BMP;

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
    for (int i = 0; i < 4; i++) {
        put8(b, OFF_BIT_I + i, ver[i]);
    }
    if (chip) {
        put8(b, OFF_BIT_I + 2, chip);
    }
    put8(b, OFF_BIT_I + 5, feature);
    put16(b, OFF_BIT_INIT, OFF_SCRIPT_TABLE);
    for (int i = 0; i < nscripts; i++) {
        put16(b, OFF_SCRIPT_TABLE + 2 * i, scripts[i]);
    }
}

static const char *ram_types[] = { "sdram", "ddr", "sgram" };

GByteArray *nvbios_build(GKeyFile *kf, GError **errp)
{
    uint64_t vendor, device, kib, bmp, vram, strap, nvpll, mpll, feature;
    uint64_t i2c_crt, i2c_tv, i2c_panel, chip, tv_port, tv_addr;
    g_autofree char *tv_enc = NULL;
    int tv_encoder = NVBIOS_TV_ENCODER_NONE;
    bool bit;
    g_autofree char *ram = NULL, *version = NULL;
    uint16_t scripts[2] = { 0, 0 };
    int nscripts = 0, ram_type;
    uint8_t ver[4] = { 0, 0, 0, 0 };
    GByteArray *out;
    Builder b;

    if (!g_key_file_has_group(kf, "board")) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "no [board] group");
        return NULL;
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
        !get_num(kf, "board", "i2c_crt", 0, 0xff, &i2c_crt, errp) ||
        !get_num(kf, "board", "i2c_tv", 1, 0xff, &i2c_tv, errp) ||
        !get_num(kf, "board", "i2c_panel", 0xff, 0xff, &i2c_panel, errp) ||
        !get_num(kf, "board", "tv_encoder_i2c", 1, NVBIOS_MAX_I2C - 1,
                 &tv_port, errp) ||
        !get_num(kf, "board", "tv_encoder_addr", 0x75, 0x7f, &tv_addr, errp)) {
        return NULL;
    }
    tv_enc = g_key_file_get_string(kf, "board", "tv_encoder", NULL);
    if (tv_enc && !strcmp(tv_enc, "ch7006")) {
        tv_encoder = NVBIOS_TV_ENCODER_CH7006;
    } else if (tv_enc && strcmp(tv_enc, "none")) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[board] tv_encoder=%s: expected ch7006 or none", tv_enc);
        return NULL;
    }
    if (!device) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[board] device= (the PCI device ID) is required");
        return NULL;
    }
    if (kib < 1 || (kib & (kib - 1)) || kib * 1024 < OFF_SCRIPTS + 512) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[board] rom_kib=%u: a power of two of at least 2",
                    (unsigned)kib);
        return NULL;
    }
    bit = g_key_file_get_boolean(kf, "board", "bit", NULL);
    if (!bit && (bmp >> 8) != 5) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                    "[board] bmp_version=0x%04x: the builder writes BMP 5.x "
                    "(or BIT, with bit=true)", (unsigned)bmp);
        return NULL;
    }
    ram = g_key_file_get_string(kf, "board", "ram_type", NULL);
    ram_type = 0;
    if (ram) {
        for (ram_type = 0; ram_type < (int)G_N_ELEMENTS(ram_types); ram_type++) {
            if (!strcmp(ram, ram_types[ram_type])) {
                break;
            }
        }
        if (ram_type == (int)G_N_ELEMENTS(ram_types)) {
            g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                        "[board] ram_type=%s: expected sdram, ddr or sgram",
                        ram);
            return NULL;
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
                g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_BOARD,
                            "[board] bios_version=%s: expected four "
                            "dot-separated bytes", version);
                return NULL;
            }
            ver[3 - i] = v;
        }
    }

    b.size = kib * 1024;
    b.rom = g_malloc0(b.size);

    /* ROM header; the x86 entry at 3 is a far return. */
    put16(&b, 0, 0xaa55);
    put8(&b, 2, b.size / 512);
    put8(&b, 3, 0xcb);
    put16(&b, 0x18, OFF_PCIR);

    /* PCI data structure */
    memcpy(b.rom + OFF_PCIR, "PCIR", 4);
    put16(&b, OFF_PCIR + 4, vendor);
    put16(&b, OFF_PCIR + 6, device);
    put16(&b, OFF_PCIR + 0x0a, 0x18);
    put8(&b, OFF_PCIR + 0x0f, 0x03);        /* class: display, VGA */
    put16(&b, OFF_PCIR + 0x10, b.size / 512);
    put8(&b, OFF_PCIR + 0x14, 0x00);        /* x86 code */
    put8(&b, OFF_PCIR + 0x15, 0x80);        /* last image */

    /* board record */
    memcpy(b.rom + OFF_BOARD, NVBIOS_BOARD_SIG, 8);
    put8(&b, OFF_BOARD + 8, 1);
    put8(&b, OFF_BOARD + 9, NVBIOS_BOARD_LEN);
    put16(&b, OFF_BOARD + 10, vram);
    put8(&b, OFF_BOARD + 12, ram_type);
    put8(&b, OFF_BOARD + 13, tv_encoder);
    put8(&b, OFF_BOARD + 14, tv_encoder ? tv_port : 0);
    put8(&b, OFF_BOARD + 15, tv_encoder ? tv_addr : 0);
    put32(&b, OFF_BOARD + 16, strap);
    put32(&b, OFF_BOARD + 20, nvpll);
    put32(&b, OFF_BOARD + 24, mpll);

    if (!build_dcb(&b, kf, errp) ||
        !build_scripts(&b, kf, scripts, &nscripts, errp)) {
        g_free(b.rom);
        return NULL;
    }

    if (bit) {
        build_bit(&b, ver, feature, chip, scripts, nscripts);
    } else {
        /* BMP 5.x structure */
        memcpy(b.rom + OFF_BMP, "\xff\x7fNV\0", 5);
        put8(&b, OFF_BMP + 5, bmp >> 8);
        put8(&b, OFF_BMP + 6, bmp & 0xff);
        put8(&b, OFF_BMP + 9, feature);
        for (int i = 0; i < 4; i++) {
            put8(&b, OFF_BMP + 10 + i, ver[i]);
        }
        if (chip) {
            put8(&b, OFF_BMP + 12, chip);
        }
        if (bmp >= 0x0510) {
            /* the init table at +75: script table pointer first (then macro,
             * condition and function tables, none here) */
            put16(&b, OFF_BMP + 75, OFF_SCRIPT_TABLE);
            for (int i = 0; i < nscripts; i++) {
                put16(&b, OFF_SCRIPT_TABLE + 2 * i, scripts[i]);
            }
        } else {
            put16(&b, OFF_BMP + 18, scripts[0]);
            put16(&b, OFF_BMP + 20, scripts[1]);
        }
        put8(&b, OFF_BMP + 54, i2c_crt);
        put8(&b, OFF_BMP + 55, i2c_tv);
        put8(&b, OFF_BMP + 56, i2c_panel);
        /* single-stage PLL VCO limits, kHz */
        put32(&b, OFF_BMP + 67, 350000);
        put32(&b, OFF_BMP + 71, 128000);
        put8(&b, OFF_BMP + 7, 0x100 - nvbios_sum(b.rom + OFF_BMP, 7));
    }

    /* image checksum in the last byte */
    put8(&b, b.size - 1, 0x100 - nvbios_sum(b.rom, b.size - 1));

    out = g_byte_array_new_take(b.rom, b.size);
    return out;
}

GByteArray *nvbios_build_file(const char *path, GError **errp)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    GError *err = NULL;
    GByteArray *rom;

    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, errp)) {
        return NULL;
    }
    rom = nvbios_build(kf, &err);
    if (!rom) {
        g_propagate_prefixed_error(errp, err, "%s: ", path);
    }
    return rom;
}
