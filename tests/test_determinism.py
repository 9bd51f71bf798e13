"""Two boots of the same board under -icount give byte-identical traces."""
import filecmp


def test_two_boots_identical_traces(boot_board):
    a = boot_board('nv11-ch7006', fresh=True)
    b = boot_board('nv11-ch7006', fresh=True)
    with open(a.trace_path) as f:
        n = sum(1 for _ in f)
    assert n > 10000, f'trace has only {n} lines'
    assert filecmp.cmp(a.trace_path, b.trace_path, shallow=False), \
        f'traces differ: diff {a.trace_path} {b.trace_path}'
