"""What is plugged into the CRT connector is what nouveau reports: a monitor
with EDID (found over DDC on the DCB's I2C port), a monitor without DDC
(found by DAC load detection), or nothing."""
import pytest

from nvdevkit import report, trace

BOARD = 'nv11-ch7006'


def vga(b):
    conns = [c for c in b.report['drm'] if c['name'].endswith('VGA-1')]
    assert conns, f'no VGA connector; DRM shows {b.report["drm"]}'
    return conns[0]


@pytest.mark.parametrize('board', ['nv04', 'nv11-ch7006', 'nv17', 'nv34', 'nv43'])
@pytest.mark.parametrize('monitor,status', [
    ('default', 'connected'), ('noddc', 'connected'), ('none', 'disconnected')])
def test_connector_status(boot_board, board, monitor, status):
    c = vga(boot_board(board, monitor0=monitor))
    assert c['status'] == status, f'{board} monitor0={monitor}: VGA-1 is {c["status"]}'


def test_edid_modes_over_ddc(boot_board):
    c = vga(boot_board(BOARD, monitor0='default'))
    assert c['edid_bytes'] >= 128, 'no EDID read over DDC'
    for mode in ('640x480', '800x600', '1024x768'):
        assert mode in c['modes'], f'{mode} missing from {c["modes"]}'


def test_no_ddc_means_load_detection(boot_board):
    b = boot_board(BOARD, monitor0='noddc')
    assert vga(b)['edid_bytes'] == 0
    _, records = trace.read(b.trace_path)
    # nouveau ramps palette entry 0's blue from 8 up to 0x17 while sampling
    # INP0 bit 4; with a load the sense stays high all the way
    blues = [r.value for i, r in enumerate(records)
             if r.addr == 0x6813c9 and r.dir == 'W']
    assert 0x17 in blues, 'blue ramp did not reach 0x17: load not sensed'
    sense = [r for r in records if r.addr == 0x6013c2 and r.dir == 'R']
    assert sense and all(r.value & 0x10 for r in sense[:8])


def test_nothing_attached_fails_load_detection(boot_board):
    b = boot_board(BOARD, monitor0='none')
    _, records = trace.read(b.trace_path)
    sense = [r for r in records if r.addr == 0x6013c2 and r.dir == 'R']
    assert sense, 'nouveau never sampled the DAC sense bit'
    assert any(not r.value & 0x10 for r in sense), 'sense never went low'
    assert report.bound_driver(b) == 'nouveau'


def test_nv17_load_detection_uses_the_test_point(boot_board):
    """NV17: the driver inserts a test point and reads SENSEB_ALLHI."""
    b = boot_board('nv17', monitor0='noddc')
    _, records = trace.read(b.trace_path)
    sense = [r for r in records if r.addr == 0x680608 and r.dir == 'R'
             and r.value & (1 << 28)]
    assert sense, 'SENSEB_ALLHI never read high on DAC A'
    tp = [r for r in records if r.addr in (0x680610, 0x682610) and r.dir == 'W'
          and r.value & (8 << 28)]
    assert tp, 'no NOTBLANK test point was inserted'
