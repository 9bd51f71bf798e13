"""Where things are: the repository, the cache outside it, tool versions."""
import functools
import hashlib
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
CACHE = os.environ.get('NVDEV_CACHE') or os.path.join(
    os.path.expanduser('~'), '.cache', 'nvdev')

BOARDS_DIR = os.path.join(REPO, 'vbios', 'boards')
DEFAULT_BOARD = 'nv11-ch7006'


def repo(*parts):
    return os.path.join(REPO, *parts)


def cache(*parts):
    return os.path.join(CACHE, *parts)


def digest(*items):
    """A short stable hash of strings, bytes and the contents of files."""
    h = hashlib.sha256()
    for item in items:
        if isinstance(item, str) and os.path.isfile(item):
            with open(item, 'rb') as f:
                h.update(f.read())
        elif isinstance(item, bytes):
            h.update(item)
        else:
            h.update(str(item).encode())
        h.update(b'\0')
    return h.hexdigest()[:12]


@functools.lru_cache(maxsize=None)
def dpkg_version(package):
    """Installed version of a Debian package, or None."""
    r = subprocess.run(['dpkg-query', '-W', '-f=${Status} ${Version}', package],
                       capture_output=True, text=True)
    if r.returncode or not r.stdout.startswith('install ok installed'):
        return None
    return r.stdout.split()[-1]


def boards():
    return sorted(f[:-4] for f in os.listdir(BOARDS_DIR) if f.endswith('.ini'))
