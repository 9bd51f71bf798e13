"""mmiotrace interchange, and the cross-check: the kernel's own mmiotrace of
nouveau's BAR0 accesses, recorded inside the guest, is the same access
sequence (direction, width, address, value) as the device's trace of the
same boot."""
from nvdevkit import mmiotrace, trace

BOARD = 'nv11-ch7006'


def test_export_import_round_trip(boot_board, tmp_path):
    b = boot_board(BOARD, cmdline='nouveau.noaccel=1')
    out = tmp_path / 'm.txt'
    n = mmiotrace.export(b.trace_path, str(out))
    text = out.read_text().splitlines()
    assert text[0] == 'VERSION 20070824' and text[1].startswith('MAP ')
    assert text[2].startswith('R 4 ') and ' 0xfd000004 ' in text[2]
    back = tmp_path / 'back.txt'
    assert mmiotrace.import_(str(out), str(back)) == n
    _, orig = trace.read(b.trace_path)
    _, again = trace.read(str(back))
    key = lambda r: (r.dir, r.width, r.addr, r.value, r.name)  # noqa: E731
    assert [key(r) for r in orig if r.space == 'mmio'] == [key(r) for r in again]


def test_in_guest_mmiotrace_matches_device_trace(boot_board):
    b = boot_board(BOARD, cmdline='nouveau.noaccel=1 '
                   'drm_kms_helper.fbdev_emulation=0 nvdev.mmiotrace=1')
    path = b.mmiotrace()
    assert path, 'the guest sent no mmiotrace'
    assert not any('events lost' in l for l in b.dmesg)
    guest = mmiotrace.bar0_accesses(path)
    _, records = trace.read(b.trace_path)
    device = [(r.dir, r.width, r.addr, r.value) for r in records if r.space == 'mmio']
    assert len(guest) > 10000
    i = next((i for i in range(min(len(guest), len(device)))
              if guest[i] != device[i]), None)
    assert i is None and len(guest) == len(device), (
        f'first difference at access {i}: guest saw {guest[i] if i is not None else "-"}, '
        f'device {device[i] if i is not None else "-"} '
        f'({len(guest)} vs {len(device)} accesses)')
