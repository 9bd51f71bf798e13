/*
 * nvdev PRAMDAC (0x680000, head B at 0x682000): PLLs, DAC control and
 * timing registers.  The PLL coefficients reset to the board's values;
 * NVPLL clocks PTIMER.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nvdev.h"

#define NV_PRAMDAC_NVPLL_COEFF  0x500
#define NV_PRAMDAC_MPLL_COEFF   0x504

void nv_pramdac_reset(NVDevState *s)
{
    memset(s->pramdac_regs, 0, sizeof(s->pramdac_regs));
    if (s->bios.has_board) {
        s->pramdac_regs[0][NV_PRAMDAC_NVPLL_COEFF >> 2] = s->bios.board.nvpll;
        s->pramdac_regs[0][NV_PRAMDAC_MPLL_COEFF >> 2] = s->bios.board.mpll;
    } else {
        /* 14.318 MHz * 0x55 / 7: about 174 MHz */
        s->pramdac_regs[0][NV_PRAMDAC_NVPLL_COEFF >> 2] = 0x00005507;
        s->pramdac_regs[0][NV_PRAMDAC_MPLL_COEFF >> 2] = 0x00004506;
    }
}

static uint64_t nv_pramdac_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                                unsigned size, bool *unimp)
{
    return nv_plain_read(s, s->pramdac_regs[u->instance], u, addr, unimp);
}

static void nv_pramdac_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                             uint64_t val, unsigned size, bool *unimp)
{
    if (u->instance == 0 && addr == NV_PRAMDAC_NVPLL_COEFF) {
        nv_ptimer_rebase(s);
    }
    nv_plain_write(s, s->pramdac_regs[u->instance], u, addr, val, unimp);
}

const NVUnit nv_unit_pramdac[2] = {
    { .name = "PRAMDAC0", .base = 0x680000, .size = 0x1000, .instance = 0,
      .dword = true, .read = nv_pramdac_read, .write = nv_pramdac_write },
    { .name = "PRAMDAC1", .base = 0x682000, .size = 0x1000, .instance = 1,
      .needs_caps = NV_CAP_TWO_HEADS, .dword = true,
      .read = nv_pramdac_read, .write = nv_pramdac_write },
};
