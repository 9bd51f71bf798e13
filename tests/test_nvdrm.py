"""kernel/nvdrm, our own driver: it probes each board, names the chip and
its memory and loads the VBIOS from PROM (an IGP's from the PCI ROM); its
own VBIOS parser finds the DCB outputs and PLL limits libnvbios finds in
the same image; the
connectors and their state follow what is plugged in (DDC, DAC load
detection, the CH7006 TV encoder); a TV mode can be set; unbinding,
rebinding and reloading are clean; a dead card or a corrupt VBIOS fails
probe with a clear message and no oops.  (Mode setting on the VGA output
is in test_modeset.)"""
import glob
import os
import re
import subprocess

import pytest

from nvdevkit import build, png, paths, report

BOARDS = ['nv04', 'nv05', 'nv10', 'nv11-ch7006', 'nv17', 'nv20', 'nv2a', 'nv30', 'nv31', 'nv34',
          'nv43', 'nv43-go', 'nv43-go-strap', 'nv4a', 'nv4c', 'nv4e']
# the NV4x IGPs: no ROM behind PROM, the VBIOS comes with the system firmware
IGP_CHIPSETS = {'C51', 'C61', 'C73', 'C67', 'C68'}
BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
        (192, 0, 192), (192, 0, 0), (0, 0, 192)]


def nvdrm_lines(b):
    return report.driver_lines(b, 'nvdrm')


def oopses(b):
    return [l for l in report.lines(b)
            if any(k in l for k in ('WARNING:', 'BUG:', 'Oops:', 'Call Trace'))]


@pytest.mark.parametrize('board', BOARDS)
def test_probe_identifies_the_board(boot_board, board_info, board):
    b = boot_board(board, driver='nvdrm')
    info = board_info(board)
    assert report.bound_driver(b) == 'nvdrm', '\n'.join(nvdrm_lines(b))
    text = '\n'.join(nvdrm_lines(b))
    assert f'{info.get("chipset")} (BOOT_0 0x' in text, text
    assert f'{info.num("vram_mb")} MiB' in text, text
    source = 'PCI ROM' if info.get('chipset') in IGP_CHIPSETS else 'PROM'
    assert f'from {source}, checksum ok' in text, text


@pytest.mark.parametrize('board', BOARDS)
def test_kernel_vbios_parser_agrees_with_libnvbios(boot_board, board_info, board):
    b = boot_board(board, driver='nvdrm')
    vb = board_info(board).vbios
    want = [(i, e['conn'], e['conf']) for i, e in enumerate(vb['dcb']['entries'])]
    assert report.dcb(b) == want
    plls = []
    for l in nvdrm_lines(b):
        m = re.search(r'PLL limits 0x([0-9a-f]{6}): VCO1 (\d+)-(\d+) kHz, '
                      r'VCO2 (\d+)-(\d+) kHz', l)
        if m:
            plls.append(tuple(int(x, 16) if i == 0 else int(x)
                              for i, x in enumerate(m.groups())))
    assert plls == [(e['reg'], e['vco1']['min'], e['vco1']['max'], e['vco2']['min'],
                     e['vco2']['max']) for e in vb['pll']['entries']]
    lvds = [l for l in nvdrm_lines(b) if 'LVDS table' in l]
    if vb['lvds']['version'] == 0x30:
        strap = board_info(board).num('strap') >> 16 & 0xf
        conf, fp = vb['lvds']['records'][strap]
        assert len(lvds) == 1, lvds
        assert (f'at 0x{vb["lvds_manufacturer"]:04x}: dual link from '
                f'{vb["lvds"]["duallink_khz"]} kHz, strap {strap}: conf '
                f'0x{conf:02x}, fp mode {fp}') in lvds[0], lvds
    else:
        assert not lvds, lvds


def connector_states(b):
    return sorted((c['name'].split('-', 1)[1], c['status']) for c in b.report['drm'])


@pytest.mark.parametrize('board,monitor,want', [
    ('nv04', 'default', [('VGA-1', 'connected')]),
    ('nv04', 'noddc', [('VGA-1', 'connected')]),
    ('nv04', 'none', [('VGA-1', 'disconnected')]),
    ('nv11-ch7006', 'default', [('TV-1', 'connected'), ('VGA-1', 'connected')]),
    ('nv11-ch7006', 'noddc', [('TV-1', 'connected'), ('VGA-1', 'connected')]),
    ('nv11-ch7006', 'none', [('TV-1', 'connected'), ('VGA-1', 'disconnected')]),
    ('nv17', 'default', [('DVI-D-1', 'disconnected'), ('VGA-1', 'connected')]),
    ('nv17', 'noddc', [('DVI-D-1', 'disconnected'), ('VGA-1', 'connected')]),
    ('nv17', 'none', [('DVI-D-1', 'disconnected'), ('VGA-1', 'disconnected')]),
])
def test_connectors_follow_what_is_plugged_in(boot_board, board, monitor, want):
    b = boot_board(board, driver='nvdrm', monitor0=monitor)
    assert connector_states(b) == want
    vga = next(c for c in b.report['drm'] if c['name'].endswith('VGA-1'))
    if monitor == 'default':
        assert vga['edid_bytes'] >= 128 and '1024x768' in vga['modes']
    if monitor == 'noddc':      # found by DAC load detection, no EDID
        assert vga['edid_bytes'] == 0 and '1024x768' in vga['modes']
    assert not oopses(b), '\n'.join(oopses(b))


def test_nvdrm_and_nouveau_see_the_same_connectors(boot_board):
    for board in ('nv04', 'nv11-ch7006'):
        assert (connector_states(boot_board(board, driver='nvdrm')) ==
                connector_states(boot_board(board)))


@pytest.mark.parametrize('plugged,status', [('composite', 'connected'),
                                            ('none', 'disconnected')])
def test_ch7006_tv_detect(boot_board, plugged, status):
    b = boot_board('nv11-ch7006', driver='nvdrm', tv=plugged)
    tv = dict(connector_states(b)).get('TV-1')
    assert tv == status, f'tv={plugged}: TV-1 is {tv}'
    assert any('ch7006' in l and 'version ID: 2a' in l for l in report.lines(b))


def test_tv_mode_through_the_ch7006(boot_board):
    b = boot_board('nv11-ch7006', driver='nvdrm', cmdline='nvdev.modetest='
                   '-M,nvdrm,-s,TV-1:800x600', screendumps=True)
    assert any(l.startswith('setting mode 800x600-50.00Hz on connectors TV-1')
               for l in b.report['modetest']), b.report['modetest']
    img = png.read(os.path.join(b.outdir, 'modetest-headb.png'))
    assert (img.width, img.height) == (800, 600)
    for i, colour in enumerate(BARS):
        x = int(800 / 7 * i + 800 / 14)
        assert img.pixel(x, 150) == colour, f'bar {i} at x={x}'
    assert not oopses(b), '\n'.join(oopses(b))


@pytest.mark.parametrize('board,chipset', [('nv11-ch7006', 'NV11'),
                                           ('nv43-go', 'NV43')])
def test_unbind_rebind_reload(boot_board, board, chipset):
    """nv11-ch7006: the CH7006 slave encoder goes and comes back; nv43-go:
    the backlight device with the LVDS connector."""
    b = boot_board(board, driver='nvdrm', cmdline='nvdev.rebind=1 kmemleak=on')
    assert b.report['rebind'] == ['bound-before: 1', 'after-unbind: 0',
                                  'after-bind: 1', 'rmmod: 0', 'modprobe: 0',
                                  'after-reload: 1'], b.report['rebind']
    assert not oopses(b), '\n'.join(oopses(b))
    if board == 'nv43-go':
        assert len(b.report['backlight']) == 1, b.report['backlight']
        assert sum('backlight nvdrm_bl' in l for l in nvdrm_lines(b)) == 3
    probes = [l for l in nvdrm_lines(b) if f'{chipset} (BOOT_0' in l]
    assert len(probes) == 3, 'probe, rebind and reload should each identify the chip'
    assert any('kmemleak: Kernel memory leak detector initialized' in l
               for l in report.lines(b)), 'kmemleak is not on'
    assert b.report['kmemleak'] == [], '\n'.join(b.report['kmemleak'])


@pytest.mark.parametrize('fault,message', [
    ('dead', 'BOOT_0 reads 0xffffffff'),
    ('prom-checksum', 'VBIOS: bad checksum'),
])
def test_bad_device_fails_probe_cleanly(boot_board, fault, message):
    b = boot_board('nv11-ch7006', driver='nvdrm', fault=fault)
    assert report.bound_driver(b) is None
    assert any(message in l for l in nvdrm_lines(b)), '\n'.join(nvdrm_lines(b))
    assert not oopses(b), '\n'.join(oopses(b))


def test_checkpatch_strict_clean():
    src = build.ensure_kernel_source()
    files = sorted(glob.glob(paths.repo('kernel', 'nvdrm', '*.[ch]')))
    r = subprocess.run([f'{src}/scripts/checkpatch.pl', '--strict', '--no-tree',
                        '-q', '--terse', '-f'] + files, capture_output=True, text=True)
    problems = [l for l in r.stdout.splitlines() if not l.startswith('total: 0 errors, '
                                                                      '0 warnings, 0 checks')]
    assert r.returncode == 0 and not problems, r.stdout


CURSOR_CONFIG_ARGB = 1 << 12


def sign12(v):
    return v - 0x1000 if v & 0x800 else v


def last_write(records, until, addr):
    return next((r.value for r in reversed(records[:until])
                 if r.dir == 'W' and r.addr == addr), None)


@pytest.mark.parametrize('board,config', [('nv04', 0x04010100),
                                          ('nv11-ch7006', 0x04011100)])
def test_hardware_cursor(boot_board, board_info, board, config):
    """modetest -C shows, moves and hides a 64x64 cursor: while it runs
    the driver enables the cursor (CR31 bit 0) with the chip's format in
    CURSOR_CONFIG (A1R5G5B5 on NV04, A8R8G8B8 from NV11), its image at a
    2 KiB-aligned VRAM offset, and moves it through CU_START_POS.  The
    screendump shows the cursor where the trace says it was at that moment
    (CR31 and CU_START_POS up to the mark), and differs from the
    cursor-less picture nowhere else.  (modetest's cursor is translucent,
    alpha 0x77, so with NV04's one-bit alpha it is transparent, as under
    nouveau: nothing shows there.)"""
    from nvdevkit import trace
    plain = boot_board(board, driver='nvdrm', cmdline='nouveau.noaccel=1 '
                       'nvdev.modetest=-M,nvdrm,-s,VGA-1:640x480', screendumps=True)
    b = boot_board(board, driver='nvdrm', cmdline='nvdev.modetest='
                   '-M,nvdrm,-s,VGA-1:640x480,-C', screendumps=True)
    marks = {}
    _, records = trace.read(b.trace_path, marks)
    until = marks['modetest']
    index, enabled, addr = None, False, {}
    for r in records[:until]:
        if r.dir == 'W' and r.addr == 0x6013d4 and r.width == 1:
            index = r.value
        elif r.dir == 'W' and r.addr == 0x6013d5 and index in (0x2f, 0x30, 0x31):
            addr[index] = r.value
            enabled |= index == 0x31 and bool(r.value & 1)
    assert enabled, 'the cursor was never enabled'
    assert last_write(records, until, 0x600810) == config
    offset = addr[0x2f] << 24 | (addr[0x30] & 0x7f) << 17 | (addr[0x31] >> 2) << 11
    assert addr[0x30] & 0x80, 'cursor image not in VRAM (CR30 bit 7)'
    assert offset + 64 * 64 * 4 <= board_info(board).num('vram_mb') << 20, hex(offset)
    positions = {r.value for r in records[:until] if r.dir == 'W' and r.addr == 0x680300}
    assert len(positions) > 2, 'the cursor did not move'
    assert not oopses(b), '\n'.join(oopses(b))
    # The guest stands still while the host takes the picture, so the
    # trace up to the mark says where the cursor is on it.
    on = bool(addr.get(0x31, 0) & 1)
    pos = last_write(records, until, 0x680300)
    x, y = sign12(pos & 0xfff), sign12(pos >> 16 & 0xfff)
    a = png.read(os.path.join(plain.outdir, 'modetest.png'))
    c = png.read(os.path.join(b.outdir, 'modetest.png'))
    assert (a.width, a.height) == (c.width, c.height) == (640, 480)
    diff = a.differences(c)
    outside = [(i, j) for i, j in diff if not (x <= i < x + 64 and y <= j < y + 64)]
    assert not outside, f'cursor at {x},{y}: the picture differs at {outside[:4]}'
    visible = on and config & CURSOR_CONFIG_ARGB and -64 < x < 640 and -64 < y < 480
    if visible:
        assert diff, f'cursor on at {x},{y}, not in the picture'
    else:
        # off, or modetest's translucent (alpha 0x77) image in NV04's
        # one-bit alpha, which is all transparent
        assert not diff, f'cursor {"on" if on else "off"} at {x},{y}: {len(diff)} pixels changed'


def test_an_unexpected_interrupt_is_masked_at_its_unit(boot_board):
    """A unit nvdrm does not listen to (PTIMER's alarm, armed behind its
    back) interrupts while vblank is in use: the handler turns off that
    unit's enable, says so once, and keeps the card's (PMC) enable on, so
    the line drops and vblanks still come."""
    b = boot_board('nv11-ch7006', driver='nvdrm',
                   cmdline='nvdev.alarm=1 nvdev.vbltest=-M,nvdrm')
    assert b.report['alarm'] == ['PTIMER INTR_0 0x00000001 INTR_EN_0 0x00000000',
                                 'PMC INTR_EN_0 0x00000001'], b.report['alarm']
    said = [l for l in nvdrm_lines(b) if 'unexpected interrupt' in l]
    assert len(said) == 1 and "0x00100000, its units' masked" in said[0], said
    rates = [l for l in b.report['vbltest'] or [] if l.startswith('freq:')]
    assert len(rates) >= 2, b.report['vbltest']
    assert not oopses(b), '\n'.join(oopses(b))
