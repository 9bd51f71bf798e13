"""Display state rebuilt from a register trace: the CRTC register files of
both heads (through the PRMCIO index/data ports), PRAMDAC and PCRTC
registers, and what they mean — the mode timings a head was programmed
with and the pixel clock its VPLL gives."""
import collections

CRTC_PORTS = {0x6013d4: 0, 0x6033d4: 1}        # index port -> head
PRAMDAC_VPLL = {0: 0x680508, 1: 0x680520}
PRAMDAC_VPLL_B = {0: 0x680578, 1: 0x68057c}     # second stage (two-reg PLLs)
VCO2_ENABLE = 8 << 28

# chipsets whose VPLLs have a second register (nouveau's nv_two_reg_pll)
TWO_REG_PLL = {'NV31', 'NV36'} | {f'NV4{c}' for c in '0123456789ABCDEF'}

Timings = collections.namedtuple('Timings', 'hdisplay hsync_start hsync_end htotal '
                                            'vdisplay vsync_start vsync_end vtotal')

# the flat panel timing generator (dispnv04/dfp.c): per head, vertical
# registers at 0x800.., horizontal at 0x820.., each DISPLAY_END, TOTAL,
# CRTC, SYNC_START, SYNC_END, VALID_START, VALID_END
FP_BASE = {0: 0x680800, 1: 0x682800}
FP_FIELDS = ('display_end', 'total', 'crtc', 'sync_start', 'sync_end',
             'valid_start', 'valid_end')
FPTimings = collections.namedtuple('FPTimings', [f'h{f}' for f in FP_FIELDS] +
                                   [f'v{f}' for f in FP_FIELDS])
# TMDS index/data pairs: (RAMDAC, link) -> (control, data)
TMDS_PORTS = {(r, l): (0x6808b0 + 0x2000 * r + 8 * l, 0x6808b4 + 0x2000 * r + 8 * l)
              for r in (0, 1) for l in (0, 1)}
TMDS_WRITE_DISABLE = 1 << 16


def bit(v, n):
    return (v >> n) & 1


class DisplayState:
    """Register state after replaying trace records (writes only)."""

    def __init__(self, crystal_khz=14318, chipset=None):
        self.crystal_khz = crystal_khz
        self.two_reg = chipset in TWO_REG_PLL
        self.cr = [[0] * 256, [0] * 256]
        self.index = [0, 0]
        self.mmio = {}
        self.tmds = {k: {} for k in TMDS_PORTS}     # what was written to each
        self._tmds_data = {k: 0 for k in TMDS_PORTS}

    def apply(self, r):
        if r.dir != 'W' or r.space != 'mmio':
            return
        for k, (ctrl, data) in TMDS_PORTS.items():
            if r.addr == data:
                self._tmds_data[k] = r.value & 0xff
            elif r.addr == ctrl and not r.value & TMDS_WRITE_DISABLE:
                self.tmds[k][r.value & 0xff] = self._tmds_data[k]
        if r.width == 1 and r.addr in CRTC_PORTS:
            self.index[CRTC_PORTS[r.addr]] = r.value
        elif r.width == 1 and r.addr - 1 in CRTC_PORTS:
            head = CRTC_PORTS[r.addr - 1]
            self.cr[head][self.index[head]] = r.value
        elif r.width == 4:
            self.mmio[r.addr] = r.value

    @classmethod
    def replay(cls, records, until=None, **kw):
        st = cls(**kw)
        for r in records:
            if until is not None and r.seq >= until:
                break
            st.apply(r)
        return st

    def timings(self, head):
        """Inverse of dispnv04/crtc.c nv_crtc_mode_set_vga (CRT outputs)."""
        c = self.cr[head]
        heb, lsr, ebr, ovl = c[0x2d], c[0x25], c[0x41], c[0x07]
        htotal = ((c[0x00] | bit(heb, 0) << 8) + 5) * 8
        hdisplay = ((c[0x01] | bit(heb, 1) << 8) + 1) * 8
        hrs = c[0x04] | bit(heb, 3) << 8
        hsync_start = (hrs - 1) * 8
        hre = (hrs & ~0x1f) | (c[0x05] & 0x1f)
        if hre <= hrs:
            hre += 0x20
        hsync_end = (hre - 1) * 8
        vtotal = (c[0x06] | bit(ovl, 0) << 8 | bit(ovl, 5) << 9 |
                  bit(lsr, 0) << 10 | bit(ebr, 0) << 11) + 2
        vdisplay = (c[0x12] | bit(ovl, 1) << 8 | bit(ovl, 6) << 9 |
                    bit(lsr, 1) << 10 | bit(ebr, 2) << 11) + 1
        vrs = (c[0x10] | bit(ovl, 2) << 8 | bit(ovl, 7) << 9 |
               bit(lsr, 2) << 10 | bit(ebr, 4) << 11)
        vsync_start = vrs + 1
        vre = (vrs & ~0xf) | (c[0x11] & 0xf)
        if vre <= vrs:
            vre += 0x10
        vsync_end = vre + 1
        return Timings(hdisplay, hsync_start, hsync_end, htotal,
                       vdisplay, vsync_start, vsync_end, vtotal)

    def vpll(self, head):
        """(N, M, P, kHz) of a head's VPLL; N and M are (N1, N2), (M1, M2)
        where a second stage is enabled (hw.c nouveau_hw_decode_pll)."""
        v = self.mmio.get(PRAMDAC_VPLL[head], 0)
        m, n, p = v & 0xff, (v >> 8) & 0xff, (v >> 16) & 7
        khz = self.crystal_khz * n / m / (1 << p) if m else 0.0
        v2 = self.mmio.get(PRAMDAC_VPLL_B[head], 0)
        # 0x011f in the second register is "single stage" (nvkm devinit
        # setPLL_double_highregs: "magic value used by nvidia")
        if self.two_reg and v2 & VCO2_ENABLE and v2 & 0xffff != 0x011f:
            m2, n2 = v2 & 0xff, (v2 >> 8) & 0xff
            khz = khz * n2 / m2 if m2 else 0.0
            return (n, n2), (m, m2), p, khz
        return n, m, p, khz

    def fp_timings(self, head):
        """The FP_* registers of a head, as written (the *_END registers
        hold value - 1)."""
        b = FP_BASE[head]
        return FPTimings(*[self.mmio.get(b + 0x20 + 4 * i, 0) for i in range(7)],
                         *[self.mmio.get(b + 4 * i, 0) for i in range(7)])

    def fp_control(self, head):
        return self.mmio.get(FP_BASE[head] + 0x48, 0)

    def bpp(self, head):
        return {0: 0, 1: 8, 2: 16, 3: 32}[self.cr[head][0x28] & 3]

    def pitch(self, head):
        c = self.cr[head]
        return (c[0x13] | (c[0x19] & 0xe0) << 3 | (c[0x42] & 0x40) << 5) * 8


def parse_modetest_modes(lines):
    """Modes from `modetest -c`: name -> (clock kHz, Timings, refresh)."""
    modes = {}
    for line in lines:
        f = line.split()
        # "#0 1024x768 60.00 1024 1048 1184 1344 768 771 777 806 65000 flags: ..."
        if len(f) >= 12 and f[0].startswith('#') and 'x' in f[1]:
            try:
                nums = [int(x) for x in f[3:12]]
            except ValueError:
                continue
            t = Timings(nums[0], nums[1], nums[2], nums[3],
                        nums[4], nums[5], nums[6], nums[7])
            modes.setdefault(f[1], []).append((nums[8], t, float(f[2])))
    return modes
