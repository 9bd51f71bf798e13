"""The register trace: parse, and summarise.

Format (version 1), one record per line after a '#' header:
    SEQ VTIME_NS DIR WIDTH SPACE ADDR VALUE UNIT NAME [unimp]
DIR is R or W, SPACE mmio (BAR0 offset) or io (port), NAME '-' when the
register has no name in regdb/nv.regdb.
"""
import collections
import gzip
import os


class Access(collections.namedtuple('Access', 'seq time dir width space addr '
                                              'value unit name unimp')):
    __slots__ = ()


def parse_line(line):
    f = line.split()
    return Access(int(f[0]), int(f[1]), f[2], int(f[3]), f[4], int(f[5], 16),
                  int(f[6], 16), f[7], f[8], len(f) > 9 and f[9] == 'unimp')


def _parse(path):
    header, records, found = None, [], []
    opener = gzip.open if str(path).endswith('.gz') else open
    with opener(path, 'rt') as f:
        for line in f:
            if line.startswith('# mark '):
                _, _, seq, t, name = line.split()
                found.append((int(seq), int(t), name))
            elif line.startswith('#'):
                header = header or line[1:].strip()
            elif line.strip():
                records.append(parse_line(line))
    return header, tuple(records), tuple(found)


# the traces read last, by path and the file's size and time: tests that
# share a boot read its trace once (a trace is some 10^5 records)
_recent = collections.OrderedDict()
RECENT = 4


def read(path, marks=None, mark_list=None):
    """(header, records); with a dict @marks, fills it with name -> the
    sequence number the mark stands before; with a list @mark_list, appends
    (seq, time, name) for each mark in order."""
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if key in _recent:
        _recent.move_to_end(key)
    else:
        _recent[key] = _parse(path)
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
    header, records, found = _recent[key]
    for seq, t, name in found:
        if marks is not None:
            marks[name] = seq
        if mark_list is not None:
            mark_list.append((seq, t, name))
    return header, list(records)


def stats(path):
    header, records = read(path)
    per_unit = collections.Counter()
    unimp = collections.Counter()
    for r in records:
        per_unit[(r.unit, r.dir)] += 1
        if r.unimp:
            unimp[(r.unit, r.dir, r.space, r.addr, r.width)] += 1
    return header, records, per_unit, unimp


def format_stats(path):
    header, records, per_unit, unimp = stats(path)
    out = [f'{path}: {header}', f'{len(records)} accesses', '',
           f'{"unit":<10} {"reads":>8} {"writes":>8}']
    for unit in sorted({u for u, _ in per_unit}):
        out.append(f'{unit:<10} {per_unit[(unit, "R")]:>8} {per_unit[(unit, "W")]:>8}')
    out.append('')
    if unimp:
        out.append(f'unimplemented registers touched ({len(unimp)}):')
        for (unit, d, space, addr, width), n in sorted(unimp.items(),
                                                       key=lambda kv: kv[0][3]):
            out.append(f'  {space} 0x{addr:06x} {unit:<9} {d}{width} x{n}')
    else:
        out.append('no unimplemented registers touched')
    return '\n'.join(out)
