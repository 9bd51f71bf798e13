"""`nvdev fuzz`: the device's guest-facing surface (BAR0, BAR1/VRAM, the VGA
ports, the passing of virtual time, the screen) driven with no guest over
qtest, in QEMU built with AddressSanitizer and UBSan.

Inputs are the golden trace of the board (what a real driver does, in
windows of consecutive accesses, with values and addresses mutated), the
registers regdb names, random offsets in every unit, interesting values,
steps of the virtual clock and screendumps.  A finding is:

- crash: QEMU exited (an ASan or UBSan report, an abort, a signal);
- slow: one access took more than --slow seconds of host time;
- timer: a step of the virtual clock took more host time than its length
  allows (a timer firing faster than any hardware rate: the device's
  shortest frame is 100 us, so 10 ms of virtual time is at most a few
  hundred timer callbacks);
- hang: no answer within --hang seconds (QEMU is killed).

A slow or timer command is timed again before it counts: its script is
replayed into a fresh machine (the same state) and the command must be
slow there too; a one-off (the host busy with something else) is
counted as a host-time outlier, not a finding.

Each finding is written as a qtest script that replays it (the commands
since the machine started) and the report QEMU printed, into the output
directory; the fuzzer then starts a fresh machine and goes on.  Runs are
reproducible from --seed on the same build (host timing aside)."""
import os
import random
import time

from . import build, golden, paths, regdb, trace
from .qtest import BAR0, BAR1, NVDevQtest

VRAM_WINDOW = 0x1000000             # BAR1 offsets tried (beyond small VRAMs)
INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
               0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff]
VGA_PORTS = list(range(0x3b0, 0x3e0))
SANITIZER_ENV = {
    'ASAN_OPTIONS': 'detect_leaks=0:abort_on_error=1:print_stacktrace=1',
    'UBSAN_OPTIONS': 'halt_on_error=1:abort_on_error=1:print_stacktrace=1',
}


class Finding:
    def __init__(self, kind, detail, script, report=''):
        self.kind, self.detail, self.script, self.report = kind, detail, script, report
        self.bound = None           # slow, timer: the host time it exceeded


def seed_windows(board):
    """Runs of the golden trace's BAR0 and VGA-port accesses."""
    path = golden.path(board)
    if not os.path.exists(path):
        path = golden.path(paths.DEFAULT_BOARD)
    if not os.path.exists(path):
        return []
    _, records = trace.read(path)
    accesses = [(r.dir, r.width, r.space, r.addr, r.value) for r in records
                if r.space in ('mmio', 'io') and r.dir in 'RW']
    return [accesses[i:i + 64] for i in range(0, len(accesses), 64)]


def _value(rng, width):
    mask = (1 << (8 * width)) - 1
    if rng.random() < 0.5:
        return rng.choice(INTERESTING) & mask
    return rng.getrandbits(8 * width)


class Generator:
    """Random qtest commands, as text, for one board."""

    def __init__(self, board, rng):
        self.rng = rng
        db = regdb.RegDB()
        self.units = [(base, size) for _, base, size in db.units if size]
        self.regs = sorted(db.mmio)
        self.windows = seed_windows(board)

    @staticmethod
    def access(d, width, space, addr, value):
        op = {1: 'b', 2: 'w', 4: 'l'}[width]
        if space == 'io':
            return f'out{op} {addr:#x} {value:#x}' if d == 'W' else f'in{op} {addr:#x}'
        base = BAR1 if space == 'vram' else BAR0
        if d == 'W':
            return f'write{op} {base + addr:#x} {value:#x}'
        return f'read{op} {base + addr:#x}'

    def _mutated_window(self):
        rng = self.rng
        out = []
        for d, width, space, addr, value in rng.choice(self.windows):
            if rng.random() < 0.15:
                value = _value(rng, width)
            if rng.random() < 0.03:
                addr = addr ^ (1 << rng.randrange(2, 20 if space == 'mmio' else 4))
                addr &= 0xffffff if space == 'mmio' else 0xffff
            if space == 'mmio':
                addr &= ~(width - 1)
            out.append(self.access(d, width, space, addr, value))
        return out

    def commands(self):
        """The next few commands."""
        rng = self.rng
        r = rng.random()
        if r < 0.35 and self.windows:
            return self._mutated_window()
        width = rng.choice((1, 2, 4, 4, 4))
        if r < 0.55:
            addr = rng.choice(self.regs)
            return [self.access(rng.choice('RWW'), width, 'mmio', addr & ~(width - 1),
                                _value(rng, width))]
        if r < 0.70:
            base, size = rng.choice(self.units)
            addr = (base + rng.randrange(size)) & ~(width - 1)
            return [self.access(rng.choice('RW'), width, 'mmio', addr, _value(rng, width))]
        if r < 0.80:
            addr = rng.randrange(VRAM_WINDOW) & ~(width - 1)
            return [self.access(rng.choice('RW'), width, 'vram', addr, _value(rng, width))]
        if r < 0.92:
            port = rng.choice(VGA_PORTS)
            return [self.access(rng.choice('RW'), 1, 'io', port, _value(rng, 1))]
        if r < 0.99:
            return [f'clock_step {rng.choice((1, 1000, 100000, rng.randrange(1, 20_000_000)))}']
        if r < 0.995:
            return self._display()
        return ['screendump']

    # A 640x480 extended mode at 32 bpp (as tests/test_cursor.py sets it),
    # for the display commands to perturb: random registers alone seldom
    # make the VGA core draw a graphics mode at all.
    MODE = [(0x1f, 0x57), (0x01, 0x4f), (0x12, 0xdf), (0x07, 0x02), (0x13, 0x40),
            (0x19, 0x20), (0x28, 0x03), (0x17, 0xc3), (0x09, 0x00)]

    def _mode(self, crtc):
        cmds = []
        for idx, val in self.MODE:
            cmds += [self.access('W', 1, 'mmio', crtc, idx),
                     self.access('W', 1, 'mmio', crtc + 1, val)]
        for port, val in ((0x3ce, 0x05), (0x3cf, 0x40), (0x3ce, 0x06), (0x3cf, 0x05)):
            cmds.append(self.access('W', 1, 'io', port, val))
        cmds += [self.access('R', 1, 'mmio', crtc + 6, 0),       # INP0: AR flip-flop
                 self.access('W', 1, 'mmio', crtc - 0x14, 0x20)]  # AR: palette on
        return cmds

    def _display(self):
        """What the scanout and cursor code read at a screendump: an
        extended mode on a head, its start address, and the hardware
        cursor's VRAM address (CR2F/CR30/CR31), format and position, with
        random values, then the picture."""
        rng = self.rng
        crtc = rng.choice((0x6013d4, 0x6033d4))
        cmds = [self.access('W', 1, 'mmio', crtc, 0x1f), self.access('W', 1, 'mmio', crtc + 1, 0x57)]
        if rng.random() < 0.5:
            cmds = self._mode(crtc)
        for idx in rng.sample([0x28, 0x2f, 0x30, 0x31, 0x19, 0x13, 0x01, 0x12, 0x07, 0x2d,
                               0x25, 0x41, 0x42, 0x00, 0x06], rng.randrange(2, 8)):
            cmds += [self.access('W', 1, 'mmio', crtc, idx),
                     self.access('W', 1, 'mmio', crtc + 1, _value(rng, 1))]
        head = 0x2000 if crtc == 0x6033d4 else 0
        for reg in rng.sample([0x600800, 0x600810, 0x680300, 0x680508, 0x680600], 3):
            cmds.append(self.access('W', 4, 'mmio', reg + head, _value(rng, 4)))
        return cmds + ['screendump']


class Run:
    def __init__(self, qemu, rom, board, outdir, slow, hang):
        self.qemu, self.rom, self.board, self.outdir = qemu, rom, board, outdir
        self.slow, self.hang = slow, hang
        self.d = None
        self.script = []            # commands since this machine started
        self.shots = 0

    def start(self):
        self.stop()
        self.d = NVDevQtest(self.qemu, self.rom)
        self.d.__enter__()
        self.d.vm._qtest.settimeout(self.hang)
        self.script = ['# nvdev fuzz reproducer: qtest commands after the BARs '
                       f'are set up (board {self.board})']

    def stop(self):
        if self.d:
            try:
                self.d.__exit__(None, None, None)
            except Exception:       # a dead or hung machine: it is gone anyway
                pass
            self.d = None

    def _report(self):
        """What QEMU printed (the sanitizer's report), once it is down."""
        try:
            self.d.vm.shutdown(hard=True)
        except Exception:
            pass
        try:
            return self.d.vm.get_log() or ''
        except Exception:
            return ''

    def execute(self, cmd):
        """Run one command; a Finding or None."""
        self.script.append(cmd)
        t0 = time.monotonic()
        try:
            if cmd == 'screendump':
                self.shots += 1
                path = os.path.join(self.d.tmp, 'shot.png')
                r = self.d.vm.qmp('screendump', filename=path, format='png')
                ok = 'error' not in r or 'no surface' in str(r)
            else:
                resp = self.d.q(cmd)
                ok = resp.startswith('OK')
        except (OSError, TimeoutError) as e:
            kind = 'hang' if isinstance(e, TimeoutError) else 'crash'
            return Finding(kind, f'{cmd}: {e}', list(self.script), self._report())
        except Exception as e:     # QMP on a dead machine, and the like
            return Finding('crash', f'{cmd}: {type(e).__name__} {e}', list(self.script),
                           self._report())
        dt = time.monotonic() - t0
        if not ok and not self.d.vm.is_running():
            code = self.d.vm.exitcode()
            return Finding('crash', f'{cmd}: QEMU exited ({code})', list(self.script),
                           self._report())
        if cmd.startswith('clock_step'):
            ns = int(cmd.split()[1])
            if dt > self.slow + ns / 1e9 * 20:
                f = Finding('timer', f'{cmd} took {dt:.2f} s of host time',
                            list(self.script))
                f.bound = self.slow
                return f
        elif dt > self.slow:
            f = Finding('slow', f'{cmd} took {dt:.2f} s of host time', list(self.script))
            f.bound = self.slow
            return f
        return None


def confirm(qemu, rom, f):
    """@f (slow or timer) timed again: its script replayed into a fresh
    machine; the Finding of its last command there, or None."""
    # the commands before it make the state, untimed
    run = Run(qemu, rom, '', '', float('inf'), 30.0)
    run.start()
    try:
        cmds = [c for c in f.script if not c.startswith('#')]
        for cmd in cmds[:-1]:
            g = run.execute(cmd)
            if g and g.kind not in ('slow', 'timer'):
                return g
        run.slow = f.bound
        return run.execute(cmds[-1])
    finally:
        run.stop()


def save(outdir, n, f):
    base = os.path.join(outdir, f'finding-{n:03d}-{f.kind}')
    with open(base + '.qtest', 'w') as out:
        out.write('\n'.join(f.script) + '\n')
    with open(base + '.txt', 'w') as out:
        out.write(f'{f.kind}: {f.detail}\n\n{f.report}')
    return base


def qemu_binary(sanitizers=True):
    """The QEMU to fuzz with (built if missing), the sanitizers' options set."""
    for k, v in SANITIZER_ENV.items():
        os.environ.setdefault(k, v)
    with build.build_lock():
        return build.build_qemu(sanitizers=sanitizers)


def fuzz(board, seconds, seed=None, outdir=None, sanitizers=True, slow=1.0, hang=30.0,
         out=print):
    """Fuzz @board for @seconds; returns (executions, findings)."""
    qemu = qemu_binary(sanitizers)
    rom = build.build_rom(board)
    seed = int(time.time()) if seed is None else seed
    outdir = outdir or paths.cache('fuzz', f'{board}-{seed}')
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(seed)
    gen = Generator(board, rng)
    run = Run(qemu, rom, board, outdir, slow, hang)
    out(f'fuzz {board}: seed {seed}, {seconds} s, QEMU {qemu}')
    run.start()
    execs, findings, restarts, outliers = 0, [], 0, 0
    deadline = time.monotonic() + seconds
    last_report = time.monotonic()
    try:
        while time.monotonic() < deadline:
            # a fresh machine now and then: findings replay from a short script
            if len(run.script) > 20000:
                run.start()
                restarts += 1
            for cmd in gen.commands():
                f = run.execute(cmd)
                execs += 1
                if f and f.kind in ('slow', 'timer'):
                    again = confirm(qemu, rom, f)
                    if again is None:
                        outliers += 1
                        out(f'host-time outlier (not slow when timed again): {f.detail}')
                        f = None
                    elif again.kind in ('slow', 'timer'):
                        f.detail += f'; timed again: {again.detail.split(" took ")[-1]}'
                    else:
                        f = again
                if f:
                    findings.append(f)
                    base = save(outdir, len(findings), f)
                    out(f'finding {len(findings)}: {f.kind}: {f.detail} ({base}.qtest)')
                    run.start()
                    restarts += 1
                    break
            if time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                out(f'  {execs} executions, {len(findings)} findings')
    finally:
        run.stop()
    out(f'fuzz {board}: {execs} executions in {seconds} s ({execs / max(seconds, 1):.0f}/s), '
        f'{run.shots} screendumps, {restarts} machine restarts, '
        f'{outliers} host-time outliers, {len(findings)} findings; output in {outdir}')
    return execs, findings


def replay_script(qemu, rom, path):
    """Run a reproducer; None if the machine survived, else a Finding."""
    with open(path) as f:
        cmds = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    run = Run(qemu, rom, '', os.path.dirname(path), 1.0, 30.0)
    run.start()
    try:
        for cmd in cmds:
            f = run.execute(cmd)
            if f:
                return f
    finally:
        run.stop()
    return None
