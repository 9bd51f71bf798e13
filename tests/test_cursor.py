"""The hardware cursor over qtest: a 640x480 32 bpp mode, a 64x64 ARGB
cursor in VRAM, and QEMU's screendump shows it where CU_START_POS says,
blended (premultiplied alpha) over the picture."""

import pytest

from nvdevkit import png
from nvdevkit.qtest import BAR1

MODE = {0x01: 0x4f, 0x12: 0xdf, 0x07: 0x02, 0x13: 0x40, 0x19: 0x20,
        0x28: 0x03, 0x17: 0xc3, 0x09: 0x00}
CURSOR = 0x100000           # VRAM offset of the cursor image


def cr(d, idx, val):
    d.wr08(0x6013d4, idx)
    d.wr08(0x6013d5, val)


def set_mode(d):
    """640x480 at 32 bpp from VRAM offset 0, all grey 0x40."""
    cr(d, 0x1f, 0x57)                                   # unlock
    for idx, val in MODE.items():
        cr(d, idx, val)
    d.wr08(0x0c03ce, 0x05); d.wr08(0x0c03cf, 0x40)      # 256-colour shift
    d.wr08(0x0c03ce, 0x06); d.wr08(0x0c03cf, 0x05)      # graphics mode
    d.rd08(0x6013da)
    d.wr08(0x6013c0, 0x20)                              # palette source on
    d.wr32(0x600800, 0)                                 # start address
    d.q(f'memset {BAR1:#x} {640 * 480 * 4} 0x40')       # grey picture


def test_cursor_in_screendump(device, tmp_path):
    with device() as d:
        set_mode(d)
        opaque = '0000ffff' * 64 * 32                       # red, alpha 0xff
        half = '00008080' * 64 * 32                         # red 0x80, alpha 0x80
        d.q(f'write {BAR1 + CURSOR:#x} {64 * 64 * 4} 0x{opaque}{half}')
        cr(d, 0x2f, CURSOR >> 24)
        cr(d, 0x30, 0x80 | (CURSOR >> 17) & 0x7f)
        cr(d, 0x31, ((CURSOR >> 11) & 0x3f) << 2 | 1)      # enable
        d.wr32(0x600810, 1 << 12 | 1 << 16 | 4 << 24)       # ARGB, 64x64
        d.wr32(0x680300, 50 << 16 | 100)                    # x 100, y 50
        path = str(tmp_path / 'cursor.png')
        r = d.vm.qmp('screendump', filename=path, format='png')
        assert 'error' not in r, r
    img = png.read(path)
    assert (img.width, img.height) == (640, 480)
    assert img.pixel(10, 10) == (0x40, 0x40, 0x40), 'picture'
    assert img.pixel(110, 60) == (255, 0, 0), 'opaque cursor row'
    # 0x80 premultiplied red over 0x40 grey: 0x80 + 0x40 * 127 / 255
    assert img.pixel(110, 100) == (0x80 + 0x40 * 127 // 255, 0x40 * 127 // 255,
                                   0x40 * 127 // 255), 'blended cursor row'
    assert img.pixel(99, 60) == (0x40, 0x40, 0x40) and img.pixel(164, 60) == (0x40, 0x40, 0x40)
    assert img.pixel(110, 49) == (0x40, 0x40, 0x40) and img.pixel(110, 114) == (0x40, 0x40, 0x40)


@pytest.mark.parametrize('argb', [True, False], ids=['argb', 'a1r5g5b5'])
def test_cursor_offset_near_4gib_reads_nothing(device, tmp_path, argb):
    """CR2F=0xff, CR30=0xff, CR31=0xfd put a 64x64 cursor at 0xfffff800:
    outside any VRAM, so nothing is drawn.  Row and column arithmetic in
    32 bits wrapped there (row 7 column 63 read 4 bytes below 4 GiB past
    the VRAM block, the rows after it VRAM from offset 0)."""
    with device() as d:
        set_mode(d)
        # The first 16 KiB of VRAM (the top of the picture) opaque white:
        # what a wrapped cursor would show.
        d.q(f'memset {BAR1:#x} 16384 0xff')
        cr(d, 0x2f, 0xff)
        cr(d, 0x30, 0xff)
        cr(d, 0x31, 0xfd)
        d.wr32(0x600810, (1 << 12 if argb else 0) | 1 << 16 | 4 << 24)
        d.wr32(0x680300, 200 << 16 | 300)                   # x 300, y 200
        path = str(tmp_path / 'cursor.png')
        r = d.vm.qmp('screendump', filename=path, format='png')
        assert 'error' not in r, r
        assert d.rd32(0x000000) != 0xffffffff, 'QEMU still answers'
    img = png.read(path)
    assert img.pixel(0, 0) == (255, 255, 255), 'the white block is there'
    drawn = [(x, y) for y in range(200, 264) for x in range(300, 364)
             if img.pixel(x, y) != (0x40, 0x40, 0x40)]
    assert not drawn, f'{len(drawn)} cursor pixels drawn, first {drawn[0]}'
