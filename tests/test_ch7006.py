"""The CH7006 TV encoder on the NV11 board: nouveau finds it on the DCB's TV
I2C port, the kernel's ch7006 driver senses what is plugged in, and the TV
norm it is told to use is what it programs (decoded CH7006 registers)."""
import pytest

from nvdevkit import trace

BOARD = 'nv11-ch7006'
DISPMODE_STD = {0: 'PAL', 1: 'NTSC', 2: 'PAL-M', 3: 'NTSC-J'}


def tv(b):
    conns = [c for c in b.report['drm'] if c['name'].endswith('TV-1')]
    assert conns, ('no TV connector (the CH7006 was not found):\n' +
                   '\n'.join(l for l in b.dmesg if 'TV' in l or 'ch7006' in l))
    return conns[0]


def ch7006_writes(b):
    _, records = trace.read(b.trace_path)
    return [(r.name, r.value) for r in records
            if r.unit == 'CH7006' and r.dir == 'W']


@pytest.mark.parametrize('plugged,status', [
    ('composite', 'connected'), ('svideo', 'connected'), ('none', 'disconnected')])
def test_tv_detect(boot_board, plugged, status):
    b = boot_board(BOARD, tv=plugged)
    assert tv(b)['status'] == status, f'tv={plugged}: TV-1 is {tv(b)["status"]}'
    assert any('ch7006' in l and 'version ID: 2a' in l for l in b.dmesg)


def test_sense_cycle_in_trace(boot_board):
    b = boot_board(BOARD, tv='composite')
    _, records = trace.read(b.trace_path)
    ch = [r for r in records if r.unit == 'CH7006']
    # SENSE set then cleared, then the read of DETECT gives the result
    for i, r in enumerate(ch):
        if r.dir == 'W' and r.name == 'DETECT' and r.value == 0x01:
            nxt = ch[i + 1]
            assert (nxt.dir, nxt.name, nxt.value) == ('W', 'DETECT', 0x00)
            res = next(x for x in ch[i + 2:] if x.dir == 'R' and x.name == 'DETECT')
            assert res.value & 0x0e == 0x0c, \
                f'composite load should clear only the CVBS bit: 0x{res.value:02x}'
            return
    pytest.fail('no CH7006 sense cycle in the trace')


def test_tv_modes(boot_board):
    modes = tv(boot_board(BOARD, tv='composite'))['modes']
    for m in ('640x480', '800x600'):
        assert m in modes, f'{m} not among TV modes {modes}'


@pytest.mark.parametrize('norm,std,pal_mode', [
    ('PAL', 'PAL', True), ('NTSC-M', 'NTSC', False)])
def test_tv_norm_programmed(boot_board, norm, std, pal_mode):
    b = boot_board(BOARD, cmdline=f'ch7006.tv_norm={norm} nouveau.noaccel=1',
                   tv='composite')
    dispmode = [v for name, v in ch7006_writes(b) if name == 'DISPMODE']
    assert dispmode, 'the ch7006 driver never programmed DISPMODE'
    got = DISPMODE_STD[(dispmode[-1] >> 3) & 3]
    assert got == std, f'tv_norm={norm}: DISPMODE output standard is {got}'
    assert ('720x576' in tv(b)['modes']) == pal_mode
    # the subcarrier increment differs between the norms
    subc = [v for name, v in ch7006_writes(b) if name.startswith('SUBC_INC')]
    assert len(subc) >= 8


def test_norms_differ_in_subcarrier(boot_board):
    def subc(norm):
        b = boot_board(BOARD, cmdline=f'ch7006.tv_norm={norm} nouveau.noaccel=1',
                       tv='composite')
        regs = {}
        for name, v in ch7006_writes(b):
            if name.startswith('SUBC_INC'):
                regs[name] = v
        return regs
    assert subc('PAL') != subc('NTSC-M')
