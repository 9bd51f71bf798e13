/*
 * libnvbios: human-readable and JSON dumps of a parsed image.
 * The JSON schema is stable (vbios/SCHEMA.md): tests and the harness
 * read it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios-int.h"

static const char *ram_name(uint8_t t)
{
    static const char *names[] = { "sdram", "ddr", "sgram" };
    return t < G_N_ELEMENTS(names) ? names[t] : "unknown";
}

static const char *conn_type_name(uint8_t t)
{
    switch (t) {
    case 0x00: return "vga";
    case 0x01: return "composite";
    case 0x02: return "svideo";
    case 0x03: return "component";
    case 0x10: return "dvi-a";
    case 0x30: return "dvi-i";
    case 0x31: return "dvi-d";
    case 0x40: return "lvds";
    case 0xff: return "unused";
    default: return "unknown";
    }
}

/* ---- text ---------------------------------------------------------------- */

static void text_script(const NVBios *b, uint32_t off, GString *out)
{
    for (unsigned steps = 0; steps < 4096; steps++) {
        GError *err = NULL;
        size_t n;

        g_string_append(out, "    ");
        n = nvbios_disasm(b, off, out, &err);
        if (!n) {
            g_string_append_printf(out, "(%s)\n", err->message);
            g_error_free(err);
            return;
        }
        if (b->data[off] == 0x71) {
            return;
        }
        off += n;
    }
}

static void text_pll(const NVBiosPll *p, GString *out)
{
    g_string_append_printf(out, "  0x%04x: reg 0x%06x VCO1 %u-%u kHz (in "
                           "%u-%u) N %u-%u M %u-%u; VCO2 %u-%u kHz (in %u-%u) "
                           "N %u-%u M %u-%u; max P %u bias %u refclk %u\n",
                           p->offset, p->reg, p->vco1_min, p->vco1_max,
                           p->vco1_min_in, p->vco1_max_in, p->vco1_min_n,
                           p->vco1_max_n, p->vco1_min_m, p->vco1_max_m,
                           p->vco2_min, p->vco2_max, p->vco2_min_in,
                           p->vco2_max_in, p->vco2_min_n, p->vco2_max_n,
                           p->vco2_min_m, p->vco2_max_m, p->max_p, p->bias_p,
                           p->refclk);
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
                               "i2c crt %u tv %u panel %u, VCO %u-%u kHz\n",
                               b->bmp_major, b->bmp_minor, b->bmp_offset,
                               b->version[3], b->version[2], b->version[1],
                               b->version[0], b->feature_byte, b->i2c_crt,
                               b->i2c_tv, b->i2c_panel, b->fminvco,
                               b->fmaxvco);
    }
    if (b->bit_offset) {
        g_string_append_printf(out, "BIT at 0x%04x, version %02x.%02x.%02x."
                               "%02x, feature byte 0x%02x, %u entries:\n",
                               b->bit_offset, b->version[3], b->version[2],
                               b->version[1], b->version[0], b->feature_byte,
                               b->n_bit);
        for (unsigned i = 0; i < b->n_bit; i++) {
            const NVBiosBitEntry *e = &b->bit[i];
            g_string_append_printf(out, "  '%c' version %u, %u bytes at "
                                   "0x%04x\n", e->id, e->version, e->length,
                                   e->data);
        }
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
    if (b->init_table) {
        g_string_append_printf(out, "init table at 0x%04x (%u bytes): "
                               "scripts 0x%04x macro index 0x%04x macros "
                               "0x%04x conditions 0x%04x io conditions "
                               "0x%04x io flag conditions 0x%04x functions "
                               "0x%04x\n", b->init_table, b->init_table_len,
                               b->script_table, b->macro_index_table,
                               b->macro_table, b->condition_table,
                               b->io_condition_table,
                               b->io_flag_condition_table, b->function_table);
    }
    if (b->daccmp_offset) {
        g_string_append_printf(out, "DAC load table %d.%d at 0x%04x: DAC "
                               "0x%08x TV 0x%08x\n", b->daccmp_version >> 4,
                               b->daccmp_version & 0xf, b->daccmp_offset,
                               b->dactestval, b->tvdactestval);
    }
    if (b->tmds_offset) {
        g_string_append_printf(out, "TMDS table %d.%d at 0x%04x\n",
                               b->tmds_version >> 4, b->tmds_version & 0xf,
                               b->tmds_offset);
    }
    if (b->tmds_script[0] || b->tmds_script[1]) {
        g_string_append_printf(out, "TMDS output clock tables: 0x%04x "
                               "0x%04x\n", b->tmds_script[0],
                               b->tmds_script[1]);
        for (int t = 0; t < 2; t++) {
            for (unsigned i = 0; i < b->n_tmds_clk[t]; i++) {
                g_string_append_printf(out, "  output %d from %u kHz: script "
                                       "0x%04x\n", t,
                                       b->tmds_clk[t][i].min_khz,
                                       b->tmds_clk[t][i].script);
            }
        }
    }
    if (b->fp_table || b->lvds_manufacturer) {
        g_string_append_printf(out, "flat panel table 0x%04x, LVDS "
                               "manufacturer table 0x%04x\n", b->fp_table,
                               b->lvds_manufacturer);
    }
    if (b->fp_version == 0x20) {
        g_string_append_printf(out, "flat panel table 2.0: %u records, "
                               "minimum front porch %u\n", b->n_fp_modes,
                               b->fp_min_front_porch);
        for (unsigned i = 0; i < b->n_fp_modes; i++) {
            const NVBiosFpMode *m = &b->fp_mode[i];

            if (m->clock_khz) {
                g_string_append_printf(out, "  mode %u: %u kHz %u %u %u %u "
                                       "%u %u %u %u %chsync %cvsync\n", i,
                                       m->clock_khz, m->hdisplay,
                                       m->hsync_start, m->hsync_end,
                                       m->htotal, m->vdisplay, m->vsync_start,
                                       m->vsync_end, m->vtotal,
                                       m->phsync ? '+' : '-',
                                       m->pvsync ? '+' : '-');
            }
        }
    }
    if (b->lvds_version == 0x30) {
        g_string_append_printf(out, "LVDS table 3.0: dual link from %u kHz, "
                               "strapless 24-bit mask 0x%02x, panel on "
                               "0x%04x 0x%04x, off 0x%04x 0x%04x\n",
                               b->lvds_duallink_khz, b->lvds_strapless_24bit,
                               b->lvds_panel_on[0], b->lvds_panel_on[1],
                               b->lvds_panel_off[0], b->lvds_panel_off[1]);
        for (unsigned i = 0; i < b->n_lvds_records; i++) {
            g_string_append_printf(out, "  strap %u: conf 0x%02x fp mode "
                                   "%u\n", i, b->lvds_record[i].conf,
                                   b->lvds_record[i].fp_index);
        }
        for (int t = 0; t < 8; t++) {
            for (unsigned i = 0; i < b->n_lvds_reset[t]; i++) {
                g_string_append_printf(out, "  reset %d from %u kHz: script "
                                       "0x%04x\n", t,
                                       b->lvds_reset[t][i].min_khz,
                                       b->lvds_reset[t][i].script);
            }
        }
    }
    if (b->ram_restrict_table || b->ram_restrict_count) {
        g_string_append_printf(out, "RAM restrict: %u configurations, "
                               "strap table 0x%04x\n", b->ram_restrict_count,
                               b->ram_restrict_table);
    }
    if (b->pll_offset) {
        g_string_append_printf(out, "PLL limits %d.%d at 0x%04x, %u "
                               "records\n", b->pll_version >> 4,
                               b->pll_version & 0xf, b->pll_offset, b->n_pll);
        for (unsigned i = 0; i < b->n_pll; i++) {
            text_pll(&b->pll[i], out);
        }
    }
    if (b->perf_offset) {
        g_string_append_printf(out, "performance table %d.%d at 0x%04x, %u "
                               "levels\n", b->perf_version >> 4,
                               b->perf_version & 0xf, b->perf_offset,
                               b->n_perf);
        for (unsigned i = 0; i < b->n_perf; i++) {
            g_string_append_printf(out, "  0x%02x: core %u kHz memory %u "
                                   "kHz\n", b->perf[i].pstate,
                                   b->perf[i].core, b->perf[i].memory);
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
        g_string_append_printf(out, "connector table %d.%d at 0x%04x, %u "
                               "entries\n", b->conn_version >> 4,
                               b->conn_version & 0xf, b->conn_offset,
                               b->n_conn);
        for (unsigned i = 0; i < b->n_conn; i++) {
            g_string_append_printf(out, "  %02u: %08x %s\n", i,
                                   b->conn[i].raw,
                                   conn_type_name(b->conn[i].type));
        }
    }
    if (b->i2c_offset) {
        g_string_append_printf(out, "I2C table at 0x%04x\n", b->i2c_offset);
        for (int i = 0; i < NVBIOS_MAX_I2C; i++) {
            if (b->i2c[i].used && b->i2c[i].type == NVBIOS_I2C_NV4E) {
                g_string_append_printf(out, "  port %d: type %u PCRTC 0x%06x\n",
                                       i, b->i2c[i].type,
                                       0x600800 + b->i2c[i].drive);
            } else if (b->i2c[i].used) {
                g_string_append_printf(out, "  port %d: type %u drive CR%02X "
                                       "sense CR%02X\n", i, b->i2c[i].type,
                                       b->i2c[i].drive, b->i2c[i].sense);
            }
        }
    }
    if (b->gpio_offset) {
        g_string_append_printf(out, "GPIO table %d.%d at 0x%04x, %u "
                               "entries\n", b->gpio_version >> 4,
                               b->gpio_version & 0xf, b->gpio_offset,
                               b->n_gpio);
        for (unsigned i = 0; i < b->n_gpio; i++) {
            const NVBiosGpio *g = &b->gpio[i];
            g_string_append_printf(out, "  %02u: line %u func 0x%02x (%s) "
                                   "log %u/%u%s\n", i, g->line, g->func,
                                   nvbios_gpio_func_name(g->func), g->log[0],
                                   g->log[1], g->param ? " param" : "");
        }
    }
    for (unsigned i = 0; i < b->n_scripts; i++) {
        g_string_append_printf(out, "init script %u at 0x%04x:\n", i,
                               b->scripts[i]);
        text_script(b, b->scripts[i], out);
    }
    for (unsigned i = 0; i < b->n_warnings; i++) {
        g_string_append_printf(out, "warning: %s\n", b->warnings[i]);
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_str(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            g_string_append_c(out, '\\');
            g_string_append_c(out, *s);
        } else if ((unsigned char)*s < 0x20) {
            g_string_append_printf(out, "\\u%04x", *s);
        } else {
            g_string_append_c(out, *s);
        }
    }
    g_string_append_c(out, '"');
}

static void json_pll(const NVBiosPll *p, GString *out)
{
    g_string_append_printf(out, "{\"offset\": %u, \"reg\": %u, "
                           "\"vco1\": {\"min\": %u, \"max\": %u, \"min_in\": %u, "
                           "\"max_in\": %u, \"min_n\": %u, \"max_n\": %u, "
                           "\"min_m\": %u, \"max_m\": %u}, "
                           "\"vco2\": {\"min\": %u, \"max\": %u, \"min_in\": %u, "
                           "\"max_in\": %u, \"min_n\": %u, \"max_n\": %u, "
                           "\"min_m\": %u, \"max_m\": %u}, "
                           "\"max_p\": %u, \"bias_p\": %u, \"refclk\": %u}",
                           p->offset, p->reg, p->vco1_min, p->vco1_max,
                           p->vco1_min_in, p->vco1_max_in, p->vco1_min_n,
                           p->vco1_max_n, p->vco1_min_m, p->vco1_max_m,
                           p->vco2_min, p->vco2_max, p->vco2_min_in,
                           p->vco2_max_in, p->vco2_min_n, p->vco2_max_n,
                           p->vco2_min_m, p->vco2_max_m, p->max_p, p->bias_p,
                           p->refclk);
}

static void json_clocks(const NVBiosClk *clk, unsigned n, GString *out)
{
    g_string_append(out, "[");
    for (unsigned i = 0; i < n; i++) {
        g_string_append_printf(out, "%s{\"min_khz\": %u, \"script\": %u}",
                               i ? ", " : "", clk[i].min_khz, clk[i].script);
    }
    g_string_append(out, "]");
}

/* "fp": the 2.0 flat panel table's modes (null for an empty record) */
static void json_fp(const NVBios *b, GString *out)
{
    g_string_append_printf(out, "  \"fp\": {\"version\": %u, "
                           "\"min_front_porch\": %u, \"modes\": [",
                           b->fp_version, b->fp_min_front_porch);
    for (unsigned i = 0; i < b->n_fp_modes; i++) {
        const NVBiosFpMode *m = &b->fp_mode[i];

        g_string_append(out, i ? ", " : "");
        if (!m->clock_khz) {
            g_string_append(out, "null");
            continue;
        }
        g_string_append_printf(out, "{\"clock_khz\": %u, \"h\": [%u, %u, "
                               "%u, %u], \"v\": [%u, %u, %u, %u], "
                               "\"phsync\": %s, \"pvsync\": %s}",
                               m->clock_khz, m->hdisplay, m->hsync_start,
                               m->hsync_end, m->htotal, m->vdisplay,
                               m->vsync_start, m->vsync_end, m->vtotal,
                               m->phsync ? "true" : "false",
                               m->pvsync ? "true" : "false");
    }
    g_string_append(out, "]},\n");
}

/* "lvds": the 3.0 LVDS table */
static void json_lvds(const NVBios *b, GString *out)
{
    g_string_append_printf(out, "  \"lvds\": {\"version\": %u, "
                           "\"duallink_khz\": %u, \"strapless_24bit\": %u, "
                           "\"panel_on\": [%u, %u], \"panel_off\": [%u, %u], "
                           "\"records\": [", b->lvds_version,
                           b->lvds_duallink_khz, b->lvds_strapless_24bit,
                           b->lvds_panel_on[0], b->lvds_panel_on[1],
                           b->lvds_panel_off[0], b->lvds_panel_off[1]);
    for (unsigned i = 0; i < b->n_lvds_records; i++) {
        g_string_append_printf(out, "%s[%u, %u]", i ? ", " : "",
                               b->lvds_record[i].conf,
                               b->lvds_record[i].fp_index);
    }
    g_string_append(out, "], \"reset\": [");
    for (int t = 0; t < 8; t++) {
        g_string_append(out, t ? ", " : "");
        json_clocks(b->lvds_reset[t], b->n_lvds_reset[t], out);
    }
    g_string_append(out, "]},\n");
}

static void json_script(const NVBios *b, uint32_t off, GString *out)
{
    g_autoptr(GString) listing = g_string_new(NULL);

    g_string_append_printf(out, "{\"offset\": %u, \"insns\": [", off);
    for (unsigned steps = 0; steps < 4096; steps++) {
        size_t n;
        g_autoptr(GString) line = g_string_new(NULL);

        n = nvbios_disasm(b, off, line, NULL);
        if (!n) {
            break;
        }
        g_string_append_printf(out, "%s\"%s\"", steps ? ", " : "",
                               nvbios_opcode(b->data[off])->name);
        g_string_truncate(line, line->len - 1);     /* the newline */
        g_string_append(listing, steps ? ", " : "");
        json_str(listing, line->str);
        if (b->data[off] == 0x71) {
            break;
        }
        off += n;
    }
    g_string_append_printf(out, "], \"listing\": [%s]}", listing->str);
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
                               "\"i2c_tv\": %u, \"i2c_panel\": %u, "
                               "\"fmaxvco\": %u, \"fminvco\": %u, "
                               "\"duallink_clk\": %u},\n",
                               b->bmp_offset, b->bmp_major, b->bmp_minor,
                               b->version[3], b->version[2], b->version[1],
                               b->version[0], b->feature_byte, b->i2c_crt,
                               b->i2c_tv, b->i2c_panel, b->fmaxvco,
                               b->fminvco, b->duallink_clk);
    } else {
        g_string_append(out, "  \"bmp\": null,\n");
    }
    g_string_append_printf(out, "  \"bit_offset\": %u,\n  \"bit\": [",
                           b->bit_offset);
    for (unsigned i = 0; i < b->n_bit; i++) {
        const NVBiosBitEntry *e = &b->bit[i];
        char id[2] = { g_ascii_isprint(e->id) ? e->id : '?', 0 };
        g_string_append_printf(out, "%s\n    {\"id\": ", i ? "," : "");
        json_str(out, id);
        g_string_append_printf(out, ", \"version\": %u, \"length\": %u, "
                               "\"offset\": %u}", e->version, e->length,
                               e->data);
    }
    g_string_append_printf(out, "],\n  \"version\": \"%02x.%02x.%02x.%02x\","
                           "\n  \"feature_byte\": %u,\n", b->version[3],
                           b->version[2], b->version[1], b->version[0],
                           b->feature_byte);
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
    g_string_append_printf(out, "  \"init_table\": {\"offset\": %u, "
                           "\"length\": %u, \"scripts\": %u, "
                           "\"macro_index\": %u, \"macros\": %u, "
                           "\"conditions\": %u, \"io_conditions\": %u, "
                           "\"io_flag_conditions\": %u, \"functions\": %u},\n",
                           b->init_table, b->init_table_len, b->script_table,
                           b->macro_index_table, b->macro_table,
                           b->condition_table, b->io_condition_table,
                           b->io_flag_condition_table, b->function_table);
    g_string_append_printf(out, "  \"daccmp\": {\"offset\": %u, \"version\": "
                           "%u, \"dac\": %u, \"tv\": %u},\n", b->daccmp_offset,
                           b->daccmp_version, b->dactestval, b->tvdactestval);
    g_string_append_printf(out, "  \"tmds\": {\"offset\": %u, \"version\": %u, "
                           "\"output_tables\": [%u, %u], \"clocks\": [",
                           b->tmds_offset, b->tmds_version, b->tmds_script[0],
                           b->tmds_script[1]);
    for (int t = 0; t < 2; t++) {
        g_string_append(out, t ? ", " : "");
        json_clocks(b->tmds_clk[t], b->n_tmds_clk[t], out);
    }
    g_string_append(out, "]},\n");
    g_string_append_printf(out, "  \"fp_table\": %u,\n  \"lvds_manufacturer\": "
                           "%u,\n  \"ram_restrict\": {\"count\": %u, "
                           "\"table\": %u},\n", b->fp_table,
                           b->lvds_manufacturer, b->ram_restrict_count,
                           b->ram_restrict_table);
    json_fp(b, out);
    json_lvds(b, out);
    g_string_append_printf(out, "  \"pll\": {\"offset\": %u, \"version\": %u, "
                           "\"entries\": [", b->pll_offset, b->pll_version);
    for (unsigned i = 0; i < b->n_pll; i++) {
        g_string_append(out, i ? ",\n    " : "\n    ");
        json_pll(&b->pll[i], out);
    }
    g_string_append_printf(out, "]},\n  \"perf\": {\"offset\": %u, "
                           "\"version\": %u, \"levels\": [", b->perf_offset,
                           b->perf_version);
    for (unsigned i = 0; i < b->n_perf; i++) {
        g_string_append_printf(out, "%s\n    {\"offset\": %u, \"pstate\": %u, "
                               "\"core\": %u, \"memory\": %u}", i ? "," : "",
                               b->perf[i].offset, b->perf[i].pstate,
                               b->perf[i].core, b->perf[i].memory);
    }
    g_string_append_printf(out, "]},\n  \"dcb\": {\"offset\": %u, \"version\": "
                           "%u, \"entries\": [", b->dcb_offset,
                           b->dcb_version);
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
    g_string_append_printf(out, "]},\n  \"connectors\": {\"offset\": %u, "
                           "\"version\": %u, \"entries\": [", b->conn_offset,
                           b->conn_version);
    for (unsigned i = 0; i < b->n_conn; i++) {
        g_string_append_printf(out, "%s\n    {\"offset\": %u, \"raw\": %u, "
                               "\"type\": \"%s\", \"location\": %u}",
                               i ? "," : "", b->conn[i].offset, b->conn[i].raw,
                               conn_type_name(b->conn[i].type),
                               b->conn[i].location);
    }
    g_string_append_printf(out, "]},\n  \"i2c_table\": {\"offset\": %u, "
                           "\"version\": %u},\n  \"i2c\": [", b->i2c_offset,
                           b->i2c_version);
    for (int i = 0, first = 1; i < NVBIOS_MAX_I2C; i++) {
        if (b->i2c_offset && b->i2c[i].used) {
            g_string_append_printf(out, "%s\n    {\"port\": %d, \"type\": %u, "
                                   "\"drive\": %u, \"sense\": %u}",
                                   first ? "" : ",", i, b->i2c[i].type,
                                   b->i2c[i].drive, b->i2c[i].sense);
            first = 0;
        }
    }
    g_string_append_printf(out, "],\n  \"gpio\": {\"offset\": %u, \"version\": "
                           "%u, \"entries\": [", b->gpio_offset,
                           b->gpio_version);
    for (unsigned i = 0; i < b->n_gpio; i++) {
        const NVBiosGpio *g = &b->gpio[i];
        g_string_append_printf(out, "%s\n    {\"offset\": %u, \"line\": %u, "
                               "\"func\": %u, \"name\": \"%s\", \"log\": "
                               "[%u, %u], \"param\": %s}", i ? "," : "",
                               g->offset, g->line, g->func,
                               nvbios_gpio_func_name(g->func), g->log[0],
                               g->log[1], g->param ? "true" : "false");
    }
    g_string_append(out, "]},\n  \"scripts\": [");
    for (unsigned i = 0; i < b->n_scripts; i++) {
        g_string_append(out, i ? ",\n    " : "\n    ");
        json_script(b, b->scripts[i], out);
    }
    g_string_append(out, "],\n  \"warnings\": [");
    for (unsigned i = 0; i < b->n_warnings; i++) {
        g_string_append(out, i ? ", " : "");
        json_str(out, b->warnings[i]);
    }
    g_string_append(out, "],\n  \"regions\": [");
    for (unsigned i = 0; i < b->n_regions; i++) {
        g_string_append_printf(out, "%s\n    {\"name\": ", i ? "," : "");
        json_str(out, b->regions[i].name);
        g_string_append_printf(out, ", \"start\": %u, \"length\": %u}",
                               b->regions[i].start, b->regions[i].len);
    }
    g_string_append(out, "]\n}\n");
}
