/*
 * libnvbios unit tests: build every board, parse it back, and check that
 * each kind of damage is reported with the table and offset it concerns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <string.h>

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

static void fix_checksum(GByteArray *rom)
{
    rom->data[rom->len - 1] = 0;
    rom->data[rom->len - 1] = 0x100 - nvbios_sum(rom->data, rom->len);
}

static void test_nv11_roundtrip(void)
{
    GByteArray *rom = build_board("nv11-ch7006.ini");
    g_autoptr(GString) json = g_string_new(NULL);
    GError *err = NULL;
    NVBios b;

    g_assert_true(nvbios_parse(&b, rom->data, rom->len, &err));
    g_assert_no_error(err);
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
    nvbios_dump_json(&b, json);
    g_assert_nonnull(strstr(json->str, "\"INIT_ZM_REG\", \"INIT_ZM_REG\", \"INIT_DONE\""));
    g_byte_array_unref(rom);
}

/* Every board builds, parses and names its chip; BMP 5.10 boards find
 * their scripts through the init table. */
static void test_all_boards(void)
{
    static const struct { const char *ini; uint16_t dev; uint8_t minor; } boards[] = {
        { "nv04.ini", 0x0020, 0x06 },
        { "nv11-ch7006.ini", 0x0110, 0x06 },
        { "nv17.ini", 0x0171, 0x10 },
        { "nv34.ini", 0x0322, 0x00 },     /* BIT: no BMP */
        { "nv43.ini", 0x0141, 0x00 },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(boards); i++) {
        GByteArray *rom = build_board(boards[i].ini);
        GError *err = NULL;
        NVBios b;
        g_assert_true(nvbios_parse(&b, rom->data, rom->len, &err));
        g_assert_no_error(err);
        g_assert_cmphex(b.device_id, ==, boards[i].dev);
        g_assert_cmphex(b.bmp_minor, ==, boards[i].minor);
        g_assert_true(b.bmp_offset || b.bit_offset);
        g_assert_cmpuint(b.n_scripts, ==, 1);
        g_assert_cmphex(b.data[b.scripts[0]], ==, 0x7a);
        g_byte_array_unref(rom);
    }
}

/* Damage an image and expect an error of @code whose text has @needle. */
static void expect_error(void (*damage)(GByteArray *), int code,
                         const char *needle)
{
    GByteArray *rom = build_board("nv11-ch7006.ini");
    GError *err = NULL;
    NVBios b;

    damage(rom);
    g_assert_false(nvbios_parse(&b, rom->data, rom->len, &err));
    g_assert_error(err, NVBIOS_ERROR, code);
    if (!strstr(err->message, needle)) {
        g_error("error \"%s\" does not mention \"%s\"", err->message, needle);
    }
    g_error_free(err);
    g_byte_array_unref(rom);
}

static void truncate_half(GByteArray *r) { g_byte_array_set_size(r, r->len / 2); }
static void truncate_tiny(GByteArray *r) { g_byte_array_set_size(r, 100); }
static void bad_signature(GByteArray *r) { r->data[0] = 0x12; fix_checksum(r); }
static void bad_checksum(GByteArray *r) { r->data[0x1000] ^= 0x5a; }
static void bad_pcir_ptr(GByteArray *r) { r->data[0x18] = 0xf0; r->data[0x19] = 0xff; fix_checksum(r); }
static void bad_pcir_sig(GByteArray *r) { r->data[0xa0] = 'X'; fix_checksum(r); }
static void bad_dcb_ptr(GByteArray *r) { r->data[0x36] = 0xfc; r->data[0x37] = 0xff; fix_checksum(r); }
static void bad_dcb_sig(GByteArray *r) { r->data[0x204] = 0; fix_checksum(r); }
static void bad_bmp_sum(GByteArray *r) { r->data[0x107] ^= 1; fix_checksum(r); }
static void bad_opcode(GByteArray *r) { r->data[0x400] = 0xee; fix_checksum(r); }
static void script_runs_off(GByteArray *r)
{
    /* turn every INIT_DONE into INIT_RESUME: the script never ends */
    for (guint i = 0x400; i < r->len - 1; i++) {
        r->data[i] = 0x72;
    }
    fix_checksum(r);
}

static void test_nv34_bit_dcb30(void)
{
    GByteArray *rom = build_board("nv34.ini");
    GError *err = NULL;
    NVBios b;

    g_assert_true(nvbios_parse(&b, rom->data, rom->len, &err));
    g_assert_cmpuint(b.bmp_offset, ==, 0);
    g_assert_cmpuint(b.bit_offset, !=, 0);
    g_assert_cmphex(b.version[3], ==, 0x04);
    g_assert_cmphex(b.version[2], ==, 0x34);
    g_assert_cmphex(b.dcb_version, ==, 0x30);
    g_assert_cmpuint(b.n_dcb, ==, 2);
    g_assert_cmpuint(b.dcb[1].type, ==, NVBIOS_OUTPUT_TMDS);
    g_assert_cmpuint(b.n_conn, ==, 2);
    g_assert_true(b.i2c[0].used && b.i2c[1].used && !b.i2c[2].used);
    g_assert_cmpuint(b.n_scripts, ==, 1);
    g_byte_array_unref(rom);
}

static void test_errors(void)
{
    expect_error(truncate_half, NVBIOS_ERR_TRUNCATED, "truncated");
    expect_error(truncate_tiny, NVBIOS_ERR_TRUNCATED, "smaller");
    expect_error(bad_signature, NVBIOS_ERR_SIGNATURE, "0xaa55");
    expect_error(bad_checksum, NVBIOS_ERR_CHECKSUM, "checksum");
    expect_error(bad_pcir_ptr, NVBIOS_ERR_POINTER, "PCIR pointer 0xfff0");
    expect_error(bad_pcir_sig, NVBIOS_ERR_SIGNATURE, "0xa0");
    expect_error(bad_dcb_ptr, NVBIOS_ERR_POINTER, "DCB pointer");
    expect_error(bad_dcb_sig, NVBIOS_ERR_SIGNATURE, "0x200");
    expect_error(bad_bmp_sum, NVBIOS_ERR_CHECKSUM, "BMP at 0x100");
    expect_error(bad_opcode, NVBIOS_ERR_SCRIPT, "unknown opcode 0xee at 0x400");
    expect_error(script_runs_off, NVBIOS_ERR_SCRIPT, "init script 0");
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
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GKeyFile) kf = g_key_file_new();
        GError *err = NULL;
        g_assert_true(g_key_file_load_from_data(kf, bad[i], -1, 0, NULL));
        g_assert_null(nvbios_build(kf, &err));
        g_assert_error(err, NVBIOS_ERROR, err->code);
        g_error_free(err);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nvbios/nv11/roundtrip", test_nv11_roundtrip);
    g_test_add_func("/nvbios/errors", test_errors);
    g_test_add_func("/nvbios/boards", test_all_boards);
    g_test_add_func("/nvbios/nv34/bit-dcb30", test_nv34_bit_dcb30);
    g_test_add_func("/nvbios/build-errors", test_build_errors);
    return g_test_run();
}
