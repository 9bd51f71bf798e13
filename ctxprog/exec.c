/*
 * libctxprog: an interpreter of NV40 context programs, the one the
 * nvdev device runs as its CTXCTL (see ctxprog.h for the state).
 *
 * What the public sources say an instruction does, it does: register
 * transfers in the direction of flag 0 (1: registers to the image),
 * scratch loads, branches and waits on flags, flag sets, the commands
 * that move channel pointers.  What nobody has documented (xfer of the
 * per-unit areas, reset, words that decode to nothing, commands without a
 * known meaning) is stepped over and counted, so a caller can say how
 * much of a program it could not run.  Every run is bounded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"

static bool flag_value(const CtxprogOps *ops, void *opaque, unsigned flag)
{
    if (flag < 0x20) {
        return (ops->reg_read(opaque, CTXPROG_REG_FLAGS0) >> flag) & 1;
    }
    if (flag < 0x40) {
        return (ops->reg_read(opaque, CTXPROG_REG_FLAGS1) >> (flag - 0x20)) & 1;
    }
    return ops->hw_flag(opaque, flag);
}

/* false: a hardware flag, which a program cannot set */
static bool flag_set(const CtxprogOps *ops, void *opaque, unsigned flag,
                     bool v)
{
    uint32_t reg = flag < 0x20 ? CTXPROG_REG_FLAGS0 : CTXPROG_REG_FLAGS1;
    uint32_t bit = 1u << (flag & 0x1f);
    uint32_t old;

    if (flag >= 0x40) {
        return false;
    }
    old = ops->reg_read(opaque, reg);
    ops->reg_write(opaque, reg, v ? old | bit : old & ~bit);
    return true;
}

/* registers @in->reg.. to or from the image at the pointer; false: fault */
static bool transfer(const CtxprogInsn *in, const CtxprogOps *ops,
                     void *opaque, CtxprogRun *run)
{
    uint32_t count = in->count ? in->count : ops->reg_read(opaque, CTXPROG_REG_SR);
    uint32_t ptr = ops->reg_read(opaque, CTXPROG_REG_POINTER);
    uint32_t image = ops->reg_read(opaque, CTXPROG_REG_SWAP);
    bool save = flag_value(ops, opaque, CP_FLAG_SWAP_DIRECTION);

    for (uint32_t i = 0; i < count; i++) {
        uint32_t reg = in->reg + 4 * i, v = 0;

        if (reg > 0x40fffc) {
            return false;           /* PGRAPH ends there */
        }
        if (save) {
            v = ops->reg_read(opaque, reg);
        }
        if (!ops->image_rw(opaque, image, ptr + i, &v, save)) {
            return false;
        }
        if (!save) {
            ops->reg_write(opaque, reg, v);
        }
        run->transfers++;
    }
    ops->reg_write(opaque, CTXPROG_REG_POINTER, ptr + count);
    return true;
}

static void skip(CtxprogRun *run, unsigned pc)
{
    if (run->first_skipped < 0) {
        run->first_skipped = pc;
    }
    run->skipped++;
}

void ctxprog_run(const uint32_t *prog, size_t n, unsigned pc,
                 unsigned max_steps, const CtxprogOps *ops, void *opaque,
                 CtxprogRun *run)
{
    *run = (CtxprogRun) { .first_skipped = -1 };

    for (;;) {
        CtxprogInsn in;
        unsigned next = pc + 1;

        run->pc = pc;
        if (pc >= n) {
            run->stop = CTXPROG_STOP_PC;
            run->word = 0;
            return;
        }
        run->word = prog[pc];
        if (run->steps == max_steps) {
            run->stop = CTXPROG_STOP_STEPS;
            return;
        }
        run->steps++;
        ctxprog_decode(CTXPROG_NV40, prog[pc], &in);
        switch (in.op) {
        case CP_OP_NOP:
            break;
        case CP_OP_CTX:
            if (!transfer(&in, ops, opaque, run)) {
                run->stop = CTXPROG_STOP_FAULT;
                return;
            }
            break;
        case CP_OP_LSR:
        case CP_OP_LSR2:
            ops->reg_write(opaque, in.op == CP_OP_LSR ? CTXPROG_REG_SR :
                           CTXPROG_REG_SR2, in.imm);
            break;
        case CP_OP_BRA:
            if (flag_value(ops, opaque, in.flag) == in.state) {
                next = in.target;
            }
            break;
        case CP_OP_WAIT:
            /* within one run nothing else changes a flag */
            if (flag_value(ops, opaque, in.flag) != in.state) {
                run->stop = CTXPROG_STOP_STUCK;
                return;
            }
            break;
        case CP_OP_SET:
            if (!flag_set(ops, opaque, in.flag, in.state)) {
                skip(run, pc);
            }
            break;
        case CP_OP_CMD:
            switch (in.cmd) {
            case CP_CMD_NEXT_TO_SWAP:
                ops->reg_write(opaque, CTXPROG_REG_SWAP,
                               ops->reg_read(opaque, CTXPROG_REG_NEXT));
                break;
            case CP_CMD_NEXT_TO_CURRENT:
                ops->reg_write(opaque, CTXPROG_REG_CUR,
                               ops->reg_read(opaque, CTXPROG_REG_NEXT));
                break;
            case CP_CMD_SET_CONTEXT_POINTER:
                ops->reg_write(opaque, CTXPROG_REG_POINTER,
                               ops->reg_read(opaque, CTXPROG_REG_SR));
                break;
            case CP_CMD_START_TIMER:    /* runs out at once */
            case CP_CMD_CLEAR_RESET:    /* resets are not modelled */
                break;
            case CP_CMD_END:
                run->stop = CTXPROG_STOP_END;
                return;
            case CP_CMD_HALT:
            case CP_CMD_INTR:
                run->stop = CTXPROG_STOP_HALT;
                run->pc = next;
                return;
            default:
                skip(run, pc);
                break;
            }
            break;
        case CP_OP_XFER:
        case CP_OP_RESET:
        case CP_OP_RAW:
        case CP_OP_CALL:            /* NV50's: never decoded as NV40 */
        case CP_OP_RET:
        case CP_OP_LDSR:
        case CP_OP_SEEK:
            skip(run, pc);
            break;
        }
        pc = next;
    }
}

const char *ctxprog_stop_name(CtxprogStop stop)
{
    static const char *const names[] = {
        [CTXPROG_STOP_END] = "ended",
        [CTXPROG_STOP_HALT] = "halted",
        [CTXPROG_STOP_STUCK] = "waits for a flag that cannot change",
        [CTXPROG_STOP_STEPS] = "does not end",
        [CTXPROG_STOP_PC] = "ran past its last instruction",
        [CTXPROG_STOP_FAULT] = "transfers outside PGRAPH or instance memory",
    };

    return stop < G_N_ELEMENTS(names) ? names[stop] : "?";
}
