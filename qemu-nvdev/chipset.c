/*
 * nvdev: the chipsets, as data.  The VBIOS's PCI device ID selects one;
 * BOOT_0 and the units present follow from it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nvdev.h"

#define PFB04 NV_CAP_PFB_NV04
#define PFB10 NV_CAP_PFB_NV10
#define HEADS NV_CAP_TWO_HEADS
#define XTAL27 NV_CAP_CRYSTAL_27
#define DAC17 NV_CAP_NV17_DAC
#define BAR2 NV_CAP_PRAMIN_BAR
#define NV40 NV_CAP_NV40
#define PLL2 NV_CAP_TWO_REG_PLL
#define LOCK2 NV_CAP_CR_LOCK_EACH
#define GART NV_CAP_PCIE_GART
#define RAM1218 NV_CAP_RAM_PBUS1218
#define RAM914 NV_CAP_RAM_PFB914
#define RAMIN512 NV_CAP_RAMIN_512K
#define GART44 NV_CAP_NV44_GART
#define I2C4E NV_CAP_NV4E_I2C
#define NFORCE NV_CAP_NFORCE
#define VIO2 NV_CAP_PRMVIO_EACH
/* what a lineage shares: NV17's display (two heads, 27 MHz crystal strap,
 * its DAC), the NV40 core on it, and the NV44 class's instance memory and
 * GART */
#define NV17C (PFB10 | HEADS | XTAL27 | DAC17)
#define NV40C (NV17C | BAR2 | NV40 | PLL2 | VIO2)
#define NV44C (NV40C | RAMIN512 | GART44)

static const NVChipset nv_chipsets[] = {
    /* name   chipset family  BOOT_0     PCI IDs          caps                  VRAM
     *        [units] */
    { "NV04", 0x04, NV_04, 0x20004000, 0x0020, 0x0020, PFB04,                  16 },
    { "NV05", 0x05, NV_04, 0x20104000, 0x0028, 0x002f, PFB04,                  32 },
    { "NV10", 0x10, NV_10, 0x010000a1, 0x0100, 0x0103, PFB10,                  32 },
    { "NV11", 0x11, NV_11, 0x011000a1, 0x0110, 0x0113, PFB10 | HEADS | LOCK2,  32 },
    { "NV15", 0x15, NV_10, 0x015000a1, 0x0150, 0x0153, PFB10,                  32 },
    { "NV17", 0x17, NV_11, 0x017000a1, 0x0170, 0x017f, NV17C, 64 },
    /* the nForce IGPs: nForce (NV1A, NV15's core on one head) and nForce2
     * (NV1F, NV17's with two); memory from the host bridge (nforce.c) */
    { "nForce", 0x1a, NV_10, 0x01a000a1, 0x01a0, 0x01a0, PFB10 | NFORCE, 32 },
    { "nForce2", 0x1f, NV_11, 0x01f000a1, 0x01f0, 0x01f0, NV17C | NFORCE, 64 },
    { "NV18", 0x18, NV_11, 0x018000a1, 0x0180, 0x018f, NV17C, 64 },
    /* NV40 is AGP with nv04-style GART DMA objects; NV41+ have the PCIE GART */
    { "NV40", 0x40, NV_40, 0x040000a1, 0x0040, 0x0044, NV40C | RAM1218, 256,
      0x3f0f /* 4 quads (16 pixel pipes), 6 vertex units */ },
    /* NV45: NV40 behind the PCIe bridge chip, the same core */
    { "NV45", 0x45, NV_40, 0x045000a1, 0x0045, 0x004f, NV40C | RAM1218, 256,
      0x3f0f /* 4 quads, 6 vertex units */ },
    { "NV41", 0x41, NV_40, 0x041000a1, 0x00c0, 0x00c7, NV40C | GART, 128,
      0x1f07 /* 3 quads, 5 vertex units */ },
    { "NV42", 0x42, NV_40, 0x042000a1, 0x00c8, 0x00cf, NV40C | GART, 128,
      0x1f07 /* 3 quads, 5 vertex units */ },
    { "NV43", 0x43, NV_40, 0x043000a1, 0x0140, 0x014f, NV40C | GART, 128,
      0x0703 /* 2 quads (8 pixel pipes), 3 vertex units */ },
    /* NV44A: the NV44-class core (nv44_gr, nv44_fb) on AGP, so with
     * nv04-style GART DMA objects and no PCIE GART (nouveau: nv04_mmu) */
    { "NV4A", 0x4a, NV_40, 0x04a000a1, 0x0220, 0x022f, NV40C | RAMIN512, 128,
      0x0701 /* 1 quad (4 pixel pipes), 3 vertex units */ },
    /* NV44 and G72 (NV46): the NV44-class core on PCIe, with its own GART
     * (nouveau: nv44_mmu) */
    { "NV44", 0x44, NV_40, 0x044000a1, 0x0160, 0x016f, NV44C, 128,
      0x0701 /* 1 quad (4 pixel pipes), 3 vertex units */ },
    { "G72", 0x46, NV_40, 0x046000a1, 0x01d0, 0x01df, NV44C, 128,
      0x0701 /* 1 quad, 3 vertex units */ },
    /*
     * The IGPs with the NV44-class core: C51 (GeForce 6100/6150 nForce
     * 4xx), C61 (GeForce 6150SE / 6100 nForce 4xx), C73 (GeForce 7050/7100
     * nForce 6xx/7xx), C67 and C68 (GeForce 7000M / 7150M / 7050 PV,
     * MCP67/MCP68).  nouveau drives them as NV46 (nv46_fb, nv44_mmu,
     * nv04_i2c, nv44_gr with the NV47 tile registers), C51 with its own
     * nv4e_fb (12 tile regions), NV20/NV40 tile registers and I2C ports in
     * PCRTC words (nv4e_i2c); it never reads their PROM (shadowrom.c: no
     * PROM from chipset 0x4c on NV40).  One quad and one vertex unit
     * (nv40_gr_vs_count's default).  Their memory is system RAM the
     * chipset sets aside, which nouveau sizes from 0x10020c as on a
     * discrete card.
     */
    { "C51", 0x4e, NV_40, 0x04e000a1, 0x0240, 0x024f, NV44C | I2C4E, 64,
      0x0101 /* 1 quad, 1 vertex unit */ },
    { "C61", 0x4c, NV_40, 0x04c000a1, 0x03d0, 0x03df, NV44C, 64,
      0x0101 /* 1 quad, 1 vertex unit */ },
    { "C73", 0x63, NV_40, 0x063000a1, 0x07e0, 0x07ef, NV44C, 64,
      0x0101 /* 1 quad, 1 vertex unit */ },
    { "C67", 0x67, NV_40, 0x067000a1, 0x0530, 0x0537, NV44C, 64,
      0x0101 /* 1 quad, 1 vertex unit */ },
    { "C68", 0x68, NV_40, 0x068000a1, 0x0538, 0x053f, NV44C, 64,
      0x0101 /* 1 quad, 1 vertex unit */ },
    { "G70", 0x47, NV_40, 0x047000a1, 0x0090, 0x009f, NV40C | GART, 256,
      0xff3f /* 6 quads (24 pixel pipes), 8 vertex units */ },
    { "G71", 0x49, NV_40, 0x049000a1, 0x0290, 0x029f, NV40C | GART | RAM914, 256,
      0xff3f /* 6 quads, 8 vertex units */ },
    { "G73", 0x4b, NV_40, 0x04b000a1, 0x0390, 0x039f, NV40C | GART | RAM914, 256,
      0xff07 /* 3 quads (12 pixel pipes), 8 vertex units as nouveau counts */ },
    /*
     * NV20-NV3x.  GeForce3 (NV20) has one head and the older crystal
     * strap; NV25 on have two heads and the NV17 DAC (nouveau's
     * nv_two_heads and nv_gf4_disp_arch).  All but NV34 (nv10_fb) say their
     * RAM type in PBUS 0x1218 (nv20_ram_new); NV31 and NV36 have the
     * two-stage VPLLs (nv_two_reg_pll).
     */
    { "NV20", 0x20, NV_20, 0x020000a1, 0x0200, 0x0203, PFB10 | RAM1218, 64 },
    { "NV25", 0x25, NV_20, 0x025000a1, 0x0250, 0x025f, NV17C | RAM1218, 128 },
    /* NV2A: the Xbox's GPU, NV25's display with an NV20-style graphics
     * context (nouveau's nv2a_gr); nouveau drives it as NV25 otherwise.
     * On the Xbox it sits behind the MCPX's AGP bridge with unified
     * memory and no VBIOS; here it is a PCI card with a ROM. */
    { "NV2A", 0x2a, NV_20, 0x02a000a1, 0x02a0, 0x02a0, NV17C | RAM1218, 64 },
    { "NV28", 0x28, NV_20, 0x028000a1, 0x0280, 0x028f, NV17C | RAM1218, 128 },
    { "NV30", 0x30, NV_30, 0x030000a1, 0x0300, 0x030f, NV17C | RAM1218, 128 },
    { "NV31", 0x31, NV_30, 0x031000a1, 0x0310, 0x031f, NV17C | RAM1218 | PLL2, 128 },
    { "NV34", 0x34, NV_30, 0x034000a1, 0x0320, 0x032f, NV17C, 128 },
    { "NV35", 0x35, NV_30, 0x035000a1, 0x0330, 0x033f, NV17C | RAM1218, 256 },
    { "NV36", 0x36, NV_30, 0x036000a1, 0x0340, 0x034f, NV17C | RAM1218 | PLL2, 128 },
};

const NVChipset *nv_chipset_by_pci_id(uint16_t id)
{
    for (size_t i = 0; i < ARRAY_SIZE(nv_chipsets); i++) {
        if (id >= nv_chipsets[i].pci_id_first &&
            id <= nv_chipsets[i].pci_id_last) {
            return &nv_chipsets[i];
        }
    }
    return NULL;
}
