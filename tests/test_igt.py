"""IGT, the DRM subsystem's conformance suite, on nvdrm and nouveau.

The results must equal tests/igt/DRIVER.txt, which keeps every subtest's
result per board with the reason of each skip and failure.  IGT is not in
the repository: where no build is present (harness/igt/build-igt makes
one), the boot tests skip saying so.  The parser is tested on IGT's own
output format (lib/igt_core.c) without a build."""
import os

import pytest

from nvdevkit import igt

# What IGT 1.27.1 prints (lib/igt_core.c: _subtest_starting_message,
# _subtest_result_message, __igt_fail_assert, igt_require's skip).
SAMPLE = """nvdev-igt-run kms_addfb_basic
IGT-Version: 1.27.1-g2b29e8ac (x86_64) (Linux: 6.1.0 x86_64)
Starting subtest: unused-handle
Subtest unused-handle: SUCCESS (0.012s)
Starting subtest: addfb25-bad-modifier
(kms_addfb_basic:212) CRITICAL: Test assertion failure function addfb25_tests, file ../tests/kms_addfb_basic.c:546:
(kms_addfb_basic:212) CRITICAL: Failed assertion: igt_ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f) == -1
Subtest addfb25-bad-modifier: FAIL (0.004s)
Test requirement not met in function addfb25_tests, file ../tests/kms_addfb_basic.c:551:
Test requirement: is_i915_device(fd)
Subtest addfb25-x-tiled-legacy: SKIP (0.000s)
Subtest addfb25-framebuffer-vs-set-tiling: SKIP (0.000s)
nvdev-igt-exit kms_addfb_basic 98
nvdev-igt-run kms_vblank
Starting subtest: pipe-A-accuracy-idle
Starting dynamic subtest: pipe-A-HDMI-A-1
\x1b[1mDynamic subtest pipe-A-HDMI-A-1: SUCCESS (1.000s)\x1b[0m
Subtest pipe-A-accuracy-idle: SUCCESS (1.002s)
Starting subtest: pipe-B-query-busy
nvdev-igt-exit kms_vblank 139
nvdev-igt-run core_getversion
IGT-Version: 1.27.1
nvdev-igt-exit core_getversion 0
nvdev-igt-run kms_invalid_mode
Test requirement not met in function __igt_unique____real_main, file ../tests/kms_invalid_mode.c:300:
Test requirement: output
nvdev-igt-exit kms_invalid_mode 77
nvdev-igt-run kms_vblank --run-subtest pipe-B-query-idle
Test requirement not met in function run_subtests, file ../tests/kms_vblank.c:600:
Test requirement: !(pipe >= display->n_pipes)
nvdev-igt-exit kms_vblank 77
"""


def test_parse_reads_igt_output():
    r = igt.parse(SAMPLE)
    assert r['kms_addfb_basic@unused-handle'] == ('pass', None)
    assert r['kms_addfb_basic@addfb25-bad-modifier'] == (
        'fail', 'Failed assertion: igt_ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f) == -1')
    assert r['kms_addfb_basic@addfb25-x-tiled-legacy'] == ('skip', 'is_i915_device(fd)')
    # skipped by their group's fixture: no start, the fixture's requirement
    assert r['kms_addfb_basic@addfb25-framebuffer-vs-set-tiling'] == (
        'skip', 'is_i915_device(fd)')
    assert r['kms_vblank@pipe-A-accuracy-idle@pipe-A-HDMI-A-1'] == ('pass', None)
    assert r['kms_vblank@pipe-A-accuracy-idle'] == ('pass', None)
    # killed by a signal mid-subtest (128 + SIGSEGV)
    assert r['kms_vblank@pipe-B-query-busy'] == ('incomplete', 'exit 139')
    # binaries without subtests: the exit code (lib/igt_core.h IGT_EXIT_*)
    assert r['core_getversion'] == ('pass', None)
    assert r['kms_invalid_mode'] == ('skip', 'output')
    # a subtest asked for by name whose fixture skipped: named as asked
    assert r['kms_vblank@pipe-B-query-idle'] == ('skip', '!(pipe >= display->n_pipes)')
    assert len(r) == 10


def test_expectations_compare():
    results = igt.parse(SAMPLE)
    expect = {
        'kms_addfb_basic@*': ('pass', None),
        'kms_addfb_basic@addfb25-x-tiled-legacy': ('skip', 'Intel tiling'),
        'kms_addfb_basic@addfb25-framebuffer-vs-set-tiling': ('skip', 'Intel tiling'),
        'kms_vblank@*': ('pass', None),
        'kms_vblank@pipe-B-query-idle': ('skip', 'one head'),
        'core_getversion': ('pass', None),
        'kms_invalid_mode': ('skip', 'no output'),
        'kms_getfb@getfb-handle-zero': ('pass', None),
        igt.PASSES: (4, None),
    }
    diffs = igt.compare(results, expect)
    assert diffs == [
        'kms_addfb_basic@addfb25-bad-modifier: expected pass, got fail '
        '(Failed assertion: igt_ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f) == -1)',
        'kms_vblank@pipe-B-query-busy: expected pass, got incomplete (exit 139)',
        'kms_getfb@getfb-handle-zero: expected pass, did not run',
        '4 passes expected, 0 seen',
    ]
    # what no line names must pass, and the passes are counted
    del expect['kms_addfb_basic@*'], expect['kms_vblank@*']
    expect[igt.PASSES] = (4, None)
    assert igt.compare(results, expect) == [
        'kms_addfb_basic@addfb25-bad-modifier: expected pass, got fail '
        '(Failed assertion: igt_ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f) == -1)',
        'kms_vblank@pipe-B-query-busy: expected pass, got incomplete (exit 139)',
        'kms_getfb@getfb-handle-zero: expected pass, did not run',
        '4 passes expected, 3 seen',
    ]


def test_expectation_files_parse_and_justify():
    """Every expectations section parses, and every result other than a
    pass says why."""
    names = sorted(os.listdir(igt.EXPECTATIONS))
    assert 'nvdrm.txt' in names and 'nouveau.txt' in names
    for name in names:
        driver = name[:-4]
        for board, expect in igt.load_expectations(driver).items():
            assert expect, f'{name} [{board}] is empty'
            for test, (result, why) in expect.items():
                if test == igt.PASSES:
                    continue
                assert result in ('pass', 'skip', 'fail', 'timeout', 'crash',
                                  'incomplete', 'abort'), f'{name} {test}'
                if result != 'pass':
                    assert why, f'{name} [{board}] {test} {result}: no reason given'


# (board, driver, device properties): a second monitor where the board has
# a second head and output for it, so that two-pipe subtests run
RUNS = [
    ('nv04', 'nvdrm', {}),
    ('nv11-ch7006', 'nvdrm', {}),
    ('nv17', 'nvdrm', {'monitor1': 'default'}),
    ('nv43', 'nvdrm', {'monitor1': 'default'}),
]

# A few minutes a board: the ioctls, the property model, framebuffers, a
# modeset, leases and their uevents, flips and vblanks on each pipe and on
# two at once, a cursor over flips.  `nvdev igt --check` runs the whole
# set against the same expectations.
QUICK = (
    'core_getversion', 'core_auth', 'core_setmaster', 'drm_read',
    'kms_addfb_basic', 'kms_getfb', 'kms_prop_blob', 'kms_atomic',
    'kms_lease', 'kms_rmfb', 'kms_setmode@basic',
    'kms_flip@basic-*', 'kms_flip@2x-plain-flip-ts-check',
    'kms_vblank@pipe-A-query-idle', 'kms_vblank@pipe-B-query-idle',
    'kms_cursor_legacy@basic-flip-before-cursor',
)


@pytest.mark.boot
@pytest.mark.parametrize('board,driver,props', RUNS,
                         ids=[f'{b}-{d}' for b, d, _ in RUNS])
def test_igt_results_as_expected(built, tmp_path, board, driver, props):
    build = igt.build_dir()
    if not build:
        pytest.skip(igt.missing_message())
    expect = igt.load_expectations(driver)[board]
    b, results = igt.run(board, driver, QUICK, build=build, props=props,
                         outdir=str(tmp_path), built=built)
    assert b.report is not None, b.serial[-3000:]
    assert len(results) >= 100, f'IGT printed {len(results)} results'
    diffs = igt.compare(results, expect, complete=False)
    assert not diffs, '\n'.join(diffs)
