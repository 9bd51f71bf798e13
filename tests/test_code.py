"""The harness and the tests stay pyflakes-clean, the device QEMU's
checkpatch-clean."""
import glob
import os
import subprocess
import sys

from nvdevkit import build, paths


def test_pyflakes_clean():
    files = (glob.glob(paths.repo('harness', 'nvdevkit', '*.py')) +
             glob.glob(paths.repo('tests', '*.py')) +
             [paths.repo('harness', 'nvdev'), paths.repo('qemu-nvdev', 'gen-regnames.py')])
    r = subprocess.run([sys.executable, '-m', 'pyflakes'] + sorted(files),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_device_has_no_checkpatch_error(built):
    """QEMU's own scripts/checkpatch.pl over every device source: no ERROR
    (its warnings, lines of 81-90 columns in tables and the house's block
    comments, are allowed)."""
    script = os.path.join(build.ensure_qemu_source(), 'src', 'scripts', 'checkpatch.pl')
    files = sorted(glob.glob(paths.repo('qemu-nvdev', '*.[ch]')))
    assert len(files) > 15
    errors = []
    for f in files:
        r = subprocess.run(['perl', script, '--no-tree', '-f', f],
                           capture_output=True, text=True)
        errors += [f'{os.path.basename(f)}: {line}'
                   for line in r.stdout.splitlines() if line.startswith('ERROR')]
    assert not errors, '\n'.join(errors)


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


def _unconditional_assert(body, constants):
    """Whether @body (a test function's statements) asserts on every path:
    an assert (or pytest.raises/fail) at its top level, inside with/try, or
    in a loop over a non-empty literal or module constant."""
    import ast
    for st in body:
        if isinstance(st, ast.Assert):
            return True
        if isinstance(st, ast.With):
            if any(isinstance(i.context_expr, ast.Call) and
                   getattr(i.context_expr.func, 'attr', '') == 'raises' for i in st.items):
                return True
            if _unconditional_assert(st.body, constants):
                return True
        if isinstance(st, ast.Try) and (_unconditional_assert(st.body, constants) or
                                        _unconditional_assert(st.finalbody, constants)):
            return True
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                getattr(st.value.func, 'attr', '') == 'fail':
            return True
        if isinstance(st, ast.For):
            it = st.iter
            nonempty = (isinstance(it, (ast.Tuple, ast.List)) and it.elts) or \
                (isinstance(it, ast.Name) and constants.get(it.id)) or \
                (isinstance(it, ast.Call) and getattr(it.func, 'id', '') == 'range' and
                 len(it.args) == 1 and isinstance(it.args[0], ast.Constant) and
                 it.args[0].value > 0)
            if nonempty and _unconditional_assert(st.body, constants):
                return True
    return False


def test_every_test_asserts_on_every_path():
    """No test that can pass without asserting: each test function asserts
    unconditionally (not only under an `if`, or in a loop over something
    that may be empty).  Checked on the source with Python's ast."""
    import ast
    bad, n = [], 0
    for p in sorted(glob.glob(paths.repo('tests', 'test_*.py'))):
        tree = ast.parse(open(p).read(), p)
        constants = {t.id: len(n.value.elts) for n in tree.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, (ast.List, ast.Tuple))
                     for t in n.targets if isinstance(t, ast.Name)}
        tests = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        tests += [m for n in tree.body if isinstance(n, ast.ClassDef)
                  for m in n.body if isinstance(m, ast.FunctionDef)]
        n += len(tests)
        bad += [f'{os.path.basename(p)}:{fn.lineno} {fn.name}' for fn in tests
                if fn.name.startswith('test') and
                not _unconditional_assert(fn.body, constants)]
    assert n > 200 and not bad, (n, bad)
