"""regdb against nouveau's own headers: every BAR0 register that regdb and
Linux 6.1's nouveau both name (dispnv04/nvreg.h, nouveau_reg.h,
nvkm/engine/gr/regs.h) has nouveau's name, up to how the two spell a
generation (NV40_PGRAPH_INTR_EN is INTR_EN_NV40 here) and an access
(NV_PRMVIO_MISC__WRITE is MISC).  Where regdb deliberately differs (a name
from envytools for what nouveau calls UNK_800), its line says nouveau's
name with nouveau=NAME, and that is checked instead."""
import os
import re
import subprocess
import sys

import pytest

from nvdevkit import build, paths, regdb

HEADERS = ('dispnv04/nvreg.h', 'nouveau_reg.h', 'nvkm/engine/gr/regs.h')
UNITS = ('PMC', 'PBUS', 'PFIFO', 'PFB', 'PEXTDEV', 'PTIMER', 'PGRAPH', 'PCRTC',
         'CRTC', 'PRAMDAC', 'RAMDAC', 'PRMCIO', 'PRMVIO', 'PRMDIO', 'PVIDEO',
         'PTV', 'PROM', 'PRAMIN')
DEFINE = re.compile(r'#\s*define\s+(NV\d*)_(%s)_(\w+)\s+(0x[0-9a-fA-F]+)\b' % '|'.join(UNITS))


@pytest.fixture(scope='module')
def nouveau_names():
    """address -> set of the spellings nouveau's names allow"""
    src = os.path.join(build.ensure_kernel_source(), 'drivers', 'gpu', 'drm', 'nouveau')
    names = {}
    for h in HEADERS:
        with open(os.path.join(src, h)) as f:
            for line in f:
                m = DEFINE.match(line)
                if not m:
                    continue
                gen, _, name, value = m.groups()
                addr = int(value, 16)
                if not 0x1000 <= addr < 0x1000000 or name.endswith(('OFFSET', 'SIZE')):
                    continue
                forms = {name, name.replace('__', '_'), re.sub(r'__\w+$', '', name)}
                if gen != 'NV':
                    forms |= {f'{n}_{gen}' for n in set(forms)}
                names.setdefault(addr, set()).update(forms)
    assert len(names) > 150, 'the headers did not parse'
    return names


def test_shared_names_are_nouveaus(nouveau_names):
    db = regdb.RegDB()
    shared = [r for a, r in db.mmio.items() if a in nouveau_names]
    assert len(shared) > 100
    wrong = [f'{r.addr:#08x} {r.unit} {r.name}: nouveau says '
             f'{" or ".join(sorted(nouveau_names[r.addr]))}'
             for r in shared if r.name not in nouveau_names[r.addr]
             and r.nouveau not in nouveau_names[r.addr]]
    assert not wrong, '\n'.join(wrong)


def test_an_alias_is_only_for_a_name_that_differs(nouveau_names):
    db = regdb.RegDB()
    pointless = [f'{r.addr:#08x} {r.name}' for r in db.mmio.values()
                 if r.nouveau and r.name in nouveau_names.get(r.addr, ())]
    unknown = [f'{r.addr:#08x} {r.name} nouveau={r.nouveau}' for r in db.mmio.values()
               if r.nouveau and r.nouveau not in nouveau_names.get(r.addr, ())]
    assert not pointless and not unknown, (pointless, unknown)


# ---- the device's register names: nvdev-regs.h, generated from regdb ------

GEN = paths.repo('qemu-nvdev', 'gen-regnames.py')
HEADER_DEFINE = re.compile(r'#define (NV_\w+)\s+0x([0-9a-f]+)$')
UNIT_DEFINE = re.compile(r'^#define (NV\w+)\s', re.M)


@pytest.fixture(scope='module')
def device_header(tmp_path_factory):
    """The lines of nvdev-regs.h as the device's build generates it."""
    d = tmp_path_factory.mktemp('regs')
    subprocess.run([sys.executable, GEN, paths.repo('regdb', 'nv.regdb'),
                    str(d / 'names.c'), str(d / 'nvdev-regs.h')], check=True)
    with open(d / 'nvdev-regs.h') as f:
        return f.read().splitlines()


@pytest.fixture(scope='module')
def device_names(device_header):
    return {m.group(1): int(m.group(2), 16)
            for m in map(HEADER_DEFINE.match, device_header) if m}


def test_device_names_are_offsets_in_their_unit(device_names):
    """nvdev-regs.h: each register by its offset in its unit, a per-head
    unit's named once; the values here are nouveau's (nvreg.h,
    nouveau_reg.h) less the unit's base."""
    want = {'NV_PFIFO_CACHE1_PUT': 0x003210 - 0x2000,
            'NV_PGRAPH_INTR_EN_NV40': 0x40013c - 0x400000,
            'NV_PTIMER_TIME_0': 0x009400 - 0x9000,
            'NV_PRAMDAC_VPLL_COEFF': 0x680508 - 0x680000,
            'NV_PCRTC_START': 0x600800 - 0x600000,
            'NV_PRMVIO_SRX': 0x0c03c4 - 0x0c0000,
            'NV_CR_OWNER': 0x44, 'NV_PRAMDAC_BASE': 0x680000}
    assert {k: device_names.get(k) for k in want} == want
    assert not any(k.startswith(('NV_PCRTC1', 'NV_PRAMDAC1', 'NV_PRMVIO1'))
                   for k in device_names)


def test_units_define_no_register_regdb_names(device_names):
    """What the units #define themselves is bits and private values: no
    name that nvdev-regs.h gives (a second definition could differ)."""
    src = paths.repo('qemu-nvdev')
    again = {}
    for name in sorted(os.listdir(src)):
        if name.endswith(('.c', '.h')) and name != 'nvdev-regs.h':
            with open(os.path.join(src, name)) as f:
                for d in UNIT_DEFINE.findall(f.read()):
                    if d in device_names:
                        again.setdefault(name, []).append(d)
    assert not again


# ---- fields: FIELD() lines of nvdev-regs.h, from regdb's field lines -------

HEADER_FIELD = re.compile(r'FIELD\((NV_\w+), (\w+), (\d+), (\d+)\)$')
NOUVEAU_BIT = re.compile(r'#\s*define\s+(NV\w+)\s+\(\s*(\d+)\s*<<\s*(\d+)\s*\)')


@pytest.fixture(scope='module')
def device_fields(device_header):
    """(register macro, field) -> (shift, length)"""
    return {(m.group(1), m.group(2)): (int(m.group(3)), int(m.group(4)))
            for m in map(HEADER_FIELD.match, device_header) if m}


def test_single_bit_fields_nouveau_names_are_its_bits(device_fields):
    """Every one-bit field whose name nouveau's headers also define
    (NV_PCRTC_INTR_0_VBLANK; NV_PMC_INTR_0_PFIFO_PENDING,
    NV_PRAMDAC_TEST_CONTROL_TP_INS_EN_ASSERTED; NV40_..._PUSH1_DMA as
    PUSH1_DMA_NV40) is the bit nouveau says."""
    src = os.path.join(build.ensure_kernel_source(), 'drivers', 'gpu', 'drm', 'nouveau')
    bits = {}
    for h in HEADERS:
        with open(os.path.join(src, h)) as f:
            for m in NOUVEAU_BIT.finditer(f.read()):
                gen, rest = m.group(1).split('_', 1)
                value = int(m.group(2)) << int(m.group(3))
                # the first generation to define it (NV03 before NV40) is
                # regdb's plain name, a later one its _NV40 variant
                bits.setdefault(f'NV_{rest}', value)
                bits[f'NV_{rest}_{gen}'] = value
    shared, wrong = [], []
    for (reg, field), (shift, length) in sorted(device_fields.items()):
        name = f'{reg}_{field}'
        theirs = next((bits[name + s] for s in ('', '_PENDING', '_ASSERTED')
                       if name + s in bits), None)
        if length != 1 or theirs is None:
            continue
        shared.append(name)
        if theirs != 1 << shift:
            wrong.append(f'{name}: regdb bit {shift}, nouveau 0x{theirs:x}')
    assert len(shared) >= 12, shared
    assert not wrong, '\n'.join(wrong)


def test_fields_lie_within_their_register(device_fields):
    assert len(device_fields) > 60
    bad = [f'{r}.{f} {s}+{n}' for (r, f), (s, n) in device_fields.items()
           if not (n >= 1 and s + n <= 32)]
    assert not bad, bad
