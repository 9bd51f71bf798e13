"""DVI: a digital monitor on the TMDS output (monitor1=default, QEMU's
EDID, which says digital).  Both drivers find it over DDC and set
1024x768 on it: the head driving it is slaved to the flat panel timing
generator, whose FP_* registers hold the mode; the VBIOS's TMDS script for
the pixel clock ran (its transmitter registers are set) and the
transmitter is bound to the head; the screen shows the test pattern.
nvdrm programs what nouveau programs."""
import os

import pytest

from nvdevkit import display, png, report, trace

BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
        (192, 0, 192), (192, 0, 0), (0, 0, 192)]
MODE = '1024x768'
# the VESA mode both drivers pick: 65 MHz, 1024 1048 1184 1344 / 768 771 777 806
H, V = (1024, 1048, 1184, 1344), (768, 771, 777, 806)
# FP_TG_CONTROL: DISPEN_POS, MODE_CENTER (no GPU scaling); negative syncs
FP_TG = (1 << 28) | (1 << 8)
# FP_DEBUG_0: bilinear interpolation with rounding, TMDS on, scalers on
FP_DEBUG_0 = 0x01101191
# what the boards' TMDS scripts (sub0, one link) write through selector 0x80
SCRIPT = {0x00: 0x30, 0x01: 0x20, 0x02: 0x70, 0x2b: 0x11}

# board -> (the DVI connector's name under nouveau, under nvdrm, DCB OR)
BOARDS = {
    'nv17': ('DVI-D-1', 'DVI-D-1', 2),
    'nv34': ('DVI-D-1', 'DVI-D-1', 2),
    'nv43': ('DVI-I-1', 'DVI-I-1', 1),
}


def dvi_boot(boot_board, board, driver):
    conn = BOARDS[board][0 if driver == 'nouveau' else 1]
    b = boot_board(board, driver=driver, cmdline='nouveau.noaccel=1 nvdev.modetest='
                   f'-M,{driver},-s,{conn}:{MODE}', screendumps=True,
                   monitor0='none', monitor1='default')
    marks = {}
    header, records = trace.read(b.trace_path, marks)
    assert 'modetest' in marks, b.report['modetest']
    chipset = header.split('chipset=')[1].split()[0]
    state = display.DisplayState.replay(records, until=marks['modetest'],
                                        chipset=chipset)
    return b, state


def dvi_head(state):
    heads = [h for h in (0, 1) if state.fp_timings(h).hdisplay_end == H[0] - 1]
    assert len(heads) == 1, [state.fp_timings(h) for h in (0, 1)]
    return heads[0]


@pytest.fixture(scope='module', params=[(b, d) for b in BOARDS
                                        for d in ('nouveau', 'nvdrm')],
                ids=lambda p: f'{p[1]}-{p[0]}')
def dvi(request, boot_board):
    board, driver = request.param
    return (board, driver) + dvi_boot(boot_board, board, driver)


def test_dvi_monitor_is_found_over_ddc(dvi):
    board, driver, b, _ = dvi
    conn = BOARDS[board][0 if driver == 'nouveau' else 1]
    states = {c['name'].split('-', 1)[1]: c for c in b.report['drm']}
    assert states[conn]['status'] == 'connected', states
    assert states[conn]['edid_bytes'] >= 128
    assert states['VGA-1']['status'] == 'disconnected'
    oops = [l for l in report.lines(b) if 'Oops' in l or 'WARNING' in l or 'BUG' in l]
    assert not oops, '\n'.join(oops)


def test_flat_panel_timing_generator_holds_the_mode(dvi):
    board, _, b, state = dvi
    head = dvi_head(state)
    fp = state.fp_timings(head)
    assert (fp.hdisplay_end + 1, fp.hsync_start + 1, fp.hsync_end + 1,
            fp.htotal + 1) == H
    assert (fp.vdisplay_end + 1, fp.vsync_start + 1, fp.vsync_end + 1,
            fp.vtotal + 1) == V
    assert (fp.vcrtc, fp.vvalid_start, fp.vvalid_end) == (V[3] - 6, 0, V[0] - 1)
    # NV17 on, the CRTC's end comes a minimum front porch before the sync:
    # 0x4b, but none on a BIT VBIOS before 5.x (nouveau reads it only there)
    porch = 0 if board == 'nv34' else 0x4b
    assert fp.hcrtc == (H[1] - porch - 1 if H[1] - H[0] < porch else H[0])
    assert state.fp_control(head) == FP_TG, hex(state.fp_control(head))
    assert state.mmio.get(0x680880 + 0x2000 * head) == FP_DEBUG_0
    # the CRTC is slaved (CR28 bit 7), routed to the FP (CR33), reports TMDS
    cr = state.cr[head]
    assert cr[0x28] & 0x80 and cr[0x33] & 0x3 == 0x3 and cr[0x3b] == 0x88
    n, m, p, khz = state.vpll(head)
    assert abs(khz - 65000) / 65000 < 0.005, (n, m, p, khz)


def test_tmds_script_ran_and_the_link_is_bound(dvi):
    board, _, b, state = dvi
    head = dvi_head(state)
    orr = BOARDS[board][2]
    ramdac = (orr & 4) >> 2
    # selector 0x80 means the output's own registers: OR B -> the +8 pair
    link = 1 if orr == 2 else 0
    regs = state.tmds[(ramdac, link)]
    assert {k: regs.get(k) for k in SCRIPT} == SCRIPT, regs
    assert regs.get(0x3a, 0) & 0xf0 == 0x80           # read-modify-write
    # the binding goes to link 0 of the output's RAMDAC: 0x80, +8 if the
    # head is not that RAMDAC's
    assert state.tmds[(ramdac, 0)].get(0x04) == (0x80 if head == ramdac else 0x88)


def test_the_screen_shows_the_test_pattern(dvi):
    _, _, b, state = dvi
    head = dvi_head(state)
    img = png.read(os.path.join(b.outdir, 'modetest.png' if head == 0
                                else 'modetest-headb.png'))
    assert (img.width, img.height) == (1024, 768)
    for i, colour in enumerate(BARS):
        x = int(1024 / 7 * i + 1024 / 14)
        assert img.pixel(x, 768 // 4) == colour, f'bar {i} at x={x}'


@pytest.mark.parametrize('board', BOARDS)
def test_nvdrm_programs_what_nouveau_programs(boot_board, board):
    _, ref = dvi_boot(boot_board, board, 'nouveau')
    _, got = dvi_boot(boot_board, board, 'nvdrm')
    h_ref, h_got = dvi_head(ref), dvi_head(got)
    assert got.fp_timings(h_got) == ref.fp_timings(h_ref)
    assert got.fp_control(h_got) == ref.fp_control(h_ref)
    assert got.timings(h_got) == ref.timings(h_ref)
    assert got.tmds == ref.tmds
    k_ref, k_got = ref.vpll(h_ref)[3], got.vpll(h_got)[3]
    assert abs(k_got - k_ref) / k_ref < 0.001, (k_ref, k_got)


@pytest.mark.parametrize('board', BOARDS)
def test_nvdrm_makes_the_connectors_nouveau_makes(boot_board, board):
    """One connector per DCB connector: nv43's DVI-I carries DAC B and the
    TMDS link on one connector, its EDID's digital bit picking the one.
    (nvdrm does not drive NV17's on-chip TV encoder: TV connectors are left
    out.)"""
    states = {}
    for driver in ('nouveau', 'nvdrm'):
        b, _ = dvi_boot(boot_board, board, driver)
        states[driver] = sorted((c['name'], c['status']) for c in b.report['drm']
                                if '-TV-' not in c['name'])
    assert states['nvdrm'] == states['nouveau']
