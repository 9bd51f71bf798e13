"""Acceleration: upstream nouveau, without noaccel, gets a working GPU.

The oracle is nouveau itself: it creates its kernel channel, fences every
submission and uses M2MF for buffer moves only if PFIFO and PGRAPH answer
as the hardware does; every failure path prints a line this test looks
for ("GPU lockup", "CACHE_ERROR", ...).  The picture fbcon draws through
PGRAPH (glyphs, fills, scrolling blits) must equal, pixel for pixel, the
one it draws with the CPU under noaccel."""
import collections
import os
import re

import pytest

from nvdevkit import png, report, trace

ACCEL_BOARDS = ['nv04', 'nv05', 'nv11-ch7006', 'nv15', 'nv17', 'nv18', 'nv1a', 'nv1f', 'nv20', 'nv25', 'nv28', 'nv2a',
                'nv30', 'nv31', 'nv34', 'nv35', 'nv36', 'nv43', 'nv43-go',
                'nv40', 'nv41', 'nv42', 'nv45', 'nv47', 'nv49', 'nv4a', 'nv4b', 'nv44', 'nv46',
                'nv4e', 'nv4c', 'nv63', 'nv67', 'nv68']

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
    diff = a.differences(b)
    assert not diff, (f'{len(diff)} pixels differ, first at {diff[0]}: '
                      f'accelerated {a.pixel(*diff[0])}, CPU {b.pixel(*diff[0])}')


# ---- the in-guest client (harness/guest/nvaccel.c) -----------------------

CLIENT_BOARDS = ['nv04', 'nv11-ch7006', 'nv15', 'nv17', 'nv18', 'nv1a', 'nv1f', 'nv20', 'nv25', 'nv2a', 'nv30', 'nv31',
                 'nv34', 'nv43', 'nv40', 'nv41', 'nv42', 'nv47', 'nv49', 'nv4a', 'nv4b', 'nv44', 'nv46',
                 'nv4e', 'nv4c', 'nv63', 'nv67', 'nv68']
# nouveau_drm.c: NV17_CHANNEL_DMA and NV40_CHANNEL_DMA get nv17_fence
SEMAPHORE_BOARDS = {'nv17', 'nv18', 'nv1f', 'nv20', 'nv25', 'nv2a', 'nv30', 'nv31', 'nv34', 'nv43', 'nv40',
                    'nv41', 'nv42', 'nv47', 'nv49', 'nv4a', 'nv4b', 'nv44', 'nv46',
                    'nv4e', 'nv4c', 'nv63', 'nv67', 'nv68'}


# Boards the two-channel context-state job runs on (test_ctxprog_firmware):
# NV40 itself (its own register ranges), NV43, the NV44 class, G71 and an
# IGP (C61)
CTXSTATE_BOARDS = ['nv40', 'nv43', 'nv44', 'nv49', 'nv4c']


def client_cmdline(board):
    """The client's jobs on @board, run one after the other in one boot
    that the tests of the client's copies, of the units it reads and of
    the context program (test_ctxprog_firmware) share."""
    jobs = ['info', 'copy,100', 'pingpong,50']
    if board in CTXSTATE_BOARDS:
        jobs.append('ctxstate,100')
    return 'nvdev.accel=' + ';'.join(jobs)


def client(b):
    out = b.report.get('nvaccel')
    assert out is not None, 'the guest ran no nvaccel'
    return out


SEMAPHORE_ACQUIRE, SEMAPHORE_RELEASE = 0x68, 0x6c


def fifo_methods(b):
    """Counter of (channel, method) over the pusher's M records."""
    _, records = trace.read(b.trace_path)
    return collections.Counter((r.addr >> 16, r.addr & 0x1ffc)
                               for r in records if r.space == 'fifo')


@pytest.mark.parametrize('board', CLIENT_BOARDS)
def test_client_copies_and_pingpong(boot_board, board):
    """100 M2MF copies of random sizes, pitches and offsets VRAM<->GART
    (one of 2047 lines, the most a launch takes), every byte compared by
    the client; then channels of two clients taking 50 turns on shared
    buffers.  From NV17 nouveau orders them with PFIFO semaphores
    (nv17_fence_sync: an acquire and a release on each side); before, it
    waits on the CPU and no semaphore method is sent."""
    b = boot_board(board, cmdline=client_cmdline(board))
    out = client(b)
    assert 'ok copy 100 copies, every byte checked' in out, '\n'.join(out)
    turns = [l for l in out if l.startswith('ok pingpong 50 turns')]
    assert turns, '\n'.join(out)
    assert 'exit 0 copy,100' in out and 'exit 0 pingpong,50' in out, '\n'.join(out)
    assert not failures(b), '\n'.join(failures(b))
    chans = [int(c) for c in re.findall(r'channels (\d+) and (\d+)', turns[0])[0]]
    m = fifo_methods(b)
    for ch in chans:
        acq, rel = m[(ch, SEMAPHORE_ACQUIRE)], m[(ch, SEMAPHORE_RELEASE)]
        if board not in SEMAPHORE_BOARDS:
            assert acq == rel == 0, f'ch{ch}: {acq} acquires, {rel} releases'
        else:
            # most turns find the other's still running
            assert acq >= 25 and rel >= 25, f'ch{ch}: {acq} acquires, {rel} releases'


# kind -> the board and what nouveau 6.1 prints about it
# (nv04_fifo_dma_pusher, nv04_fifo_cache_error, nv20_gr_intr, nv10_gr_intr)
HOSTILE = {
    'invalid-cmd': ('nv17', r'fifo: DMA_PUSHER - ch \d+ \[nvaccel\[\d+\]\] get \w+ put \w+ '
                            r'state 8\w+ \(err: INVALID_CMD\)'),
    'jump-out': ('nv17', r'fifo: DMA_PUSHER - ch \d+ \[nvaccel\[\d+\]\] .*\(err: MEM_FAULT\)'),
    'bad-handle': ('nv17', r'fifo: CACHE_ERROR - ch \d+ \[nvaccel\[\d+\]\] subc 3 mthd 0000 '
                           r'data deadbeef'),
    # NV10's interrupt handler hides it (below): the NV20-family one says it
    'bad-method': ('nv34', r'gr: intr 00100000 \[ERROR\] nsource 00000040 \[ILLEGAL_MTHD\] '
                           r'.* ch \d+ \[nvaccel\[\d+\]\] subc 4 class 0039 mthd 1234 '
                           r'data 0000cafe'),
    'dma-overrun': ('nv17', r'gr: intr 00100000 \[ERROR\] nsource 000001[08]0 '
                            r'\[DMA_[RW]_PROTECTION\] .* class 0039 mthd 0328'),
}


def qemu_log(b):
    with open(b.qemu_log_path) as f:
        return f.read()


def survives(b, kind):
    """The client went on to a good copy that completed."""
    out = client(b)
    assert any(l.startswith(f'ok hostile {kind}:') for l in out), '\n'.join(out)
    assert f'exit 0 hostile,{kind}' in out, '\n'.join(out)


@pytest.mark.parametrize('kind', sorted(HOSTILE))
def test_hostile_pushbuffer(boot_board, kind):
    """nouveau names the channel and method, QEMU logs a guest error, the
    guest lives on and a good copy afterwards completes."""
    board, want = HOSTILE[kind]
    b = boot_board(board, cmdline=f'nvdev.accel=hostile,{kind}')
    assert any(re.search(want, l) for l in report.lines(b)), \
        f'{kind}: nouveau did not say so:\n' + '\n'.join(report.driver_lines(b)[-20:])
    survives(b, kind)
    log = qemu_log(b)
    assert 'nvdev: P' in log and ('PFIFO' in log or 'PGRAPH' in log), \
        'QEMU logged no guest error'


def test_nv10_family_hides_an_illegal_method(boot_board):
    """nouveau 6.1's nv10_gr_intr clears the ERROR it would print when
    nv10_gr_mthd() returns false, i.e. for every method it has no software
    handler for (only class 0x99 has one), so on NV1x a bad method goes
    unreported by the driver (nv04_gr_intr does the same with NOTIFY).
    The card still traps it (QEMU says so), and the channel goes on."""
    b = boot_board('nv17', cmdline='nvdev.accel=hostile,bad-method')
    assert not [l for l in report.lines(b) if 'ILLEGAL_MTHD' in l]
    assert re.search(r'PGRAPH: ch \d+ subc 4 class 0x0039 mthd 0x1234 data 0x0000cafe: '
                     r'no such method', qemu_log(b))
    survives(b, 'bad-method')
    assert not failures(b), '\n'.join(failures(b))


def nv40_instmem_reserved(chipset, vs):
    """nouveau 6.1's instance memory for NV4x (nv40_instmem_oneinit): a
    graphics context per channel, sized per vertex unit, plus the GART
    table and object storage."""
    per_vs = (0x6aa0 if chipset == 0x40 else 0x4f00 if chipset < 0x43 else
              0x4980 if chipset in (0x44, 0x46, 0x4a, 0x4c, 0x4e, 0x63, 0x67, 0x68)
              else 0x4a40)
    reserved = (per_vs * vs + 16 * 1024) * 32 + 512 * 1024 + 512 * 1024
    return (reserved + 4095) & ~4095


# board: chipset, vertex units as ctxnv40.c's nv40_gr_vs_count builds the
# context for, pixel quads (4 pipes each) of the card
NV4X_UNITS = {'nv40': (0x40, 6, 4), 'nv41': (0x41, 5, 3), 'nv42': (0x42, 5, 3),
              'nv43': (0x43, 3, 2), 'nv47': (0x47, 8, 6), 'nv49': (0x49, 8, 6),
              'nv4b': (0x4b, 8, 3), 'nv4a': (0x4a, 3, 1),
              'nv44': (0x44, 3, 1), 'nv46': (0x46, 3, 1),
              'nv4e': (0x4e, 1, 1), 'nv4c': (0x4c, 1, 1), 'nv63': (0x63, 1, 1), 'nv67': (0x67, 1, 1),
              'nv68': (0x68, 1, 1)}


@pytest.mark.parametrize('board', sorted(NV4X_UNITS))
def test_nv4x_units_size_instance_memory(boot_board, board_info, board):
    """PBUS 0x1540 says which graphics units the chip has.  nouveau hands
    it to clients (GETPARAM GRAPH_UNITS) and reserves instance memory for
    a context per channel and vertex unit: its vertex units must be those
    ctxnv40.c builds the chipset's context for (the GeForce 6600's three),
    and the VRAM nouveau keeps for buffers what its formula leaves."""
    chipset, want_vs, want_quads = NV4X_UNITS[board]
    b = boot_board(board, cmdline=client_cmdline(board))
    out = client(b)
    units = {k: int(v, 16) for k, v in
             (l.split()[2:4] for l in out if l.startswith('ok info '))}
    assert units['chipset'] == chipset, out
    vs = bin(units['graph_units'] >> 8 & 0xff).count('1')
    quads = bin(units['graph_units'] & 0xff).count('1')
    assert (vs, quads) == (want_vs, want_quads), f'units 0x{units["graph_units"]:x}'
    vram = board_info(board).num('vram_mb') << 20
    want = (vram - nv40_instmem_reserved(chipset, vs)) >> 20
    lines = [l for l in report.driver_lines(b) if 'DRM: VRAM:' in l]
    assert lines and lines[0].endswith(f'VRAM: {want} MiB'), (want, lines)


def test_nv34_context_switch_shows_the_resident_channel(boot_board):
    """NV20-NV3x PGRAPH loads a channel's context from the table nouveau
    fills (nv20_gr_chan_init) and says which channel is resident in
    CTX_CONTROL/CTX_USER.  nouveau relies on that when a channel dies
    (nv20_gr_chan_fini): only for the resident one it saves the context
    to the image it put in the table, then marks nothing resident.  The
    client's channel, last to draw, is resident when the client exits."""
    b = boot_board('nv34', cmdline='nvdev.accel=copy,10')
    assert 'exit 0 copy,10' in client(b)
    _, recs = trace.read(b.trace_path)
    mmio = [r for r in recs if r.space == 'mmio']
    table = [r.value << 4 for r in mmio if r.dir == 'W' and r.addr == 0x400780][-1]
    saves = [i for i, r in enumerate(mmio)
             if r.dir == 'W' and r.addr == 0x400788 and r.value == 2]
    assert saves, 'nouveau never found a dying channel resident'
    i = saves[0]
    ctl, user, inst = mmio[i - 3], mmio[i - 2], mmio[i - 1]
    assert (ctl.addr, user.addr, inst.addr) == (0x400144, 0x400148, 0x400784)
    assert ctl.value & 0x10000, f'CTX_CONTROL 0x{ctl.value:08x}'
    chid = user.value >> 24 & 0x1f
    assert chid != 0, 'the kernel channel does not die'
    # the image nouveau saves to is the one it gave the table for chid
    entries = [r.value for r in mmio if r.dir == 'W' and
               r.addr == 0x700000 + table + chid * 4 and r.value]
    assert entries and entries[-1] == inst.value, (hex(inst.value), entries)
    after = mmio[i + 1:i + 8]
    assert any(r.dir == 'W' and r.addr == 0x400144 and r.value == 0x10000000
               for r in after)
    assert 'has no context image' not in qemu_log(b)


def test_nv43_context_program_shows_the_resident_channel(boot_board):
    """NV40's CTXCTL says in 0x40032c (valid bit 24 | image >> 4) whose
    context the engine holds; nouveau's nv40_gr_chan_fini compares it with
    the dying channel's image and, when it is that one, marks it unloaded
    by clearing bit 24.  The client's channel, last to draw, is resident
    when the client exits."""
    b = boot_board('nv43', cmdline='nvdev.accel=copy,10')
    assert 'exit 0 copy,10' in client(b)
    _, recs = trace.read(b.trace_path)
    cur = [r for r in recs if r.space == 'mmio' and r.addr == 0x40032c]
    drops = [(a.value, c.value) for a, c in zip(cur, cur[1:])
             if a.dir == 'R' and c.dir == 'W' and a.value & 0x01000000 and
             c.value == a.value & ~0x01000000]
    assert len(drops) == 1, [f'{r.dir} 0x{r.value:08x}' for r in cur[-8:]]


def test_default_run_summary_is_accelerated_and_clean(boot_board):
    """What `nvdev run` prints for the default board: nouveau moves
    buffers with M2MF and dmesg has no problem line."""
    text = report.summary(boot_board())
    assert re.search(r'^accel +M2MF$', text, re.M), text
    assert re.search(r'^problems +0 line', text, re.M), text
