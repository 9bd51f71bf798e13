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
    assert text[0] == 'VERSION 20070824'
    # the card as /proc/bus/pci/devices gives it: 00:02.0, 10de:0110, IRQ,
    # BAR0 (16 MiB) and BAR1 (prefetchable, the VRAM), then sizes
    assert text[1] == ('PCIDEV 0010 10de0110 b fd000000 d0000008 0 0 0 0 0 '
                       '1000000 2000000 0 0 0 0 0 nouveau'), text[1]
    assert text[2].startswith('MAP ') and ' 0xfd000000 0x0 0x1000000 ' in text[2]
    accesses = [l for l in text if l.startswith(('R ', 'W '))]
    assert accesses[0].startswith('R 4 ') and ' 0xfd000004 ' in accesses[0]
    back = tmp_path / 'back.txt'
    assert mmiotrace.import_(str(out), str(back)) == n
    _, orig = trace.read(b.trace_path)
    _, again = trace.read(str(back))
    key = lambda r: (r.dir, r.width, r.addr, r.value, r.name)  # noqa: E731
    assert [key(r) for r in orig if r.space == 'mmio'] == [key(r) for r in again]


def test_export_puts_marks_where_they_fall(tmp_path):
    src = tmp_path / 'trace.txt'
    src.write_text('# nvdev-trace 1 chipset=NV04 boot0=0x20004000 vram_mb=16 '
                   'pci=10de:0020 crystal_khz=14318\n'
                   '0 1000 R 4 mmio 0x000000 0x20004000 PMC BOOT_0\n'
                   '# mark 1 2000 modeset\n'
                   '1 3000 W 4 mmio 0x680508 0x00027b0b PRAMDAC0 VPLL_COEFF\n'
                   '2 4000 W 1 io 0x0003d4 0x11 VGA -\n')
    out = tmp_path / 'm.txt'
    assert mmiotrace.export(str(src), str(out), driver='nvdrm') == 2
    assert out.read_text().splitlines() == [
        'VERSION 20070824',
        'PCIDEV 0010 10de0020 b fd000000 d0000008 0 0 0 0 0 1000000 1000000 0 0 0 0 0 nvdrm',
        'MAP 0.000001 1 0xfd000000 0x0 0x1000000 0x0 0',
        'R 4 0.000001 1 0xfd000000 0x20004000 0x0 0',
        'MARK 0.000002 modeset',
        'W 4 0.000003 1 0xfd680508 0x27b0b 0x0 0',
        'UNMAP 0.000003 1 0x0 0']


# A trace as the kernel writes it on a real machine: two devices (the
# card's BAR0 at 0xf6000000 here), the card's BAR0 mapped whole, a PRAMIN
# window of BAR0 mapped again, the card's BAR1 and another device's BAR.
REAL = """VERSION 20070824
PCIDEV 0000 80862e30 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 
PCIDEV 0100 10de0141 10 f6000000 e0000008 0 f4000004 0 0 f7e00002 1000000 10000000 0 1000000 0 0 20000 nouveau
PCIDEV 0208 808610d3 11 f7f00000 0 0 0 0 0 0 20000 0 0 0 0 0 0 e1000e
MAP 1.000000 1 0xf6000000 0xffffc90000000000 0x1000000 0x0 0
R 4 1.000010 1 0xf6000000 0x043000a1 0x0 0
MAP 1.000020 2 0xf7f00000 0xffffc90001000000 0x20000 0x0 0
W 4 1.000030 2 0xf7f00008 0x1 0x0 0
MAP 1.000040 3 0xe0000000 0xffffc90002000000 0x10000000 0x0 0
W 4 1.000050 3 0xe0000100 0xdeadbeef 0x0 0
MAP 1.000060 4 0xf6700000 0xffffc90012000000 0x100000 0x0 0
W 4 1.000070 4 0xf6700010 0x12345678 0x0 0
MARK 1.000075 mark from userspace
R 8 1.000080 1 0xf6009400 0x0000000100000020 0x0 0
W 1 1.000090 1 0xf60013d4 0x1f 0x0 0
UNMAP 1.000100 2 0x0 0
"""


def test_import_takes_the_cards_bar0_maps_only(tmp_path):
    path = tmp_path / 'real.txt'
    path.write_text(REAL)
    devices, maps, _ = mmiotrace.parse(str(path))
    assert [(d['vendor'], d['device'], d['driver']) for d in devices] == [
        (0x8086, 0x2e30, None), (0x10de, 0x0141, 'nouveau'), (0x8086, 0x10d3, 'e1000e')]
    assert devices[1]['bars'][:2] == [(0xf6000000, 0x1000000), (0xe0000000, 0x10000000)]
    assert mmiotrace.bar0_accesses(str(path)) == [
        ('R', 4, 0x000000, 0x043000a1), ('W', 4, 0x700010, 0x12345678),
        ('R', 4, 0x009400, 0x00000020), ('R', 4, 0x009404, 0x00000001),
        ('W', 1, 0x0013d4, 0x1f)]
    back = tmp_path / 'back.txt'
    assert mmiotrace.import_(str(path), str(back), chipset='NV43') == 5
    _, records = trace.read(str(back))
    assert [(r.unit, r.name) for r in records][:2] == [('PMC', 'BOOT_0'), ('PRAMIN', '-')]


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
