"""PFIFO and PGRAPH over qtest, no guest: a channel set up as nouveau sets
one up (nvdevkit.qchannel), pushbuffers written into guest RAM, and what
the device did checked against what the test computes itself: the RAMHT
slots from nouveau's hash, the method stream from the command words, the
pixels of each 2D operation from its definition."""
import random

import pytest

from nvdevkit import trace
from nvdevkit.qchannel import (Channel, Nv40Channel, ENGINE_SW, method,
                               ramht_hash, PUSH_PHYS)

BOARD = 'nv11-ch7006'
VRAM = 32 << 20


def methods_in(path, chid=0):
    """(subc, mthd, data) of every method the pusher queued, from the trace"""
    _, records = trace.read(path)
    return [((r.addr >> 13) & 7, r.addr & 0x1ffc, r.value) for r in records
            if r.dir == 'M' and r.addr >> 16 == chid]


def fifo_intr(d):
    return d.rd32(0x002100)


# ---- RAMHT ------------------------------------------------------------------

def test_ramht_hash_matches_nouveau():
    """nouveau's nvkm_ramht_hash for the handles its kernel channel uses"""
    assert ramht_hash(0x80000002, 0) == 0x002 ^ 0x000 ^ 0x080   # 12-bit chunks
    assert ramht_hash(0x00000039, 0) == 0x039
    assert ramht_hash(0x00000039, 5) == 0x039 ^ (5 << 8)


def test_bind_finds_colliding_handles(device, tmp_path):
    """Three handles with the same hash sit in consecutive slots; binding
    each puts its own class on the subchannel (shown by PGRAPH when a bad
    method traps)."""
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        # 12-bit chunks 0x100; 0x001 and 0x101; 0x005 and 0x105: one hash
        handles = [0x00000100, 0x00001101, 0x00005105]
        assert len({ramht_hash(h, 0) for h in handles}) == 1
        classes = [0x39, 0x4a, 0x5f]
        objs = [c.gr_object(cls) for cls in classes]
        slots = [c.ramht_insert(h, o) for h, o in zip(handles, objs)]
        for subc, (h, cls) in enumerate(zip(handles, classes)):
            c.submit([method(subc, 0, 1), h, method(subc, 0x1ff0, 1), 0xdead])
            assert d.rd32(0x400100) & (1 << 20), 'no PGRAPH ERROR for a bad method'
            assert d.rd32(0x400108) & (1 << 6), 'NSOURCE is not ILLEGAL_MTHD'
            addr = d.rd32(0x400704)
            assert (addr >> 16) & 7 == subc and addr & 0x1ffc == 0x1ff0
            assert d.rd32(0x400708) == 0xdead
            assert d.rd32(0x400160 + subc * 4) & 0xfff == cls, \
                f'handle {h:#x} (slot {slots[subc]}) bound class ' \
                f'{d.rd32(0x400160 + subc * 4):#x}, want {cls:#x}'
            d.wr32(0x400100, 0xffffffff)
            d.wr32(0x400720, 1)                 # as nv10_gr_intr: resume
            d.clock_step(100000)
        assert c.get() == c.put


def test_unknown_handle_is_a_cache_error(device):
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        c.submit([method(0, 0, 1), 0x12345678])
        assert fifo_intr(d) & 1, 'no CACHE_ERROR'
        pull0 = d.rd32(0x003250)
        assert pull0 & 0x10 and not pull0 & 0x100, f'PULL0 {pull0:#x}: want HASH_FAILED'
        get = d.rd32(0x003270)
        assert d.rd32(0x003800 + (get & 0x7ff) * 2) == 0       # method 0, subc 0
        assert d.rd32(0x003804 + (get & 0x7ff) * 2) == 0x12345678


def test_software_object_traps_its_methods(device):
    """A method for an object of engine 0 (SW) stops the puller with
    CACHE_ERROR and PULL0 bit 8, the method in CACHE1 at GET, as
    nv04_fifo_cache_error reads it; after the driver's answer the rest
    of the pushbuffer runs."""
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        sw = c.alloc(16)
        c.ramht_insert(0x55550000, sw, engine=ENGINE_SW)
        c.submit([method(1, 0, 1), 0x55550000, method(1, 0x150, 1), 7,
                  method(0, 0x50, 1), 0x42])
        for want_mthd, want_data in ((0x0000, 0x55550000), (0x150, 7)):
            assert fifo_intr(d) & 1 and d.rd32(0x003250) & 0x100
            get = d.rd32(0x003270)
            ptr = (get & 0x7ff) >> 2
            assert d.rd32(0x003800 + ptr * 8) == 1 << 13 | want_mthd
            assert d.rd32(0x003804 + ptr * 8) == want_data
            # nv04_fifo_cache_error's answer
            d.wr32(0x003220, 0)
            d.wr32(0x002100, 1)
            d.wr32(0x003200, d.rd32(0x003200) & ~1)
            d.wr32(0x003270, get + 4)
            d.wr32(0x003200, d.rd32(0x003200) | 1)
            d.wr32(0x003258, 0)
            d.wr32(0x003220, d.rd32(0x003220) | 1)
            d.wr32(0x003250, 1)
            d.clock_step(100000)
        assert c.ref() == 0x42, 'REF_CNT not set after the traps'
        assert c.get() == c.put


# ---- the DMA pusher ---------------------------------------------------------

def test_pusher_decodes_every_command(device, tmp_path):
    """Increasing and non-increasing methods, old jump, jump, call and
    return: the methods queued are exactly the ones the words say."""
    with device(BOARD, trace=True) as d:
        c = Channel(d, VRAM)
        m2mf = c.gr_object(0x39)
        c.ramht_insert(0xbeef0039, m2mf)
        words = [method(2, 0, 1), 0xbeef0039,
                 method(2, 0x30c, 3), 1, 2, 3,                  # increasing
                 method(2, 0x314, 3, noninc=True), 4, 5, 6,     # non-increasing
                 0x20000000 | 0x100]                            # old jump
        words += [0] * (0x100 // 4 - len(words))
        words += [method(2, 0x318, 1), 7,
                  0x200 | 1]                                    # jump
        words += [0] * (0x200 // 4 - len(words))
        words += [0x300 | 2,                                    # call
                  method(2, 0x31c, 1), 9]                       # after return
        words += [0] * (0x300 // 4 - len(words))
        words += [method(2, 0x320, 2), 10, 11, 0x00020000]      # sub, return
        data = b''.join(w.to_bytes(4, 'little') for w in words)
        c.mem_write(PUSH_PHYS, data)
        c.put = 0x20c                                           # after the 9
        d.wr32(0x800040, c.put)
        d.clock_step(200000)
        assert c.get() == c.put
        assert fifo_intr(d) == 0
    got = [m for m in methods_in(tmp_path / 'trace.txt') if m[1]]
    assert got == [(2, 0x30c, 1), (2, 0x310, 2), (2, 0x314, 3),
                   (2, 0x314, 4), (2, 0x314, 5), (2, 0x314, 6),
                   (2, 0x318, 7), (2, 0x320, 10), (2, 0x324, 11),
                   (2, 0x31c, 9)], got


@pytest.mark.parametrize('word,err', [(0xe0000000, 4), (0x00000003, 4),
                                      (0x00020000, 3)])
def test_pusher_errors(device, word, err):
    """An invalid command, or a return outside a call: DMA_PUSHER with the
    error in DMA_STATE 31:29 and GET at the bad word; nouveau's recovery
    (GET = PUT, state cleared, pushing on) lets the next submission run."""
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        c.submit([0, word, 0])
        assert fifo_intr(d) & (1 << 12), 'no DMA_PUSHER interrupt'
        state = d.rd32(0x003228)
        assert state >> 29 == err, f'DMA_STATE {state:#x}, want error {err}'
        assert d.rd32(0x003244) == 4
        d.wr32(0x003244, d.rd32(0x003240))      # nv04_fifo_dma_pusher
        d.wr32(0x003228, 0)
        d.wr32(0x003220, 1)
        d.wr32(0x002100, 1 << 12)
        c.submit([method(0, 0x50, 1), 0x77])
        assert c.ref() == 0x77 and c.get() == c.put


def test_pushbuffer_beyond_its_dma_object(device):
    """A jump past the pushbuffer's ctxdma limit is a MEM_FAULT, not a
    read of whatever memory lies there."""
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        c.submit([0x20000000 | 0x100000])
        assert fifo_intr(d) & (1 << 12)
        assert d.rd32(0x003228) >> 29 == 6


# ---- 2D ---------------------------------------------------------------------

W, H, PITCH, BPP = 64, 48, 256, 4
SURF = 0x100000                     # VRAM offset of the test surface


def setup_2d(c, fmt=6):
    """surf2d on VRAM, clip, ROP, pattern, GDI and blit bound as fbcon
    binds them (nv04_fbcon_accel_init)"""
    objs = {}
    for i, cls in enumerate((0x62, 0x19, 0x43, 0x44, 0x4a, 0x9f)):
        objs[cls] = c.gr_object(cls)
        c.ramht_insert(0x10000 + cls, objs[cls])
    v = 0x80000002
    c.ramht_insert(v, c.vram)
    c.submit([method(0, 0, 1), 0x10062, method(0, 0x184, 2), v, v,
              method(0, 0x300, 4), fmt, PITCH << 16 | PITCH, SURF, SURF,
              method(0, 0, 1), 0x10043, method(0, 0x300, 1), 0x55,
              method(0, 0, 1), 0x10044, method(0, 0x300, 8), 3, 1, 0, 1,
              0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
              method(0, 0, 1), 0x10019, method(0, 0x300, 2), 0, H << 16 | W,
              method(2, 0, 1), 0x1009f, method(2, 0x19c, 1), 0x10062,
              method(2, 0x2fc, 1), 3,
              method(3, 0, 1), 0x1004a, method(3, 0x198, 1), 0x10062,
              method(3, 0x188, 2), 0x10044, 0x10043,
              method(3, 0x304, 1), 1, method(3, 0x300, 1), 3,
              method(3, 0x2fc, 1), 3])


def read_surface(c):
    raw = c.vram_read(SURF, PITCH * H)
    return [[int.from_bytes(raw[y * PITCH + x * 4:y * PITCH + x * 4 + 4], 'little')
             for x in range(W)] for y in range(H)]


def random_surface(c, rng):
    px = [[rng.getrandbits(24) for _ in range(W)] for _ in range(H)]
    raw = bytearray(PITCH * H)
    for y in range(H):
        for x in range(W):
            raw[y * PITCH + x * 4:y * PITCH + x * 4 + 4] = px[y][x].to_bytes(4, 'little')
    c.vram_write(SURF, bytes(raw))
    return px


def test_gdi_fill_and_xor(device):
    rng = random.Random(1)
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        setup_2d(c)
        want = random_surface(c, rng)
        # a solid fill, clipped by the clip rectangle at the right edge
        c.submit([method(3, 0x3fc, 1), 0x00123456,
                  method(3, 0x400, 2), 50 << 16 | 5, 30 << 16 | 7])
        for y in range(5, 12):
            for x in range(50, W):
                want[y][x] = 0x123456
        # ROP_AND with ROP 0x55 (NOT destination), fbcon's XOR fill
        c.submit([method(3, 0x2fc, 1), 1,
                  method(3, 0x400, 2), 3 << 16 | 20, 9 << 16 | 4])
        for y in range(20, 24):
            for x in range(3, 12):
                want[y][x] = ~want[y][x] & 0x00ffffff
        assert fifo_intr(d) == 0 and d.rd32(0x400100) == 0
        assert read_surface(c) == want


def test_gdi_colour_expansion(device):
    """1 bpp text: CGA6 bit order (MSB first in each byte, bytes in
    little-endian order), foreground and background, clipped to
    CLIP_POINT1 like fbcon's 12-pixel-wide glyph in a 16-bit-aligned
    stream."""
    rng = random.Random(2)
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        setup_2d(c)
        want = random_surface(c, rng)
        gw, gh, x0, y0, fg, bg = 12, 10, 7, 9, 0xff8000, 0x0000ff
        aw = (gw + 7) & ~7
        bits = [rng.getrandbits(1) for _ in range(aw * gh)]
        stream = bytearray((len(bits) + 7) // 8)
        for i, b in enumerate(bits):
            stream[i // 8] |= b << (7 - i % 8)
        stream += bytes(-len(stream) % 4)
        data = [int.from_bytes(stream[i:i + 4], 'little') for i in range(0, len(stream), 4)]
        c.submit([method(3, 0xbe4, 7), y0 << 16 | x0, (y0 + gh) << 16 | (x0 + gw),
                  bg, fg, gh << 16 | aw, gh << 16 | gw, y0 << 16 | x0,
                  method(3, 0xc00, len(data))] + data)
        for i, b in enumerate(bits):
            x, y = x0 + i % aw, y0 + i // aw
            if i % aw < gw:
                want[y][x] = fg if b else bg
        assert fifo_intr(d) == 0 and d.rd32(0x400100) == 0
        assert read_surface(c) == want


@pytest.mark.parametrize('src,dst', [((0, 8), (0, 0)), ((0, 0), (0, 8)),
                                     ((0, 0), (5, 0)), ((5, 3), (0, 0))])
def test_blit_overlapping(device, src, dst):
    """Overlapping copies on one surface behave as if through a buffer:
    scroll up, scroll down, and sideways both ways."""
    rng = random.Random(3)
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        setup_2d(c)
        before = random_surface(c, rng)
        w, h = 40, 30
        c.submit([method(2, 0x300, 3), src[1] << 16 | src[0],
                  dst[1] << 16 | dst[0], h << 16 | w])
        want = [row[:] for row in before]
        for y in range(h):
            for x in range(w):
                want[dst[1] + y][dst[0] + x] = before[src[1] + y][src[0] + x]
        assert fifo_intr(d) == 0 and d.rd32(0x400100) == 0
        assert read_surface(c) == want


# ---- M2MF -------------------------------------------------------------------

def test_m2mf_copies_between_vram_and_system_memory(device):
    """VRAM to guest RAM and back, odd lengths, pitches and offsets."""
    rng = random.Random(4)
    sysmem = 0x02000000
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        m2mf = c.gr_object(0x39)
        c.ramht_insert(0xbeef0039, m2mf)
        gart = c.dma_object(0x3d, 'pci', sysmem, sysmem + 0xfffff)
        c.ramht_insert(0x80000003, gart)
        c.ramht_insert(0x80000002, c.vram)
        src = bytes(rng.getrandbits(8) for _ in range(0x8000))
        c.vram_write(0x200000, src)
        c.submit([method(4, 0, 1), 0xbeef0039,
                  method(4, 0x184, 2), 0x80000002, 0x80000003,
                  method(4, 0x30c, 8), 0x200003, 0x11, 1000, 700, 333, 17, 0x101, 0])
        got = c.mem_read(sysmem, 0x11 + 700 * 17)
        for l in range(17):
            assert got[0x11 + l * 700:0x11 + l * 700 + 333] == src[3 + l * 1000:3 + l * 1000 + 333], l
        assert got[0x11 + 333:0x11 + 700] == bytes(700 - 333), 'wrote past the line'
        # and back, into VRAM elsewhere
        c.submit([method(4, 0x184, 2), 0x80000003, 0x80000002,
                  method(4, 0x30c, 8), 0x11, 0x300001, 700, 333, 333, 17, 0x101, 0])
        back = c.vram_read(0x300001, 333 * 17)
        assert back == b''.join(src[3 + l * 1000:3 + l * 1000 + 333] for l in range(17))
        assert fifo_intr(d) == 0 and d.rd32(0x400100) == 0


def test_m2mf_overrun_faults_and_recovers(device):
    """A copy past the ctxdma's limit is a PGRAPH DMA fault naming the
    method; once the driver acknowledges, a good copy still completes."""
    with device(BOARD) as d:
        c = Channel(d, VRAM)
        m2mf = c.gr_object(0x39)
        c.ramht_insert(0xbeef0039, m2mf)
        small = c.dma_object(0x3d, 'vram', 0x400000, 0x400fff)
        c.ramht_insert(0x80000009, small)
        c.ramht_insert(0x80000002, c.vram)
        c.submit([method(4, 0, 1), 0xbeef0039,
                  method(4, 0x184, 2), 0x80000002, 0x80000009,
                  method(4, 0x30c, 8), 0, 0xf00, 0x1000, 0x1000, 0x200, 1, 0x101, 0])
        assert d.rd32(0x400100) & (1 << 20), 'no PGRAPH error for the overrun'
        assert d.rd32(0x400108) & (1 << 8), 'NSOURCE is not DMA_W_PROTECTION'
        assert d.rd32(0x400704) & 0x1ffc == 0x328
        d.wr32(0x400100, 0xffffffff)
        d.wr32(0x400720, 1)
        d.clock_step(100000)
        c.vram_write(0x500000, b'nvdev!')
        c.submit([method(4, 0x184, 2), 0x80000002, 0x80000009,
                  method(4, 0x30c, 8), 0x500000, 0x10, 0x10, 0x10, 6, 1, 0x101, 0,
                  method(0, 0x50, 1), 0x99])
        assert c.vram_read(0x400010, 6) == b'nvdev!'
        assert c.ref() == 0x99 and c.get() == c.put


# ---- NV40: RAMFC where 0x2220 says ---------------------------------------

NV40_BOARDS = [('nv43', False), ('nv44', True)]     # board, NV44 class
NV40_VRAM = 128 << 20


def nv40_ramfc_in_vram(chid):
    """VRAM offset of an NV44-class RAMFC entry, from nouveau's own
    arithmetic (nv40_fifo_init: 0x2220 holds (VRAM size - 512 KiB + the
    RAMFC's instance address) >> 16; nv40 instmem's RAMFC is at 0x20000,
    128 bytes a channel, dmanv40.c)"""
    return NV40_VRAM - 512 * 1024 + 0x20000 + chid * 128


@pytest.mark.parametrize('board,nv44_class', NV40_BOARDS)
def test_nv40_channel_runs_from_its_ramfc(device, board, nv44_class):
    """An NV40 channel set up as nouveau sets one up (RAMFC entry, user
    area at 0xc00000, pushbuffer in VRAM) runs its pushbuffer: GET
    reaches PUT, REF_CNT takes the method's value, no interrupt."""
    with device(board) as d:
        c = Nv40Channel(d, NV40_VRAM, nv44_class=nv44_class)
        c.submit([method(0, 0x50, 1), 0x1234])
        assert c.get() == c.put == 8
        assert c.ref() == 0x1234
        assert fifo_intr(d) == 0


@pytest.mark.parametrize('board,nv44_class', NV40_BOARDS)
def test_nv40_channel_switch_saves_to_ramfc(device, board, nv44_class):
    """Two channels take turns: the first one's state goes to its RAMFC
    entry at nouveau's offsets (nv40_fifo_ramfc: DMA_PUT 0x00, DMA_GET
    0x04, REF_CNT 0x08, INSTANCE 0x0c) when the second one runs, and the
    first one's user area reads it back from there.  On the NV44 class the
    entry is where nouveau's 0x2220 arithmetic puts it in VRAM, read raw
    through BAR1."""
    with device(board) as d:
        a = Nv40Channel(d, NV40_VRAM, chid=0, nv44_class=nv44_class)
        b = Nv40Channel(d, NV40_VRAM, chid=1, nv44_class=nv44_class, first=a)
        a.submit([method(0, 0x50, 1), 0xaaaa])
        b.submit([method(0, 0x50, 1), 0xbbbb, method(0, 0x50, 1), 0xbbbc])
        assert d.rd32(0x003204) & 0x1f == 1, 'channel 1 is not the resident one'
        entry = [a.ri(0x20000 + off) for off in (0x00, 0x04, 0x08, 0x0c)]
        assert entry == [8, 8, 0xaaaa, a.push >> 4], [hex(w) for w in entry]
        if nv44_class:
            raw = a.vram_read(nv40_ramfc_in_vram(0), 16)
            words = [int.from_bytes(raw[i:i + 4], 'little') for i in range(0, 16, 4)]
            assert words == entry, [hex(w) for w in words]
        assert (a.get(), a.ref()) == (8, 0xaaaa)
        assert (b.get(), b.ref()) == (16, 0xbbbc)
        assert fifo_intr(d) == 0


# ---- NV41+ GART: a pushbuffer in guest RAM through the PCIE GART ------------

GART_PAGES = [0x01005000, 0x01002000]   # guest pages of GART pages 0 and 1
NV41_PT = 0x50000                       # RAMIN offset of an NV41 page table
NV44_PT = 0x80000                       # 512 KiB aligned, as nv44_mmu_init needs


def nv41_gart_on(c):
    """nv41_mmu_init, and nv41_vmm_pgt_pte's entries: (phys >> 7) | VALID,
    one 32-bit word a 4 KiB page, in RAMIN"""
    for i, phys in enumerate(GART_PAGES):
        c.wi(NV41_PT + i * 4, phys >> 7 | 1)
    c.d.wr32(0x100800, 0x00000002 | NV41_PT)
    c.d.wr32(0x10008c, c.d.rd32(0x10008c) | 0x100)
    c.d.wr32(0x100820, 0)


def nv44_gart_on(c, null_page):
    """nv44_mmu_init, and nv44_vmm_pgt_pte's packing: four 27-bit frame
    numbers in 16 bytes, the group's last word with 0x40000000; the PT's
    VRAM address from the size in 0x10020c and the PT's RAMIN offset"""
    frames = [p >> 12 for p in GART_PAGES] + [null_page >> 12] * 2
    words = [frames[0] | (frames[1] << 27) & 0xffffffff,
             frames[1] >> 5 | (frames[2] << 22) & 0xffffffff,
             frames[2] >> 10 | (frames[3] << 17) & 0xffffffff,
             frames[3] >> 15 | 0x40000000]
    for i, w in enumerate(words):
        c.wi(NV44_PT + i * 4, w)
    d = c.d
    addr = d.rd32(0x10020c) - (((NV44_PT >> 19) + 1) << 19)
    d.wr32(0x100850, 0x80000000)
    d.wr32(0x100818, null_page)
    d.wr32(0x100804, (512 * 1024 // 4) * 4096)
    d.wr32(0x100850, 0x00008000)
    d.wr32(0x10008c, d.rd32(0x10008c) | 0x200)
    d.wr32(0x100820, 0)
    d.wr32(0x10082c, 1)
    d.wr32(0x100800, addr | 0x00000010)


class GartChannel(Nv40Channel):
    """An NV40 channel whose pushbuffer is a PCI ctxdma over GART
    addresses 0-0x1fff: its bytes go to the guest pages GART_PAGES say."""
    def push_object(self):
        return self.dma_object(0x3d, 'pci', 0, len(GART_PAGES) * 0x1000 - 1)

    def push_write(self, off, data):
        while data:
            n = min(len(data), 0x1000 - off % 0x1000)
            self.mem_write(GART_PAGES[off // 0x1000] + off % 0x1000, data[:n])
            off, data = off + n, data[n:]


@pytest.mark.parametrize('board,nv44_class', NV40_BOARDS)
def test_gart_pushbuffer_in_scattered_pages(device, board, nv44_class):
    """A pushbuffer in two guest pages that are neither contiguous nor in
    order, mapped by the GART page table nouveau writes (NV41's in RAMIN,
    the NV44 class's packed one in VRAM): the pusher follows the table
    across the page boundary, not guest RAM's order, and what sits where
    an untranslated or contiguous fetch would read is never run."""
    with device(board) as d:
        c = GartChannel(d, NV40_VRAM, nv44_class=nv44_class)
        null_page = 0x01008000
        if nv44_class:
            nv44_gart_on(c, null_page)
        else:
            nv41_gart_on(c)
        decoy = b''.join(w.to_bytes(4, 'little') for w in [method(0, 0x50, 1), 0xbad] * 4)
        for phys in (0x0, 0x1000, GART_PAGES[0] + 0x1000, null_page):
            c.mem_write(phys, decoy)
        # REF_CNT methods up to 0xff8, then one whose three values start
        # on page 0 and end on page 1
        words = [method(0, 0x50, 1), 0x1000] * (0xff8 // 8)
        words += [method(0, 0x50, 3, noninc=True), 0x1111, 0x1112, 0x2222]
        c.submit(words, settle_ns=2000000)
        assert c.get() == c.put == 0x1008, hex(c.get())
        assert c.ref() == 0x2222
        assert fifo_intr(d) == 0


@pytest.mark.parametrize('board,nv44_class', NV40_BOARDS)
def test_m2mf_copies_from_scattered_gart_pages(device, board, nv44_class):
    """A buffer move as nouveau makes one on NV4x (nv04_bo_move_m2mf: M2MF
    from a PCI ctxdma over the GART to VRAM): four lines of 0x800 bytes
    from GART 0-0x1fff land in VRAM in GART order, the two scattered
    guest pages joined, and nothing of the page that follows the first in
    guest RAM."""
    rng = random.Random(2026)
    with device(board) as d:
        c = Nv40Channel(d, NV40_VRAM, nv44_class=nv44_class)
        if nv44_class:
            nv44_gart_on(c, 0x01008000)
        else:
            nv41_gart_on(c)
        pages = [rng.randbytes(0x1000) for _ in GART_PAGES]
        for phys, data in zip(GART_PAGES, pages):
            c.mem_write(phys, data)
        c.mem_write(GART_PAGES[0] + 0x1000, b'\xbd' * 0x1000)    # a decoy
        m2mf = c.gr_object(0x39)
        c.ramht_insert(0xbeef0039, m2mf)
        c.ramht_insert(0x80000005, c.dma_object(0x3d, 'pci', 0, 0x1fff))
        c.ramht_insert(0x80000002, c.vram)
        c.submit([method(1, 0, 1), 0xbeef0039,
                  method(1, 0x184, 2), 0x80000005, 0x80000002,
                  method(1, 0x30c, 8), 0, 0x600000, 0x800, 0x800, 0x800, 4, 0x101, 0,
                  method(0, 0x50, 1), 0x39], settle_ns=2000000)
        assert c.ref() == 0x39 and c.get() == c.put
        assert d.rd32(0x400100) == 0 and fifo_intr(d) == 0
        assert c.vram_read(0x600000, 0x2000) == b''.join(pages)
