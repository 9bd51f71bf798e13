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
    NVBIOS_ERR_CHECKSUM,    /* 8-bit sum of an image (or BMP header) != 0 */
    NVBIOS_ERR_POINTER,     /* a table pointer points outside the image */
    NVBIOS_ERR_VERSION,     /* a table version we (and nouveau) don't know */
    NVBIOS_ERR_BOARD,       /* a board description is malformed */
    NVBIOS_ERR_SCRIPT,      /* an init script is malformed */
} NVBiosErrorCode;

#define NVBIOS_MAX_DCB      16
#define NVBIOS_MAX_I2C      16
#define NVBIOS_MAX_SCRIPTS  16

/* DCB output types, as nouveau's dcb.h. */
enum {
    NVBIOS_OUTPUT_ANALOG = 0x0,
    NVBIOS_OUTPUT_TV = 0x1,
    NVBIOS_OUTPUT_TMDS = 0x2,
    NVBIOS_OUTPUT_LVDS = 0x3,
    NVBIOS_OUTPUT_EOL = 0xe,
    NVBIOS_OUTPUT_UNUSED = 0xf,
};

typedef struct NVBiosDcbEntry {
    uint32_t offset;        /* of the entry in the image */
    uint32_t conn, conf;    /* raw dwords */
    uint8_t type, i2c, heads, connector, bus, location, or_mask;
} NVBiosDcbEntry;

typedef struct NVBiosI2cPort {
    uint8_t type;           /* 0 = NV04 bit-banged through CRTC registers */
    uint8_t drive, sense;   /* CRTC indices (write / read) */
    bool used;
} NVBiosI2cPort;

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

    /* BIT (NV4x and later) */
    uint32_t bit_offset;

    /* init scripts, as nouveau finds them */
    unsigned n_scripts;
    uint32_t scripts[NVBIOS_MAX_SCRIPTS];

    /* DCB */
    uint32_t dcb_offset;
    uint8_t dcb_version;
    unsigned n_dcb;
    NVBiosDcbEntry dcb[NVBIOS_MAX_DCB];

    uint32_t conn_offset;   /* connector table (DCB 3.0+) */
    unsigned n_conn;

    uint32_t i2c_offset;
    NVBiosI2cPort i2c[NVBIOS_MAX_I2C];

    bool has_board;
    NVBiosBoard board;
} NVBios;

/*
 * Parse and validate @data.  On success the NVBios refers to @data (no
 * copy): keep the buffer alive as long as the NVBios is used.
 */
bool nvbios_parse(NVBios *bios, const uint8_t *data, size_t size,
                  GError **errp);

/* 8-bit sum of a byte range (0 for a valid image). */
uint8_t nvbios_sum(const uint8_t *data, size_t len);

const char *nvbios_output_type_name(uint8_t type);

/* Init scripts: opcode table and a walker (script.c). */
typedef struct NVBiosOpcode {
    uint8_t op;
    const char *name;
    uint8_t len;            /* fixed length; 0 if computed */
} NVBiosOpcode;

const NVBiosOpcode *nvbios_opcode(uint8_t op);
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
