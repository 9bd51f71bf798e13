/*
 * nvdev PGRAPH (0x400000): the graphics engine's registers, objects,
 * interrupts and channel contexts.
 *
 * PFIFO hands PGRAPH (channel, subchannel, method, data): method 0 binds
 * the object at a RAMIN instance to the subchannel (its class is word 0 of
 * the object), every other method goes to the bound object's class
 * (gr2d.c).  A method the class does not have, or an operation that
 * overruns its DMA objects, raises PGRAPH's interrupt with the method in
 * TRAPPED_ADDR/DATA, NSOURCE saying why, and stalls the engine
 * (PGRAPH_FIFO bit 0 clear) until the driver writes it back to 1, as
 * nouveau's nv04_gr_intr/nv10_gr_intr expect.
 *
 * Contexts: before NV40 the 2D state of every channel is kept by the
 * device (s->pgraph.ctx), so a channel switch never needs the driver.  On
 * NV04/NV1x real hardware would raise CONTEXT_SWITCH for the driver to
 * swap PGRAPH registers; nouveau 6.1 copes with a card that never does
 * (CTX_CONTROL bit 16 then stays clear and nv04/nv10_gr_chan_fini skip
 * the unload).  NV20-NV3x switch through the context table at 0x400780
 * (the resident channel shown as the hardware shows it, below), and the
 * internal copy stands for the image the hardware would save and load.
 * NV40 keeps the state of the channel it holds in PGRAPH registers, and
 * the context program the driver uploaded moves them to and from the
 * channels' images on a switch: what a channel finds there is what the
 * program saved and loaded (gr_state below).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "nvdev.h"
#include "trace.h"
#include "ctxprog/ctxprog.h"

/* a PGRAPH register by its offset in PGRAPH (nvdev-regs.h) */
#define G(s, off)               ((s)->pgraph.regs[(off) >> 2])
/* NV10+: the class bound on each subchannel, + 4 * subc (NV04's CTX_SWITCH1) */
#define NV10_PGRAPH_CTX_CACHE   NV_PGRAPH_CTX_SWITCH1

#define   CTX_CONTROL_VALID     (1u << 16)  /* a channel's context is loaded */

#define NSTATUS_BAD_ARGUMENT    (1u << 13)  /* NV10 numbering (nouveau's) */

static bool is_nv04(NVDevState *s)
{
    return s->chip->family == NV_04;
}

static uint32_t intr_en_reg(NVDevState *s)
{
    return s->chip->family == NV_40 ? NV_PGRAPH_INTR_EN_NV40 : NV_PGRAPH_INTR_EN;
}

uint32_t nv_pgraph_intr(NVDevState *s)
{
    return G(s, NV_PGRAPH_INTR) & G(s, intr_en_reg(s));
}

/*
 * Work takes virtual time: the engine moves NV_GR_BYTES_PER_US bytes a
 * microsecond (memory reads and writes of an operation both count), and
 * takes the next method once done.  So fences signal some time after
 * their submission, as on a card, and waits between channels happen.
 */
#define NV_GR_BYTES_PER_US 1024     /* ~1 GB/s, a GeForce2-era M2MF */

void nv_pgraph_work(NVDevState *s, uint64_t bytes)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    s->pgraph.busy_until = MAX(s->pgraph.busy_until, now) +
                           bytes * 1000 / NV_GR_BYTES_PER_US;
}

int64_t nv_pgraph_busy_until(NVDevState *s)
{
    return s->pgraph.busy_until;
}

/* Can PGRAPH take a method?  Not while the driver handles its interrupt. */
bool nv_pgraph_ready(NVDevState *s)
{
    return G(s, NV_PGRAPH_FIFO) & 1;
}

uint32_t nv_pgraph_class(NVDevState *s, uint32_t inst)
{
    uint32_t mask = s->chip->family == NV_40 ? 0xffff :
                    s->chip->family >= NV_20 ? 0xfff : 0xff;

    return inst ? nv_ramin_rd32(s, inst) & mask : 0;
}

/*
 * NV40: the method state of the resident channel lives in the 73-word
 * block at 0x400a00 that every NV40-family context program moves
 * (nouveau's ctxnv40.c: cp_ctx(ctx, 0x400a00, 73)), in GC_ order, so the
 * 2D code works on PGRAPH's registers themselves.  Which of the
 * hardware's registers hold what there is not documented (envytools'
 * NV40 PGRAPH page is a todo), so the layout is the device's; that the
 * state survives a switch is the program's doing.  A trap shows the
 * classes where nv40_gr_intr reads them (0x400160 + 4 * subc).
 */
#define NV40_GR_STATE           0xa00
#define NV40_GR_STATE_WORDS     73

QEMU_BUILD_BUG_ON(NV_GRCTX_WORDS > NV40_GR_STATE_WORDS);

/* The method state PGRAPH holds for @chid (NV40: made resident first) */
static uint32_t *gr_state(NVDevState *s, int chid)
{
    return s->chip->family == NV_40 ? &G(s, NV40_GR_STATE)
                                    : s->pgraph.ctx[chid];
}

/* What the driver's interrupt handler reads about the objects of @ctx */
static void show_context(NVDevState *s, const uint32_t *ctx, int subc)
{
    uint32_t cache = is_nv04(s) ? NV_PGRAPH_CTX_CACHE1 : NV10_PGRAPH_CTX_CACHE;

    for (int i = 0; i < 8; i++) {
        G(s, cache + 4 * i) = ctx[GC_SUBC_CLASS + i];
    }
    if (is_nv04(s)) {
        G(s, NV_PGRAPH_CTX_SWITCH4) = ctx[GC_SUBC_INST + subc] >> 4;
    }
}

static void trap(NVDevState *s, const uint32_t *ctx, int chid, int subc,
                 uint32_t mthd, uint32_t data, NVGrResult why)
{
    static const uint32_t nsource[] = {
        [NV_GR_ILLEGAL_MTHD] = R_NV_PGRAPH_NSOURCE_ILLEGAL_MTHD_MASK,
        [NV_GR_DATA_ERROR] = R_NV_PGRAPH_NSOURCE_DATA_ERROR_MASK,
        [NV_GR_DMA_R_FAULT] = R_NV_PGRAPH_NSOURCE_DMA_R_PROTECTION_MASK,
        [NV_GR_DMA_W_FAULT] = R_NV_PGRAPH_NSOURCE_DMA_W_PROTECTION_MASK,
    };
    uint32_t cls = ctx[GC_SUBC_CLASS + subc];

    qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: ch %d subc %d class 0x%04x "
                  "mthd 0x%04x data 0x%08x: %s\n", chid, subc, cls, mthd, data,
                  why == NV_GR_ILLEGAL_MTHD ? "no such method" :
                  why == NV_GR_DATA_ERROR ? "bad argument" : "DMA fault");
    show_context(s, ctx, subc);
    G(s, NV_PGRAPH_NSOURCE) = nsource[why];
    G(s, NV_PGRAPH_NSTATUS) = why == NV_GR_DATA_ERROR ? NSTATUS_BAD_ARGUMENT : 0;
    if (is_nv04(s)) {
        G(s, NV_PGRAPH_TRAPPED_ADDR) = chid << 24 | subc << 13 | mthd;
        G(s, NV_PGRAPH_INTR) |= R_NV_PGRAPH_INTR_NOTIFY_MASK;
    } else {
        G(s, NV_PGRAPH_TRAPPED_ADDR) = chid << 20 | subc << 16 | mthd;
        G(s, NV_PGRAPH_INTR) |= R_NV_PGRAPH_INTR_ERROR_MASK;
    }
    G(s, NV_PGRAPH_TRAPPED_DATA) = data;
    G(s, NV_PGRAPH_FIFO) &= ~1u;
    nvdev_update_irq(s);
}

/*
 * NV20-NV3x: PGRAPH switches contexts itself, through the table at
 * CTX_TABLE that nouveau fills with each channel's image (nv20_gr_chan_init).
 * An image names its channel, 1 | chid << 24, at word 0 on NV20 and NV2A
 * and at 0x28 from NV25 on (nv25.c, nv30.c, nv34.c, nv35.c chan_new).  A
 * method of another channel saves the resident context to its image and
 * loads the new one; CTX_CONTROL VALID and CTX_USER then name the resident
 * channel, which is how nv20_gr_chan_fini knows to save a dying channel's
 * context first.  The state itself stays in s->pgraph.ctx: nouveau never
 * reads an image back.
 */
static void nv20_ctx_switch(NVDevState *s, int chid)
{
    uint32_t table = G(s, NV_PGRAPH_CHANNEL_CTX_TABLE) << 4;
    uint32_t user = G(s, NV_PGRAPH_CTX_USER_NV10);
    int cur = (user >> 24) & 0x1f;
    uint32_t image, word0, id_off;

    if ((G(s, NV_PGRAPH_CTX_CONTROL_NV10) & CTX_CONTROL_VALID) && cur == chid) {
        return;
    }
    image = nv_ramin_rd32(s, table + chid * 4) << 4;
    id_off = s->chip->chipset == 0x20 || s->chip->chipset == 0x2a ? 0 : 0x28;
    word0 = image ? nv_ramin_rd32(s, image + id_off) : 0;
    if (!image || (word0 & 0xff) != 1 || ((word0 >> 24) & 0x1f) != chid) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: channel %d has no "
                      "context image (table entry 0x%x, its id word 0x%08x)\n",
                      chid, image, word0);
    }
    trace_nvdev_gr_ctx_switch(cur, chid, image);
    G(s, NV_PGRAPH_CTX_CONTROL_NV10) |= CTX_CONTROL_VALID;
    G(s, NV_PGRAPH_CTX_USER_NV10) = (user & ~0x1f000000u) | chid << 24;
}

/*
 * NV40 CTXCTL: the context program the driver uploaded runs here, through
 * libctxprog's interpreter, on PGRAPH's own registers and the channels'
 * context images in instance memory.  It runs when the engine takes work
 * of a channel whose image is not the current one (the hardware's
 * AUTO_SAVE of the current and AUTO_LOAD of the next, as the channel
 * switch raises them) and when the driver starts it through 0x400304
 * (nouveau: a save of a dying channel on suspend).  Runs finish at once;
 * one that cannot finish (a wait no one will satisfy, a loop, a transfer
 * outside instance memory) leaves CTXCTL busy with its PC in 0x400308,
 * which is what nouveau's "ctxprog timeout %08x" prints.
 */
/* NV40: the image a switch saves to or loads from (NV20's CTX_POINTER) */
#define NV40_PGRAPH_CTXCTL_SWAP NV_PGRAPH_CHANNEL_CTX_POINTER
#define CTXCTL_BUSY             (1u << 0)
#define CTXCTL_CMD_START        (1u << 0)
#define CTXCTL_CMD_KILL         (1u << 1)
#define CTX_LOADED              0x01000000u
#define CTXCTL_MAX_STEPS        100000

/* libctxprog names PGRAPH registers by their BAR0 address */
static uint32_t ctxctl_reg_read(void *opaque, uint32_t reg)
{
    return G((NVDevState *)opaque, reg - NV_PGRAPH_BASE);
}

static void ctxctl_reg_write(void *opaque, uint32_t reg, uint32_t val)
{
    G((NVDevState *)opaque, reg - NV_PGRAPH_BASE) = val;
}

static bool ctxctl_hw_flag(void *opaque, unsigned flag)
{
    NVDevState *s = opaque;

    switch (flag) {
    case CP_FLAG_AUTO_SAVE:
        return s->pgraph.ctxctl_auto & 1;
    case CP_FLAG_AUTO_LOAD:
        return s->pgraph.ctxctl_auto & 2;
    case CP_FLAG_STATE3D:               /* a choice: the 3D state is there */
    case CP_FLAG_ALWAYS:
        return true;
    default:
        return false;                   /* STATUS idle, TIMER run out */
    }
}

static bool ctxctl_image(void *opaque, uint32_t image, uint32_t index,
                         uint32_t *val, bool write)
{
    NVDevState *s = opaque;
    uint64_t off = ((uint64_t)(image & 0xfffff) << 4) + (uint64_t)index * 4;

    if (off > UINT32_MAX || !nv_ramin_valid(s, off, 4)) {
        return false;
    }
    if (write) {
        nv_ramin_wr32(s, off, *val);
    } else {
        *val = nv_ramin_rd32(s, off);
    }
    return true;
}

static const CtxprogOps ctxctl_ops = {
    .reg_read = ctxctl_reg_read, .reg_write = ctxctl_reg_write,
    .hw_flag = ctxctl_hw_flag, .image_rw = ctxctl_image,
};

static const char *const stop_words[] = {
    [CTXPROG_STOP_END] = "end", [CTXPROG_STOP_HALT] = "halt",
    [CTXPROG_STOP_STUCK] = "stuck", [CTXPROG_STOP_STEPS] = "steps",
    [CTXPROG_STOP_PC] = "past-end", [CTXPROG_STOP_FAULT] = "fault",
};

static void ctxctl_run(NVDevState *s, const char *why)
{
    unsigned pc = G(s, NV_PGRAPH_CTXCTL_PC) >> 24;
    CtxprogRun run;

    ctxprog_run(s->pgraph.ctxprog, s->pgraph.ctxprog_len, pc,
                CTXCTL_MAX_STEPS, &ctxctl_ops, s, &run);
    trace_nvdev_ctxprog_run(why, ctxprog_stop_name(run.stop), run.pc,
                            run.steps, run.transfers, run.skipped);
    /* in the register trace: where it stopped, how, how much it skipped */
    nvdev_trace_record(s, 'C', 4, "ctxprog", run.pc, run.skipped, "CTXCTL",
                       stop_words[run.stop], run.skipped > 0);
    if (run.skipped && !s->pgraph.ctxprog_unimp_logged) {
        qemu_log_mask(LOG_UNIMP, "nvdev: CTXCTL: %u words of the context "
                      "program have no known meaning and were stepped over "
                      "(the first at PC 0x%02x: 0x%08x)\n", run.skipped,
                      run.first_skipped, s->pgraph.ctxprog[run.first_skipped]);
        s->pgraph.ctxprog_unimp_logged = true;
    }
    switch (run.stop) {
    case CTXPROG_STOP_END:
        G(s, NV_PGRAPH_CTXCTL_STATUS) &= ~CTXCTL_BUSY;
        G(s, NV_PGRAPH_CTXCTL_PC) = run.word & 0xffffff;
        break;
    case CTXPROG_STOP_HALT:
        G(s, NV_PGRAPH_CTXCTL_STATUS) &= ~CTXCTL_BUSY;
        G(s, NV_PGRAPH_CTXCTL_PC) = run.pc << 24 |
            (run.pc < s->pgraph.ctxprog_len ?
             s->pgraph.ctxprog[run.pc] & 0xffffff : 0);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: CTXCTL: the context program "
                      "(%s) %s at PC 0x%02x (0x%08x) after %u steps\n", why,
                      ctxprog_stop_name(run.stop), run.pc, run.word, run.steps);
        G(s, NV_PGRAPH_CTXCTL_STATUS) |= CTXCTL_BUSY;
        G(s, NV_PGRAPH_CTXCTL_PC) = (run.pc & 0xff) << 24 |
                                      (run.word & 0xffffff);
        break;
    }
}

/* NV40: the engine takes work of @chid, whose image PFIFO's GRCTX names */
static void nv40_ctx_switch(NVDevState *s, int chid)
{
    uint32_t next = CTX_LOADED | (nv_pfifo_reg(s, NV_PFIFO_GRCTX_INSTANCE) & 0xfffff);
    uint32_t cur = G(s, NV_PGRAPH_CTXCTL_CUR);

    if (cur == next) {
        return;
    }
    if (s->pgraph.ctxprog_len &&
        !(G(s, NV_PGRAPH_CTXCTL_STATUS) & CTXCTL_BUSY)) {
        G(s, NV_PGRAPH_CTXCTL_NEXT) = next;
        s->pgraph.ctxctl_auto = 2 | !!(cur & CTX_LOADED);
        if (cur & CTX_LOADED) {
            G(s, NV40_PGRAPH_CTXCTL_SWAP) = cur;
        } else {
            G(s, NV40_PGRAPH_CTXCTL_SWAP) = next;
        }
        ctxctl_run(s, "channel switch");
        s->pgraph.ctxctl_auto = 0;
        if (G(s, NV_PGRAPH_CTXCTL_CUR) == next) {
            return;
        }
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: CTXCTL: the context program "
                      "did not make channel %d's image 0x%x current\n", chid,
                      (next & 0xfffff) << 4);
    }
    /* no program, or a broken one: the engine goes on with the channel */
    G(s, NV_PGRAPH_CTXCTL_CUR) = next;
}

/* PGRAPH takes work of @chid: its context must be the resident one */
static void ctx_switch(NVDevState *s, int chid)
{
    switch (s->chip->family) {
    case NV_20:
    case NV_30:
        nv20_ctx_switch(s, chid);
        break;
    case NV_40:
        nv40_ctx_switch(s, chid);
        break;
    default:
        break;                      /* NV04/NV1x: invisible, see above */
    }
}

void nv_pgraph_bind(NVDevState *s, int chid, int subc, uint32_t inst)
{
    uint32_t cls = nv_pgraph_class(s, inst);
    uint32_t *ctx;

    ctx_switch(s, chid);
    ctx = gr_state(s, chid);
    ctx[GC_SUBC_INST + subc] = inst;
    ctx[GC_SUBC_CLASS + subc] = cls;
    /* PFIFO names the methods it hands on by this binding (pfifo.c) */
    s->pgraph.ctx[chid][GC_SUBC_INST + subc] = inst;
    s->pgraph.ctx[chid][GC_SUBC_CLASS + subc] = cls;
    if (!nv_gr2d_known_class(cls) && !s->pgraph.class_unimp_logged) {
        qemu_log_mask(LOG_UNIMP, "nvdev: PGRAPH: class 0x%04x (ch %d subc %d) "
                      "is not modelled: its methods are dropped\n", cls, chid,
                      subc);
        s->pgraph.class_unimp_logged = true;
    }
}

/* the instance @chid bound on @subc (PFIFO names its methods by it) */
uint32_t nv_pgraph_bound(NVDevState *s, int chid, int subc)
{
    return s->pgraph.ctx[chid][GC_SUBC_INST + subc];
}

void nv_pgraph_method(NVDevState *s, int chid, int subc, uint32_t mthd,
                      uint32_t data)
{
    uint32_t *ctx, cls;
    NVGrResult r;

    ctx_switch(s, chid);
    ctx = gr_state(s, chid);
    cls = ctx[GC_SUBC_CLASS + subc];
    if (!nv_gr2d_known_class(cls)) {
        return;                     /* logged at bind */
    }
    r = nv_gr2d_method(s, ctx, cls, mthd, data);
    if (r != NV_GR_DONE) {
        trap(s, ctx, chid, subc, mthd, data, r);
    }
}

static uint64_t nv_pgraph_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                               unsigned size, bool *unimp)
{
    uint32_t reg = addr;

    switch (reg) {
    case NV_PGRAPH_INTR:
        return G(s, reg);
    case NV_PGRAPH_STATUS:
        /* bit 0: busy, while the last operation's time runs */
        return s->pgraph.busy_until > qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    case NV_PGRAPH_CTXCTL_STATUS:
        if (s->chip->family == NV_40) {
            return G(s, reg);       /* busy only if a run could not end */
        }
        break;
    case NV_PGRAPH_CTXCTL_UCODE_DATA:
        if (s->chip->family == NV_40) {
            *unimp = true;          /* write-only */
            return 0;
        }
        break;
    default:
        break;
    }
    return nv_plain_read(s, s->pgraph.regs, u, addr, unimp);
}

static void nv_pgraph_write(NVDevState *s, const NVUnit *u, hwaddr addr,
                            uint64_t val, unsigned size, bool *unimp)
{
    uint32_t reg = addr;

    switch (reg) {
    case NV_PGRAPH_INTR:
        G(s, reg) &= ~val;
        nvdev_update_irq(s);
        return;
    case NV_PGRAPH_INTR_EN:
    case NV_PGRAPH_INTR_EN_NV40:
        G(s, reg) = val;
        nvdev_update_irq(s);
        return;
    case NV_PGRAPH_FIFO:
        G(s, reg) = val;
        if (val & 1) {
            nv_pfifo_kick(s);
        }
        return;
    case NV_PGRAPH_CHANNEL_CTX_XFER:
        if (s->chip->family == NV_20 || s->chip->family == NV_30) {
            /* the driver's own load or save of the image at CTX_INST:
             * done at once (the state is the device's), the trigger
             * clears itself */
            trace_nvdev_gr_ctx_xfer(val & 2 ? "save" : "load",
                                    G(s, NV_PGRAPH_CHANNEL_CTX_POINTER) << 4);
            G(s, reg) = 0;
            return;
        }
        break;
    default:
        break;
    }
    if (s->chip->family == NV_40) {
        switch (reg) {
        case NV_PGRAPH_CTXCTL_UCODE_INDEX:
            s->pgraph.ctxprog_len = MIN(val, NV_CTXPROG_WORDS);
            s->pgraph.ctxprog_unimp_logged = false;
            G(s, reg) = val;
            return;
        case NV_PGRAPH_CTXCTL_UCODE_DATA:
            if (s->pgraph.ctxprog_len < NV_CTXPROG_WORDS) {
                s->pgraph.ctxprog[s->pgraph.ctxprog_len++] = val;
            } else {
                qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: context program "
                              "longer than %u words\n", NV_CTXPROG_WORDS);
            }
            return;
        case NV_PGRAPH_CTXCTL_CMD:
            G(s, reg) = val;
            if (val & CTXCTL_CMD_KILL) {
                G(s, NV_PGRAPH_CTXCTL_STATUS) &= ~CTXCTL_BUSY;
                G(s, NV_PGRAPH_CTXCTL_PC) = 0;
            }
            if ((val & CTXCTL_CMD_START) && s->pgraph.ctxprog_len) {
                ctxctl_run(s, "started by the driver");
            }
            return;
        default:
            break;
        }
    }
    nv_plain_write(s, s->pgraph.regs, u, addr, val, unimp);
}

const NVUnit nv_unit_pgraph = {
    .name = "PGRAPH", .base = 0x400000, .size = 0x10000, .dword = true,
    .read = nv_pgraph_read, .write = nv_pgraph_write,
};

void nv_pgraph_reset(NVDevState *s)
{
    memset(s->pgraph.regs, 0, sizeof(s->pgraph.regs));
    memset(s->pgraph.ctx, 0, sizeof(s->pgraph.ctx));
    memset(s->pgraph.ctxprog, 0, sizeof(s->pgraph.ctxprog));
    s->pgraph.ctxprog_len = 0;
    s->pgraph.ctxprog_unimp_logged = false;
    s->pgraph.ctxctl_auto = 0;
    s->pgraph.busy_until = 0;
    G(s, NV_PGRAPH_FIFO) = 1;
}

/* what a loaded stream may not hold: the program's length bounds the
 * interpreter's walk over it */
static int nv_pgraph_post_load(void *opaque, int version_id)
{
    NVDevState *s = opaque;

    if (s->pgraph.ctxprog_len > NV_CTXPROG_WORDS) {
        error_report("nvdev: migration: context program of %u words "
                     "(at most %u)", s->pgraph.ctxprog_len, NV_CTXPROG_WORDS);
        return -EINVAL;
    }
    return 0;
}

/* the registers, the channels' contexts, the uploaded context program and
 * a pending automatic save or load, and how long the engine is busy */
const VMStateDescription vmstate_nv_pgraph = {
    .name = "nvdev/pgraph",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = nv_pgraph_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(pgraph.regs, NVDevState, NV_PGRAPH_WORDS),
        VMSTATE_UINT32_2DARRAY(pgraph.ctx, NVDevState, NV_MAX_CHANNELS,
                               NV_GRCTX_WORDS),
        VMSTATE_UINT32_ARRAY(pgraph.ctxprog, NVDevState, NV_CTXPROG_WORDS),
        VMSTATE_UINT32(pgraph.ctxprog_len, NVDevState),
        VMSTATE_UINT32(pgraph.ctxctl_auto, NVDevState),
        VMSTATE_INT64(pgraph.busy_until, NVDevState),
        VMSTATE_END_OF_LIST()
    },
};
