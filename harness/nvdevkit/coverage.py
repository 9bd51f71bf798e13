"""`nvdev coverage`: which parts of nouveau (and nvdrm) a run or the whole
test suite exercised.

The guest kernel's coverage variant (kernel/gcov.config, build.py's
KERNEL_VARIANTS) instruments nouveau and nvdrm alone.  Each boot of that
kernel sends its gcov counters (debugfs gcov/, nvdev.gcov=1) to the host,
where they are merged with gcc's gcov-tool into one tree of .gcda files
(NVDEV_COVERAGE_DIR: boots of parallel test workers merge under a lock);
the report is Debian's lcov (HTML) and a table per file and component of
nouveau's pre-NV50 code."""
import base64
import fcntl
import fnmatch
import io
import os
import shutil
import subprocess
import tarfile
import tempfile

from . import build, paths

PACKAGES = ['lcov']
ENV_DIR = 'NVDEV_COVERAGE_DIR'

# nouveau's pre-NV50 code by component (paths under drivers/gpu/drm/nouveau)
COMPONENTS = [
    ('dispnv04 (KMS)', ['dispnv04/*']),
    ('nvkm bios', ['nvkm/subdev/bios/*']),
    ('devinit nv04-nv4x', ['nvkm/subdev/devinit/base.c', 'nvkm/subdev/devinit/nv0*',
                           'nvkm/subdev/devinit/nv1*', 'nvkm/subdev/devinit/nv2*']),
    ('fb nv04-nv4x', ['nvkm/subdev/fb/base.c', 'nvkm/subdev/fb/ram.c',
                      'nvkm/subdev/fb/nv[0-4]*', 'nvkm/subdev/fb/ramnv[0-4]*']),
    ('i2c', ['nvkm/subdev/i2c/base.c', 'nvkm/subdev/i2c/bus.c', 'nvkm/subdev/i2c/pad.c',
             'nvkm/subdev/i2c/bit.c', 'nvkm/subdev/i2c/*nv04*', 'nvkm/subdev/i2c/*nv4e*',
             'nvkm/subdev/i2c/*nv50*']),
    ('gpio', ['nvkm/subdev/gpio/base.c', 'nvkm/subdev/gpio/nv10.c']),
    ('timer', ['nvkm/subdev/timer/base.c', 'nvkm/subdev/timer/nv04.c',
               'nvkm/subdev/timer/nv40.c', 'nvkm/subdev/timer/nv41.c']),
    ('mc', ['nvkm/subdev/mc/base.c', 'nvkm/subdev/mc/nv04.c', 'nvkm/subdev/mc/nv11.c',
            'nvkm/subdev/mc/nv17.c', 'nvkm/subdev/mc/nv44.c']),
    ('fifo nv04-nv40', ['nvkm/engine/fifo/base.c', 'nvkm/engine/fifo/chan.c',
                        'nvkm/engine/fifo/nv04.c', 'nvkm/engine/fifo/nv10.c',
                        'nvkm/engine/fifo/nv17.c', 'nvkm/engine/fifo/nv40.c',
                        'nvkm/engine/fifo/dmanv04.c', 'nvkm/engine/fifo/dmanv10.c',
                        'nvkm/engine/fifo/dmanv17.c', 'nvkm/engine/fifo/dmanv40.c']),
    ('gr nv04-nv40', ['nvkm/engine/gr/base.c', 'nvkm/engine/gr/nv04.c',
                      'nvkm/engine/gr/nv1*', 'nvkm/engine/gr/nv2*', 'nvkm/engine/gr/nv3*',
                      'nvkm/engine/gr/nv4*', 'nvkm/engine/gr/ctxnv40*']),
    ('disp nv04', ['nvkm/engine/disp/nv04.c', 'nvkm/engine/disp/vga.c']),
]
NOUVEAU = 'drivers/gpu/drm/nouveau/'


def data_dir():
    return os.environ.get(ENV_DIR) or paths.cache('coverage', 'data')


def enabled():
    return build.kernel_variant() == 'gcov'


def collect(boot, outdir=None):
    """Merge the counters a boot sent into the coverage tree.  Returns the
    number of .gcda files it brought, 0 if it sent none."""
    text = boot.section('gcov')
    if not text:
        return 0
    raw = base64.b64decode(''.join(text.split()))
    dest = outdir or data_dir()
    os.makedirs(dest, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(dest))) as tmp:
        new = os.path.join(tmp, 'new')
        n = 0
        with tarfile.open(fileobj=io.BytesIO(raw), mode='r:gz') as tar:
            for m in tar.getmembers():
                if not m.isfile() or not m.name.endswith('.gcda'):
                    continue
                # the guest's debugfs mirrors the host's build paths
                rel = os.path.normpath(m.name).lstrip('./')
                if rel.startswith('..'):
                    continue
                out = os.path.join(new, rel)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, 'wb') as f:
                    f.write(tar.extractfile(m).read())
                n += 1
        with open(os.path.join(dest, '.lock'), 'w') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            merged = os.path.join(dest, 'gcda')
            if not os.path.isdir(merged):
                shutil.move(new, merged)
            else:
                out = os.path.join(tmp, 'out')
                subprocess.run(['gcov-tool', 'merge', new, merged, '-o', out],
                               check=True, capture_output=True)
                old = os.path.join(tmp, 'old')
                os.rename(merged, old)
                os.rename(out, merged)
            with open(os.path.join(dest, 'boots'), 'a') as f:
                f.write(f'{boot.outdir}\n')
    return n


def reset(dest=None):
    shutil.rmtree(dest or data_dir(), ignore_errors=True)


def _lcov(args):
    """lcov or genhtml, quiet unless they fail (Debian's 1.16 warns about
    its own redefined subroutines on every call)."""
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f'nvdev coverage: {args[0]} failed:\n{r.stderr[-3000:]}')


def _lcov_info(dest):
    """Put the merged counters beside the build's .gcno files and capture
    them with lcov.  Returns the .info path."""
    merged = os.path.join(dest, 'gcda')
    dirs = set()
    for root, _, files in os.walk(merged):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), merged)
            target = '/' + rel
            if not os.path.exists(target[:-5] + '.gcno'):
                continue        # a build that is gone
            shutil.copyfile(os.path.join(root, name), target)
            dirs.add(os.path.dirname(target))
    if not dirs:
        raise SystemExit('nvdev coverage: no counters matching a build: '
                         'did a coverage boot run?')
    info = os.path.join(dest, 'coverage.info')
    # one capture per module tree (nouveau, nvdrm), then added up
    roots = sorted({d.split('/drivers/gpu/drm/nouveau')[0] + '/drivers/gpu/drm/nouveau'
                    if '/drivers/gpu/drm/nouveau' in d else d for d in dirs})
    parts = []
    for i, r in enumerate(roots):
        part = os.path.join(dest, f'part{i}.info')
        _lcov(['lcov', '--quiet', '--capture', '--directory', r,
               '--output-file', part])
        parts.append(part)
    cmd = ['lcov', '--quiet']
    for p in parts:
        cmd += ['--add-tracefile', p]
    _lcov(cmd + ['--output-file', info])
    return info


def parse_info(info):
    """{source path: (lines hit, lines instrumented)} from an lcov file."""
    out = {}
    sf = None
    with open(info) as f:
        for line in f:
            line = line.strip()
            if line.startswith('SF:'):
                sf = line[3:]
                out.setdefault(sf, [0, 0])
            elif line.startswith('LH:') and sf:
                out[sf][0] += int(line[3:])
            elif line.startswith('LF:') and sf:
                out[sf][1] += int(line[3:])
            elif line == 'end_of_record':
                sf = None
    return {k: tuple(v) for k, v in out.items()}


def relative(path):
    i = path.find(NOUVEAU)
    if i >= 0:
        return path[i:]
    if '/nvdrm/' in path:
        return 'kernel/nvdrm/' + os.path.basename(path)
    return path


def table(files):
    """Lines per component and per file of nouveau's pre-NV50 code, and
    nvdrm: text."""
    rows = []
    comp_rows = []
    for name, globs in COMPONENTS:
        hit = total = 0
        for path, (h, t) in sorted(files.items()):
            rel = relative(path)
            if not rel.startswith(NOUVEAU):
                continue
            sub = rel[len(NOUVEAU):]
            if any(fnmatch.fnmatchcase(sub, g) for g in globs):
                hit += h
                total += t
                rows.append((name, sub, h, t))
        comp_rows.append((name, hit, total))
    for label, pred in (('nouveau, all', lambda r: r.startswith(NOUVEAU)),
                        ('nvdrm', lambda r: r.startswith('kernel/nvdrm/'))):
        h = sum(v[0] for p, v in files.items() if pred(relative(p)))
        t = sum(v[1] for p, v in files.items() if pred(relative(p)))
        comp_rows.append((label, h, t))
    out = ['| component | lines hit | lines | % |', '|---|---:|---:|---:|']
    for name, h, t in comp_rows:
        out.append(f'| {name} | {h} | {t} | {100 * h / t:.1f} |' if t else
                   f'| {name} | - | - | not loaded |')
    out += ['', '| component | file | lines hit | lines | % |', '|---|---|---:|---:|---:|']
    for name, sub, h, t in rows:
        out.append(f'| {name} | {sub} | {h} | {t} | {100 * h / t if t else 0:.1f} |')
    nv = sorted((relative(p), v) for p, v in files.items()
                if relative(p).startswith('kernel/nvdrm/'))
    for rel, (h, t) in nv:
        out.append(f'| nvdrm | {os.path.basename(rel)} | {h} | {t} | '
                   f'{100 * h / t if t else 0:.1f} |')
    return '\n'.join(out) + '\n'


def report(dest=None):
    """lcov capture, genhtml, the table.  Returns (html dir, table path)."""
    dest = dest or data_dir()
    missing = [p for p in PACKAGES if not paths.dpkg_version(p)]
    if missing:
        build.step('installing ' + ' '.join(missing))
        build.run(['apt-get', 'install', '-y', '--no-install-recommends'] + missing)
    info = _lcov_info(dest)
    html = os.path.join(dest, 'html')
    shutil.rmtree(html, ignore_errors=True)
    _lcov(['genhtml', '--quiet', '--output-directory', html, info])
    path = os.path.join(dest, 'table.md')
    with open(path, 'w') as f:
        f.write(table(parse_info(info)))
    return html, path
