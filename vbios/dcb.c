/*
 * libnvbios: the Device Control Block (versions 1.5, 2.x, 3.0, 4.x) and
 * the tables it points to: I2C ports, GPIO lines, connectors.  Layouts as
 * Linux 6.1 reads them: nouveau_bios.c (olddcb_*, parse_dcb*_entry) and
 * nvkm/subdev/bios/{dcb,i2c,gpio,conn}.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios-int.h"
#include <string.h>

const char *nvbios_gpio_func_name(uint8_t func)
{
    switch (func) {
    case 0x01: return "panel-power";
    case 0x04: return "vid0";
    case 0x05: return "vid1";
    case 0x06: return "vid2";
    case 0x09: return "fan";
    case 0x0c: return "tvdac0";
    case 0x10: return "therm-ext-power";
    case 0x1a: return "vid3";
    case 0x2d: return "tvdac1";
    case 0x3d: return "fan-sense";
    case 0xff: return "unused";
    default: return "unknown";
    }
}

/* DCB 1.5 packs an output differently; decode it into 2.0 fields as
 * parse_dcb15_entry does. */
static bool dcb15_entry(NVBiosDcbEntry *d, GError **errp)
{
    uint32_t conn = d->conn;

    switch (conn & 0xf) {
    case 0: d->type = NVBIOS_OUTPUT_ANALOG; break;
    case 1: d->type = NVBIOS_OUTPUT_TV; break;
    case 2:
    case 4: d->type = conn & 0x10 ? NVBIOS_OUTPUT_LVDS : NVBIOS_OUTPUT_TMDS;
        break;
    case 3: d->type = NVBIOS_OUTPUT_LVDS; break;
    default:
        FAIL(NVBIOS_ERR_VERSION, "DCB 1.5 entry at 0x%x: unknown output "
             "type %u (nouveau: \"Unknown DCB type\")", d->offset, conn & 0xf);
    }
    d->i2c = (conn >> 14) & 0xf;
    d->heads = ((conn >> 18) & 0x7) + 1;
    d->or_mask = d->heads;
    d->location = (conn >> 21) & 0xf;
    d->bus = (conn >> 25) & 0x7;
    d->connector = 0;
    return true;
}

static void dcb20_entry(NVBiosDcbEntry *d)
{
    uint32_t conn = d->conn;

    d->type = conn & 0xf;
    d->i2c = (conn >> 4) & 0xf;
    d->heads = (conn >> 8) & 0xf;
    d->connector = (conn >> 12) & 0xf;
    d->bus = (conn >> 16) & 0xf;
    d->location = (conn >> 20) & 0x3;
    d->or_mask = (conn >> 24) & 0xf;
}

/* I2C table: before 3.0, 16 entries of 4 bytes with no header; from 3.0 a
 * header (version, header size, count, entry size) first. */
static bool parse_i2c(NVBios *b, uint32_t i2c, GError **errp)
{
    uint32_t ihdr = 0, icnt = NVBIOS_MAX_I2C, ilen = 4;
    uint8_t ver = b->dcb_version;

    if (b->dcb_version >= 0x30) {
        if (!in_image(b, i2c, 4)) {
            FAIL(NVBIOS_ERR_POINTER, "I2C table pointer 0x%04x (DCB +4) is "
                 "outside the image", i2c);
        }
        ver = rd08(b, i2c);
        ihdr = rd08(b, i2c + 1);
        icnt = MIN(rd08(b, i2c + 2), NVBIOS_MAX_I2C);
        ilen = rd08(b, i2c + 3);
        if (ilen < 4) {
            FAIL(NVBIOS_ERR_VERSION, "I2C table at 0x%x: entry size %u "
                 "< 4", i2c, ilen);
        }
        if (ver >= 0x42) {
            FAIL(NVBIOS_ERR_VERSION, "I2C table at 0x%x: version 0x%02x "
                 "(a CCB nouveau does not support)", i2c, ver);
        }
    }
    if (!nvbios_region(b, "I2C table", i2c, ihdr + icnt * ilen, errp)) {
        return false;
    }
    b->i2c_offset = i2c;
    b->i2c_version = ver;
    for (uint32_t i = 0; i < icnt; i++) {
        NVBiosI2cPort *p = &b->i2c[i];
        uint32_t e = i2c + ihdr + i * ilen;

        if (ver >= 0x41) {
            uint32_t v = rd32(b, e);
            p->type = 0x80;                 /* PMGR */
            p->used = (v & 0x1f) != 0x1f || ((v >> 5) & 0x1f) != 0x1f;
            p->drive = v & 0x1f;
            p->sense = (v >> 5) & 0x1f;
            continue;
        }
        if (ver >= 0x30) {
            p->type = rd08(b, e + 3);
            p->used = p->type != 0xff;
        } else {
            p->type = rd08(b, e + 3) & 7;
            p->used = p->type != 7;
        }
        p->drive = rd08(b, e);
        p->sense = rd08(b, e + 1);
        if (p->type == NVBIOS_I2C_NV4E) {
            /* one register, at byte 1 (nouveau's dcb_i2c_parse) */
            p->drive = p->sense = rd08(b, e + 1);
        }
        if (p->used && p->type != 0 && p->type != 4 && p->type != 5 &&
            p->type != 6) {
            nvbios_warn(b, "I2C table at 0x%x: port %u has unknown type %u "
                        "(nouveau warns and ignores it)", i2c, i, p->type);
            p->used = false;
        }
    }
    return true;
}

/* GPIO table: DCB 3.0+ +0x0a, or DCB 2.2's pre-header at -0x0f. */
static bool parse_gpio(NVBios *b, uint8_t hdr, GError **errp)
{
    uint32_t dcb = b->dcb_offset, g = 0;
    uint8_t ver, ghdr, cnt, len;

    if (b->dcb_version >= 0x30 && hdr >= 0x0c) {
        g = rd16(b, dcb + 0x0a);
    } else if (b->dcb_version >= 0x22 && b->dcb_version < 0x30 &&
               dcb >= 0x0f && rd08(b, dcb - 1) >= 0x13) {
        g = rd16(b, dcb - 0x0f);
    }
    if (!g) {
        return true;
    }
    if (!in_image(b, g, 4)) {
        FAIL(NVBIOS_ERR_POINTER, "GPIO table pointer 0x%04x is outside the "
             "image", g);
    }
    ver = rd08(b, g);
    if (ver < 0x30) {
        ghdr = 3;
        cnt = rd08(b, g + 2);
        len = rd08(b, g + 1);
    } else if (ver <= 0x41) {
        ghdr = rd08(b, g + 1);
        cnt = rd08(b, g + 2);
        len = rd08(b, g + 3);
    } else {
        nvbios_warn(b, "GPIO table at 0x%x: version 0x%02x unknown, nouveau "
                    "ignores it", g, ver);
        return true;
    }
    if (!nvbios_table(b, "GPIO table", g, ghdr, cnt, len, NVBIOS_MAX_GPIO,
                      ver < 0x40 ? 2 : ver < 0x41 ? 4 : 5, errp)) {
        return false;
    }
    b->gpio_offset = g;
    b->gpio_version = ver;
    for (unsigned i = 0; i < cnt; i++) {
        uint32_t e = g + ghdr + i * len;
        NVBiosGpio *p = &b->gpio[b->n_gpio++];

        p->offset = e;
        if (ver < 0x40) {
            uint16_t v = rd16(b, e);
            p->raw = v;
            p->line = v & 0x1f;
            p->func = (v >> 5) & 0x3f;
            p->log[0] = (v >> 11) & 3;
            p->log[1] = (v >> 13) & 3;
            p->param = v >> 15;
        } else if (ver < 0x41) {
            uint32_t v = rd32(b, e);
            p->raw = v;
            p->line = v & 0x1f;
            p->func = (v >> 8) & 0xff;
            p->log[0] = (v >> 27) & 3;
            p->log[1] = (v >> 29) & 3;
            p->param = v >> 31;
        } else {
            uint32_t v = rd32(b, e);
            uint8_t v1 = rd08(b, e + 4);
            p->raw = v;
            p->line = v & 0x3f;
            p->func = (v >> 8) & 0xff;
            p->log[0] = (v1 >> 4) & 3;
            p->log[1] = (v1 >> 6) & 3;
            p->param = v >> 31;
        }
    }
    return true;
}

/* Connector table (DCB 3.0+ with a header of at least 0x16 bytes). */
static bool parse_conn(NVBios *b, uint8_t hdr, GError **errp)
{
    uint32_t c, chdr, ccnt, clen;

    if (b->dcb_version < 0x30 || hdr < 0x16 || !rd16(b, b->dcb_offset + 0x14)) {
        return true;
    }
    c = rd16(b, b->dcb_offset + 0x14);
    if (!in_image(b, c, 4)) {
        FAIL(NVBIOS_ERR_POINTER, "connector table pointer 0x%04x (DCB "
             "+0x14) is outside the image", c);
    }
    b->conn_version = rd08(b, c);
    chdr = rd08(b, c + 1);
    ccnt = rd08(b, c + 2);
    clen = rd08(b, c + 3);
    if (b->conn_version < 0x30 || b->conn_version > 0x40) {
        nvbios_warn(b, "connector table at 0x%x: version 0x%02x, nouveau "
                    "ignores it", c, b->conn_version);
        return true;
    }
    if (clen > 4) {
        FAIL(NVBIOS_ERR_VERSION, "connector table at 0x%x: entry size %u, "
             "expected 2 to 4", c, clen);
    }
    if (!nvbios_table(b, "connector table", c, chdr, ccnt, clen,
                      NVBIOS_MAX_CONN, 2, errp)) {
        return false;
    }
    b->conn_offset = c;
    b->n_conn = ccnt;
    for (unsigned i = 0; i < ccnt; i++) {
        uint32_t e = c + chdr + i * clen;
        NVBiosConn *k = &b->conn[i];
        k->offset = e;
        k->raw = clen >= 4 ? rd32(b, e) : rd16(b, e);
        k->type = rd08(b, e);
        k->location = rd08(b, e + 1) & 0xf;
    }
    return true;
}

bool nvbios_parse_dcb(NVBios *b, GError **errp)
{
    uint32_t dcb = rd16(b, 0x36), i2c = 0, hdr, len, cnt;

    if (!dcb) {
        return true;
    }
    if (!in_image(b, dcb, 8)) {
        FAIL(NVBIOS_ERR_POINTER, "DCB pointer at 0x36 (0x%04x) points "
             "outside the image", dcb);
    }
    b->dcb_version = rd08(b, dcb);
    if (b->dcb_version >= 0x42) {
        FAIL(NVBIOS_ERR_VERSION, "DCB at 0x%x: version 0x%02x not supported "
             "(1.5 .. 4.1 are)", dcb, b->dcb_version);
    }
    if (b->dcb_version < 0x15) {
        nvbios_warn(b, "DCB at 0x%x: version %d.%d holds no useful data; "
                    "nouveau ignores it", dcb, b->dcb_version >> 4,
                    b->dcb_version & 0xf);
        b->dcb_version = 0;
        return true;
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
        if (hdr < 8) {
            FAIL(NVBIOS_ERR_VERSION, "DCB at 0x%x: header length %u < 8",
                 dcb, hdr);
        }
        if (hdr < 23) {
            /* nouveau reads what it needs; parsers written from real
             * dumps (envytools' nvbios) want the 23 bytes those have */
            nvbios_warn(b, "DCB %d.%d at 0x%x: header length %u, real "
                        "images' is 23", b->dcb_version >> 4,
                        b->dcb_version & 0xf, dcb, hdr);
        }
    } else if (b->dcb_version >= 0x20) {
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
    } else {
        if (dcb < 7 || memcmp(b->data + dcb - 7, "DEV_REC", 7)) {
            FAIL(NVBIOS_ERR_SIGNATURE, "DCB 1.5 at 0x%x: not preceded by "
                 "\"DEV_REC\"", dcb);
        }
        i2c = rd16(b, dcb + 2);
        hdr = 4;
        len = 10;
        if (i2c <= dcb) {
            FAIL(NVBIOS_ERR_POINTER, "DCB 1.5 at 0x%x: I2C table pointer "
                 "0x%04x must follow the DCB entries", dcb, i2c);
        }
        cnt = (i2c - dcb) / 10;
    }
    b->dcb_offset = dcb;

    for (uint32_t idx = 0; idx < cnt; idx++) {
        uint32_t e = dcb + hdr + idx * len;
        uint32_t conn;
        NVBiosDcbEntry *d;

        if (!in_image(b, e, len)) {
            FAIL(NVBIOS_ERR_TRUNCATED, "DCB at 0x%x: entry %u at 0x%x runs "
                 "past the image", dcb, idx, e);
        }
        conn = rd32(b, e);
        if (conn == 0 || conn == 0xffffffff ||
            (conn & 0xf) == NVBIOS_OUTPUT_EOL) {
            cnt = idx + 1;          /* the table ends at its end marker */
            break;
        }
        if ((conn & 0xf) == NVBIOS_OUTPUT_UNUSED) {
            continue;
        }
        if (b->n_dcb >= NVBIOS_MAX_DCB) {
            FAIL(NVBIOS_ERR_TRUNCATED, "DCB at 0x%x: more than %d entries "
                 "and no end marker", dcb, NVBIOS_MAX_DCB);
        }
        d = &b->dcb[b->n_dcb++];
        d->offset = e;
        d->conn = conn;
        d->conf = rd32(b, e + (b->dcb_version >= 0x20 ? 4 : 6));
        if (b->dcb_version >= 0x20) {
            dcb20_entry(d);
        } else if (!dcb15_entry(d, errp)) {
            return false;
        }
    }
    if (!nvbios_region(b, "DCB", dcb, hdr + cnt * len, errp)) {
        return false;
    }
    if (b->dcb_version < 0x20 &&
        !nvbios_region(b, "DCB DEV_REC", dcb - 7, 7, errp)) {
        return false;
    }

    if (i2c && !parse_i2c(b, i2c, errp)) {
        return false;
    }
    if (!parse_gpio(b, hdr, errp) || !parse_conn(b, hdr, errp)) {
        return false;
    }
    for (unsigned i = 0; i < b->n_dcb; i++) {
        const NVBiosDcbEntry *d = &b->dcb[i];
        if (b->i2c_offset && d->i2c != 0xf && d->type != NVBIOS_OUTPUT_TMDS &&
            !(d->type == NVBIOS_OUTPUT_TV && d->location == 0) &&
            !b->i2c[d->i2c].used) {
            FAIL(NVBIOS_ERR_POINTER, "DCB entry %u at 0x%x: uses I2C port "
                 "%u, which the I2C table marks unused", i, d->offset, d->i2c);
        }
        if (b->n_conn && d->connector >= b->n_conn) {
            nvbios_warn(b, "DCB entry %u at 0x%x: connector %u is not in the "
                        "connector table (%u entries)", i, d->offset,
                        d->connector, b->n_conn);
        }
        if (!d->heads) {
            nvbios_warn(b, "DCB entry %u at 0x%x: can drive no head", i,
                        d->offset);
        }
    }
    return true;
}
