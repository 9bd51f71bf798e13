"""`nvctxprog gen` against nouveau 6.1's own generator.

The oracle is nouveau's ctxnv40.c from the guest kernel's source tree,
compiled here as a userspace program with a few lines of shim for the
nvkm calls it makes (device->chipset, nvkm_wr32 of the upload,
nvkm_wo32 of the image).  For each of the 15 NV40-family chipsets it
gives the words nv40_grctx_init writes through 0x400328, the size it
returns for the context object, and the image nv40_grctx_fill leaves.
Our generator is a separate program written from the register facts; the
two must agree word for word.
"""
import os
import re
import shutil
import struct
import subprocess

import pytest

from nvdevkit import build

CHIPSETS = ['nv40', 'nv41', 'nv42', 'nv43', 'nv44', 'nv46', 'nv47', 'nv49',
            'nv4a', 'nv4b', 'nv4c', 'nv4e', 'nv63', 'nv67', 'nv68']

GPUOBJ_SHIM = r'''
#pragma once
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
typedef uint32_t u32;
typedef uint64_t u64;
#define GFP_KERNEL 0
#define kmalloc(n, f) malloc(n)
#define kfree free
#define BUG_ON(c) do { if (c) { fprintf(stderr, "BUG_ON(%s)\n", #c); exit(3); } } while (0)
struct nvkm_device { int chipset; };
struct nvkm_gpuobj { u32 *data; u32 size; };
static inline void nvkm_wo32(struct nvkm_gpuobj *o, u32 off, u32 v)
{
	if (off + 4 > o->size) {
		fprintf(stderr, "wo32 0x%x outside 0x%x\n", off, o->size);
		exit(4);
	}
	o->data[off / 4] = v;
}
void nvkm_wr32(struct nvkm_device *, u32 addr, u32 val);
'''

MAIN = r'''
#include "nv40.h"
static u32 index = ~0u;
void nvkm_wr32(struct nvkm_device *dev, u32 addr, u32 val)
{
	if (addr == 0x400324)
		index = val;
	else if (addr == 0x400328)
		printf("ucode %u 0x%08x\n", index++, val);
	else
		printf("wr32 0x%06x 0x%08x\n", addr, val);
}
int main(int argc, char **argv)
{
	struct nvkm_device dev = { .chipset = (int)strtol(argv[1], NULL, 16) };
	struct nvkm_gpuobj obj;
	u32 size = 0, i;

	if (nv40_grctx_init(&dev, &size))
		return 1;
	printf("size 0x%x\n", size);
	obj.size = size;
	obj.data = calloc(size / 4, 4);
	nv40_grctx_fill(&dev, &obj);
	for (i = 0; i < size / 4; i++)
		if (obj.data[i])
			printf("val 0x%05x 0x%08x\n", i, obj.data[i]);
	return 0;
}
'''


@pytest.fixture(scope='module')
def nouveau_gen(built, tmp_path_factory):
    """nouveau's generator as a program: chipset -> (words, size, vals)."""
    gr = os.path.join(build.ensure_kernel_source(), 'drivers', 'gpu', 'drm',
                      'nouveau', 'nvkm', 'engine', 'gr')
    d = tmp_path_factory.mktemp('ctxnv40')
    for f in ('ctxnv40.c', 'ctxnv40.h'):
        shutil.copy(os.path.join(gr, f), d / f)
    (d / 'core').mkdir()
    (d / 'core' / 'gpuobj.h').write_text(GPUOBJ_SHIM)
    # nv44_gr_class() is the one helper of nv40.h the generator calls
    with open(os.path.join(gr, 'nv40.h')) as f:
        helper = re.search(r'static inline int\nnv44_gr_class\(.*?\n}\n', f.read(),
                           re.S)
    assert helper, 'nv44_gr_class() not found in nouveau\'s nv40.h'
    (d / 'nv40.h').write_text(
        '#include <core/gpuobj.h>\n' + helper.group(0) +
        'int nv40_grctx_init(struct nvkm_device *, u32 *size);\n'
        'void nv40_grctx_fill(struct nvkm_device *, struct nvkm_gpuobj *);\n')
    (d / 'main.c').write_text(MAIN)
    exe = d / 'ctxnv40'
    subprocess.run(['cc', '-O1', '-w', '-I', str(d), '-o', str(exe),
                    str(d / 'ctxnv40.c'), str(d / 'main.c')], check=True)

    def run(chipset):
        out = subprocess.run([str(exe), chipset[2:]], capture_output=True,
                             text=True, check=True).stdout
        words, vals, size, other = [], {}, None, []
        for line in out.splitlines():
            kind, *rest = line.split()
            if kind == 'ucode':
                assert int(rest[0]) == len(words)
                words.append(int(rest[1], 16))
            elif kind == 'val':
                vals[int(rest[0], 16)] = int(rest[1], 16)
            elif kind == 'size':
                size = int(rest[0], 16)
            else:
                other.append(line)
        # the upload starts at index 0 and writes nothing else
        assert other == [], other
        return words, size, vals
    return run


def nvctxprog(*args):
    return subprocess.run([os.path.join(build.tools_dir(), 'nvctxprog'), *args],
                          capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope='module')
def our_firmware(built, tmp_path_factory):
    d = tmp_path_factory.mktemp('firmware')
    summary = nvctxprog('gen', 'all', '-o', str(d))
    sizes = {}
    for line in summary.splitlines():
        m = re.match(r'(NV\w\w): (\d+) instructions, image (0x[0-9a-f]+) bytes', line)
        sizes[m.group(1).lower()] = int(m.group(3), 16)
    return d, sizes


@pytest.mark.parametrize('chipset', CHIPSETS)
def test_program_size_and_values_are_nouveaus(nouveau_gen, our_firmware, chipset):
    words, size, vals = nouveau_gen(chipset)
    ours = [int(w, 16) for w in nvctxprog('gen', chipset, '--format', 'hex').split()]
    assert ours == words, f'{chipset}: program differs at word ' \
        f'{next(i for i, (a, b) in enumerate(zip(ours + [None], words + [None])) if a != b)}'
    fw, sizes = our_firmware
    assert sizes[chipset] == size, f'{chipset}: image 0x{sizes[chipset]:x}, nouveau 0x{size:x}'
    # the firmware files, read here as the 2009 nouveau read them, hold the
    # same program and every non-zero value of nouveau's image
    prog = (fw / f'{chipset}.ctxprog').read_bytes()
    sig, ver, n = struct.unpack_from('<4sBH', prog)
    assert (sig, ver, len(prog)) == (b'NVCP', 0, 7 + 4 * n)
    assert list(struct.unpack_from(f'<{n}I', prog, 7)) == words
    cv = (fw / f'{chipset}.ctxvals').read_bytes()
    sig, ver, n = struct.unpack_from('<4sBI', cv)
    assert (sig, ver, len(cv)) == (b'NVCV', 0, 9 + 8 * n)
    pairs = struct.unpack_from(f'<{2 * n}I', cv, 9)
    ourvals = dict(zip(pairs[0::2], pairs[1::2]))
    assert all(o * 4 < size for o in ourvals)
    assert {o: v for o, v in ourvals.items() if v} == vals


def test_disassembly_of_nouveaus_programs_reassembles(nouveau_gen, tmp_path):
    """Every chipset's program, from nouveau's generator, through
    disasm and asm again: the same words."""
    for chipset in CHIPSETS:
        words, _, _ = nouveau_gen(chipset)
        raw = tmp_path / f'{chipset}.hex'
        raw.write_text(''.join(f'0x{w:08x}\n' for w in words))
        src = tmp_path / f'{chipset}.s'
        src.write_text(nvctxprog('disasm', str(raw)))
        again = [int(w, 16) for w in nvctxprog('asm', str(src)).split()]
        assert again == words, chipset


def test_every_program_runs_to_its_end(nouveau_gen, tmp_path):
    """nouveau's program for each chipset on `nvctxprog run`'s own PGRAPH:
    a save and a load move the same registers, a channel switch does both
    and makes the next channel current; every run reaches END."""
    counts = re.compile(r'^(\w+): ended at PC 0x[0-9a-f]+ \(0x0060000e\) after '
                        r'\d+ steps, (\d+) registers transferred, (\d+) words '
                        r'stepped over.*; current (0x[0-9a-f]{8})$')
    for chipset in CHIPSETS:
        raw = tmp_path / f'{chipset}.hex'
        raw.write_text(''.join(f'0x{w:08x}\n' for w in nouveau_gen(chipset)[0]))
        got = {}
        for kind in ('switch', 'save', 'load'):
            m = counts.match(nvctxprog('run', str(raw), '--as', kind).strip())
            assert m, (chipset, kind)
            got[kind] = int(m.group(2)), int(m.group(3)), int(m.group(4), 16)
        assert got['save'][0] == got['load'][0] > 600, (chipset, got)
        assert got['switch'][0] == 2 * got['save'][0], (chipset, got)
        assert got['switch'][1] == got['save'][1] + got['load'][1], (chipset, got)
        assert got['switch'][2] == got['load'][2] == 0x01020000, (chipset, got)
        assert got['save'][2] == 0x01010000, (chipset, got)


# every NV40-family chipset the device has a board for
BOARDS = {'nv40': 'nv40', 'nv41': 'nv41', 'nv42': 'nv42', 'nv43': 'nv43',
          'nv47': 'nv47', 'nv49': 'nv49', 'nv4a': 'nv4a', 'nv4b': 'nv4b',
          'nv44': 'nv44', 'nv46': 'nv46', 'nv4e': 'nv4e', 'nv4c': 'nv4c', 'nv63': 'nv63',
          'nv67': 'nv67', 'nv68': 'nv68'}


@pytest.mark.parametrize('chipset', sorted(BOARDS))
def test_nouveau_uploads_what_gen_makes(boot_board, chipset):
    """A boot of nouveau on the chipset's board: the words it writes
    through 0x400328 (register trace) are `nvctxprog gen`'s, word for word."""
    from test_ctxprog_firmware import uploads
    b = boot_board(BOARDS[chipset])
    ours = [int(w, 16) for w in nvctxprog('gen', chipset, '--format', 'hex').split()]
    assert uploads(b) == ours


def test_nv50_instruction_set_through_the_tool(built, tmp_path):
    """`nvctxprog disasm/asm --arch nv50`: words nouveau's NV50 generator
    emits (ctxnv50.c: cp_bra(AUTO_SAVE, PENDING, ..), CP_NEWCTX,
    cp_wait(NEWCTX, BUSY), CP_SEEK_1, CP_XFER_1, CP_END) are named as
    nouveau names them and assemble back; as NV40 words they mean other
    things; an unknown instruction set is refused."""
    words = [0x00400244, 0x00600004, 0x0050004a, 0x00c000ff, 0x008000ff,
             0x0060000c]
    raw = tmp_path / 'nv50.hex'
    raw.write_text(''.join(f'0x{w:08x}\n' for w in words))
    text = nvctxprog('disasm', str(raw), '--arch', 'nv50')
    for want in ('L02:\n\twait newctx, clear', 'bra auto_save, set, L02', 'cmd newctx',
                 'seek 1, 0xff, 0x000', 'xfer 1, 0xff', 'cmd end', '6 words, 0 unknown'):
        assert want in text, text
    src = tmp_path / 'nv50.s'
    src.write_text(text)
    assert [int(w, 16) for w in nvctxprog('asm', str(src), '--arch', 'nv50').split()] == words
    as_nv40 = nvctxprog('disasm', str(raw))
    assert 'cmd clear_reset' in as_nv40 and '1 unknown' in as_nv40, as_nv40
    r = subprocess.run([os.path.join(build.tools_dir(), 'nvctxprog'), 'disasm', str(raw),
                        '--arch', 'nv60'], capture_output=True, text=True)
    assert r.returncode == 2 and 'no instruction set nv60 (nv40, nv50)' in r.stderr
