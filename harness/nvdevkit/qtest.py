"""Drive the device with no guest, over QEMU's qtest protocol, using the
QEMU source tree's own python/qemu QEMUQtestMachine."""
import shutil
import sys
import tempfile

from . import build, platform

BAR0 = 0xe0000000
BAR1 = 0xd0000000


def _qtest_machine_class():
    path = build.qemu_python_path()
    if not path:
        raise RuntimeError('QEMU source is not set up (run nvdev setup)')
    if path not in sys.path:
        sys.path.insert(0, path)
    from qemu.machine.qtest import QEMUQtestMachine
    return QEMUQtestMachine


class NVDevQtest:
    """One nvdev on a bare pc machine, BARs assigned, memory decoding on."""

    def __init__(self, qemu, rom, device_props='', slot=2, args=()):
        self.slot = slot
        self.tmp = tempfile.mkdtemp(prefix='nvdev-qtest-')
        dev = f'nvdev,vbios={rom},addr={slot}'
        if device_props:
            dev += ',' + device_props
        cls = _qtest_machine_class()
        props = dict(p.split('=', 1) for p in device_props.split(',') if '=' in p)
        self.vm = cls(qemu, args=['-L', '/usr/share/seabios', '-L',
                                  '/usr/share/qemu', '-nodefaults', '-machine', 'pc']
                      + platform.machine_args(rom, props) + ['-device', dev] + list(args),
                      base_temp_dir=self.tmp)

    def __enter__(self):
        self.vm.launch()
        self.cfg_write(0x10, BAR0)
        self.cfg_write(0x14, BAR1)
        self.cfg_write(0x04, 0x0002, 2)         # memory space
        return self

    def __exit__(self, *exc):
        try:
            self.vm.shutdown()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def q(self, cmd):
        return self.vm.qtest(cmd)

    def _cfg_addr(self, reg):
        return 0x80000000 | (self.slot << 11) | (reg & 0xfc)

    def cfg_read(self, reg, size=4):
        self.q(f'outl 0xcf8 {self._cfg_addr(reg):#x}')
        op = {1: 'inb', 2: 'inw', 4: 'inl'}[size]
        return int(self.q(f'{op} {0xcfc + (reg & 3):#x}').split()[1], 0)

    def cfg_write(self, reg, val, size=4):
        self.q(f'outl 0xcf8 {self._cfg_addr(reg):#x}')
        op = {1: 'outb', 2: 'outw', 4: 'outl'}[size]
        self.q(f'{op} {0xcfc + (reg & 3):#x} {val:#x}')

    def rd32(self, addr):
        return int(self.q(f'readl {BAR0 + addr:#x}').split()[1], 0)

    def wr32(self, addr, val):
        self.q(f'writel {BAR0 + addr:#x} {val:#x}')

    def rd08(self, addr):
        return int(self.q(f'readb {BAR0 + addr:#x}').split()[1], 0)

    def wr08(self, addr, val):
        self.q(f'writeb {BAR0 + addr:#x} {val:#x}')

    def clock_step(self, ns):
        return int(self.q(f'clock_step {ns}').split()[1])

    def clock(self):
        return int(self.q('clock_step 0').split()[1])
