"""Boot a guest on a board: the QEMU command line, the run, its outputs."""
import ctypes
import json
import os
import resource
import socket
import subprocess
import sys
import time

from . import build, coverage, initramfs, paths, platform

# Virtual time: 2^4 ns per guest instruction, never sleeping, fixed RTC.
ICOUNT_SHIFT = 4
ICOUNT = f'shift={ICOUNT_SHIFT},sleep=off'
RTC = 'base=2020-01-01T00:00:00,clock=vm'
# The guest kernel's own arguments.  noapictimer: the kernel calibrates the
# local APIC timer by spinning for LAPIC_CAL_LOOPS (HZ/10) PIT ticks, 100 ms
# of virtual time that cost a third of a boot's host time under icount; the
# PIT is the clock-event device instead (a uniprocessor guest loses nothing).
KERNEL_ARGS = 'panic=-1 oops=panic loglevel=7 noapictimer'
DEFAULT_TIMEOUT = 600


class Boot:
    """The result of one boot: where its files are, and what it reported."""

    def __init__(self, outdir, board, driver, rc, elapsed, props=None):
        self.props = props or {}
        self.outdir = outdir
        self.board = board
        self.driver = driver
        self.rc = rc
        self.elapsed = elapsed
        self.serial_path = os.path.join(outdir, 'serial.log')
        self.report_path = os.path.join(outdir, 'report.log')
        self.trace_path = os.path.join(outdir, 'trace.txt')
        self.qemu_log_path = os.path.join(outdir, 'qemu.log')
        self.report = self._parse_report()

    def _read(self, path):
        if not os.path.exists(path):
            return ''
        with open(path, errors='replace') as f:
            return f.read()

    @property
    def serial(self):
        return self._read(self.serial_path)

    @property
    def qemu_log(self):
        return self._read(self.qemu_log_path)

    @property
    def qemu_stderr(self):
        """What QEMU printed: why it refused to start, if it did."""
        return self._read(os.path.join(self.outdir, 'qemu.stderr'))

    def _parse_report(self):
        text = self._read(self.report_path)
        begin = text.find('nvdev-report-begin')
        end = text.find('nvdev-report-end')
        if begin < 0 or end < 0:
            return None
        body = text[begin + len('nvdev-report-begin'):end]
        return json.loads(body)

    def mmiotrace(self):
        """The guest's own mmiotrace (nvdev.mmiotrace=1), as a file path."""
        text = self.section('mmiotrace')
        if text is None:
            return None
        path = os.path.join(self.outdir, 'mmiotrace.txt')
        with open(path, 'w') as f:
            f.write(text)
        return path

    def section(self, name):
        """What the guest sent between nvdev-NAME-begin and -end (a raw
        text section of the report port), or None."""
        text = self._read(self.report_path)
        begin = text.find(f'nvdev-{name}-begin\n')
        end = text.find(f'nvdev-{name}-end', begin)
        if begin < 0 or end < 0:
            return None
        return text[begin + len(f'nvdev-{name}-begin\n'):end]

    @property
    def dmesg(self):
        return self.report['dmesg'] if self.report else []


def qemu_command(qemu, kernel, initrd, rom, outdir, cmdline='', trace=True,
                 memory=256, extra=(), props=None, interactive=False,
                 icount_shift=ICOUNT_SHIFT):
    """The command line; @rom None boots QEMU's own -device VGA instead
    (for comparisons with bochs-drm)."""
    dev = f'nvdev,id=nvdev0,vbios={rom}'
    for k, v in sorted((props or {}).items()):
        dev += f',{k}={v}'
    if trace:
        dev += f',trace={os.path.join(outdir, "trace.txt")}'
    if rom is None:
        dev = 'VGA'
    append = (f'console=tty0 console=ttyS0 {KERNEL_ARGS} '
              'nouveau.debug=bios=debug ' + cmdline).strip()
    return [
        qemu, '-L', '/usr/share/seabios', '-L', '/usr/share/qemu',
        '-nodefaults', '-no-user-config', '-no-reboot',
        '-machine', 'pc', '-accel', 'tcg', '-cpu', 'qemu64', '-m', str(memory),
        '-icount', f'shift={icount_shift},sleep=off', '-rtc', RTC,
        '-display', 'none', '-vga', 'none',
        '-kernel', kernel, '-initrd', initrd, '-append', append,
        '-chardev', f'file,id=con,path={os.path.join(outdir, "serial.log")}',
        '-serial', 'chardev:con',
        '-chardev', (f'socket,id=rep,path={os.path.join(outdir, "report.sock")},'
                     'server=on,wait=on' if interactive else
                     f'file,id=rep,path={os.path.join(outdir, "report.log")}'),
        '-serial', 'chardev:rep',
        '-qmp', f'unix:{os.path.join(outdir, "qmp.sock")},server=on,wait=off',
    ] + platform.machine_args(rom, props) + [
        '-device', dev,
        '-d', 'guest_errors,unimp', '-D', os.path.join(outdir, 'qemu.log'),
    ] + list(extra)


def _qmp(outdir):
    path = build.qemu_python_path()
    if path not in sys.path:
        sys.path.insert(0, path)
    from qemu.qmp.legacy import QEMUMonitorProtocol
    m = QEMUMonitorProtocol(os.path.join(outdir, 'qmp.sock'))
    m.connect()
    return m


def _serve(proc, outdir, timeout):
    """The host side of the report port when the guest asks for pictures:
    a line "nvdev-screendump NAME" gets a trace mark NAME and a PNG of the
    console, then "done"; "nvdev-mark NAME" the trace mark alone;
    "nvdev-end", after the report, "done" once all before it is read."""
    sock_path = os.path.join(outdir, 'report.sock')
    deadline = time.monotonic() + timeout
    while not os.path.exists(sock_path):
        if proc.poll() is not None or time.monotonic() > deadline:
            return
        time.sleep(0.05)
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(sock_path)
    sock.settimeout(1)
    qmp = None
    buf = b''
    with open(os.path.join(outdir, 'report.log'), 'wb') as log:
        while time.monotonic() < deadline:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                if proc.poll() is not None:
                    break
                continue
            if not data:
                break
            log.write(data)
            buf += data
            while b'\n' in buf:
                line, buf = buf.split(b'\n', 1)
                words = line.decode(errors='replace').split()
                if len(words) == 2 and words[0] in ('nvdev-screendump', 'nvdev-mark'):
                    qmp = qmp or _qmp(outdir)
                    name = os.path.basename(words[1])
                    # the guest stands still from the mark to the last
                    # picture: what the trace holds up to the mark is what
                    # the pictures show
                    qmp.cmd('stop')
                    qmp.cmd('qom-set', {'path': '/machine/peripheral/nvdev0',
                                        'property': 'mark', 'value': name})
                    if words[0] == 'nvdev-screendump':
                        qmp.cmd('screendump', {'filename': os.path.join(outdir, name + '.png'),
                                               'format': 'png'})
                        # head B, on boards that have one (an error otherwise)
                        qmp.cmd('screendump', {'filename': os.path.join(outdir, name + '-headb.png'),
                                               'format': 'png', 'device': 'nvdev0', 'head': 1})
                    qmp.cmd('cont')
                    sock.sendall(b'done\n')
                elif words == ['nvdev-end']:
                    # all the guest sent has been read: it may reboot
                    sock.sendall(b'done\n')
    if qmp:
        qmp.close()
    sock.close()


PR_SET_THP_DISABLE = 41         # <linux/prctl.h>
_thp_off = False


def no_huge_pages():
    """Turn transparent huge pages off for this process and the QEMUs it
    starts (PR_SET_THP_DISABLE is inherited).  QEMU asks for them on guest
    RAM and on its code buffer (MADV_HUGEPAGE); in a boot of seconds the
    host zeroing 2 MiB at each first touch costs more than huge pages save:
    a seventh of a boot's host time.  Guest-visible state is unchanged."""
    global _thp_off
    if not _thp_off:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)
        _thp_off = True


def boot(board=paths.DEFAULT_BOARD, driver='nouveau', cmdline='',
         outdir=None, trace=True, timeout=DEFAULT_TIMEOUT, built=None,
         props=None, screendumps=False, vga=False, firmware=None, vbios=None,
         overlays=(), icount_shift=ICOUNT_SHIFT, memory=256):
    """Boot @board with @driver and @memory MiB of guest RAM; @props are
    nvdev device properties (what is plugged in, e.g. {'monitor0':
    'none'}).  With @screendumps the guest may ask for PNGs of the screen
    (nvdev.screendump=1); virtual time then depends on how fast the host
    answers, so such a boot's trace is not reproducible.  @firmware is a
    directory put in the guest as /lib/firmware
    (build.ctxprog_firmware() makes one), and nouveau is told to use its
    context programs (kernel/patches: NvGrUseFW=1).
    @vbios is a VBIOS image to boot instead of @board's (a dump of a real
    card, say); @board then only names the run.  @overlays are cpio
    archives unpacked over the initramfs, in turn (IGT's, say)."""
    qemu, kernel, initrd = built or build.ensure_built()
    if vbios:
        rom = os.path.abspath(vbios)
        if not os.path.isfile(rom):
            raise SystemExit(f'nvdev: no VBIOS image {vbios}')
    else:
        rom = None if vga else build.build_rom(board)
    if outdir is None:
        name = os.path.splitext(os.path.basename(board))[0]
        outdir = paths.cache('runs', f'{name}-{driver}-{time.strftime("%Y%m%d-%H%M%S")}')
    os.makedirs(outdir, exist_ok=True)
    for name in ('serial.log', 'report.log', 'trace.txt', 'qemu.log',
                 'report.sock', 'qmp.sock'):
        if os.path.exists(os.path.join(outdir, name)):
            os.unlink(os.path.join(outdir, name))
    if screendumps:
        cmdline += ' nvdev.screendump=1'
    if coverage.enabled():
        cmdline += ' nvdev.gcov=1'
    if firmware:
        initrd = initramfs.with_firmware(initrd, firmware,
                                         os.path.join(outdir, 'initrd.cpio'))
        cmdline = 'nouveau.config=NvGrUseFW=1 ' + cmdline
    if overlays:
        initrd = initramfs.concatenate([initrd] + list(overlays),
                                       os.path.join(outdir, 'initrd-overlays.cpio'))
    cmd = qemu_command(qemu, kernel, initrd, rom, outdir,
                       f'nvdev.driver={driver} {cmdline}', trace and not vga,
                       props=props, interactive=screendumps,
                       icount_shift=icount_shift, memory=memory)
    with open(os.path.join(outdir, 'command'), 'w') as f:
        f.write(' '.join(cmd) + '\n')
    no_huge_pages()
    start = time.monotonic()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0 = usage.ru_utime + usage.ru_stime
    with open(os.path.join(outdir, 'qemu.stderr'), 'w') as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        if screendumps:
            _serve(proc, outdir, timeout)
        try:
            rc = proc.wait(timeout=max(1, timeout - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            rc = 'timeout'
    b = Boot(outdir, board, driver, rc, time.monotonic() - start, props)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    b.cpu = usage.ru_utime + usage.ru_stime - cpu0     # QEMU's CPU seconds
    if coverage.enabled():
        b.gcda = coverage.collect(b)
    return b
