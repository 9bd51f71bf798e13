"""The guest's initramfs: busybox, the init script, the kernel modules and
libdrm's test tools with their libraries, written as a deterministic newc cpio."""
import glob
import os
import shutil
import stat
import subprocess

from . import paths

INIT = paths.repo('harness', 'guest', 'init')
REPORT = paths.repo('harness', 'guest', 'report.awk')
BUSYBOX = '/bin/busybox'
# libdrm-tests: mode setting, and vblank waits
DRM_TOOLS = ('/usr/bin/modetest', '/usr/bin/vbltest')


class Cpio:
    """Minimal newc writer with fixed metadata, so builds are reproducible."""

    def __init__(self, f):
        self.f = f
        self.ino = 1
        self.seen = set()

    def _entry(self, name, mode, data=b''):
        hdr = '070701' + ''.join(f'{v:08x}' for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
            len(name) + 1, 0))
        self.ino += 1
        out = hdr.encode() + name.encode() + b'\0'
        out += b'\0' * (-len(out) % 4)
        out += data + b'\0' * (-len(data) % 4)
        self.f.write(out)

    def dir(self, name):
        if not name.strip('/'):
            return
        parts = name.strip('/').split('/')
        for i in range(1, len(parts) + 1):
            d = '/'.join(parts[:i])
            if d not in self.seen:
                self.seen.add(d)
                self._entry(d, stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        name = name.strip('/')
        self.dir(os.path.dirname(name))
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        name = name.strip('/')
        self.dir(os.path.dirname(name))
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def trailer(self):
        self._entry('TRAILER!!!', 0)


def shared_libs(binary, lib_path=()):
    """The libraries (and the loader) a dynamic binary needs, via ldd;
    @lib_path are directories searched first (a build tree's)."""
    env = dict(os.environ)
    if lib_path:
        env['LD_LIBRARY_PATH'] = ':'.join(lib_path)
    out = subprocess.run(['ldd', binary], capture_output=True, text=True,
                         check=True, env=env).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split()
        if '=>' in parts and parts[parts.index('=>') + 1].startswith('/'):
            libs.append(parts[parts.index('=>') + 1])
        elif parts and parts[0].startswith('/'):
            libs.append(parts[0])
    return libs


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def build(modroot, extra_key='', guest_tools=()):
    # the modules' directory names the kernel build (version and config);
    # @extra_key changes with modules installed into it later (nvdrm)
    inputs = [INIT, REPORT, BUSYBOX, 'modules:' + os.path.realpath(modroot), __file__,
              'extra:' + extra_key,
              # the kernel build's stamp names the patches built into it
              os.path.join(os.path.dirname(modroot), '.nvdev-built')]
    inputs += sorted(glob.glob(os.path.join(modroot, 'lib', 'modules', '*',
                                            'modules.dep')))
    tools = [t for t in DRM_TOOLS if os.path.exists(t)]
    inputs += tools + list(guest_tools)
    out = paths.cache('initramfs', f'initramfs-{paths.digest(*inputs)}.cpio')
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + '.tmp'
    with open(tmp, 'wb') as f:
        c = Cpio(f)
        for d in ('dev', 'proc', 'sys', 'tmp', 'bin', 'sbin', 'etc', 'lib'):
            c.dir(d)
        c.file('init', read(INIT), 0o755)
        c.file('etc/nvdev-report.awk', read(REPORT))
        c.file('bin/busybox', read(BUSYBOX), 0o755)
        # no link per applet: Debian's busybox shell runs its applets
        # itself (FEATURE_SH_STANDALONE), and a link costs the kernel's
        # unpacking guest time; sh for #! lines
        c.symlink('bin/sh', 'busybox')
        # the kernel's request_module() runs /sbin/modprobe
        c.symlink('sbin/modprobe', '/bin/busybox')
        libs = []
        for tool in tools + list(guest_tools):
            c.file('bin/' + os.path.basename(tool), read(tool), 0o755)
            libs += [lib for lib in shared_libs(tool) if lib not in libs]
        for lib in libs:
            c.file(lib, read(os.path.realpath(lib)), 0o755)
        for root, dirs, files in os.walk(modroot):
            dirs.sort()
            rel = os.path.relpath(root, modroot)
            if rel != '.':
                c.dir(rel)
            for name in sorted(files):
                p = os.path.join(root, name)
                if os.path.islink(p):
                    continue        # build/source links point at the host
                c.file(os.path.join(rel, name), read(p))
        c.trailer()
    os.rename(tmp, out)
    return out


def with_firmware(initrd, fwdir, out):
    """@initrd followed by a second archive holding the tree @fwdir as
    /lib/firmware (the kernel unpacks concatenated archives in turn)."""
    with open(out, 'wb') as f:
        f.write(read(initrd))
        c = Cpio(f)
        c.dir('lib/firmware')
        for root, dirs, files in os.walk(fwdir):
            dirs.sort()
            rel = os.path.relpath(root, fwdir)
            for name in sorted(files):
                c.file(os.path.normpath(os.path.join('lib/firmware', rel, name)),
                       read(os.path.join(root, name)))
        c.trailer()
    return out


def concatenate(archives, out):
    """One initramfs of @archives, unpacked by the kernel in turn (a later
    one's files replace an earlier one's)."""
    with open(out, 'wb') as f:
        for a in archives:
            f.write(read(a))
    return out


def clean():
    shutil.rmtree(paths.cache('initramfs'), ignore_errors=True)
