/*
 * nvdev PFIFO (0x002000): channels, the DMA pusher and the puller.
 *
 * One channel at a time is resident in CACHE1: its pusher state (DMA_PUT,
 * DMA_GET, DMA_STATE, ...) lives in the CACHE1 registers, every other
 * channel's in its RAMFC entry in instance memory.  The pusher fetches
 * commands from the channel's pushbuffer through its DMA object, decodes
 * them (envytools hwdocs fifo/dma-pusher) and queues (subchannel, method,
 * data) into CACHE1; the puller takes them out and executes them: method 0
 * binds an object found in RAMHT, 0x50-0x6c are PFIFO's own (reference
 * counter, semaphores), the rest go to the engine the subchannel's object
 * belongs to.  A method for a software object, an unknown handle or a bad
 * command stops the FIFO with an interrupt, as nouveau's nv04_fifo_intr
 * expects, until the driver has dealt with it.
 *
 * Work happens in virtual time: a write to a channel's PUT arms a
 * QEMU_CLOCK_VIRTUAL timer, so with -icount the same boot gives the same
 * trace.  Each run is bounded; a channel with more to do re-arms it.
 *
 * The layouts differ per generation and are data here: RAMFC entries
 * (nouveau fifo/nv04.c, nv10.c, nv17.c, nv40.c agree with envytools),
 * user area placement, CACHE1 size, RAMHT context bits.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"

/* a PFIFO register by its offset in PFIFO (nvdev-regs.h) */
#define R(s, off)           ((s)->pfifo.regs[(off) >> 2])

/* the values of DMA_STATE's ERROR field (the fields: nv.regdb) */
#define ERR_CALL_SUBR_ACTIVE    1
#define ERR_INVALID_MTHD        2
#define ERR_RET_SUBR_INACTIVE   3
#define ERR_INVALID_CMD         4
#define ERR_MEM_FAULT           6

/* SEMAPHORE: ctxdma instance >> 4 in 31:16, offset in 11:2, and (ours)
 * bit 1 while an ACQUIRE waits for its value */
#define SEM_WAITING             (1u << 1)

#define ENGINE_SW               0
#define ENGINE_GR               1

#define RUN_BUDGET              8192    /* pushbuffer words per timer run */
#define TIMESLICE               1024    /* words before another channel may run */
#define KICK_NS                 1000    /* PUT write to the pusher waking up */
#define SEMA_POLL_NS            20000   /* re-check of a waiting acquire */

/* One RAMFC field: @bits of register @reg from bit @rshift, stored at
 * byte @off of the entry from bit @cshift. */
typedef struct RamfcField {
    uint8_t bits, rshift, off, cshift;
    uint16_t reg;
} RamfcField;

static const RamfcField ramfc_nv04[] = {
    { 32,  0, 0x00,  0, NV_PFIFO_CACHE1_DMA_PUT },
    { 32,  0, 0x04,  0, NV_PFIFO_CACHE1_DMA_GET },
    { 16,  0, 0x08,  0, NV_PFIFO_CACHE1_DMA_INSTANCE },
    { 16,  0, 0x08, 16, NV_PFIFO_CACHE1_DMA_DCOUNT },
    { 32,  0, 0x0c,  0, NV_PFIFO_CACHE1_DMA_STATE },
    { 32,  0, 0x10,  0, NV_PFIFO_CACHE1_DMA_FETCH },
    { 32,  0, 0x14,  0, NV_PFIFO_CACHE1_ENGINE },
    { 32,  0, 0x18,  0, NV_PFIFO_CACHE1_PULL1 },
    { 0 }
};

static const RamfcField ramfc_nv10[] = {
    { 32,  0, 0x00,  0, NV_PFIFO_CACHE1_DMA_PUT },
    { 32,  0, 0x04,  0, NV_PFIFO_CACHE1_DMA_GET },
    { 32,  0, 0x08,  0, NV_PFIFO_CACHE1_REF_CNT },
    { 16,  0, 0x0c,  0, NV_PFIFO_CACHE1_DMA_INSTANCE },
    { 16,  0, 0x0c, 16, NV_PFIFO_CACHE1_DMA_DCOUNT },
    { 32,  0, 0x10,  0, NV_PFIFO_CACHE1_DMA_STATE },
    { 32,  0, 0x14,  0, NV_PFIFO_CACHE1_DMA_FETCH },
    { 32,  0, 0x18,  0, NV_PFIFO_CACHE1_ENGINE },
    { 32,  0, 0x1c,  0, NV_PFIFO_CACHE1_PULL1 },
    { 0 }
};

static const RamfcField ramfc_nv17[] = {
    { 32,  0, 0x00,  0, NV_PFIFO_CACHE1_DMA_PUT },
    { 32,  0, 0x04,  0, NV_PFIFO_CACHE1_DMA_GET },
    { 32,  0, 0x08,  0, NV_PFIFO_CACHE1_REF_CNT },
    { 16,  0, 0x0c,  0, NV_PFIFO_CACHE1_DMA_INSTANCE },
    { 16,  0, 0x0c, 16, NV_PFIFO_CACHE1_DMA_DCOUNT },
    { 32,  0, 0x10,  0, NV_PFIFO_CACHE1_DMA_STATE },
    { 32,  0, 0x14,  0, NV_PFIFO_CACHE1_DMA_FETCH },
    { 32,  0, 0x18,  0, NV_PFIFO_CACHE1_ENGINE },
    { 32,  0, 0x1c,  0, NV_PFIFO_CACHE1_PULL1 },
    { 32,  0, 0x20,  0, NV_PFIFO_CACHE1_ACQUIRE_VALUE },
    { 32,  0, 0x24,  0, NV_PFIFO_CACHE1_ACQUIRE_TIMESTAMP },
    { 32,  0, 0x28,  0, NV_PFIFO_CACHE1_ACQUIRE_TIMEOUT },
    { 32,  0, 0x2c,  0, NV_PFIFO_CACHE1_SEMAPHORE },
    { 32,  0, 0x30,  0, NV_PFIFO_CACHE1_DMA_SUBROUTINE },
    { 0 }
};

static const RamfcField ramfc_nv40[] = {
    { 32,  0, 0x00,  0, NV_PFIFO_CACHE1_DMA_PUT },
    { 32,  0, 0x04,  0, NV_PFIFO_CACHE1_DMA_GET },
    { 32,  0, 0x08,  0, NV_PFIFO_CACHE1_REF_CNT },
    { 32,  0, 0x0c,  0, NV_PFIFO_CACHE1_DMA_INSTANCE },
    { 32,  0, 0x10,  0, NV_PFIFO_CACHE1_DMA_DCOUNT },
    { 32,  0, 0x14,  0, NV_PFIFO_CACHE1_DMA_STATE },
    { 28,  0, 0x18,  0, NV_PFIFO_CACHE1_DMA_FETCH },
    { 2,  28, 0x18, 28, 0x0058 },
    { 32,  0, 0x1c,  0, NV_PFIFO_CACHE1_ENGINE },
    { 32,  0, 0x20,  0, NV_PFIFO_CACHE1_PULL1 },
    { 32,  0, 0x24,  0, NV_PFIFO_CACHE1_ACQUIRE_VALUE },
    { 32,  0, 0x28,  0, NV_PFIFO_CACHE1_ACQUIRE_TIMESTAMP },
    { 32,  0, 0x2c,  0, NV_PFIFO_CACHE1_ACQUIRE_TIMEOUT },
    { 32,  0, 0x30,  0, NV_PFIFO_CACHE1_SEMAPHORE },
    { 32,  0, 0x34,  0, NV_PFIFO_CACHE1_DMA_SUBROUTINE },
    { 32,  0, 0x38,  0, NV_PFIFO_GRCTX_INSTANCE },
    { 17,  0, 0x3c,  0, NV_PFIFO_DMA_TIMESLICE },
    { 32,  0, 0x40,  0, 0x12e4 },
    { 32,  0, 0x44,  0, 0x12e8 },
    { 32,  0, 0x4c,  0, 0x0088 },
    { 32,  0, 0x50,  0, 0x1300 },
    { 32,  0, 0x54,  0, 0x130c },
    { 0 }
};

/* What differs between the generations of PFIFO */
typedef struct FifoGen {
    uint32_t channels;
    uint32_t cache_entries;     /* CACHE1 depth */
    uint32_t push1_dma;         /* PUSH1's DMA-mode bit */
    const RamfcField *ramfc;
    bool nv10_cmds;             /* non-increasing methods, jump, call */
    bool ref_cnt, semaphores;
    bool nv40;                  /* RAMHT context and RAMFC layout of NV40 */
} FifoGen;

static const FifoGen gen_nv04 = { 16, 32, 1u << 8, ramfc_nv04 };
static const FifoGen gen_nv10 = { 32, 64, 1u << 8, ramfc_nv10, true, true };
static const FifoGen gen_nv17 = { 32, 64, 1u << 8, ramfc_nv17, true, true, true };
static const FifoGen gen_nv40 = { 32, 128, 1u << 16, ramfc_nv40, true, true,
                                  true, true };

static const FifoGen *fifo_gen(NVDevState *s)
{
    if (s->chip->family == NV_40) {
        return &gen_nv40;
    }
    if (s->chip->family == NV_04) {
        return &gen_nv04;
    }
    /* NV17+ PFIFO: the NV10 one plus semaphores (nouveau fifo/nv17.c);
     * the nForce IGP (NV1A) came after NV17 with NV10's */
    return s->chip->chipset >= 0x17 && s->chip->chipset != 0x1a ?
           &gen_nv17 : &gen_nv10;
}

uint32_t nv_pfifo_reg(NVDevState *s, uint32_t reg)
{
    return reg < sizeof(s->pfifo.regs) ? R(s, reg) : 0;
}

uint32_t nv_pfifo_nr_channels(NVDevState *s)
{
    return fifo_gen(s)->channels;
}

uint32_t nv_pfifo_intr(NVDevState *s)
{
    return R(s, NV_PFIFO_INTR_0) & R(s, NV_PFIFO_INTR_EN_0);
}

static void fifo_intr(NVDevState *s, uint32_t bits)
{
    R(s, NV_PFIFO_INTR_0) |= bits;
    nvdev_update_irq(s);
}

/* ---- channels and RAMFC ------------------------------------------------ */

static uint32_t cur_chid(NVDevState *s)
{
    return R(s, NV_PFIFO_CACHE1_PUSH1) & (fifo_gen(s)->channels - 1);
}

static bool cur_dma(NVDevState *s)
{
    return R(s, NV_PFIFO_CACHE1_PUSH1) & fifo_gen(s)->push1_dma;
}

static uint32_t ramfc_entry(NVDevState *s, uint32_t chid)
{
    if (fifo_gen(s)->nv40) {
        uint32_t base = (R(s, NV_PFIFO_RAMFC_NV40) & 0xfff) << 16, off;

        if ((s->chip->caps & NV_CAP_RAMIN_512K)) {
            /* a VRAM address on the NV44 class */
            if (!nv_ramin_of_vram(s, base, &off)) {
                qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: RAMFC at VRAM "
                              "0x%x is beyond VRAM\n", base);
                off = 0;
            }
            base = off;
        }
        return base + chid * 128;
    }
    return ((R(s, NV_PFIFO_RAMFC) & 0x1ff) << 8) +
           chid * (R(s, NV_PFIFO_RAMFC) & 0x10000 ? 64 : 32);
}

/* A RAMFC register of @chid: the live one if resident, else from RAMFC. */
static const RamfcField *ramfc_field(NVDevState *s, uint16_t reg)
{
    for (const RamfcField *f = fifo_gen(s)->ramfc; f->bits; f++) {
        if (f->reg == reg && f->rshift == 0) {
            return f;
        }
    }
    return NULL;
}

static uint32_t chan_reg(NVDevState *s, uint32_t chid, uint16_t reg)
{
    const RamfcField *f = ramfc_field(s, reg);
    uint32_t mask;

    if (chid == cur_chid(s) && cur_dma(s)) {
        return R(s, reg);
    }
    if (!f) {
        return 0;
    }
    mask = f->bits == 32 ? ~0u : (1u << f->bits) - 1;
    return (nv_ramin_rd32(s, ramfc_entry(s, chid) + f->off) >> f->cshift) & mask;
}

static void chan_set_reg(NVDevState *s, uint32_t chid, uint16_t reg,
                         uint32_t val)
{
    const RamfcField *f = ramfc_field(s, reg);
    uint32_t mask, off, word;

    if (chid == cur_chid(s) && cur_dma(s)) {
        R(s, reg) = val;
        return;
    }
    if (!f) {
        return;
    }
    mask = f->bits == 32 ? ~0u : (1u << f->bits) - 1;
    off = ramfc_entry(s, chid) + f->off;
    word = nv_ramin_rd32(s, off) & ~(mask << f->cshift);
    nv_ramin_wr32(s, off, word | ((val & mask) << f->cshift));
}

static void ramfc_save(NVDevState *s, uint32_t chid)
{
    uint32_t base = ramfc_entry(s, chid);

    for (const RamfcField *f = fifo_gen(s)->ramfc; f->bits; f++) {
        uint32_t mask = f->bits == 32 ? ~0u : (1u << f->bits) - 1;
        uint32_t v = (R(s, f->reg) >> f->rshift) & mask;
        uint32_t word = nv_ramin_rd32(s, base + f->off) & ~(mask << f->cshift);

        nv_ramin_wr32(s, base + f->off, word | (v << f->cshift));
    }
}

static void ramfc_load(NVDevState *s, uint32_t chid)
{
    uint32_t base = ramfc_entry(s, chid);

    for (const RamfcField *f = fifo_gen(s)->ramfc; f->bits; f++) {
        uint32_t mask = f->bits == 32 ? ~0u : (1u << f->bits) - 1;
        uint32_t v = (nv_ramin_rd32(s, base + f->off) >> f->cshift) & mask;

        R(s, f->reg) = (R(s, f->reg) & ~(mask << f->rshift)) | (v << f->rshift);
    }
}

static bool cache_empty(NVDevState *s)
{
    return R(s, NV_PFIFO_CACHE1_GET) == R(s, NV_PFIFO_CACHE1_PUT);
}

static uint32_t cache_mask(NVDevState *s)
{
    return fifo_gen(s)->cache_entries * 4 - 1;
}

/* Is @chid's semaphore acquire still waiting?  Re-reads the semaphore. */
static bool sema_blocked(NVDevState *s, uint32_t chid);

static bool chan_has_work(NVDevState *s, uint32_t chid)
{
    if (!(R(s, NV_PFIFO_MODE) & (1u << chid))) {
        return false;
    }
    if (fifo_gen(s)->semaphores &&
        (chan_reg(s, chid, NV_PFIFO_CACHE1_SEMAPHORE) & SEM_WAITING) &&
        sema_blocked(s, chid)) {
        return false;
    }
    if (FIELD_EX32(chan_reg(s, chid, NV_PFIFO_CACHE1_DMA_STATE),
                   NV_PFIFO_CACHE1_DMA_STATE, ERROR)) {
        return false;
    }
    return chan_reg(s, chid, NV_PFIFO_CACHE1_DMA_PUT) !=
           chan_reg(s, chid, NV_PFIFO_CACHE1_DMA_GET);
}

/* Switch CACHE1 to the next channel with work, round robin. */
static bool fifo_switch(NVDevState *s)
{
    const FifoGen *g = fifo_gen(s);
    uint32_t cur = cur_chid(s);

    if (!(R(s, NV_PFIFO_CACHES) & 1) || !cache_empty(s)) {
        return false;
    }
    for (uint32_t i = 1; i <= g->channels; i++) {
        uint32_t next = (cur + i) % g->channels;

        if (next == cur && cur_dma(s)) {
            break;                  /* nobody else: stay */
        }
        if (!chan_has_work(s, next)) {
            continue;
        }
        if (cur_dma(s) && (R(s, NV_PFIFO_MODE) & (1u << cur))) {
            ramfc_save(s, cur);
        }
        ramfc_load(s, next);
        R(s, NV_PFIFO_CACHE1_PUSH1) = next | g->push1_dma;
        R(s, NV_PFIFO_CACHE1_DMA_PUSH) |=
            R_NV_PFIFO_CACHE1_DMA_PUSH_ACCESS_MASK;
        s->pfifo.slice = 0;
        return true;
    }
    return false;
}

/* ---- RAMHT ------------------------------------------------------------- */

/*
 * Look @handle up for @chid: nouveau's hash (core/ramht.c: the handle's
 * bits folded by XOR, the channel at the top), then up to "search"
 * entries on.  Returns the context word, 0 when not found.
 */
static uint32_t ramht_find(NVDevState *s, uint32_t chid, uint32_t handle)
{
    uint32_t reg = R(s, NV_PFIFO_RAMHT);
    uint32_t base = (reg & 0x1ff) << 8;
    uint32_t bits = ((reg >> 16) & 3) + 9;
    uint32_t entries = 1u << bits;
    uint32_t search = 16u << ((reg >> 24) & 3);
    uint32_t hash = 0;
    bool nv40 = fifo_gen(s)->nv40;

    for (uint32_t h = handle; h; h >>= bits) {
        hash ^= h & (entries - 1);
    }
    hash ^= chid << (bits - 4);
    hash &= entries - 1;

    for (uint32_t i = 0; i < search && i < entries; i++) {
        uint32_t e = base + ((hash + i) & (entries - 1)) * 8;
        uint32_t ctx;

        if (nv_ramin_rd32(s, e) != handle) {
            continue;
        }
        ctx = nv_ramin_rd32(s, e + 4);
        if (nv40 ? ((ctx >> 23) & 0x1f) == chid && ctx :
                   (ctx & 0x80000000) && ((ctx >> 24) & 0x1f) == chid) {
            return ctx;
        }
    }
    return 0;
}

static uint32_t ctx_engine(NVDevState *s, uint32_t ctx)
{
    return fifo_gen(s)->nv40 ? (ctx >> 20) & 3 : (ctx >> 16) & 3;
}

static uint32_t ctx_inst(NVDevState *s, uint32_t ctx)
{
    return (fifo_gen(s)->nv40 ? ctx & 0xfffff : ctx & 0xffff) << 4;
}

/* ---- the puller -------------------------------------------------------- */

static bool sema_dma(NVDevState *s, uint32_t sem, NVDmaObj *o)
{
    return nv_dma_object(s, (sem >> 16) << 4, o, "PFIFO semaphore");
}

static bool sema_blocked(NVDevState *s, uint32_t chid)
{
    uint32_t sem = chan_reg(s, chid, NV_PFIFO_CACHE1_SEMAPHORE);
    uint32_t want = chan_reg(s, chid, NV_PFIFO_CACHE1_ACQUIRE_VALUE);
    uint32_t have;
    NVDmaObj o;

    if (!sema_dma(s, sem, &o) ||
        !nv_dma_rw(s, &o, sem & 0xffc, &have, 4, false, "PFIFO semaphore")) {
        return false;               /* a broken semaphore blocks nothing */
    }
    if (le32_to_cpu(have) != want) {
        return true;
    }
    chan_set_reg(s, chid, NV_PFIFO_CACHE1_SEMAPHORE, sem & ~SEM_WAITING);
    return false;
}

/* PFIFO's own methods, 0x04..0xfc.  False: the puller must stop. */
static bool fifo_method(NVDevState *s, uint32_t chid, uint32_t mthd,
                        uint32_t data)
{
    const FifoGen *g = fifo_gen(s);
    uint32_t sem = R(s, NV_PFIFO_CACHE1_SEMAPHORE);
    NVDmaObj o;
    uint32_t ctx, v;

    switch (mthd) {
    case 0x50:                      /* REF_CNT: engines are idle here */
        if (g->ref_cnt) {
            R(s, NV_PFIFO_CACHE1_REF_CNT) = data;
            return true;
        }
        break;
    case 0x60:                      /* SEMAPHORE ctxdma, a handle */
        if (!g->semaphores) {
            break;
        }
        ctx = ramht_find(s, chid, data);
        if (!ctx) {
            R(s, NV_PFIFO_CACHE1_PULL0) |=
                R_NV_PFIFO_CACHE1_PULL0_HASH_FAILED_MASK;
            fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
            return false;
        }
        R(s, NV_PFIFO_CACHE1_SEMAPHORE) = (ctx_inst(s, ctx) >> 4) << 16 |
                                          (sem & 0xfff);
        return true;
    case 0x64:                      /* SEMAPHORE_OFFSET */
        if (!g->semaphores) {
            break;
        }
        if (data & ~0xffcu) {
            qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: ch %u semaphore "
                          "offset 0x%x: at most 0xffc, 4-aligned\n", chid, data);
        }
        R(s, NV_PFIFO_CACHE1_SEMAPHORE) = (sem & 0xffff0000) | (data & 0xffc);
        return true;
    case 0x68:                      /* SEMAPHORE_ACQUIRE */
    case 0x6c:                      /* SEMAPHORE_RELEASE */
        if (!g->semaphores) {
            break;
        }
        if (!sema_dma(s, sem, &o)) {
            fifo_intr(s, R_NV_PFIFO_INTR_0_SEMAPHORE_MASK);
            R(s, NV_PFIFO_CACHE1_PULL0) &= ~R_NV_PFIFO_CACHE1_PULL0_ACCESS_MASK;
            return false;
        }
        if (mthd == 0x6c) {
            v = cpu_to_le32(data);
            if (!nv_dma_rw(s, &o, sem & 0xffc, &v, 4, true,
                           "PFIFO semaphore release")) {
                fifo_intr(s, R_NV_PFIFO_INTR_0_SEMAPHORE_MASK);
                R(s, NV_PFIFO_CACHE1_PULL0) &=
                    ~R_NV_PFIFO_CACHE1_PULL0_ACCESS_MASK;
                return false;
            }
            return true;
        }
        R(s, NV_PFIFO_CACHE1_ACQUIRE_VALUE) = data;
        R(s, NV_PFIFO_CACHE1_SEMAPHORE) = sem | SEM_WAITING;
        sema_blocked(s, chid);
        return true;
    default:
        break;
    }
    /* a method nothing implements: nouveau reports it as a CACHE_ERROR */
    qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: ch %u: method 0x%04x is "
                  "not a PFIFO method\n", chid, mthd);
    fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
    return false;
}

typedef enum {
    PULL_DONE,                     /* done: the next one */
    PULL_STOPPED,                    /* a trap or an error: the driver's turn */
    PULL_ENGINE_BUSY,                /* PGRAPH still works on the last one */
} PullResult;

/* Execute CACHE1's oldest entry. */
static PullResult pull_one(NVDevState *s)
{
    uint32_t get = R(s, NV_PFIFO_CACHE1_GET);
    uint32_t slot = (get & cache_mask(s)) >> 2;
    uint32_t addr = R(s, NV_PFIFO_CACHE1_METHOD_DATA + slot * 8);
    uint32_t data = R(s, NV_PFIFO_CACHE1_METHOD_DATA + slot * 8 + 4);
    uint32_t subc = (addr >> 13) & 7, mthd = addr & 0x1ffc;
    uint32_t chid = cur_chid(s);
    uint32_t engine = (R(s, NV_PFIFO_CACHE1_ENGINE) >> (subc * 4)) & 3;
    uint32_t ctx;

    if (mthd == 0) {
        ctx = ramht_find(s, chid, data);
        if (!ctx) {
            qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: ch %u subc %u: "
                          "handle 0x%08x is not in RAMHT\n", chid, subc, data);
            R(s, NV_PFIFO_CACHE1_PULL0) |=
                R_NV_PFIFO_CACHE1_PULL0_HASH_FAILED_MASK;
            fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
            return PULL_STOPPED;
        }
        engine = ctx_engine(s, ctx);
        R(s, NV_PFIFO_CACHE1_HASH) = ctx_inst(s, ctx) >> 4;
        R(s, NV_PFIFO_CACHE1_ENGINE) =
            (R(s, NV_PFIFO_CACHE1_ENGINE) & ~(0xfu << (subc * 4))) |
            engine << (subc * 4);
        if (engine == ENGINE_GR) {
            nv_pgraph_bind(s, chid, subc, ctx_inst(s, ctx));
        } else if (engine == ENGINE_SW) {
            R(s, NV_PFIFO_CACHE1_PULL0) |=
                R_NV_PFIFO_CACHE1_PULL0_SW_METHOD_MASK;
            fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
            return PULL_STOPPED;
        }
    } else if (mthd < 0x100) {
        /* a reference or a semaphore release says the work before it is
         * done: it waits for the engine */
        if ((mthd == 0x50 || mthd == 0x6c) &&
            nv_pgraph_busy_until(s) > qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) {
            return PULL_ENGINE_BUSY;
        }
        if (!fifo_method(s, chid, mthd, data)) {
            return PULL_STOPPED;
        }
    } else if (engine == ENGINE_SW) {
        if (mthd >= 0x180 && mthd < 0x200) {
            ctx = ramht_find(s, chid, data);
            R(s, NV_PFIFO_CACHE1_HASH) = ctx ? ctx_inst(s, ctx) >> 4 : 0;
        }
        R(s, NV_PFIFO_CACHE1_PULL0) |= R_NV_PFIFO_CACHE1_PULL0_SW_METHOD_MASK;
        fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
        return PULL_STOPPED;
    } else if (engine == ENGINE_GR) {
        if (nv_pgraph_busy_until(s) > qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) {
            return PULL_ENGINE_BUSY;
        }
        if (!nv_pgraph_ready(s)) {
            return PULL_STOPPED;         /* PGRAPH stalled: waits for the driver */
        }
        if (mthd >= 0x180 && mthd < 0x200) {
            ctx = ramht_find(s, chid, data);
            if (!ctx) {
                qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: ch %u subc %u "
                              "mthd 0x%04x: handle 0x%08x is not in RAMHT\n",
                              chid, subc, mthd, data);
                R(s, NV_PFIFO_CACHE1_PULL0) |=
                    R_NV_PFIFO_CACHE1_PULL0_HASH_FAILED_MASK;
                fifo_intr(s, R_NV_PFIFO_INTR_0_CACHE_ERROR_MASK);
                return PULL_STOPPED;
            }
            data = ctx_inst(s, ctx);
            R(s, NV_PFIFO_CACHE1_HASH) = data >> 4;
        }
        nv_pgraph_method(s, chid, subc, mthd, data);
    } else {
        qemu_log_mask(LOG_UNIMP, "nvdev: PFIFO: ch %u subc %u mthd 0x%04x for "
                      "engine %u, which is not modelled: dropped\n", chid,
                      subc, mthd, engine);
    }
    R(s, NV_PFIFO_CACHE1_GET) = (get + 4) & cache_mask(s);
    return PULL_DONE;
}

static bool puller_can_run(NVDevState *s)
{
    uint32_t pull0 = R(s, NV_PFIFO_CACHE1_PULL0);

    return (pull0 & R_NV_PFIFO_CACHE1_PULL0_ACCESS_MASK) &&
           !(pull0 & (R_NV_PFIFO_CACHE1_PULL0_HASH_FAILED_MASK |
                      R_NV_PFIFO_CACHE1_PULL0_SW_METHOD_MASK)) &&
           !FIELD_EX32(R(s, NV_PFIFO_INTR_0), NV_PFIFO_INTR_0, CACHE_ERROR) &&
           !cache_empty(s);
}

/* ---- the DMA pusher ---------------------------------------------------- */

static void pusher_error(NVDevState *s, uint32_t err, uint32_t word)
{
    uint32_t chid = cur_chid(s);
    uint32_t st = R(s, NV_PFIFO_CACHE1_DMA_STATE);

    qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PFIFO: ch %u DMA pusher error %u "
                  "at GET 0x%08x (word 0x%08x)\n", chid, err,
                  R(s, NV_PFIFO_CACHE1_DMA_GET), word);
    R(s, NV_PFIFO_CACHE1_DMA_STATE) =
        FIELD_DP32(st, NV_PFIFO_CACHE1_DMA_STATE, ERROR, err);
    R(s, NV_PFIFO_CACHE1_DMA_PUSH) |= R_NV_PFIFO_CACHE1_DMA_PUSH_SUSPENDED_MASK;
    fifo_intr(s, R_NV_PFIFO_INTR_0_DMA_PUSHER_MASK);
}

static bool pusher_can_run(NVDevState *s)
{
    uint32_t push0 = R(s, NV_PFIFO_CACHE1_PUSH0);
    uint32_t push = R(s, NV_PFIFO_CACHE1_DMA_PUSH);
    uint32_t st = R(s, NV_PFIFO_CACHE1_DMA_STATE);

    return cur_dma(s) && FIELD_EX32(push0, NV_PFIFO_CACHE1_PUSH0, ACCESS) &&
           FIELD_EX32(push, NV_PFIFO_CACHE1_DMA_PUSH, ACCESS) &&
           !FIELD_EX32(push, NV_PFIFO_CACHE1_DMA_PUSH, SUSPENDED) &&
           !FIELD_EX32(st, NV_PFIFO_CACHE1_DMA_STATE, ERROR) &&
           (R(s, NV_PFIFO_MODE) & (1u << cur_chid(s))) &&
           !(fifo_gen(s)->semaphores &&
             (R(s, NV_PFIFO_CACHE1_SEMAPHORE) & SEM_WAITING)) &&
           R(s, NV_PFIFO_CACHE1_DMA_GET) != R(s, NV_PFIFO_CACHE1_DMA_PUT) &&
           ((R(s, NV_PFIFO_CACHE1_PUT) + 4) & cache_mask(s)) !=
               R(s, NV_PFIFO_CACHE1_GET);
}

static void cache_push(NVDevState *s, uint32_t subc, uint32_t mthd,
                       uint32_t data)
{
    uint32_t put = R(s, NV_PFIFO_CACHE1_PUT);
    uint32_t slot = (put & cache_mask(s)) >> 2;
    uint32_t chid = cur_chid(s);
    uint32_t cls = nv_pgraph_class(s, nv_pgraph_bound(s, chid, subc));

    R(s, NV_PFIFO_CACHE1_METHOD_DATA + slot * 8) = subc << 13 | mthd;
    R(s, NV_PFIFO_CACHE1_METHOD_DATA + slot * 8 + 4) = data;
    R(s, NV_PFIFO_CACHE1_PUT) = (put + 4) & cache_mask(s);
    nvdev_trace_record(s, 'M', 4, "fifo", chid << 16 | subc << 13 | mthd,
                       data, mthd ? nv_gr_class_name(cls) : "PFIFO", "-",
                       false);
}

/* Fetch and decode one pushbuffer word. */
static void push_one(NVDevState *s)
{
    const FifoGen *g = fifo_gen(s);
    uint32_t get = R(s, NV_PFIFO_CACHE1_DMA_GET);
    uint32_t st = R(s, NV_PFIFO_CACHE1_DMA_STATE);
    uint32_t count, mthd;
    uint32_t word;
    NVDmaObj o;

    /* the pushbuffer's DMA object: an instance field as in RAMHT */
    if (!nv_dma_object(s, ctx_inst(s, R(s, NV_PFIFO_CACHE1_DMA_INSTANCE)),
                       &o, "PFIFO pushbuffer") ||
        !nv_dma_rw(s, &o, get, &word, 4, false, "PFIFO pushbuffer")) {
        pusher_error(s, ERR_MEM_FAULT, 0);
        return;
    }
    word = le32_to_cpu(word);
    R(s, NV_PFIFO_CACHE1_DMA_GET) = get + 4;

    count = FIELD_EX32(st, NV_PFIFO_CACHE1_DMA_STATE, COUNT);
    if (count) {
        /* data for the method in progress */
        mthd = FIELD_EX32(st, NV_PFIFO_CACHE1_DMA_STATE, MTHD);
        cache_push(s, FIELD_EX32(st, NV_PFIFO_CACHE1_DMA_STATE, SUBC),
                   mthd << 2, word);
        if (!FIELD_EX32(st, NV_PFIFO_CACHE1_DMA_STATE, NONINC)) {
            st = FIELD_DP32(st, NV_PFIFO_CACHE1_DMA_STATE, MTHD, mthd + 1);
        }
        st = FIELD_DP32(st, NV_PFIFO_CACHE1_DMA_STATE, COUNT, count - 1);
        R(s, NV_PFIFO_CACHE1_DMA_STATE) = st;
        R(s, NV_PFIFO_CACHE1_DMA_DCOUNT) += 1;
        return;
    }
    R(s, NV_PFIFO_CACHE1_DMA_DCOUNT) = 0;
    if ((word & 0xe0000003) == 0x20000000) {
        /* old jump */
        R(s, NV_PFIFO_CACHE1_DMA_GET) = word & 0x1ffffffc;
    } else if (g->nv10_cmds && (word & 3) == 1) {
        /* jump */
        R(s, NV_PFIFO_CACHE1_DMA_GET) = word & ~3u;
    } else if (g->nv10_cmds && (word & 3) == 2) {
        /* call */
        if (R(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) & 1) {
            R(s, NV_PFIFO_CACHE1_DMA_GET) = get;
            pusher_error(s, ERR_CALL_SUBR_ACTIVE, word);
            return;
        }
        R(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) = (get + 4) | 1;
        R(s, NV_PFIFO_CACHE1_DMA_GET) = word & ~3u;
    } else if (g->nv10_cmds && word == 0x00020000) {
        /* return */
        if (!(R(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) & 1)) {
            R(s, NV_PFIFO_CACHE1_DMA_GET) = get;
            pusher_error(s, ERR_RET_SUBR_INACTIVE, word);
            return;
        }
        R(s, NV_PFIFO_CACHE1_DMA_GET) =
            R(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) & ~3u;
        R(s, NV_PFIFO_CACHE1_DMA_SUBROUTINE) = 0;
    } else if ((word & 0xe0030003) == 0 ||
               (g->nv10_cmds && (word & 0xe0030003) == 0x40000000)) {
        /* increasing / non-increasing methods: count << 18 | subc << 13 */
        R(s, NV_PFIFO_CACHE1_DMA_STATE) =
            FIELD_DP32(word & 0x1ffffffc, NV_PFIFO_CACHE1_DMA_STATE, NONINC,
                       !!(word & 0x40000000));
    } else {
        R(s, NV_PFIFO_CACHE1_DMA_GET) = get;
        pusher_error(s, ERR_INVALID_CMD, word);
    }
}

/* ---- scheduling -------------------------------------------------------- */

static void fifo_run(void *opaque)
{
    NVDevState *s = opaque;
    bool waiting = false;

    for (int budget = RUN_BUDGET; budget > 0; budget--) {
        if (puller_can_run(s)) {
            switch (pull_one(s)) {
            case PULL_DONE:
                continue;
            case PULL_ENGINE_BUSY:
                timer_mod(s->pfifo.timer, nv_pgraph_busy_until(s));
                return;
            case PULL_STOPPED:
                return;             /* a register write kicks it again */
            }
        }
        if (!cache_empty(s)) {
            break;                  /* puller stopped: the driver's turn */
        }
        if (fifo_gen(s)->semaphores && cur_dma(s) &&
            (R(s, NV_PFIFO_CACHE1_SEMAPHORE) & SEM_WAITING) &&
            sema_blocked(s, cur_chid(s))) {
            if (!fifo_switch(s)) {
                waiting = true;
                break;
            }
            continue;
        }
        if (s->pfifo.slice >= TIMESLICE && fifo_switch(s)) {
            continue;
        }
        if (pusher_can_run(s)) {
            push_one(s);
            s->pfifo.slice++;
            continue;
        }
        if (!fifo_switch(s)) {
            /* anyone waiting on a semaphore must be looked at again */
            for (uint32_t c = 0; c < fifo_gen(s)->channels && !waiting; c++) {
                waiting = (R(s, NV_PFIFO_MODE) & (1u << c)) &&
                          fifo_gen(s)->semaphores &&
                          (chan_reg(s, c, NV_PFIFO_CACHE1_SEMAPHORE) &
                           SEM_WAITING);
            }
            if (waiting) {
                break;
            }
            return;                 /* idle */
        }
    }
    timer_mod(s->pfifo.timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (waiting ? SEMA_POLL_NS : KICK_NS));
}

void nv_pfifo_kick(NVDevState *s)
{
    if (!timer_pending(s->pfifo.timer)) {
        timer_mod(s->pfifo.timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + KICK_NS);
    }
}

/* ---- registers --------------------------------------------------------- */

static uint64_t nv_pfifo_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                              unsigned size, bool *unimp)
{
    uint32_t reg = addr;

    if (reg >= NV_PFIFO_CACHE1_METHOD_DATA) {
        if (fifo_gen(s)->nv40) {
            *unimp = true;          /* at 0x90000 on NV40 */
            return 0;
        }
        return s->pfifo.regs[addr >> 2];
    }
    switch (reg) {
    case NV_PFIFO_INTR_0:
        return R(s, reg);
    case NV_PFIFO_CACHE1_PULL0:
        /* lookups are immediate */
        return R(s, reg) & ~R_NV_PFIFO_CACHE1_PULL0_HASH_BUSY_MASK;
    default:
        return nv_plain_read(s, s->pfifo.regs, u, addr, unimp);
    }
}

static void nv_pfifo_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                           uint64_t val, unsigned size, bool *unimp)
{
    uint32_t reg = addr;

    if (reg >= NV_PFIFO_CACHE1_METHOD_DATA) {
        if (fifo_gen(s)->nv40) {
            *unimp = true;
            return;
        }
        s->pfifo.regs[addr >> 2] = val;
        return;
    }
    switch (reg) {
    case NV_PFIFO_INTR_0:
        R(s, reg) &= ~val;
        nvdev_update_irq(s);
        nv_pfifo_kick(s);
        return;
    case NV_PFIFO_INTR_EN_0:
        R(s, reg) = val;
        nvdev_update_irq(s);
        return;
    case NV_PFIFO_CACHE1_PULL0:
        /* writing clears the trap flags: the driver has dealt with it */
        R(s, reg) = val & R_NV_PFIFO_CACHE1_PULL0_ACCESS_MASK;
        nv_pfifo_kick(s);
        return;
    case NV_PFIFO_CACHE1_GET:
    case NV_PFIFO_CACHE1_PUT:
        R(s, reg) = val & cache_mask(s);
        nv_pfifo_kick(s);
        return;
    case NV_PFIFO_CACHES:
    case NV_PFIFO_MODE:
    case NV_PFIFO_CACHE1_PUSH0:
    case NV_PFIFO_CACHE1_DMA_PUSH:
    case NV_PFIFO_CACHE1_DMA_PUT:
    case NV_PFIFO_CACHE1_DMA_STATE:
        R(s, reg) = val;
        nv_pfifo_kick(s);
        return;
    default:
        nv_plain_write(s, s->pfifo.regs, u, addr, val, unimp);
        return;
    }
}

const NVUnit nv_unit_pfifo = {
    .name = "PFIFO", .base = 0x002000, .size = 0x2000, .dword = true,
    .read = nv_pfifo_read, .write = nv_pfifo_write,
};

/* NV40's CACHE1 methods: 0x90000, the same store */
static uint64_t nv_pfifo_cache40_read(NVDevState *s, const NVUnit *u,
                                      hwaddr addr, unsigned size, bool *unimp)
{
    if (addr >= fifo_gen(s)->cache_entries * 8) {
        *unimp = true;
        return 0;
    }
    return R(s, NV_PFIFO_CACHE1_METHOD_DATA + addr);
}

static void nv_pfifo_cache40_write(NVDevState *s, const NVUnit *u,
                                   hwaddr addr, uint64_t val, unsigned size,
                                   bool *unimp)
{
    if (addr >= fifo_gen(s)->cache_entries * 8) {
        *unimp = true;
        return;
    }
    R(s, NV_PFIFO_CACHE1_METHOD_DATA + addr) = val;
}

const NVUnit nv_unit_pfifo_cache40 = {
    .name = "PFIFO", .base = 0x090000, .size = 0x1000, .dword = true,
    .needs_caps = NV_CAP_NV40,
    .read = nv_pfifo_cache40_read, .write = nv_pfifo_cache40_write,
};

/* ---- the channels' user areas ------------------------------------------ */

/*
 * Each channel's control registers: PUT (0x40, the driver's), GET (0x44)
 * and REF (0x48).  A resident channel's are CACHE1's; another channel's
 * are its RAMFC entry's (the hardware's choice is not documented; this
 * keeps every channel's pointers where the switch finds them).
 */
static void user_access(NVDevState *s, hwaddr addr, uint32_t stride,
                        uint64_t *val, bool write, bool *unimp)
{
    uint32_t chid = addr / stride, reg;

    if (chid >= fifo_gen(s)->channels) {
        *unimp = true;
        return;
    }
    switch (addr % stride) {
    case 0x40:
        reg = NV_PFIFO_CACHE1_DMA_PUT;
        break;
    case 0x44:
        reg = NV_PFIFO_CACHE1_DMA_GET;
        break;
    case 0x48:
        if (!fifo_gen(s)->ref_cnt) {
            *unimp = true;
            return;
        }
        reg = NV_PFIFO_CACHE1_REF_CNT;
        break;
    default:
        *unimp = true;
        return;
    }
    if (!write) {
        *val = chan_reg(s, chid, reg);
    } else if (reg == NV_PFIFO_CACHE1_DMA_PUT) {
        chan_set_reg(s, chid, reg, *val);
        nv_pfifo_kick(s);
    }
}

static uint64_t nv_user_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                             unsigned size, bool *unimp)
{
    uint64_t val = 0;

    user_access(s, addr, u->instance, &val, false, unimp);
    return val;
}

static void nv_user_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                          uint64_t val, unsigned size, bool *unimp)
{
    user_access(s, addr, u->instance, &val, true, unimp);
}

/* NV04-NV3x: 64 KiB per channel at 0x800000 */
const NVUnit nv_unit_user = {
    .name = "USER", .base = 0x800000, .size = 0x200000, .dword = true,
    .instance = 0x10000, .excludes_caps = NV_CAP_NV40,
    .read = nv_user_read, .write = nv_user_write,
};

/* NV40: 4 KiB per channel at 0xc00000 */
const NVUnit nv_unit_user40 = {
    .name = "USER", .base = 0xc00000, .size = 0x20000, .dword = true,
    .instance = 0x1000, .needs_caps = NV_CAP_NV40,
    .read = nv_user_read, .write = nv_user_write,
};

/* ---- life cycle -------------------------------------------------------- */

void nv_pfifo_init(NVDevState *s)
{
    s->pfifo.timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, fifo_run, s);
}

void nv_pfifo_exit(NVDevState *s)
{
    g_clear_pointer(&s->pfifo.timer, timer_free);
}

void nv_pfifo_reset(NVDevState *s)
{
    memset(s->pfifo.regs, 0, sizeof(s->pfifo.regs));
    s->pfifo.slice = 0;
    if (s->pfifo.timer) {
        timer_del(s->pfifo.timer);
    }
}

const VMStateDescription vmstate_nv_pfifo = {
    .name = "nvdev/pfifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(pfifo.regs, NVDevState, NV_FIFO_WORDS),
        VMSTATE_TIMER_PTR(pfifo.timer, NVDevState),
        VMSTATE_UINT32(pfifo.slice, NVDevState),
        VMSTATE_END_OF_LIST()
    },
};
