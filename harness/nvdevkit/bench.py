"""Benchmarks, measured side by side in one run and reported as ratios.

  boot   nv11 + nouveau against QEMU's -device VGA + bochs-drm, same kernel
         and initramfs: host seconds from launch to the guest's report (the
         guest stops right after its first modeset), and guest (virtual)
         seconds to the fbdev modeset line
  trace  nv11 boots with the register trace on and off; then replay
         throughput of the traced boot over qtest
  accel  fbcon drawing screens of text with nouveau accelerated and with
         noaccel; the guest client's M2MF against its memcpy
  suite  the whole test suite with one pytest worker, then one per core
Runs alternate between the two sides so machine noise hits both alike."""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from . import boot, build, paths, replay

FB_LINE = re.compile(r'^\[\s*(\d+\.\d+)\].*(nouveaudrmfb|bochs-drmdrmfb|bochsdrmfb).*frame buffer device')


def first_modeset_s(b):
    for l in b.dmesg:
        m = FB_LINE.match(l)
        if m:
            return float(m.group(1))
    return None


def _boots(built, runs, **kw):
    out = []
    for _ in range(runs):
        d = tempfile.mkdtemp(prefix='nvdev-bench-')
        b = boot.boot(outdir=d, built=built, **kw)
        if b.report is None:
            raise SystemExit(f'nvdev bench: a boot did not report ({d})')
        out.append(b)
    return out


def bench_boot(runs=3):
    built = build.ensure_built()
    _boots(built, 1, driver='bochs', vga=True)                      # warm-up
    nv, vga = [], []
    for _ in range(runs):
        nv += _boots(built, 1, driver='nouveau', cmdline='nouveau.noaccel=1', trace=False)
        vga += _boots(built, 1, driver='bochs', vga=True)
    rows = []
    for name, bs in (('nv11 + nouveau', nv), ('VGA + bochs-drm', vga)):
        host = statistics.median(b.elapsed for b in bs)
        guest = [first_modeset_s(b) for b in bs]
        if None in guest:
            raise SystemExit(f'nvdev bench: {name}: no fbdev modeset in dmesg')
        rows.append((name, host, statistics.median(guest)))
    out = [f'{"":<18} {"host s to report":>17} {"guest s to modeset":>19}  ({runs} runs each, median)']
    for name, host, guest in rows:
        out.append(f'{name:<18} {host:>17.2f} {guest:>19.3f}')
    out.append(f'ratio nv11/VGA: host {rows[0][1] / rows[1][1]:.2f}x, '
               f'guest {rows[0][2] / rows[1][2]:.2f}x')
    return '\n'.join(out)


def bench_trace(runs=5):
    built = build.ensure_built()
    _boots(built, 1, cmdline='nouveau.noaccel=1', trace=True)      # warm-up
    on, off = [], []
    for _ in range(runs):
        on += _boots(built, 1, cmdline='nouveau.noaccel=1', trace=True)
        off += _boots(built, 1, cmdline='nouveau.noaccel=1', trace=False)
    t_on = statistics.median(b.elapsed for b in on)
    t_off = statistics.median(b.elapsed for b in off)
    c_on = statistics.median(b.cpu for b in on)
    c_off = statistics.median(b.cpu for b in off)
    rom = build.build_rom(on[0].board)
    n, mismatch, secs = replay.replay(on[0].trace_path, rom, qemu=built[0])
    if mismatch:
        raise SystemExit('nvdev bench: ' + replay.describe(on[0].trace_path, mismatch))
    return '\n'.join([
        f'boot with trace: wall {t_on:.2f} s, QEMU CPU {c_on:.2f} s; without: wall '
        f'{t_off:.2f} s, CPU {c_off:.2f} s ({runs} runs each, median)',
        f'tracing costs {(c_on / c_off - 1) * 100:+.1f} % CPU, '
        f'{(t_on / t_off - 1) * 100:+.1f} % wall',
        f'replay: {n} accesses in {secs:.2f} s = {n / secs:,.0f} accesses/s '
        '(every read matched)'])


def _fbtext_s(b):
    m = re.match(r'fbtext (\d+) lines from ([\d.]+) to ([\d.]+) s', b.report.get('fbtext') or '')
    if not m:
        raise SystemExit('nvdev bench: the guest reported no fbtext timing')
    return float(m.group(3)) - float(m.group(2))


def bench_accel(runs=3, board='nv11-ch7006', screens=10):
    """fbcon writing @screens screens of coloured text (50 lines each at
    1280x800), nouveau accelerated against noaccel, alternating; then the
    guest's own M2MF against memcpy throughput."""
    built = build.ensure_built()
    cmd = f'loglevel=1 vt.global_cursor_default=0 nvdev.fbtext={screens * 50}'
    acc, cpu = [], []
    for _ in range(runs):
        acc += _boots(built, 1, board=board, cmdline=cmd, trace=False)
        cpu += _boots(built, 1, board=board, cmdline=cmd + ' nouveau.noaccel=1',
                      trace=False)
    g_acc = statistics.median(_fbtext_s(b) for b in acc)
    g_cpu = statistics.median(_fbtext_s(b) for b in cpu)
    h_acc = statistics.median(b.elapsed for b in acc)
    h_cpu = statistics.median(b.elapsed for b in cpu)
    b = _boots(built, 1, board=board, cmdline='nvdev.accel=bench,64', trace=False)[0]
    m2mf = [l for l in b.report.get('nvaccel') or [] if l.startswith(('ok bench', 'FAIL'))]
    return '\n'.join([
        f'{board}: fbcon, {screens} screens of text ({runs} runs each, median)',
        f'  guest seconds: accelerated {g_acc:.2f}, noaccel {g_cpu:.2f}: '
        f'ratio noaccel/accelerated {g_cpu / g_acc:.2f}x',
        f'  host seconds per boot: accelerated {h_acc:.2f}, noaccel {h_cpu:.2f}: '
        f'ratio {h_cpu / h_acc:.2f}x',
        f'  in-guest copies: {m2mf[0] if m2mf else "no result"}'])


def bench_suite(runs=1):
    """The whole test suite (`nvdev test`) with one pytest worker and with
    one per core, one after the other in this run: wall seconds of each
    and their ratio.  The first run warms the build cache; its time counts
    as the serial one's (builds are done before pytest starts)."""
    jobs = os.cpu_count() or 1
    times = {}
    for label, j in (('serial', 1), ('parallel', jobs)):
        start = time.monotonic()
        rc = subprocess.run([sys.executable, paths.repo('harness', 'nvdev'), 'test',
                             '-j', str(j)]).returncode
        times[label] = (time.monotonic() - start, rc)
    (s, src), (p, prc) = times['serial'], times['parallel']
    return (f'suite serial {s:.0f} s (exit {src}), {jobs} workers {p:.0f} s '
            f'(exit {prc}): parallel/serial = {p / s:.2f}')
