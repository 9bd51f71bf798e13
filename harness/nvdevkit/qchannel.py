"""A DMA channel on the device over qtest, set up as nouveau 6.1 sets one
up (nvkm fifo/nv04.c, dmanv04.c, core/ramht.c, dma/usernv04.c), for
device tests that need no guest: instance memory layout, RAMHT entries,
DMA objects, a RAMFC entry, a pushbuffer in guest RAM and the user
area's PUT.

The RAMHT hash here is nouveau's (handle folded by XOR into 12 bits, the
channel at the top), written from its source: the device has to find
what nouveau puts where nouveau puts it."""
from .qtest import BAR1

RAMHT, RAMFC, RAMRO = 0x10000, 0x18000, 0x18800
RAMHT_BITS = 12
OBJECTS = 0x20000                   # where this helper allocates objects
PUSH_PHYS = 0x01000000              # the pushbuffer in guest RAM (16 MiB)
PUSH_SIZE = 0x10000

ENGINE_SW, ENGINE_GR = 0, 1


def ramht_hash(handle, chid, bits=RAMHT_BITS):
    h = 0
    while handle:
        h ^= handle & ((1 << bits) - 1)
        handle >>= bits
    return (h ^ (chid << (bits - 4))) & ((1 << bits) - 1)


def method(subc, mthd, count, noninc=False):
    return (0x40000000 if noninc else 0) | count << 18 | subc << 13 | mthd


class Channel:
    """Channel @chid of the NV10-generation PFIFO (nv11 board): 32-byte
    RAMFC entries, user area at 0x800000 + chid * 0x10000."""

    def __init__(self, d, vram_size, chid=0, ramfc_stride=32):
        self.d, self.chid, self.stride = d, chid, ramfc_stride
        self.next_obj = OBJECTS
        self.put = 0
        self.used = {}
        d.cfg_write(0x04, 0x0006, 2)                # memory + bus master
        d.wr32(0x000200, 0xffffffff)                # PMC: engines on
        d.wr32(0x002500, 0)                         # CACHES: no reassign
        d.wr32(0x002210, 0x03000000 | (RAMHT_BITS - 9) << 16 | RAMHT >> 8)
        d.wr32(0x002218, RAMRO >> 8)
        d.wr32(0x002214, RAMFC >> 8 | (0x10000 if ramfc_stride == 64 else 0))
        d.wr32(0x003204, 31)                        # PUSH1: the null channel
        d.wr32(0x002100, 0xffffffff)
        d.wr32(0x002140, 0xffffffff)
        d.wr32(0x400100, 0xffffffff)
        d.wr32(0x400140, 0xffffffff)
        d.wr32(0x003200, 1)
        d.wr32(0x003250, 1)
        d.wr32(0x002500, 1)
        self.vram = self.dma_object(0x3d, 'vram', 0, vram_size - 1)
        self.push = self.dma_object(0x3d, 'pci', PUSH_PHYS, PUSH_PHYS + PUSH_SIZE - 1)
        e = RAMFC + chid * self.stride
        self.wi(e + 0x00, 0)                        # DMA_PUT
        self.wi(e + 0x04, 0)                        # DMA_GET
        self.wi(e + 0x0c, self.push >> 4)           # INSTANCE (NV10 layout)
        self.wi(e + 0x14, 0x00086078)               # FETCH
        d.wr32(0x002504, d.rd32(0x002504) | 1 << chid)

    # instance memory through the PRAMIN window
    def wi(self, off, val):
        self.d.wr32(0x700000 + off, val)

    def ri(self, off):
        return self.d.rd32(0x700000 + off)

    def alloc(self, size):
        off = self.next_obj
        self.next_obj += (size + 15) & ~15
        return off

    def dma_object(self, cls, target, start, limit, ro=False):
        """A linear ctxdma as nouveau's nv04_dmaobj_bind writes it."""
        inst = self.alloc(16)
        flags = cls | 0x3000 | {'vram': 0, 'pci': 0x20000}[target]
        if ro:
            flags |= 0x4000
        self.wi(inst + 0, flags | (start & 0xfff) << 20)
        self.wi(inst + 4, limit - start)
        pte = (start & ~0xfff) | (0 if ro else 2)
        self.wi(inst + 8, pte)
        self.wi(inst + 12, pte)
        return inst

    def gr_object(self, cls):
        inst = self.alloc(16)
        self.wi(inst, cls)
        return inst

    def ramht_insert(self, handle, inst, engine=ENGINE_GR, chid=None):
        """nouveau's nvkm_ramht_insert: the hash slot or the next free one."""
        chid = self.chid if chid is None else chid
        h = ramht_hash(handle, chid)
        for i in range(1 << RAMHT_BITS):
            slot = (h + i) & ((1 << RAMHT_BITS) - 1)
            if slot not in self.used:
                break
        self.used[slot] = handle
        ctx = 0x80000000 | chid << 24 | engine << 16 | inst >> 4
        self.wi(RAMHT + slot * 8, handle)
        self.wi(RAMHT + slot * 8 + 4, ctx)
        return slot

    # guest RAM and VRAM
    def mem_write(self, phys, data):
        self.d.q(f'write {phys:#x} {len(data)} 0x{data.hex()}')

    def mem_read(self, phys, n):
        return bytes.fromhex(self.d.q(f'read {phys:#x} {n}').split()[1][2:])

    def vram_write(self, off, data):
        self.mem_write(BAR1 + off, data)

    def vram_read(self, off, n):
        return self.mem_read(BAR1 + off, n)

    # submission
    def submit(self, words, settle_ns=200000):
        data = b''.join(w.to_bytes(4, 'little') for w in words)
        self.mem_write(PUSH_PHYS + self.put, data)
        self.put += len(data)
        self.d.wr32(0x800000 + self.chid * 0x10000 + 0x40, self.put)
        self.d.clock_step(settle_ns)

    def get(self):
        return self.d.rd32(0x800000 + self.chid * 0x10000 + 0x44)

    def ref(self):
        return self.d.rd32(0x800000 + self.chid * 0x10000 + 0x48)
