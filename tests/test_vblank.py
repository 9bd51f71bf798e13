"""Vblank.  The card raises each head's PCRTC vblank interrupt once a frame
of the mode the driver programmed (htotal * vtotal over the VPLL's clock,
decoded from the trace); DRM clients see those interrupts: libdrm's
vbltest waits for vblanks on head A and head B with nouveau and with
nvdrm, and modetest flips pages on vblank with nvdrm (nouveau flips
through a FIFO channel, which the device does not model yet: it answers
ENODEV).  Rates are measured by the tools on the guest's clock."""
import re
import statistics

import pytest

from nvdevkit import display, report, trace

NOACCEL = 'nouveau.noaccel=1'

# (board, head, device properties): head B runs the CH7006's TV on
# nv11-ch7006 and a DVI monitor on nv43.  (nv17's head B would run its
# on-chip TV encoder, which the device does not model: PTV sets a TV
# head's frame rate, not its CRTC timings.)
HEADS = [('nv04', 0, {}), ('nv11-ch7006', 0, {}), ('nv11-ch7006', 1, {}),
         ('nv17', 0, {'monitor1': 'default'}), ('nv31', 0, {}),
         ('nv43', 0, {'monitor1': 'default'}),
         ('nv43', 1, {'monitor1': 'default'})]
FLIP_BOARDS = ('nv04', 'nv11-ch7006', 'nv17', 'nv43')


def rates(lines):
    return [float(m.group(1)) for l in lines or []
            if (m := re.match(r'freq: ([\d.]+)Hz', l))]


def programmed(b, head, until=None):
    """The head's refresh from what the driver programmed (by record
    @until, or at the end), and the device's vblank periods on that head
    (ns), from the trace."""
    header, records = trace.read(b.trace_path)
    fields = dict(f.split('=', 1) for f in header.split() if '=' in f)
    state = display.DisplayState.replay(
        records, until=until(records) if until else None,
        chipset=fields['chipset'], crystal_khz=int(fields['crystal_khz']))
    t = state.timings(head)
    khz = state.vpll(head)[-1]
    times = [r.time for r in records if r.dir == 'V' and r.addr == head]
    return khz * 1000 / (t.htotal * t.vtotal), [b - a for a, b in zip(times, times[1:])]


def assert_rate(measured, want, what):
    # the first figure counts from before the first wait: skip it
    assert len(measured) >= 2, f'{what}: no steady rate reported'
    for hz in measured[1:]:
        assert abs(hz - want) / want < 0.005, (
            f'{what}: {hz} Hz, the programmed mode refreshes at {want:.3f} Hz')


def oopses(b):
    return [l for l in report.lines(b)
            if any(k in l for k in ('WARNING:', 'BUG:', 'Oops:', 'timed out'))]


@pytest.fixture(scope='module', params=[
    (board, head, props, driver) for driver in ('nouveau', 'nvdrm')
    for board, head, props in HEADS],
    ids=lambda p: f'{p[3]}-{p[0]}-head{"AB"[p[1]]}')
def vbltest(request, boot_board):
    board, head, props, driver = request.param
    args = f'-M,{driver}' + (',-s' if head else '')
    b = boot_board(board, driver=driver,
                   cmdline=f'{NOACCEL} nvdev.vbltest={args}', **props)
    return b, head


def test_the_device_interrupts_at_the_programmed_refresh(vbltest):
    b, head = vbltest
    want, periods = programmed(b, head)
    assert periods, 'no vblank interrupt recorded while the driver listened'
    # the steady period (the first follows a mode change)
    period = statistics.median(periods)
    assert abs(1e9 / period - want) / want < 0.001, (
        f'vblank every {period} ns; the mode wants {1e9 / want:.0f} ns')


def test_vblank_waits_see_each_frame(vbltest):
    b, head = vbltest
    want, _ = programmed(b, head)
    assert_rate(rates(b.report['vbltest']), want, f'vbltest on head {"AB"[head]}')
    assert not oopses(b), oopses(b)


def test_nvdrm_handles_the_interrupt(boot_board):
    b = boot_board('nv11-ch7006', driver='nvdrm',
                   cmdline=f'{NOACCEL} nvdev.vbltest=-M,nvdrm')
    lines = [l for l in b.report['interrupts'] if l.rstrip().endswith(' nvdrm')]
    assert lines, b.report['interrupts']
    count = int(lines[0].split()[1])
    # at least the 3 s of vbltest at ~75 Hz
    assert count >= 200, lines[0]


def flipping(records):
    """The record in the middle of head A's page flips (PCRTC START
    writes, one a frame while modetest -v runs)."""
    flips = [i for i, r in enumerate(records) if r.dir == 'W' and r.addr == 0x600800]
    assert len(flips) > 100, f'{len(flips)} writes of PCRTC START: no flipping'
    return flips[len(flips) // 2]


@pytest.mark.parametrize('board', FLIP_BOARDS)
def test_nvdrm_flips_pages_on_vblank(boot_board, board):
    """(No screendumps in this boot: they would make its virtual time
    depend on how fast the host answers.)"""
    b = boot_board(board, driver='nvdrm',
                   cmdline='nvdev.modetest=-M,nvdrm,-s,VGA-1:640x480,-v nvdev.hold=4')
    out = b.report['modetest']
    assert any(l.startswith('setting mode 640x480-') for l in out), out
    want, _ = programmed(b, 0, until=flipping)
    assert abs(want - 59.94) < 0.1, f'640x480 programmed at {want:.3f} Hz'
    assert_rate(rates(out), want, 'modetest -v page flips')
    assert not oopses(b), oopses(b)


# Over qtest, no guest: what a guest cannot make the vblank timer do.
PCRTC_INTR_0, PCRTC_INTR_EN_0 = 0x600100, 0x600140
VPLL = 0x680508


def cr(d, idx, val):
    d.wr08(0x6013d4, idx)
    d.wr08(0x6013d5, val)


def vblanks(tmp_path):
    _, records = trace.read(str(tmp_path / 'trace.txt'))
    return [r.time for r in records if r.dir == 'V' and r.addr == 0]


def test_a_pending_vblank_is_not_raised_again(device, tmp_path):
    """The interrupt is a latch: frames that end while it is set are not
    separate events (nothing in the trace, no host timer) until the driver
    acknowledges it; the next one comes at the next frame's vblank."""
    with device(trace=True) as d:
        d.wr32(PCRTC_INTR_EN_0, 1)
        d.clock_step(100_000_000)           # six frames of the default mode
        assert d.rd32(PCRTC_INTR_0) & 1
        d.wr32(PCRTC_INTR_0, 1)
        d.clock_step(17_000_000)            # at most one frame on
    times = vblanks(tmp_path)
    assert len(times) == 2, f'{len(times)} vblank events in 6 unacknowledged frames + 1'
    assert times[1] - times[0] > 100_000_000 - 17_000_000


def test_a_nanosecond_frame_is_timed_at_the_floor(device, tmp_path):
    """A 40x4 mode on a 3.5 GHz VPLL is a frame of about 45 ns.  The device times it
    as 100 us (10 kHz) and says so once in the QEMU log: a driver that
    acknowledges every microsecond for 300 us sees at most 4 vblanks, not
    300 (and not 6800)."""
    with device(trace=True, log=True) as d:
        cr(d, 0x1f, 0x57)                   # unlock
        for idx, val in {0x00: 0x00, 0x06: 0x02, 0x07: 0x00, 0x12: 0x01,
                         0x28: 0x03}.items():
            cr(d, idx, val)
        d.wr32(VPLL, 255 << 8 | 1)          # crystal * 255 / 1
        d.wr32(PCRTC_INTR_EN_0, 1)
        d.clock_step(20_000_000)            # the default frame's vblank
        d.wr32(PCRTC_INTR_0, 1)
        start = d.clock()
        for _ in range(300):
            d.clock_step(1000)
            d.wr32(PCRTC_INTR_0, 1)
        end = d.clock()
    times = [t for t in vblanks(tmp_path) if start <= t <= end]
    assert 1 <= len(times) <= 4, f'{len(times)} vblanks in {end - start} ns'
    with open(tmp_path / 'qemu.log') as f:
        log = f.read()
    floored = re.findall(r'PCRTC0: a frame of (\d+) ns \(4 lines\): timed as 100000 ns', log)
    assert len(floored) == 1 and 40 <= int(floored[0]) <= 50, log
