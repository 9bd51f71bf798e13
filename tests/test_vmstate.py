"""Snapshots: the device's state survives migration to a file and back
(every unit has a VMStateDescription)."""
import time

import pytest

from nvdevkit import golden, png, replay, trace
from nvdevkit.qtest import BAR1, NVDevQtest


def state(d):
    d.wr08(0x6013d4, 0x28)
    cr28 = d.rd08(0x6013d5)
    return {'num': d.rd32(0x9200), 'den': d.rd32(0x9210),
            'vpll': d.rd32(0x680508), 'start': d.rd32(0x600804),
            'cr28': cr28, 'intr_en': d.rd32(0x000140),
            'tmds': (d.wr32(0x6808b0, 1 << 16 | 4), d.rd32(0x6808b4))[1]}


def migrate(a, image):
    """Save @a's whole machine to the file @image."""
    r = a.vm.qmp('migrate', uri=f'exec:cat > {image}')
    assert 'error' not in r, r
    for _ in range(200):
        st = a.vm.qmp('query-migrate')['return'].get('status')
        if st in ('completed', 'failed'):
            break
        time.sleep(0.05)
    assert st == 'completed', a.vm.qmp('query-migrate')


def incoming(qemu, rom, image):
    """A machine that starts from @image (use with `with`, then loaded())."""
    return NVDevQtest(qemu, rom, args=['-incoming', f'exec:cat {image}'])


def loaded(b):
    for _ in range(200):
        if b.vm.qmp('query-status')['return']['status'] != 'inmigrate':
            return
        time.sleep(0.05)
    raise AssertionError('the incoming migration did not finish')


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
        migrate(a, image)
    with incoming(qemu, rom, image) as b:
        loaded(b)
        got = state(b)
    assert got == want


class DDC:
    """An I2C master bit-banging the CRTC's drive/sense register pair as
    nouveau's busnv04.c does (drive: SCL bit 5, SDA bit 4; sense: SCL
    bit 2, SDA bit 3), reading the monitor's EDID at 0x50."""

    def __init__(self, d, drive, sense):
        self.d, self.drive, self.sense = d, drive, sense
        d.wr08(0x6013d4, 0x1f)
        d.wr08(0x6013d5, 0x57)

    def set(self, scl, sda):
        self.d.wr08(0x6013d4, self.drive)
        self.d.wr08(0x6013d5, scl << 5 | sda << 4 | 1)

    def sda(self):
        self.d.wr08(0x6013d4, self.sense)
        return self.d.rd08(0x6013d5) >> 3 & 1

    def start(self):
        self.set(1, 1); self.set(1, 0); self.set(0, 0)

    def stop(self):
        self.set(0, 0); self.set(1, 0); self.set(1, 1)

    def write(self, byte):
        for i in range(7, -1, -1):
            b = byte >> i & 1
            self.set(0, b); self.set(1, b); self.set(0, b)
        self.set(0, 1); self.set(1, 1)
        ack = not self.sda()
        self.set(0, 1)
        return ack

    def read(self, last=False):
        v = 0
        for _ in range(8):
            self.set(0, 1); self.set(1, 1)
            v = v << 1 | self.sda()
            self.set(0, 1)
        a = 1 if last else 0
        self.set(0, a); self.set(1, a); self.set(0, a)
        return v

    def begin_edid(self):
        self.start()
        assert self.write(0xa0), 'no ACK from the monitor at 0x50'
        assert self.write(0x00)
        self.start()
        assert self.write(0xa1)


@pytest.mark.parametrize('board', ['nv11-ch7006', 'nv43'])
def test_migrate_mid_edid_read(qemu, board_info, tmp_path, board):
    """An EDID read cut by a migration after 5 bytes (inside a byte, SCL
    low) carries on on the new machine: the 128 bytes put together start
    with the EDID header and sum to 0 (EDID 1.3, section 3.11), as the
    unmigrated read does."""
    info = board_info(board)
    crt = next(sec for sec in sorted(info.ini.sections())
               if sec.startswith('output') and info.ini.get(sec, 'type') == 'crt')
    port = info.ini.get(crt, 'i2c')
    drive, sense = (int(x, 0) for x in info.get(f'port{port}', 'i2c').split(';'))
    image = tmp_path / 'state.bin'
    with NVDevQtest(qemu, info.rom) as a:
        ddc = DDC(a, drive, sense)
        ddc.begin_edid()
        whole = [ddc.read(last=i == 127) for i in range(128)]
        ddc.stop()
        ddc.begin_edid()
        head = [ddc.read() for _ in range(5)]
        v = 0
        for _ in range(3):                  # three bits into the sixth byte
            ddc.set(0, 1); ddc.set(1, 1)
            v = v << 1 | ddc.sda()
            ddc.set(0, 1)
        migrate(a, image)
    with incoming(qemu, info.rom, image) as b:
        loaded(b)
        ddc = DDC(b, drive, sense)
        for _ in range(5):                  # the rest of the sixth byte
            ddc.set(0, 1); ddc.set(1, 1)
            v = v << 1 | ddc.sda()
            ddc.set(0, 1)
        ddc.set(0, 0); ddc.set(1, 0); ddc.set(0, 0)
        tail = [ddc.read(last=i == 121) for i in range(122)]
        ddc.stop()
    got = head + [v] + tail
    assert whole[:8] == [0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0], whole[:8]
    assert sum(whole) % 256 == 0, 'the unmigrated read'
    assert got == whole, [i for i in range(128) if got[i] != whole[i]]


def test_migrate_keeps_the_cursor_on_screen(qemu, board_info, tmp_path):
    """The cursor drawn into screendumps is state the VGA core does not
    migrate (its shadow flag): the loaded device works it out again."""
    from test_cursor import CURSOR, cr, set_mode
    rom = board_info('nv11-ch7006').rom
    image = tmp_path / 'state.bin'
    with NVDevQtest(qemu, rom) as a:
        set_mode(a)
        a.q(f'write {BAR1 + CURSOR:#x} {64 * 64 * 4} 0x{"0000ffff" * 64 * 64}')
        cr(a, 0x2f, CURSOR >> 24)
        cr(a, 0x30, 0x80 | (CURSOR >> 17) & 0x7f)
        cr(a, 0x31, ((CURSOR >> 11) & 0x3f) << 2 | 1)
        a.wr32(0x600810, 1 << 12 | 1 << 16 | 4 << 24)
        a.wr32(0x680300, 50 << 16 | 100)
        migrate(a, image)
    path = str(tmp_path / 'after.png')
    with incoming(qemu, rom, image) as b:
        loaded(b)
        r = b.vm.qmp('screendump', filename=path, format='png')
        assert 'error' not in r, r
    img = png.read(path)
    assert img.pixel(10, 10) == (0x40, 0x40, 0x40), 'the picture'
    assert img.pixel(110, 60) == (255, 0, 0), 'the cursor after migration'


# ---- a whole boot, migrated in the middle ---------------------------------

VPLL_COEFF = 0x680508
CRTC_INDEX = (0x3d4, 0x6013d4, 0x6033d4)   # the port, head A's and B's PRMCIO


def mid_edid(records):
    """Inside the sixth byte of the driver's first EDID read (the slave at
    0x50 addressed for reading, i2c-txn records of the trace)."""
    start = next(i for i, r in enumerate(records)
                 if r.space == 'i2c-txn' and r.dir == 'S' and r.addr & 0xff == 0xa1)
    data = [i for i, r in enumerate(records[start:], start)
            if r.space == 'i2c-txn' and r.dir == 'B'][:7]
    return records[(data[5] + data[6]) // 2].seq


def mid_modeset(records):
    """After the driver's last VPLL write (its modeset's clock), between
    the next CRTC index write and the data access it selects."""
    vpll = max(i for i, r in enumerate(records)
               if r.space == 'mmio' and r.dir == 'W' and r.addr == VPLL_COEFF)
    idx = next(i for i, r in enumerate(records[vpll:], vpll)
               if r.dir == 'W' and r.addr in CRTC_INDEX)
    return records[idx + 1].seq


@pytest.mark.parametrize('point', [mid_edid, mid_modeset], ids=['edid', 'modeset'])
@pytest.mark.parametrize('board', ['nv11-ch7006', 'nv43'])
def test_boot_migrated_midway_reads_as_the_unmigrated_one(qemu, board_info, tmp_path,
                                                          board, point):
    """The board's golden boot (nouveau, unmigrated) replayed into a device
    up to the point, the machine migrated to a file, the rest replayed into
    a second machine started from it: every read of the continuing boot
    (CRTC, RAMDAC and PLL registers, vblank status, the I2C lines mid-byte,
    the CH7006 on nv11) returns what the unmigrated boot read.  A fresh
    machine in place of the migrated one fails at the next I2C read (mid
    EDID) or vblank status read (mid modeset)."""
    path = golden.path(board)
    _, records = trace.read(path)
    at = point(records)
    n, mismatch, after = replay.replay_migrating(path, board_info(board).rom, at,
                                                 tmp_path / 'state.bin', qemu=qemu)
    assert mismatch is None, ('after' if after else 'before') + ' the migration: ' + \
        replay.describe(path, mismatch)
    assert sum(1 for r in records if r.seq >= at and r.space in ('mmio', 'io')) > 1000


# ---- the state of every unit ---------------------------------------------

# NVDevState members a unit's subsection leaves out, and why
NOT_MIGRATED = {
    'ctxprog_unimp_logged': 'log-once flag (LOG_UNIMP)',
    'class_unimp_logged': 'log-once flag (LOG_UNIMP)',
    'floored': 'log-once flag (LOG_GUEST_ERROR for a too-short frame)',
}


def unit_structs():
    """The units' state structs of nvdev.h: {'pmc': ('NVPmcState', [fields])}
    for the NVDevState members of an NV<Unit>State type."""
    import re
    from nvdevkit import paths
    src = open(paths.repo('qemu-nvdev', 'nvdev.h')).read()
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    fields = {}
    for name, body in re.findall(r'typedef struct (NV\w+State) \{(.*?)\} \1;', src, re.S):
        decls = []
        for stmt in body.split(';'):
            stmt = ' '.join(stmt.split())
            if not stmt:
                continue
            # "uint8_t srb[8], srb_index" -> srb, srb_index
            first, *rest = stmt.split(',')
            for d in [first.split()[-1]] + rest:
                decls.append(re.match(r'\s*\**(\w+)', d).group(1))
        fields[name] = decls
    dev = re.search(r'typedef struct NVDevState \{(.*?)\} NVDevState;', src, re.S).group(1)
    members = re.findall(r'^\s*(NVP\w+State) (\w+)(?:\[\d+\])?;', dev, re.M)
    assert len(members) >= 9, members
    return {m: (t, fields[t]) for t, m in members}


def test_each_unit_migrates_all_its_state_in_its_own_subsection(qemu, tmp_path):
    """QEMU's own description of the migration stream (-dump-vmstate): the
    device's section holds the PCI function and the VGA core only; every
    unit's state struct of nvdev.h (NV<Unit>State member of NVDevState) is
    one subsection nvdev/<member>, and every field of the struct is in it
    (a field added without migration fails here; NOT_MIGRATED names the
    exceptions and why)."""
    import json
    import subprocess
    out = tmp_path / 'vmstate.json'
    subprocess.run([qemu, '-dump-vmstate', str(out), '-machine', 'pc', '-nodefaults'],
                   check=True, capture_output=True, timeout=60)
    desc = json.load(open(out))['nvdev']['Description']
    assert [f['field'] for f in desc['Fields']] == ['parent_obj', 'vga']
    subs = {s['name']: s for s in desc['Subsections']}
    for member, (typ, fields) in unit_structs().items():
        sub = subs.get(f'nvdev/{member}')
        assert sub, f'{typ} {member}: no subsection nvdev/{member} in {sorted(subs)}'
        names = [f['field'] for f in sub['Fields']]
        if names == [member]:               # an array of heads: one struct each
            names = [f['field'] for f in sub['Fields'][0]['Description']['Fields']]
        else:
            assert all(n.startswith(member + '.') for n in names), names
            names = [n[len(member) + 1:] for n in names]
        missing = [f for f in fields if f not in names and f not in NOT_MIGRATED]
        assert not missing, f'{typ}: not migrated: {missing}'
    assert 'nvdev/i2c' in subs


def plain_words(db):
    """BAR0 words that are plain storage: regdb's rw registers, and every
    64th word of its rw blocks that has no register line."""
    words = sorted(r.addr for r in db.mmio.values() if r.rw)
    for start, end, _, rw in db.blocks:
        if rw:
            words += [a for a in range(start, end, 256) if a not in db.mmio]
    return words


@pytest.mark.parametrize('board', ['nv11-ch7006', 'nv43'])
def test_every_plain_register_survives_migration(qemu, board_info, tmp_path, board):
    """Every plain-storage word regdb names (and a sample of its rw blocks:
    PGRAPH, the NV40 tiles), head B's CRTC timing registers and its
    palette, each written with a value of its own, read back the same on
    the machine the state was migrated to."""
    from nvdevkit import regdb
    words = plain_words(regdb.load())
    assert len(words) > 300
    rom = board_info(board).rom
    image = tmp_path / 'state.bin'

    def snapshot(d):
        regs = {a: d.rd32(a) for a in words}
        d.wr08(0x6033d4, 0x1f)
        d.wr08(0x6033d5, 0x57)                  # head B's extended CRs
        crb = []
        for i in range(0x19):
            d.wr08(0x6033d4, i)
            crb.append(d.rd08(0x6033d5))
        d.wr08(0x6833c7, 0)                     # head B's palette, read
        pal = [d.rd08(0x6833c9) for _ in range(768)]
        return regs, crb, pal

    with NVDevQtest(qemu, rom) as a:
        for i, addr in enumerate(words):
            a.wr32(addr, (0x9e3779b1 * (i + 1)) & 0xffffffff)
        a.wr08(0x6033d4, 0x1f)
        a.wr08(0x6033d5, 0x57)
        for i in range(0x19):
            a.wr08(0x6033d4, i)
            a.wr08(0x6033d5, (i * 37 + 5) & 0xff)
        a.wr08(0x6833c8, 0)
        for i in range(768):
            a.wr08(0x6833c9, (i * 7 + 3) & 0x3f)
        want = snapshot(a)
        migrate(a, image)
    with incoming(qemu, rom, image) as b:
        loaded(b)
        got = snapshot(b)
    regs_w, crb_w, pal_w = want
    # the writes took: what is compared is not zeros
    assert sum(1 for v in regs_w.values() if v) > 0.8 * len(words)
    assert crb_w[0x13] == (0x13 * 37 + 5) & 0xff and pal_w[1] == 10
    bad = [f'{a:#08x}: {regs_w[a]:#x} -> {got[0][a]:#x}' for a in words
           if got[0][a] != regs_w[a]]
    assert not bad, bad[:10]
    assert got[1] == crb_w, 'head B CR00-CR18'
    assert got[2] == pal_w, 'head B palette'
