"""`nvdev trace diff A B`: compare two traces after normalising what
legitimately varies between runs, and show the first real divergence.

Normalisation: sequence numbers and times are ignored, and so are
interrupt and vblank events; reads of the
PTIMER counter (and the values written to it: the guest's clock) and of
free-running status registers (raster position,
VGA input status) are dropped; a run of identical accesses (a polling
loop) counts once, however long it ran.  Reads of the PROM window are
dropped too: they are the board's VBIOS image, which its board file
decides and whose layout and contents have tests of their own, and
golden traces leave them out (golden.bless)."""
from . import decode, trace

VOLATILE_READS = {
    0x009400, 0x009410,             # PTIMER TIME_0/1
    0x600808, 0x602808,             # PCRTC RASTER
    0x6013da, 0x6033da,             # INP0 colour (hblank/vblank toggles)
    0x6013c2, 0x6033c2,             # INP0 (DAC sense while polling)
}
VOLATILE_IO = {0x3da, 0x3ba}


# Writes whose value is the guest's clock (nvkm sets PTIMER to ktime).
CLOCK_WRITES = {0x009400, 0x009410}


PROM = range(0x300000, 0x400000)


def prom_read(r):
    return r.dir == 'R' and r.space == 'mmio' and r.addr in PROM


def key(r):
    value = None if (r.dir == 'W' and r.space == 'mmio' and
                     r.addr in CLOCK_WRITES) else r.value
    return (r.dir, r.width, r.space, r.addr, value)


def normalise(records):
    out = []
    for r in records:
        if r.space in ('irq', 'vblank'):
            continue                # when they come depends on timing

        if r.dir == 'R' and ((r.space == 'mmio' and r.addr in VOLATILE_READS) or
                             (r.space == 'io' and r.addr in VOLATILE_IO)):
            continue
        if prom_read(r):
            continue
        if out and key(out[-1][0]) == key(r):
            out[-1][1] += 1
            continue
        out.append([r, 1])
    return out


def diff(path_a, path_b, context=5):
    """(equal, report text)."""
    ha, ra = trace.read(path_a)
    hb, rb = trace.read(path_b)
    na, nb = normalise(ra), normalise(rb)
    n = min(len(na), len(nb))
    i = next((i for i in range(n) if key(na[i][0]) != key(nb[i][0])), None)
    if i is None and len(na) == len(nb):
        return True, (f'traces equal after normalisation ({len(na)} accesses '
                      f'of {len(ra)} and {len(rb)})')
    if i is None:
        i = n
    da, db = decode.Decoder(ha), decode.Decoder(hb)
    # replay the decoders' index state up to the divergence
    lines = [f'first divergence at normalised access {i} '
             f'(A seq {na[i][0].seq if i < len(na) else "end"}, '
             f'B seq {nb[i][0].seq if i < len(nb) else "end"})']

    def show(tag, d, norm, lo, hi):
        for j in range(0, hi):
            r, count = norm[j]
            text = d.line(r)
            if j >= lo and text:
                rep = f' x{count}' if count > 1 else ''
                mark = '>>' if j == i else '  '
                lines.append(f'{mark} {tag} {r.seq:>8} {r.dir} {text}{rep}')
    lo = max(0, i - context)
    show('A', da, na, lo, min(len(na), i + context))
    lines.append('--')
    show('B', db, nb, lo, min(len(nb), i + context))
    return False, '\n'.join(lines)
