"""Acceleration: upstream nouveau, without noaccel, gets a working GPU.

The oracle is nouveau itself: it creates its kernel channel, fences every
submission and uses M2MF for buffer moves only if PFIFO and PGRAPH answer
as the hardware does; every failure path prints a line this test looks
for ("GPU lockup", "CACHE_ERROR", ...).  The picture fbcon draws through
PGRAPH (glyphs, fills, scrolling blits) must equal, pixel for pixel, the
one it draws with the CPU under noaccel."""
import os
import re

import pytest

from nvdevkit import png, report

ACCEL_BOARDS = ['nv04', 'nv05', 'nv11-ch7006', 'nv17', 'nv34', 'nv43', 'nv43-go']

# every line nouveau 6.1 prints when a channel, fence, PFIFO or PGRAPH fails
FAILURE = re.compile(
    r'GPU lockup|idle timed out|failed to idle channel|ctxprog timeout|'
    r'CACHE_ERROR|DMA_PUSHER|ILLEGAL_MTHD|fifo: intr|gr: intr|'
    r'failed to create kernel channel|failed to initialise sync|'
    r'channel failed to initialise|using CPU for buffer copies|'
    r'failed to allocate (sw class|notifier)')


def failures(b):
    return [l for l in report.lines(b) if FAILURE.search(l)]


@pytest.mark.parametrize('board', ACCEL_BOARDS)
def test_nouveau_runs_accelerated(boot_board, board):
    b = boot_board(board)
    lines = report.driver_lines(b)
    assert any('MM: using M2MF for buffer copies' in l for l in lines), \
        f'{board}: nouveau did not take M2MF for buffer moves:\n' + '\n'.join(lines)
    assert not failures(b), f'{board}: ' + '\n'.join(failures(b))
    assert not report.problems(b), f'{board}: ' + '\n'.join(report.problems(b))


def test_nv10_has_no_accel_in_nouveau(boot_board):
    """nouveau 6.1 gives NV10 no FIFO (device/base.c nv10_chipset has no
    .fifo): nouveau_channels_init gets -ENODEV and accel stays off without
    a word.  So no buffer-copy engine is chosen, and nothing fails."""
    b = boot_board('nv10')
    assert not any('MM: using' in l for l in report.lines(b))
    assert not failures(b)
    assert report.connectors(b)


FBTEXT = 'loglevel=1 vt.global_cursor_default=0 nvdev.fbtext=150'


def console(b):
    path = os.path.join(b.outdir, 'console.png')
    assert os.path.exists(path), f'no console screendump in {b.outdir}'
    return png.read(path)


@pytest.mark.parametrize('board,bpp', [
    ('nv04', 8), ('nv04', 16), ('nv04', 32),
    ('nv11-ch7006', 16), ('nv17', 32), ('nv43', 8), ('nv43', 32),
])
def test_fbcon_accelerated_equals_cpu_drawn(boot_board, board, bpp):
    """150 lines of coloured text scroll the console several screens: the
    accelerated console (glyphs by GDI colour expansion, clears by GDI
    fills, scrolls by image blits) shows exactly what the CPU draws."""
    cmd = f'{FBTEXT} nouveau.fbcon_bpp={bpp}'
    gpu = boot_board(board, cmdline=cmd, screendumps=True)
    cpu = boot_board(board, cmdline=f'{cmd} nouveau.noaccel=1', screendumps=True)
    assert any('MM: using M2MF' in l for l in report.lines(gpu))
    assert not failures(gpu), '\n'.join(failures(gpu))
    a, b = console(gpu), console(cpu)
    assert (a.width, a.height) == (b.width, b.height)
    lit = a.count(lambda p: p != (0, 0, 0))
    assert lit > 20000, f'only {lit} non-black pixels: is the text there?'
    diff = [(x, y) for y in range(a.height) for x in range(a.width)
            if a.pixel(x, y) != b.pixel(x, y)]
    assert not diff, (f'{len(diff)} pixels differ, first at {diff[0]}: '
                      f'accelerated {a.pixel(*diff[0])}, CPU {b.pixel(*diff[0])}')
