/*
 * libnvbios unit tests: build every board, parse it back and dump it; each
 * table version the builder writes; each kind of damage reported with the
 * table and offset it concerns (or, where nouveau would accept it, as a
 * warning); the regression inputs under tests/regress.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <glib/gstdio.h>
#include <string.h>

#define UNUSED G_GNUC_UNUSED

static GByteArray *build_board(const char *name)
{
    g_autofree char *path = g_build_filename(g_getenv("BOARDS_DIR"), name,
                                             NULL);
    GError *err = NULL;
    GByteArray *rom = nvbios_build_file(path, &err);
    g_assert_no_error(err);
    g_assert_nonnull(rom);
    return rom;
}

static GByteArray *build_text(const char *text, GError **errp)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_assert_true(g_key_file_load_from_data(kf, text, -1, 0, NULL));
    return nvbios_build(kf, errp);
}

static void parse_ok(GByteArray *rom, NVBios *b)
{
    GError *err = NULL;
    bool ok = nvbios_parse(b, rom->data, rom->len, &err);
    g_assert_no_error(err);
    g_assert_true(ok);
}

static void fix_checksum(GByteArray *rom)
{
    rom->data[rom->len - 1] = 0;
    rom->data[rom->len - 1] = 0x100 - nvbios_sum(rom->data, rom->len);
}

static void put16(GByteArray *r, uint32_t off, uint16_t v)
{
    r->data[off] = v;
    r->data[off + 1] = v >> 8;
}

/* ---- boards -------------------------------------------------------------- */

static void test_nv11_roundtrip(void)
{
    GByteArray *rom = build_board("nv11-ch7006.ini");
    g_autoptr(GString) json = g_string_new(NULL);
    NVBios b;

    parse_ok(rom, &b);
    g_assert_cmpuint(b.image_size, ==, 65536);
    g_assert_cmphex(b.vendor_id, ==, 0x10de);
    g_assert_cmphex(b.device_id, ==, 0x0110);
    g_assert_cmpuint(b.bmp_major, ==, 5);
    g_assert_cmphex(b.bmp_minor, ==, 0x06);
    g_assert_true(b.has_board);
    g_assert_cmpuint(b.board.vram_mb, ==, 32);
    g_assert_cmphex(b.board.strap, ==, 0x40);
    g_assert_cmpuint(b.board.tv_encoder, ==, NVBIOS_TV_ENCODER_CH7006);
    g_assert_cmpuint(b.board.tv_i2c_port, ==, 1);
    g_assert_cmphex(b.board.tv_i2c_addr, ==, 0x75);
    g_assert_cmphex(b.dcb_version, ==, 0x22);
    g_assert_cmpuint(b.n_dcb, ==, 2);
    g_assert_cmpuint(b.dcb[0].type, ==, NVBIOS_OUTPUT_ANALOG);
    g_assert_cmpuint(b.dcb[1].type, ==, NVBIOS_OUTPUT_TV);
    g_assert_cmpuint(b.dcb[1].i2c, ==, 1);
    g_assert_cmpuint(b.dcb[1].location, ==, 1);
    g_assert_true(b.i2c[1].used);
    g_assert_cmphex(b.i2c[1].drive, ==, 0x37);
    g_assert_cmphex(b.i2c[1].sense, ==, 0x36);
    g_assert_false(b.i2c[2].used);
    g_assert_cmpuint(b.n_scripts, ==, 1);
    g_assert_cmpuint(b.fmaxvco, ==, 350000);
    g_assert_cmpuint(b.fminvco, ==, 128000);
    g_assert_cmpuint(b.n_warnings, ==, 0);
    nvbios_dump_json(&b, json);
    g_assert_nonnull(strstr(json->str, "\"INIT_ZM_REG\", \"INIT_ZM_REG\", \"INIT_DONE\""));
    g_assert_nonnull(strstr(json->str, "reg=0x00009200 data=0x000000d9"));
    g_byte_array_unref(rom);
}

/*
 * base=: a board read over another one.  nv47 is nv43 with its own PCI ID,
 * VRAM and version: the rest of the image is byte for byte nv43's.  A base
 * that names itself, or a path, is refused with the file named.
 */
static void test_board_base(void)
{
    g_autoptr(GByteArray) a = build_board("nv43.ini");
    g_autoptr(GByteArray) b = build_board("nv47.ini");
    g_autofree char *dir = g_dir_make_tmp("nvbios-base-XXXXXX", NULL);
    g_autofree char *self = g_build_filename(dir, "loop.ini", NULL);
    g_autofree char *path = g_build_filename(dir, "path.ini", NULL);
    GError *err = NULL;
    NVBios pa, pb;
    unsigned differ = 0;

    parse_ok(a, &pa);
    parse_ok(b, &pb);
    g_assert_cmphex(pb.device_id, ==, 0x0091);
    g_assert_cmpuint(pb.board.vram_mb, ==, 256);
    g_assert_cmpuint(pa.board.vram_mb, ==, 128);
    g_assert_cmpuint(a->len, ==, b->len);
    g_assert_cmpuint(pb.n_dcb, ==, pa.n_dcb);
    g_assert_cmpmem(pb.dcb, sizeof(pb.dcb[0]) * pb.n_dcb,
                    pa.dcb, sizeof(pa.dcb[0]) * pa.n_dcb);
    for (guint i = 0; i < a->len; i++) {
        differ += a->data[i] != b->data[i];
    }
    g_assert_cmpuint(differ, >, 0);
    g_assert_cmpuint(differ, <, 16);   /* IDs, VRAM, version, checksum */

    g_assert_true(g_file_set_contents(self, "[board]\nbase=loop\n", -1, NULL));
    g_assert_null(nvbios_build_file(self, &err));
    g_assert_error(err, NVBIOS_ERROR, NVBIOS_ERR_BOARD);
    g_assert_nonnull(strstr(err->message, "loop.ini: base=loop"));
    g_clear_error(&err);
    g_assert_true(g_file_set_contents(path, "[board]\nbase=../nv43\n", -1, NULL));
    g_assert_null(nvbios_build_file(path, &err));
    g_assert_error(err, NVBIOS_ERROR, NVBIOS_ERR_BOARD);
    g_clear_error(&err);
    g_unlink(self);
    g_unlink(path);
    g_rmdir(dir);
}

/* Every board builds, parses with no warning, and dumps. */
static void test_all_boards(void)
{
    static const struct {
        const char *ini;
        uint16_t dev;
        uint8_t bmp_minor, dcb, pll;
        unsigned n_dcb, n_pll;
    } boards[] = {
        { "nv04.ini", 0x0020, 0x06, 0x00, 0x00, 0, 0 },
        { "nv05.ini", 0x0028, 0x01, 0x00, 0x00, 0, 0 },
        { "nv10.ini", 0x0100, 0x06, 0x15, 0x00, 1, 0 },
        { "nv11-ch7006.ini", 0x0110, 0x06, 0x22, 0x00, 2, 0 },
        { "nv17.ini", 0x0171, 0x27, 0x22, 0x11, 3, 1 },
        { "nv34.ini", 0x0322, 0x00, 0x30, 0x21, 2, 4 },     /* BIT: no BMP */
        { "nv43.ini", 0x0141, 0x00, 0x30, 0x21, 3, 4 },
        { "nv43-go.ini", 0x0144, 0x00, 0x30, 0x21, 2, 4 },
        { "nv43-go-strap.ini", 0x0144, 0x00, 0x30, 0x21, 2, 4 },
        { "nv40.ini", 0x0040, 0x00, 0x30, 0x21, 3, 4 },      /* base=nv43 */
        { "nv41.ini", 0x00c1, 0x00, 0x30, 0x21, 3, 4 },
        { "nv42.ini", 0x00c8, 0x00, 0x30, 0x21, 3, 4 },
        { "nv47.ini", 0x0091, 0x00, 0x30, 0x21, 3, 4 },
        { "nv49.ini", 0x0290, 0x00, 0x30, 0x21, 3, 4 },
        { "nv4b.ini", 0x0391, 0x00, 0x30, 0x21, 3, 4 },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(boards); i++) {
        GByteArray *rom = build_board(boards[i].ini);
        g_autoptr(GString) text = g_string_new(NULL);
        g_autoptr(GString) json = g_string_new(NULL);
        NVBios b;

        parse_ok(rom, &b);
        for (unsigned w = 0; w < b.n_warnings; w++) {
            g_printerr("%s: warning: %s\n", boards[i].ini, b.warnings[w]);
        }
        g_assert_cmpuint(b.n_warnings, ==, 0);
        g_assert_cmphex(b.device_id, ==, boards[i].dev);
        g_assert_cmphex(b.bmp_minor, ==, boards[i].bmp_minor);
        g_assert_true(b.bmp_offset || b.bit_offset);
        g_assert_cmphex(b.dcb_version, ==, boards[i].dcb);
        g_assert_cmpuint(b.n_dcb, ==, boards[i].n_dcb);
        g_assert_cmphex(b.pll_version, ==, boards[i].pll);
        g_assert_cmpuint(b.n_pll, ==, boards[i].n_pll);
        g_assert_cmpuint(b.n_scripts, ==, 1);
        g_assert_cmphex(b.data[b.scripts[0]], ==, 0x7a);
        nvbios_dump_text(&b, text);
        nvbios_dump_json(&b, json);
        g_assert_nonnull(strstr(text->str, "INIT_DONE"));
        g_assert_nonnull(strstr(json->str, "\"regions\""));
        g_byte_array_unref(rom);
    }
}

static void test_dcb15(void)
{
    GByteArray *rom = build_board("nv10.ini");
    NVBios b;

    parse_ok(rom, &b);
    g_assert_cmphex(b.dcb_version, ==, 0x15);
    g_assert_cmpmem(b.data + b.dcb_offset - 7, 7, "DEV_REC", 7);
    g_assert_cmpuint(b.dcb[0].type, ==, NVBIOS_OUTPUT_ANALOG);
    g_assert_cmpuint(b.dcb[0].heads, ==, 1);
    g_assert_cmpuint(b.dcb[0].or_mask, ==, 1);      /* = heads, as nouveau */
    g_assert_cmpuint(b.dcb[0].bus, ==, 1);
    g_assert_cmpuint(b.dcb[0].conf, ==, 35000);     /* at +6 in 1.5 */
    g_assert_true(b.i2c[0].used && b.i2c[1].used && !b.i2c[2].used);
    g_byte_array_unref(rom);
}

static void test_nv34_bit(void)
{
    GByteArray *rom = build_board("nv34.ini");
    const NVBiosPll *vpll;
    NVBios b;

    parse_ok(rom, &b);
    g_assert_cmpuint(b.bmp_offset, ==, 0);
    g_assert_cmpuint(b.bit_offset, !=, 0);
    g_assert_cmphex(b.version[3], ==, 0x04);
    g_assert_cmphex(b.version[2], ==, 0x34);
    for (const char *id = "iICDMPTL"; *id; id++) {
        g_assert_nonnull(nvbios_bit(&b, *id));
    }
    g_assert_cmphex(b.dcb_version, ==, 0x30);
    g_assert_cmpuint(b.data[b.dcb_offset + 1], ==, 23);     /* as real images */
    g_assert_cmpuint(nvbios_bit(&b, 'i')->version, ==, 2);
    g_assert_cmpuint(nvbios_bit(&b, 'i')->length, ==, 0x19);
    g_assert_cmphex(b.data[nvbios_bit(&b, 'i')->data + 0x17], ==, 0x22);  /* 0x0322 */
    g_assert_cmpuint(b.n_warnings, ==, 0);
    g_assert_cmpuint(b.n_dcb, ==, 2);
    g_assert_cmpuint(b.dcb[1].type, ==, NVBIOS_OUTPUT_TMDS);
    g_assert_cmpuint(b.n_conn, ==, 2);
    g_assert_cmphex(b.conn[1].type, ==, 0x31);
    g_assert_true(b.i2c[0].used && b.i2c[1].used && !b.i2c[2].used);
    g_assert_cmphex(b.i2c_version, ==, 0x30);
    g_assert_cmphex(b.gpio_version, ==, 0x30);
    g_assert_cmpuint(b.n_gpio, ==, 2);
    g_assert_cmphex(b.gpio[0].func, ==, 0x0c);
    g_assert_cmpuint(b.gpio[0].line, ==, 4);
    g_assert_cmpuint(b.gpio[0].log[1], ==, 1);
    g_assert_cmphex(b.gpio[1].func, ==, 0x2d);
    g_assert_cmphex(b.dactestval, ==, 0x14050140);
    g_assert_cmphex(b.tmds_version, ==, 0x11);
    /* the DVI output (OR B) has its scripts in output table 1; VBIOS 4.x
     * names them by their place in the script table, past its end */
    g_assert_cmpuint(b.n_tmds_clk[0], ==, 0);
    g_assert_cmpuint(b.n_tmds_clk[1], ==, 2);
    g_assert_cmpuint(b.tmds_clk[1][0].min_khz, ==, 165000);
    g_assert_cmpuint(b.tmds_clk[1][1].min_khz, ==, 0);
    g_assert_cmphex(b.data[b.tmds_clk[1][0].script], ==, 0x50);
    g_assert_cmphex(b.data[b.tmds_clk[1][1].script], ==, 0x50);
    g_assert_cmpuint(b.tmds_clk[1][0].script, !=, b.tmds_clk[1][1].script);
    g_assert_cmpuint(b.n_scripts, ==, 1);
    vpll = nvbios_pll(&b, 0x680508);
    g_assert_nonnull(vpll);
    g_assert_cmphex(vpll->reg, ==, 0x680508);
    g_assert_cmpuint(vpll->vco1_min, ==, 128000);
    g_assert_cmpuint(vpll->vco1_max, ==, 400000);
    g_assert_cmpuint(vpll->vco1_max_m, ==, 13);
    g_assert_cmpuint(vpll->vco2_max, ==, 0);        /* single stage */
    g_assert_cmpuint(vpll->max_p, ==, 6);
    /* a register with no record falls back to the first, as in nouveau */
    g_assert_true(nvbios_pll(&b, 0x123456) == &b.pll[0]);
    g_byte_array_unref(rom);
}

static void test_nv43_two_stage_perf(void)
{
    GByteArray *rom = build_board("nv43.ini");
    const NVBiosPll *p;
    NVBios b;

    parse_ok(rom, &b);
    p = nvbios_pll(&b, 0x680520);
    g_assert_cmphex(p->reg, ==, 0x680520);
    g_assert_cmpuint(p->vco2_min, ==, 400000);
    g_assert_cmpuint(p->vco2_max, ==, 1000000);
    g_assert_cmpuint(p->vco2_min_n, ==, 4);
    g_assert_cmpuint(p->vco2_max_n, ==, 40);
    g_assert_cmpuint(p->vco2_max_in, ==, 400000);
    g_assert_cmphex(nvbios_pll(&b, 0x4000)->reg, ==, 0x4000);
    g_assert_cmphex(b.perf_version, ==, 0x21);
    g_assert_cmpuint(b.n_perf, ==, 1);
    g_assert_cmphex(b.perf[0].pstate, ==, 0x0f);
    g_assert_cmpuint(b.perf[0].core, ==, 300000);
    g_assert_cmpuint(b.perf[0].memory, ==, 500000);
    /* VBIOS 5.x: 4-byte TMDS clock records with script pointers; the DVI
     * output has OR A */
    g_assert_cmpuint(b.n_tmds_clk[0], ==, 2);
    g_assert_cmpuint(b.n_tmds_clk[1], ==, 0);
    g_assert_cmphex(b.data[b.tmds_clk[0][0].script], ==, 0x50);
    g_assert_cmphex(b.data[b.tmds_clk[0][1].script], ==, 0x50);
    g_assert_cmpuint(b.tmds_clk[0][0].script, !=, b.tmds_clk[0][1].script);
    g_byte_array_unref(rom);
}

/* The mobile NV43: the 2.0 flat panel table and the 3.0 LVDS table, read
 * back as nouveau reads them, and their scripts walked. */
static void test_nv43_go_panel(void)
{
    GByteArray *rom = build_board("nv43-go.ini");
    g_autoptr(GString) json = g_string_new(NULL);
    const NVBiosFpMode *m;
    NVBios b;

    parse_ok(rom, &b);
    g_assert_true(b.feature_byte & 0x10);                   /* mobile */
    g_assert_cmphex(b.dcb[0].type, ==, NVBIOS_OUTPUT_LVDS);
    g_assert_cmphex(b.fp_version, ==, 0x20);
    g_assert_cmpuint(b.fp_min_front_porch, ==, 0x4b);
    g_assert_cmpuint(b.n_fp_modes, ==, 16);
    m = &b.fp_mode[1];
    g_assert_cmpuint(m->clock_khz, ==, 71000);
    g_assert_cmpuint(m->hdisplay, ==, 1280);
    g_assert_cmpuint(m->hsync_start, ==, 1328);
    g_assert_cmpuint(m->htotal, ==, 1440);
    g_assert_cmpuint(m->vdisplay, ==, 800);
    g_assert_cmpuint(m->vtotal, ==, 823);
    g_assert_true(m->phsync && !m->pvsync);
    g_assert_cmpuint(b.fp_mode[2].clock_khz, ==, 0);        /* empty */
    /* nouveau: the fp table's record, 7 bytes less than its 1.0 offsets */
    g_assert_cmpuint(b.data[b.fp_table + 5 + 37 + 11 - 7] |
                     b.data[b.fp_table + 5 + 37 + 12 - 7] << 8, ==, 1279);
    g_assert_cmphex(b.lvds_version, ==, 0x30);
    g_assert_cmpuint(b.lvds_duallink_khz, ==, 112000);
    g_assert_cmphex(b.lvds_strapless_24bit, ==, 0x03);
    g_assert_cmpuint(b.n_lvds_records, ==, 16);
    g_assert_cmpuint(b.lvds_record[1].conf, ==, 1);
    g_assert_cmpuint(b.lvds_record[1].fp_index, ==, 1);
    g_assert_cmpuint(b.lvds_record[15].fp_index, ==, 0xf);  /* DDC */
    /* nouveau's fpxlatetableptr: header + 1, by the strap */
    g_assert_cmpuint(b.data[b.lvds_manufacturer + b.data[b.lvds_manufacturer +
                     1] + 1 + 15 * 2], ==, 0xf);
    g_assert_cmphex(b.data[b.lvds_panel_on[0]], ==, 0x6e);  /* INIT_NV_REG */
    g_assert_cmphex(b.data[b.lvds_panel_off[0]], ==, 0x6e);
    g_assert_cmpuint(b.lvds_panel_on[1], ==, 0);
    g_assert_cmpuint(b.n_lvds_reset[0], ==, 1);
    g_assert_cmpuint(b.n_lvds_reset[2], ==, 1);
    g_assert_cmpuint(b.n_lvds_reset[4], ==, 0);
    g_assert_cmphex(b.lvds_reset[0][0].script, !=, b.lvds_reset[2][0].script);
    g_assert_cmphex(b.data[b.lvds_reset[2][0].script], ==, 0x50); /* ZM_TMDS_GROUP */
    nvbios_dump_json(&b, json);
    g_assert_nonnull(strstr(json->str, "\"h\": [1280, 1328, 1360, 1440]"));
    g_assert_nonnull(strstr(json->str, "\"duallink_khz\": 112000"));
    g_byte_array_unref(rom);
}

static void test_bmp_versions(void)
{
    GByteArray *rom = build_board("nv17.ini");
    NVBios b;

    parse_ok(rom, &b);
    g_assert_cmphex(b.bmp_minor, ==, 0x27);
    g_assert_cmpuint(b.init_table, ==, b.bmp_offset + 75);
    g_assert_cmphex(b.pll_version, ==, 0x11);
    g_assert_cmpuint(b.pll[0].reg, ==, 0);          /* every PLL */
    g_assert_cmpuint(b.pll[0].vco1_max, ==, 350000);
    g_assert_cmpuint(b.pll[0].vco1_min_in, ==, 1000);
    g_assert_true(nvbios_pll(&b, 0x680508) == &b.pll[0]);
    g_assert_cmpuint(b.duallink_clk, ==, 165000);
    g_byte_array_unref(rom);

    /* 5.01 has no VCO limits: nouveau's defaults */
    rom = build_board("nv05.ini");
    parse_ok(rom, &b);
    g_assert_cmphex(b.bmp_minor, ==, 0x01);
    g_assert_cmpuint(b.fmaxvco, ==, 256000);
    g_assert_cmpuint(b.fminvco, ==, 128000);
    g_assert_cmpuint(b.init_table, ==, 0);
    g_assert_cmpuint(b.n_scripts, ==, 1);
    g_byte_array_unref(rom);
}

/* DCB 4.0 with its I2C, GPIO and connector tables of the same version. */
static const char dcb40_board[] =
    "[board]\ndevice=0x0141\nbit=true\nbios_version=5.43.00.00\n"
    "vram_mb=128\ndcb_version=0x40\n"
    "[i2c]\nport0=0x3f;0x3e\nport2=0x51;0x50\n"
    "[gpio]\nentry0=4;0x0c;0;1\nentry1=9;0x84;1;0\n"
    "[output0]\ntype=crt\ni2c=0\nconf=0x23\nconnector_type=0x00\n"
    "[output1]\ntype=tmds\ni2c=2\nheads=3\nconnector=1\nor=2\n"
    "connector_type=0x31\n"
    "[init]\nscript0=zm_reg 0x9200 217\n";

static void test_dcb40(void)
{
    GError *err = NULL;
    GByteArray *rom = build_text(dcb40_board, &err);
    NVBios b;

    g_assert_no_error(err);
    parse_ok(rom, &b);
    g_assert_cmpuint(b.n_warnings, ==, 0);
    g_assert_cmphex(b.dcb_version, ==, 0x40);
    g_assert_cmpuint(b.n_dcb, ==, 2);
    g_assert_cmpuint(b.dcb[1].i2c, ==, 2);
    g_assert_cmpuint(b.dcb[1].or_mask, ==, 2);
    g_assert_cmphex(b.i2c_version, ==, 0x40);
    g_assert_true(b.i2c[2].used);
    g_assert_cmphex(b.i2c[2].drive, ==, 0x51);
    g_assert_cmphex(b.gpio_version, ==, 0x40);
    g_assert_cmphex(b.gpio[1].func, ==, 0x84);      /* 8-bit in 4.0 */
    g_assert_cmpuint(b.gpio[1].line, ==, 9);
    g_assert_cmpuint(b.gpio[1].log[0], ==, 1);
    g_assert_cmphex(b.conn_version, ==, 0x40);
    g_assert_cmpuint(b.n_conn, ==, 2);
    g_assert_cmphex(b.conn[1].raw, ==, 0x00000131);
    g_byte_array_unref(rom);
}

/*
 * C51's I2C ports (DCB type 4): the entry's byte 1 is the offset of a
 * PCRTC word from 0x600800 (nouveau's dcb_i2c_parse, envytools' "PCRTC");
 * the board file says "pcrtc:OFFSET", a word offset.
 */
static void test_nv4e_i2c(void)
{
    static const char *const bad[] = { "0x41", "0x100", "nowhere" };
    GByteArray *rom = build_board("nv4e.ini");
    GError *err = NULL;
    NVBios b;

    parse_ok(rom, &b);
    g_assert_true(b.i2c[0].used && b.i2c[1].used && !b.i2c[2].used);
    g_assert_cmpuint(b.i2c[0].type, ==, NVBIOS_I2C_NV4E);
    g_assert_cmphex(b.i2c[0].drive, ==, 0x40);
    g_assert_cmphex(b.i2c[0].sense, ==, 0x40);
    g_assert_cmphex(b.i2c[1].drive, ==, 0x44);
    g_assert_cmpuint(b.data[b.i2c_offset + 1], ==, 5);     /* as real images */
    g_assert_cmphex(b.data[b.i2c_offset + 5 + 1], ==, 0x40);
    g_assert_cmphex(b.data[b.i2c_offset + 5 + 3], ==, 0x04);
    g_byte_array_unref(rom);

    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *text = g_strdup_printf(
            "[board]\ndevice=0x0240\nbit=true\nbios_version=5.51.00.00\n"
            "vram_mb=64\ndcb_version=0x30\n[i2c]\nport0=pcrtc:%s\n"
            "[output0]\ntype=crt\ni2c=0\nconf=0x23\n", bad[i]);
        g_assert_null(build_text(text, &err));
        g_assert_error(err, NVBIOS_ERROR, NVBIOS_ERR_BOARD);
        g_assert_nonnull(strstr(err->message, "pcrtc:OFFSET"));
        g_clear_error(&err);
    }
}

/* Every opcode's table entry agrees with itself. */
static void test_opcode_table(void)
{
    unsigned n = 0;

    for (unsigned op = 0; op < 256; op++) {
        const NVBiosOpcode *o = nvbios_opcode(op);
        if (!o) {
            continue;
        }
        n++;
        g_assert_cmpuint(o->len, ==, 1 + nvbios_fields_size(o->args));
        if (o->count_at) {
            g_assert_cmpuint(o->elem, ==, nvbios_fields_size(o->elems));
            g_assert_cmpuint(o->count_at, <, o->len);
        }
        g_assert_true(nvbios_opcode_by_name(o->name) == o ||
                      !strcmp(o->name, "INIT_RESERVED"));
    }
    g_assert_cmpuint(n, ==, 69);        /* all of Linux 6.1's init.c */
}

/* Scripts in text form: counted elements, labels, sub-scripts. */
static void test_script_forms(void)
{
    static const char text[] =
        "[board]\ndevice=0x0171\nbmp_version=0x0510\n"
        "[init]\n"
        "script0=zm_cr_group 0x1f 0x57 0x20 0x00;"
        "zm_reg_sequence 0x680800 1 2 3;"
        "io_restrict_prog 0x3d4 0x28 0x03 0 0x680804 10 20 30 40;"
        "index_io 0x3d4 0x1a 0x7f 0x80;"
        "sub_direct @sub0;time 100;condition 0\n"
        "script1=sub 0\n"
        "sub0=nv_reg 0x1540 0xffff 0x0001;zm_i2c_byte 1 0xea 0x0e 0x01\n";
    GError *err = NULL;
    GByteArray *rom = build_text(text, &err);
    g_autoptr(GString) dump = g_string_new(NULL);
    uint32_t off;
    NVBios b;

    g_assert_no_error(err);
    parse_ok(rom, &b);
    g_assert_cmpuint(b.n_scripts, ==, 2);
    off = b.scripts[0];
    g_assert_cmphex(b.data[off], ==, 0x54);
    g_assert_cmpuint(b.data[off + 1], ==, 2);               /* counted */
    g_assert_cmpuint(nvbios_insn_len(&b, off, NULL), ==, 6);
    off += 6;
    g_assert_cmphex(b.data[off], ==, 0x58);
    g_assert_cmpuint(nvbios_insn_len(&b, off, NULL), ==, 6 + 3 * 4);
    off += 18;
    g_assert_cmphex(b.data[off], ==, 0x32);
    g_assert_cmpuint(b.data[off + 6], ==, 4);
    g_assert_cmpuint(nvbios_insn_len(&b, off, NULL), ==, 11 + 16);
    nvbios_dump_text(&b, dump);
    g_assert_nonnull(strstr(dump->str, "{addr=0x1f data=0x57} {addr=0x20 data=0x00}"));
    g_assert_nonnull(strstr(dump->str, "INIT_SUB_DIRECT        addr=0x"));
    g_byte_array_unref(rom);
}

/* ---- errors -------------------------------------------------------------- */

typedef void (*Damage)(GByteArray *rom, const NVBios *b);

/* Damage a board's image; expect an error of @code whose text has @needle,
 * or (code < 0) a warning with @needle. */
static void expect(const char *board, Damage damage, int code,
                   const char *needle)
{
    GByteArray *rom = build_board(board);
    GError *err = NULL;
    NVBios orig, b;

    parse_ok(rom, &orig);
    damage(rom, &orig);
    if (code < 0) {
        bool found = false;
        parse_ok(rom, &b);
        for (unsigned i = 0; i < b.n_warnings; i++) {
            found |= strstr(b.warnings[i], needle) != NULL;
        }
        if (!found) {
            g_error("%s: no warning mentions \"%s\" (%u warnings%s%s)", board,
                    needle, b.n_warnings, b.n_warnings ? ", first: " : "",
                    b.n_warnings ? b.warnings[0] : "");
        }
    } else {
        g_assert_false(nvbios_parse(&b, rom->data, rom->len, &err));
        g_assert_error(err, NVBIOS_ERROR, code);
        if (!strstr(err->message, needle)) {
            g_error("%s: error \"%s\" does not mention \"%s\"", board,
                    err->message, needle);
        }
        g_error_free(err);
    }
    g_byte_array_unref(rom);
}

static void truncate_half(GByteArray *r, UNUSED const NVBios *b) { g_byte_array_set_size(r, r->len / 2); }
static void truncate_tiny(GByteArray *r, UNUSED const NVBios *b) { g_byte_array_set_size(r, 100); }
static void bad_signature(GByteArray *r, UNUSED const NVBios *b) { r->data[0] = 0x12; fix_checksum(r); }
static void bad_checksum(GByteArray *r, UNUSED const NVBios *b) { r->data[0x1000] ^= 0x5a; }
/* as a RIVA TNT dump: sums to 0 over its size byte's length, past PCIR's */
static void legacy_size(GByteArray *r, UNUSED const NVBios *b)
{
    g_byte_array_set_size(r, r->len + 512);
    memset(r->data + r->len - 512, 0, 512);
    r->data[2]++;
    fix_checksum(r);
}
static void bad_pcir_ptr(GByteArray *r, UNUSED const NVBios *b) { put16(r, 0x18, 0xfff0); fix_checksum(r); }
static void bad_pcir_sig(GByteArray *r, UNUSED const NVBios *b) { r->data[0xa0] = 'X'; fix_checksum(r); }
static void bad_dcb_ptr(GByteArray *r, UNUSED const NVBios *b) { put16(r, 0x36, 0xfffc); fix_checksum(r); }
static void bad_dcb_sig(GByteArray *r, const NVBios *b)
{
    r->data[b->dcb_offset + (b->dcb_version >= 0x30 ? 6 : 4)] = 0;
    fix_checksum(r);
}
static void bad_dcb_version(GByteArray *r, const NVBios *b) { r->data[b->dcb_offset] = 0x50; fix_checksum(r); }
static void old_dcb_version(GByteArray *r, const NVBios *b) { r->data[b->dcb_offset] = 0x12; fix_checksum(r); }
static void dcb15_no_devrec(GByteArray *r, const NVBios *b) { r->data[b->dcb_offset - 7] = 'X'; fix_checksum(r); }
static void dcb15_bad_type(GByteArray *r, const NVBios *b) { r->data[b->dcb[0].offset] |= 0x07; fix_checksum(r); }
static void bad_bmp_sum(GByteArray *r, const NVBios *b) { r->data[b->bmp_offset + 7] ^= 1; fix_checksum(r); }
static void bad_bmp_version(GByteArray *r, const NVBios *b)
{
    r->data[b->bmp_offset + 5] = 6;
    r->data[b->bmp_offset + 7] -= 1;
    fix_checksum(r);
}
static void bad_opcode(GByteArray *r, const NVBios *b) { r->data[b->scripts[0]] = 0xee; fix_checksum(r); }
static void script_runs_off(GByteArray *r, const NVBios *b)
{
    /* turn every INIT_DONE into INIT_RESUME: the script never ends */
    for (guint i = b->scripts[0]; i < r->len - 1; i++) {
        r->data[i] = 0x72;
    }
    fix_checksum(r);
}
static void script_jumps_back(GByteArray *r, const NVBios *b)
{
    /* the second INIT_ZM_REG becomes INIT_JUMP to the script's start */
    uint32_t o = b->scripts[0] + 9;
    r->data[o] = 0x5c;
    put16(r, o + 1, b->scripts[0]);
    fix_checksum(r);
}
static void script_calls_itself(GByteArray *r, const NVBios *b)
{
    uint32_t o = b->scripts[0] + 9;
    r->data[o] = 0x5b;
    put16(r, o + 1, b->scripts[0]);
    fix_checksum(r);
}
static void script_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->script_table, 0xfff0); fix_checksum(r); }
static void legacy_script_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->bmp_offset + 18, 0xfff0); fix_checksum(r); }
static void script_table_unterminated(GByteArray *r, const NVBios *b)
{
    for (int i = 0; i < 40; i++) {
        put16(r, b->script_table + 2 * i, b->scripts[0]);
    }
    fix_checksum(r);
}
static void dcb_short_header(GByteArray *r, const NVBios *b) { r->data[b->dcb_offset + 1] = 0x16; fix_checksum(r); }
static void i2c_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->dcb_offset + 4, 0xfffe); fix_checksum(r); }
static void i2c_bad_type(GByteArray *r, const NVBios *b)
{
    r->data[b->i2c_offset + r->data[b->i2c_offset + 1] + 4 + 3] = 0x09;     /* port 1 */
    fix_checksum(r);
}
static void i2c_port_unused(GByteArray *r, const NVBios *b) { r->data[b->i2c_offset + 3] = 0x07; fix_checksum(r); }
static void gpio_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->dcb_offset + 0x0a, 0xfffe); fix_checksum(r); }
static void gpio_overlaps_dcb(GByteArray *r, const NVBios *b)
{
    /* point the GPIO table at the DCB header, which reads as a 3.0 GPIO
     * header (version 0x30, header 0x16, 3 entries of 8 bytes) */
    put16(r, b->dcb_offset + 0x0a, b->dcb_offset);
    fix_checksum(r);
}
static void gpio_too_many(GByteArray *r, const NVBios *b) { r->data[b->gpio_offset + 2] = 200; fix_checksum(r); }
static void conn_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->dcb_offset + 0x14, 0xfffe); fix_checksum(r); }
static void conn_runs_off(GByteArray *r, const NVBios *b)
{
    /* a 4-entry table whose header sits at the image's last bytes */
    uint32_t c = r->len - 6;
    memcpy(r->data + c, "\x30\x05\x04\x02", 4);
    put16(r, b->dcb_offset + 0x14, c);
    fix_checksum(r);
}
static void pll_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, nvbios_bit(b, 'C')->data + 8, 0xfffe); fix_checksum(r); }
static void pll_bad_version(GByteArray *r, const NVBios *b) { r->data[b->pll_offset] = 0x99; fix_checksum(r); }
static void pll_short_entries(GByteArray *r, const NVBios *b) { r->data[b->pll_offset + 2] = 0x10; fix_checksum(r); }
static void pll_inverted(GByteArray *r, const NVBios *b)
{
    /* VCO1 minimum above its maximum (1.x: u32 kHz at +1, +5) */
    r->data[b->pll_offset + 4] = 0x7f;
    fix_checksum(r);
}
static void bmp_pll_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, b->bmp_offset + 142, 0xfffe); fix_checksum(r); }
static void bit_entry_oor(GByteArray *r, const NVBios *b)
{
    put16(r, nvbios_bit(b, 'D')->offset + 4, 0xfffe);
    fix_checksum(r);
}
static void bit_too_many(GByteArray *r, const NVBios *b) { r->data[b->bit_offset + 10] = 0xf0; fix_checksum(r); }
static void bit_no_init(GByteArray *r, const NVBios *b) { r->data[nvbios_bit(b, 'I')->offset] = 'Z'; fix_checksum(r); }
static void bit_i_short(GByteArray *r, const NVBios *b) { put16(r, nvbios_bit(b, 'i')->offset + 2, 5); fix_checksum(r); }
static void bit_i_no_daccmp(GByteArray *r, const NVBios *b) { put16(r, nvbios_bit(b, 'i')->offset + 2, 8); fix_checksum(r); }
static void bit_tmds_len(GByteArray *r, const NVBios *b) { put16(r, nvbios_bit(b, 'T')->offset + 2, 3); fix_checksum(r); }
static void bit_dup(GByteArray *r, const NVBios *b) { r->data[nvbios_bit(b, 'M')->offset] = 'D'; fix_checksum(r); }
static void tmds_not_stubbed(GByteArray *r, const NVBios *b)
{
    r->data[b->data[b->tmds_offset + 7] | b->data[b->tmds_offset + 8] << 8] = 0x72;
    fix_checksum(r);
}
static void daccmp_version(GByteArray *r, const NVBios *b) { r->data[b->daccmp_offset] = 0x20; fix_checksum(r); }
static void perf_ptr_oor(GByteArray *r, const NVBios *b) { put16(r, nvbios_bit(b, 'P')->data, 0xfffe); fix_checksum(r); }
static void conn_overlaps_gpio(GByteArray *r, const NVBios *b)
{
    /* the GPIO 3.0 header reads as a connector 3.0 header too */
    put16(r, b->dcb_offset + 0x14, b->gpio_offset);
    fix_checksum(r);
}

static void lvds_header_short(GByteArray *r, const NVBios *b) { r->data[b->lvds_manufacturer + 1] = 0x1e; fix_checksum(r); }
static void lvds_reset_oor(GByteArray *r, const NVBios *b) { put16(r, b->lvds_manufacturer + 15, 0xfffe); fix_checksum(r); }
static void lvds_records_many(GByteArray *r, const NVBios *b) { r->data[b->lvds_manufacturer + 3] = 40; fix_checksum(r); }
static void lvds_bad_script(GByteArray *r, const NVBios *b) { r->data[b->lvds_panel_on[0]] = 0xee; fix_checksum(r); }
static void fp_records_many(GByteArray *r, const NVBios *b) { r->data[b->fp_table + 3] = 200; fix_checksum(r); }
static void fp_short_records(GByteArray *r, const NVBios *b) { r->data[b->fp_table + 2] = 20; fix_checksum(r); }

static void test_errors(void)
{
    const char *nv11 = "nv11-ch7006.ini";

    /* image */
    expect(nv11, truncate_half, NVBIOS_ERR_TRUNCATED, "truncated");
    expect(nv11, truncate_tiny, NVBIOS_ERR_TRUNCATED, "smaller");
    expect(nv11, bad_signature, NVBIOS_ERR_SIGNATURE, "0xaa55");
    /* a card serves its ROM whatever it sums to: warnings, not errors */
    expect(nv11, bad_checksum, -1, "bad checksum: bytes sum to 0x");
    expect(nv11, legacy_size, -1, "not over the PCIR length 0x10000");
    expect(nv11, bad_pcir_ptr, NVBIOS_ERR_POINTER, "PCIR pointer 0xfff0");
    expect(nv11, bad_pcir_sig, NVBIOS_ERR_SIGNATURE, "0xa0");
    /* BMP */
    expect(nv11, bad_bmp_sum, -1, "BMP at 0x100: header checksum");
    expect(nv11, bad_bmp_version, NVBIOS_ERR_VERSION, "version 6.6");
    /* (a 16-bit pointer cannot leave a 64 KiB image: it lands in padding) */
    expect(nv11, legacy_script_ptr_oor, NVBIOS_ERR_SCRIPT, "unknown opcode 0x00 at 0xfff0");
    expect("nv17.ini", bmp_pll_ptr_oor, NVBIOS_ERR_POINTER, "BMP +142");
    expect("nv17.ini", pll_inverted, NVBIOS_ERR_VERSION, "VCO minimum");
    /* DCB and its tables */
    expect(nv11, bad_dcb_ptr, NVBIOS_ERR_POINTER, "DCB pointer");
    expect(nv11, bad_dcb_sig, NVBIOS_ERR_SIGNATURE, "DCB 2.2 at 0x");
    expect("nv34.ini", bad_dcb_sig, NVBIOS_ERR_SIGNATURE, "signature at +6");
    expect(nv11, bad_dcb_version, NVBIOS_ERR_VERSION, "version 0x50");
    expect(nv11, old_dcb_version, -1, "no useful data");
    expect("nv10.ini", dcb15_no_devrec, NVBIOS_ERR_SIGNATURE, "DEV_REC");
    expect("nv10.ini", dcb15_bad_type, NVBIOS_ERR_VERSION, "unknown output type 7");
    expect(nv11, i2c_port_unused, NVBIOS_ERR_POINTER, "marks unused");
    expect("nv34.ini", i2c_ptr_oor, NVBIOS_ERR_POINTER, "I2C table pointer 0xfffe");
    expect("nv34.ini", dcb_short_header, -1, "header length 22, real images' is 23");
    expect("nv34.ini", i2c_bad_type, -1, "port 1 has unknown type 9");
    expect("nv34.ini", gpio_ptr_oor, NVBIOS_ERR_POINTER, "GPIO table pointer 0xfffe");
    expect("nv34.ini", gpio_overlaps_dcb, -1, "GPIO table at 0x");
    expect("nv34.ini", gpio_overlaps_dcb, -1, "overlaps DCB at 0x200");
    expect("nv34.ini", gpio_too_many, NVBIOS_ERR_TRUNCATED, "200 entries");
    expect("nv34.ini", conn_ptr_oor, NVBIOS_ERR_POINTER, "connector table pointer 0xfffe");
    expect("nv34.ini", conn_runs_off, NVBIOS_ERR_POINTER, "connector table at 0xfffa");
    expect("nv34.ini", conn_overlaps_gpio, -1, "overlaps GPIO table");
    /* BIT and the tables it points to */
    expect("nv34.ini", bit_entry_oor, NVBIOS_ERR_POINTER, "BIT 'D' data at 0xfffe");
    expect("nv34.ini", bit_too_many, NVBIOS_ERR_TRUNCATED, "240 entries, more than 32");
    expect("nv34.ini", bit_no_init, NVBIOS_ERR_VERSION, "no 'I'");
    expect("nv34.ini", bit_i_short, NVBIOS_ERR_VERSION, "needs 6");
    expect("nv34.ini", bit_i_no_daccmp, -1, "no DAC load");
    expect("nv34.ini", bit_tmds_len, NVBIOS_ERR_VERSION, "BIT 'T'");
    expect("nv34.ini", bit_dup, -1, "duplicate");
    expect("nv34.ini", tmds_not_stubbed, -1, "not a stub");
    expect("nv34.ini", daccmp_version, -1, "version 2.0");
    expect("nv34.ini", pll_ptr_oor, NVBIOS_ERR_POINTER, "BIT 'C'");
    expect("nv34.ini", pll_bad_version, NVBIOS_ERR_VERSION, "unknown version 0x99");
    expect("nv34.ini", pll_short_entries, NVBIOS_ERR_VERSION, "entry size 16, at least 31");
    expect("nv43.ini", perf_ptr_oor, NVBIOS_ERR_POINTER, "performance table pointer");
    expect("nv43-go.ini", lvds_header_short, NVBIOS_ERR_VERSION, "LVDS table header not understood");
    expect("nv43-go.ini", lvds_reset_oor, NVBIOS_ERR_POINTER, "LVDS reset table 0 at 0xfffe runs past");
    expect("nv43-go.ini", lvds_records_many, NVBIOS_ERR_VERSION, "40 of them");
    expect("nv43-go.ini", lvds_bad_script, NVBIOS_ERR_SCRIPT, "LVDS panel power script, set 0");
    expect("nv43-go.ini", fp_records_many, NVBIOS_ERR_VERSION, "200 of them");
    expect("nv43-go.ini", fp_short_records, NVBIOS_ERR_VERSION, "records of 20 bytes");
    /* init scripts */
    expect(nv11, bad_opcode, NVBIOS_ERR_SCRIPT, "unknown opcode 0xee at 0x");
    expect(nv11, script_runs_off, NVBIOS_ERR_SCRIPT, "init script 0");
    expect("nv17.ini", script_jumps_back, NVBIOS_ERR_SCRIPT, "loops");
    expect("nv17.ini", script_calls_itself, NVBIOS_ERR_SCRIPT, "already running");
    expect("nv17.ini", script_ptr_oor, NVBIOS_ERR_SCRIPT, "unknown opcode 0x00 at 0xfff0");
    expect("nv17.ini", script_table_unterminated, NVBIOS_ERR_SCRIPT, "more than 16");
}

static void test_build_errors(void)
{
    static const char *bad[] = {
        "[board]\nvendor=0x10de\n",                          /* no device */
        "[board]\ndevice=0x110\nvram_mb=lots\n",
        "[board]\ndevice=0x110\nram_type=hbm\n",
        "[board]\ndevice=0x110\n[output0]\ntype=hdmi\n",
        "[board]\ndevice=0x110\n[init]\nscript0=zm_reg 0x9200\n",
        "[board]\ndevice=0x110\n[init]\nscript0=frobnicate 1\n",
        "[board]\ndevice=0x110\n[init]\nscript0=zm_cr_group 1 2 3\n",
        "[board]\ndevice=0x110\n[init]\nscript0=sub_direct @nowhere\n",
        "[board]\ndevice=0x110\n[init]\nscript0=jump @script0\n",
        "[board]\ndevice=0x110\nbmp_version=0x0510\n[init]\n"
        "script0=sub_direct @sub0\nsub0=sub_direct @sub0\n",
        "[board]\ndevice=0x110\n[init]\nscript0=done\nscript1=done\n"
        "script2=done\n",                       /* BMP 5.06: two scripts */
        "[board]\ndevice=0x110\ndcb_version=0x31\n[output0]\ntype=crt\n",
        "[board]\ndevice=0x110\ndcb_version=0x15\n[output0]\ntype=crt\n",
        "[board]\ndevice=0x110\ndcb_version=0x20\n[gpio]\nentry0=1;2;0;0\n"
        "[output0]\ntype=crt\nbus=1\n",         /* GPIO needs DCB 2.2+ */
        "[board]\ndevice=0x110\npll_version=0x11\n[pll0]\nvco1=1-2\n",
        "[board]\ndevice=0x110\nbit=true\npll_version=0x21\n[pll0]\n"
        "reg=0x680508\nvco1=100500-200000\n",   /* 2.x: whole MHz */
        "[board]\ndevice=0x110\nbit=true\npll_version=0x21\n[pll0]\n"
        "vco1=100000-200000\n",                 /* 2.x: reg= */
        "[board]\ndevice=0x110\nbit=true\npll_version=0x21\n[pll0]\n"
        "reg=0x680508\nvco1=300000-200000\n",   /* min > max */
        "[board]\ndevice=0x110\n[perf]\nlevel0=1;2;3\n",     /* BMP */
        "[board]\ndevice=0x110\nrom_kib=3\n",
        "[board]\ndevice=0x110\nbmp_version=0x0527\n[tmds]\n"
        "output0=0 @sub0;165000 @sub1\n[init]\nsub0=done\nsub1=done\n",
        "[board]\ndevice=0x110\nbmp_version=0x0527\n[tmds]\n"
        "output1=0 @nowhere\n",
        "[board]\ndevice=0x110\nbmp_version=0x0527\n[tmds]\n"
        "output1=16501 @sub0;0 @sub0\n[init]\nsub0=done\n",  /* 10 kHz */
        "[board]\ndevice=0x110\nbmp_version=0x0527\n[tmds]\n"
        "output1=16500 @sub0\n[init]\nsub0=done\n",  /* no 0 at the end */
        "[board]\ndevice=0x110\n[tmds]\noutput0=0 @sub0\n[init]\n"
        "sub0=done\n",                          /* BMP 5.06: no room */
        "[board]\ndevice=0x110\n[fp]\nmode0=65000 1024 1048 1184 1344 "
        "768 771 777 806\n",                     /* BMP: no 2.0 table */
        "[board]\ndevice=0x144\nbit=true\n[fp]\n"
        "mode0=65000 1024 1000 1184 1344 768 771 777 806\n",  /* order */
        "[board]\ndevice=0x144\nbit=true\n[fp]\n"
        "mode0=65000 1024 1048 1184 1344 768 771 777\n",      /* short */
        "[board]\ndevice=0x144\nbit=true\n[fp]\n"
        "mode0=65000 1024 1048 1184 1344 768 771 777 806 +csync\n",
        "[board]\ndevice=0x144\nbit=true\n[fp]\nrecords=17\n",
        "[board]\ndevice=0x110\n[lvds]\nduallink_khz=112000\n",  /* BMP */
        "[board]\ndevice=0x144\nbit=true\n[lvds]\npanel_on0=@nowhere\n",
        "[board]\ndevice=0x144\nbit=true\n[lvds]\npanel_on0=sub0\n"
        "[init]\nsub0=done\n",                  /* not a label */
        "[board]\ndevice=0x144\nbit=true\n[lvds]\nstrap3=1\n",
        "[board]\ndevice=0x144\nbit=true\n[lvds]\nreset0=100000 @sub0\n"
        "[init]\nsub0=done\n",                  /* no 0 at the end */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *err = NULL;
        GByteArray *rom = build_text(bad[i], &err);
        if (rom) {
            g_error("board %zu built:\n%s", i, bad[i]);
        }
        g_assert_nonnull(err);
        g_assert_true(err->domain == NVBIOS_ERROR);
        g_error_free(err);
    }
}

/* Inputs that once crashed or hung the parser (the fuzzer's findings and
 * hand-made ones) must now give an error or parse. */
static void test_regressions(void)
{
    const char *dir = g_getenv("REGRESS_DIR");
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *name;
    unsigned n = 0;

    g_assert_nonnull(d);
    while ((name = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(dir, name, NULL);
        g_autofree char *data = NULL;
        g_autoptr(GString) out = g_string_new(NULL);
        gsize len;
        NVBios b;

        if (!g_str_has_suffix(name, ".rom")) {
            continue;
        }
        g_assert_true(g_file_get_contents(path, &data, &len, NULL));
        if (nvbios_parse(&b, (uint8_t *)data, len, NULL)) {
            nvbios_dump_text(&b, out);
            nvbios_dump_json(&b, out);
        }
        n++;
    }
    g_assert_cmpuint(n, >, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nvbios/nv11/roundtrip", test_nv11_roundtrip);
    g_test_add_func("/nvbios/boards", test_all_boards);
    g_test_add_func("/nvbios/board-base", test_board_base);
    g_test_add_func("/nvbios/dcb15", test_dcb15);
    g_test_add_func("/nvbios/nv34/bit", test_nv34_bit);
    g_test_add_func("/nvbios/nv43/pll-perf", test_nv43_two_stage_perf);
    g_test_add_func("/nvbios/nv43-go/panel", test_nv43_go_panel);
    g_test_add_func("/nvbios/bmp-versions", test_bmp_versions);
    g_test_add_func("/nvbios/dcb40", test_dcb40);
    g_test_add_func("/nvbios/nv4e-i2c", test_nv4e_i2c);
    g_test_add_func("/nvbios/opcodes", test_opcode_table);
    g_test_add_func("/nvbios/script-forms", test_script_forms);
    g_test_add_func("/nvbios/errors", test_errors);
    g_test_add_func("/nvbios/build-errors", test_build_errors);
    g_test_add_func("/nvbios/regressions", test_regressions);
    return g_test_run();
}
