/*
 * libnvbios: parse, validate and build NVIDIA VBIOS images (NV04 .. NV4x).
 *
 * The parser never reads outside the buffer it is given: every table
 * pointer is bounds-checked, and a problem is reported through a GError
 * that names the table and the offset.  The same code runs inside the
 * QEMU device (to configure the board from its VBIOS) and in the nvbios
 * tool.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NVBIOS_H
#define NVBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>

#define NVBIOS_ERROR nvbios_error_quark()
GQuark nvbios_error_quark(void);

typedef enum {
    NVBIOS_ERR_TRUNCATED,   /* a structure runs past the end of the file */
    NVBIOS_ERR_SIGNATURE,   /* 0x55AA / PCIR / table signature wrong */
    NVBIOS_ERR_CHECKSUM,    /* (unused: a bad sum is a warning, a card serves
                             * its ROM whatever it sums to) */
    NVBIOS_ERR_POINTER,     /* a table pointer points outside the image */
    NVBIOS_ERR_VERSION,     /* a table version we (and nouveau) don't know */
    NVBIOS_ERR_BOARD,       /* a board description is malformed */
    NVBIOS_ERR_SCRIPT,      /* an init script is malformed */
} NVBiosErrorCode;

#define NVBIOS_MAX_DCB      16
#define NVBIOS_MAX_I2C      16
#define NVBIOS_MAX_SCRIPTS  16
#define NVBIOS_MAX_BIT      32
#define NVBIOS_MAX_GPIO     32
#define NVBIOS_MAX_CONN     16
#define NVBIOS_MAX_PLL      8
#define NVBIOS_MAX_PERF     8
#define NVBIOS_MAX_WARN     8
#define NVBIOS_MAX_REGIONS  48
#define NVBIOS_MAX_TMDS_CLK 8
#define NVBIOS_MAX_FP_MODES 16
#define NVBIOS_LVDS_RECORDS 16

/* DCB output types, as nouveau's dcb.h. */
enum {
    NVBIOS_OUTPUT_ANALOG = 0x0,
    NVBIOS_OUTPUT_TV = 0x1,
    NVBIOS_OUTPUT_TMDS = 0x2,
    NVBIOS_OUTPUT_LVDS = 0x3,
    NVBIOS_OUTPUT_EOL = 0xe,
    NVBIOS_OUTPUT_UNUSED = 0xf,
};

/*
 * One DCB output.  The fields are decoded into the DCB 2.0+ meaning
 * whatever the table version (DCB 1.5 packs them differently).
 */
typedef struct NVBiosDcbEntry {
    uint32_t offset;        /* of the entry in the image */
    uint32_t conn, conf;    /* raw dwords */
    uint8_t type, i2c, heads, connector, bus, location, or_mask;
} NVBiosDcbEntry;

/*
 * The I2C port types nvdev knows: the bit-banged buses of NV04-NV4x in CRTC
 * index registers, and C51's in a PCRTC word (nouveau's DCB_I2C_NV4E_BIT,
 * envytools' "PCRTC": the register is 0x600800 + the entry's byte 1).
 */
#define NVBIOS_I2C_NV04 0
#define NVBIOS_I2C_NV4E 4

typedef struct NVBiosI2cPort {
    uint8_t type;           /* NVBIOS_I2C_NV04, _NV4E, 5, 6 (NVIO), 0x80 (PMGR) */
    uint8_t drive, sense;   /* NV04: CRTC indices (write / read);
                             * NV4E: both the PCRTC offset - 0x800 */
    bool used;
} NVBiosI2cPort;

/* GPIO table entry (DCB 2.2 pre-header or DCB 3.0+ pointer). */
typedef struct NVBiosGpio {
    uint32_t offset;
    uint32_t raw;
    uint8_t line, func, log[2];
    bool param;
} NVBiosGpio;

/* Connector table entry (DCB 3.0+). */
typedef struct NVBiosConn {
    uint32_t offset;
    uint32_t raw;           /* 16 or 32 bits, as the table's entry size */
    uint8_t type;           /* 0x00 VGA, 0x30 DVI-I, 0x31 DVI-D, 0xff unused */
    uint8_t location;
} NVBiosConn;

/*
 * PLL limits (kHz).  Version 1.x tables hold one record for every PLL
 * (reg = 0) and only the VCO ranges; 2.x tables one record per PLL
 * register with the N/M/P limits too.  Fields a table does not hold are 0:
 * the driver fills in its chip defaults, as nouveau does.
 */
/* a pixel-clock comparison record: this script from min_khz up */
typedef struct NVBiosClk {
    uint32_t min_khz;
    uint16_t script;
} NVBiosClk;

/* a flat panel table mode, in DRM's terms (nouveau_bios_fp_mode) */
typedef struct NVBiosFpMode {
    uint32_t clock_khz;                 /* 0: an empty record */
    uint16_t hdisplay, hsync_start, hsync_end, htotal;
    uint16_t vdisplay, vsync_start, vsync_end, vtotal;
    bool phsync, pvsync;
} NVBiosFpMode;

typedef struct NVBiosPll {
    uint32_t offset;
    uint32_t reg;
    uint32_t vco1_min, vco1_max, vco2_min, vco2_max;
    uint32_t vco1_min_in, vco1_max_in, vco2_min_in, vco2_max_in;
    uint8_t vco1_min_n, vco1_max_n, vco1_min_m, vco1_max_m;
    uint8_t vco2_min_n, vco2_max_n, vco2_min_m, vco2_max_m;
    uint8_t max_p, bias_p;
    uint32_t refclk;        /* 0: the crystal */
} NVBiosPll;

/* Performance level (BIT 'P' perf table). */
typedef struct NVBiosPerf {
    uint32_t offset;
    uint8_t pstate;
    uint32_t core, memory;  /* kHz */
} NVBiosPerf;

/* One BIT entry: a tagged pointer to a table. */
typedef struct NVBiosBitEntry {
    uint32_t offset;        /* of the entry itself */
    char id;
    uint8_t version;
    uint16_t length, data;
} NVBiosBitEntry;

/* A table's extent in the image, for overlap checks and the dump. */
typedef struct NVBiosRegion {
    uint32_t start, len;
    char name[24];
} NVBiosRegion;

/*
 * nvdev's board record: what on a real card is fixed by resistors and
 * memory chips rather than by the VBIOS tables nouveau reads (straps, the
 * amount and type of memory, the reset PLL values).  It is an nvdev
 * extension, found by its signature; a real dump lacks it and the device
 * then falls back to the chipset's defaults.
 */
#define NVBIOS_BOARD_SIG "NVDEVBRD"
#define NVBIOS_BOARD_LEN 32

typedef enum {
    NVBIOS_RAM_SDRAM = 0,
    NVBIOS_RAM_DDR1 = 1,
    NVBIOS_RAM_SGRAM = 2,
} NVBiosRamType;

typedef enum {
    NVBIOS_TV_ENCODER_NONE = 0,
    NVBIOS_TV_ENCODER_CH7006 = 1,
} NVBiosTvEncoder;

typedef struct NVBiosBoard {
    uint32_t offset;
    uint8_t tv_encoder;     /* NVBiosTvEncoder: an I2C TV encoder chip */
    uint8_t tv_i2c_port;    /* its DCB I2C port */
    uint8_t tv_i2c_addr;    /* its 7-bit I2C address */
    uint32_t strap;         /* PEXTDEV_BOOT_0 */
    uint16_t vram_mb;
    uint8_t ram_type;       /* NVBiosRamType */
    uint32_t nvpll;         /* PRAMDAC NVPLL_COEFF at reset */
    uint32_t mpll;          /* PRAMDAC MPLL_COEFF at reset */
} NVBiosBoard;

typedef struct NVBios {
    const uint8_t *data;
    size_t size;

    /* First image of the chain (the x86 one), as the PCIR describes it. */
    size_t image_size;
    uint16_t vendor_id, device_id;
    uint8_t code_type;
    unsigned n_images;

    /* BMP (NV04 .. NV3x era) */
    uint32_t bmp_offset;
    uint8_t bmp_major, bmp_minor;
    uint8_t version[4];     /* BCD version bytes: micro, minor, chip, major */
    uint8_t feature_byte;
    uint8_t i2c_crt, i2c_tv, i2c_panel;
    uint32_t fmaxvco, fminvco;          /* single-stage VCO limits, kHz */
    uint32_t duallink_clk;              /* kHz, BMP 5.27+ */

    /* BIT (late NV3x, NV4x and later) */
    uint32_t bit_offset;
    unsigned n_bit;
    NVBiosBitEntry bit[NVBIOS_MAX_BIT];

    /* init table (BIT 'I', BMP 5.10+ at +75) and what it points to */
    uint32_t init_table;
    uint16_t init_table_len;
    uint16_t script_table, macro_index_table, macro_table;
    uint16_t condition_table, io_condition_table, io_flag_condition_table;
    uint16_t function_table;

    /* init scripts, as nouveau finds them */
    unsigned n_scripts;
    uint32_t scripts[NVBIOS_MAX_SCRIPTS];

    /* DAC load detection comparison values (BIT 'i' +13) */
    uint32_t daccmp_offset;
    uint8_t daccmp_version;
    uint32_t dactestval, tvdactestval;

    uint16_t fp_table;                  /* BIT 'D' +2, BMP +105 */
    uint16_t lvds_manufacturer;         /* BIT 'L', BMP +117 */
    uint8_t ram_restrict_count;         /* BIT 'M' */
    uint16_t ram_restrict_table;
    uint32_t timing_table, therm_table, volt_table;     /* BIT 'P' */

    /* TMDS table (BIT 'T'); the output script pointers also from BMP */
    uint32_t tmds_offset;
    uint8_t tmds_version;
    uint16_t tmds_script[2];            /* their clock tables, really */
    /* those tables: the script for pixel clocks from min_khz up, highest
     * first, the last with min_khz 0 */
    NVBiosClk tmds_clk[2][NVBIOS_MAX_TMDS_CLK];
    unsigned n_tmds_clk[2];

    /* flat panel mode table 2.0 (NV4x, BIT 'D' +2): the panel modes a
     * strap-indexed LVDS record names by index */
    uint8_t fp_version;
    uint8_t fp_min_front_porch;         /* FP HCRTC -> HSYNC_START gap */
    unsigned n_fp_modes;                /* the header's count */
    NVBiosFpMode fp_mode[NVBIOS_MAX_FP_MODES];

    /* LVDS manufacturer table 3.0 (NV4x, BIT 'L'): records by FP strap,
     * panel power scripts and reset scripts by pixel clock, per output set
     * (0: OR A/B, 1: OR C) */
    uint8_t lvds_version;
    uint8_t lvds_strapless_24bit;       /* EDID panels: 24-bit, by link */
    uint32_t lvds_duallink_khz;         /* EDID panels: dual link from */
    uint16_t lvds_panel_on[2], lvds_panel_off[2];
    /* [set * 4 + dual * 2 + 24bit]: clock tables, as the TMDS ones */
    uint16_t lvds_reset_table[8];
    NVBiosClk lvds_reset[8][NVBIOS_MAX_TMDS_CLK];
    unsigned n_lvds_reset[8];
    unsigned n_lvds_records;
    struct {
        uint8_t conf;                   /* bit 0 dual link, bit 1 24-bit */
        uint8_t fp_index;               /* 0xf: no mode, ask DDC */
    } lvds_record[NVBIOS_LVDS_RECORDS];

    /* PLL limits (BIT 'C', BMP 5.24+ at +142) */
    uint32_t pll_offset;
    uint8_t pll_version;
    unsigned n_pll;
    NVBiosPll pll[NVBIOS_MAX_PLL];

    /* performance table (BIT 'P') */
    uint32_t perf_offset;
    uint8_t perf_version;
    unsigned n_perf;
    NVBiosPerf perf[NVBIOS_MAX_PERF];

    /* DCB */
    uint32_t dcb_offset;
    uint8_t dcb_version;
    unsigned n_dcb;
    NVBiosDcbEntry dcb[NVBIOS_MAX_DCB];

    uint32_t conn_offset;   /* connector table (DCB 3.0+) */
    uint8_t conn_version;
    unsigned n_conn;
    NVBiosConn conn[NVBIOS_MAX_CONN];

    uint32_t i2c_offset;
    uint8_t i2c_version;
    NVBiosI2cPort i2c[NVBIOS_MAX_I2C];

    uint32_t gpio_offset;
    uint8_t gpio_version;
    unsigned n_gpio;
    NVBiosGpio gpio[NVBIOS_MAX_GPIO];

    bool has_board;
    NVBiosBoard board;

    /* Things nouveau accepts but a careful reader should know about. */
    unsigned n_warnings;
    char warnings[NVBIOS_MAX_WARN][160];

    unsigned n_regions;
    NVBiosRegion regions[NVBIOS_MAX_REGIONS];
} NVBios;

/*
 * Parse and validate @data.  On success the NVBios refers to @data (no
 * copy): keep the buffer alive as long as the NVBios is used.
 */
bool nvbios_parse(NVBios *bios, const uint8_t *data, size_t size,
                  GError **errp);

/* How much of a BMP structure of this version nouveau reads (0: a version
 * it does not support). */
unsigned nvbios_bmp_length(uint8_t major, uint8_t minor);

/* 8-bit sum of a byte range (0 for a valid image). */
uint8_t nvbios_sum(const uint8_t *data, size_t len);

const char *nvbios_output_type_name(uint8_t type);
const char *nvbios_gpio_func_name(uint8_t func);
/* The BIT entry with @id, or NULL. */
const NVBiosBitEntry *nvbios_bit(const NVBios *bios, char id);
/* PLL limits for register @reg (first record if none matches), or NULL. */
const NVBiosPll *nvbios_pll(const NVBios *bios, uint32_t reg);

/* Init scripts: opcode table and a walker (script.c). */
typedef struct NVBiosOpcode {
    uint8_t op;
    const char *name;
    uint8_t len;            /* fixed part, bytes */
    uint8_t count_at;       /* offset of an element count, or 0 */
    uint8_t elem;           /* bytes per counted element */
    const char *args;       /* fixed operands, "name:size ..." from byte 1 */
    const char *elems;      /* the fields of one counted element */
} NVBiosOpcode;

const NVBiosOpcode *nvbios_opcode(uint8_t op);
/* By name, with or without the "INIT_" prefix, any case. */
const NVBiosOpcode *nvbios_opcode_by_name(const char *name);
/* Bytes in a "name:size ..." operand list. */
unsigned nvbios_fields_size(const char *fmt);
/* Length of the instruction at @off, or 0 (and an error) if unknown. */
size_t nvbios_insn_len(const NVBios *bios, uint32_t off, GError **errp);
/* Format one instruction into @out; returns its length or 0 on error. */
size_t nvbios_disasm(const NVBios *bios, uint32_t off, GString *out,
                     GError **errp);

/* Dumping (dump.c). */
void nvbios_dump_text(const NVBios *bios, GString *out);
void nvbios_dump_json(const NVBios *bios, GString *out);

/*
 * Building (build.c): from a GKeyFile board description to an image with
 * the checksum fixed up.  Returns a newly allocated byte array.
 */
GByteArray *nvbios_build(GKeyFile *kf, GError **errp);
GByteArray *nvbios_build_file(const char *path, GError **errp);

#endif
