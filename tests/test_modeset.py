"""modetest sets 640x480, 800x600 and 1024x768 on each board's VGA output,
with upstream nouveau and with our nvdrm.  For each: the picture is the
test pattern at that size, and the CRTC timings and VPLL the driver
programmed (decoded from the trace at the moment of the screendump) are
the mode DRM reports; nvdrm programs the timings nouveau does and a pixel
clock within 0.1 % of nouveau's."""
import os

import pytest

from nvdevkit import display, png, trace

BOARD = 'nv11-ch7006'
BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
        (192, 0, 192), (192, 0, 0), (0, 0, 192)]


BOARDS = ('nv04', 'nv11-ch7006', 'nv17', 'nv43')
MODES = ('640x480', '800x600', '1024x768')


def modes(board):
    """The modes one boot of @board sets, a modetest run each, in turn."""
    return MODES + (('1024x768@RG16',) if board == 'nv11-ch7006' else ())


def run_name(board, mode):
    """The guest names run N's output, screendump and trace mark modetest,
    modetest2, ... (harness/guest/init)."""
    i = modes(board).index(mode)
    return f'modetest{i + 1}' if i else 'modetest'


def boot_modetest(boot_board, board, mode, driver):
    """(mode, the boot, the display state the driver had programmed when
    the mode was on screen).  Between two runs modetest exits and fbcon
    takes the screen back: each run is a modeset from fbcon's mode."""
    runs = ';'.join(f'-M,{driver},-s,VGA-1:{m}' for m in modes(board))
    b = boot_board(board, driver=driver, cmdline=f'nouveau.noaccel=1 '
                   f'nvdev.modetest={runs}', screendumps=True)
    marks = {}
    header, records = trace.read(b.trace_path, marks)
    name = run_name(board, mode)
    assert name in marks, f'no trace mark at the {name} screendump'
    chipset = header.split('chipset=')[1].split()[0]
    state = display.DisplayState.replay(records, until=marks[name],
                                        chipset=chipset)
    return mode, b, state


@pytest.fixture(scope='module', params=[
    (board, mode, driver) for driver in ('nouveau', 'nvdrm') for board in BOARDS
    for mode in MODES], ids=lambda p: f'{p[2]}-{p[0]}-{p[1]}')
def modeset(request, boot_board):
    board, mode, driver = request.param
    return boot_modetest(boot_board, board, mode, driver)


def drm_mode(b, mode):
    out = b.report[run_name(b.board, mode)]
    line = next((l for l in out if l.startswith('setting mode')), None)
    assert line and f'setting mode {mode}-' in line, out
    refresh = float(line.split()[2].split('-')[1].rstrip('Hz'))
    listed = display.parse_modetest_modes(b.report['modetest_connectors'])
    cands = [m for m in listed.get(mode, []) if abs(m[2] - refresh) < 0.01]
    assert cands, f'{mode} at {refresh} Hz not in modetest -c output'
    return cands[0]


def test_picture(modeset):
    mode, b, _ = modeset
    img = png.read(os.path.join(b.outdir, run_name(b.board, mode) + '.png'))
    w, h = (int(x) for x in mode.split('x'))
    assert (img.width, img.height) == (w, h)
    for i, colour in enumerate(BARS):
        x = int(w / 7 * i + w / 14)
        assert img.pixel(x, h // 4) == colour, f'bar {i} at x={x}'


def test_crtc_timings_are_the_mode(modeset):
    mode, b, state = modeset
    clock, want, _ = drm_mode(b, mode)
    got = state.timings(0)
    assert got == want, f'CRTC programmed {got}, DRM mode is {want}'


def test_vpll_gives_the_pixel_clock(modeset):
    mode, b, state = modeset
    clock, _, _ = drm_mode(b, mode)
    n, m, p, khz = state.vpll(0)
    err = abs(khz - clock) / clock
    assert err < 0.005, (f'VPLL1 N={n} M={m} P={p} gives {khz / 1000:.3f} MHz, '
                         f'mode wants {clock / 1000:.3f} MHz ({err:.2%} off)')


def test_scanout_format(modeset):
    mode, b, state = modeset
    w = int(mode.split('x')[0])
    assert state.bpp(0) == 32
    assert state.pitch(0) >= w * 4


@pytest.mark.parametrize('board,mode', [(b, m) for b in BOARDS for m in MODES])
def test_nvdrm_programs_what_nouveau_programs(boot_board, board, mode):
    _, nb, ns = boot_modetest(boot_board, board, mode, 'nouveau')
    _, db, ds = boot_modetest(boot_board, board, mode, 'nvdrm')
    assert drm_mode(db, mode) == drm_mode(nb, mode), 'the drivers set different modes'
    assert ds.timings(0) == ns.timings(0), (f'nvdrm CRTC {ds.timings(0)}, '
                                            f'nouveau {ns.timings(0)}')
    nv, dv = ns.vpll(0)[3], ds.vpll(0)[3]
    assert abs(dv - nv) / nv < 0.001, (f'nvdrm VPLL {ds.vpll(0)} {dv:.0f} kHz, '
                                       f'nouveau {ns.vpll(0)} {nv:.0f} kHz')


def fifo_arb(state, head=0):
    c = state.cr[head]
    return {'burst CR1B': c[0x1b], 'lwm CR20': c[0x20], 'lwm CR47': c[0x47]}


@pytest.mark.parametrize('board,mode', [(b, m) for b in BOARDS for m in MODES])
def test_nvdrm_sets_the_fifo_arbitration_nouveau_sets(boot_board, board, mode):
    """The scanout FIFO's burst and watermark follow the pixel clock, the
    depth and the memory's clocks (NV04, NV1x) or are fixed (NV20 on)."""
    _, _, ns = boot_modetest(boot_board, board, mode, 'nouveau')
    _, _, ds = boot_modetest(boot_board, board, mode, 'nvdrm')
    assert fifo_arb(ds)['lwm CR20'], 'nvdrm left the FIFO watermark at 0'
    assert fifo_arb(ds) == fifo_arb(ns)


@pytest.mark.parametrize('board', ('nv11-ch7006',))
def test_a_16_bit_mode_drains_the_fifo_slower(boot_board, board):
    """At 16 bpp the scanout drains half the bytes: the NV1x watermark
    drops, with both drivers alike.  (NV04's sits at its 384-byte floor
    for both depths at 1024x768 with this board's memory timings.)"""
    states = {}
    for driver in ('nouveau', 'nvdrm'):
        _, _, states[driver] = boot_modetest(boot_board, board, '1024x768@RG16', driver)
        assert states[driver].bpp(0) == 16
    assert fifo_arb(states['nvdrm']) == fifo_arb(states['nouveau'])
    _, _, s32 = boot_modetest(boot_board, board, '1024x768', 'nvdrm')
    assert fifo_arb(states['nvdrm'])['lwm CR20'] < fifo_arb(s32)['lwm CR20']
