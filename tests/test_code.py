"""The harness and the tests themselves stay pyflakes-clean."""
import glob
import subprocess
import sys

from nvdevkit import paths


def test_pyflakes_clean():
    files = (glob.glob(paths.repo('harness', 'nvdevkit', '*.py')) +
             glob.glob(paths.repo('tests', '*.py')) +
             [paths.repo('harness', 'nvdev'), paths.repo('qemu-nvdev', 'gen-regnames.py')])
    r = subprocess.run([sys.executable, '-m', 'pyflakes'] + sorted(files),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
