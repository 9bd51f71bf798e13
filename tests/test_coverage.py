"""`nvdev coverage`: counters from each boot merged into one tree, and the
report's table.  The oracle for the merge is gcc's own gcov reading the
counters of a program whose runs the test counts; for the table, lcov's
tracefile format (geninfo(1)) written by hand."""
import base64
import io
import os
import subprocess
import tarfile

import pytest

from nvdevkit import boot as nvboot
from nvdevkit import build, coverage

PROGRAM = r'''
int twice(int x) { return 2 * x; }
int main(int argc, char **argv)
{
	if (argc > 1)
		return twice(argc) - 4;     /* line 6: runs with an argument */
	return 0;                       /* line 7: runs without one */
}
'''


def _guest_report(outdir, gcda_files):
    """A report port log as the guest's init writes it with nvdev.gcov=1:
    a gzipped tar of debugfs gcov/ (paths below it are the host's build
    paths), base64, between nvdev-gcov markers."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as tar:
        for path, data in gcda_files.items():
            info = tarfile.TarInfo('.' + path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    text = base64.b64encode(buf.getvalue()).decode()
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'report.log'), 'w') as f:
        f.write('nvdev-gcov-begin\n')
        for i in range(0, len(text), 76):
            f.write(text[i:i + 76] + '\n')
        f.write('nvdev-gcov-end\nnvdev-report-begin\n{}\nnvdev-report-end\n')
    return nvboot.Boot(outdir, 'nv17', 'nouveau', 0, 0)


def _gcov_counts(src_dir, name):
    """{line: count} as gcov prints them for @name.c."""
    subprocess.run(['gcov', name + '.c'], cwd=src_dir, check=True,
                   capture_output=True)
    counts = {}
    with open(os.path.join(src_dir, name + '.c.gcov')) as f:
        for line in f:
            count, lineno, _ = line.split(':', 2)
            count = count.strip()
            if count.isdigit():
                counts[int(lineno)] = int(count)
    return counts


def test_boots_merge_into_one_tree(tmp_path):
    src = tmp_path / 'build'
    src.mkdir()
    (src / 'prog.c').write_text(PROGRAM)
    subprocess.run(['gcc', '--coverage', '-O0', '-o', 'prog', 'prog.c'], cwd=src,
                   check=True)
    gcda = src / 'prog.gcda'
    data = []
    for args in ([], ['x'], ['x']):         # one run without, two with
        if gcda.exists():
            gcda.unlink()
        subprocess.run([str(src / 'prog')] + args, cwd=src)
        data.append(gcda.read_bytes())
    dest = tmp_path / 'coverage'
    for i, d in enumerate(data):
        b = _guest_report(str(tmp_path / f'boot{i}'), {str(gcda): d})
        assert coverage.collect(b, str(dest)) == 1
    merged = dest / 'gcda' / str(gcda).lstrip('/')
    assert merged.exists()
    with open(dest / 'boots') as f:
        assert len(f.read().split()) == 3
    # gcov reads the merged counters as one profile of the three runs
    gcda.write_bytes(merged.read_bytes())
    counts = _gcov_counts(str(src), 'prog')
    assert counts[3] == 3           # main's opening line: every run
    assert counts[6] == 2           # the two runs with an argument
    assert counts[7] == 1


def test_boot_without_counters_brings_nothing(tmp_path):
    out = tmp_path / 'boot'
    out.mkdir()
    (out / 'report.log').write_text('nvdev-report-begin\n{}\nnvdev-report-end\n')
    b = nvboot.Boot(str(out), 'nv17', 'nouveau', 0, 0)
    assert coverage.collect(b, str(tmp_path / 'cov')) == 0
    assert not (tmp_path / 'cov').exists()


def test_table_from_lcov_tracefile(tmp_path):
    root = '/cache/linux/build-x/drivers/gpu/drm/nouveau/'
    info = tmp_path / 'c.info'
    records = [
        (root + 'dispnv04/crtc.c', 80, 100),
        (root + 'dispnv04/dac.c', 10, 40),
        (root + 'nvkm/subdev/bios/init.c', 300, 1200),
        (root + 'nvkm/engine/gr/nv40.c', 5, 50),
        (root + 'nvkm/engine/gr/gf100.c', 0, 900),      # not pre-NV50
        ('/cache/nvdrm/abc/nvdrm_kms.c', 600, 700),
    ]
    with open(info, 'w') as f:
        for sf, lh, lf in records:
            f.write(f'TN:\nSF:{sf}\nDA:1,1\nLF:{lf}\nLH:{lh}\nend_of_record\n')
    files = coverage.parse_info(str(info))
    assert files[root + 'dispnv04/dac.c'] == (10, 40)
    text = coverage.table(files)
    assert '| dispnv04 (KMS) | 90 | 140 | 64.3 |' in text
    assert '| nvkm bios | 300 | 1200 | 25.0 |' in text
    assert '| gr nv04-nv40 | 5 | 50 | 10.0 |' in text
    assert '| nouveau, all | 395 | 2290 | 17.2 |' in text
    assert '| nvdrm | 600 | 700 | 85.7 |' in text
    assert '| nvdrm | nvdrm_kms.c | 600 | 700 | 85.7 |' in text
    assert 'gf100' not in text


def test_variant_has_its_own_build(monkeypatch):
    """The coverage kernel is built apart from the default one, from both
    fragments, and the default build keeps its key."""
    monkeypatch.delenv('NVDEV_KERNEL_VARIANT', raising=False)
    default = build.kernel_build_dir()
    monkeypatch.setenv('NVDEV_KERNEL_VARIANT', 'gcov')
    assert build.kernel_fragments()[-1].endswith('kernel/gcov.config')
    assert build.kernel_build_dir() != default
    assert coverage.enabled()
    monkeypatch.setenv('NVDEV_KERNEL_VARIANT', 'nonsense')
    with pytest.raises(SystemExit):
        build.kernel_variant()
