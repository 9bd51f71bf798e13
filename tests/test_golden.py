"""Golden traces in CI: today's boot of each blessed board gives the same
register trace (after normalisation) as the blessed one, and the blessed
trace replays exactly into today's device.  A deliberate change of device
or driver behaviour is blessed with `harness/nvdev trace bless BOARD`."""
import os

import pytest

from nvdevkit import golden, replay, tracediff

BLESSED = sorted(f[:-len('.trace.gz')] for f in os.listdir(os.path.dirname(golden.path('x')))
                 if f.endswith('.trace.gz')) if os.path.isdir(os.path.dirname(golden.path('x'))) else []


@pytest.mark.parametrize('board', BLESSED)
def test_boot_matches_golden_trace(boot_board, board):
    b = boot_board(board, cmdline=golden.CMDLINE)
    equal, text = tracediff.diff(golden.path(board), b.trace_path)
    assert equal, (f'{board}: the boot diverges from the golden trace; if the '
                   f'change is meant, run harness/nvdev trace bless {board}\n{text}')


@pytest.mark.parametrize('board', BLESSED)
def test_golden_trace_replays(qemu, board_info, board):
    n, mismatch, _ = replay.replay(golden.path(board), board_info(board).rom, qemu=qemu)
    assert mismatch is None, replay.describe(golden.path(board), mismatch)


def test_some_board_is_blessed():
    assert 'nv11-ch7006' in BLESSED
