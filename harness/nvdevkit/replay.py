"""`nvdev trace replay FILE --board B`: drive a trace's accesses into a
fresh device over qtest (QEMU's python/qemu QEMUQtestMachine) and check
that every read returns the traced value.

Virtual time is stepped to each record's time before its access, so time
dependent registers (PTIMER, RASTER, vblank status) read as they did.
Commands are sent in batches on the qtest socket and their answers read
back in order."""
import time

from . import build, decode, qtest, trace

BATCH = 8192
OPS = {('R', 1): 'readb', ('R', 2): 'readw', ('R', 4): 'readl',
       ('W', 1): 'writeb', ('W', 2): 'writew', ('W', 4): 'writel'}
IO_OPS = {('R', 1): 'inb', ('R', 2): 'inw', ('W', 1): 'outb', ('W', 2): 'outw'}


class Mismatch:
    def __init__(self, record, got):
        self.record, self.got = record, got


# Units whose registers depend on virtual time (counters, timers, the
# interrupt summary they feed), and the PLL that clocks PTIMER.  Only
# accesses to these need the clock stepped to their exact time first; the
# others can run early, since no time-driven state is visible through them.
TIMED_UNITS = {'PTIMER', 'PMC', 'PCRTC0', 'PCRTC1'}
TIMED_ADDRS = {0x680500}


def timed(r):
    return r.unit in TIMED_UNITS or r.addr in TIMED_ADDRS


def commands(records):
    """(qtest command, record or None) in order: clock steps and accesses."""
    now = 0
    for r in records:
        if r.space not in ('mmio', 'io'):
            continue                # I2C records are the device's own doing
        if r.time > now and timed(r):
            yield f'clock_step {r.time - now}', None
            now = r.time
        if r.space == 'mmio':
            op, addr = OPS[(r.dir, r.width)], qtest.BAR0 + r.addr
        else:
            op, addr = IO_OPS[(r.dir, r.width)], r.addr
        if r.dir == 'W':
            yield f'{op} {addr:#x} {r.value:#x}', r
        else:
            yield f'{op} {addr:#x}', r


def device_props(header):
    """What was plugged in when the trace was taken, and the board's
    VRAM, straps and RAM type (from its header; older traces lack the
    last three, which then come from the image's board record)."""
    f = decode.header_fields(header)
    return ','.join(f'{k}={f[k]}' for k in ('monitor0', 'monitor1', 'panel', 'tv',
                                           'vram_mb', 'strap', 'ram_type')
                    if k in f)


def drive(dev, cmds):
    """Send @cmds to @dev's qtest socket in batches; the first Mismatch of
    a read, or None."""
    proto = dev.vm._qtest
    mismatch = None
    for i in range(0, len(cmds), BATCH):
        batch = cmds[i:i + BATCH]
        proto._sock.sendall(''.join(c + '\n' for c, _ in batch).encode())
        # read every answer of the batch, even after a mismatch, so
        # QEMU is never left blocked on a full socket
        for c, r in batch:
            resp = proto._sockfile.readline().split()
            if not resp or resp[0] != 'OK':
                raise RuntimeError(f'qtest: {c!r} -> {resp}')
            if mismatch is None and r is not None and r.dir == 'R':
                got = int(resp[1], 0)
                if got != r.value:
                    mismatch = Mismatch(r, got)
        if mismatch:
            break
    return mismatch


def replay(path, board_rom, props=None, qemu=None, limit=None):
    """(number of accesses replayed, first Mismatch or None, seconds)."""
    header, records = trace.read(path)
    if props is None:
        props = device_props(header)
    if limit:
        records = records[:limit]
    qemu = qemu or build.build_qemu()
    cmds = list(commands(records))
    accesses = sum(1 for _, r in cmds if r is not None)
    with qtest.NVDevQtest(qemu, board_rom, props) as dev:
        start = time.monotonic()
        mismatch = drive(dev, cmds)
        elapsed = time.monotonic() - start
    return accesses, mismatch, elapsed


def replay_migrating(path, board_rom, at_seq, image, props=None, qemu=None):
    """The trace into a machine up to (not including) record @at_seq; that
    machine migrated to the file @image; the rest into a second machine
    started from the file, its virtual clock set to where the first one's
    stopped (qtest's clock is the accelerator's, not migrated state).
    Returns (accesses replayed, first Mismatch or None, whether the
    mismatch came after the migration)."""
    header, records = trace.read(path)
    if props is None:
        props = device_props(header)
    qemu = qemu or build.build_qemu()
    cmds = list(commands(records))
    cut = next(i for i, (_, r) in enumerate(cmds) if r is not None and r.seq >= at_seq)
    accesses = sum(1 for _, r in cmds if r is not None)
    with qtest.NVDevQtest(qemu, board_rom, props) as a:
        mismatch = drive(a, cmds[:cut])
        if mismatch:
            return accesses, mismatch, False
        clock = int(a.q('clock_step 0').split()[1])
        r = a.vm.qmp('migrate', uri=f'exec:cat > {image}')
        if 'error' in r:
            raise RuntimeError(f'migrate: {r}')
        for _ in range(600):
            st = a.vm.qmp('query-migrate')['return'].get('status')
            if st in ('completed', 'failed'):
                break
            time.sleep(0.05)
        if st != 'completed':
            raise RuntimeError(f'migration {st}: {a.vm.qmp("query-migrate")}')
    with qtest.NVDevQtest(qemu, board_rom, props,
                          args=['-incoming', f'exec:cat {image}']) as b:
        for _ in range(600):
            if b.vm.qmp('query-status')['return']['status'] != 'inmigrate':
                break
            time.sleep(0.05)
        b.q(f'clock_set {clock}')
        mismatch = drive(b, cmds[cut:])
    return accesses, mismatch, mismatch is not None


def describe(path, mismatch):
    header, records = trace.read(path)
    d = decode.Decoder(header)
    r = mismatch.record
    for prev in records:            # index registers: the state up to r
        if prev.seq >= r.seq:
            break
        d.line(prev)
    return (f'first mismatch at seq {r.seq} (t={r.time} ns): '
            f'{d.line(r) or r} but the device read 0x{mismatch.got:0{r.width * 2}x}')
