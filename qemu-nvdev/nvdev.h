/*
 * nvdev: a virtual NVIDIA GPU of the NV04..NV4x generation.
 *
 * The device state, the unit table that dispatches BAR0, and the helpers
 * every unit uses.  One file per hardware unit (pmc.c, ptimer.c, ...).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_DISPLAY_NVDEV_H
#define HW_DISPLAY_NVDEV_H

#include "hw/pci/pci.h"
#include "hw/display/vga_int.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "hw/i2c/bitbang_i2c.h"
#include "nvbios.h"

#define TYPE_NVDEV "nvdev"
#define TYPE_NVDEV_CH7006 "nvdev-ch7006"
OBJECT_DECLARE_SIMPLE_TYPE(NVDevState, NVDEV)

#define NVDEV_BAR0_SIZE (16 * MiB)

/* Chipset families, as nouveau's card_type. */
typedef enum {
    NV_04 = 0x04,
    NV_10 = 0x10,
    NV_11 = 0x11,
    NV_20 = 0x20,
    NV_30 = 0x30,
    NV_40 = 0x40,
} NVFamily;

/* Feature bits of a chipset, chosen once at realize. */
#define NV_CAP_TWO_HEADS    (1u << 0)   /* second CRTC/RAMDAC (NV11, NV17+) */
#define NV_CAP_PFB_NV04     (1u << 1)   /* RAM size in PFB_BOOT_0 straps */
#define NV_CAP_PFB_NV10     (1u << 2)   /* RAM size in 0x10020c */
#define NV_CAP_CRYSTAL_27   (1u << 3)   /* strap bit 22 selects 27/25 MHz */
#define NV_CAP_NV17_DAC     (1u << 4)   /* test-point load sense (SENSEB) */
#define NV_CAP_PRAMIN_BAR   (1u << 5)   /* BAR2: instance memory aperture (NV40) */
#define NV_CAP_NV40         (1u << 6)   /* config mirror at 0x88000, PFB 0x100474 */
#define NV_CAP_TWO_REG_PLL  (1u << 7)   /* VPLL second stage in 0x578/0x57c (NV31, NV36, NV4x) */
#define NV_CAP_CR_LOCK_EACH (1u << 8)   /* a CR1F lock per head unless PBUS_DEBUG_1 ties them (NV11) */

typedef struct NVChipset {
    const char *name;
    uint8_t chipset;            /* nouveau's device->chipset */
    NVFamily family;
    uint32_t boot0;
    uint16_t pci_id_first, pci_id_last;
    uint32_t caps;
    uint16_t default_vram_mb;
} NVChipset;

const NVChipset *nv_chipset_by_pci_id(uint16_t device_id);

/* Register database (generated from regdb/nv.regdb). */
#define NV_REG_RW 1u            /* plain read/write storage */
typedef struct NVRegName {
    uint32_t addr;
    uint32_t flags;
    const char *name;
} NVRegName;
const NVRegName *nv_reg_lookup(uint32_t addr);
const NVRegName *nv_i2c_reg_lookup(const char *unit, uint32_t reg);

/* A unit of BAR0: one file each, one row in the table (nvdev.c). */
typedef struct NVUnit NVUnit;
struct NVUnit {
    const char *name;
    hwaddr base, size;
    int instance;               /* head for PCRTC/PRMCIO/PRAMDAC */
    uint32_t needs_caps;        /* present only if the chipset has these */
    bool dword;                 /* 32-bit registers: sub-dword access merged */
    bool bytewise;              /* byte ports: wider access = one per byte */
    uint64_t (*read)(NVDevState *s, const NVUnit *u, hwaddr addr,
                     unsigned size, bool *unimp);
    void (*write)(NVDevState *s, const NVUnit *u, hwaddr addr, uint64_t val,
                  unsigned size, bool *unimp);
};

typedef struct NVUnitRegion {
    NVDevState *s;
    const NVUnit *unit;
    MemoryRegion mr;
} NVUnitRegion;

#define NV_MAX_UNITS 24
#define NV_MAX_I2C 4

typedef struct NVI2CPort {
    int index;                  /* DCB I2C table index */
    uint8_t drive, sense;       /* CRTC register indices */
    bool scl, sda, sda_in;
    /* the trace's observer of the wire (i2c.c) */
    bool obs_active, obs_first;
    uint8_t obs_byte, obs_bits;
    I2CBus *bus;
    bitbang_i2c_interface bb;
} NVI2CPort;

/* Plain 32-bit register storage for units whose registers the regdb
 * declares "rw" (offset >> 2 within the unit). */
#define NV_PLAIN_WORDS (0x1000 / 4)

typedef struct NVDevState {
    PCIDevice parent_obj;

    /* properties */
    char *vbios_path;
    char *trace_path;

    /* board, from the VBIOS */
    const NVChipset *chip;
    uint8_t *rom;
    uint32_t rom_size;
    NVBios bios;
    uint32_t strap;
    uint32_t vram_mb;
    uint8_t ram_type;

    VGACommonState vga;
    QemuConsole *headb_con;     /* head B's picture (scanout.c) */
    /* the VGA core's own hooks, for standard VGA modes (scanout.c) */
    int (*vga_get_bpp)(VGACommonState *vga);
    void (*vga_get_offsets)(VGACommonState *vga, uint32_t *line_offset,
                            uint32_t *start_addr, uint32_t *line_compare);
    void (*vga_get_resolution)(VGACommonState *vga, int *width, int *height);
    MemoryRegion bar0;
    MemoryRegion unassigned;
    MemoryRegion rom_bar;
    MemoryRegion pramin_bar;
    MemoryRegion vga_ports;
    NVUnitRegion regions[NV_MAX_UNITS];
    int n_regions;

    /* PMC */
    uint32_t pmc_intr_sw;
    uint32_t pmc_intr_en;
    uint32_t pmc_enable;
    uint32_t pmc_boot1;
    bool irq_level;             /* the PCI INTx line as last driven */

    /* PTIMER */
    QEMUTimer *ptimer_alarm;
    uint32_t ptimer_num, ptimer_den;
    uint64_t ptimer_base_time;      /* TIME at ptimer_base_ns */
    int64_t ptimer_base_ns;
    uint32_t ptimer_alarm0;
    uint32_t ptimer_intr, ptimer_intr_en;

    /* PBUS */
    uint32_t pbus_intr, pbus_intr_en;

    /* PFB, PRAMDAC, PCRTC plain registers */
    uint32_t pfb_regs[NV_PLAIN_WORDS];
    uint32_t pbus_regs[NV_PLAIN_WORDS];
    uint32_t pramdac_regs[2][NV_PLAIN_WORDS];
    uint32_t pcrtc_regs[2][NV_PLAIN_WORDS];

    /* TMDS transmitters behind PRAMDAC: [head][link] index/data files */
    uint8_t tmds[2][2][256];
    uint8_t tmds_data[2][2];
    uint32_t tmds_ctrl[2][2];

    /* PCRTC */
    uint32_t pcrtc_intr[2], pcrtc_intr_en[2];
    QEMUTimer *vblank_timer[2];

    /* head B's palette DAC (PRMDIO1); head A's is the VGA core's */
    uint8_t palb[768];
    uint8_t palb_mask, palb_windex, palb_rindex, palb_sub, palb_cache[3];

    /* VGA: head A's CR file is vga.cr, head B's is this one. */
    uint8_t crb[256];
    uint8_t crb_index;
    bool ext_unlocked[2];

    /* I2C and what is plugged in */
    NVI2CPort i2c[NV_MAX_I2C];
    int n_i2c;
    char *monitor;              /* "default", "none" or an EDID file */
    char *monitor_dvi;          /* on the DVI connector: the same, digital */
    char *panel;                /* on the LVDS output: "WxH", a file, none */
    char *tv;                   /* what is on the TV encoder's outputs */
    char *fault;                /* injected misbehaviour, for driver tests */
    bool fault_dead, fault_prom;
    int crt_i2c;                /* DCB I2C port of the first CRT */
    int dvi_i2c;                /* ... of the first TMDS output, or -1 */
    int lvds_i2c;               /* ... of the first LVDS output, or -1 */

    /* register trace */
    FILE *trace;
    uint64_t trace_seq;
    Notifier exit_notifier;
} NVDevState;

/* nvdev.c */
void nvdev_update_irq(NVDevState *s);
void nvdev_trace_record(NVDevState *s, char dir, unsigned size,
                        const char *space, uint32_t addr, uint64_t val,
                        const char *unit, const char *name, bool unimp);
void nvdev_trace_access(NVDevState *s, char dir, unsigned size,
                        const char *space, uint32_t addr, uint64_t val,
                        const char *unit, bool unimp);
uint64_t nv_plain_read(NVDevState *s, uint32_t *regs, const NVUnit *u,
                       hwaddr addr, bool *unimp);
void nv_plain_write(NVDevState *s, uint32_t *regs, const NVUnit *u,
                    hwaddr addr, uint64_t val, bool *unimp);
/* PCI config space mirror (PBUS 0x1800) */
uint32_t nvdev_pci_config_read(NVDevState *s, uint32_t addr, unsigned size);
void nvdev_pci_config_write(NVDevState *s, uint32_t addr, uint32_t val,
                            unsigned size);

/* scanout.c */
void nv_scanout_init(NVDevState *s);
void nv_cursor_changed(NVDevState *s);
void nv_scanout_init_headb(NVDevState *s);
bool nv_crtc_frame(NVDevState *s, int head, uint64_t *frame_ns,
                   uint32_t *vtotal, uint32_t *vdisplay);

/* i2c.c */
bool nv_i2c_init(NVDevState *s, Error **errp);
NVI2CPort *nv_i2c_port(NVDevState *s, int index);
bool nv_i2c_attach_monitor(NVDevState *s, int port, const char *what,
                           Error **errp);
bool nv_i2c_sense(NVDevState *s, uint8_t idx, uint8_t *val);
void nv_i2c_drive(NVDevState *s, uint8_t idx, uint8_t val);

/* ch7006.c */
bool nv_ch7006_attach(NVDevState *s, int port, uint8_t addr, const char *tv,
                      Error **errp);

/* units */
extern const NVUnit nv_unit_pmc, nv_unit_pbus, nv_unit_pci40, nv_unit_ptimer, nv_unit_pfb,
    nv_unit_pextdev, nv_unit_prom, nv_unit_pramin, nv_unit_prmvio,
    nv_unit_prmcio[2], nv_unit_pcrtc[2], nv_unit_pramdac[2],
    nv_unit_prmdio[2];

uint32_t nv_pmc_intr(NVDevState *s);
void nv_ptimer_init(NVDevState *s);
void nv_ptimer_reset(NVDevState *s);
void nv_pbus_reset(NVDevState *s);
void nv_ptimer_rebase(NVDevState *s);
uint64_t nv_ptimer_nvclk_khz(NVDevState *s);
uint32_t nv_crystal_khz(NVDevState *s);
void nv_pfb_reset(NVDevState *s);
void nv_pramdac_reset(NVDevState *s);
void nv_pcrtc_init(NVDevState *s);
void nv_pcrtc_reset(NVDevState *s);
void nv_vga_reset(NVDevState *s);
uint8_t nv_dac_sense_st00(NVDevState *s);
uint8_t nv_vga_port_read(NVDevState *s, int head, uint16_t port);
void nv_vga_port_write(NVDevState *s, int head, uint16_t port, uint8_t val);
extern const MemoryRegionOps nv_vga_legacy_ops;

#endif
