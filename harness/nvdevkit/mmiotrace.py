"""Interchange with the Linux kernel's mmiotrace text format
(kernel/trace/trace_mmiotrace.c), so envytools' demmio can read our traces
and in-guest mmiotraces can be checked against the device's own trace.

  VERSION 20070824
  PCIDEV <bus><devfn> <vendor><device> <irq> <7 bases | flags> <7 sizes> [driver]
  MAP <sec>.<usec> <map id> 0x<phys> 0x<virt> 0x<len> 0x<pc> 0
  R <width> <sec>.<usec> <map id> 0x<phys> 0x<value> 0x<pc> 0
  W <width> <sec>.<usec> <map id> 0x<phys> 0x<value> 0x<pc> 0
  MARK <sec>.<usec> <text>
  UNMAP <sec>.<usec> <map id> 0x0 0
A trace starts with one PCIDEV line per PCI device (as
/proc/bus/pci/devices gives them): tools such as demmio find the card and
its BARs there.  Only BAR0 (mmio) records travel; port and I2C records
have no place there.
"""
from . import decode, regdb, trace

BAR0_SIZE = 0x1000000
DEFAULT_BAR0 = 0xfd000000
DEFAULT_BAR1 = 0xd0000000
NV_VENDORS = (0x10de, 0x12d2)
PCI_REGION_FLAG_MASK = 0xf


def _stamp(ns):
    return f'{ns // 1_000_000_000}.{(ns // 1000) % 1_000_000:06d}'


def pcidev_line(vendor, device, bars, devfn=0x10, irq=0xb, driver=None):
    """A PCIDEV line: @bars is [(base | flags, size)], up to 7 (BARs 0-5
    and the ROM)."""
    bars = list(bars) + [(0, 0)] * (7 - len(bars))
    return (f'PCIDEV 00{devfn:02x} {vendor:04x}{device:04x} {irq:x} '
            + ' '.join(f'{b:x}' for b, _ in bars) + ' '
            + ' '.join(f'{n:x}' for _, n in bars)
            + (f' {driver}' if driver else ' ') + '\n')


def export(path, out_path, bar0=DEFAULT_BAR0, bar1=DEFAULT_BAR1, driver='nouveau'):
    """Our trace as the kernel's mmiotrace writes it: the card's PCIDEV
    line (IDs and VRAM size from the trace header), one MAP of BAR0, its
    accesses, the trace's marks as MARK lines."""
    marks = []
    header, records = trace.read(path, mark_list=marks)
    fields = decode.header_fields(header)
    vendor, device = (int(x, 16) for x in fields.get('pci', '10de:0020').split(':'))
    vram = int(fields.get('vram_mb', '16')) << 20
    bar1_size = 1 << max(vram - 1, 1).bit_length()
    mmio = [r for r in records if r.space == 'mmio']
    t0 = mmio[0].time if mmio else 0
    with open(out_path, 'w') as out:
        out.write('VERSION 20070824\n')
        out.write(pcidev_line(vendor, device, [(bar0, BAR0_SIZE), (bar1 | 0x8, bar1_size)],
                              driver=driver))
        out.write(f'MAP {_stamp(t0)} 1 0x{bar0:x} 0x0 0x{BAR0_SIZE:x} 0x0 0\n')
        m = 0
        for r in mmio:
            while m < len(marks) and marks[m][0] <= r.seq:
                out.write(f'MARK {_stamp(max(marks[m][1], t0))} {marks[m][2]}\n')
                m += 1
            out.write(f'{r.dir} {r.width} {_stamp(r.time)} 1 0x{bar0 + r.addr:x} '
                      f'0x{r.value:x} 0x0 0\n')
        out.write(f'UNMAP {_stamp(mmio[-1].time if mmio else t0)} 1 0x0 0\n')
    return len(mmio)


def parse(path):
    """(devices [{vendor, device, bars: [(base, size)], driver}],
    maps {id: (phys, len)}, accesses [(dir, width, id, phys, value, sec)])."""
    devices, maps, acc = [], {}, []
    with open(path, errors='replace') as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'PCIDEV' and len(w) >= 18:
                try:
                    ids = int(w[2], 16)
                    bases = [int(x, 16) for x in w[4:11]]
                    sizes = [int(x, 16) for x in w[11:18]]
                except ValueError:
                    continue
                bars = [(b & ~(0x3 if b & 1 else PCI_REGION_FLAG_MASK), n)
                        for b, n in zip(bases, sizes)]
                devices.append({'vendor': ids >> 16, 'device': ids & 0xffff,
                                'bars': bars, 'driver': w[18] if len(w) > 18 else None})
            elif w[0] == 'MAP' and len(w) >= 6:
                maps[int(w[2])] = (int(w[3], 16), int(w[5], 16))
            elif w[0] in ('R', 'W') and len(w) >= 6:
                try:
                    acc.append((w[0], int(w[1]), int(w[3]), int(w[4], 16),
                                int(w[5], 16), float(w[2])))
                except ValueError:
                    continue
    return devices, maps, acc


def card_bar0(devices):
    """(base, size) of the first NVIDIA card's BAR0 among PCIDEV lines."""
    for d in devices:
        if d['vendor'] in NV_VENDORS and d['bars'][0][1]:
            return d['bars'][0]
    return None


def bar0_accesses(path, bar0=None):
    """The BAR0 accesses of an mmiotrace, as (dir, width, offset, value).
    BAR0 is @bar0, else the NVIDIA card's from the PCIDEV lines, else the
    16 MiB mapping among the MAPs; every map inside it counts (a driver may
    map BAR0 whole or in windows: PRAMIN, the PCI mirror), maps of other
    BARs and devices do not.  A 64-bit access is two 32-bit ones on the
    bus, low half first, as the device sees them."""
    devices, maps, acc = parse(path)
    if bar0 is not None:
        base, size = bar0, BAR0_SIZE
    elif card_bar0(devices):
        base, size = card_bar0(devices)
    else:
        base = next((phys for phys, ln in maps.values() if ln == BAR0_SIZE), None)
        size = BAR0_SIZE
    if base is None:
        return []
    ids = {i for i, (phys, ln) in maps.items() if base <= phys and phys + ln <= base + size}
    out = []
    for d, w, i, phys, v, _ in acc:
        if i not in ids:
            continue
        off = phys - base
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
