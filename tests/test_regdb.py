"""regdb against nouveau's own headers: every BAR0 register that regdb and
Linux 6.1's nouveau both name (dispnv04/nvreg.h, nouveau_reg.h,
nvkm/engine/gr/regs.h) has nouveau's name, up to how the two spell a
generation (NV40_PGRAPH_INTR_EN is INTR_EN_NV40 here) and an access
(NV_PRMVIO_MISC__WRITE is MISC).  Where regdb deliberately differs (a name
from envytools for what nouveau calls UNK_800), its line says nouveau's
name with nouveau=NAME, and that is checked instead."""
import os
import re

import pytest

from nvdevkit import build, regdb

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
