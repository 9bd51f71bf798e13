"""The IGPs.  NV1A (nForce) and NV1F (nForce2) have no memory of their
own: nouveau asks the host bridge's memory controller how much the chipset
set aside (nvkm/subdev/fb/ramnv1a.c: 00.1 config 0x7c bits 10:6 on
nForce, 0x84 bits 10:4 on nForce2, plus one) and how fast it runs
(dispnv04/hw.c: 00.3 0x6c bits 11:8 a divider of 400 MHz on nForce, 00.5
0x4c in Hz on nForce2); the qtests read those functions with nouveau's
formulas, written here, and the boots check what nouveau makes of them.

C51's I2C buses are not CRTC index registers but words
in head A's PCRTC, at 0x600800 plus the offset the DCB I2C entry (type 4)
gives: SCL out in bit 5, SDA out in bit 4, bit 0 kept set, SCL in at bit 18
and SDA in at bit 19 (nouveau's nvkm/subdev/i2c/busnv4e.c).  The qtest
bit-bangs a DDC read with that layout, written here from nouveau's source,
and must get the EDID header; the boots check that nouveau and nvdrm read
the monitor's EDID over those words and find nothing when nothing is
plugged in."""
import pytest

from nvdevkit import report, trace

BOARD = 'nv4e'
PORT0 = 0x600840                 # the nv4e board's "[i2c] port0=pcrtc:0x40"
EDID_HEADER = [0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0]


class NV4EBus:
    """An I2C master on a C51 PCRTC word, as busnv4e.c drives it."""

    def __init__(self, d, reg):
        self.d, self.reg = d, reg

    def lines(self, scl, sda):
        self.d.wr32(self.reg, (0x20 if scl else 0) | (0x10 if sda else 0) | 0x01)

    def sda(self):
        return bool(self.d.rd32(self.reg) & 1 << 19)

    def scl(self):
        return bool(self.d.rd32(self.reg) & 1 << 18)

    def start(self):
        self.lines(1, 1)
        self.lines(1, 0)
        self.lines(0, 0)

    def stop(self):
        self.lines(0, 0)
        self.lines(1, 0)
        self.lines(1, 1)

    def write(self, byte):
        """Clock a byte out; True if the slave ACKed it."""
        for i in range(7, -1, -1):
            bit = byte >> i & 1
            self.lines(0, bit)
            self.lines(1, bit)
            self.lines(0, bit)
        self.lines(0, 1)
        self.lines(1, 1)
        ack = not self.sda()
        self.lines(0, 1)
        return ack

    def read(self, ack):
        byte = 0
        for _ in range(8):
            self.lines(0, 1)
            self.lines(1, 1)
            byte = byte << 1 | self.sda()
            self.lines(0, 1)
        self.lines(0, not ack)
        self.lines(1, not ack)
        self.lines(0, not ack)
        return byte


def ddc_read(bus, offset, n):
    bus.start()
    assert bus.write(0xa0), 'no ACK from the monitor at 0x50 (write)'
    assert bus.write(offset)
    bus.lines(0, 1)
    bus.lines(1, 1)
    bus.start()                                  # repeated START
    assert bus.write(0xa1), 'no ACK from the monitor at 0x50 (read)'
    data = [bus.read(ack=i < n - 1) for i in range(n)]
    bus.stop()
    return data


def test_c51_pcrtc_i2c_reads_the_edid(device):
    with device(BOARD) as d:
        bus = NV4EBus(d, PORT0)
        bus.lines(1, 1)
        assert bus.scl() and bus.sda(), 'an idle bus reads both lines high'
        assert d.rd32(PORT0) & 0x3f == 0x31, 'the word keeps what was written'
        bus.lines(0, 0)
        assert not bus.scl() and not bus.sda()
        bus.lines(1, 1)
        assert ddc_read(bus, 0, 8) == EDID_HEADER
        # the second port has no monitor: nothing ACKs
        other = NV4EBus(d, PORT0 + 4)
        other.start()
        assert not other.write(0xa0)
        other.stop()


def test_pcrtc_i2c_words_are_c51s_only(device, tmp_path):
    """On C61, which has CRTC-indexed I2C like the discrete cards, the same
    word is no I2C port: unimplemented, reads 0."""
    with device('nv4c', log=True) as d:
        d.wr32(PORT0, 0x31)
        assert d.rd32(PORT0) == 0
    assert 'unimplemented write of 4 bytes at 0x600840' in (tmp_path / 'qemu.log').read_text()


def vga(b):
    conns = [c for c in b.report['drm'] if c['name'].endswith('VGA-1')]
    assert conns, f'no VGA connector; DRM shows {b.report["drm"]}'
    return conns[0]


@pytest.mark.parametrize('driver', ['nouveau', 'nvdrm'])
def test_c51_edid_over_the_pcrtc_port(boot_board, driver):
    b = boot_board(BOARD, driver=driver)
    assert report.bound_driver(b) == driver
    c = vga(b)
    assert c['status'] == 'connected' and c['edid_bytes'] >= 128, c
    assert '1024x768' in c['modes'], c['modes']
    _, records = trace.read(b.trace_path)
    port0 = [r for r in records if r.addr == PORT0 and r.dir == 'W']
    assert port0 and all(r.value & 0x01 for r in port0), 'bit 0 is kept set'
    assert {r.value & 0x30 for r in port0} == {0x00, 0x10, 0x20, 0x30}
    txn = [r for r in records if r.space == 'i2c-txn' and r.addr >> 16 == 0]
    assert any(r.dir == 'S' and r.addr & 0xff == 0xa1 and not r.value & 0x100
               for r in txn), 'no ACKed read START to 0x50 on port 0'


@pytest.mark.parametrize('driver', ['nouveau', 'nvdrm'])
def test_c51_nothing_plugged_in(boot_board, driver):
    b = boot_board(BOARD, driver=driver, monitor0='none')
    assert vga(b)['status'] == 'disconnected'


# ---- nForce, nForce2 ------------------------------------------------------

def host_cfg(d, fn, reg):
    d.q(f'outl 0xcf8 {0x80000000 | fn << 8 | reg:#x}')
    return int(d.q('inl 0xcfc').split()[1], 0)


@pytest.mark.parametrize('board,mib,mclk_khz', [('nv1a', 32, 133333), ('nv1f', 64, 133333)])
def test_nforce_host_bridge_says_what_is_set_aside(device, board_info, board, mib, mclk_khz):
    assert board_info(board).num('vram_mb') == mib
    with device(board) as d:
        assert host_cfg(d, 0, 0x0c) >> 16 & 0x80, 'function 0 must say multifunction'
        assert host_cfg(d, 1, 0x00) & 0xffff == 0x10de
        if board == 'nv1a':
            assert ((host_cfg(d, 1, 0x7c) >> 6) & 31) + 1 == mib
            p = (host_cfg(d, 3, 0x6c) >> 8) & 0xf
            assert abs(400000 / p - mclk_khz) < 400000 / p / 10
        else:
            assert ((host_cfg(d, 1, 0x84) >> 4) & 127) + 1 == mib
            assert host_cfg(d, 5, 0x4c) // 1000 == mclk_khz
        assert host_cfg(d, 1, 0x7c) >> 12 & 1, 'DDR (what arb.c reads)'
        assert d.rd32(0x10020c) == mib << 20


def test_nforce_igp_without_its_host_bridge_is_refused(start_qemu, board_info):
    r = start_qemu(f'nvdev,vbios={board_info("nv1a").rom}')
    assert r.returncode == 1, f'QEMU exit {r.returncode}: {r.stderr}'
    assert 'takes its memory from the host bridge' in r.stderr, r.stderr


@pytest.mark.parametrize('board,mib', [('nv1a', 16), ('nv1f', 128)])
def test_nouveau_sizes_stolen_memory_from_the_host_bridge(boot_board, board, mib):
    """The share is the chipset's setting, not the card's: a board booted
    with another one gets nouveau's "N MiB stolen system memory" for it."""
    b = boot_board(board, vram_mb=mib)
    assert report.vram(b) == (mib, 'stolen'), report.vram(b)
    assert report.bound_driver(b) == 'nouveau'
