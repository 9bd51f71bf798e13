"""`nvdev igt`: IGT (igt-gpu-tools, the DRM subsystem's conformance suite)
in the guest: its KMS and core tests run on a board with a driver, each
subtest's result read from what the test prints, and compared with the
expectations a file keeps per driver (tests/igt/DRIVER.txt).

IGT is not part of the project: harness/igt/build-igt builds it from a
source tree into the cache, and everything here finds it there (or where
--igt-build or NVDEV_IGT_BUILD say)."""
import fnmatch
import os
import re
import subprocess
import time

from . import boot as nvboot
from . import initramfs, paths

EXPECTATIONS = paths.repo('tests', 'igt')

# What a KMS driver of any vendor can be asked: the core ioctls, the KMS
# object and property model, framebuffers, mode setting, cursors, page
# flips and vblanks.  Vendor tests (gem_*, i915_*, amd_*) and tests of
# what pre-NV50 display hardware lacks (CRC, writeback, DSC, PSR, VRR,
# HDR, scalers) are left out; the expectations say why a subtest skips.
DEFAULT_TESTS = (
    'core_auth', 'core_getclient', 'core_getstats', 'core_getversion',
    'core_setmaster', 'core_setmaster_vs_auth', 'drm_read',
    'kms_addfb_basic', 'kms_atomic', 'kms_atomic_interruptible',
    'kms_cursor_legacy', 'kms_flip_event_leak', 'kms_force_connector_basic',
    'kms_getfb', 'kms_invalid_mode', 'kms_lease', 'kms_prop_blob',
    'kms_properties', 'kms_rmfb', 'kms_sequence', 'kms_setmode',
    'kms_sysfs_edid_timing', 'kms_universal_plane', 'kms_vblank',
    'kms_flip',
)

# The guest CPU IGT's flip tests run on: 2^2 ns per instruction (250
# MIPS) instead of the boots' 2^4.  They expect a machine that prepares
# two heads' page flips well within a frame (the cards' contemporaries ran
# at 2-3 GHz); at 62.5 MIPS the two-head ones miss a frame now and then:
# kms_flip's, and kms_cursor_legacy's 2x-(long-)flip-vs-cursor on nv43,
# where two children hammering the cursor ioctls left the parent's flip on
# pipe A submitted after the next vblank (352 != 351), one frame late.
# Virtual time stays deterministic, but busy guest time costs four times
# the host time, so only these binaries get the fast CPU, in a boot of
# their own.
FAST_CPU_SHIFT = 2

# The guest's RAM in IGT's boots: its binaries and libraries sit in the
# initramfs (tmpfs), and TTM evicts VRAM buffers to system memory; with the
# boots' 256 MiB nouveau's kms_flip run ended in the OOM killer inside
# ttm_mem_evict_first (flip-vs-expired-vblank, exit 137).  A PC these cards
# sat in had 512 MiB to 2 GiB.
MEMORY_MB = 1024
FAST_CPU = ('kms_flip', 'kms_cursor_legacy')

# Binaries whose subtests run one process each, as igt_runner runs every
# subtest: IGT 1.27.1's kms_lease leaks a lease when lease_unleased_connector
# skips (one connector: kms_lease.c:675 returns before :687 ends it), and in
# one process every later lease would then fail with EBUSY (fixed upstream
# by 354853b34, which does not apply to 1.27.1).
# kms_setmode too: on a connector with two encoders that is not DisplayPort
# it fails an assertion (kms_setmode.c:320) outside its dynamic subtests
# after one of them has passed, which IGT answers with abort()
# (igt_core.c:1808), taking every later subtest with it on a DVI-I board.
SEPARATE = ('kms_lease', 'kms_setmode')

# IGT's exit codes (lib/igt_core.h)
EXIT = {0: 'pass', 77: 'skip', 78: 'timeout', 79: 'fail', 98: 'fail',
        112: 'abort'}
WORDS = {'SUCCESS': 'pass', 'FAIL': 'fail', 'SKIP': 'skip', 'CRASH': 'crash',
         'TIMEOUT': 'timeout'}


def build_dir(path=None):
    """IGT's build directory, checked to hold its tests."""
    path = path or os.environ.get('NVDEV_IGT_BUILD') or paths.cache('igt', 'build')
    return path if os.path.isfile(os.path.join(path, 'tests', 'kms_addfb_basic')) else None


def missing_message():
    return ('no IGT build: build one with harness/igt/build-igt SRC (SRC: an '
            'igt-gpu-tools 1.27.1 source tree), or name one with --igt-build '
            'or NVDEV_IGT_BUILD')


def split(spec):
    """'kms_flip@basic-*' -> ('kms_flip', 'basic-*'); a bare binary runs
    all its subtests."""
    binary, _, subtests = spec.partition('@')
    return binary, subtests


def overlay(build, specs, out):
    """An initramfs overlay holding the IGT binaries @specs name (under
    /igt), the libraries they load (at the host's paths: the guest's
    loader searches the same system directories) and /igt/list."""
    binaries = []
    for spec in specs:
        b, _ = split(spec)
        path = os.path.join(build, 'tests', b)
        if not os.path.isfile(path):
            raise SystemExit(f'nvdev igt: {path}: no such IGT test')
        if path not in binaries:
            binaries.append(path)
    libs = []
    env_path = os.path.join(build, 'lib')
    for b in binaries:
        for lib in initramfs.shared_libs(b, [env_path]):
            if lib not in libs:
                libs.append(lib)
    lines = []
    for spec in specs:
        b, subtests = split(spec)
        if subtests:
            lines.append(f'{b} --run-subtest {subtests}')
        elif b in SEPARATE:
            lines += [f'{b} --run-subtest {t}' for t in list_subtests(build, b)]
        else:
            lines.append(b)
    listing = ''.join(line + '\n' for line in lines)
    with open(out, 'wb') as f:
        c = initramfs.Cpio(f)
        for b in binaries:
            c.file('igt/' + os.path.basename(b), initramfs.read(b), 0o755)
        for lib in libs:
            # libigt sits in the build tree; the rest where the host has them
            dest = lib if not lib.startswith(build) else \
                '/usr/lib/x86_64-linux-gnu/' + os.path.basename(lib)
            c.file(dest, initramfs.read(os.path.realpath(lib)), 0o755)
        c.file('igt/list', listing.encode())
        c.trailer()
    return out


def list_subtests(build, binary):
    """A test's subtests, as it lists them (no device needed)."""
    r = subprocess.run([os.path.join(build, 'tests', binary), '--list-subtests'],
                       capture_output=True, text=True, timeout=60)
    return [t for t in r.stdout.split() if t]


START = re.compile(r'^Starting (dynamic )?subtest: (\S+)')
END = re.compile(r'^(Dynamic subtest|Subtest) (\S+): (\w+)')
REQUIREMENT = re.compile(r'^Test requirement: (.*)')
ANSI = re.compile(r'\x1b\[[0-9;]*m')


def parse(text):
    """IGT's output (several binaries, between nvdev-igt-run and
    nvdev-igt-exit lines) -> {BINARY@SUBTEST[@DYNAMIC]: (result, reason)};
    reason is the unmet requirement of a skip, or the first critical line
    of a failure.  A binary without subtests is named alone; a subtest
    that started and never ended is 'incomplete'."""
    results = {}
    binary = None
    subtest = dynamic = asked = None
    reason = dyn_reason = None
    no_dynamic = False
    for line in text.splitlines():
        line = ANSI.sub('', line).rstrip('\r')
        if line.startswith('nvdev-igt-run '):
            words = line.split()
            binary = words[1]
            # a run of named subtests that printed none of them (a
            # fixture's requirement not met) is named for what it asked
            asked = (words[words.index('--run-subtest') + 1]
                     if '--run-subtest' in words[:-1] else None)
            subtest = dynamic = reason = dyn_reason = None
            ran_subtests = no_dynamic = False
            continue
        if binary is None:
            continue
        if line.startswith('nvdev-igt-exit '):
            rc = int(line.split()[2])
            # what it last said before it died, if anything
            died = f'exit {rc}' + (f': {reason}' if reason else '')
            if subtest:
                name = f'{binary}@{subtest}' + (f'@{dynamic}' if dynamic else '')
                results[name] = ('incomplete', died)
            if dynamic and subtest:
                results.setdefault(f'{binary}@{subtest}', ('incomplete', died))
            if not ran_subtests:
                results[f'{binary}@{asked}' if asked else binary] = (
                    EXIT.get(rc, 'fail'),
                    reason or (f'exit {rc}' if rc not in (0, 77) else None))
            binary = None
            continue
        m = START.match(line)
        if m:
            ran_subtests = True
            if m.group(1):
                dynamic = m.group(2)
            else:
                subtest, dynamic = m.group(2), None
            reason = None
            continue
        m = END.match(line)
        if m:
            result = WORDS.get(m.group(3), m.group(3).lower())
            if m.group(1) == 'Dynamic subtest':
                results[f'{binary}@{subtest}@{m.group(2)}'] = (result, reason)
                dynamic = None
                dyn_reason = reason or dyn_reason
                reason = None
            else:
                # a subtest says no more than its dynamic subtests did
                if result != 'pass' and reason is None:
                    reason = dyn_reason or ('no dynamic subtest ran'
                                            if no_dynamic else None)
                results[f'{binary}@{m.group(2)}'] = (result, reason)
                dyn_reason, no_dynamic = None, False
                # subtests skipped by their group's fixture end without a
                # start, all for the requirement the fixture printed
                if subtest is not None:
                    reason = None
                subtest = dynamic = None
            continue
        if line.startswith('No dynamic tests executed'):
            no_dynamic = True
            continue
        m = REQUIREMENT.match(line)
        if m and reason is None:
            reason = m.group(1).strip()
        elif 'CRITICAL: ' in line:
            text = line.split('CRITICAL: ', 1)[1].strip()
            # the failed assertion says more than where it is
            if reason is None or text.startswith('Failed assertion:'):
                reason = text
    return results


def run(board, driver, specs=DEFAULT_TESTS, build=None, props=None,
        outdir=None, timeout=3600, built=None, cmdline=''):
    """Boot @board with @driver and run the IGT tests @specs: (Boot,
    results by name)."""
    build = build_dir(build)
    if not build:
        raise SystemExit('nvdev igt: ' + missing_message())
    if outdir is None:
        outdir = paths.cache('runs', f'{board}-{driver}-igt-{time.strftime("%Y%m%d-%H%M%S")}')
    fast = [s for s in specs if split(s)[0] in FAST_CPU]
    groups = [(outdir, [s for s in specs if s not in fast], nvboot.ICOUNT_SHIFT),
              (os.path.join(outdir, 'fast-cpu'), fast, FAST_CPU_SHIFT)]
    first = None
    texts = []
    for out, group, shift in groups:
        if not group:
            continue
        os.makedirs(out, exist_ok=True)
        ov = overlay(build, group, os.path.join(out, 'igt.cpio'))
        b = nvboot.boot(board=board, driver=driver, outdir=out, built=built,
                        cmdline=f'nvdev.igt=1 {cmdline}'.strip(), props=props,
                        timeout=timeout, trace=False, overlays=[ov],
                        icount_shift=shift, memory=MEMORY_MB)
        first = first or b
        if b.report is None:
            return b, parse(''.join(texts))
        texts.append(b.section('igt') or '')
    text = ''.join(texts)
    with open(os.path.join(outdir, 'igt.log'), 'w') as f:
        f.write(text)
    return first, parse(text)


# ---- expectations -----------------------------------------------------------
#
# tests/igt/DRIVER.txt: sections [BOARD], then lines
#     NAME RESULT [# why]
# NAME is BINARY@SUBTEST[@DYNAMIC] or a glob of such names (an exact line
# wins over a glob); a result other than pass says why.  What no line
# names must pass, and a line
#     passes N
# says how many results those are, so that a subtest that stops running
# is seen too.

PASSES = '.passes'


def load_expectations(driver):
    path = os.path.join(EXPECTATIONS, f'{driver}.txt')
    out = {}
    board = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text, _, why = line.partition('#')
            text = text.strip()
            if not text:
                continue
            if text.startswith('[') and text.endswith(']'):
                board = text[1:-1]
                out.setdefault(board, {})
                continue
            words = text.split()
            if board is None or len(words) != 2:
                raise ValueError(f'{path}:{n}: expected "NAME RESULT [# why]"')
            if words[0] == 'passes':
                out[board][PASSES] = (int(words[1]), None)
                continue
            out[board][words[0]] = (words[1], why.strip() or None)
    return out


def expected_for(expect, name):
    """The result a line names for @name, or None if none does."""
    if name in expect:
        return expect[name][0]
    for pattern, (result, _) in expect.items():
        if pattern != PASSES and fnmatch.fnmatchcase(name, pattern):
            return result
    return None


def compare(results, expect, complete=True):
    """What differs: lines 'NAME: expected X, got Y'.  With @complete
    false the results are of a subset of the tests: what did not run, and
    the count of passes, are not asked about."""
    diffs = []
    passes = 0
    for name, (result, reason) in sorted(results.items()):
        want = expected_for(expect, name)
        if want is None and result == 'pass':
            passes += 1
        elif (want or 'pass') != result:
            diffs.append(f'{name}: expected {want or "pass"}, got {result}'
                         + (f' ({reason})' if reason else ''))
    if not complete:
        return diffs
    for name in sorted(n for n in expect
                       if n != PASSES and not any(c in n for c in '*?[')):
        if name not in results:
            diffs.append(f'{name}: expected {expect[name][0]}, did not run')
    if PASSES in expect and expect[PASSES][0] != passes:
        diffs.append(f'{expect[PASSES][0]} passes expected, {passes} seen')
    return diffs


def summary(results):
    counts = {}
    for result, _ in results.values():
        counts[result] = counts.get(result, 0) + 1
    return ', '.join(f'{counts[k]} {k}' for k in sorted(counts))


# Why a subtest does not pass, from what IGT printed (its unmet requirement
# or failed assertion) or the subtest's name: first match.  Where a
# reason is IGT's own assumption, the IGT source line says so.
EXPLAIN = [
    (r'nve0_fifo|0x80000001', 'IGT 1.27.1 makes every nouveau framebuffer with a '
     'Kepler copy-engine channel (igt_fb.c:1149, igt_nouveau.c:234: NVE0 channel '
     'class 0x80000001); nouveau has no such channel before Kepler (ENOENT)'),
    (r'pipe >= display->n_pipes', 'no such CRTC: pre-NV50 chips have one (NV04-NV10, '
     'NV15, NV1A, NV2x) or two heads'),
    (r' (modes|found)$', 'no second output on a second CRTC for IGT\'s '
     'two-pipe subtests (kms_flip.c:1590, kms_cursor_legacy.c:270): one head on '
     'NV04; on NV11 the second head has the TV alone'),
    (r'crc/control', 'no CRC unit in pre-NV50 display: nothing to capture'),
    (r'is_i915_device|igt_require_intel|has_ban_period|gem_available_fences',
     'Intel (i915) only'),
    (r'max_dotclock != 0', 'IGT reads the maximum dot clock from i915\'s debugfs '
     '(kms_invalid_mode.c): Intel only'),
    (r'width <= 64 && height <= 64', 'the hardware cursor is 64x64 at most'),
    (r'/sys/power', 'no system suspend in the guest (allnoconfig kernel without '
     'ACPI; QEMU\'s pc machine suspends through ACPI)'),
    (r'igt_setup_runtime_pm', 'no runtime PM in the guest kernel (CONFIG_PM off)'),
    (r'implicit-plane-lease .*plane_idx', 'nouveau\'s pre-NV50 display has no cursor '
     'plane: dispnv04 drives the cursor through the legacy CRTC hooks (crtc.c '
     'cursor_set/cursor_move); its planes are the primary and the NV10 overlay',
     'nouveau'),
    (r'plane_idx >= 0 && plane_idx < pipe->n_planes|n_planes > 1',
     'no overlay plane: the driver exposes a primary and a cursor plane per head '
     '(the NV10+ video overlay is not a KMS plane here)'),
    (r'FB_DAMAGE_CLIPS', 'no FB_DAMAGE_CLIPS: planes scan out of VRAM directly'),
    (r'cursor_slowpath', 'IGT: toggling the cursor is a slow path on every driver '
     '(kms_cursor_legacy.c:310)'),
    (r'target > 1', 'IGT measures fewer than 8 legacy cursor updates per frame '
     'under TCG (kms_cursor_legacy.c:706): emulation speed'),
    (r'no dynamic subtest ran', 'no two connectors the driver lets share a CRTC '
     '(possible_clones 0, as nouveau\'s dispnv04)'),
    (r'load_detect_test|igt_params_save_and_set', 'IGT sets i915\'s module parameter '
     'load_detect_test (kms_force_connector_basic.c:81): no other driver has it'),
    (r'kms_lease@.*(make_lease|create_lease)', 'IGT 1.27.1: lease_unleased_connector '
     'skips on a board with one connector without ending its lease (kms_lease.c:675 '
     'before :687), so every later lease is EBUSY; upstream 354853b34 fixes it', 'nvdrm'),
    (r'flip-vs-panning.*__kms_addfb', 'IGT asks for a framebuffer twice the mode\'s '
     'width; the TNT takes 2048 at most (nouveau_display.c:680)'),
    (r'connector_type == 10', 'IGT: a connector with two encoders must be '
     'DisplayPort (kms_setmode.c:320, Intel\'s MST); DVI-I has a DAC and a TMDS '
     'encoder, and IGT aborts'),
    (r'kms_setmode@.*exit 134', 'IGT aborted on the DVI-I connector: the assertion '
     'at kms_setmode.c:320 fails outside a dynamic subtest after one passed, and '
     'igt_core.c:1808 calls abort()'),
    (r'vbl.sequence == vblank_start \+ 1', 'a flip on one pipe submitted while '
     'children hammer both cursors missed its frame: IGT expects a faster CPU than '
     'the guest\'s (kms_cursor_legacy runs at 250 MIPS, FAST_CPU above)'),
    (r'needs_retry_after_link_reset|'
     r'do_page_flip\(o, new_fb_id, 0\) == -16|0\.9 \* actual_frame_time|'
     r'kms_flip@.*exit 137',
     'flips complete frames late on this NV4x board (unexpected flip sequence; '
     'nv17 passes the same subtests): not analysed yet', 'nvdrm'),
    # nouveau's own behaviour, read in the 6.1 tree (dispnv04, DRM core)
    (r'Failed assertion: ret == 0$', 'nouveau\'s NV10 overlay plane has a COLOR_RANGE '
     'property (dispnv04/overlay.c:345) that its set_property refuses '
     '(overlay.c:251-264: EINVAL for any but its own and COLOR_ENCODING), so every '
     'commit of IGT\'s that sets the plane\'s properties fails (seen after '
     'SetProp COLOR_RANGE in each); so on hardware', 'nouveau'),
    (r'count_values != 1 \|\| immutable', 'an enum property with one value that can '
     'be set: the NV10 overlay\'s COLOR_RANGE offers LIMITED alone '
     '(dispnv04/overlay.c:345-350)', 'nouveau'),
    (r'modes\[0\]\.hdisplay == 1920|i == temp->count_modes', 'nouveau\'s get_modes '
     'gives the modes of the EDID its own detect read (nouveau_connector.c:955), and '
     'DRM adds the debugfs override EDID\'s modes only when get_modes finds none '
     '(drm_probe_helper.c:380)', 'nouveau'),
    (r'is_atomic', 'nouveau drives pre-NV50 display without atomic modesetting '
     '(DRIVER_ATOMIC only on nouveau.atomic=1, nouveau_drm.c:796, which dispnv04 '
     'does not support)', 'nouveau'),
    (r'bad_connector_id == 0|bad_crtc_id == 0|wrong_crtc_id', 'one CRTC or one '
     'connector: none other to lease wrongly'),
    (r'igt_lease_change_detected', 'no udevd in the guest: IGT listens on libudev\'s '
     'netlink group, which only udevd feeds'),
    (r'crtc->buffer_id == 0', 'the close is the last one, so DRM restores fbdev\'s '
     'mode (drm_file.c:462 drm_lastclose); IGT keeps a second fd open on i915 alone '
     '(lib/drmtest.c:583)'),
    (r'stealing.*ret == 0|ret == 0.*stealing', 'IGT: each connector of an invalid clone '
     'must work alone on the CRTC (kms_setmode.c:409), but VGA reaches head A only '
     '(DCB heads 0x1)'),
    (r'nonblocking-modeset-vs-cursor.*poll', 'the nonblocking modeset and its event '
     'complete within a frame, before IGT polls (kms_cursor_legacy.c:885 expects the '
     'modeset still running): not resolved'),
]


# Globs that stand for many lines of one explanation, tried in turn: one
# is written when every result it matches does not pass for that reason.
COLLAPSE = ['kms_vblank@pipe-[B-F]-*', 'kms_vblank@pipe-[C-F]-*']


def explain(name, reason, detail=True, driver=None):
    """Why @name did not pass, with what IGT printed (cut short) after it;
    a rule with a third item holds for that driver alone."""
    text = f'{name} {reason or ""}'
    shown = reason if not reason or len(reason) <= 100 else reason[:97] + '...'
    for pattern, why, *only in EXPLAIN:
        if only and driver and only[0] != driver:
            continue
        if re.search(pattern, text):
            return f'{why} [{shown}]' if reason and detail else why
    return f'not analysed [{shown}]' if reason else 'not analysed'


def format_results(board, results, driver=None):
    """The results as an expectations section (to start a file from)."""
    out = [f'[{board}]']
    covered = set()
    for glob in COLLAPSE:
        names = [n for n in results if fnmatch.fnmatchcase(n, glob) and n not in covered]
        whys = {(results[n][0], explain(n, results[n][1], False, driver)) for n in names}
        if len(names) > 1 and len(whys) == 1 and 'pass' not in dict(whys):
            result, why = whys.pop()
            out.append(f'{glob} {result}  # {why}')
            covered.update(names)
    rest = [(n, r, explain(n, why, False, driver))
            for n, (r, why) in sorted(results.items())
            if r != 'pass' and n not in covered]
    passes = sum(1 for r, _ in results.values() if r == 'pass')
    # an explanation most lines share is written once, numbered
    counts = {}
    for _, _, why in rest:
        counts[why] = counts.get(why, 0) + 1
    legend = {why: i + 1 for i, why in
              enumerate(sorted((w for w, c in counts.items() if c >= 3), key=lambda w: -counts[w]))}
    for why, i in legend.items():
        out.append(f'# ({i}) {why}')
    for name, result, why in rest:
        text = f'({legend[why]})' if why in legend else why
        out.append(f'{name} {result}  # {text}')
    out.append(f'passes {passes}')
    return '\n'.join(out) + '\n'
