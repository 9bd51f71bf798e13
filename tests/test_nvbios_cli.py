"""nvbios follows the usual command-line conventions: options before or
after the file, --help on every subcommand, usage errors exit 2."""
import os
import subprocess

import pytest

from nvdevkit import build, paths


def nvbios(*args):
    return subprocess.run([os.path.join(build.tools_dir(), 'nvbios')] + list(args),
                          capture_output=True, text=True)


@pytest.fixture(scope='module')
def rom(board_info):
    return board_info('nv04').rom


def test_options_before_or_after_the_file(rom, tmp_path):
    after, before = nvbios('dump', rom, '--json'), nvbios('dump', '--json', rom)
    assert after.returncode == before.returncode == 0, after.stderr + before.stderr
    assert after.stdout == before.stdout and after.stdout.startswith('{')
    ini = os.path.join(paths.BOARDS_DIR, 'nv04.ini')
    a, b = tmp_path / 'a.rom', tmp_path / 'b.rom'
    assert nvbios('build', ini, '-o', str(a)).returncode == 0
    assert nvbios('build', f'--output={b}', ini).returncode == 0
    assert a.read_bytes() == b.read_bytes() == open(rom, 'rb').read()


@pytest.mark.parametrize('cmd,option', [('dump', '--json'), ('check', '--help'),
                                        ('build', '--output=FILE.rom')])
def test_help_on_every_subcommand(cmd, option):
    r = nvbios(cmd, '--help')
    assert r.returncode == 0, r.stderr
    assert f'nvbios {cmd}' in r.stdout and option in r.stdout, r.stdout


@pytest.mark.parametrize('args,says', [
    ((), 'usage: nvbios SUBCOMMAND'),
    (('frob', 'x'), "unknown subcommand 'frob'"),
    (('dump',), 'expected one FILE'),
    (('dump', '--bogus', 'x'), 'Unknown option --bogus'),
    (('build', 'x.ini'), '-o FILE.rom is required'),
])
def test_usage_errors_exit_2(args, says):
    r = nvbios(*args)
    assert r.returncode == 2 and says in r.stderr, (r.returncode, r.stderr)


def test_top_level_help():
    r = nvbios('--help')
    assert r.returncode == 0 and 'dump [--json] FILE' in r.stdout
