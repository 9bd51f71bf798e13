/*
 * libnvbios: human-readable and JSON dumps of a parsed image.
 * The JSON schema is stable: tests and the harness read it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"

static const char *ram_name(uint8_t t)
{
    static const char *names[] = { "sdram", "ddr", "sgram" };
    return t < G_N_ELEMENTS(names) ? names[t] : "unknown";
}

void nvbios_dump_text(const NVBios *b, GString *out)
{
    g_string_append_printf(out, "ROM: %zu bytes, %u image(s); image 0: "
                           "%zu bytes, PCI %04x:%04x, checksum ok\n",
                           b->size, b->n_images, b->image_size,
                           b->vendor_id, b->device_id);
    if (b->bmp_offset) {
        g_string_append_printf(out, "BMP %u.%02x at 0x%04x, version "
                               "%02x.%02x.%02x.%02x, feature byte 0x%02x, "
                               "i2c crt %u tv %u panel %u\n", b->bmp_major,
                               b->bmp_minor, b->bmp_offset, b->version[3],
                               b->version[2], b->version[1], b->version[0],
                               b->feature_byte, b->i2c_crt, b->i2c_tv,
                               b->i2c_panel);
    }
    if (b->bit_offset) {
        g_string_append_printf(out, "BIT at 0x%04x\n", b->bit_offset);
    }
    if (b->has_board) {
        g_string_append_printf(out, "board record at 0x%04x: %u MiB %s, "
                               "strap 0x%08x, NVPLL 0x%08x, MPLL 0x%08x\n",
                               b->board.offset, b->board.vram_mb,
                               ram_name(b->board.ram_type), b->board.strap,
                               b->board.nvpll, b->board.mpll);
        if (b->board.tv_encoder) {
            g_string_append_printf(out, "  TV encoder CH7006 on I2C port %u "
                                   "at 0x%02x\n", b->board.tv_i2c_port,
                                   b->board.tv_i2c_addr);
        }
    }
    if (b->dcb_offset) {
        g_string_append_printf(out, "DCB %u.%u at 0x%04x, %u entries\n",
                               b->dcb_version >> 4, b->dcb_version & 0xf,
                               b->dcb_offset, b->n_dcb);
        for (unsigned i = 0; i < b->n_dcb; i++) {
            const NVBiosDcbEntry *d = &b->dcb[i];
            g_string_append_printf(out, "  %02u: %08x %08x %-4s i2c %u heads "
                                   "0x%x connector %u bus %u location %u "
                                   "or 0x%x\n", i, d->conn, d->conf,
                                   nvbios_output_type_name(d->type), d->i2c,
                                   d->heads, d->connector, d->bus,
                                   d->location, d->or_mask);
        }
    }
    if (b->conn_offset) {
        g_string_append_printf(out, "connector table at 0x%04x, %u entries\n",
                               b->conn_offset, b->n_conn);
    }
    if (b->i2c_offset) {
        g_string_append_printf(out, "I2C table at 0x%04x\n", b->i2c_offset);
        for (int i = 0; i < NVBIOS_MAX_I2C; i++) {
            if (b->i2c[i].used) {
                g_string_append_printf(out, "  port %d: type %u drive CR%02X "
                                       "sense CR%02X\n", i, b->i2c[i].type,
                                       b->i2c[i].drive, b->i2c[i].sense);
            }
        }
    }
    for (unsigned i = 0; i < b->n_scripts; i++) {
        uint32_t off = b->scripts[i];
        g_string_append_printf(out, "init script %u at 0x%04x:\n", i, off);
        for (;;) {
            size_t n;
            g_string_append(out, "  ");
            n = nvbios_disasm(b, off, out, NULL);
            if (!n || b->data[off] == 0x71) {
                break;
            }
            off += n;
        }
    }
}

void nvbios_dump_json(const NVBios *b, GString *out)
{
    g_string_append_printf(out, "{\n  \"size\": %zu,\n  \"images\": %u,\n"
                           "  \"image_size\": %zu,\n  \"vendor_id\": %u,\n"
                           "  \"device_id\": %u,\n", b->size, b->n_images,
                           b->image_size, b->vendor_id, b->device_id);
    if (b->bmp_offset) {
        g_string_append_printf(out, "  \"bmp\": {\"offset\": %u, \"major\": %u, "
                               "\"minor\": %u, \"version\": \"%02x.%02x.%02x.%02x\", "
                               "\"feature_byte\": %u, \"i2c_crt\": %u, "
                               "\"i2c_tv\": %u, \"i2c_panel\": %u},\n",
                               b->bmp_offset, b->bmp_major, b->bmp_minor,
                               b->version[3], b->version[2], b->version[1],
                               b->version[0], b->feature_byte, b->i2c_crt,
                               b->i2c_tv, b->i2c_panel);
    } else {
        g_string_append(out, "  \"bmp\": null,\n");
    }
    g_string_append_printf(out, "  \"bit_offset\": %u,\n", b->bit_offset);
    if (b->has_board) {
        g_string_append_printf(out, "  \"board\": {\"offset\": %u, "
                               "\"vram_mb\": %u, \"ram_type\": \"%s\", "
                               "\"strap\": %u, \"nvpll\": %u, \"mpll\": %u, "
                               "\"tv_encoder\": \"%s\", \"tv_i2c_port\": %u, "
                               "\"tv_i2c_addr\": %u},\n",
                               b->board.offset, b->board.vram_mb,
                               ram_name(b->board.ram_type), b->board.strap,
                               b->board.nvpll, b->board.mpll,
                               b->board.tv_encoder ? "ch7006" : "none",
                               b->board.tv_i2c_port, b->board.tv_i2c_addr);
    } else {
        g_string_append(out, "  \"board\": null,\n");
    }
    g_string_append_printf(out, "  \"dcb\": {\"offset\": %u, \"version\": %u, "
                           "\"entries\": [", b->dcb_offset, b->dcb_version);
    for (unsigned i = 0; i < b->n_dcb; i++) {
        const NVBiosDcbEntry *d = &b->dcb[i];
        g_string_append_printf(out, "%s\n    {\"offset\": %u, \"conn\": %u, "
                               "\"conf\": %u, \"type\": \"%s\", \"i2c\": %u, "
                               "\"heads\": %u, \"connector\": %u, \"bus\": %u, "
                               "\"location\": %u, \"or\": %u}", i ? "," : "",
                               d->offset, d->conn, d->conf,
                               nvbios_output_type_name(d->type), d->i2c,
                               d->heads, d->connector, d->bus, d->location,
                               d->or_mask);
    }
    g_string_append(out, "]},\n  \"i2c\": [");
    for (int i = 0, first = 1; i < NVBIOS_MAX_I2C; i++) {
        if (b->i2c_offset && b->i2c[i].used) {
            g_string_append_printf(out, "%s\n    {\"port\": %d, \"type\": %u, "
                                   "\"drive\": %u, \"sense\": %u}",
                                   first ? "" : ",", i, b->i2c[i].type,
                                   b->i2c[i].drive, b->i2c[i].sense);
            first = 0;
        }
    }
    g_string_append(out, "],\n  \"scripts\": [");
    for (unsigned i = 0; i < b->n_scripts; i++) {
        uint32_t off = b->scripts[i];
        g_string_append_printf(out, "%s\n    {\"offset\": %u, \"insns\": [",
                               i ? "," : "", off);
        for (int first = 1;; first = 0) {
            const NVBiosOpcode *op;
            size_t n = nvbios_insn_len(b, off, NULL);
            if (!n) {
                break;
            }
            op = nvbios_opcode(b->data[off]);
            g_string_append_printf(out, "%s\"%s\"", first ? "" : ", ",
                                   op->name);
            if (b->data[off] == 0x71) {
                break;
            }
            off += n;
        }
        g_string_append(out, "]}");
    }
    g_string_append(out, "]\n}\n");
}
