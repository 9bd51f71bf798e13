"""Snapshots: the device's state survives migration to a file and back
(every unit has a VMStateDescription)."""
import time

from nvdevkit.qtest import NVDevQtest


def state(d):
    d.wr08(0x6013d4, 0x28)
    cr28 = d.rd08(0x6013d5)
    return {'num': d.rd32(0x9200), 'den': d.rd32(0x9210),
            'vpll': d.rd32(0x680508), 'start': d.rd32(0x600804),
            'cr28': cr28, 'intr_en': d.rd32(0x000140),
            'tmds': (d.wr32(0x6808b0, 1 << 16 | 4), d.rd32(0x6808b4))[1]}


def test_migrate_to_file_and_back(qemu, board_info, tmp_path):
    rom = board_info('nv11-ch7006').rom
    image = tmp_path / 'state.bin'
    with NVDevQtest(qemu, rom) as a:
        a.wr32(0x9200, 217)
        a.wr32(0x9210, 39)
        a.wr32(0x680508, 123 << 8 | 11 | 2 << 16)
        a.wr32(0x600804, 0x12345678)
        a.wr08(0x6013d4, 0x1f)
        a.wr08(0x6013d5, 0x57)
        a.wr08(0x6013d4, 0x28)
        a.wr08(0x6013d5, 0x03)
        a.wr32(0x000140, 1)
        a.wr32(0x6808b4, 0x08)
        a.wr32(0x6808b0, 0x04)
        want = state(a)
        r = a.vm.qmp('migrate', uri=f'exec:cat > {image}')
        assert 'error' not in r, r
        for _ in range(200):
            st = a.vm.qmp('query-migrate')['return'].get('status')
            if st in ('completed', 'failed'):
                break
            time.sleep(0.05)
        assert st == 'completed', a.vm.qmp('query-migrate')
    with NVDevQtest(qemu, rom, args=['-incoming', f'exec:cat {image}']) as b:
        for _ in range(200):
            if b.vm.qmp('query-status')['return']['status'] != 'inmigrate':
                break
            time.sleep(0.05)
        got = state(b)
    assert got == want
