/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvdrm: a DRM/KMS driver for NVIDIA NV04..NV4x, written for the nvdev
 * virtual card and for the real thing.
 */
#ifndef NVDRM_DRV_H
#define NVDRM_DRV_H

#include <linux/i2c.h>
#include <linux/i2c-algo-bit.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/types.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>
#include <drm/drm_encoder_slave.h>
#include <drm/drm_plane.h>
#include <drm/drm_print.h>

#define NV_PMC_BOOT_0		0x000000
#define NV_PMC_BOOT_1		0x000004
#define NV_PBUS_PCI_NV_20	0x001850	/* ROM shadow: bit 0 = disabled */
#define NV_PEXTDEV_BOOT_0	0x101000
#define NV_PFB_BOOT_0		0x100000
#define NV_PFB_CFG0		0x100200
#define NV10_PFB_FIFO_DATA	0x10020c
#define NV41_PFB_RAM_TYPE	0x100474
#define NV_PROM			0x300000
#define NV_PROM_SIZE		0x100000

#define NVDRM_MAX_HEADS		2
#define NVDRM_MAX_OUTPUTS	8
#define NVDRM_MAX_I2C		4

struct nvdrm_device;
struct nvdrm_dcb_output;
struct nvdrm_output;

/* a panel backlight the chip drives itself */
struct nvdrm_backlight_funcs {
	/* whether a backlight is wired up (what POST left lit) */
	bool (*present)(struct nvdrm_device *ndev);
	int (*get)(struct nvdrm_device *ndev);
	void (*set)(struct nvdrm_device *ndev, int level);
	int max;
};

/* what the scanout FIFO's arbitration needs of the memory, read once */
struct nvdrm_mem_timing {
	int mclk, nvclk;	/* kHz, as POST left MPLL and NVPLL */
	int page_miss, cas;	/* memory clocks, PFB_CFG1 */
	bool ddr;
	int width;		/* bits */
};

/* the CRTC FIFO's burst (CR1B) and low watermark (CR20, CR47) */
struct nvdrm_fifo_arb {
	u8 burst;
	u16 lwm;
};

struct nvdrm_arb_funcs {
	/* for a mode of @clock kHz scanning out @bpp bits per pixel */
	void (*calc)(struct nvdrm_device *ndev, int clock, int bpp,
		     struct nvdrm_fifo_arb *arb);
	/* the watermark's bits 10:8 in CR47 (NV20 on) */
	bool lwm_cr47;
};

/*
 * What differs between chipset families, chosen once at probe from
 * BOOT_0 (as nvkm does with its per-chipset constructors).
 */
struct nvdrm_family_funcs {
	const char *name;
	/* VRAM size in bytes and whether it is DDR */
	int (*vram)(struct nvdrm_device *ndev, u64 *size, bool *ddr);
	/* heads with their own CRTC and RAMDAC */
	int heads;
	/* the VPLLs have a second stage in a second register (NV31, NV36,
	 * NV4x)
	 */
	bool two_reg_pll;
	/* per-head VGA sequencer/graphics registers (NV4x) rather than one
	 * set switched by the CR44 owner
	 */
	bool prmvio_per_head;
	/* a GeForce4-style display (NV17 on, not NV20): pitch bit 11 in
	 * CR42, CR53/CR54, per-DAC head routing
	 */
	bool gf4_disp;
	/* whether a load hangs on a DAC (a CRT without DDC) */
	bool (*dac_load)(struct nvdrm_device *ndev,
			 const struct nvdrm_dcb_output *dcb);
	/* PCRTC_CONFIG value for a non-VGA scanout from the start address */
	u32 crtc_cfg;
	/* the hardware cursor is A8R8G8B8 (NV11 on) rather than A1R5G5B5 */
	bool cursor_argb;
	/* the backlight PWM of a mobile part (NV4x), or NULL */
	const struct nvdrm_backlight_funcs *backlight;
	const struct nvdrm_arb_funcs *arb;
};

struct nvdrm_chip {
	u16 chipset;		/* 0x04, 0x05, 0x10, 0x11, ... 0x68 */
	const char *name;
	const struct nvdrm_family_funcs *funcs;
	/*
	 * An IGP: no ROM of its own behind the PROM window; its VBIOS is
	 * part of the system firmware, which leaves it in the legacy
	 * shadow the PCI core maps for the boot VGA device.
	 */
	bool igp;
};

/* DCB output types, as in the VBIOS */
enum nvdrm_output_type {
	NVDRM_OUTPUT_ANALOG = 0,
	NVDRM_OUTPUT_TV = 1,
	NVDRM_OUTPUT_TMDS = 2,
	NVDRM_OUTPUT_LVDS = 3,
};

struct nvdrm_dcb_output {
	u32 conn, conf;		/* raw, as the DCB holds them */
	u8 type, i2c, heads, connector, location, or;
};

/* DCB I2C port types: CRTC index registers; C51's PCRTC words */
#define NVDRM_I2C_NV04	0
#define NVDRM_I2C_NV4E	4

struct nvdrm_i2c_port {
	u8 type;
	u8 drive, sense;	/* NV04: CRTC indices; NV4E: offset from 0x600800 */
	bool used;
};

/* PLL limits for one PLL, kHz; zero fields are filled with the chip's
 * defaults when the limits are looked up.
 */
struct nvdrm_pll_limits {
	u32 reg;
	u32 vco1_min, vco1_max, vco1_min_in, vco1_max_in;
	u32 vco2_min, vco2_max, vco2_min_in, vco2_max_in;
	u8 vco1_min_n, vco1_max_n, vco1_min_m, vco1_max_m;
	u8 vco2_min_n, vco2_max_n, vco2_min_m, vco2_max_m;
	u8 max_p;
	u32 refclk;
};

struct nvdrm_vbios {
	u8 *data;
	size_t size;
	const char *source;	/* "PROM" or "PCI ROM" */
	u16 pci_device;
	u16 bmp_offset;		/* 0 if none */
	u8 bmp_major, bmp_minor;
	u16 bit_offset;		/* 0 if none */
	u8 chip_version;	/* the version's chip byte */
	u8 major_version;	/* and its first: 4 for NV1x-NV3x */
	u16 script_table;	/* the init scripts, by index */
	u8 i2c_crt, i2c_tv;	/* BMP I2C indices */
	u32 fmaxvco, fminvco;	/* BMP single-stage VCO limits */
	u32 dactestval;		/* DAC load test level (BIT 'i'), or 0 */
	/* TMDS script clock tables for outputs with OR A, and B or C */
	u16 tmds_table[2];
	u16 fp_table;		/* flat panel table, or 0 */
	u8 digital_min_front_porch;
	bool mobile;		/* the feature byte's bit 4 */
	/* the LVDS table 3.0 (NV4x mobile parts), or 0, and what the FP
	 * strap picks in it: the record's conf (bit 0 dual link, bit 1
	 * 24-bit) and whether it names a VBIOS mode instead of DDC
	 */
	u16 lvds_table;
	u8 fp_strap;
	u8 lvds_conf;
	u8 lvds_24bit_mask;	/* EDID panels: 24-bit, by link */
	u32 lvds_duallink_khz;	/* EDID panels: dual link from */
	bool fp_no_ddc;
	u16 fp_mode;		/* that mode's flat panel record, or 0 */

	u8 dcb_version;
	int n_outputs;
	struct nvdrm_dcb_output outputs[NVDRM_MAX_OUTPUTS];
	struct nvdrm_i2c_port i2c[NVDRM_MAX_I2C];

	u8 pll_version;
	int n_pll;
	struct nvdrm_pll_limits pll[4];
};

struct nvdrm_i2c_bus {
	struct nvdrm_device *ndev;
	struct i2c_adapter adapter;
	struct i2c_algo_bit_data bit;
	u8 type;
	u8 drive, sense;
	bool registered;
};

struct nvdrm_head {
	int index;
	struct drm_crtc crtc;
	struct drm_plane primary;
	struct drm_plane cursor;
	u32 cursor_offset;		/* of its image in VRAM */
	void __iomem *cursor_image;	/* that image, through BAR1 */
};

/* each head's 64x64 cursor image, 32 bpp at most */
#define NVDRM_CURSOR_SIZE	(64 * 64 * 4)

struct nvdrm_output {
	struct nvdrm_device *ndev;
	const struct nvdrm_dcb_output *dcb;
	/* the encoder; an I2C slave encoder (the CH7006) for off-chip TV */
	struct drm_encoder_slave slave;
	struct drm_connector connector;
	struct nvdrm_i2c_bus *ddc;
	int index;
	/* the CH7006's own "scale" property, which DRM's atomic state does
	 * not know: its value
	 */
	struct drm_property *scale_prop;
	u64 scale;
	/* TMDS: the FP_TG_CONTROL value of the mode, and whether another
	 * output of the other kind shares the DDC bus (a DVI-I connector:
	 * the EDID's digital bit says which one is plugged in)
	 */
	u32 fp_control;
	bool shared_ddc;
	/* a DVI-I connector carries an analog and a digital output: the
	 * first owns the connector and @other is the second; @sink is the
	 * one the display found there is for
	 */
	struct nvdrm_output *other, *sink;
	/* the DDC answered at the last detection (a poll that finds it
	 * answering again keeps that detection's result)
	 */
	bool ddc_answered;
	/* LVDS: the panel's native size (from its EDID or the VBIOS), the
	 * last panel script run (as script << 1 | head, -1 for none: none
	 * is run twice in a row), the link count of the mode, the backlight
	 */
	u16 panel_w, panel_h;
	int lvds_last;
	bool dual_link;
	struct backlight_device *backlight;
};

struct nvdrm_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *mmio;
	u32 boot0;
	const struct nvdrm_chip *chip;
	u64 vram_size;
	bool vram_ddr;
	u32 crystal;		/* kHz, from the straps */
	struct nvdrm_vbios vbios;
	struct nvdrm_mem_timing mem;

	struct nvdrm_head heads[NVDRM_MAX_HEADS];
	struct nvdrm_i2c_bus i2c[NVDRM_MAX_I2C];
	int n_outputs;
	struct nvdrm_output outputs[NVDRM_MAX_OUTPUTS];
};

#define to_nvdrm(d) container_of(d, struct nvdrm_device, drm)

static inline struct nvdrm_head *to_head(struct drm_crtc *crtc)
{
	return container_of(crtc, struct nvdrm_head, crtc);
}

static inline u32 nv_rd32(struct nvdrm_device *ndev, u32 reg)
{
	return ioread32(ndev->mmio + reg);
}

static inline void nv_wr32(struct nvdrm_device *ndev, u32 reg, u32 val)
{
	iowrite32(val, ndev->mmio + reg);
}

static inline u8 nv_rd08(struct nvdrm_device *ndev, u32 reg)
{
	return ioread8(ndev->mmio + reg);
}

static inline void nv_wr08(struct nvdrm_device *ndev, u32 reg, u8 val)
{
	iowrite8(val, ndev->mmio + reg);
}

int nvdrm_chip_identify(struct nvdrm_device *ndev);
int nvdrm_vbios_load(struct nvdrm_device *ndev);
int nvdrm_vbios_parse(struct nvdrm_device *ndev);
const struct nvdrm_pll_limits *nvdrm_vbios_pll(struct nvdrm_device *ndev,
					       u32 reg,
					       struct nvdrm_pll_limits *out);

/* nvdrm_hw.c: VGA and extended registers, PLLs */
u8 nvdrm_rd_cr(struct nvdrm_device *ndev, int head, u8 index);
void nvdrm_wr_cr(struct nvdrm_device *ndev, int head, u8 index, u8 val);
void nvdrm_wr_sr(struct nvdrm_device *ndev, int head, u8 index, u8 val);
u8 nvdrm_rd_sr(struct nvdrm_device *ndev, int head, u8 index);
void nvdrm_wr_gr(struct nvdrm_device *ndev, int head, u8 index, u8 val);
void nvdrm_wr_ar(struct nvdrm_device *ndev, int head, u8 index, u8 val);
void nvdrm_wr_misc(struct nvdrm_device *ndev, int head, u8 val);
void nvdrm_set_owner(struct nvdrm_device *ndev, int head);
void nvdrm_unlock_crtcs(struct nvdrm_device *ndev, bool unlock);
u32 nvdrm_rd_ramdac(struct nvdrm_device *ndev, int head, u32 reg);
void nvdrm_wr_ramdac(struct nvdrm_device *ndev, int head, u32 reg, u32 val);
u32 nvdrm_rd_crtc(struct nvdrm_device *ndev, int head, u32 reg);
void nvdrm_wr_crtc(struct nvdrm_device *ndev, int head, u32 reg, u32 val);

struct nvdrm_pll_vals {
	int n1, m1, n2, m2, log2p;
	int clock;		/* kHz, what the values give */
};

int nvdrm_pll_calc(struct nvdrm_device *ndev,
		   const struct nvdrm_pll_limits *lim, int clock,
		   struct nvdrm_pll_vals *pv);
int nvdrm_vpll_set(struct nvdrm_device *ndev, int head, int clock);

/* nvdrm_dac.c */
bool nvdrm_nv04_dac_load(struct nvdrm_device *ndev,
			 const struct nvdrm_dcb_output *dcb);
bool nvdrm_nv17_dac_load(struct nvdrm_device *ndev,
			 const struct nvdrm_dcb_output *dcb);

/* nvdrm_dfp.c: TMDS and LVDS outputs */
void nvdrm_dfp_mode_set(struct nvdrm_output *o, int head,
			const struct drm_display_mode *m);
void nvdrm_dfp_enable(struct nvdrm_output *o, int head, int clock);
void nvdrm_dfp_disable(struct nvdrm_output *o, int head);
bool nvdrm_fp_mode(struct nvdrm_device *ndev, struct drm_display_mode *m);
void nvdrm_dfp_release_head(struct nvdrm_device *ndev, int head);
int nvdrm_dfp_max_clock(const struct nvdrm_output *o);

/* nvdrm_script.c: VBIOS output scripts */
int nvdrm_script_run(struct nvdrm_device *ndev, u16 offset,
		     const struct nvdrm_dcb_output *outp, int head);

/* nvdrm_backlight.c */
extern const struct nvdrm_backlight_funcs nvdrm_nv40_backlight;
int nvdrm_backlight_register(struct nvdrm_output *o);
void nvdrm_backlight_unregister(struct nvdrm_output *o);

/* nvdrm_i2c.c */
int nvdrm_i2c_init(struct nvdrm_device *ndev);
void nvdrm_i2c_fini(struct nvdrm_device *ndev);

/* nvdrm_arb.c: CRTC FIFO arbitration by chip generation */
void nvdrm_arb_init(struct nvdrm_device *ndev);
extern const struct nvdrm_arb_funcs nvdrm_nv04_arb;
extern const struct nvdrm_arb_funcs nvdrm_nv10_arb;
extern const struct nvdrm_arb_funcs nvdrm_nv20_arb;

/* nvdrm_irq.c: the interrupt, vblank */
int nvdrm_irq_init(struct nvdrm_device *ndev);
void nvdrm_irq_fini(struct nvdrm_device *ndev);
int nvdrm_enable_vblank(struct drm_crtc *crtc);
void nvdrm_disable_vblank(struct drm_crtc *crtc);
bool nvdrm_scanout_position(struct drm_crtc *crtc, bool in_vblank_irq,
			    int *vpos, int *hpos, ktime_t *stime,
			    ktime_t *etime, const struct drm_display_mode *mode);

/* nvdrm_kms.c */
int nvdrm_kms_init(struct nvdrm_device *ndev, u64 cursor_vram);
void nvdrm_kms_fini(struct nvdrm_device *ndev);

#endif
