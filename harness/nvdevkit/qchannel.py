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
    RAMFC entries, user area at 0x800000 + chid * 0x10000, the pushbuffer
    in guest RAM.  @first is a channel made before on the same device: this
    one then shares its instance memory heap and RAMHT and leaves PFIFO's
    set-up alone."""
    OBJECTS = OBJECTS
    USER, USER_STRIDE = 0x800000, 0x10000

    def __init__(self, d, vram_size, chid=0, ramfc_stride=32, first=None):
        self.d, self.chid, self.stride = d, chid, ramfc_stride
        self.vram_size = vram_size
        self.put = 0
        if first:
            self.heap, self.used = first.heap, first.used
        else:
            self.heap, self.used = [self.OBJECTS], {}
            d.cfg_write(0x04, 0x0006, 2)            # memory + bus master
            d.wr32(0x000200, 0xffffffff)            # PMC: engines on
            d.wr32(0x002500, 0)                     # CACHES: no reassign
            self.fifo_init()
            d.wr32(0x003204, 31)                    # PUSH1: the null channel
            d.wr32(0x002100, 0xffffffff)
            d.wr32(0x002140, 0xffffffff)
            d.wr32(0x400100, 0xffffffff)
            d.wr32(0x400140, 0xffffffff)
            d.wr32(0x003200, 1)
            d.wr32(0x003250, 1)
            d.wr32(0x002500, 1)
        self.vram = self.dma_object(0x3d, 'vram', 0, vram_size - 1)
        self.push = self.push_object()
        self.ramfc_init()
        d.wr32(0x002504, d.rd32(0x002504) | 1 << chid)

    def fifo_init(self):
        d = self.d
        d.wr32(0x002210, 0x03000000 | (RAMHT_BITS - 9) << 16 | RAMHT >> 8)
        d.wr32(0x002218, RAMRO >> 8)
        d.wr32(0x002214, RAMFC >> 8 | (0x10000 if self.stride == 64 else 0))

    def push_object(self):
        return self.dma_object(0x3d, 'pci', PUSH_PHYS, PUSH_PHYS + PUSH_SIZE - 1)

    def ramfc_init(self):
        e = RAMFC + self.chid * self.stride
        self.wi(e + 0x00, 0)                        # DMA_PUT
        self.wi(e + 0x04, 0)                        # DMA_GET
        self.wi(e + 0x0c, self.push >> 4)           # INSTANCE (NV10 layout)
        self.wi(e + 0x14, 0x00086078)               # FETCH

    def push_write(self, off, data):
        self.mem_write(PUSH_PHYS + off, data)

    def ramht_context(self, engine, inst, chid):
        return 0x80000000 | chid << 24 | engine << 16 | inst >> 4

    # instance memory through the PRAMIN window
    def wi(self, off, val):
        self.d.wr32(0x700000 + off, val)

    def ri(self, off):
        return self.d.rd32(0x700000 + off)

    def alloc(self, size):
        off = self.heap[0]
        self.heap[0] += (size + 15) & ~15
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
        ctx = self.ramht_context(engine, inst, chid)
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
        self.push_write(self.put, data)
        self.put += len(data)
        self.d.wr32(self.user + 0x40, self.put)
        self.d.clock_step(settle_ns)

    @property
    def user(self):
        return self.USER + self.chid * self.USER_STRIDE

    def get(self):
        return self.d.rd32(self.user + 0x44)

    def ref(self):
        return self.d.rd32(self.user + 0x48)


class Nv40Channel(Channel):
    """Channel @chid of the NV40-generation PFIFO (nv4x boards), as
    nouveau 6.1 sets one up (fifo/nv40.c, dmanv40.c, instmem/nv40.c):
    128-byte RAMFC entries at RAMIN 0x20000, which PFIFO's 0x2220 names
    in 64 KiB units of RAMIN on NV40-NV43, NV45, NV47-NV49 and NV4B
    (nouveau writes 0x2230 = 1 first on NV47, NV49 and NV4B; not done
    here) and as a VRAM address on the NV44 class (@nv44_class: RAMIN is
    the last 512 KiB of VRAM there); the user area 4 KiB a channel at 0xc00000; the RAMHT
    context with the channel at bit 23 and the engine at bit 20, no
    valid bit.  The pushbuffer is in VRAM (a PCI ctxdma goes through the
    GART from NV41 on)."""
    RAMFC = 0x20000
    OBJECTS = 0x40000                   # past nv40 instmem's fixed objects
    USER, USER_STRIDE = 0xc00000, 0x1000
    PUSH_VRAM = 0x800000

    def __init__(self, d, vram_size, chid=0, nv44_class=False, first=None):
        self.nv44_class = nv44_class
        super().__init__(d, vram_size, chid, 128, first)

    def ramfc_register(self):
        """nv40_fifo_init's 0x2220"""
        if self.nv44_class:
            return (self.vram_size - 512 * 1024 + self.RAMFC) >> 16 | 0x00030000
        return 0x00030000 | self.RAMFC >> 16

    def fifo_init(self):
        d = self.d
        d.wr32(0x002040, 0x000000ff)
        d.wr32(0x002044, 0x2101ffff)
        d.wr32(0x002058, 0x00000001)
        d.wr32(0x002210, 0x03000000 | (RAMHT_BITS - 9) << 16 | RAMHT >> 8)
        d.wr32(0x002218, RAMRO >> 8)
        d.wr32(0x002220, self.ramfc_register())

    def push_object(self):
        return self.dma_object(0x3d, 'vram', self.PUSH_VRAM,
                               self.PUSH_VRAM + PUSH_SIZE - 1)

    def ramfc_init(self):
        e = self.RAMFC + self.chid * 128
        self.wi(e + 0x00, 0)                        # DMA_PUT
        self.wi(e + 0x04, 0)                        # DMA_GET
        self.wi(e + 0x0c, self.push >> 4)           # INSTANCE
        self.wi(e + 0x18, 0x30086078)               # FETCH, 0x2058's bits
        self.wi(e + 0x3c, 0x0001ffff)               # TIMESLICE

    def push_write(self, off, data):
        self.vram_write(self.PUSH_VRAM + off, data)

    def ramht_context(self, engine, inst, chid):
        return chid << 23 | engine << 20 | inst >> 4
