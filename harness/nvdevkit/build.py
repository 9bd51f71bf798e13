"""Set-up and builds: Debian packages, QEMU with the device laid in, the
guest kernel, the initramfs, the C tools and the board VBIOS images.

Everything is built in the cache (paths.CACHE), keyed so that a second
run rebuilds only what changed.
"""
import configparser
import contextlib
import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from . import initramfs, paths

PACKAGES = [
    # C tools and QEMU
    'build-essential', 'ninja-build', 'meson', 'pkg-config', 'dpkg-dev',
    'libglib2.0-dev', 'libpixman-1-dev', 'zlib1g-dev', 'libpng-dev',
    'libfdt-dev',
    # guest kernel
    'linux-source-6.1', 'flex', 'bison', 'bc', 'libelf-dev', 'libssl-dev',
    'xz-utils', 'cpio', 'kmod',     # kmod: depmod, or modules_install skips modules.dep
    'patch',                        # kernel/patches
    'lz4',                          # CONFIG_KERNEL_LZ4
    # guest userland and firmware
    'busybox-static', 'libdrm-tests', 'seabios', 'qemu-system-data',
    # tests
    'python3-pytest', 'python3-pyflakes',
    'python3-pil',                  # screendumps' pixels (nvdevkit/png.py)
    'python3-pytest-xdist',         # nvdev test: a guest per core
    'lava-common',                  # nvdev lava-job: LAVA's job schema
]

QEMU_CONFIGURE = [
    '--target-list=x86_64-softmmu', '--without-default-features',
    '--enable-tcg', '--enable-png', '--disable-docs', '--disable-werror',
    '--with-git-submodules=ignore',
    '--firmwarepath=/usr/share/qemu:/usr/share/seabios',
]

KERNEL_FRAGMENT = paths.repo('kernel', 'nvdev.config')
KERNEL_TARBALL = '/usr/src/linux-source-6.1.tar.xz'
KERNEL_PATCHES = paths.repo('kernel', 'patches')
APPLIED = '.nvdev-patches'          # in the tree: copies of what is applied

# Kernel variants: a fragment over KERNEL_FRAGMENT and what make is told.
# NVDEV_KERNEL_VARIANT chooses one for every build and boot of a process
# (and the test workers it starts): `nvdev coverage` sets it to gcov.
KERNEL_VARIANTS = {
    'gcov': (paths.repo('kernel', 'gcov.config'), ['NOUVEAU_GCOV=y'],
             ['GCOV_PROFILE=y']),
}


def kernel_variant():
    v = os.environ.get('NVDEV_KERNEL_VARIANT') or None
    if v and v not in KERNEL_VARIANTS:
        raise SystemExit(f'nvdev: NVDEV_KERNEL_VARIANT={v}: no such kernel '
                         f'variant ({", ".join(KERNEL_VARIANTS)})')
    return v


def kernel_fragments():
    v = kernel_variant()
    return [KERNEL_FRAGMENT] + ([KERNEL_VARIANTS[v][0]] if v else [])


def variant_make_args(what):
    """What make is told for the kernel (@what 'kernel') or for nvdrm."""
    v = kernel_variant()
    return KERNEL_VARIANTS[v][1 if what == 'kernel' else 2] if v else []


def step(msg):
    print(f'==> {msg}', file=sys.stderr, flush=True)


def run(cmd, **kw):
    kw.setdefault('check', True)
    return subprocess.run(cmd, **kw)


def run_logged(cmd, log, label, cwd=None, env=None):
    """Run a long command with its output in @log, printing progress."""
    start = time.monotonic()
    with open(log, 'w') as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                cwd=cwd, env=env)
        done = threading.Event()

        def progress():
            while not done.wait(30):
                with open(log, 'rb') as f:
                    lines = f.read().count(b'\n')
                print(f'    {label}: {int(time.monotonic() - start)} s, '
                      f'{lines} lines of output', file=sys.stderr, flush=True)
        t = threading.Thread(target=progress, daemon=True)
        t.start()
        rc = proc.wait()
        done.set()
    if rc:
        with open(log, errors='replace') as f:
            tail = f.readlines()[-30:]
        sys.stderr.write(''.join(tail))
        raise SystemExit(f'nvdev: {label} failed (exit {rc}); full log: {log}')
    step(f'{label} done in {time.monotonic() - start:.0f} s')


# ---- Debian packages ------------------------------------------------------

def missing_packages():
    return [p for p in PACKAGES if not paths.dpkg_version(p)]


_apt_updated = False


def apt_update():
    global _apt_updated
    if not _apt_updated:
        step('apt-get update')
        run(['apt-get', 'update', '-q'], stdout=subprocess.DEVNULL)
        _apt_updated = True
        paths.dpkg_version.cache_clear()


def ensure_packages():
    missing = missing_packages()
    if not missing:
        return
    if os.geteuid() != 0:
        raise SystemExit('nvdev: these Debian packages are missing and '
                         'installing them needs root: ' + ' '.join(missing))
    apt_update()
    step('apt-get install ' + ' '.join(missing))
    run(['apt-get', 'install', '-y', '-q', '--no-install-recommends'] + missing,
        env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'),
        stdout=subprocess.DEVNULL)
    paths.dpkg_version.cache_clear()


def deb_src_entries():
    """deb-src stanzas mirroring the machine's own deb entries."""
    stanzas = []
    for path in glob.glob('/etc/apt/sources.list.d/*.sources'):
        with open(path) as f:
            for block in f.read().split('\n\n'):
                fields = {}
                for line in block.splitlines():
                    if ':' in line and not line.startswith((' ', '#')):
                        k, v = line.split(':', 1)
                        fields[k.strip()] = v.strip()
                if fields.get('Types', '').split() == ['deb'] and \
                        'debian' in fields.get('URIs', ''):
                    fields['Types'] = 'deb-src'
                    stanzas.append('\n'.join(f'{k}: {v}' for k, v in fields.items()))
    lines = []
    for path in ['/etc/apt/sources.list'] + glob.glob('/etc/apt/sources.list.d/*.list'):
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    if line.startswith('deb ') and 'debian' in line:
                        lines.append('deb-src ' + line[4:].strip())
    return stanzas, lines


def ensure_deb_src():
    if run(['apt-cache', 'showsrc', 'qemu'], capture_output=True,
           check=False).stdout.strip():
        return
    stanzas, lines = deb_src_entries()
    if stanzas:
        with open('/etc/apt/sources.list.d/nvdev-src.sources', 'w') as f:
            f.write('\n\n'.join(stanzas) + '\n')
    if lines:
        with open('/etc/apt/sources.list.d/nvdev-src.list', 'w') as f:
            f.write('\n'.join(lines) + '\n')
    if not stanzas and not lines:
        raise SystemExit('nvdev: no Debian deb entries to mirror as deb-src')
    global _apt_updated
    _apt_updated = False
    apt_update()


# ---- QEMU -----------------------------------------------------------------

def qemu_source_version():
    out = run(['apt-get', 'source', '--print-uris', 'qemu'],
              capture_output=True, text=True).stdout
    m = re.search(r"qemu_([^' ]+)\.dsc", out)
    if not m:
        raise SystemExit('nvdev: cannot tell the version of Debian\'s qemu '
                         'source package')
    return urllib.parse.unquote(m.group(1))


def qemu_dir():
    """The cache directory of the QEMU source version in use."""
    versions = sorted(glob.glob(paths.cache('qemu', '*', 'src', 'VERSION')))
    if versions:
        return os.path.dirname(os.path.dirname(versions[-1]))
    return None


def ensure_qemu_source():
    d = qemu_dir()
    if d:
        return d
    ensure_deb_src()
    ver = qemu_source_version()
    d = paths.cache('qemu', ver)
    step(f'fetching Debian qemu {ver} source')
    tmp = tempfile.mkdtemp(dir=paths.cache())
    run(['apt-get', 'source', '-q', 'qemu'], cwd=tmp, stdout=subprocess.DEVNULL)
    srcs = [p for p in glob.glob(os.path.join(tmp, 'qemu-*')) if os.path.isdir(p)]
    if len(srcs) != 1:
        raise SystemExit(f'nvdev: apt-get source qemu gave {srcs}')
    os.makedirs(d, exist_ok=True)
    os.rename(srcs[0], os.path.join(d, 'src'))
    shutil.rmtree(tmp)
    return d


def _sync_file(src, dst):
    """Copy only if different, so ninja sees only real changes."""
    with open(src, 'rb') as f:
        data = f.read()
    if os.path.exists(dst):
        with open(dst, 'rb') as f:
            if f.read() == data:
                return False
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, 'wb') as f:
        f.write(data)
    return True


def device_files():
    """(repo file, path inside hw/display/nvdev) for everything laid in."""
    files = []
    for name in sorted(os.listdir(paths.repo('qemu-nvdev'))):
        p = paths.repo('qemu-nvdev', name)
        if os.path.isfile(p):
            files.append((p, name))
    for name in ('nvbios.h', 'nvbios-int.h', 'parse.c', 'dcb.c', 'tables.c',
                 'script.c'):
        files.append((paths.repo('vbios', name), os.path.join('vbios', name)))
    for name in ('ctxprog.h', 'isa.c', 'exec.c'):
        files.append((paths.repo('ctxprog', name), os.path.join('ctxprog', name)))
    files.append((paths.repo('regdb', 'nv.regdb'), 'nv.regdb'))
    return files


def _patch_once(path, marker, text, after=None):
    with open(path) as f:
        content = f.read()
    if marker in content:
        return
    if after:
        content = content.replace(after, after + text, 1)
    else:
        content += text
    with open(path, 'w') as f:
        f.write(content)


def lay_device(src):
    """Lay qemu-nvdev/ into QEMU's tree as hw/display/nvdev."""
    dest = os.path.join(src, 'hw', 'display', 'nvdev')
    wanted = set()
    for repo_file, rel in device_files():
        _sync_file(repo_file, os.path.join(dest, rel))
        wanted.add(rel)
    for root, _, names in os.walk(dest):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), dest)
            if rel not in wanted:
                os.unlink(os.path.join(root, n))
    _patch_once(os.path.join(src, 'hw', 'display', 'meson.build'),
                "subdir('nvdev')", "\nsubdir('nvdev')\n")
    _patch_once(os.path.join(src, 'hw', 'display', 'Kconfig'),
                'nvdev/Kconfig', '\nsource nvdev/Kconfig\n')
    _patch_once(os.path.join(src, 'meson.build'), "'hw/display/nvdev'",
                "\n  'hw/display/nvdev',", after="  'hw/display',")


# The fuzzer's QEMU: the same, with AddressSanitizer and UBSan.
QEMU_SANITIZERS = ['--enable-sanitizers']


def build_qemu(sanitizers=False):
    """qemu-system-x86_64 with nvdev laid in; @sanitizers: the ASan+UBSan
    build (its own build directory beside the plain one)."""
    d = ensure_qemu_source()
    src = os.path.join(d, 'src')
    build = os.path.join(d, 'build-asan' if sanitizers else 'build')
    stamp = os.path.join(build, '.nvdev-configure')
    configure = QEMU_CONFIGURE + (QEMU_SANITIZERS if sanitizers else [])
    want = '\n'.join(configure) + '\n'
    lay_device(src)
    have = open(stamp).read() if os.path.exists(stamp) else None
    if have != want or not os.path.exists(os.path.join(build, 'build.ninja')):
        step('configuring QEMU')
        shutil.rmtree(build, ignore_errors=True)
        os.makedirs(build)
        run_logged([os.path.join(src, 'configure')] + configure,
                   os.path.join(build, 'configure.log'), 'QEMU configure',
                   cwd=build)
        with open(stamp, 'w') as f:
            f.write(want)
    step('building qemu-system-x86_64' + (' (ASan+UBSan)' if sanitizers else ''))
    run_logged(['ninja', 'qemu-system-x86_64'], os.path.join(build, 'ninja.log'),
               'QEMU build', cwd=build)
    return os.path.join(build, 'qemu-system-x86_64')


def qemu_python_path():
    d = qemu_dir()
    return os.path.join(d, 'src', 'python') if d else None


# ---- guest kernel ---------------------------------------------------------

def kernel_version():
    v = paths.dpkg_version('linux-source-6.1')
    if not v:
        raise SystemExit('nvdev: linux-source-6.1 is not installed (nvdev setup)')
    return v


def kernel_build_dir():
    """Keyed by the kernel package version and the config fragments (the
    variant's with the base one: the default build keeps its key)."""
    ver = kernel_version()
    data = ver.encode() + b'\n'
    for i, frag in enumerate(kernel_fragments()):
        with open(frag, 'rb') as f:
            data += (b'\n' if i else b'') + f.read()
    key = hashlib.sha256(data).hexdigest()[:12]
    return paths.cache('linux', ver, 'build-' + key)


def ensure_kernel_source():
    src = paths.cache('linux', kernel_version(), 'src')
    if not os.path.exists(os.path.join(src, 'Makefile')):
        step(f'extracting {KERNEL_TARBALL}')
        tmp = tempfile.mkdtemp(dir=paths.cache())
        run(['tar', '-xf', KERNEL_TARBALL, '-C', tmp])
        os.makedirs(os.path.dirname(src), exist_ok=True)
        os.rename(os.path.join(tmp, 'linux-source-6.1'), src)
        shutil.rmtree(tmp)
    return src


def kernel_patches():
    """kernel/patches/*.patch in order: (name, contents)."""
    out = []
    for name in sorted(os.listdir(KERNEL_PATCHES)):
        if name.endswith('.patch'):
            with open(os.path.join(KERNEL_PATCHES, name), 'rb') as f:
                out.append((name, f.read()))
    return out


def _patch(src, data, reverse=False):
    args = ['patch', '-p1', '--batch', '--silent', '-d', src]
    args += ['-R'] if reverse else ['--forward']
    return subprocess.run(args + ['--dry-run'], input=data,
                          capture_output=True).returncode == 0 and \
        subprocess.run(args, input=data, capture_output=True).returncode == 0


def patch_kernel_source(src):
    """Make the cache's kernel tree hold exactly kernel/patches: a series
    applied before and changed since is reversed (from the copies kept in
    the tree) and the current one applied.  Returns a key of the series."""
    want = kernel_patches()
    keep = os.path.join(src, APPLIED)
    have = []
    if os.path.isdir(keep):
        for name in sorted(os.listdir(keep)):
            with open(os.path.join(keep, name), 'rb') as f:
                have.append((name, f.read()))
    if have != want:
        for name, data in reversed(have):
            step(f'reversing kernel patch {name}')
            if not _patch(src, data, reverse=True):
                raise SystemExit(f'nvdev: {name} no longer reverses in {src}; '
                                 f'remove that tree and run nvdev setup')
            os.unlink(os.path.join(keep, name))
        os.makedirs(keep, exist_ok=True)
        for name, data in want:
            step(f'applying kernel patch {name}')
            if not _patch(src, data):
                raise SystemExit(f'nvdev: kernel/patches/{name} does not apply '
                                 f'to linux-source-6.1 {kernel_version()}')
            with open(os.path.join(keep, name), 'wb') as f:
                f.write(data)
    return paths.digest(*[d for _, d in want])


def check_fragment(config):
    """Every line of the fragment must survive olddefconfig."""
    with open(config) as f:
        have = f.read().splitlines()
    bad = []
    for frag in kernel_fragments():
        with open(frag) as f:
            lines = f.readlines()
        for line in lines:
            line = line.strip()
            if line.startswith('CONFIG_') and line not in have:
                bad.append(line)
            m = re.match(r'# (CONFIG_\w+) is not set', line)
            if m and any(h.startswith(m.group(1) + '=') for h in have):
                bad.append(line)
    if bad:
        raise SystemExit('nvdev: kernel config fragment lines did not take '
                         'effect (missing dependencies?): ' + ', '.join(bad))


def kernel_outputs():
    b = kernel_build_dir()
    return os.path.join(b, 'arch', 'x86', 'boot', 'bzImage'), os.path.join(b, 'modroot')


def modules_dep_files(modroot):
    return sorted(glob.glob(os.path.join(modroot, 'lib', 'modules', '*',
                                         'modules.dep')))


def modules_dep(modroot):
    """modules.dep of @modroot, which modprobe in the guest needs
    (modules_install writes it only when depmod is installed)."""
    deps = modules_dep_files(modroot)
    if not deps:
        raise SystemExit(f'nvdev: no modules.dep under {modroot}: is depmod '
                         '(Debian package kmod) installed?')
    return deps[0]


def build_kernel():
    src = ensure_kernel_source()
    series = 'patches ' + patch_kernel_source(src) + '\n'
    b = kernel_build_dir()
    stamp = os.path.join(b, '.nvdev-built')
    modroot = os.path.join(b, 'modroot')
    if os.path.exists(stamp) and modules_dep_files(modroot):
        with open(stamp) as f:
            if f.read() == series:
                return kernel_outputs()
    os.makedirs(b, exist_ok=True)
    if not os.path.exists(os.path.join(b, '.config')):
        step('configuring the guest kernel (allnoconfig + kernel/nvdev.config)')
        run(['make', '-C', src, f'O={b}', 'allnoconfig'], stdout=subprocess.DEVNULL)
        run([os.path.join(src, 'scripts', 'kconfig', 'merge_config.sh'), '-m',
             '-O', b, os.path.join(b, '.config')] + kernel_fragments(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run(['make', '-C', src, f'O={b}', 'olddefconfig'], stdout=subprocess.DEVNULL)
    check_fragment(os.path.join(b, '.config'))
    step('building the guest kernel and modules')
    jobs = str(os.cpu_count() or 2)
    extra = variant_make_args('kernel')
    run_logged(['make', '-C', src, f'O={b}', f'-j{jobs}'] + extra + ['bzImage', 'modules'],
               os.path.join(b, 'make.log'), 'kernel build')
    shutil.rmtree(modroot, ignore_errors=True)
    run(['make', '-C', src, f'O={b}'] + extra + [f'INSTALL_MOD_PATH={modroot}',
         'INSTALL_MOD_STRIP=1', 'modules_install'], stdout=subprocess.DEVNULL)
    modules_dep(modroot)
    with open(stamp, 'w') as f:
        f.write(series)         # a changed series rebuilds what it touches
    return kernel_outputs()


# ---- our kernel module ----------------------------------------------------

NVDRM_DIR = paths.repo('kernel', 'nvdrm')


def build_nvdrm():
    """Build kernel/nvdrm out of tree (in the cache, not the repo) against
    the guest kernel and install it into the kernel's module root.
    Returns a key that changes when the module does."""
    b = kernel_build_dir()
    files = sorted(f for f in os.listdir(NVDRM_DIR)
                   if f.endswith(('.c', '.h')) or f == 'Kbuild')
    key = paths.digest(b, *[os.path.join(NVDRM_DIR, f) for f in files])
    work = paths.cache('nvdrm', key)
    stamp = os.path.join(work, '.installed')
    # the kernel's module root is made anew with each kernel install
    installed = glob.glob(os.path.join(b, 'modroot', 'lib', 'modules', '*',
                                       'extra', 'nvdrm.ko'))
    if os.path.exists(stamp) and installed:
        return key
    os.makedirs(work, exist_ok=True)
    for f in files:
        _sync_file(os.path.join(NVDRM_DIR, f), os.path.join(work, f))
    step('building kernel/nvdrm')
    extra = variant_make_args('nvdrm')
    run_logged(['make', '-C', b, f'M={work}'] + extra + ['modules'],
               os.path.join(work, 'make.log'), 'nvdrm build')
    run(['make', '-C', b, f'M={work}', f'INSTALL_MOD_PATH={os.path.join(b, "modroot")}',
         'INSTALL_MOD_STRIP=1', 'modules_install'], stdout=subprocess.DEVNULL)
    modules_dep(os.path.join(b, 'modroot'))
    with open(stamp, 'w') as f:
        f.write('ok\n')
    return key


# ---- C tools and VBIOS images --------------------------------------------

GUEST_TOOLS = [paths.repo('harness', 'guest', 'nvaccel.c'),
               paths.repo('harness', 'guest', 'nvpoke.c'),
               paths.repo('harness', 'guest', 'nvuevent.c')]


def build_guest_tools():
    """The guest's own test clients (harness/guest/*.c), built against the
    guest kernel's DRM uapi headers.  Returns their paths.  Linked with
    the C library the initramfs holds for libdrm's tools, and stripped:
    the guest unpacks its initramfs in guest time."""
    uapi = os.path.join(ensure_kernel_source(), 'include', 'uapi', 'drm')
    cc = ['gcc', '-O2', '-s', '-Wall', '-D__user=', '-I', uapi]
    out = []
    for src in GUEST_TOOLS:
        name = os.path.splitext(os.path.basename(src))[0]
        d = paths.cache('guest-tools', paths.digest(src, uapi, *cc))
        binary = os.path.join(d, name)
        if not os.path.exists(binary):
            step(f'building guest tool {name}')
            os.makedirs(d, exist_ok=True)
            run(cc + ['-o', binary + '.tmp', src])
            os.rename(binary + '.tmp', binary)
        out.append(binary)
    return out


def tools_dir():
    """meson build dir of this checkout's C code (one per checkout path)."""
    return paths.cache('tools', paths.digest(paths.REPO))


def build_tools():
    b = tools_dir()
    if not os.path.exists(os.path.join(b, 'build.ninja')):
        step('configuring the C tools (meson)')
        run(['meson', 'setup', b, paths.REPO], stdout=subprocess.DEVNULL)
    run(['ninja', '-C', b], stdout=subprocess.DEVNULL)
    return b


def ctxprog_firmware():
    """A /lib/firmware tree with our generated nouveau/nvXX.ctxprog and
    .ctxvals for every NV40-family chipset (`nvctxprog gen all`)."""
    tool = os.path.join(build_tools(), 'nvctxprog')
    root = paths.cache('firmware', paths.digest(tool))
    with build_lock():                  # test workers ask at the same time
        if not os.path.isdir(os.path.join(root, 'nouveau')):
            tmp = tempfile.mkdtemp(dir=paths.cache())
            run([tool, 'gen', 'all', '-o', os.path.join(tmp, 'nouveau')],
                stdout=subprocess.DEVNULL)
            shutil.rmtree(root, ignore_errors=True)
            os.makedirs(os.path.dirname(root), exist_ok=True)
            os.rename(tmp, root)
    return root


def board_ini(board):
    """The .ini of @board: a board of vbios/boards by name, or a path to
    a board file anywhere (one that ends in .ini or names a directory)."""
    if board.endswith('.ini') or os.sep in board:
        if not os.path.isfile(board):
            raise SystemExit(f'nvdev: no board file {board}')
        return os.path.abspath(board)
    p = os.path.join(paths.BOARDS_DIR, board + '.ini')
    if not os.path.exists(p):
        raise SystemExit(f'nvdev: no board {board!r}; boards: '
                         + ', '.join(paths.boards()) + ', or a path to a .ini')
    return p


def board_config(board):
    """The board's ini as a ConfigParser, over its base= board's as
    nvbios build reads it (keys of the board set over the base's)."""
    chain, name = [], board
    while name and len(chain) < 5:
        ini = configparser.ConfigParser(interpolation=None)
        ini.optionxform = str
        ini.read(board_ini(name))
        chain.append(board_ini(name))
        name = ini.get('board', 'base', fallback=None)
    ini = configparser.ConfigParser(interpolation=None)
    ini.optionxform = str
    ini.read(reversed(chain))
    ini.remove_option('board', 'base')
    return ini


def build_rom(board):
    with build_lock():
        tools = build_tools()
        ini = board_ini(board)
        name = board if ini.startswith(paths.BOARDS_DIR + os.sep) else \
            os.path.splitext(os.path.basename(ini))[0] + '-' + paths.digest(ini)[:8]
        rom = paths.cache('roms', f'{name}.rom')
        os.makedirs(os.path.dirname(rom), exist_ok=True)
        run([os.path.join(tools, 'nvbios'), 'build', ini, '-o', rom])
    return rom


# ---- everything -----------------------------------------------------------

@contextlib.contextmanager
def build_lock():
    """One builder at a time per cache (a second `nvdev` waits)."""
    os.makedirs(paths.CACHE, exist_ok=True)
    with open(paths.cache('.build.lock'), 'w') as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            step('waiting for another nvdev build to finish')
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


def setup():
    start = time.monotonic()
    with build_lock():
        ensure_packages()
        build_tools()
        qemu = build_qemu()
        kernel, modroot = build_kernel()
        initrd = initramfs.build(modroot, build_nvdrm(), build_guest_tools())
    step(f'setup complete in {time.monotonic() - start:.0f} s')
    return qemu, kernel, initrd


def ensure_built():
    """What `run` needs, building only what is missing or changed."""
    with build_lock():
        if missing_packages():
            ensure_packages()
        qemu = build_qemu()
        kernel, modroot = build_kernel()
        initrd = initramfs.build(modroot, build_nvdrm(), build_guest_tools())
    return qemu, kernel, initrd
