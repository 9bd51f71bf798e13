"""Golden traces: tests/golden/BOARD.trace.gz holds the register trace of a
boot of BOARD with nouveau (noaccel) to its first modeset.  `nvdev test`
diffs a fresh boot against it and replays it into the current device;
`nvdev trace bless` writes it anew, deliberately."""
import gzip
import os
import shutil
import tempfile

from . import boot, paths, tracediff

CMDLINE = 'nouveau.noaccel=1'


def path(board):
    return paths.repo('tests', 'golden', f'{board}.trace.gz')


def bless(board, built=None, force=False):
    """Write the golden trace anew, unless the boot still matches the
    blessed one after normalisation (history stays small) or @force."""
    d = tempfile.mkdtemp(prefix='nvdev-bless-')
    b = boot.boot(board=board, cmdline=CMDLINE, outdir=d, built=built)
    if b.report is None:
        raise SystemExit(f'nvdev: {board} did not boot; not blessing (see {d})')
    if not force and os.path.exists(path(board)) and \
            tracediff.diff(path(board), b.trace_path)[0]:
        shutil.rmtree(d)
        return path(board) + ' (unchanged: still matches)'
    os.makedirs(os.path.dirname(path(board)), exist_ok=True)
    with open(b.trace_path, 'rb') as src, open(path(board), 'wb') as raw:
        # mtime 0: the same trace gives the same file
        with gzip.GzipFile(fileobj=raw, mode='wb', mtime=0, filename='') as dst:
            shutil.copyfileobj(src, dst)
    shutil.rmtree(d)
    return path(board)
