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


def test_nvdev_test_fails_when_nothing_is_collected():
    """A run that collects no tests is a failure, not a pass (CI must not
    go green on a suite that silently vanished)."""
    r = subprocess.run([paths.repo('harness', 'nvdev'), 'test', '--',
                        paths.repo('tests', 'test_code.py'), '-k', 'no_such_test_anywhere'],
                       capture_output=True, text=True)
    assert r.returncode != 0, r.stdout[-2000:]
    assert 'collected no tests' in r.stderr, r.stderr[-2000:]


def test_nvdev_test_writes_junit_xml(tmp_path):
    """CI reads the results as JUnit XML: one testcase per test, its
    outcome, under the suite name nvdev."""
    import xml.etree.ElementTree as ET
    out = tmp_path / 'junit.xml'
    r = subprocess.run([paths.repo('harness', 'nvdev'), 'test', '--junit', str(out), '-j', '2',
                        '--', paths.repo('tests', 'test_code.py'), '-k', 'pyflakes'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert f'JUnit XML in {out}' in r.stdout
    suite = ET.parse(out).getroot().find('testsuite')
    assert suite.get('name') == 'nvdev'
    cases = suite.findall('testcase')
    assert [c.get('name') for c in cases] == ['test_pyflakes_clean'], r.stdout[-2000:]
    assert int(suite.get('failures')) == 0 and int(suite.get('errors')) == 0
