"""Device basics over qtest: identification from the VBIOS, VRAM size,
the PROM window and its enable bit, the PCI mirror, unimplemented
registers flagged in the trace, the NV4x backlight PWM, the panel
property."""
import pytest

from nvdevkit import trace


def test_identity_from_vbios(device, board_info):
    b = board_info('nv11-ch7006')
    with device() as d:
        assert d.cfg_read(0x00) == b.num('device') << 16 | b.num('vendor')
        assert d.cfg_read(0x08) >> 16 == 0x0300, 'class is not VGA'
        assert d.rd32(0x000000) >> 20 == 0x011
        assert d.rd32(0x000004) == 0, 'BOOT_1 must read 0 (little endian)'
        assert d.rd32(0x101000) == b.num('strap')


def test_vram_size_register(device, board_info):
    with device() as d:
        assert d.rd32(0x10020c) == board_info('nv11-ch7006').num('vram_mb') << 20


def test_prom_needs_rom_shadow_cleared(device, board_info):
    rom = open(board_info('nv11-ch7006').rom, 'rb').read()
    with device() as d:
        assert d.rd32(0x001850) & 1, 'ROM access must start disabled'
        assert d.rd32(0x300000) == 0
        d.wr32(0x001850, 0)
        assert d.cfg_read(0x50) & 1 == 0, '0x1850 must mirror PCI config 0x50'
        for off in (0, 4, 0x100, 0xfffc):
            assert d.rd32(0x300000 + off) == int.from_bytes(rom[off:off + 4], 'little')
        assert d.rd08(0x300003) == rom[3]


def test_pci_mirror_byte_access(device):
    with device() as d:
        assert d.rd32(0x001800) == d.cfg_read(0)
        d.wr08(0x001804 + 0, 0x07)       # command register through the mirror
        assert d.cfg_read(0x04) & 0x7 == 0x7


def test_extended_crtc_lock(device):
    with device() as d:
        def cr(i, v=None):
            d.wr08(0x6013d4, i)
            if v is None:
                return d.rd08(0x6013d5)
            d.wr08(0x6013d5, v)
        cr(0x25, 0x11)
        assert cr(0x25) == 0, 'extended CRTC registers must be locked at reset'
        cr(0x1f, 0x57)
        cr(0x25, 0x11)
        assert cr(0x25) == 0x11
        assert cr(0x1f) != 0
        cr(0x1f, 0x99)
        assert cr(0x25) == 0 and cr(0x1f) == 0


# nouveau's NVWritePRMVIO/NVReadPRMVIO (dispnv04/hw.h): a head's sequencer
# and graphics registers are at PRMVIO 0x0c0000, + NV_PRMVIO_SIZE (0x2000)
# for head B on NV4x ("Only NV4x have two pvio ranges"); the other two-head
# chips reach head B there after NVSetOwner (CR44 = 3 * head).
PRMVIO, PRMVIO_SIZE = 0x0c0000, 0x2000
SRX, GRX = 0x3c4, 0x3ce


def seq(d, base, reg, val=None, index=SRX):
    d.wr08(base + index, reg)
    if val is None:
        return d.rd08(base + index + 1)
    d.wr08(base + index + 1, val)


def set_owner(d, head):
    d.wr08(0x6013d4, 0x1f)
    d.wr08(0x6013d5, 0x57)
    d.wr08(0x6013d4, 0x44)
    d.wr08(0x6013d5, 3 * head)


@pytest.mark.parametrize('board', ['nv43', 'nv17'])
def test_each_head_has_its_own_sequencer_and_graphics_registers(device, board):
    """SR01 (clocking mode) and GR05 (mode) of the two heads hold what was
    written to each, reached the way nouveau reaches them on the chip."""
    with device(board) as d:
        def head_base(head):
            if board == 'nv43':
                return PRMVIO + head * PRMVIO_SIZE
            set_owner(d, head)
            return PRMVIO
        for head, sr01, gr05 in ((0, 0x01, 0x40), (1, 0x21, 0x10)):
            seq(d, head_base(head), 0x01, sr01)
            seq(d, head_base(head), 0x05, gr05, index=GRX)
        for head, sr01, gr05 in ((0, 0x01, 0x40), (1, 0x21, 0x10)):
            assert seq(d, head_base(head), 0x01) == sr01, f'head {head} SR01'
            assert seq(d, head_base(head), 0x05, index=GRX) == gr05, f'head {head} GR05'
        # misc output: written at 0x3c2, read at 0x3cc
        d.wr08(head_base(1) + 0x3c2, 0xe3)
        assert d.rd08(head_base(1) + 0x3cc) == 0xe3
        assert d.rd08(head_base(0) + 0x3cc) != 0xe3


def test_nv17_has_one_prmvio_window(device, tmp_path):
    """Before NV4x there is no second window: 0x0c23c4 is unassigned."""
    with device('nv17', trace=True) as d:
        seq(d, PRMVIO + PRMVIO_SIZE, 0x01, 0x21)
        assert seq(d, PRMVIO + PRMVIO_SIZE, 0x01) == 0
    _, records = trace.read(str(tmp_path / 'trace.txt'))
    assert all(r.unimp for r in records if r.addr == PRMVIO + PRMVIO_SIZE + SRX)


def test_unimplemented_reads_zero_and_are_flagged(device, tmp_path):
    with device(trace=True) as d:
        assert d.rd32(0x555550) == 0
        assert d.rd32(0x000000) != 0
    header, records = trace.read(str(tmp_path / 'trace.txt'))
    flagged = [r for r in records if r.addr == 0x555550]
    assert flagged and flagged[0].unimp
    boot0 = [r for r in records if r.addr == 0 and r.dir == 'R']
    assert boot0 and not boot0[0].unimp and boot0[0].name == 'BOOT_0'


def test_vblank_at_the_programmed_refresh(device):
    """800x600 timings (htotal 1056, vtotal 628) at VPLL1 N=123 M=11 P=2
    (40.025 MHz): vblank interrupts come at 60.35 Hz."""
    crtc = {0x00: 0x7f, 0x01: 0x63, 0x06: 0x72, 0x07: 0xf0, 0x12: 0x57,
            0x25: 0x00, 0x2d: 0x00, 0x41: 0x00, 0x28: 0x03}
    with device() as d:
        d.wr08(0x6013d4, 0x1f)
        d.wr08(0x6013d5, 0x57)              # unlock the extended registers
        for idx, val in crtc.items():
            d.wr08(0x6013d4, idx)
            d.wr08(0x6013d5, val)
        d.wr32(0x680508, 123 << 8 | 11 | 2 << 16)
        d.wr32(0x600140, 1)                 # PCRTC INTR_EN vblank
        d.wr32(0x000140, 1)                 # PMC INTR_EN
        d.clock_step(50_000_000)            # let the new frame rate settle
        d.wr32(0x600100, 1)
        count = 0
        for _ in range(1000):               # one second, in 1 ms steps
            d.clock_step(1_000_000)
            if d.rd32(0x600100) & 1:
                assert d.rd32(0x000100) & (1 << 24), 'PMC does not show CRTC0'
                count += 1
                d.wr32(0x600100, 1)
        assert count in (60, 61), f'{count} vblanks in 1 s, want 60.35 Hz'


def test_tmds_index_data_protocol(device):
    """TMDS registers as dispnv04/hw.h reaches them: DATA then CONTROL
    (index, write enabled) writes; CONTROL with WRITE_DISABLE then DATA
    reads.  Per head and per link."""
    def tmds_write(d, base, link, idx, val):
        d.wr32(base + 0x8b4 + 8 * link, val)
        d.wr32(base + 0x8b0 + 8 * link, idx)

    def tmds_read(d, base, link, idx):
        d.wr32(base + 0x8b0 + 8 * link, 1 << 16 | idx)
        return d.rd32(base + 0x8b4 + 8 * link)

    with device('nv17') as d:
        tmds_write(d, 0x680000, 0, 0x04, 0x08)
        tmds_write(d, 0x680000, 1, 0x04, 0x01)
        tmds_write(d, 0x682000, 0, 0x04, 0x02)
        assert tmds_read(d, 0x680000, 0, 0x04) == 0x08
        assert tmds_read(d, 0x680000, 1, 0x04) == 0x01
        assert tmds_read(d, 0x682000, 0, 0x04) == 0x02
        d.wr32(0x6808b4, 0x55)
        d.wr32(0x6808b0, 1 << 16 | 0x04)        # write disabled: no commit
        assert tmds_read(d, 0x680000, 0, 0x04) == 0x08


def test_backlight_pwm_on_a_mobile_nv4x(device):
    """PBUS 0x15f0 on NV4x: a board with a panel comes out of POST lit at
    full duty; the register keeps what is written (duty 20:16, enable 31).
    A desktop NV4x has nothing on the line; before NV40 the register is not
    there."""
    with device('nv43-go') as d:
        assert d.rd32(0x0015f0) == 0x801f0000
        d.wr32(0x0015f0, 0x000a0000)
        assert d.rd32(0x0015f0) == 0x000a0000
    with device('nv43') as d:
        assert d.rd32(0x0015f0) == 0


def test_backlight_pwm_is_nv4x_only(device, tmp_path):
    with device('nv34', trace=True) as d:
        d.wr32(0x0015f0, 0x801f0000)
        assert d.rd32(0x0015f0) == 0
    header, records = trace.read(str(tmp_path / 'trace.txt'))
    reads = [r for r in records if r.addr == 0x0015f0 and r.dir == 'R']
    assert reads and all(r.unimp for r in reads)       # (writes are traced before)


@pytest.mark.parametrize('board,props,words', [
    ('nv43', 'panel=1024x768', ['panel=1024x768', 'no LVDS output']),
    ('nv43-go', 'panel=100x100', ['100x100', '320x200 to 4095x4095']),
    ('nv43-go', 'panel=/nonexistent', ['cannot read EDID']),
])
def test_bad_panel_is_refused(start_qemu, board_info, board, props, words):
    r = start_qemu(f'nvdev,vbios={board_info(board).rom},{props}')
    assert r.returncode == 1, f'QEMU exit {r.returncode}: {r.stderr}'
    for w in words:
        assert w in r.stderr, r.stderr
