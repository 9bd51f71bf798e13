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
#include "hw/display/nvdev/nvdev-regs.h"

#define TYPE_NVDEV "nvdev"
#define TYPE_NVDEV_NFORCE "nvdev-nforce"
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
/* the VPLLs' second stage in 0x578/0x57c (NV31, NV36, NV4x) */
#define NV_CAP_TWO_REG_PLL  (1u << 7)
/* a CR1F lock per head unless PBUS_DEBUG_1 ties them (NV11) */
#define NV_CAP_CR_LOCK_EACH (1u << 8)
#define NV_CAP_PCIE_GART    (1u << 9)   /* NV41+ PCIE GART at 0x100800 */
/* where the RAM type is (else, with NV_CAP_NV40, PFB 0x100474) */
#define NV_CAP_RAM_PBUS1218 (1u << 10)  /* NV20-NV3x but NV34, NV40/45: 0x1218 9:8 */
#define NV_CAP_RAM_PFB914   (1u << 11)  /* G71/G73: PFB 0x100914 bits 1:0 */
/* the NV44 class (NV44, NV46, NV4A, NV4C, NV4E, NV6x): PFIFO RAMFC
 * (0x2220) holds a VRAM address, and RAMIN is the end of VRAM reversed in
 * 512 KiB blocks (nv40_fifo_init's formula for these chips) */
#define NV_CAP_RAMIN_512K   (1u << 12)
#define NV_CAP_NV44_GART    (1u << 13)  /* NV44-class PCIE GART, table in VRAM */
#define NV_CAP_NV4E_I2C     (1u << 14)  /* C51: I2C ports may be PCRTC words */
/* an nForce IGP (NV1A, NV1F): its memory is what the host bridge's
 * function 1 sets aside (nforce.c) */
#define NV_CAP_NFORCE       (1u << 15)
/* NV4x: a PRMVIO window per head, head B's at 0x0c2000 (nouveau's
 * NVWritePRMVIO: "Only NV4x have two pvio ranges") */
#define NV_CAP_PRMVIO_EACH  (1u << 16)

typedef struct NVChipset {
    const char *name;
    uint8_t chipset;            /* nouveau's device->chipset */
    NVFamily family;
    uint32_t boot0;
    uint16_t pci_id_first, pci_id_last;
    uint32_t caps;
    uint16_t default_vram_mb;
    /* NV4x PBUS 0x1540, the graphics units present: 7:0 the pixel quad
     * pipes, 15:8 the vertex units (nouveau sizes its instance memory,
     * nv40_instmem_oneinit, and PGRAPH 0x405000 from it) */
    uint16_t hw_units;
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
    uint32_t excludes_caps;     /* absent if the chipset has any of these */
    bool dword;                 /* 32-bit registers: sub-dword access merged */
    bool bytewise;              /* byte ports: wider access = one per byte */
    uint64_t (*read)(NVDevState *s, const NVUnit *u, hwaddr addr,
                     unsigned size, bool *unimp);
    void (*write)(NVDevState *s, const NVUnit *u, hwaddr addr, uint64_t val,
                  unsigned size, bool *unimp);
};

/*
 * A unit's life beside its registers (nvkm's subdev init/fini/dtor, in
 * spirit): what it makes when the device is realized (its timers), puts
 * back at reset, and frees at unrealize.  nvdev.c calls each in the order
 * of nv_unit_life[].
 */
typedef struct NVUnitLife {
    const char *name;
    void (*realize)(NVDevState *s);
    void (*reset)(NVDevState *s);
    void (*unrealize)(NVDevState *s);
} NVUnitLife;

typedef struct NVUnitRegion {
    NVDevState *s;
    const NVUnit *unit;
    MemoryRegion mr;
} NVUnitRegion;

#define NV_MAX_UNITS 32
#define NV_MAX_I2C 4

typedef struct NVI2CPort {
    int index;                  /* DCB I2C table index */
    uint8_t type;               /* NVBIOS_I2C_NV04 or NVBIOS_I2C_NV4E */
    uint8_t drive, sense;       /* NV04: CRTC register indices; NV4E: both
                                 * the offset of its word from 0x600800 */
    uint8_t ctl;                /* NV4E: the word's low byte as written */
    bool scl, sda, sda_in;
    /* the trace's observer of the wire (i2c.c) */
    bool obs_active, obs_first;
    uint8_t obs_byte, obs_bits;
    I2CBus *bus;
    bitbang_i2c_interface bb;
} NVI2CPort;

/* PFIFO (pfifo.c): registers 0x2000..0x3fff, CACHE1's methods included */
#define NV_FIFO_WORDS (0x2000 / 4)
#define NV_MAX_CHANNELS 32

/*
 * PGRAPH (pgraph.c, gr2d.c): what a channel's context holds.  Before
 * NV50 the 2D state (surfaces, clip, ROP, pattern, colours) is PGRAPH
 * context per channel, not per object: methods of any object of a class
 * set it, and the operations read it.  One row per channel, a word per
 * item, so that migration and the context switch are plain copies.
 */
enum {
    GC_SUBC_INST = 0,           /* 8: instance bound on each subchannel */
    GC_SUBC_CLASS = 8,          /* 8: its class */
    GC_NOTIFY_DMA = 16,         /* the notifier ctxdma of the last 0x180 */
    GC_NOTIFY_PENDING,          /* a NOTIFY method armed the notifier */
    GC_SURF_FORMAT, GC_SURF_PITCH, GC_SURF_OFFSET_SRC, GC_SURF_OFFSET_DST,
    GC_SURF_DMA_SRC, GC_SURF_DMA_DST,
    GC_CLIP_POINT, GC_CLIP_SIZE,
    GC_ROP,
    GC_PATT_COLOR_FORMAT, GC_PATT_MONO_FORMAT, GC_PATT_SHAPE,
    GC_PATT_COLOR0, GC_PATT_COLOR1, GC_PATT_BITS0, GC_PATT_BITS1,
    GC_BLIT_OPERATION, GC_BLIT_POINT_IN, GC_BLIT_POINT_OUT,
    GC_GDI_OPERATION, GC_GDI_COLOR_FORMAT, GC_GDI_MONO_FORMAT,
    GC_GDI_COLOR1_A, GC_GDI_CLIP0, GC_GDI_CLIP1, GC_GDI_COLOR0_C,
    GC_GDI_COLOR1_C, GC_GDI_SIZE_IN, GC_GDI_SIZE_OUT, GC_GDI_POINT,
    GC_GDI_PIXELS,              /* pixels of the current image drawn so far */
    GC_M2MF_DMA_IN, GC_M2MF_DMA_OUT, GC_M2MF_OFFSET_IN, GC_M2MF_OFFSET_OUT,
    GC_M2MF_PITCH_IN, GC_M2MF_PITCH_OUT, GC_M2MF_LINE_LENGTH,
    GC_M2MF_LINE_COUNT, GC_M2MF_FORMAT,
    NV_GRCTX_WORDS
};
#define NV_PGRAPH_WORDS (0x10000 / 4)   /* 0x400000..0x40ffff */
#define NV_CTXPROG_WORDS 512

/* A DMA object (ctxdma) as the engines use it (dma.c) */
typedef struct NVDmaObj {
    uint32_t inst;              /* RAMIN offset of the object */
    uint32_t flags;             /* word 0 */
    uint32_t limit;             /* last valid offset */
    uint32_t adjust;            /* word 0 bits 31:20 */
    uint32_t pte0;              /* word 2: the frame of a linear object */
} NVDmaObj;

/* Plain 32-bit register storage for units whose registers the regdb
 * declares "rw" (offset >> 2 within the unit). */
#define NV_PLAIN_WORDS (0x1000 / 4)

/*
 * Each unit's state: one struct, kept and migrated (a VMState subsection,
 * in the unit's file) by its unit; other units ask through accessors.
 */

/* PMC (pmc.c) */
typedef struct NVPmcState {
    uint32_t intr_sw;
    uint32_t intr_en;
    uint32_t enable;
    uint32_t boot1;
    bool irq_level;             /* the PCI INTx line as last driven */
} NVPmcState;

/* PTIMER (ptimer.c) */
typedef struct NVPtimerState {
    QEMUTimer *timer;           /* the alarm */
    uint32_t num, den;
    uint64_t base_time;         /* TIME at base_ns */
    int64_t base_ns;
    uint32_t alarm0;
    uint32_t intr, intr_en;
} NVPtimerState;

/* PBUS (pbus.c) */
typedef struct NVPbusState {
    uint32_t intr, intr_en;
    uint32_t regs[NV_PLAIN_WORDS];
} NVPbusState;

/* PFB (pfb.c) */
typedef struct NVPfbState {
    uint32_t regs[NV_PLAIN_WORDS];
} NVPfbState;

/* PRAMDAC, one a head (pramdac.c), with the index/data files of the TMDS
 * transmitters behind it (one a link) */
typedef struct NVPramdacState {
    uint32_t regs[NV_PLAIN_WORDS];
    uint8_t tmds[2][256];
    uint8_t tmds_data[2];
    uint32_t tmds_ctrl[2];
} NVPramdacState;

/* PCRTC, one a head (pcrtc.c) */
typedef struct NVPcrtcState {
    uint32_t regs[NV_PLAIN_WORDS];
    uint32_t intr, intr_en;
    QEMUTimer *vblank_timer;
    bool floored;               /* logged a too-short frame */
} NVPcrtcState;

/* NV's VGA extensions (prmvga.c).  Head A's VGA registers are the VGA
 * core's; head B's are these: its CR file, and its sequencer, graphics
 * controller and misc output register (PRMVIO with CR44 selecting head
 * B, or on NV4x its own window), and its palette DAC (PRMDIO1). */
typedef struct NVPrmvgaState {
    bool ext_unlocked[2];       /* CR1F, per head */
    uint8_t crb[256];
    uint8_t crb_index;
    uint8_t srb[8], srb_index, grb[16], grb_index, miscb;
    uint8_t palb[768];
    uint8_t palb_mask, palb_windex, palb_rindex, palb_sub, palb_cache[3];
} NVPrmvgaState;

/* PFIFO (pfifo.c) */
typedef struct NVPfifoState {
    uint32_t regs[NV_FIFO_WORDS];
    QEMUTimer *timer;
    uint32_t slice;             /* words pushed since the last switch */
} NVPfifoState;

/* PGRAPH (pgraph.c, gr2d.c) */
typedef struct NVPgraphState {
    uint32_t regs[NV_PGRAPH_WORDS];
    uint32_t ctx[NV_MAX_CHANNELS][NV_GRCTX_WORDS];
    uint32_t ctxprog[NV_CTXPROG_WORDS];
    uint32_t ctxprog_len;
    /* bit 0 AUTO_SAVE, 1 AUTO_LOAD: set while a channel switch runs the
     * program (synchronously, so 0 between accesses) */
    uint32_t ctxctl_auto;
    bool ctxprog_unimp_logged;
    int64_t busy_until;         /* virtual ns the engine works until */
    bool class_unimp_logged;
} NVPgraphState;

typedef struct NVDevState {
    PCIDevice parent_obj;

    /* properties */
    char *vbios_path;
    char *trace_path;
    /* over the board record (or, with none, the defaults): 0 / -1 / NULL
     * leave them be */
    uint32_t prop_vram_mb;
    uint32_t prop_strap;
    char *prop_ram_type;

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

    /* the units' state, each migrated in its own subsection */
    NVPmcState pmc;
    NVPtimerState ptimer;
    NVPbusState pbus;
    NVPfbState pfb;
    NVPramdacState pramdac[2];
    NVPcrtcState pcrtc[2];
    NVPrmvgaState prmvga;

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

    NVPfifoState pfifo;
    NVPgraphState pgraph;

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

/* pramin.c: instance memory, RAMIN offsets */
uint32_t nv_ramin_size(NVDevState *s);
bool nv_ramin_of_vram(NVDevState *s, uint64_t vram, uint32_t *off);
bool nv_ramin_valid(NVDevState *s, uint32_t off, uint32_t len);
uint32_t nv_ramin_rd32(NVDevState *s, uint32_t off);
void nv_ramin_wr32(NVDevState *s, uint32_t off, uint32_t val);
extern const MemoryRegionOps nv_ramin_bar_ops;

/* dma.c: DMA objects */
bool nv_dma_object(NVDevState *s, uint32_t inst, NVDmaObj *o,
                   const char *who);
bool nv_dma_rw(NVDevState *s, const NVDmaObj *o, uint32_t off, void *buf,
               uint32_t len, bool write, const char *who);
uint8_t *nv_dma_vram(NVDevState *s, const NVDmaObj *o, uint32_t off,
                     uint32_t len, bool write);
void nv_dma_vram_dirty(NVDevState *s, uint8_t *p, uint32_t len);

/* pfifo.c */
void nv_pfifo_init(NVDevState *s);
void nv_pfifo_reset(NVDevState *s);
void nv_pfifo_exit(NVDevState *s);
void nv_pfifo_kick(NVDevState *s);
uint32_t nv_pfifo_intr(NVDevState *s);
uint32_t nv_pfifo_nr_channels(NVDevState *s);

/* pgraph.c */
typedef enum {
    NV_GR_DONE,                 /* the method is executed */
    NV_GR_ILLEGAL_MTHD,         /* no such method in the object's class */
    NV_GR_DATA_ERROR,           /* a value the method does not take */
    NV_GR_DMA_R_FAULT,          /* a read beyond a DMA object's reach */
    NV_GR_DMA_W_FAULT,          /* a write beyond it */
} NVGrResult;
void nv_pgraph_reset(NVDevState *s);
bool nv_pgraph_ready(NVDevState *s);
int64_t nv_pgraph_busy_until(NVDevState *s);
void nv_pgraph_work(NVDevState *s, uint64_t bytes);
void nv_pgraph_bind(NVDevState *s, int chid, int subc, uint32_t inst);
void nv_pgraph_method(NVDevState *s, int chid, int subc, uint32_t mthd,
                      uint32_t data);
uint32_t nv_pgraph_intr(NVDevState *s);
uint32_t nv_pgraph_class(NVDevState *s, uint32_t inst);
uint32_t nv_pgraph_bound(NVDevState *s, int chid, int subc);

/* gr2d.c: the 2D and M2MF classes */
NVGrResult nv_gr2d_method(NVDevState *s, uint32_t *ctx, uint32_t cls,
                          uint32_t mthd, uint32_t data);
bool nv_gr2d_known_class(uint32_t cls);
const char *nv_gr_class_name(uint32_t cls);

/* scanout.c */
void nv_scanout_init(NVDevState *s);
void nv_cursor_changed(NVDevState *s);
void nv_scanout_init_headb(NVDevState *s);
bool nv_crtc_frame(NVDevState *s, int head, uint64_t *frame_ns,
                   uint32_t *vtotal, uint32_t *vdisplay);

/* i2c.c */
bool nv_i2c_init(NVDevState *s, Error **errp);
uint32_t nv_nforce_stolen_mb(PCIBus *bus, Error **errp);
NVI2CPort *nv_i2c_port(NVDevState *s, int index);
bool nv_i2c_attach_monitor(NVDevState *s, int port, const char *what,
                           Error **errp);
bool nv_i2c_sense(NVDevState *s, uint8_t idx, uint8_t *val);
void nv_i2c_drive(NVDevState *s, uint8_t idx, uint8_t val);
bool nv_i2c_pcrtc_read(NVDevState *s, hwaddr addr, uint64_t *val);
bool nv_i2c_pcrtc_write(NVDevState *s, hwaddr addr, uint64_t val);
extern const VMStateDescription vmstate_nv_i2c;

/* prmvga.c */
const uint8_t *nv_cr_file(NVDevState *s, int head);
const uint8_t *nv_headb_colour(NVDevState *s, uint8_t index);

/*
 * Registers one unit reads of another (names: nvdev-regs.h, offsets in the
 * unit): the owner keeps them in its own array and answers through these.
 */
uint32_t nv_pbus_reg(NVDevState *s, uint32_t off);
uint32_t nv_pfb_reg(NVDevState *s, uint32_t off);
uint32_t nv_pramdac_reg(NVDevState *s, int head, uint32_t off);
uint32_t nv_pcrtc_reg(NVDevState *s, int head, uint32_t off);
uint32_t nv_pfifo_reg(NVDevState *s, uint32_t reg);

/* ch7006.c */
bool nv_ch7006_attach(NVDevState *s, int port, uint8_t addr, const char *tv,
                      Error **errp);

/* each unit's state, a subsection of the device's (pmc.c, ptimer.c, ...) */
extern const VMStateDescription vmstate_nv_pmc, vmstate_nv_ptimer,
    vmstate_nv_pbus, vmstate_nv_pfb, vmstate_nv_pramdac, vmstate_nv_pcrtc,
    vmstate_nv_prmvga, vmstate_nv_pfifo, vmstate_nv_pgraph;

/* units */
extern const NVUnit nv_unit_pfifo, nv_unit_pfifo_cache40, nv_unit_user,
    nv_unit_user40, nv_unit_pgraph;
extern const NVUnit nv_unit_pmc, nv_unit_pbus, nv_unit_pci40, nv_unit_ptimer, nv_unit_pfb,
    nv_unit_pextdev, nv_unit_prom, nv_unit_pramin, nv_unit_prmvio[2],
    nv_unit_prmcio[2], nv_unit_pcrtc[2], nv_unit_pramdac[2],
    nv_unit_prmdio[2];

uint32_t nv_pmc_intr(NVDevState *s);
void nv_pmc_reset(NVDevState *s);
/* the units' interrupts pending and enabled, which PMC folds */
uint32_t nv_ptimer_intr(NVDevState *s);
uint32_t nv_pcrtc_intr(NVDevState *s, int head);
uint32_t nv_pbus_intr(NVDevState *s);
void nv_ptimer_init(NVDevState *s);
void nv_ptimer_reset(NVDevState *s);
void nv_ptimer_exit(NVDevState *s);
void nv_pbus_reset(NVDevState *s);
void nv_ptimer_rebase(NVDevState *s);
uint64_t nv_ptimer_nvclk_khz(NVDevState *s);
uint32_t nv_crystal_khz(NVDevState *s);
void nv_pfb_reset(NVDevState *s);
void nv_pramdac_reset(NVDevState *s);
void nv_pcrtc_init(NVDevState *s);
void nv_pcrtc_reset(NVDevState *s);
void nv_pcrtc_exit(NVDevState *s);
void nv_vga_reset(NVDevState *s);
uint8_t nv_dac_sense_st00(NVDevState *s);
uint8_t nv_vga_port_read(NVDevState *s, int head, uint16_t port);
void nv_vga_port_write(NVDevState *s, int head, uint16_t port, uint8_t val);
extern const MemoryRegionOps nv_vga_legacy_ops;

#endif
