"""Interchange with the Linux kernel's mmiotrace text format
(kernel/trace/trace_mmiotrace.c), so envytools' demmio can read our traces
and in-guest mmiotraces can be checked against the device's own trace.

  R <width> <sec>.<usec> <map id> 0x<phys> 0x<value> 0x<pc> 0
  W <width> <sec>.<usec> <map id> 0x<phys> 0x<value> 0x<pc> 0
  MAP <sec>.<usec> <map id> 0x<phys> 0x<virt> 0x<len> 0x0 0
  UNMAP <sec>.<usec> <map id> 0x0 0
Only BAR0 (mmio) records travel; port and I2C records have no place there.
"""
from . import regdb, trace

BAR0_SIZE = 0x1000000
DEFAULT_BAR0 = 0xfd000000


def _stamp(ns):
    return f'{ns // 1_000_000_000}.{(ns // 1000) % 1_000_000:06d}'


def export(path, out_path, bar0=DEFAULT_BAR0):
    header, records = trace.read(path)
    mmio = [r for r in records if r.space == 'mmio']
    t0 = mmio[0].time if mmio else 0
    with open(out_path, 'w') as out:
        out.write('VERSION 20070824\n')
        out.write(f'MAP {_stamp(t0)} 1 0x{bar0:x} 0x0 0x{BAR0_SIZE:x} 0x0 0\n')
        for r in mmio:
            out.write(f'{r.dir} {r.width} {_stamp(r.time)} 1 0x{bar0 + r.addr:x} '
                      f'0x{r.value:x} 0x0 0\n')
        out.write(f'UNMAP {_stamp(mmio[-1].time if mmio else t0)} 1 0x0 0\n')
    return len(mmio)


def parse(path):
    """(maps {id: (phys, len)}, accesses [(dir, width, id, phys, value, sec)])."""
    maps, acc = {}, []
    with open(path, errors='replace') as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'MAP' and len(w) >= 6:
                maps[int(w[2])] = (int(w[3], 16), int(w[5], 16))
            elif w[0] in ('R', 'W') and len(w) >= 6:
                try:
                    acc.append((w[0], int(w[1]), int(w[3]), int(w[4], 16),
                                int(w[5], 16), float(w[2])))
                except ValueError:
                    continue
    return maps, acc


def bar0_accesses(path, bar0=None):
    """The BAR0 accesses of an mmiotrace, as (dir, width, offset, value).
    BAR0 is the 16 MiB mapping (or @bar0's) among the MAPs.  A 64-bit
    access is two 32-bit ones on the bus, low half first, as the device
    sees them."""
    maps, acc = parse(path)
    ids = {i for i, (phys, ln) in maps.items()
           if (bar0 is None and ln == BAR0_SIZE) or phys == bar0}
    base = {i: maps[i][0] for i in ids}
    out = []
    for d, w, i, phys, v, _ in acc:
        if i not in ids:
            continue
        off = phys - base[i]
        if w == 8:
            out += [(d, 4, off, v & 0xffffffff), (d, 4, off + 4, v >> 32)]
        else:
            out.append((d, w, off, v))
    return out


def import_(path, out_path, chipset='unknown'):
    db = regdb.load()
    acc = bar0_accesses(path)
    with open(out_path, 'w') as out:
        out.write(f'# nvdev-trace 1 chipset={chipset} source=mmiotrace\n')
        for seq, (d, w, off, v) in enumerate(acc):
            reg = db.mmio.get(off)
            out.write(f'{seq} 0 {d} {w} mmio 0x{off:06x} 0x{v:0{w * 2}x} '
                      f'{db.unit_of(off)} {reg.name if reg else "-"}\n')
    return len(acc)
