"""kernel/nvdrm, stage 0: our own driver probes each board, names the chip
and its memory and loads the VBIOS from PROM; unbinding, rebinding and
reloading are clean; a dead card or a corrupt VBIOS fails probe with a
clear message and no oops."""
import glob
import subprocess

import pytest

from nvdevkit import build, paths, report

BOARDS = ['nv04', 'nv11-ch7006', 'nv17', 'nv34', 'nv43']


def nvdrm_lines(b):
    return report.driver_lines(b, 'nvdrm')


def oopses(b):
    return [l for l in report.lines(b)
            if any(k in l for k in ('WARNING:', 'BUG:', 'Oops:', 'Call Trace'))]


@pytest.mark.parametrize('board', BOARDS)
def test_probe_identifies_the_board(boot_board, board_info, board):
    b = boot_board(board, driver='nvdrm')
    info = board_info(board)
    assert report.bound_driver(b) == 'nvdrm', '\n'.join(nvdrm_lines(b))
    text = '\n'.join(nvdrm_lines(b))
    assert f'{info.get("chipset")} (BOOT_0 0x' in text, text
    assert f'{info.num("vram_mb")} MiB' in text, text
    assert 'from PROM, checksum ok' in text, text


def test_unbind_rebind_reload(boot_board):
    b = boot_board('nv11-ch7006', driver='nvdrm', cmdline='nvdev.rebind=1')
    assert b.report['rebind'] == ['bound-before: 1', 'after-unbind: 0',
                                  'after-bind: 1', 'rmmod: 0', 'modprobe: 0',
                                  'after-reload: 1'], b.report['rebind']
    assert not oopses(b), '\n'.join(oopses(b))
    probes = [l for l in nvdrm_lines(b) if 'NV11 (BOOT_0' in l]
    assert len(probes) == 3, 'probe, rebind and reload should each identify the chip'


@pytest.mark.parametrize('fault,message', [
    ('dead', 'BOOT_0 reads 0xffffffff'),
    ('prom-checksum', 'VBIOS: bad checksum'),
])
def test_bad_device_fails_probe_cleanly(boot_board, fault, message):
    b = boot_board('nv11-ch7006', driver='nvdrm', fault=fault)
    assert report.bound_driver(b) is None
    assert any(message in l for l in nvdrm_lines(b)), '\n'.join(nvdrm_lines(b))
    assert not oopses(b), '\n'.join(oopses(b))


def test_checkpatch_strict_clean():
    src = build.ensure_kernel_source()
    files = sorted(glob.glob(paths.repo('kernel', 'nvdrm', '*.[ch]')))
    r = subprocess.run([f'{src}/scripts/checkpatch.pl', '--strict', '--no-tree',
                        '-q', '--terse', '-f'] + files, capture_output=True, text=True)
    problems = [l for l in r.stdout.splitlines() if not l.startswith('total: 0 errors, '
                                                                      '0 warnings, 0 checks')]
    assert r.returncode == 0 and not problems, r.stdout
