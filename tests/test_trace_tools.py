"""Trace tools: decode names registers and fields; diff ignores what
legitimately varies (timer reads, polling loop lengths) but catches a
changed PLL write."""
import subprocess
import sys

from nvdevkit import decode, tracediff, paths

HEADER = '# nvdev-trace 1 chipset=NV11 boot0=0x011000a1 vram_mb=32 pci=10de:0110 crystal_khz=14318\n'


def write(path, lines):
    path.write_text(HEADER + ''.join(f'{i} {i * 100} {l}\n' for i, l in enumerate(lines)))
    return str(path)


MODESET = [
    'W 1 mmio 0x6013d4 0x07 PRMCIO0 CRX',
    'W 1 mmio 0x6013d5 0x1f PRMCIO0 CR',
    'R 4 mmio 0x009400 0x00001000 PTIMER TIME_0',
    'W 4 mmio 0x680508 0x00027b0b PRAMDAC0 VPLL_COEFF',
    'R 4 mmio 0x600100 0x00000000 PCRTC0 INTR_0',
    'W 1 mmio 0x0c03c4 0x01 PRMVIO SRX',
    'W 1 mmio 0x0c03c5 0x21 PRMVIO SR',
    'W 1 i2c 0x017500 0x83 CH7006 DISPMODE',
]


def test_decode_known_sequence(tmp_path):
    out = decode.decode(write(tmp_path / 't.txt', MODESET))
    assert 'CRTC0 CR07 OVERFLOW <= 0x1f (VDT_8=1 VDE_8=1 VRS_8=1 VBS_8=1 LC_8=1 ' \
           'VDT_9=0 VDE_9=0 VRS_9=0)' in out
    assert 'PRAMDAC0 VPLL_COEFF <= 0x00027b0b (N=123 M=11 P=2: 40.025 MHz)' in out
    assert 'SR SR01 CLOCK <= 0x21' in out
    assert 'CH7006 DISPMODE <= 0x83 (SCALING_RATIO=3 OUTPUT_STD=0 INPUT_RES=4)' in out
    assert 'CRX' not in out, 'index port writes are folded into the data access'


def test_diff_ignores_timer_reads_and_poll_lengths(tmp_path):
    a = MODESET[:4] + ['R 4 mmio 0x600100 0x00000000 PCRTC0 INTR_0'] * 3 + MODESET[4:]
    b = list(MODESET)
    b[2] = 'R 4 mmio 0x009400 0x00054321 PTIMER TIME_0'
    equal, text = tracediff.diff(write(tmp_path / 'a', a), write(tmp_path / 'b', b))
    assert equal, text


def test_diff_catches_a_changed_pll_write(tmp_path):
    b = list(MODESET)
    b[3] = 'W 4 mmio 0x680508 0x00027c0b PRAMDAC0 VPLL_COEFF'
    equal, text = tracediff.diff(write(tmp_path / 'a', MODESET), write(tmp_path / 'b', b))
    assert not equal
    assert '>> A' in text and 'N=123' in text and 'N=124' in text, text


def test_diff_cli_exit_status(tmp_path):
    a = write(tmp_path / 'a', MODESET)
    b = list(MODESET)
    b[1] = 'W 1 mmio 0x6013d5 0x1e PRMCIO0 CR'
    b = write(tmp_path / 'b', b)
    nvdev = paths.repo('harness', 'nvdev')
    assert subprocess.run([sys.executable, nvdev, 'trace', 'diff', a, a],
                          capture_output=True).returncode == 0
    r = subprocess.run([sys.executable, nvdev, 'trace', 'diff', a, b],
                       capture_output=True, text=True)
    assert r.returncode == 1 and 'OVERFLOW' in r.stdout


def test_real_boots_diff_equal_and_differ_by_monitor(boot_board):
    a = boot_board('nv11-ch7006', fresh=True)
    b = boot_board('nv11-ch7006', monitor0='noddc')
    equal, _ = tracediff.diff(a.trace_path, a.trace_path)
    assert equal
    equal, text = tracediff.diff(a.trace_path, b.trace_path)
    assert not equal and 'I2C_SENSE_0' in text, text


def test_i2c_transactions_show_the_edid_read(boot_board):
    """The DDC read of the monitor's EDID on the CRT's I2C port, as
    transactions: a START to 0x50 for reading, then the EDID header."""
    from nvdevkit import trace
    b = boot_board('nv11-ch7006')
    _, records = trace.read(b.trace_path)
    txn = [r for r in records if r.space == 'i2c-txn' and r.addr >> 16 == 0]
    starts = [i for i, r in enumerate(txn) if r.dir == 'S' and r.addr & 0xff == 0xa1
              and not r.value & 0x100]
    assert starts, 'no ACKed read START to 0x50 on I2C port 0'
    reads = []
    for i in starts:                    # probes read one byte; DDC reads 128
        data = []
        for r in txn[i + 1:]:
            if r.dir != 'B':
                break
            data.append(r.value & 0xff)
        reads.append(data)
    edid = max(reads, key=len)
    assert len(edid) >= 128, f'longest read is {len(edid)} bytes'
    assert edid[:8] == [0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0], edid[:8]
    text = decode.decode(b.trace_path)
    assert 'I2C0 START 0x50 read (ACK)' in text


def test_guest_marks_slice_the_trace(boot_board):
    """The init script marks the driver's load; nouveau's first access
    (BOOT_1, the endianness check) comes right after 'before-driver'."""
    from nvdevkit import trace
    b = boot_board('nv11-ch7006', cmdline='nouveau.noaccel=1', screendumps=True)
    marks = {}
    _, records = trace.read(b.trace_path, marks)
    assert {'before-driver', 'after-driver', 'console'} <= set(marks), marks
    assert marks['before-driver'] < marks['after-driver'] <= marks['console']
    first = next(r for r in records if r.seq >= marks['before-driver'] and r.space == 'mmio')
    assert (first.dir, first.addr) == ('R', 0x000004), first
