"""Upstream nouveau (unmodified Linux 6.1) against each board: it binds,
identifies the chip and its memory, and takes the VBIOS from PROM (from
the PCI ROM on the NV4x IGPs, whose PROM it does not read)."""
import pytest

from nvdevkit import report

BOARDS = ['nv04', 'nv05', 'nv10', 'nv11-ch7006', 'nv15', 'nv17', 'nv18', 'nv1a', 'nv1f', 'nv20', 'nv25', 'nv28', 'nv2a', 'nv30',
          'nv31', 'nv34', 'nv35', 'nv36', 'nv43', 'nv43-go',
          'nv40', 'nv41', 'nv42', 'nv45', 'nv47', 'nv49', 'nv4a', 'nv4b', 'nv44', 'nv46',
          'nv4e', 'nv4c', 'nv63', 'nv67', 'nv68']
BOARD = 'nv11-ch7006'
STALL_S = 2          # host seconds the slow reader stops for


@pytest.mark.parametrize('board', BOARDS)
def test_nouveau_binds(boot_board, board):
    b = boot_board(board)
    assert report.bound_driver(b) == 'nouveau', \
        'nouveau did not bind to the 10de device:\n' + '\n'.join(report.driver_lines(b))


@pytest.mark.parametrize('board', BOARDS)
def test_chipset_detected(boot_board, board_info, board):
    b = boot_board(board)
    want = board_info(board).get('chipset')
    chip = report.chipset(b)
    assert chip is not None, 'nouveau logged no "NVIDIA NVxx" line'
    assert chip[0] == want, f'nouveau detected {chip[0]}, board is an {want}'
    assert board_info(board).vbios['device_id'] == board_info(board).num('device')


@pytest.mark.parametrize('board', BOARDS)
def test_vram_size(boot_board, board_info, board):
    b = boot_board(board)
    want = board_info(board).num('vram_mb')
    got = report.vram(b)
    assert got is not None, 'nouveau logged no "fb: N MiB" line'
    assert got[0] == want, f'nouveau sized VRAM as {got[0]} MiB, board has {want}'
    ram = {'sdram': 'SDRAM', 'ddr': 'DDR1', 'sgram': 'SGRAM'}[board_info(board).get('ram_type')]
    if board_info(board).get('chipset').startswith('nForce'):
        ram = 'stolen'          # nv1a_ram_new: NVKM_RAM_TYPE_STOLEN
    assert got[1] == ram


def nouveau_reads_prom(chipset):
    """shadowrom.c, nvbios_prom_init: no PROM on NV_40-class chips from 0x4c
    (the IGPs C51, C61, C73, C67, C68; device/base.c puts 0x60-0x6f in
    NV_40 too).  nouveau then tries ACPI and takes the PCI ROM."""
    nv40_class = 0x40 <= chipset < 0x50 or 0x60 <= chipset < 0x70
    return not (nv40_class and chipset >= 0x4c)


@pytest.mark.parametrize('board', BOARDS)
def test_vbios_from_prom_with_valid_checksum(boot_board, board_info, board):
    b = boot_board(board)
    v = report.vbios(b)
    chipset = report.chipset(b)[1] >> 20 & 0x1ff
    want = 'PROM' if nouveau_reads_prom(chipset) else 'PCIROM'
    assert v['source'] == want, f'VBIOS taken from {v["source"]}, not {want}'
    assert v['checksum_ok'], f'{want} image scored {v["score"]} (4 = checksum ok)'
    if want == 'PCIROM':
        from nvdevkit import trace
        _, records = trace.read(b.trace_path)
        prom = [r for r in records if r.unit == 'PROM']
        assert not prom, f'nouveau read PROM on an IGP: {prom[0]}'
    major, chip, minor, micro = board_info(board).get('bios_version').split('.')
    assert v['version'].startswith(f'{int(major, 16):02x}.{int(chip, 16):02x}.'
                                   f'{int(minor, 16):02x}.{int(micro, 16):02x}')


@pytest.mark.parametrize('board', BOARDS)
def test_dcb_entries_as_the_board_declares(boot_board, board_info, board):
    b = boot_board(board)
    want = [(i, e['conn'], e['conf'])
            for i, e in enumerate(board_info(board).vbios['dcb']['entries'])]
    assert report.dcb(b) == want


@pytest.mark.parametrize('board', BOARDS)
def test_no_kernel_warnings(boot_board, board):
    b = boot_board(board)
    bad = [l for l in report.lines(b)
           if any(k in l for k in ('WARNING:', 'BUG:', 'Oops:', 'Call Trace'))]
    assert not bad, '\n'.join(bad)


def test_trace_shows_the_vbios_read_from_prom(boot_board):
    from nvdevkit import trace
    b = boot_board(BOARD)
    header, records = trace.read(b.trace_path)
    assert 'chipset=NV11' in header
    prom = [r for r in records if r.unit == 'PROM' and r.dir == 'R']
    assert len(prom) * 4 >= 65536, f'only {len(prom)} PROM reads in the trace'
    # nouveau clears the ROM shadow bit (PCI 0x50 through the 0x1850 mirror)
    # before reading PROM
    first_prom = prom[0].seq
    enable = [r for r in records if r.addr == 0x001850 and r.dir == 'W'
              and r.seq < first_prom and not r.value & 1]
    assert enable, 'PROM was read without clearing the ROM shadow bit first'


# What nouveau says when it does not like a VBIOS table.  (On NV04 nvkm
# always warns "DCB table not found": it ignores the DCB on that chip.)
VBIOS_COMPLAINTS = ('unknown i2c type', 'DCB version 0x', 'DCB header validation',
                    'Unknown LVDS', 'Do not understand', 'unsupported BMP',
                    'Bad BMP', 'BIT i table', 'pll limits', 'init failed',
                    'Unknown opcode', 'unknown opcode', 'error parsing')


@pytest.mark.parametrize('board', BOARDS)
def test_vbios_parses_without_complaint(boot_board, board):
    b = boot_board(board)
    bad = [l for l in report.driver_lines(b)
           if any(c in l for c in VBIOS_COMPLAINTS)]
    assert not bad, '\n'.join(bad)


def test_run_says_why_qemu_refused_the_board(tmp_path):
    """`nvdev run` with a device setting QEMU refuses: the summary gives
    QEMU's own message and the command fails (no guest ever ran)."""
    import subprocess
    from nvdevkit import paths
    r = subprocess.run([paths.repo('harness', 'nvdev'), 'run', '--board', BOARD,
                        '--set', 'tv=hdmi', '--outdir', str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode != 0, r.stdout
    assert 'QEMU refused to run the board:' in r.stdout, r.stdout
    assert 'tv=hdmi: expected composite, svideo, scart or none' in r.stdout, r.stdout


def test_report_whole_when_the_host_reads_slowly(built, boot_board, tmp_path, monkeypatch):
    """An interactive boot (the guest asks for pictures, so its report port
    is a socket the harness reads) whose harness stops reading for a while
    near the report's end, as a loaded host's can: the guest waits, and the
    whole report arrives.  (It lost its tail on a loaded CI machine: the
    guest's last close of the port waited for the UART in virtual time,
    which under icount runs on while the guest idles.)"""
    import socket
    import time
    import types
    from nvdevkit import boot as nvboot

    # where to stop: 2000 bytes before the end of a report of the same boot
    # (the guest is deterministic: a report's size is the same to a few
    # bytes), so that the guest has written it all into its tty; the
    # reference is a boot test_trace_tools makes too
    cmd = 'nouveau.noaccel=1'
    ref = boot_board(BOARD, cmdline=cmd, screendumps=True)
    size = len(ref.section('report').encode())
    stalls = []
    seen = bytearray()

    class SlowReader(socket.socket):
        def recv(self, n):
            data = super().recv(n)
            seen.extend(data)
            begin = seen.find(b'nvdev-report-begin')
            if not stalls and begin >= 0 and len(seen) - begin > size - 2000:
                stalls.append(time.monotonic())
                time.sleep(STALL_S)
            return data

    monkeypatch.setattr(nvboot, 'socket', types.SimpleNamespace(
        socket=SlowReader, AF_UNIX=socket.AF_UNIX, timeout=socket.timeout))
    b = nvboot.boot(board=BOARD, cmdline=cmd, outdir=str(tmp_path), built=built,
                    screendumps=True)
    assert stalls, 'the harness never saw the report begin'
    assert b.report is not None, b.serial[-2000:]
    # the whole of it: dmesg, the report's last list, ends where the
    # reference's ends (timestamps aside)
    def last(boot):
        return boot.report['dmesg'][-1].split('] ', 1)[-1]
    assert last(b) == last(ref), (last(b), last(ref))
