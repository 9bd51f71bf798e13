/*
 * libctxprog: the NV40 and NV50 CTXCTL instruction sets (see ctxprog.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"

G_DEFINE_QUARK(ctxprog-error-quark, ctxprog_error)

#define OPC(w)          (((w) >> 20) & 0xf)
#define IMM_MASK        0xfffff
#define BRA_IF_CLEAR    0x80
#define WAIT_SET        0x80
#define SET_1           0x80
#define FLAG_MASK       0x7f
#define BRA_MODE(w)     (((w) >> 18) & 3)   /* NV50: 0 bra, 1 call, 2 ret */
#define XFER_AREA2      0x80000             /* NV50 xfer and seek */

typedef struct FlagName {
    unsigned flag;
    const char *name;
} FlagName;

/* What differs between the two instruction sets */
typedef struct Isa {
    unsigned ctx_count_shift, ctx_count_max;
    uint32_t ctx_reg_mask;
    unsigned target_max;
    const FlagName *flags;
    size_t n_flags;
    const char *const *cmds;            /* 32 */
} Isa;

static const FlagName nv40_flags[] = {
    { CP_FLAG_SWAP_DIRECTION, "swap_direction" },
    { CP_FLAG_USER_SAVE, "user_save" },
    { CP_FLAG_USER_LOAD, "user_load" },
    { CP_FLAG_STATUS, "status" },
    { CP_FLAG_AUTO_SAVE, "auto_save" },
    { CP_FLAG_AUTO_LOAD, "auto_load" },
    { CP_FLAG_STATE3D, "state3d" },
    { CP_FLAG_ALWAYS, "always" },
    { CP_FLAG_TIMER, "timer" },
};

static const FlagName nv50_flags[] = {
    { CP50_FLAG_SWAP_DIRECTION, "swap_direction" },
    { CP50_FLAG_USER_SAVE, "user_save" },
    { CP50_FLAG_USER_LOAD, "user_load" },
    { CP50_FLAG_XFER_SWITCH, "xfer_switch" },
    { CP50_FLAG_STATE, "state" },
    { CP50_FLAG_STATUS, "status" },
    { CP50_FLAG_AUTO_SAVE, "auto_save" },
    { CP50_FLAG_AUTO_LOAD, "auto_load" },
    { CP50_FLAG_NEWCTX, "newctx" },
    { CP50_FLAG_XFER, "xfer" },
    { CP50_FLAG_TIMER, "timer" },
    { CP50_FLAG_ALWAYS, "always" },
    { CP50_FLAG_INTR, "intr" },
};

static const char *const nv40_cmds[32] = {
    [CP_CMD_NEXT_TO_SWAP] = "next_to_swap",
    [CP_CMD_NEXT_TO_CURRENT] = "next_to_current",
    [CP_CMD_SET_CONTEXT_POINTER] = "set_context_pointer",
    [CP_CMD_START_TIMER] = "start_timer",
    [CP_CMD_CLEAR_RESET] = "clear_reset",
    [CP_CMD_HALT] = "halt",
    [CP_CMD_END] = "end",
    [CP_CMD_INTR] = "intr",
};

static const char *const nv50_cmds[32] = {
    [CP50_CMD_NEWCTX] = "newctx",
    [CP50_CMD_NEXT_TO_SWAP] = "next_to_swap",
    [CP50_CMD_SET_CONTEXT_POINTER] = "set_context_pointer",
    [CP50_CMD_SET_XFER_POINTER] = "set_xfer_pointer",
    [CP50_CMD_START_TIMER] = "start_timer",
    [CP50_CMD_ENABLE] = "enable",
    [CP50_CMD_HALT] = "halt",
    [CP50_CMD_INTR] = "intr",
    [CP50_CMD_END] = "end",
    [CP50_CMD_NEXT_TO_CURRENT] = "next_to_current",
};

static const Isa isas[] = {
    [CTXPROG_NV40] = { 14, 0x3f, 0x3fff, 0xff, nv40_flags,
                       G_N_ELEMENTS(nv40_flags), nv40_cmds },
    [CTXPROG_NV50] = { 16, 0xf, 0xffff, 0x1ff, nv50_flags,
                       G_N_ELEMENTS(nv50_flags), nv50_cmds },
};

static const char *const xfer_areas[8] = { [1] = "main", [2] = "unk2" };

bool ctxprog_arch_parse(const char *name, CtxprogArch *arch)
{
    if (!g_ascii_strcasecmp(name, "nv40")) {
        *arch = CTXPROG_NV40;
    } else if (!g_ascii_strcasecmp(name, "nv50")) {
        *arch = CTXPROG_NV50;
    } else {
        return false;
    }
    return true;
}

const char *ctxprog_flag_name(CtxprogArch arch, unsigned flag)
{
    const Isa *isa = &isas[arch];

    for (size_t i = 0; i < isa->n_flags; i++) {
        if (isa->flags[i].flag == flag) {
            return isa->flags[i].name;
        }
    }
    return NULL;
}

const char *ctxprog_cmd_name(CtxprogArch arch, unsigned cmd)
{
    return cmd < 32 ? isas[arch].cmds[cmd] : NULL;
}

/* Opcode 4: bra on both, call and ret on NV50 */
static bool decode_branch(const Isa *isa, CtxprogArch arch, uint32_t w,
                          CtxprogInsn *in)
{
    in->flag = w & FLAG_MASK;
    in->state = !(w & BRA_IF_CLEAR);
    in->target = (w >> 8) & isa->target_max;
    if (arch == CTXPROG_NV40) {
        if (w & 0x000f0000) {       /* call/ret (NV50), or no target */
            return false;
        }
        in->op = CP_OP_BRA;
        return true;
    }
    if (w & 0x00020000) {
        return false;
    }
    switch (BRA_MODE(w)) {
    case 0:
        in->op = CP_OP_BRA;
        return true;
    case 1:
        in->op = CP_OP_CALL;
        return true;
    case 2:
        in->op = CP_OP_RET;
        return !in->target;
    }
    return false;
}

bool ctxprog_decode(CtxprogArch arch, uint32_t w, CtxprogInsn *in)
{
    const Isa *isa = &isas[arch];
    bool nv50 = arch == CTXPROG_NV50;

    *in = (CtxprogInsn) { .arch = arch, .op = CP_OP_RAW, .word = w };
    if (w >> 24) {
        return false;
    }
    switch (OPC(w)) {
    case 0x0:
        if (w) {
            return false;
        }
        in->op = CP_OP_NOP;
        break;
    case 0x1:
        in->op = CP_OP_CTX;
        in->count = (w >> isa->ctx_count_shift) & isa->ctx_count_max;
        in->reg = 0x400000 + (w & isa->ctx_reg_mask) * 4;
        break;
    case 0x2:
    case 0x3:
        in->op = OPC(w) == 2 ? CP_OP_LSR : CP_OP_LSR2;
        in->imm = w & IMM_MASK;
        break;
    case 0x4:
        if (!decode_branch(isa, arch, w, in)) {
            in->op = CP_OP_RAW;
            return false;
        }
        break;
    case 0x5:
    case 0x7:
        if (w & 0x000fff00) {
            return false;
        }
        in->op = OPC(w) == 5 ? CP_OP_WAIT : CP_OP_SET;
        in->flag = w & FLAG_MASK;
        in->state = w & WAIT_SET;
        break;
    case 0x6:
        if (w & 0x000fffe0) {
            return false;
        }
        in->op = CP_OP_CMD;
        in->cmd = w & 0x1f;
        break;
    case 0x8:
        if (w & (nv50 ? 0x0007ff00 : 0x000ffc00)) {
            return false;
        }
        in->op = CP_OP_XFER;
        if (nv50) {
            in->area = w & XFER_AREA2 ? 2 : 1;
            in->imm = w & 0xff;
        } else {
            in->area = w & 7;
            in->start = (w >> 3) & 0x7f;
        }
        break;
    case 0x9:
        in->op = CP_OP_RESET;
        in->idx = (w >> 16) & 0xf;
        in->imm = w & 0xffff;
        break;
    case 0xa:
        if (!nv50 || (w & 0x000f0000)) {
            return false;
        }
        in->op = CP_OP_LDSR;
        in->reg = 0x400000 + (w & 0xffff) * 4;
        break;
    case 0xc:
        if (!nv50) {
            return false;
        }
        in->op = CP_OP_SEEK;
        in->area = w & XFER_AREA2 ? 2 : 1;
        in->start = (w >> 8) & 0x7ff;
        in->imm = w & 0xff;
        break;
    default:
        return false;
    }
    return true;
}

static bool reg_field(uint32_t reg, uint32_t mask, uint32_t *f)
{
    if (reg < 0x400000 || (reg & 3) || ((reg - 0x400000) >> 2) > mask) {
        return false;
    }
    *f = (reg - 0x400000) >> 2;
    return true;
}

bool ctxprog_encode(const CtxprogInsn *in, uint32_t *word)
{
    const Isa *isa = &isas[in->arch];
    bool nv50 = in->arch == CTXPROG_NV50;
    uint32_t w, f, mode;

    switch (in->op) {
    case CP_OP_RAW:
        w = in->word;
        break;
    case CP_OP_NOP:
        w = 0;
        break;
    case CP_OP_CTX:
        if (in->count > isa->ctx_count_max ||
            !reg_field(in->reg, isa->ctx_reg_mask, &f)) {
            return false;
        }
        w = 0x100000 | in->count << isa->ctx_count_shift | f;
        break;
    case CP_OP_LSR:
    case CP_OP_LSR2:
        if (in->imm > IMM_MASK) {
            return false;
        }
        w = (in->op == CP_OP_LSR ? 0x200000 : 0x300000) | in->imm;
        break;
    case CP_OP_BRA:
    case CP_OP_CALL:
    case CP_OP_RET:
        if (in->flag > FLAG_MASK || in->target > isa->target_max ||
            (in->op != CP_OP_BRA && !nv50) ||
            (in->op == CP_OP_RET && in->target)) {
            return false;
        }
        mode = in->op == CP_OP_CALL ? 1 : in->op == CP_OP_RET ? 2 : 0;
        w = 0x400000 | mode << 18 | in->target << 8 | in->flag |
            (in->state ? 0 : BRA_IF_CLEAR);
        break;
    case CP_OP_WAIT:
    case CP_OP_SET:
        if (in->flag > FLAG_MASK) {
            return false;
        }
        w = (in->op == CP_OP_WAIT ? 0x500000 : 0x700000) | in->flag |
            (in->state ? WAIT_SET : 0);
        break;
    case CP_OP_CMD:
        if (in->cmd > 0x1f) {
            return false;
        }
        w = 0x600000 | in->cmd;
        break;
    case CP_OP_XFER:
        if (nv50) {
            if ((in->area != 1 && in->area != 2) || in->imm > 0xff) {
                return false;
            }
            w = 0x800000 | (in->area == 2 ? XFER_AREA2 : 0) | in->imm;
        } else {
            if (in->area > 7 || in->start > 0x7f) {
                return false;
            }
            w = 0x800000 | in->start << 3 | in->area;
        }
        break;
    case CP_OP_RESET:
        if (in->idx > 0xf || in->imm > 0xffff) {
            return false;
        }
        w = 0x900000 | in->idx << 16 | in->imm;
        break;
    case CP_OP_LDSR:
        if (!nv50 || !reg_field(in->reg, 0xffff, &f)) {
            return false;
        }
        w = 0xa00000 | f;
        break;
    case CP_OP_SEEK:
        if (!nv50 || (in->area != 1 && in->area != 2) || in->start > 0x7ff ||
            in->imm > 0xff) {
            return false;
        }
        w = 0xc00000 | (in->area == 2 ? XFER_AREA2 : 0) | in->start << 8 |
            in->imm;
        break;
    default:
        return false;
    }
    *word = w;
    return true;
}

static void format_flag(GString *out, CtxprogArch arch, unsigned flag)
{
    const char *name = ctxprog_flag_name(arch, flag);

    if (name) {
        g_string_append(out, name);
    } else {
        g_string_append_printf(out, "0x%02x", flag);
    }
}

static void format_insn(const CtxprogInsn *in, const char *target, GString *out)
{
    static const char *const branches[] = {
        [CP_OP_BRA] = "bra", [CP_OP_CALL] = "call", [CP_OP_RET] = "ret",
    };
    const char *cmd;

    switch (in->op) {
    case CP_OP_RAW:
        g_string_append_printf(out, ".word 0x%08x", in->word);
        break;
    case CP_OP_NOP:
        g_string_append(out, "nop");
        break;
    case CP_OP_CTX:
        if (in->count) {
            g_string_append_printf(out, "ctx 0x%06x, %u", in->reg, in->count);
        } else {
            g_string_append_printf(out, "ctx 0x%06x, $sr", in->reg);
        }
        break;
    case CP_OP_LSR:
    case CP_OP_LSR2:
        g_string_append_printf(out, "%s 0x%05x",
                               in->op == CP_OP_LSR ? "lsr" : "lsr2", in->imm);
        break;
    case CP_OP_BRA:
    case CP_OP_CALL:
    case CP_OP_RET:
        g_string_append_printf(out, "%s ", branches[in->op]);
        format_flag(out, in->arch, in->flag);
        g_string_append(out, in->state ? ", set" : ", clear");
        if (in->op == CP_OP_RET) {
            break;
        }
        if (target) {
            g_string_append_printf(out, ", %s", target);
        } else {
            g_string_append_printf(out, ", 0x%02x", in->target);
        }
        break;
    case CP_OP_WAIT:
    case CP_OP_SET:
        g_string_append(out, in->op == CP_OP_WAIT ? "wait " : "set ");
        format_flag(out, in->arch, in->flag);
        g_string_append(out, in->state ? ", set" : ", clear");
        break;
    case CP_OP_CMD:
        cmd = ctxprog_cmd_name(in->arch, in->cmd);
        if (cmd) {
            g_string_append_printf(out, "cmd %s", cmd);
        } else {
            g_string_append_printf(out, "cmd 0x%02x", in->cmd);
        }
        break;
    case CP_OP_XFER:
        if (in->arch == CTXPROG_NV50) {
            g_string_append_printf(out, "xfer %u, 0x%02x", in->area, in->imm);
        } else if (xfer_areas[in->area]) {
            g_string_append_printf(out, "xfer %s, %u", xfer_areas[in->area],
                                   in->start);
        } else {
            g_string_append_printf(out, "xfer %u, %u", in->area, in->start);
        }
        break;
    case CP_OP_RESET:
        g_string_append_printf(out, "reset %u, 0x%04x", in->idx, in->imm);
        break;
    case CP_OP_LDSR:
        g_string_append_printf(out, "ldsr 0x%06x", in->reg);
        break;
    case CP_OP_SEEK:
        g_string_append_printf(out, "seek %u, 0x%02x, 0x%03x", in->area,
                               in->imm, in->start);
        break;
    }
}

void ctxprog_format(const CtxprogInsn *in, GString *out)
{
    format_insn(in, NULL, out);
}

static bool has_target(const CtxprogInsn *in)
{
    return in->op == CP_OP_BRA || in->op == CP_OP_CALL;
}

unsigned ctxprog_disasm(CtxprogArch arch, const uint32_t *words, size_t n,
                        GString *out)
{
    g_autofree bool *labelled = g_new0(bool, CTXPROG_NV50_MAX);
    unsigned raw = 0;
    CtxprogInsn in;

    for (size_t pc = 0; pc < n; pc++) {
        if (ctxprog_decode(arch, words[pc], &in) && has_target(&in)) {
            labelled[in.target] = true;
        }
    }
    for (size_t pc = 0; pc < n; pc++) {
        g_autoptr(GString) text = g_string_new(NULL);
        char target[8];

        if (pc < CTXPROG_NV50_MAX && labelled[pc]) {
            g_string_append_printf(out, "L%02zx:\n", pc);
        }
        if (!ctxprog_decode(arch, words[pc], &in)) {
            raw++;
        }
        /* a target past the end is no label: it stays a number */
        g_snprintf(target, sizeof(target), "L%02x", in.target);
        format_insn(&in, has_target(&in) && in.target < n ? target : NULL,
                    text);
        g_string_append_printf(out, "\t%-40s; %02zx: %08x%s\n", text->str, pc,
                               words[pc], in.op == CP_OP_RAW ? " (unknown)" : "");
    }
    return raw;
}
