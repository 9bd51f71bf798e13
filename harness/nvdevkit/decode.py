"""`nvdev trace decode`: a register trace with names and fields, VGA
indexed registers as such (CRTC0 CR07 OVERFLOW), PLLs with their
frequency, I2C slave registers by name."""
from . import regdb, trace

INDEX_PORTS = {0x3d4: 'CR', 0x3b4: 'CR', 0x3c4: 'SR', 0x3ce: 'GR'}
PLL_REGS = {0x680500, 0x680504, 0x680508, 0x680520}


def header_fields(header):
    out = {}
    for w in (header or '').split()[2:]:
        if '=' in w:
            k, v = w.split('=', 1)
            out[k] = v
    return out


class Decoder:
    def __init__(self, header=None):
        self.db = regdb.load()
        self.crystal = int(header_fields(header).get('crystal_khz', 14318))
        self.index = {}             # (unit, kind) -> current index

    def _port(self, r):
        """(kind, port) for an access to a VGA port, else None."""
        if r.space == 'io':
            return r.unit, r.addr
        if r.unit.startswith(('PRMCIO', 'PRMVIO', 'PRMDIO')):
            return r.unit, r.addr & 0xfff
        return None

    def line(self, r):
        """One decoded line, or None for an index-port write (folded)."""
        arrow = '<=' if r.dir == 'W' else '->'
        val = f'0x{r.value:0{r.width * 2}x}'
        p = self._port(r)
        if p:
            unit, port = p
            if port in INDEX_PORTS:
                self.index[(unit, INDEX_PORTS[port])] = r.value
                if r.dir == 'W':
                    return None
            elif port - 1 in INDEX_PORTS:
                kind = INDEX_PORTS[port - 1]
                idx = self.index.get((unit, kind), 0)
                reg = self.db.index.get(kind, {}).get(idx)
                where = kind
                if kind == 'CR':
                    where = unit.replace('PRMCIO', 'CRTC') if unit.startswith('PRMCIO') else 'CRTC'
                text = f'{where} {kind}{idx:02X} {reg.name if reg else "?"}'
                fields = reg.decode(r.value) if reg and reg.fields else ''
                return f'{text} {arrow} {val}' + (f' ({fields})' if fields else '')
        if r.space == 'i2c-txn':
            bus = r.addr >> 16
            ack = 'NACK' if r.value & 0x100 else 'ACK'
            if r.dir == 'S':
                slave = r.addr & 0xff
                return (f'I2C{bus} START 0x{slave >> 1:02x} '
                        f'{"read" if slave & 1 else "write"} ({ack})')
            if r.dir == 'B':
                return f'I2C{bus} BYTE 0x{r.value & 0xff:02x} ({ack})'
            return f'I2C{bus} STOP'
        if r.space == 'irq':
            return f'IRQ line {"raised" if r.addr else "lowered"} (PMC INTR_0 0x{r.value:08x})'
        if r.space == 'vblank':
            return f'VBLANK head {r.addr}'
        if r.space == 'fifo':
            chid, subc, mthd = r.addr >> 16, (r.addr >> 13) & 7, r.addr & 0x1ffc
            what = 'BIND handle' if not mthd else f'{r.unit} 0x{mthd:04x}'
            return f'FIFO ch{chid} subc{subc} {what} <= 0x{r.value:08x}'
        if r.space == 'ctxprog':
            text = (f'CTXCTL program stopped ({r.name}) at PC 0x{r.addr:02x}, '
                    f'{r.value} words stepped over')
            return text + (' [unimplemented words]' if r.unimp else '')
        if r.space == 'i2c':
            reg = self.db.i2c.get(r.unit, {}).get(r.addr & 0xff)
            text = f'{r.unit} {reg.name if reg else f"0x{r.addr & 0xff:02x}"}'
            fields = reg.decode(r.value) if reg and reg.fields else ''
            return f'{text} {arrow} {val}' + (f' ({fields})' if fields else '')
        reg = self.db.mmio.get(r.addr) if r.space == 'mmio' else None
        name = reg.name if reg else (r.name if r.name != '-' else f'0x{r.addr:06x}')
        text = f'{r.unit} {name} {arrow} {val}'
        if reg and r.addr in PLL_REGS:
            n, m, p = (r.value >> 8) & 0xff, r.value & 0xff, (r.value >> 16) & 7
            mhz = self.crystal * n / m / (1 << p) / 1000 if m else 0
            return f'{text} (N={n} M={m} P={p}: {mhz:.3f} MHz)'
        if reg and reg.fields:
            text += f' ({reg.decode(r.value)})'
        if r.unimp:
            text += ' [unimplemented]'
        return text


def decode(path, raw=False):
    header, records = trace.read(path)
    d = Decoder(header)
    out = [f'# {header}']
    for r in records:
        text = d.line(r)
        if text is None and raw:
            text = f'{r.unit} index <= 0x{r.value:02x}'
        if text is not None:
            out.append(f'{r.seq:>8} {r.time:>13} {r.dir} {text}')
    return '\n'.join(out)
