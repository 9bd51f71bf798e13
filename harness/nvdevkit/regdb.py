"""The register database (regdb/nv.regdb), as the tools see it: BAR0
registers by address, I2C slave registers by unit and subaddress, VGA
indexed registers (CR/SR/GR) by index, each with its bit fields."""
import functools

from . import paths


class Reg:
    __slots__ = ('unit', 'addr', 'name', 'rw', 'fields', 'nouveau')

    def __init__(self, unit, addr, name, rw, nouveau=None):
        self.unit, self.addr, self.name, self.rw = unit, addr, name, rw
        self.fields = []            # (lo, hi, name)
        self.nouveau = nouveau      # nouveau's name where ours differs

    def decode(self, value):
        """'N=123 M=11 P=2' for the fields that are set or wide."""
        out = []
        for lo, hi, name in self.fields:
            v = (value >> lo) & ((1 << (hi - lo + 1)) - 1)
            out.append(f'{name}={v}')
        return ' '.join(out)


class RegDB:
    def __init__(self, path=None):
        self.mmio = {}
        self.units = []             # (name, base, size) of BAR0 units
        self.i2c = {}               # unit -> {subaddr: Reg}
        self.index = {}             # unit (CR/SR/GR) -> {index: Reg}
        self.blocks = []            # (start, end, name, rw): unnamed storage
        self._load(path or paths.repo('regdb', 'nv.regdb'))

    def _load(self, path):
        table, unit, last = None, None, None
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                w = line.split('#', 1)[0].split()
                if not w:
                    continue
                if w[0] == 'unit':
                    unit = w[1]
                    if w[2] == 'i2c':
                        table = self.i2c.setdefault(unit, {})
                    elif w[2] == 'index':
                        table = self.index.setdefault(unit, {})
                    else:
                        table = self.mmio
                        self.units.append((unit, int(w[2], 0), int(w[3], 0)))
                elif w[0] == 'reg':
                    alias = next((x.split('=', 1)[1] for x in w[3:]
                                  if x.startswith('nouveau=')), None)
                    last = Reg(unit, int(w[1], 0), w[2], 'rw' in w[3:], alias)
                    table[last.addr] = last
                elif w[0] == 'block':
                    self.blocks.append((int(w[1], 0), int(w[2], 0), w[3], 'rw' in w[4:]))
                elif w[0] == 'field':
                    lo, hi = sorted(int(x) for x in w[1].split(':'))
                    last.fields.append((lo, hi, w[2]))
                else:
                    raise ValueError(f'{path}:{lineno}: unknown line {line!r}')

    def unit_of(self, addr):
        for name, base, size in self.units:
            if base <= addr < base + size:
                return name
        return '-'


@functools.lru_cache(maxsize=None)
def load():
    return RegDB()
