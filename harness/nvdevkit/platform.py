"""What a card needs of the machine besides itself.  The nForce IGPs (NV1A,
NV1F) have no memory of their own: their driver asks the host bridge's
memory controller functions how much the chipset set aside and how fast
it runs (qemu-nvdev/nforce.c), so the machine gets those functions."""
import json
import os
import struct
import subprocess

from . import build

# PCI device ID of the IGP -> nForce generation, its functions, default MiB
NFORCE = {0x01a0: (1, (1, 3), 32), 0x01f0: (2, (1, 5), 64)}


def rom_pci_device(rom):
    """The PCI device ID in the image's PCI data structure, or None."""
    with open(rom, 'rb') as f:
        data = f.read(0x10000)
    if len(data) < 0x1a:
        return None
    pcir = struct.unpack_from('<H', data, 0x18)[0]
    if pcir + 8 > len(data) or data[pcir:pcir + 4] != b'PCIR':
        return None
    return struct.unpack_from('<H', data, pcir + 6)[0]


def _board_vram_mb(rom):
    tool = os.path.join(build.tools_dir(), 'nvbios')
    if not os.path.exists(tool):
        build.build_tools()
    r = subprocess.run([tool, 'dump', rom, '--json'], capture_output=True, text=True)
    if r.returncode:
        return None
    board = json.loads(r.stdout).get('board')
    return board and board.get('vram_mb')


def machine_args(rom, props=None):
    """QEMU arguments that go before the nvdev device for the card of @rom
    (@props its device properties: vram_mb= sets an nForce's share)."""
    if rom is None:
        return []
    dev = rom_pci_device(rom)
    if dev not in NFORCE:
        return []
    gen, functions, default_mb = NFORCE[dev]
    mb = (props or {}).get('vram_mb') or _board_vram_mb(rom) or default_mb
    args = []
    for fn in functions:
        args += ['-device', f'nvdev-nforce,addr=00.{fn},generation={gen},stolen_mb={mb}']
    return args
