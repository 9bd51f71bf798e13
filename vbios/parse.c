/*
 * libnvbios: image chain, BMP/BIT location, DCB and I2C tables, the
 * nvdev board record.  Layouts follow what Linux 6.1 nouveau reads
 * (nvkm/subdev/bios/{image,pcir,dcb,i2c}.c and nouveau_bios.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <string.h>

G_DEFINE_QUARK(nvbios-error-quark, nvbios_error)

#define FAIL(code, ...) \
    do { g_set_error(errp, NVBIOS_ERROR, (code), __VA_ARGS__); \
         return false; } while (0)

static bool have(const NVBios *b, uint64_t off, uint64_t len)
{
    return off <= b->size && len <= b->size - off;
}

static uint8_t rd08(const NVBios *b, uint32_t off)
{
    return have(b, off, 1) ? b->data[off] : 0;
}

static uint16_t rd16(const NVBios *b, uint32_t off)
{
    return have(b, off, 2) ? b->data[off] | b->data[off + 1] << 8 : 0;
}

static uint32_t rd32(const NVBios *b, uint32_t off)
{
    return have(b, off, 4) ? (uint32_t)rd16(b, off) | (uint32_t)rd16(b, off + 2) << 16 : 0;
}

uint8_t nvbios_sum(const uint8_t *data, size_t len)
{
    uint8_t sum = 0;
    for (size_t i = 0; i < len; i++) {
        sum += data[i];
    }
    return sum;
}

const char *nvbios_output_type_name(uint8_t type)
{
    switch (type) {
    case NVBIOS_OUTPUT_ANALOG: return "crt";
    case NVBIOS_OUTPUT_TV: return "tv";
    case NVBIOS_OUTPUT_TMDS: return "tmds";
    case NVBIOS_OUTPUT_LVDS: return "lvds";
    case NVBIOS_OUTPUT_EOL: return "eol";
    case NVBIOS_OUTPUT_UNUSED: return "unused";
    default: return "unknown";
    }
}

static uint32_t find(const NVBios *b, const char *sig, size_t len, size_t limit)
{
    if (limit > b->size) {
        limit = b->size;
    }
    for (size_t i = 0; i + len <= limit; i++) {
        if (!memcmp(b->data + i, sig, len)) {
            return i;
        }
    }
    return 0;
}

/* The chain of images: 0x55AA, PCIR, size, last-image flag, checksum. */
static bool parse_images(NVBios *b, GError **errp)
{
    uint32_t base = 0;

    for (unsigned idx = 0; ; idx++) {
        uint16_t sig, pcir_ptr, len;
        uint32_t pcir, size;
        uint8_t type, indicator;

        if (!have(b, base, 0x1a)) {
            FAIL(NVBIOS_ERR_TRUNCATED,
                 "image %u at 0x%x: file ends (0x%zx bytes) inside the ROM header",
                 idx, base, b->size);
        }
        sig = rd16(b, base);
        if (sig != 0xaa55) {
            FAIL(NVBIOS_ERR_SIGNATURE,
                 "image %u at 0x%x: ROM signature 0x%04x, expected 0xaa55",
                 idx, base, sig);
        }
        pcir_ptr = rd16(b, base + 0x18);
        pcir = base + pcir_ptr;
        if (!pcir_ptr || !have(b, pcir, 0x18)) {
            FAIL(NVBIOS_ERR_POINTER,
                 "image %u at 0x%x: PCIR pointer 0x%04x points outside the file",
                 idx, base, pcir_ptr);
        }
        if (memcmp(b->data + pcir, "PCIR", 4) &&
            memcmp(b->data + pcir, "NPDS", 4) &&
            memcmp(b->data + pcir, "RGIS", 4)) {
            FAIL(NVBIOS_ERR_SIGNATURE,
                 "image %u: PCI data structure at 0x%x has signature "
                 "%02x %02x %02x %02x, expected \"PCIR\"", idx, pcir,
                 b->data[pcir], b->data[pcir + 1], b->data[pcir + 2],
                 b->data[pcir + 3]);
        }
        len = rd16(b, pcir + 0x10);
        size = (uint32_t)len * 512;
        type = rd08(b, pcir + 0x14);
        indicator = rd08(b, pcir + 0x15);
        if (!size) {
            FAIL(NVBIOS_ERR_TRUNCATED,
                 "image %u: PCIR at 0x%x declares an image length of 0",
                 idx, pcir);
        }
        if (!have(b, base, size)) {
            FAIL(NVBIOS_ERR_TRUNCATED,
                 "image %u at 0x%x: PCIR declares 0x%x bytes, file has only "
                 "0x%zx from there (truncated image)", idx, base, size,
                 b->size - base);
        }
        if (type == 0x00) {
            uint8_t sum = nvbios_sum(b->data + base, size);
            if (sum) {
                FAIL(NVBIOS_ERR_CHECKSUM,
                     "image %u at 0x%x: bad checksum: bytes sum to 0x%02x "
                     "over 0x%x bytes, must be 0x00", idx, base, sum, size);
            }
        }
        if (idx == 0) {
            b->image_size = size;
            b->vendor_id = rd16(b, pcir + 4);
            b->device_id = rd16(b, pcir + 6);
            b->code_type = type;
            if (rd08(b, pcir + 0x0f) != 0x03) {
                FAIL(NVBIOS_ERR_SIGNATURE,
                     "image 0: PCIR class code base 0x%02x, a VGA BIOS has 0x03",
                     rd08(b, pcir + 0x0f));
            }
        }
        b->n_images = idx + 1;
        if ((indicator & 0x80) || idx >= 7) {
            break;
        }
        base += size;
        if (base >= b->size) {
            break;
        }
    }
    return true;
}

/* A zero-terminated list of init script pointers (BMP 5.10+, BIT 'I'). */
static bool script_table(NVBios *b, uint32_t tbl, GError **errp)
{
    for (unsigned i = 0; tbl && i < NVBIOS_MAX_SCRIPTS; i++) {
        uint16_t p;

        if (!have(b, tbl + 2 * i, 2) || tbl + 2 * i + 2 > b->image_size) {
            FAIL(NVBIOS_ERR_POINTER, "init script table at 0x%x runs past "
                 "the image", tbl);
        }
        p = rd16(b, tbl + 2 * i);
        if (!p) {
            break;
        }
        if (p >= b->image_size) {
            FAIL(NVBIOS_ERR_POINTER, "init script table at 0x%x: script %u "
                 "pointer 0x%04x is outside the image", tbl, i, p);
        }
        b->scripts[b->n_scripts++] = p;
    }
    return true;
}

static bool parse_bmp(NVBios *b, GError **errp)
{
    uint32_t o;

    b->bmp_offset = find(b, "\xff\x7fNV\0", 5, b->image_size);
    if (!b->bmp_offset) {
        return true;
    }
    o = b->bmp_offset;
    if (!have(b, o, 8)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BMP at 0x%x: header truncated", o);
    }
    b->bmp_major = rd08(b, o + 5);
    b->bmp_minor = rd08(b, o + 6);
    if ((b->bmp_major < 5 && b->bmp_minor != 1) || b->bmp_major > 5) {
        FAIL(NVBIOS_ERR_VERSION,
             "BMP at 0x%x: version %u.%u is one nouveau does not support",
             o, b->bmp_major, b->bmp_minor);
    }
    if (nvbios_sum(b->data + o, 8)) {
        FAIL(NVBIOS_ERR_CHECKSUM,
             "BMP at 0x%x: header checksum 0x%02x over 8 bytes, must be 0",
             o, nvbios_sum(b->data + o, 8));
    }
    if (b->bmp_major >= 5 && !have(b, o, 75)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BMP 5.x at 0x%x: structure truncated", o);
    }
    b->feature_byte = rd08(b, o + 9);
    for (int i = 0; i < 4; i++) {
        b->version[i] = rd08(b, o + 10 + i);
    }
    if (b->bmp_major >= 4) {
        b->i2c_crt = rd08(b, o + 54);
        b->i2c_tv = rd08(b, o + 55);
        b->i2c_panel = rd08(b, o + 56);
    }

    if (b->bmp_major == 5 && b->bmp_minor >= 0x10) {
        /* From 5.10, +75 starts the init table (14 bytes) whose first word
         * points at a zero-terminated list of script pointers. */
        uint32_t tbl;

        if (!have(b, o, 89)) {
            FAIL(NVBIOS_ERR_TRUNCATED, "BMP 5.%02x at 0x%x: structure truncated",
                 b->bmp_minor, o);
        }
        tbl = rd16(b, o + 75);
        if (!script_table(b, tbl, errp)) {
            return false;
        }
    }

    /* Before 5.10 the two legacy script pointers are direct. */
    if (b->bmp_major < 5 || b->bmp_minor < 0x10) {
        uint32_t tbl = o + (b->bmp_major < 2 ? 14 : 18);
        for (int i = 0; i < 2; i++) {
            uint16_t p = rd16(b, tbl + 2 * i);
            if (!p) {
                break;
            }
            if (p >= b->image_size) {
                FAIL(NVBIOS_ERR_POINTER,
                     "BMP at 0x%x: init script %d pointer 0x%04x is outside "
                     "the image (0x%zx bytes)", o, i, p, b->image_size);
            }
            b->scripts[b->n_scripts++] = p;
        }
    }
    return true;
}

static bool parse_dcb(NVBios *b, GError **errp)
{
    uint32_t dcb = rd16(b, 0x36), i2c = 0, hdr, len, cnt;

    if (!dcb) {
        return true;
    }
    if (!have(b, dcb, 8) || dcb + 8 > b->image_size) {
        FAIL(NVBIOS_ERR_POINTER, "DCB pointer at 0x36 (0x%04x) points "
             "outside the image", dcb);
    }
    b->dcb_version = rd08(b, dcb);
    if (b->dcb_version >= 0x42 || b->dcb_version < 0x20) {
        FAIL(NVBIOS_ERR_VERSION, "DCB at 0x%x: version 0x%02x not supported "
             "(2.0 .. 4.1 are)", dcb, b->dcb_version);
    }
    if (b->dcb_version >= 0x30) {
        if (rd32(b, dcb + 6) != 0x4edcbdcb) {
            FAIL(NVBIOS_ERR_SIGNATURE, "DCB %d.%d at 0x%x: signature at +6 "
                 "is 0x%08x, expected 0x4edcbdcb", b->dcb_version >> 4,
                 b->dcb_version & 0xf, dcb, rd32(b, dcb + 6));
        }
        hdr = rd08(b, dcb + 1);
        cnt = rd08(b, dcb + 2);
        len = rd08(b, dcb + 3);
        i2c = rd16(b, dcb + 4);
        if (len < 8) {
            FAIL(NVBIOS_ERR_VERSION, "DCB at 0x%x: entry length %u < 8",
                 dcb, len);
        }
    } else {
        if (rd32(b, dcb + 4) != 0x4edcbdcb) {
            FAIL(NVBIOS_ERR_SIGNATURE, "DCB %d.%d at 0x%x: signature at +4 "
                 "is 0x%08x, expected 0x4edcbdcb", b->dcb_version >> 4,
                 b->dcb_version & 0xf, dcb, rd32(b, dcb + 4));
        }
        i2c = rd16(b, dcb + 2);
        hdr = 8;
        len = 8;
        if (i2c <= dcb) {
            FAIL(NVBIOS_ERR_POINTER, "DCB 2.x at 0x%x: I2C table pointer "
                 "0x%04x must follow the DCB entries", dcb, i2c);
        }
        cnt = (i2c - dcb) / 8;
    }
    b->dcb_offset = dcb;

    for (uint32_t idx = 0; idx < cnt; idx++) {
        uint32_t e = dcb + hdr + idx * len;
        uint32_t conn, conf;
        NVBiosDcbEntry *d;

        if (!have(b, e, 8) || e + 8 > b->image_size) {
            FAIL(NVBIOS_ERR_TRUNCATED, "DCB at 0x%x: entry %u at 0x%x runs "
                 "past the image", dcb, idx, e);
        }
        conn = rd32(b, e);
        conf = rd32(b, e + 4);
        if (conn == 0 || conn == 0xffffffff ||
            (conn & 0xff) == NVBIOS_OUTPUT_EOL) {
            break;
        }
        if ((conn & 0xff) == NVBIOS_OUTPUT_UNUSED) {
            continue;
        }
        if (b->n_dcb >= NVBIOS_MAX_DCB) {
            FAIL(NVBIOS_ERR_TRUNCATED, "DCB at 0x%x: more than %d entries "
                 "and no end marker", dcb, NVBIOS_MAX_DCB);
        }
        d = &b->dcb[b->n_dcb++];
        d->offset = e;
        d->conn = conn;
        d->conf = conf;
        d->type = conn & 0xf;
        d->i2c = (conn >> 4) & 0xf;
        d->heads = (conn >> 8) & 0xf;
        d->connector = (conn >> 12) & 0xf;
        d->bus = (conn >> 16) & 0xf;
        d->location = (conn >> 20) & 0x3;
        d->or_mask = (conn >> 24) & 0xf;
    }

    /* I2C table: before 3.0, 16 entries of 4 bytes with no header; from
     * 3.0 a header (version, header size, count, entry size) first. */
    if (i2c) {
        uint32_t ihdr = 0, icnt = NVBIOS_MAX_I2C, ilen = 4;

        if (b->dcb_version >= 0x30) {
            if (!have(b, i2c, 4)) {
                FAIL(NVBIOS_ERR_TRUNCATED, "I2C table at 0x%x: header runs "
                     "past the image", i2c);
            }
            ihdr = rd08(b, i2c + 1);
            icnt = MIN(rd08(b, i2c + 2), NVBIOS_MAX_I2C);
            ilen = rd08(b, i2c + 3);
            if (ilen < 4) {
                FAIL(NVBIOS_ERR_VERSION, "I2C table at 0x%x: entry size %u "
                     "< 4", i2c, ilen);
            }
        }
        if (!have(b, i2c + ihdr, icnt * ilen) ||
            i2c + ihdr + icnt * ilen > b->image_size) {
            FAIL(NVBIOS_ERR_TRUNCATED, "I2C table at 0x%x runs past the "
                 "image", i2c);
        }
        b->i2c_offset = i2c;
        for (uint32_t i = 0; i < icnt; i++) {
            NVBiosI2cPort *p = &b->i2c[i];
            uint32_t e = i2c + ihdr + i * ilen;
            if (b->dcb_version >= 0x30) {
                p->type = rd08(b, e + 3);
                p->used = p->type != 0xff;
            } else {
                p->type = rd08(b, e + 3) & 7;
                p->used = p->type != 7;
            }
            p->drive = rd08(b, e);
            p->sense = rd08(b, e + 1);
        }
    }

    /* connector table (3.0 with a long enough header) */
    if (b->dcb_version >= 0x30 && hdr >= 0x16 && rd16(b, dcb + 0x14)) {
        uint32_t c = rd16(b, dcb + 0x14);
        if (!have(b, c, 4) || c + rd08(b, c + 1) +
            rd08(b, c + 2) * rd08(b, c + 3) > b->image_size) {
            FAIL(NVBIOS_ERR_TRUNCATED, "connector table at 0x%x runs past "
                 "the image", c);
        }
        b->conn_offset = c;
        b->n_conn = rd08(b, c + 2);
    }
    for (unsigned i = 0; i < b->n_dcb; i++) {
        if (b->i2c_offset && b->dcb[i].type != NVBIOS_OUTPUT_TMDS &&
            !b->i2c[b->dcb[i].i2c].used && b->dcb[i].i2c != 0xf) {
            FAIL(NVBIOS_ERR_POINTER, "DCB entry %u at 0x%x: uses I2C port "
                 "%u, which the I2C table marks unused", i, b->dcb[i].offset,
                 b->dcb[i].i2c);
        }
    }
    return true;
}

/* BIT: the 'i' entry carries the version and feature byte, 'I' the init
 * table whose first word points at the script table. */
static bool parse_bit(NVBios *b, GError **errp)
{
    uint32_t o = b->bit_offset, n, size;

    if (!o) {
        return true;
    }
    if (!have(b, o, 12)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BIT at 0x%x: header truncated", o);
    }
    size = rd08(b, o + 9);
    n = rd08(b, o + 10);
    if (size < 6 || !have(b, o + 12, n * size)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BIT at 0x%x: %u entries of %u bytes do "
             "not fit", o, n, size);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = o + 12 + i * size;
        uint8_t id = rd08(b, e);
        uint16_t len = rd16(b, e + 2), off = rd16(b, e + 4);

        if (len && (!have(b, off, len) || off + len > b->image_size)) {
            FAIL(NVBIOS_ERR_POINTER, "BIT entry '%c' at 0x%x: table at 0x%x "
                 "(%u bytes) is outside the image", id, e, off, len);
        }
        if (id == 'i') {
            if (len < 15) {
                FAIL(NVBIOS_ERR_VERSION, "BIT 'i' at 0x%x is %u bytes; "
                     "nouveau needs 15", off, len);
            }
            for (int k = 0; k < 4; k++) {
                b->version[k] = rd08(b, off + k);
            }
            b->feature_byte = rd08(b, off + 5);
        } else if (id == 'I') {
            if (len < 14) {
                FAIL(NVBIOS_ERR_VERSION, "BIT 'I' at 0x%x is %u bytes; "
                     "nouveau needs 14", off, len);
            }
            if (!script_table(b, rd16(b, off), errp)) {
                return false;
            }
        }
    }
    return true;
}

static bool parse_board(NVBios *b, GError **errp)
{
    uint32_t o = find(b, NVBIOS_BOARD_SIG, 8, b->image_size);

    if (!o) {
        return true;
    }
    if (!have(b, o, NVBIOS_BOARD_LEN)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "board record at 0x%x truncated", o);
    }
    if (rd08(b, o + 8) != 1 || rd08(b, o + 9) != NVBIOS_BOARD_LEN) {
        FAIL(NVBIOS_ERR_VERSION, "board record at 0x%x: version %u length "
             "%u, expected version 1 length %u", o, rd08(b, o + 8),
             rd08(b, o + 9), NVBIOS_BOARD_LEN);
    }
    b->has_board = true;
    b->board.offset = o;
    b->board.vram_mb = rd16(b, o + 10);
    b->board.ram_type = rd08(b, o + 12);
    b->board.tv_encoder = rd08(b, o + 13);
    b->board.tv_i2c_port = rd08(b, o + 14);
    b->board.tv_i2c_addr = rd08(b, o + 15);
    b->board.strap = rd32(b, o + 16);
    b->board.nvpll = rd32(b, o + 20);
    b->board.mpll = rd32(b, o + 24);
    if (!b->board.vram_mb || (b->board.vram_mb & (b->board.vram_mb - 1)) ||
        b->board.vram_mb > 512) {
        FAIL(NVBIOS_ERR_BOARD, "board record at 0x%x: VRAM size %u MiB is "
             "not a power of two up to 512", o, b->board.vram_mb);
    }
    if (b->board.tv_encoder > NVBIOS_TV_ENCODER_CH7006 ||
        b->board.tv_i2c_port >= NVBIOS_MAX_I2C ||
        b->board.tv_i2c_addr > 0x7f) {
        FAIL(NVBIOS_ERR_BOARD, "board record at 0x%x: TV encoder %u on I2C "
             "port %u address 0x%02x is not valid", o, b->board.tv_encoder,
             b->board.tv_i2c_port, b->board.tv_i2c_addr);
    }
    if (b->board.ram_type > NVBIOS_RAM_SGRAM) {
        FAIL(NVBIOS_ERR_BOARD, "board record at 0x%x: unknown RAM type %u",
             o, b->board.ram_type);
    }
    return true;
}

static bool parse_scripts(NVBios *b, GError **errp)
{
    for (unsigned i = 0; i < b->n_scripts; i++) {
        uint32_t off = b->scripts[i];
        unsigned steps = 0;

        for (;;) {
            GError *err = NULL;
            size_t n;

            if (off >= b->image_size) {
                FAIL(NVBIOS_ERR_SCRIPT, "init script %u at 0x%x runs past "
                     "the image without INIT_DONE", i, b->scripts[i]);
            }
            if (b->data[off] == 0x71) {
                break;
            }
            n = nvbios_insn_len(b, off, &err);
            if (!n) {
                g_propagate_prefixed_error(errp, err, "init script %u: ", i);
                return false;
            }
            off += n;
            if (++steps > 65536) {
                FAIL(NVBIOS_ERR_SCRIPT, "init script %u at 0x%x does not "
                     "end", i, b->scripts[i]);
            }
        }
    }
    return true;
}

bool nvbios_parse(NVBios *bios, const uint8_t *data, size_t size,
                  GError **errp)
{
    memset(bios, 0, sizeof(*bios));
    bios->data = data;
    bios->size = size;

    if (size < 512) {
        FAIL(NVBIOS_ERR_TRUNCATED, "file is %zu bytes, smaller than the "
             "smallest ROM image (512)", size);
    }
    if (!parse_images(bios, errp)) {
        return false;
    }
    bios->bit_offset = find(bios, "\xff\xb8" "BIT", 5, bios->image_size);
    return parse_bmp(bios, errp) && parse_bit(bios, errp) &&
           parse_dcb(bios, errp) &&
           parse_board(bios, errp) && parse_scripts(bios, errp);
}
