"""Fixtures: a test says which board and driver it wants; how QEMU is
started is the harness's business."""
import fcntl
import hashlib
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'harness'))

from nvdevkit import boot as nvboot  # noqa: E402
from nvdevkit import build, paths  # noqa: E402
from nvdevkit.qtest import NVDevQtest  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line('markers', 'boot: boots a guest (an integration test)')
    config.addinivalue_line('markers', 'qtest: drives the device with no guest (seconds)')


def pytest_collection_modifyitems(items):
    """A test is `boot` when it boots a guest, `qtest` when it starts QEMU
    without one: `nvdev test -- -m qtest` runs the unit tests alone."""
    for item in items:
        names = set(getattr(item, 'fixturenames', ()))
        if 'boot_board' in names or 'vbltest' in names:
            item.add_marker(pytest.mark.boot)
        elif names & {'device', 'qemu'}:
            item.add_marker(pytest.mark.qtest)


@pytest.fixture(scope='session')
def built():
    """QEMU, the guest kernel and the initramfs, built if missing."""
    return build.ensure_built()


@pytest.fixture(scope='session')
def qemu(built):
    return built[0]


class Board:
    """A board description and the VBIOS image built from it."""

    def __init__(self, name):
        self.name = name
        self.ini = build.board_config(name)
        self.rom = build.build_rom(name)
        tool = os.path.join(build.tools_dir(), 'nvbios')
        self.vbios = json.loads(subprocess.run([tool, 'dump', self.rom, '--json'],
                                               capture_output=True, text=True,
                                               check=True).stdout)

    def get(self, key, section='board'):
        return self.ini.get(section, key)

    def num(self, key, section='board'):
        return int(self.get(key, section), 0)


@pytest.fixture(scope='session')
def board_info():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = Board(name)
        return cache[name]
    return get


# device properties whose value is what the device takes when it is not
# given (nvdev.c's realize): a boot asking for them is the boot without them
DEFAULT_PROPS = {'monitor0': 'default', 'monitor1': 'none', 'tv': 'composite'}


def boot_key(board, driver, cmdline, screendumps, firmware, vbios, props):
    props = {k: str(v) for k, v in props.items() if DEFAULT_PROPS.get(k) != str(v)}
    key = (board, driver, ' '.join(cmdline.split()), screendumps, firmware, vbios,
           tuple(sorted(props.items())))
    return hashlib.sha1(repr(key).encode()).hexdigest()[:16]


def shared_dir(tmp_path_factory):
    """A directory all of this run's pytest workers see (xdist gives each
    its own basetemp under the run's one)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get('PYTEST_XDIST_WORKER') else base


@pytest.fixture(scope='session')
def boot_board(built, tmp_path_factory):
    """boot_board(board, driver='nouveau', cmdline='', fresh=False, firmware=None,
    vbios=None, **props)
    -> Boot, where props say what is plugged in (monitor0='none'); vbios is
    an image to boot instead of the board's (board then names the run).

    A boot is made once per test run and shared by every test (of every
    worker) asking for the same one, unless fresh=True: guests are
    deterministic, so a second boot would only repeat the first.  The first
    worker to ask boots while holding the boot's lock; the others wait for
    it and read the same directory."""
    cache = {}
    shared = shared_dir(tmp_path_factory) / 'boots'
    shared.mkdir(exist_ok=True)

    def new_boot(out, board, driver, cmdline, screendumps, firmware, vbios, props):
        b = nvboot.boot(board=board, driver=driver, cmdline=cmdline,
                        outdir=str(out), built=built, props=props,
                        screendumps=screendumps, firmware=firmware, vbios=vbios)
        assert b.report is not None, (
            f'guest did not report (QEMU exit {b.rc}); serial log tail:\n'
            + b.serial[-3000:])
        return b

    def run(board=paths.DEFAULT_BOARD, driver='nouveau', cmdline='', fresh=False,
            screendumps=False, firmware=None, vbios=None, **props):
        if fresh:
            out = tmp_path_factory.mktemp(f'{board}-{driver}')
            return new_boot(out, board, driver, cmdline, screendumps, firmware,
                            vbios, props)
        key = boot_key(board, driver, cmdline, screendumps, firmware, vbios, props)
        if key in cache:
            return cache[key]
        name = os.path.splitext(os.path.basename(board))[0]
        out = shared / f'{name}-{driver}-{key}'
        done = out / 'nvdev-boot.json'
        with open(shared / f'{key}.lock', 'w') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if done.exists():
                meta = json.loads(done.read_text())
                b = nvboot.Boot(str(out), board, driver, meta['rc'], meta['elapsed'],
                                props)
                b.cpu, b.gcda = meta['cpu'], meta['gcda']
            else:
                b = new_boot(out, board, driver, cmdline, screendumps, firmware,
                             vbios, props)
                done.write_text(json.dumps({'rc': b.rc, 'elapsed': b.elapsed,
                                            'cpu': b.cpu,
                                            'gcda': getattr(b, 'gcda', None)}))
        cache[key] = b
        return b
    return run


@pytest.fixture
def device(qemu, board_info, tmp_path):
    """device(board, **props) -> NVDevQtest context manager (no guest).
    trace=True writes the device trace to tmp_path/trace.txt; log=True
    QEMU's guest-error and unimplemented log to tmp_path/qemu.log."""
    def make(board=paths.DEFAULT_BOARD, trace=False, log=False, args=(), **props):
        extra = ','.join(f'{k}={v}' for k, v in props.items())
        if trace:
            extra = ','.join(filter(None, [extra, f'trace={tmp_path / "trace.txt"}']))
        args = list(args)
        if log:
            args += ['-d', 'guest_errors,unimp', '-D', str(tmp_path / 'qemu.log')]
        return NVDevQtest(qemu, board_info(board).rom, extra, args=args)
    return make


@pytest.fixture(scope='session')
def start_qemu(qemu):
    """start_qemu(device) -> the CompletedProcess of QEMU started with that
    one -device and nothing to run (accel=qtest, no qtest client): for
    configurations QEMU must refuse, with the message it gives."""
    def run(dev):
        return subprocess.run([qemu, '-L', '/usr/share/seabios', '-nodefaults',
                               '-display', 'none', '-machine', 'pc,accel=qtest',
                               '-device', dev],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    return run
