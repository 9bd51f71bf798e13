"""The device's NV40 CTXCTL runs the context program the driver uploads.

The program is nouveau 6.1's own for NV43 (ctxprog/tests/nv43-nouveau.hex,
read from a boot's register trace); what it must do is what nouveau
generated it for: save PGRAPH's registers to a channel's image in instance
memory and load them back.  The oracle is the test's own values, written
into registers and expected back after the program moved them out and in.
"""
import os
import re
import subprocess
import zlib

import pytest

from nvdevkit import build, decode, paths, trace
from nvdevkit.qtest import NVDevQtest

BOARD = 'nv43'
PROGRAM = paths.repo('ctxprog', 'tests', 'nv43-nouveau.hex')
IMAGES = {'A': 0x40000, 'B': 0x60000}           # RAMIN offsets, 0x106a8 each
# plain PGRAPH registers the program transfers ("ctx 0x400400, 10", ...)
STATE_REGS = [0x400400, 0x400424, 0x402500, 0x402c20, 0x405800, 0x407000]

CTXCTL_STAT, CTXCTL_CMD, CTXCTL_PC = 0x400300, 0x400304, 0x400308
FLAGS0, UCODE_INDEX, UCODE_DATA = 0x400310, 0x400324, 0x400328
CUR, NEXT, SWAP = 0x40032c, 0x400330, 0x400784
USER_SAVE, USER_LOAD = 1 << 5, 1 << 6


def program_words():
    with open(PROGRAM) as f:
        return [int(l, 16) for l in f if l.strip() and not l.startswith('#')]


def upload(d, words):
    d.cfg_write(0x04, 0x0006, 2)
    d.wr32(UCODE_INDEX, 0)
    for w in words:
        d.wr32(UCODE_DATA, w)
    d.wr32(CUR, 0)


def user_xfer(d, image, flag):
    """What nouveau's nv40_gr_chan_fini does for a save (USER_LOAD the
    same way): image, flag, start, wait for the program to stop."""
    d.wr32(SWAP, 0x01000000 | image >> 4)
    d.wr32(NEXT, 0x01000000 | image >> 4)
    d.wr32(FLAGS0, d.rd32(FLAGS0) | flag)
    d.wr32(CTXCTL_CMD, 1)
    assert not d.rd32(CTXCTL_STAT) & 1, f'CTXCTL busy at 0x{d.rd32(CTXCTL_PC):08x}'
    assert not d.rd32(FLAGS0) & (USER_SAVE | USER_LOAD), 'the program clears them'


def test_nouveau_program_saves_and_loads_two_channels(device):
    """Two channels' register states, saved once each, loaded alternately
    100 times: each load brings back that channel's values, and the images
    in instance memory hold them where the program put them."""
    with device(BOARD) as d:
        upload(d, program_words())
        state = {}
        for name, image in IMAGES.items():
            state[name] = {r: zlib.crc32(f'{name}{r}'.encode()) for r in STATE_REGS}
            for r, v in state[name].items():
                d.wr32(r, v)
            user_xfer(d, image, USER_SAVE)
        for turn in range(100):
            name = 'AB'[turn % 2]
            for r in STATE_REGS:
                d.wr32(r, 0x5a5a5a5a)
            user_xfer(d, IMAGES[name], USER_LOAD)
            got = {r: d.rd32(r) for r in STATE_REGS}
            assert got == state[name], f'turn {turn}: channel {name}'
            assert d.rd32(CUR) == 0x01000000 | IMAGES[name] >> 4
        # the image holds the values: find each in its channel's image
        for name, image in IMAGES.items():
            words = {d.rd32(0x700000 + image + 4 * i) for i in range(0x106a8 // 4)}
            assert set(state[name].values()) <= words


@pytest.mark.parametrize('source,why', [
    ('a: bra always, set, a', 'does not end'),
    ('wait user_save, clear\ncmd end', 'waits for a flag that cannot change'),
    # a million registers from 0x400400 run past PGRAPH's end
    ('set swap_direction, set\nlsr 0xfffff\nctx 0x400400, $sr\ncmd end',
     'transfers outside PGRAPH or instance memory'),
    ('nop', 'ran past its last instruction'),
])
def test_a_program_that_cannot_end_stays_busy(qemu, board_info, tmp_path,
                                              source, why):
    """The run stops at once with a clear log; CTXCTL reads busy with PC
    and word in 0x400308, as nouveau's "ctxprog timeout %08x" shows them;
    a kill (0x400304 bit 1) frees it, and QEMU lives on."""
    src = tmp_path / 'bad.s'
    src.write_text(source + '\n')
    words = [int(w, 16) for w in subprocess.run(
        [os.path.join(build.tools_dir(), 'nvctxprog'), 'asm', str(src)],
        capture_output=True, text=True, check=True).stdout.split()]
    log = tmp_path / 'qemu.log'
    with NVDevQtest(qemu, board_info(BOARD).rom,
                    args=['-d', 'guest_errors', '-D', str(log)]) as d:
        upload(d, words)
        d.wr32(SWAP, 0x01000000 | IMAGES['A'] >> 4)
        d.wr32(FLAGS0, USER_SAVE)
        d.wr32(CTXCTL_CMD, 1)
        assert d.rd32(CTXCTL_STAT) & 1, 'CTXCTL idle after a run that cannot end'
        pc_word = d.rd32(CTXCTL_PC)
        d.wr32(CTXCTL_CMD, 2)
        assert not d.rd32(CTXCTL_STAT) & 1
    stopped_at = {'does not end': 0, 'waits': 0, 'transfers': 2, 'ran': 1}
    want = [v for k, v in stopped_at.items() if why.startswith(k)][0]
    assert pc_word >> 24 == want, hex(pc_word)
    assert pc_word & 0xffffff == (words[want] if want < len(words) else 0) & 0xffffff
    text = log.read_text()
    assert f'CTXCTL: the context program (started by the driver) {why}' in text, text


def test_nouveau_switches_channels_through_the_program(boot_board):
    """A boot of nouveau on NV43 with two client channels taking turns: every
    channel switch runs the uploaded program to its end (trace records C),
    saves of the outgoing channel included, and nouveau sees no error."""
    b = boot_board(BOARD, cmdline='nvdev.accel=copy,10;pingpong,20')
    out = b.report.get('nvaccel') or []
    assert 'exit 0 pingpong,20' in out, out
    _, recs = trace.read(b.trace_path)
    runs = [r for r in recs if r.space == 'ctxprog']
    assert len(runs) >= 20, f'{len(runs)} runs'
    assert {r.name for r in runs} == {'end'}
    # a first load steps over 5 undocumented words, a save + load 7
    assert {r.value for r in runs} == {5, 7}
    assert sum(r.value == 7 for r in runs) >= 19
    lines = [ln for ln in decode.decode(b.trace_path).splitlines()
             if 'CTXCTL program' in ln]
    assert len(lines) == len(runs)
    assert re.search(r' C CTXCTL program stopped \(end\) at PC 0x[0-9a-f]{2}, '
                     r'7 words stepped over \[unimplemented words\]$',
                     '\n'.join(lines), re.M), lines[:3]
    with open(b.qemu_log_path) as f:
        log = f.read()
    assert not re.search(r'CTXCTL: the context program \(', log), log
    assert 'ctxprog timeout' not in '\n'.join(b.report.get('dmesg') or [])
