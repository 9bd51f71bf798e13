"""nouveau loading NV40 context programs as firmware, as in 2009.

kernel/patches/0001 makes nouveau's nv40 gr take nouveau/nvXX.ctxprog and
nouveau/nvXX.ctxvals from /lib/firmware when asked to (nouveau.config=
NvGrUseFW=1, which the harness gives with the files) and they are sound,
and use its built-in generator otherwise.  The files here are ours
(`nvctxprog gen all`, harness build.ctxprog_firmware()); the oracles are
nouveau's own messages and behaviour, its built-in generator's upload in
the register trace of a boot without firmware, and the console nouveau
draws with its built-in program.
"""
import os
import re
import shutil
import struct
import subprocess

import pytest

from nvdevkit import build, report, trace

from test_accel import CTXSTATE_BOARDS, FBTEXT, client_cmdline, console, failures

BOARD = 'nv43'
NV4X_BOARDS = ['nv40', 'nv41', 'nv42', 'nv43', 'nv47', 'nv49', 'nv4a', 'nv4b', 'nv44', 'nv46',
               'nv4e', 'nv4c', 'nv63', 'nv67', 'nv68']
LOADED = re.compile(r'gr: loaded nouveau/nv[0-9a-f]{2}\.ctxprog \((\d+) instructions\) '
                    r'and nouveau/nv[0-9a-f]{2}\.ctxvals \((\d+) values\)')


@pytest.fixture(scope='module')
def firmware(built):
    return build.ctxprog_firmware()


def uploads(b):
    """The words the driver wrote through UCODE_DATA, from index 0 on."""
    _, recs = trace.read(b.trace_path)
    words = []
    for r in recs:
        if r.space == 'mmio' and r.dir == 'W' and r.addr == 0x400324:
            assert r.value == 0
            words = []
        elif r.space == 'mmio' and r.dir == 'W' and r.addr == 0x400328:
            words.append(r.value)
    return words


def nvcp_words(path):
    with open(path, 'rb') as f:
        data = f.read()
    n = struct.unpack_from('<H', data, 5)[0]
    return list(struct.unpack_from(f'<{n}I', data, 7))


@pytest.mark.parametrize('board', NV4X_BOARDS)
def test_nouveau_loads_our_firmware_and_runs_accelerated(boot_board, firmware,
                                                         board):
    """dmesg says the files were loaded, with as many instructions and
    values as the files hold; what goes through 0x400328 is the file's
    program, which is also what nouveau's generator uploads on a boot
    without firmware; two clients take turns through it with no failure."""
    fw = boot_board(board, cmdline=client_cmdline(board), firmware=firmware)
    gen = boot_board(board, cmdline=client_cmdline(board))
    m = [LOADED.search(ln) for ln in report.lines(fw)]
    m = [x for x in m if x]
    assert m, '\n'.join(report.driver_lines(fw))
    assert f'nouveau/{board}.ctxprog' in m[0].group(0)
    prog = nvcp_words(os.path.join(firmware, 'nouveau', f'{board}.ctxprog'))
    with open(os.path.join(firmware, 'nouveau', f'{board}.ctxvals'), 'rb') as f:
        nvals = struct.unpack_from('<I', f.read(), 5)[0]
    assert (int(m[0].group(1)), int(m[0].group(2))) == (len(prog), nvals)
    assert uploads(fw) == prog
    assert uploads(gen) == prog, 'our file is not what nouveau generates'
    assert not any(LOADED.search(ln) for ln in report.lines(gen))
    out = fw.report.get('nvaccel') or []
    assert 'exit 0 copy,100' in out and 'exit 0 pingpong,50' in out, out
    assert not failures(fw), '\n'.join(failures(fw))
    assert not report.problems(fw), '\n'.join(report.problems(fw))
    # every channel switch ran the file's program to its end
    _, recs = trace.read(fw.trace_path)
    runs = [r for r in recs if r.space == 'ctxprog']
    assert len(runs) >= 20 and {r.name for r in runs} == {'end'}


def test_fbcon_with_firmware_equals_built_in(boot_board, firmware):
    """The accelerated console over the firmware's program: the same
    picture as over nouveau's built-in one."""
    cmd = f'{FBTEXT} nouveau.fbcon_bpp=32'
    fw = boot_board(BOARD, cmdline=cmd, screendumps=True, firmware=firmware)
    gen = boot_board(BOARD, cmdline=cmd, screendumps=True)
    assert any(LOADED.search(ln) for ln in report.lines(fw))
    assert any('MM: using M2MF' in ln for ln in report.lines(fw))
    assert not failures(fw), '\n'.join(failures(fw))
    a, b = console(fw), console(gen)
    assert (a.width, a.height) == (b.width, b.height)
    assert a.count(lambda p: p != (0, 0, 0)) > 20000
    diff = a.differences(b)
    assert not diff, f'{len(diff)} pixels differ, the first at {diff[0]}'


def _truncate(prog, vals):
    return prog[:len(prog) - 6], vals


def _signature(prog, vals):
    return prog, b'NVCX' + vals[4:]


def _length(prog, vals):
    n = struct.unpack_from('<I', vals, 5)[0]
    return prog, vals[:5] + struct.pack('<I', n + 1) + vals[9:]


def _absent(prog, vals):
    return None, vals


def _no_end(prog, vals):
    return prog.replace(struct.pack('<I', 0x0060000e), struct.pack('<I', 0)), vals


@pytest.mark.parametrize('damage,error', [
    (_truncate, r'nouveau/nv43\.ctxprog: says 97 entries but holds 389 bytes'),
    (_signature, r'nouveau/nv43\.ctxvals: bad signature 5843564e, want 5643564e'),
    (_length, r'nouveau/nv43\.ctxvals: says \d+ entries but holds \d+ bytes'),
    (_no_end, r'nouveau/nv43\.ctxprog: no END instruction'),
    (_absent, r'gr: NvGrUseFW: no nouveau/nv43\.ctxprog \(-2\)'),
])
def test_damaged_firmware_is_named_and_the_generator_used(
        boot_board, firmware, tmp_path, damage, error):
    """A damaged file: dmesg names it and what is wrong, says the built-in
    program is used, and nouveau runs accelerated on that."""
    fwdir = tmp_path / 'firmware'
    shutil.copytree(firmware, fwdir)
    p, v = fwdir / 'nouveau' / 'nv43.ctxprog', fwdir / 'nouveau' / 'nv43.ctxvals'
    prog, vals = damage(p.read_bytes(), v.read_bytes())
    if prog is None:
        p.unlink()
    else:
        p.write_bytes(prog)
    v.write_bytes(vals)
    b = boot_board(BOARD, firmware=str(fwdir), fresh=True)
    lines = report.lines(b)
    at = [i for i, ln in enumerate(lines) if re.search(error, ln)]
    assert at, '\n'.join(report.driver_lines(b))
    assert 'gr: using the built-in context program instead' in lines[at[0] + 1]
    assert not any(LOADED.search(ln) for ln in lines)
    gen = build.ctxprog_firmware()      # the generator's upload is nouveau's
    assert uploads(b) == nvcp_words(os.path.join(gen, 'nouveau', 'nv43.ctxprog'))
    assert any('MM: using M2MF' in ln for ln in lines)
    assert not failures(b), '\n'.join(failures(b))


def test_firmware_is_used_only_when_asked_for(boot_board, firmware):
    """Files in /lib/firmware but NvGrUseFW=0: nouveau does not look."""
    b = boot_board(BOARD, cmdline='nouveau.config=NvGrUseFW=0', firmware=firmware)
    assert not any('nv43.ctx' in ln for ln in report.lines(b))
    assert not report.problems(b), '\n'.join(report.problems(b))


def test_a_firmware_program_that_never_ends(boot_board, firmware, tmp_path):
    """A sound file whose program loops before its END: nouveau loads it
    (it cannot know); when a client's channel first takes the engine,
    CTXCTL stops the run at once, names it in the QEMU log and stays busy,
    and the guest is not hung: the client and the boot finish."""
    fwdir = tmp_path / 'firmware'
    shutil.copytree(firmware, fwdir)
    p = fwdir / 'nouveau' / 'nv43.ctxprog'
    prog = bytearray(p.read_bytes())
    prog[7:11] = struct.pack('<I', 0x00400068)      # 0: bra always, set, 0
    p.write_bytes(bytes(prog))
    b = boot_board(BOARD, cmdline='nvdev.accel=copy,10', firmware=str(fwdir),
                   fresh=True)
    assert any(LOADED.search(ln) for ln in report.lines(b))
    with open(b.qemu_log_path) as f:
        log = f.read()
    assert re.search(r'CTXCTL: the context program \(channel switch\) does '
                     r'not end', log), log[-2000:]
    assert any(ln.startswith('exit ') for ln in b.report.get('nvaccel') or [])
    assert report.connectors(b)


CTXSTATE = 'nvdev.accel=ctxstate,100'
OWN_STATE = re.compile(r'ok ctxstate 200 launches on channels (\d+) and (\d+) '
                       r'in turns, each with its own state')
# ctx 0x400a00, $sr: the transfer of the 73 words from 0x400a00, where the
# device keeps the 2D and M2MF method state (pgraph.c, nv40_state_reg)
CTX_400A00 = struct.pack('<I', 0x00100000 | (0x400a00 & 0xffff) >> 2)
CTX_400C00 = struct.pack('<I', 0x00100000 | (0x400c00 & 0xffff) >> 2)


def ctxprog_runs(b):
    _, recs = trace.read(b.trace_path)
    return [r for r in recs if r.space == 'ctxprog']


@pytest.mark.parametrize('board', CTXSTATE_BOARDS)
def test_two_channels_keep_their_state_through_the_context_program(boot_board,
                                                                   board):
    """Two clients' channels each set up an M2MF copy once (object, DMA
    objects, offsets, pitches, sizes: all different), then launch it 100
    times each in turns with nothing but the launch method; every launch
    copies with its own channel's state, checked byte for byte with fresh
    data each turn.  On NV40 that state sits in PGRAPH registers, so it
    is the context program nouveau generated that saves each channel's
    and loads the other's, at every one of the 200 switches."""
    b = boot_board(board, cmdline=client_cmdline(board))
    out = b.report.get('nvaccel') or []
    assert any(OWN_STATE.match(ln) for ln in out), '\n'.join(out)
    assert 'exit 0 ctxstate,100' in out
    runs = ctxprog_runs(b)
    assert len(runs) >= 200 and {r.name for r in runs} == {'end'}, len(runs)
    assert not failures(b), '\n'.join(failures(b))


def test_the_state_goes_only_where_the_program_moves_it(boot_board, firmware,
                                                       tmp_path):
    """The oracle is the program itself: our firmware for NV43 carries the
    two channels' state as nouveau's own program does; the same file with
    one instruction changed, the 0x400a00 block's transfer pointed at
    0x400c00 (same length, so the image layout is unchanged), leaves the
    state of the channel that last set it in PGRAPH for the other, whose
    next launch copies with the wrong offsets and sizes."""
    good = boot_board(BOARD, cmdline=client_cmdline(BOARD), firmware=firmware)
    out = good.report.get('nvaccel') or []
    assert any(LOADED.search(ln) for ln in report.lines(good))
    assert any(OWN_STATE.match(ln) for ln in out), '\n'.join(out)

    fwdir = tmp_path / 'firmware'
    shutil.copytree(firmware, fwdir)
    p = fwdir / 'nouveau' / 'nv43.ctxprog'
    prog = p.read_bytes()
    assert prog.count(CTX_400A00) == 1
    p.write_bytes(prog.replace(CTX_400A00, CTX_400C00))
    bad = boot_board(BOARD, cmdline=CTXSTATE, firmware=str(fwdir), fresh=True)
    out = bad.report.get('nvaccel') or []
    assert any(LOADED.search(ln) for ln in report.lines(bad))
    wrong = [ln for ln in out if 'the launch did not use its own state' in ln]
    # the first channel's launches run on the second's state, which the
    # second then finds as it left it
    assert wrong and all(', channel 0:' in ln for ln in wrong), '\n'.join(out)
    assert 'exit 1 ctxstate,100' in out
    assert {r.name for r in ctxprog_runs(bad)} == {'end'}


def test_patch_series_is_checkpatch_clean(built, tmp_path):
    """kernel/patches as a maintainer would receive them: checkpatch
    --strict finds nothing but its question about MAINTAINERS for a new
    file (nouveau's entry covers the directory)."""
    src = build.ensure_kernel_source()
    patches = build.kernel_patches()
    assert len(patches) >= 2, 'the series'
    for name, data in patches:
        (tmp_path / name).write_bytes(data)
        # outside the repository, or checkpatch reads it as a source file
        r = subprocess.run([f'{src}/scripts/checkpatch.pl', '--strict', '--no-tree',
                            '--terse', name], cwd=tmp_path,
                           capture_output=True, text=True)
        found = [ln for ln in r.stdout.splitlines()
                 if ': ERROR:' in ln or ': WARNING:' in ln or ': CHECK:' in ln]
        assert all('does MAINTAINERS need updating' in ln for ln in found), r.stdout
        # --terse prints nothing at all for a patch with nothing to say
        assert (not found and r.returncode == 0 and not r.stdout.strip()) or \
            re.search(r'total: 0 errors, [01] warnings, 0 checks', r.stdout), r.stdout
