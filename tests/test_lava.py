"""`nvdev lava-job`: the job definition a LAVA lab runs for a board and a
driver.  The oracles are LAVA's own job schema (Debian's lava-common,
strict) and the console of a real boot of the same board: the monitor's
start, pattern and end, which LAVA applies as Python regular expressions
to the console, find the driver binding in it."""
import hashlib
import re
import subprocess

import pytest
import yaml

from nvdevkit import lava, paths


@pytest.mark.parametrize('board,driver', [('nv43', 'nouveau'), ('nv11-ch7006', 'nvdrm'),
                                          ('nv1a', 'nouveau')])
def test_job_is_valid_and_finds_the_driver_on_a_real_console(boot_board, tmp_path,
                                                             board, driver):
    out = tmp_path / 'job.yaml'
    r = subprocess.run([paths.repo('harness', 'nvdev'), 'lava-job', '--board', board,
                        '--driver', driver, '-o', str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    lava.validate(str(out))
    job = yaml.safe_load(out.read_text())
    images = job['actions'][0]['deploy']['images']
    for name, art in images.items():
        with open(art['url'][len('file://'):], 'rb') as f:
            assert hashlib.sha256(f.read()).hexdigest() == art['sha256sum'], name
    assert '-device nvdev,id=nvdev0,vbios={rom}' == images['rom']['image_arg']
    assert f'nvdev.driver={driver}' in images['kernel']['image_arg']
    if board == 'nv1a':     # the nForce's host bridge functions come along
        assert any(o.startswith('-device nvdev-nforce,addr=00.1')
                   for o in job['context']['extra_options'])
    monitor = job['actions'][2]['test']['monitors'][0]
    console = boot_board(board, driver=driver).serial
    start = console.find(monitor['start'])
    end = console.find(monitor['end'], start)
    assert 0 <= start < end, 'the monitor window is not on the console'
    m = re.search(monitor['pattern'], console[start:end])
    assert m and m.group('test_case_id') == driver, console[start:end][-2000:]
    assert monitor['fixupdict'][m.group('result')] == 'pass'


def test_a_job_lava_refuses_is_caught(tmp_path):
    """The schema check is strict: an unknown key fails it."""
    from voluptuous import Invalid
    out = tmp_path / 'job.yaml'
    lava.write(str(out), 'nv43')
    job = yaml.safe_load(out.read_text())
    job['actions'][1]['boot']['method'] = 'qemu-nfs-typo'
    out.write_text(yaml.safe_dump(job))
    with pytest.raises(Invalid):
        lava.validate(str(out))
