"""The nvdev command."""
import argparse
import os
import subprocess
import sys
import time

from . import boot, build, decode, paths, replay, report, trace, tracediff


def cmd_setup(args):
    build.setup()
    return 0


def cmd_run(args):
    firmware = args.firmware
    if args.ctxprog_firmware:
        if firmware:
            raise SystemExit('nvdev run: --firmware or --ctxprog-firmware, not both')
        firmware = build.ctxprog_firmware()
    board = os.path.basename(args.vbios) if args.vbios else args.board
    b = boot.boot(board=board, driver=args.driver, cmdline=args.cmdline,
                  outdir=args.outdir, trace=not args.no_trace,
                  timeout=args.timeout, firmware=firmware, vbios=args.vbios,
                  props=dict(p.split('=', 1) for p in args.set))
    print(report.summary(b))
    if b.report is None:
        return 1
    return 0


def cmd_test(args):
    build.ensure_built()
    tools = build.build_tools()
    step = build.step
    step('meson test (C unit tests)')
    rc = subprocess.run(['meson', 'test', '-C', tools, '--print-errorlogs']).returncode
    if rc:
        return rc
    env = dict(os.environ, PYTHONPATH=paths.repo('harness'))
    targets = args.pytest_args or [paths.repo('tests')]
    opts = []
    # one worker per core, tests handed out one by one (a boot is made once
    # for every worker: tests/conftest.py); -n 0 or -j 1 runs serially
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if jobs > 1 and not any(a == '-n' or a.startswith(('-n', '--numprocesses'))
                            for a in targets):
        opts += ['-n', str(jobs), '--dist', 'load']
    junit = os.path.abspath(args.junit or paths.cache('results', 'junit.xml'))
    os.makedirs(os.path.dirname(junit), exist_ok=True)
    opts += [f'--junitxml={junit}', '-o', 'junit_suite_name=nvdev']
    step(f'pytest tests/ ({jobs} worker{"s" if jobs > 1 else ""})')
    rc = subprocess.run([sys.executable, '-m', 'pytest'] + opts + targets,
                        env=env, cwd=paths.REPO).returncode
    if rc == 5:                  # pytest's code for "no tests collected"
        print('nvdev test: pytest collected no tests: that is a failure',
              file=sys.stderr)
    print(f'nvdev test: JUnit XML in {junit}')
    return rc


def cmd_fuzz(args):
    from . import fuzz
    if args.replay:
        qemu = fuzz.qemu_binary(sanitizers=not args.no_sanitizers)
        for path in args.replay:
            f = fuzz.replay_script(qemu, build.build_rom(args.board), path)
            print(f'{path}: ' + (f'{f.kind}: {f.detail}\n{f.report}' if f else
                                 'the machine survived'))
            if f:
                return 1
        return 0
    bad = 0
    for board in args.board_list or [args.board]:
        _, findings = fuzz.fuzz(board, args.seconds, seed=args.seed, outdir=args.outdir,
                                sanitizers=not args.no_sanitizers)
        bad += len(findings)
    return 1 if bad else 0


def cmd_trace(args):
    if args.action == 'stats':
        print(trace.format_stats(args.files[0]))
    elif args.action == 'decode':
        print(decode.decode(args.files[0], raw=args.raw))
    elif args.action == 'replay':
        rom = build.build_rom(args.board)
        n, mismatch, secs = replay.replay(args.files[0], rom)
        if mismatch:
            print(replay.describe(args.files[0], mismatch))
            return 1
        print(f'replayed {n} accesses in {secs:.2f} s ({n / secs:.0f}/s): '
              'every read matched')
    elif args.action in ('export-mmiotrace', 'import-mmiotrace'):
        from . import mmiotrace
        if len(args.files) != 2:
            raise SystemExit(f'nvdev trace {args.action} IN OUT')
        fn = mmiotrace.export if args.action == 'export-mmiotrace' else mmiotrace.import_
        print(f'{fn(*args.files)} BAR0 accesses written to {args.files[1]}')
    elif args.action == 'bless':
        from . import golden
        for board in args.files:
            print(f'blessed {golden.bless(board, force=args.force)}')
    elif args.action == 'diff':
        if len(args.files) != 2:
            raise SystemExit('nvdev trace diff A B')
        equal, text = tracediff.diff(*args.files)
        print(text)
        return 0 if equal else 1
    return 0


def cmd_igt(args):
    from . import igt
    props = dict(p.split('=', 1) for p in args.set)
    specs = args.tests or list(igt.DEFAULT_TESTS)
    b, results = igt.run(args.board, args.driver, specs, build=args.igt_build,
                         props=props, outdir=args.outdir, timeout=args.timeout,
                         cmdline=args.cmdline)
    if b.report is None:
        print(report.summary(b))
        return 1
    for name, (result, reason) in sorted(results.items()):
        print(f'{result:10} {name}' + (f'  ({reason})' if reason and result != 'pass' else ''))
    print(f'{args.board} {args.driver}: {igt.summary(results)}; output in {b.outdir}/igt.log')
    rc = 0
    if args.check:
        expect = igt.load_expectations(args.driver).get(args.board)
        if expect is None:
            raise SystemExit(f'nvdev igt: tests/igt/{args.driver}.txt has no [{args.board}]')
        diffs = igt.compare(results, expect)
        print('\n'.join(diffs) if diffs else 'as expected')
        rc = 1 if diffs else 0
    elif any(r not in ('pass', 'skip') for r, _ in results.values()):
        rc = 1
    if args.write_expectations:
        with open(args.write_expectations, 'a') as f:
            f.write(igt.format_results(args.board, results, args.driver))
    return rc


def cmd_coverage(args):
    """Run an nvdev command on the coverage kernel, then report."""
    from . import coverage
    os.environ['NVDEV_KERNEL_VARIANT'] = 'gcov'
    if args.outdir:
        os.environ[coverage.ENV_DIR] = os.path.abspath(args.outdir)
    if not args.keep:
        coverage.reset()
    rc = 0
    if args.command:
        start = time.monotonic()
        rc = main(args.command)
        print(f'nvdev coverage: {" ".join(args.command)} took '
              f'{time.monotonic() - start:.0f} s on the coverage kernel')
    html, table = coverage.report()
    with open(table) as f:
        print(f.read().split('\n\n')[0])
    print(f'nvdev coverage: HTML in {html}/index.html, per-file table in {table}')
    return rc


def cmd_lava_job(args):
    from . import lava
    out = args.output or f'{os.path.splitext(os.path.basename(args.board))[0]}-{args.driver}.yaml'
    lava.write(out, args.board, args.driver, args.cmdline, args.base_url)
    lava.validate(out)
    print(f'{out}: a LAVA job for {args.board} with {args.driver} '
          "(valid against lava-common's job schema)")
    return 0


def cmd_bench(args):
    from . import bench
    print({'boot': bench.bench_boot, 'trace': bench.bench_trace,
           'accel': bench.bench_accel, 'suite': bench.bench_suite}[args.what](args.runs))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog='nvdev', description=__doc__)
    sub = p.add_subparsers(dest='cmd', required=True)

    sub.add_parser('setup', help='install packages, build QEMU, kernel, initramfs')

    r = sub.add_parser('run', help='boot a board and summarise what the driver did')
    r.add_argument('--board', default=paths.DEFAULT_BOARD, metavar='BOARD',
                   help='a board of vbios/boards (' + ', '.join(paths.boards()) +
                   ') or the path to a board .ini')
    r.add_argument('--vbios', metavar='FILE.rom',
                   help="boot this VBIOS image (a dump of your own card): chipset "
                        "from its PCIR; VRAM, straps and RAM type from its nvdev "
                        "board record, or defaults that --set vram_mb=, strap=, "
                        "ram_type= override")
    r.add_argument('--driver', default='nouveau')
    r.add_argument('--cmdline', default='', help='extra kernel command line')
    r.add_argument('--outdir', help='where the logs and the trace go')
    r.add_argument('--no-trace', action='store_true')
    r.add_argument('--timeout', type=int, default=boot.DEFAULT_TIMEOUT)
    r.add_argument('--set', action='append', default=[], metavar='PROP=VALUE',
                   help='nvdev device property, e.g. monitor0=none')
    r.add_argument('--firmware', metavar='DIR',
                   help="a tree put in the guest as /lib/firmware")
    r.add_argument('--ctxprog-firmware', action='store_true',
                   help='our generated nouveau/nvXX.ctxprog and .ctxvals '
                        '(nvctxprog gen) in /lib/firmware')

    fz = sub.add_parser('fuzz', help='fuzz BAR0/BAR1/VGA ports over qtest in an '
                        'ASan+UBSan QEMU; findings as qtest reproducers')
    fz.add_argument('--board', default=paths.DEFAULT_BOARD, choices=paths.boards())
    fz.add_argument('--boards', dest='board_list', nargs='+', choices=paths.boards(),
                    metavar='BOARD', help='several boards, one after the other')
    fz.add_argument('--seconds', type=int, default=60)
    fz.add_argument('--seed', type=int)
    fz.add_argument('--outdir', help='where findings go (default: the cache)')
    fz.add_argument('--no-sanitizers', action='store_true',
                    help='the plain QEMU build (no ASan/UBSan build needed)')
    fz.add_argument('--replay', nargs='+', metavar='FILE.qtest',
                    help='run reproducers instead of fuzzing')
    t = sub.add_parser('test', help='meson test, then pytest over tests/')
    t.add_argument('-j', '--jobs', type=int, metavar='N',
                   help='pytest workers (default: one per core; 1 runs serially)')
    t.add_argument('--junit', metavar='FILE',
                   help='where the JUnit XML goes (default: the cache\'s results/junit.xml)')
    t.add_argument('pytest_args', nargs='*')

    tr = sub.add_parser('trace', help='register trace tools')
    tr.add_argument('action', choices=['stats', 'decode', 'diff', 'replay', 'bless',
                             'export-mmiotrace', 'import-mmiotrace'],
                    help='bless BOARD…: write tests/golden/BOARD.trace.gz anew')
    tr.add_argument('--board', default=paths.DEFAULT_BOARD, choices=paths.boards(),
                    help='replay: the board the trace was taken on')
    tr.add_argument('files', nargs='+')
    tr.add_argument('--raw', action='store_true', help='decode: show index writes')
    tr.add_argument('--force', action='store_true',
                    help='bless: write the trace even if the boot still matches it')

    lj = sub.add_parser('lava-job', help='a LAVA job definition (QEMU job) for a board '
                        'and driver, for a LAVA lab to run')
    lj.add_argument('--board', default=paths.DEFAULT_BOARD,
                    help='a board of vbios/boards or the path to a board .ini')
    lj.add_argument('--driver', default='nouveau', choices=['nouveau', 'nvdrm'])
    lj.add_argument('--cmdline', default='', help='extra kernel command line')
    lj.add_argument('--base-url', metavar='URL',
                    help='where the lab finds the kernel, initramfs and ROM '
                         '(default: file:// URLs of the local builds)')
    lj.add_argument('-o', '--output', metavar='FILE', help='default: BOARD-DRIVER.yaml')

    ig = sub.add_parser('igt', help="IGT's KMS and core tests in the guest, a result "
                        'per subtest (IGT built by harness/igt/build-igt)')
    ig.add_argument('tests', nargs='*', metavar='TEST',
                    help='BINARY or BINARY@SUBTEST (globs as IGT takes them); '
                         'default: the vendor-neutral KMS and core set')
    ig.add_argument('--igt-build', metavar='DIR',
                    help='an IGT build directory (default: $NVDEV_IGT_BUILD, or '
                         'the cache\'s igt/build)')
    ig.add_argument('--board', default=paths.DEFAULT_BOARD,
                    help='a board of vbios/boards or the path to a board .ini')
    ig.add_argument('--driver', default='nvdrm', choices=['nouveau', 'nvdrm'])
    ig.add_argument('--cmdline', default='', help='extra kernel command line')
    ig.add_argument('--set', action='append', default=[], metavar='PROP=VALUE',
                    help='nvdev device property, e.g. monitor1=default (a second monitor)')
    ig.add_argument('--timeout', type=int, default=3600)
    ig.add_argument('--outdir', help='where the logs go')
    ig.add_argument('--check', action='store_true',
                    help="compare with tests/igt/DRIVER.txt's section for the board")
    ig.add_argument('--write-expectations', metavar='FILE',
                    help='append the results as an expectations section')

    cv = sub.add_parser('coverage', help='run an nvdev command (run, test, igt) on a '
                        'kernel whose nouveau and nvdrm are instrumented, and report '
                        'the lines it reached (lcov)')
    cv.add_argument('--outdir', help='where counters and the report go '
                    '(default: the cache\'s coverage/data)')
    cv.add_argument('--keep', action='store_true',
                    help='add to the counters of earlier runs instead of starting anew')
    cv.add_argument('command', nargs=argparse.REMAINDER,
                    help='e.g. test, or run --board nv17 (none: report what is there)')

    be = sub.add_parser('bench', help='benchmarks, reported as side-by-side ratios')
    be.add_argument('what', choices=['boot', 'trace', 'accel', 'suite'])
    be.add_argument('--runs', type=int, default=5)

    args = p.parse_args(argv)
    return {'setup': cmd_setup, 'run': cmd_run, 'test': cmd_test, 'fuzz': cmd_fuzz,
            'trace': cmd_trace, 'bench': cmd_bench,
            'lava-job': cmd_lava_job, 'igt': cmd_igt, 'coverage': cmd_coverage}[args.cmd](args)
