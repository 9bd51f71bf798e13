"""The NV4x IGPs.  C51's I2C buses are not CRTC index registers but words
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
