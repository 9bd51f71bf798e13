"""Every board's image is laid out as real cards' images are, as far as a
parser written from real dumps checks them: envytools' nvbios (nvbios/
dcb.c, i2c.c, dacload.c, bios.c, info.c).  Its rules are written here and
applied to the bytes, without libnvbios: a DCB 3.0/4.0 header of 23 bytes,
an I2C table header of 5, a DCB 2.x pre-header whose version it knows and
whose length goes with it, the DAC load table's entry size and count, the
"HWINFO ext" block at 0x58-0x6b (signature 0xa5, summing to zero) on
images with a DCB 2.0 or later, and BIT 'i' version 2 of 0x19 bytes or
more with the PCI device ID at +0x17."""
import struct

import pytest

from nvdevkit import paths

BOARDS = paths.boards()
RDCB_LENGTHS = {0x11: 0x0c, 0x15: 0x18, 0x16: 0x18, 0x17: 0x1c}


def u16(d, o):
    return struct.unpack_from('<H', d, o)[0]


def bit_entries(d):
    at = d.find(b'\xff\xb8BIT\0')
    if at < 0:
        return {}
    hlen, rlen, n = d[at + 8], d[at + 9], d[at + 10]
    out = {}
    for i in range(n):
        e = at + hlen + i * rlen
        out[chr(d[e])] = (d[e + 1], u16(d, e + 2), u16(d, e + 4))
    return out


@pytest.mark.parametrize('board', BOARDS)
def test_layout_as_real_images(board_info, board):
    d = open(board_info(board).rom, 'rb').read()
    assert d[:2] == b'\x55\xaa', 'no ROM signature'
    pcir = u16(d, 0x18)
    assert d[pcir:pcir + 4] == b'PCIR' and u16(d, pcir + 4) == 0x10de, 'PCIR: NVIDIA'
    device = u16(d, pcir + 6)
    dcb = u16(d, 0x36)
    ver = d[dcb] if dcb else 0
    if ver >= 0x30:
        assert d[dcb + 1] >= 23, f'DCB {ver:#x} header {d[dcb + 1]} bytes, real ones 23'
        assert struct.unpack_from('<I', d, dcb + 6)[0] == 0x4edcbdcb
        i2c = u16(d, dcb + 4)
        assert d[i2c + 1] >= 5, f'I2C table header {d[i2c + 1]} bytes, real ones 5'
    elif 0x20 <= ver < 0x30:
        pre = d[dcb - 1]
        assert pre in RDCB_LENGTHS, f'DCB 2.x pre-header version {pre:#x}'
    if ver >= 0x20:
        hw = d[0x58:0x6c]
        assert hw[0x12] == 0xa5, 'no HWINFO ext signature at 0x6a'
        assert sum(hw) & 0xff == 0, 'HWINFO ext does not sum to zero'
    bit = bit_entries(d)
    if bit:
        version, length, data = bit['i']
        assert version == 2 and length >= 0x19, (version, length)
        assert u16(d, data + 0x17) == device, 'BIT i +0x17 is not the PCI device ID'
        dac = u16(d, data + 0x0d)
        if dac:
            assert d[dac] in (0x00, 0x10) and d[dac + 1] >= 4
            assert d[dac + 2] >= 4 and d[dac + 3] >= 2, 'DAC load entries'
