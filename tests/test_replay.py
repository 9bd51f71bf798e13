"""Replay: a boot's trace driven into a fresh device over qtest returns the
traced value at every read; a device that behaves differently is caught at
its first differing read."""
import configparser

import pytest

from nvdevkit import build, replay, paths

BOARD = 'nv11-ch7006'


@pytest.fixture(scope='module')
def boot_trace(boot_board):
    return boot_board(BOARD, cmdline='nouveau.noaccel=1').trace_path


def test_boot_trace_replays_exactly(boot_trace, qemu, board_info):
    n, mismatch, secs = replay.replay(boot_trace, board_info(BOARD).rom, qemu=qemu)
    assert mismatch is None, replay.describe(boot_trace, mismatch)
    assert n > 10000, f'only {n} accesses replayed'


def test_replay_catches_a_different_board(boot_trace, qemu, tmp_path):
    """The same trace against a board with 64 MiB instead of 32: the first
    mismatch is nouveau's read of the VBIOS byte that says so."""
    ini = configparser.ConfigParser(interpolation=None)
    ini.optionxform = str
    ini.read(build.board_ini(BOARD))
    ini['board']['vram_mb'] = '64'
    path = tmp_path / 'nv11-64m.ini'
    with open(path, 'w') as f:
        ini.write(f, space_around_delimiters=False)
    rom = tmp_path / 'nv11-64m.rom'
    build.run([str(paths.cache('tools', paths.digest(paths.REPO), 'nvbios')), 'build',
               str(path), '-o', str(rom)])
    n, mismatch, _ = replay.replay(boot_trace, str(rom), qemu=qemu)
    assert mismatch is not None, 'a 64 MiB board replayed a 32 MiB trace'
    # the board record ("NVDEVBRD", version, length, VRAM MiB: nvbios.h)
    # holds the VRAM size in its 16 bits at +10, read as the word at +8
    record = rom.read_bytes().find(b'NVDEVBRD')
    assert record > 0
    assert mismatch.record.addr == 0x300000 + record + 8, replay.describe(boot_trace, mismatch)
    assert (mismatch.got >> 16) & 0xffff == 64
    assert (mismatch.record.value >> 16) & 0xffff == 32


def test_replay_catches_an_unplugged_monitor(boot_trace, qemu, board_info):
    n, mismatch, _ = replay.replay(boot_trace, board_info(BOARD).rom,
                                   props='monitor0=none,tv=composite', qemu=qemu)
    assert mismatch is not None
    text = replay.describe(boot_trace, mismatch)
    assert 'I2C_SENSE_0' in text, text
