"""Golden traces: tests/golden/BOARD.trace.gz holds the register trace of a
boot of BOARD with nouveau (noaccel) to its first modeset, less the reads
of the PROM window (the VBIOS image's bytes, which the board file decides;
tracediff leaves them out of comparisons too).  `nvdev test` diffs a fresh
boot against it and replays it into the current device; `nvdev trace
bless` writes it anew, deliberately."""
import gzip
import os
import shutil
import tempfile

from . import boot, paths, trace, tracediff

CMDLINE = 'nouveau.noaccel=1'


def path(board):
    return paths.repo('tests', 'golden', f'{board}.trace.gz')


def _prom_read_line(line):
    return (not line.startswith('#') and bool(line.strip()) and
            tracediff.prom_read(trace.parse_line(line)))


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
    with open(b.trace_path) as src, open(path(board), 'wb') as raw:
        # mtime 0: the same trace gives the same file
        with gzip.GzipFile(fileobj=raw, mode='wb', mtime=0, filename='') as dst:
            for line in src:
                if not _prom_read_line(line):
                    dst.write(line.encode())
    shutil.rmtree(d)
    return path(board)
