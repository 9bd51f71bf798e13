"""LVDS: the laptop board nv43-go has a built-in panel found by its EDID
on DDC (FP strap 0xf; the device's panel=WxH property, QEMU's EDID of a
60 Hz panel of that native mode) and a backlight on the NV4x PWM at PBUS
0x15f0.  At load the driver lights the panel at its native mode through
the flat panel timing generator, running the VBIOS's LVDS scripts: panel
off, the reset script the LVDS table's clock table names for one link or
two, panel on; it registers a backlight class device whose brightness is
the PWM's duty cycle.  nvdrm does what nouveau does."""
import os

import pytest

from nvdevkit import display, png, report, trace

BOARD = 'nv43-go'
BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
        (192, 0, 192), (192, 0, 0), (0, 0, 192)]
PWM = 0x0015f0
PWM_ENABLE = 1 << 31
# what nv43-go's reset scripts write through selector 0x80 (and, for two
# links, 0x81): sub0 one link, sub1 two
SCRIPT = {0x00: 0x30, 0x01: 0x20, 0x02: 0x70, 0x2b: 0x09}
# the board's LVDS table: two links from 112 MHz
DUALLINK_KHZ = 112000
DRIVERS = ('nouveau', 'nvdrm')
# panel -> (native mode as modetest lists it, dual link?)
PANELS = {'1024x768': False, '1680x1050': True}


def lvds_boot(boot_board, driver, panel='1024x768', backlight=None):
    cmd = f'nouveau.noaccel=1 nvdev.modetest=-M,{driver},-s,LVDS-1:{panel}'
    if backlight:
        cmd += ' nvdev.backlight=' + ','.join(map(str, backlight))
    b = boot_board(BOARD, driver=driver, cmdline=cmd, screendumps=True,
                   monitor0='none', panel=panel)
    marks = {}
    header, records = trace.read(b.trace_path, marks)
    assert 'after-driver' in marks and 'modetest' in marks, b.report['modetest']
    return b, records, marks


def loaded_state(records, marks):
    """The registers once the driver has loaded (and lit the panel)."""
    return display.DisplayState.replay(records, until=marks['after-driver'],
                                       chipset='NV43')


def native_mode(b, panel):
    modes = display.parse_modetest_modes(b.report['modetest_connectors'])
    clock, t, refresh = modes[panel][0]         # the preferred one: EDID's
    return clock, t


def panel_head(state, hdisplay):
    heads = [h for h in (0, 1) if state.fp_timings(h).hdisplay_end == hdisplay - 1]
    assert len(heads) == 1, [state.fp_timings(h) for h in (0, 1)]
    return heads[0]


def pwm_writes(records, start=None, end=None):
    return [r.value for r in records if r.dir == 'W' and r.space == 'mmio'
            and r.addr == PWM and (start is None or r.seq >= start)
            and (end is None or r.seq < end)]


@pytest.fixture(scope='module', params=[(d, p) for d in DRIVERS for p in PANELS],
                ids=lambda p: f'{p[0]}-{p[1]}')
def lvds(request, boot_board):
    driver, panel = request.param
    return (driver, panel) + lvds_boot(boot_board, driver, panel)


def test_the_panel_is_found_over_ddc(lvds):
    driver, panel, b, _, _ = lvds
    states = {c['name'].split('-', 1)[1]: c for c in b.report['drm']}
    assert states['LVDS-1']['status'] == 'connected', states
    assert states['LVDS-1']['edid_bytes'] >= 128
    assert states['LVDS-1']['modes'][0] == panel
    assert states['VGA-1']['status'] == 'disconnected'
    oops = [l for l in report.lines(b) if 'Oops' in l or 'WARNING' in l or 'BUG' in l]
    assert not oops, '\n'.join(oops)


def test_the_panel_runs_at_its_native_mode(lvds):
    driver, panel, b, records, marks = lvds
    clock, t = native_mode(b, panel)
    state = loaded_state(records, marks)
    head = panel_head(state, t.hdisplay)
    fp = state.fp_timings(head)
    assert (fp.hdisplay_end + 1, fp.hsync_start + 1, fp.hsync_end + 1,
            fp.htotal + 1) == (t.hdisplay, t.hsync_start, t.hsync_end, t.htotal)
    assert (fp.vdisplay_end + 1, fp.vsync_start + 1, fp.vsync_end + 1,
            fp.vtotal + 1) == (t.vdisplay, t.vsync_start, t.vsync_end, t.vtotal)
    # FP_TG_CONTROL: DISPEN_POS and native mode (the panel's own, scaled
    # by the GPU otherwise); two links where the LVDS table says so
    ctl = state.fp_control(head)
    assert ctl & 0x00000f00 == 0x200, hex(ctl)        # MODE_NATIVE
    assert ctl & 0x30000000 == 0x10000000, hex(ctl)   # DISPEN_POS
    assert bool(ctl & 0x80000000) == PANELS[panel], hex(ctl)
    assert (clock >= DUALLINK_KHZ) == PANELS[panel], clock
    cr = state.cr[head]
    assert cr[0x28] & 0x80 and cr[0x33] & 0x3 == 0x3
    n, m, p, khz = state.vpll(head)
    assert abs(khz - clock) / clock < 0.005, (n, m, p, khz, clock)


def test_lvds_scripts_ran(lvds):
    driver, panel, b, records, marks = lvds
    state = loaded_state(records, marks)
    # the reset script for one link (sub0) or two (sub1, also link 0x81)
    assert {k: state.tmds[(0, 0)].get(k) for k in SCRIPT} == SCRIPT, state.tmds
    link1 = {k: state.tmds[(0, 1)].get(k) for k in SCRIPT}
    assert (link1 == SCRIPT) == PANELS[panel], state.tmds
    # panel off, then on: the scripts' NV_REG on the PWM's enable bit
    w = pwm_writes(records, marks['before-driver'], marks['after-driver'])
    enable = [bool(v & PWM_ENABLE) for v in w]
    assert False in enable and True in enable[enable.index(False):], \
        [hex(v) for v in w]
    assert enable[-1], [hex(v) for v in w]


def test_the_screen_shows_the_test_pattern(lvds):
    driver, panel, b, records, marks = lvds
    w, h = map(int, panel.split('x'))
    state = loaded_state(records, marks)
    head = panel_head(state, w)
    img = png.read(os.path.join(b.outdir, 'modetest.png' if head == 0
                                else 'modetest-headb.png'))
    assert (img.width, img.height) == (w, h)
    for i, colour in enumerate(BARS):
        x = int(w / 7 * i + w / 14)
        assert img.pixel(x, h // 4) == colour, f'bar {i} at x={x}'


@pytest.mark.parametrize('driver', DRIVERS)
def test_backlight_class_device_drives_the_pwm(boot_board, driver):
    steps = (10, 0, 25)
    b, records, marks = lvds_boot(boot_board, driver, backlight=steps)
    bl = b.report['backlight']
    assert len(bl) == 1, bl
    assert bl[0]['type'] == 'raw' and bl[0]['max_brightness'] == '31', bl
    assert bl[0]['device'] == 'card0-LVDS-1', bl
    # at load it reads what POST left: full duty
    assert b.report['backlight_log'] == [f'{bl[0]["name"]} {v} -> {v}'
                                         for v in steps]
    ends = [f'backlight-{v}' for v in steps[1:]] + ['backlight-done']
    for v, end in zip(steps, ends):
        w = pwm_writes(records, marks[f'backlight-{v}'], marks[end])
        assert w and all(x >> 16 & 0x1f == v for x in w), [hex(x) for x in w]
        assert all(x & PWM_ENABLE for x in w)           # the panel stays on


@pytest.mark.parametrize('driver', DRIVERS)
def test_no_panel_ddc_leaves_lvds_disconnected(boot_board, driver):
    b = boot_board(BOARD, driver=driver, panel='none')
    states = {c['name'].split('-', 1)[1]: c for c in b.report['drm']}
    assert states['LVDS-1']['status'] == 'disconnected', states
    assert states['VGA-1']['status'] == 'connected', states
    oops = [l for l in report.lines(b) if 'Oops' in l or 'WARNING' in l or 'BUG' in l]
    assert not oops, '\n'.join(oops)


@pytest.mark.parametrize('panel', PANELS)
def test_nvdrm_programs_what_nouveau_programs(boot_board, panel):
    got, ref = {}, {}
    for driver, out in (('nouveau', ref), ('nvdrm', got)):
        b, records, marks = lvds_boot(boot_board, driver, panel)
        state = loaded_state(records, marks)
        head = panel_head(state, int(panel.split('x')[0]))
        out.update(fp=state.fp_timings(head), ctl=state.fp_control(head),
                   crtc=state.timings(head), tmds=state.tmds,
                   khz=state.vpll(head)[3], cr3b=state.cr[head][0x3b],
                   pwm=state.mmio.get(PWM))
    khz_ref, khz_got = ref.pop('khz'), got.pop('khz')
    assert got == ref
    assert abs(khz_got - khz_ref) / khz_ref < 0.001, (khz_ref, khz_got)


# nv43-go-strap: FP strap 1, record 1 (one link, 24-bit), the VBIOS's mode 1
STRAP_MODE = (71000, (1280, 1328, 1360, 1440), (800, 803, 809, 823))


def strap_boot(boot_board, driver):
    b = boot_board('nv43-go-strap', driver=driver, screendumps=True,
                   cmdline=f'nouveau.noaccel=1 nvdev.modetest=-M,{driver},-s,LVDS-1:1280x800',
                   monitor0='none', panel='none')
    marks = {}
    _, records = trace.read(b.trace_path, marks)
    assert 'after-driver' in marks and 'modetest' in marks, b.report['modetest']
    return b, loaded_state(records, marks)


@pytest.mark.parametrize('driver', DRIVERS)
def test_a_strapped_panel_gets_the_vbios_mode(boot_board, driver):
    b, state = strap_boot(boot_board, driver)
    lvds = next(c for c in b.report['drm'] if c['name'].endswith('LVDS-1'))
    assert lvds['status'] == 'connected' and lvds['modes'][0] == '1280x800', lvds
    assert lvds['edid_bytes'] == 0                 # no DDC asked
    clock, h, v = STRAP_MODE
    head = panel_head(state, h[0])
    fp = state.fp_timings(head)
    assert (fp.hdisplay_end + 1, fp.hsync_start + 1, fp.hsync_end + 1,
            fp.htotal + 1) == h
    assert (fp.vdisplay_end + 1, fp.vsync_start + 1, fp.vsync_end + 1,
            fp.vtotal + 1) == v
    ctl = state.fp_control(head)
    assert ctl & 0x10 and not ctl & 0x1, hex(ctl)     # +hsync, -vsync
    assert not ctl & 0x80000000, hex(ctl)             # one link
    assert {k: state.tmds[(0, 0)].get(k) for k in SCRIPT} == SCRIPT
    assert abs(state.vpll(head)[3] - clock) / clock < 0.005
    img = png.read(os.path.join(b.outdir, 'modetest.png' if head == 0
                                else 'modetest-headb.png'))
    assert (img.width, img.height) == (1280, 800)
    assert img.pixel(1280 // 14, 200) == BARS[0]
    if driver == 'nouveau':
        assert any('BIOS FP mode: 1280x800 (71000kHz pixel clock)' in l
                   for l in report.lines(b))


def test_nvdrm_sets_a_strapped_panel_as_nouveau_does(boot_board):
    (_, ref), (_, got) = (strap_boot(boot_board, d) for d in ('nouveau', 'nvdrm'))
    h_ref, h_got = panel_head(ref, 1280), panel_head(got, 1280)
    assert got.fp_timings(h_got) == ref.fp_timings(h_ref)
    assert got.fp_control(h_got) == ref.fp_control(h_ref)
    assert got.timings(h_got) == ref.timings(h_ref)
    assert got.tmds == ref.tmds
