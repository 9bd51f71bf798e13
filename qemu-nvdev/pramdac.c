/*
 * nvdev PRAMDAC (0x680000, head B at 0x682000): PLLs, DAC control and
 * timing registers.  The PLL coefficients reset to the board's values;
 * NVPLL clocks PTIMER.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "nvdev.h"


uint32_t nv_pramdac_reg(NVDevState *s, int head, uint32_t off)
{
    return off < sizeof(s->pramdac[head].regs) ?
           s->pramdac[head].regs[off >> 2] : 0;
}

void nv_pramdac_reset(NVDevState *s)
{
    memset(s->pramdac, 0, sizeof(s->pramdac));     /* TMDS files too */
    if (s->bios.has_board) {
        s->pramdac[0].regs[NV_PRAMDAC_NVPLL_COEFF >> 2] = s->bios.board.nvpll;
        s->pramdac[0].regs[NV_PRAMDAC_MPLL_COEFF >> 2] = s->bios.board.mpll;
    } else {
        /* 14.318 MHz * 0x55 / 7: about 174 MHz */
        s->pramdac[0].regs[NV_PRAMDAC_NVPLL_COEFF >> 2] = 0x00005507;
        s->pramdac[0].regs[NV_PRAMDAC_MPLL_COEFF >> 2] = 0x00004506;
    }
}

/*
 * NV17-style DAC load detection (dispnv04/dac.c nv17_dac_sample_load): the
 * driver has a head insert a test point (TESTPOINT_DATA with NOTBLANK,
 * TEST_CONTROL TP_INS_EN) and reads the DAC's TEST_CONTROL: SENSEB_ALLHI
 * is set while the powered DAC drives a terminated (monitor) load at a
 * level above the comparators' threshold on all three channels.  DAC A
 * (TEST_CONTROL at 0x608) is the CRT output; DAC B (0x670) has no load.
 */
#define SENSE_LEVEL                     0x100   /* of 10-bit channels */

static bool test_point_high(NVDevState *s, int head)
{
    uint32_t ctl = s->pramdac[head].regs[NV_PRAMDAC_TEST_CONTROL >> 2];
    uint32_t tp = s->pramdac[head].regs[NV_PRAMDAC_TESTPOINT_DATA >> 2];

    if (!FIELD_EX32(ctl, NV_PRAMDAC_TEST_CONTROL, TP_INS_EN) ||
        !FIELD_EX32(tp, NV_PRAMDAC_TESTPOINT_DATA, NOTBLANK)) {
        return false;
    }
    for (int ch = 0; ch < 3; ch++) {
        if (((tp >> (10 * ch)) & 0x3ff) < SENSE_LEVEL) {
            return false;
        }
    }
    return true;
}

static uint32_t nv17_dac_sense(NVDevState *s, hwaddr addr, uint32_t val)
{
    bool load = addr == NV_PRAMDAC_TEST_CONTROL &&
                strcmp(s->monitor, "none") != 0;
    bool powered = !(val & R_NV_PRAMDAC_TEST_CONTROL_PWRDWN_DAC_OFF_MASK);
    bool driven = test_point_high(s, 0) ||
                  ((s->chip->caps & NV_CAP_TWO_HEADS) && test_point_high(s, 1));

    val &= ~R_NV_PRAMDAC_TEST_CONTROL_SENSEB_ALLHI_MASK;
    if (load && powered && driven) {
        val |= R_NV_PRAMDAC_TEST_CONTROL_SENSEB_ALLHI_MASK;
    }
    return val;
}

/*
 * TMDS (dispnv04/hw.h NVReadTMDS/NVWriteTMDS): per head and link, an
 * index/data pair.  CONTROL (0x8b0, link 1 at 0x8b8) takes the index; with
 * WRITE_DISABLE clear it also commits the byte last written to DATA
 * (0x8b4 / 0x8bc), which reads the indexed register.
 */
#define TMDS_CONTROL_WRITE_DISABLE      (1u << 16)

static bool tmds_reg(hwaddr addr, int *link, bool *data)
{
    if (addr < NV_PRAMDAC_FP_TMDS_CONTROL ||
        addr > NV_PRAMDAC_FP_TMDS_DATA + 8 || (addr & 3)) {
        return false;
    }
    *link = (addr - NV_PRAMDAC_FP_TMDS_CONTROL) / 8;
    *data = (addr - NV_PRAMDAC_FP_TMDS_CONTROL) % 8 == 4;
    return true;
}

static uint64_t nv_pramdac_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                                unsigned size, bool *unimp)
{
    int head = u->instance, link;
    bool data;
    uint64_t val;

    if (tmds_reg(addr, &link, &data)) {
        uint32_t ctrl = s->pramdac[head].tmds_ctrl[link];
        return data ? s->pramdac[head].tmds[link][ctrl & 0xff] : ctrl;
    }
    val = nv_plain_read(s, s->pramdac[u->instance].regs, u, addr, unimp);

    if (u->instance == 0 && (s->chip->caps & NV_CAP_NV17_DAC) &&
        (addr == NV_PRAMDAC_TEST_CONTROL ||
         addr == NV_PRAMDAC_TEST_CONTROL_DAC2)) {
        val = nv17_dac_sense(s, addr, val);
    }
    return val;
}

static void nv_pramdac_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                             uint64_t val, unsigned size, bool *unimp)
{
    NVPramdacState *r = &s->pramdac[u->instance];
    int link;
    bool data;

    if (tmds_reg(addr, &link, &data)) {
        if (data) {
            r->tmds_data[link] = val;
        } else {
            r->tmds_ctrl[link] = val;
            if (!(val & TMDS_CONTROL_WRITE_DISABLE)) {
                r->tmds[link][val & 0xff] = r->tmds_data[link];
            }
        }
        return;
    }
    if (u->instance == 0 && addr == NV_PRAMDAC_NVPLL_COEFF) {
        nv_ptimer_rebase(s);
    }
    nv_plain_write(s, s->pramdac[u->instance].regs, u, addr, val, unimp);
    if (u->instance == 0 && addr == NV_PRAMDAC_CU_START_POS) {
        nv_cursor_changed(s);               /* CU_START_POS */
    }
}

const NVUnit nv_unit_pramdac[2] = {
    { .name = "PRAMDAC0", .base = 0x680000, .size = 0x1000, .instance = 0,
      .dword = true, .read = nv_pramdac_read, .write = nv_pramdac_write },
    { .name = "PRAMDAC1", .base = 0x682000, .size = 0x1000, .instance = 1,
      .needs_caps = NV_CAP_TWO_HEADS, .dword = true,
      .read = nv_pramdac_read, .write = nv_pramdac_write },
};

static const VMStateDescription vmstate_nv_pramdac_head = {
    .name = "nvdev/pramdac-head",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, NVPramdacState, NV_PLAIN_WORDS),
        VMSTATE_UINT8_2DARRAY(tmds, NVPramdacState, 2, 256),
        VMSTATE_UINT8_ARRAY(tmds_data, NVPramdacState, 2),
        VMSTATE_UINT32_ARRAY(tmds_ctrl, NVPramdacState, 2),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_nv_pramdac = {
    .name = "nvdev/pramdac",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(pramdac, NVDevState, 2, 1,
                             vmstate_nv_pramdac_head, NVPramdacState),
        VMSTATE_END_OF_LIST()
    },
};
