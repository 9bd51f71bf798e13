"""A bad vbios= image stops QEMU with a message that names the problem.
One whose only fault is its checksum is served as it is, as a card serves
whatever its ROM holds, and the problem is reported."""
import subprocess

import pytest

from nvdevkit.qtest import NVDevQtest


def start(qemu, rom=None):
    dev = f'nvdev,vbios={rom}' if rom else 'nvdev'
    return subprocess.run([qemu, '-L', '/usr/share/seabios', '-nodefaults',
                           '-display', 'none', '-machine', 'pc,accel=qtest',
                           '-device', dev],
                          capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def damaged(board_info, tmp_path, how):
    data = bytearray(open(board_info('nv11-ch7006').rom, 'rb').read())
    if how == 'truncated':
        data = data[:len(data) // 2]
    elif how == 'signature':
        data[0] = 0x00
        data[-1] = (data[-1] - 0x55) & 0xff      # keep the sum right
    elif how == 'checksum':
        data[0x2000] ^= 0x01
    path = tmp_path / f'{how}.rom'
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize('how,words', [
    ('truncated', ['truncated', '0x10000']),
    ('signature', ['ROM signature', '0xaa55']),
])
def test_bad_image_rejected(qemu, board_info, tmp_path, how, words):
    rom = damaged(board_info, tmp_path, how)
    r = start(qemu, rom)
    assert r.returncode == 1, f'QEMU exit {r.returncode}: {r.stderr}'
    assert 'nvdev: VBIOS' in r.stderr and str(rom) in r.stderr, r.stderr
    for w in words:
        assert w in r.stderr, f'message lacks "{w}": {r.stderr}'


def test_bad_checksum_is_served_and_reported(qemu, board_info, tmp_path):
    rom = damaged(board_info, tmp_path, 'checksum')
    data = rom.read_bytes()
    with NVDevQtest(qemu, str(rom)) as d:
        assert d.rd32(0x000000) >> 20 == 0x011, 'the card did not come up'
        d.wr32(0x001850, 0)                     # ROM shadow off: PROM reads
        assert d.rd08(0x300000 + 0x2000) == data[0x2000]
    log = d.vm.get_log() or ''
    assert 'warning: nvdev: VBIOS' in log and 'bad checksum: bytes sum to 0x01' in log, log


def test_missing_file(qemu, tmp_path):
    r = start(qemu, tmp_path / 'nope.rom')
    assert r.returncode == 1 and 'cannot read VBIOS' in r.stderr, r.stderr


def test_missing_property(qemu):
    r = start(qemu)
    assert r.returncode == 1 and 'vbios= property is required' in r.stderr
