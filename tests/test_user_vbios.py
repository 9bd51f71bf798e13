"""Booting a VBIOS image with no nvdev board record, as a dump of a user's
own card is (`nvdev run --vbios FILE`): the chipset comes from its PCIR,
VRAM size, type and straps from defaults that device properties
override, and the run summary says which values were defaulted."""
import pytest

from nvdevkit import report


def strip_board_record(rom, out):
    """@rom without its NVDEVBRD record, re-summed to zero over the size
    its header gives (byte 2 x 512), as a real card's ROM sums."""
    data = bytearray(open(rom, 'rb').read())
    at = data.find(b'NVDEVBRD')
    assert at > 0, 'the built image has a board record'
    data[at:at + 32] = bytes(32)
    size = data[2] * 512
    data[size - 1] = (data[size - 1] - sum(data[:size])) & 0xff
    assert sum(data[:size]) & 0xff == 0
    out.write_bytes(bytes(data))
    return str(out)


@pytest.fixture(scope='module')
def dump(board_info, tmp_path_factory):
    return strip_board_record(board_info('nv04').rom,
                              tmp_path_factory.mktemp('dump') / 'riva-tnt.rom')


def test_a_dump_boots_with_defaults(boot_board, board_info, dump):
    b = boot_board('riva-tnt', vbios=dump)
    assert report.bound_driver(b) == 'nouveau', report.summary(b)
    c = report.chipset(b)
    assert c and c[0] == 'NV04', report.summary(b)
    assert report.vram(b)[0] == 16, 'NV04 defaults to 16 MiB'
    text = report.summary(b)
    assert 'defaulted  vram_mb=16 strap=0x00000040 ram_type=sdram' in text, text
    assert report.dcb(b) == [(i, e['conn'], e['conf']) for i, e in
                             enumerate(board_info('nv04').vbios['dcb']['entries'])]


def test_properties_override_the_defaults(boot_board, dump):
    b = boot_board('riva-tnt', vbios=dump, vram_mb=8, ram_type='sgram')
    assert report.vram(b)[0] == 8, report.summary(b)
    text = report.summary(b)
    assert 'defaulted  strap=0x00000040 (' in text, text


def test_an_impossible_size_is_refused(built, dump, tmp_path):
    from nvdevkit import boot as nvboot
    b = nvboot.boot(board='riva-tnt', vbios=dump, props={'vram_mb': '12'},
                    timeout=60, outdir=str(tmp_path), built=built)
    assert b.report is None
    assert 'vram_mb=12: a NV04 has a power of two from 4 to 32 MiB' in report.summary(b)


def test_a_bad_checksum_is_reported_not_refused(boot_board, board_info, tmp_path):
    """A ROM whose bytes do not sum to zero: the card serves it all the
    same, QEMU says so, and nouveau takes it with the score shadow.c gives
    a bad checksum from a read-only source (1 + 1, where a good one gets
    1 + 3) and drives the card."""
    data = bytearray(open(board_info('nv11-ch7006').rom, 'rb').read())
    data[0x3000] ^= 0x10
    rom = tmp_path / 'bad-sum.rom'
    rom.write_bytes(bytes(data))
    b = boot_board('bad-sum', vbios=str(rom))
    assert report.bound_driver(b) == 'nouveau', report.summary(b)
    v = report.vbios(b)
    assert v['source'] == 'PROM' and v['score'] == 2 and not v['checksum_ok'], v
    assert 'bad checksum: bytes sum to 0x10' in b.qemu_stderr, b.qemu_stderr
    assert report.connectors(b), 'no connectors: nouveau did not get far'
