"""`nvdev lava-job`: a LAVA job definition for one board and driver, so
that a LAVA lab (KernelCI's engine) can run the board x driver matrix
across machines.  The job is a QEMU job (device type qemu, deploy to
tmpfs): the kernel, the initramfs and the board's VBIOS image are its
artifacts, each with the QEMU arguments it goes into (LAVA substitutes
the downloaded path for {kernel}, {ramdisk}, {rom}); the machine is ours
(TCG, icount, a fixed RTC, no reboot; the lab's QEMU template gives the
serial console).  The guest runs the same init as `nvdev run`; a monitor
test action reads the console from the start of /init to the report line
and records whether the driver bound ("[drm] Initialized DRIVER ... on
minor 0").  Checked here against LAVA's own job schema (lava-common), not
run: lava-dispatcher needs a lab (a worker and a server) to run a job."""
import hashlib
import os

from . import boot, build, platform

MONITOR_START = 'Run /init as init process'
MONITOR_END = 'nvdev: report written, rebooting'
# "[drm] Initialized nouveau 1.3.1 20120801 for 0000:00:02.0 on minor 0"
BIND_PATTERN = (r'\[drm\] (?P<result>Initialized) (?P<test_case_id>nouveau|nvdrm) '
                r'[^\n]* on minor 0')


def _artifact(path, base_url):
    with open(path, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    url = (base_url.rstrip('/') + '/' + os.path.basename(path) if base_url
           else 'file://' + os.path.abspath(path))
    return {'url': url, 'sha256sum': digest}


def job(board, driver='nouveau', cmdline='', base_url=None, built=None):
    """The job as a dict (yaml.safe_dump writes it).  @base_url: where a
    lab will find the artifacts (their file names kept); local file://
    URLs otherwise."""
    _, kernel, initrd = built or build.ensure_built()
    rom = build.build_rom(board)
    append = (f'console=ttyS0 {boot.KERNEL_ARGS} '
              f'nvdev.driver={driver} {cmdline}').strip()
    images = {
        'kernel': dict(_artifact(kernel, base_url),
                       image_arg=f'-kernel {{kernel}} -append "{append}"'),
        'ramdisk': dict(_artifact(initrd, base_url), image_arg='-initrd {ramdisk}'),
        'rom': dict(_artifact(rom, base_url),
                    image_arg='-device nvdev,id=nvdev0,vbios={rom}'),
    }
    name = os.path.splitext(os.path.basename(board))[0]
    machine = platform.machine_args(rom)
    return {
        'job_name': f'nvdev {name} {driver}',
        'device_type': 'qemu',
        'visibility': 'public',
        'priority': 'medium',
        'timeouts': {'job': {'minutes': 20}, 'action': {'minutes': 15},
                     'connection': {'minutes': 2}},
        'context': {
            'arch': 'x86_64', 'machine': 'pc', 'cpu': 'qemu64', 'memory': 256,
            'no_kvm': True, 'vga': 'none',
            'extra_options': ['-accel tcg', f'-icount {boot.ICOUNT}', f'-rtc {boot.RTC}',
                              '-no-reboot']
            + [' '.join(machine[i:i + 2]) for i in range(0, len(machine), 2)],
        },
        'metadata': {'nvdev.board': name, 'nvdev.driver': driver},
        'actions': [
            {'deploy': {'to': 'tmpfs', 'timeout': {'minutes': 5}, 'images': images}},
            {'boot': {'method': 'qemu', 'media': 'tmpfs', 'timeout': {'minutes': 10},
                      'prompts': [MONITOR_START]}},
            {'test': {'timeout': {'minutes': 10}, 'monitors': [{
                'name': f'{name}-{driver}-bind',
                'start': MONITOR_START, 'end': MONITOR_END,
                'pattern': BIND_PATTERN,
                'fixupdict': {'Initialized': 'pass'},
            }]}},
        ],
    }


def write(path, board, driver='nouveau', cmdline='', base_url=None):
    import yaml
    with open(path, 'w') as f:
        yaml.safe_dump(job(board, driver, cmdline, base_url), f, sort_keys=False)
    return path


def validate(path):
    """LAVA's own job schema (Debian's lava-common), strictly."""
    import yaml
    from lava_common.schemas import validate as lava_validate
    with open(path) as f:
        lava_validate(yaml.safe_load(f), strict=True)

