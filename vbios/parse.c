/*
 * libnvbios: the image chain, BMP and BIT structures, the nvdev board
 * record, and the bookkeeping every table shares (extents, warnings).
 * Layouts follow what Linux 6.1 nouveau reads (nvkm/subdev/bios/{image,
 * pcir,bit,base}.c and nouveau_bios.c); the other tables are in dcb.c,
 * tables.c and script.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios-int.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(nvbios-error-quark, nvbios_error)

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

void nvbios_warn(NVBios *b, const char *fmt, ...)
{
    va_list ap;

    if (b->n_warnings >= NVBIOS_MAX_WARN) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->warnings[b->n_warnings++], sizeof(b->warnings[0]), fmt, ap);
    va_end(ap);
}

bool nvbios_region(NVBios *b, const char *name, uint32_t start, uint32_t len,
                   GError **errp)
{
    NVBiosRegion *r;

    if (!in_image(b, start, len)) {
        FAIL(NVBIOS_ERR_POINTER, "%s at 0x%x (%u bytes) runs outside the "
             "image (0x%zx bytes)", name, start, len, b->image_size);
    }
    for (unsigned i = 0; i < b->n_regions && len; i++) {
        const NVBiosRegion *o = &b->regions[i];
        if (o->len && start < o->start + o->len && o->start < start + len) {
            nvbios_warn(b, "%s at 0x%x-0x%x overlaps %s at 0x%x-0x%x", name,
                        start, start + len - 1, o->name, o->start,
                        o->start + o->len - 1);
        }
    }
    if (b->n_regions < NVBIOS_MAX_REGIONS) {
        r = &b->regions[b->n_regions++];
        r->start = start;
        r->len = len;
        g_strlcpy(r->name, name, sizeof(r->name));
    }
    return true;
}

bool nvbios_table(NVBios *b, const char *name, uint32_t o, unsigned hdr,
                  unsigned cnt, unsigned len, unsigned max, unsigned min_len,
                  GError **errp)
{
    if (len < min_len) {
        FAIL(NVBIOS_ERR_VERSION, "%s at 0x%x: entry size %u, at least %u "
             "expected", name, o, len, min_len);
    }
    if (cnt > max) {
        FAIL(NVBIOS_ERR_TRUNCATED, "%s at 0x%x: %u entries, at most %u "
             "supported", name, o, cnt, max);
    }
    return nvbios_region(b, name, o, hdr + cnt * len, errp);
}

const NVBiosBitEntry *nvbios_bit(const NVBios *b, char id)
{
    for (unsigned i = 0; i < b->n_bit; i++) {
        if (b->bit[i].id == id) {
            return &b->bit[i];
        }
    }
    return NULL;
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
            /*
             * A card serves what its ROM holds, whatever it sums to; a
             * bad sum is reported, not refused.  Some real images sum to
             * zero over the option ROM's own size byte (+2, in 512-byte
             * blocks) rather than over the PCIR length (a RIVA TNT dump:
             * 0x8800 bytes, PCIR 0x8000); nouveau sums the PCIR length.
             */
            uint8_t sum = nvbios_sum(b->data + base, size);
            uint32_t legacy = rd08(b, base + 2) * 512u;

            if (sum && legacy && legacy != size && have(b, base, legacy) &&
                !nvbios_sum(b->data + base, legacy)) {
                nvbios_warn(b, "image %u at 0x%x: sums to 0 over its size "
                            "byte's 0x%x bytes, not over the PCIR length "
                            "0x%x (nouveau sums the PCIR length and will "
                            "call the checksum bad)", idx, base, legacy,
                            size);
            } else if (sum) {
                nvbios_warn(b, "image %u at 0x%x: bad checksum: bytes sum "
                            "to 0x%02x over 0x%x bytes, should be 0x00",
                            idx, base, sum, size);
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
            if (!nvbios_region(b, "PCIR", pcir, 0x18, errp)) {
                return false;
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

/*
 * How much of a BMP structure of a version nouveau reads
 * (parse_bmp_structure); 0 for versions it does not support.
 */
unsigned nvbios_bmp_length(uint8_t major, uint8_t minor)
{
    if ((major < 5 && minor != 1) || major > 5) {
        return 0;
    }
    switch (major) {
    case 0: return 8;
    case 1: return 44;
    case 2: return 48;
    case 3: return 54;
    case 4: return 62;
    }
    if (minor < 0x01) return 62;
    if (minor < 0x06) return 67;
    if (minor < 0x10) return 75;
    if (minor == 0x10) return 89;
    if (minor < 0x14) return 118;
    if (minor < 0x24) return 123;
    if (minor < 0x27) return 144;
    return 158;
}

static bool parse_bmp(NVBios *b, GError **errp)
{
    uint32_t o;
    unsigned len;

    b->fmaxvco = 256000;
    b->fminvco = 128000;
    b->bmp_offset = find(b, "\xff\x7fNV\0", 5, b->image_size);
    if (!b->bmp_offset) {
        return true;
    }
    o = b->bmp_offset;
    if (!in_image(b, o, 8)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BMP at 0x%x: header truncated", o);
    }
    b->bmp_major = rd08(b, o + 5);
    b->bmp_minor = rd08(b, o + 6);
    len = nvbios_bmp_length(b->bmp_major, b->bmp_minor);
    if (!len) {
        FAIL(NVBIOS_ERR_VERSION,
             "BMP at 0x%x: version %u.%u is one nouveau does not support",
             o, b->bmp_major, b->bmp_minor);
    }
    if (nvbios_sum(b->data + o, 8)) {
        /* read all the same (a card does not check); nouveau refuses it */
        nvbios_warn(b, "BMP at 0x%x: header checksum 0x%02x over 8 bytes, "
                    "should be 0 (nouveau refuses this BMP)", o,
                    nvbios_sum(b->data + o, 8));
    }
    if (!in_image(b, o, len)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BMP %u.%02x at 0x%x: structure (%u "
             "bytes) truncated", b->bmp_major, b->bmp_minor, o, len);
    }
    if (!nvbios_region(b, "BMP", o, len, errp)) {
        return false;
    }
    if (b->bmp_major == 0) {
        return true;
    }
    b->feature_byte = rd08(b, o + 9);
    for (int i = 0; i < 4; i++) {
        b->version[i] = rd08(b, o + 10 + i);
    }
    if (len > 61) {
        b->i2c_crt = rd08(b, o + 54);
        b->i2c_tv = rd08(b, o + 55);
        b->i2c_panel = rd08(b, o + 56);
    } else {
        b->i2c_crt = rd08(b, 0x48);
        b->i2c_tv = rd08(b, 0x49);
        b->i2c_panel = rd08(b, 0x4a);
    }
    if (len > 74) {
        b->fmaxvco = rd32(b, o + 67);
        b->fminvco = rd32(b, o + 71);
        if (b->fmaxvco && b->fminvco > b->fmaxvco) {
            nvbios_warn(b, "BMP at 0x%x: VCO minimum %u kHz above the "
                        "maximum %u kHz", o, b->fminvco, b->fmaxvco);
        }
    }
    if (len > 88) {
        /* From 5.10, +75 is the init table (14 bytes). */
        b->init_table = o + 75;
        b->init_table_len = 14;
    }
    if (len > 94) {
        b->tmds_script[0] = rd16(b, o + 89);
        b->tmds_script[1] = rd16(b, o + 91);
    }
    if (len > 108) {
        b->fp_table = rd16(b, o + 105);
    }
    if (len > 120) {
        b->lvds_manufacturer = rd16(b, o + 117);
    }
    if (len > 157) {
        b->duallink_clk = rd16(b, o + 156) * 10;
    }

    /* Before 5.10 the two script pointers are direct. */
    if (!b->init_table && b->bmp_major >= 1) {
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

/* BIT: "\xff\xb8BIT", then entries {id, version, length, pointer}. */
static bool parse_bit(NVBios *b, GError **errp)
{
    uint32_t o = b->bit_offset, n, size;

    if (!o) {
        return true;
    }
    if (!in_image(b, o, 12)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BIT at 0x%x: header truncated", o);
    }
    size = rd08(b, o + 9);
    n = rd08(b, o + 10);
    if (size < 6 || !in_image(b, o + 12, n * size)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BIT at 0x%x: %u entries of %u bytes do "
             "not fit in the image", o, n, size);
    }
    if (n > NVBIOS_MAX_BIT) {
        FAIL(NVBIOS_ERR_TRUNCATED, "BIT at 0x%x: %u entries, more than %d",
             o, n, NVBIOS_MAX_BIT);
    }
    if (rd08(b, o + 8) != 12) {
        nvbios_warn(b, "BIT at 0x%x: header size %u, nouveau assumes 12", o,
                    rd08(b, o + 8));
    }
    if (nvbios_sum(b->data + o, 12)) {
        nvbios_warn(b, "BIT at 0x%x: header checksum 0x%02x, should be 0", o,
                    nvbios_sum(b->data + o, 12));
    }
    if (!nvbios_region(b, "BIT", o, 12 + n * size, errp)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = o + 12 + i * size;
        NVBiosBitEntry *be;
        char name[16];

        be = &b->bit[b->n_bit];
        be->offset = e;
        be->id = rd08(b, e);
        be->version = rd08(b, e + 1);
        be->length = rd16(b, e + 2);
        be->data = rd16(b, e + 4);
        if (!be->id) {
            continue;               /* padding */
        }
        if (nvbios_bit(b, be->id)) {
            nvbios_warn(b, "BIT entry '%c' at 0x%x is a duplicate; nouveau "
                        "uses the first", be->id, e);
        }
        b->n_bit++;
        if (!be->length) {
            continue;
        }
        snprintf(name, sizeof(name), "BIT '%c' data",
                 g_ascii_isprint(be->id) ? be->id : '?');
        if (!nvbios_region(b, name, be->data, be->length, errp)) {
            g_prefix_error(errp, "BIT entry at 0x%x: ", e);
            return false;
        }
    }

    /* 'i': version and feature byte, nouveau needs at least 6 bytes */
    {
        const NVBiosBitEntry *i = nvbios_bit(b, 'i');
        if (!i) {
            FAIL(NVBIOS_ERR_VERSION, "BIT at 0x%x has no 'i' entry, which "
                 "nouveau needs", o);
        }
        if (i->length < 6) {
            FAIL(NVBIOS_ERR_VERSION, "BIT 'i' at 0x%x is %u bytes; nouveau "
                 "needs 6", i->data, i->length);
        }
        for (int k = 0; k < 4; k++) {
            b->version[k] = rd08(b, i->data + k);
        }
        b->feature_byte = rd08(b, i->data + 5);
        if (i->length < 15) {
            nvbios_warn(b, "BIT 'i' at 0x%x is %u bytes: no DAC load "
                        "detection comparison table (nouveau warns)",
                        i->data, i->length);
        } else {
            b->daccmp_offset = rd16(b, i->data + 13);
        }
    }
    {
        const NVBiosBitEntry *init = nvbios_bit(b, 'I');
        if (!init) {
            FAIL(NVBIOS_ERR_VERSION, "BIT at 0x%x has no 'I' (init) entry, "
                 "which nouveau needs", o);
        }
        if (init->length < 14) {
            FAIL(NVBIOS_ERR_VERSION, "BIT 'I' at 0x%x is %u bytes; nouveau "
                 "needs 14", init->data, init->length);
        }
        b->init_table = init->data;
        b->init_table_len = init->length;
    }
    return true;
}

static bool parse_board(NVBios *b, GError **errp)
{
    uint32_t o = find(b, NVBIOS_BOARD_SIG, 8, b->image_size);

    if (!o) {
        return true;
    }
    if (!in_image(b, o, NVBIOS_BOARD_LEN)) {
        FAIL(NVBIOS_ERR_TRUNCATED, "board record at 0x%x truncated", o);
    }
    if (rd08(b, o + 8) != 1 || rd08(b, o + 9) != NVBIOS_BOARD_LEN) {
        FAIL(NVBIOS_ERR_VERSION, "board record at 0x%x: version %u length "
             "%u, expected version 1 length %u", o, rd08(b, o + 8),
             rd08(b, o + 9), NVBIOS_BOARD_LEN);
    }
    if (!nvbios_region(b, "board record", o, NVBIOS_BOARD_LEN, errp)) {
        return false;
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
           parse_board(bios, errp) && nvbios_parse_tables(bios, errp) &&
           nvbios_parse_dcb(bios, errp) && nvbios_parse_scripts(bios, errp);
}
