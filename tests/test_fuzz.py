"""The fuzzer (`nvdev fuzz`): it runs the device hard for a while with
no finding on today's code, and what it would report as a finding (QEMU
gone) becomes a reproducer script that replays it."""
import os
import signal

from nvdevkit import build, fuzz


def test_a_short_run_finds_nothing(tmp_path):
    """Five seconds of the board's golden trace mutated, random registers,
    VRAM, VGA ports, clock steps and screendumps (the plain build: the
    sanitizer build is `nvdev fuzz`'s default)."""
    lines = []
    execs, findings = fuzz.fuzz('nv11-ch7006', 5, seed=1, outdir=str(tmp_path),
                                sanitizers=False, slow=10.0, out=lines.append)
    assert execs > 1000, lines
    assert not findings, [(f.kind, f.detail, f.report[-2000:]) for f in findings]
    assert 'executions in 5 s' in lines[-1], lines


def test_qemu_gone_is_a_crash_finding_with_a_reproducer(qemu, board_info, tmp_path):
    run = fuzz.Run(qemu, board_info('nv11-ch7006').rom, 'nv11-ch7006', str(tmp_path),
                   slow=10.0, hang=30.0)
    run.start()
    try:
        assert run.execute('readl 0xe0000000') is None
        os.kill(run.d.vm.get_pid(), signal.SIGABRT)
        f = run.execute('writel 0xe0000140 0x1')
    finally:
        run.stop()
    assert f is not None and f.kind == 'crash', f and (f.kind, f.detail)
    base = fuzz.save(str(tmp_path), 1, f)
    with open(base + '.qtest') as script:
        cmds = [l.strip() for l in script if not l.startswith('#')]
    assert cmds == ['readl 0xe0000000', 'writel 0xe0000140 0x1']
    assert fuzz.replay_script(qemu, board_info('nv11-ch7006').rom, base + '.qtest') is None, \
        'the two commands alone do not crash the device'
    assert build.qemu_dir()


def test_a_slow_command_is_timed_again_before_it_counts(qemu, board_info):
    """A slow finding is replayed into a fresh machine and timed again: a
    command that is fast there (the host was busy) is no finding; one that
    exceeds the bound again is (here a bound of 0 s, which every command
    exceeds)."""
    rom = board_info('nv11-ch7006').rom
    script = ['# reproducer', 'writel 0xe0009200 0x1', 'readl 0xe0009400']
    f = fuzz.Finding('slow', 'readl 0xe0009400 took 1.50 s of host time', script)
    f.bound = 1.0
    assert fuzz.confirm(qemu, rom, f) is None
    f.bound = 0.0
    again = fuzz.confirm(qemu, rom, f)
    assert again is not None and again.kind == 'slow', again and again.detail
    assert again.detail.startswith('readl 0xe0009400 took')
