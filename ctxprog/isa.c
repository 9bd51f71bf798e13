/*
 * libctxprog: the NV40 CTXCTL instruction set (see ctxprog.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"

G_DEFINE_QUARK(ctxprog-error-quark, ctxprog_error)

#define OPC(w)          (((w) >> 20) & 0xf)
#define CTX_COUNT_SHIFT 14
#define CTX_COUNT_MAX   0x3f
#define CTX_REG_MASK    0x3fff
#define IMM_MASK        0xfffff
#define BRA_IF_CLEAR    0x80
#define WAIT_SET        0x80
#define SET_1           0x80
#define FLAG_MASK       0x7f

static const struct {
    unsigned flag;
    const char *name;
} flag_names[] = {
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

static const char *const cmd_names[32] = {
    [CP_CMD_NEXT_TO_SWAP] = "next_to_swap",
    [CP_CMD_NEXT_TO_CURRENT] = "next_to_current",
    [CP_CMD_SET_CONTEXT_POINTER] = "set_context_pointer",
    [CP_CMD_START_TIMER] = "start_timer",
    [CP_CMD_CLEAR_RESET] = "clear_reset",
    [CP_CMD_HALT] = "halt",
    [CP_CMD_END] = "end",
    [CP_CMD_INTR] = "intr",
};

static const char *const xfer_areas[8] = { [1] = "main", [2] = "unk2" };

const char *ctxprog_flag_name(unsigned flag)
{
    for (size_t i = 0; i < G_N_ELEMENTS(flag_names); i++) {
        if (flag_names[i].flag == flag) {
            return flag_names[i].name;
        }
    }
    return NULL;
}

const char *ctxprog_cmd_name(unsigned cmd)
{
    return cmd < G_N_ELEMENTS(cmd_names) ? cmd_names[cmd] : NULL;
}

bool ctxprog_decode(uint32_t w, CtxprogInsn *in)
{
    *in = (CtxprogInsn) { .op = CP_OP_RAW, .word = w };
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
        in->count = (w >> CTX_COUNT_SHIFT) & CTX_COUNT_MAX;
        in->reg = 0x400000 + (w & CTX_REG_MASK) * 4;
        break;
    case 0x2:
    case 0x3:
        in->op = OPC(w) == 2 ? CP_OP_LSR : CP_OP_LSR2;
        in->imm = w & IMM_MASK;
        break;
    case 0x4:
        if (w & 0x000f0000) {       /* call/ret (NV50), or no target */
            return false;
        }
        in->op = CP_OP_BRA;
        in->flag = w & FLAG_MASK;
        in->state = !(w & BRA_IF_CLEAR);
        in->target = (w >> 8) & 0xff;
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
        if (w & 0x000ffc00) {
            return false;
        }
        in->op = CP_OP_XFER;
        in->area = w & 7;
        in->start = (w >> 3) & 0x7f;
        break;
    case 0x9:
        in->op = CP_OP_RESET;
        in->idx = (w >> 16) & 0xf;
        in->imm = w & 0xffff;
        break;
    default:
        return false;
    }
    return true;
}

bool ctxprog_encode(const CtxprogInsn *in, uint32_t *word)
{
    uint32_t w;

    switch (in->op) {
    case CP_OP_RAW:
        w = in->word;
        break;
    case CP_OP_NOP:
        w = 0;
        break;
    case CP_OP_CTX:
        if (in->count > CTX_COUNT_MAX || in->reg < 0x400000 || (in->reg & 3) ||
            ((in->reg - 0x400000) >> 2) > CTX_REG_MASK) {
            return false;
        }
        w = 0x100000 | in->count << CTX_COUNT_SHIFT | (in->reg - 0x400000) >> 2;
        break;
    case CP_OP_LSR:
    case CP_OP_LSR2:
        if (in->imm > IMM_MASK) {
            return false;
        }
        w = (in->op == CP_OP_LSR ? 0x200000 : 0x300000) | in->imm;
        break;
    case CP_OP_BRA:
        if (in->flag > FLAG_MASK || in->target > 0xff) {
            return false;
        }
        w = 0x400000 | in->target << 8 | in->flag |
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
        if (in->area > 7 || in->start > 0x7f) {
            return false;
        }
        w = 0x800000 | in->start << 3 | in->area;
        break;
    case CP_OP_RESET:
        if (in->idx > 0xf || in->imm > 0xffff) {
            return false;
        }
        w = 0x900000 | in->idx << 16 | in->imm;
        break;
    default:
        return false;
    }
    *word = w;
    return true;
}

static void format_flag(GString *out, unsigned flag)
{
    const char *name = ctxprog_flag_name(flag);

    if (name) {
        g_string_append(out, name);
    } else {
        g_string_append_printf(out, "0x%02x", flag);
    }
}

static void format_insn(const CtxprogInsn *in, const char *target, GString *out)
{
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
        g_string_append(out, "bra ");
        format_flag(out, in->flag);
        if (target) {
            g_string_append_printf(out, ", %s, %s",
                                   in->state ? "set" : "clear", target);
        } else {
            g_string_append_printf(out, ", %s, 0x%02x",
                                   in->state ? "set" : "clear", in->target);
        }
        break;
    case CP_OP_WAIT:
    case CP_OP_SET:
        g_string_append(out, in->op == CP_OP_WAIT ? "wait " : "set ");
        format_flag(out, in->flag);
        g_string_append(out, in->state ? ", set" : ", clear");
        break;
    case CP_OP_CMD:
        if (ctxprog_cmd_name(in->cmd)) {
            g_string_append_printf(out, "cmd %s", ctxprog_cmd_name(in->cmd));
        } else {
            g_string_append_printf(out, "cmd 0x%02x", in->cmd);
        }
        break;
    case CP_OP_XFER:
        if (xfer_areas[in->area]) {
            g_string_append_printf(out, "xfer %s, %u", xfer_areas[in->area],
                                   in->start);
        } else {
            g_string_append_printf(out, "xfer %u, %u", in->area, in->start);
        }
        break;
    case CP_OP_RESET:
        g_string_append_printf(out, "reset %u, 0x%04x", in->idx, in->imm);
        break;
    }
}

void ctxprog_format(const CtxprogInsn *in, GString *out)
{
    format_insn(in, NULL, out);
}

unsigned ctxprog_disasm(const uint32_t *words, size_t n, GString *out)
{
    g_autofree bool *labelled = g_new0(bool, 256);
    unsigned raw = 0;
    CtxprogInsn in;

    for (size_t pc = 0; pc < n; pc++) {
        if (ctxprog_decode(words[pc], &in) && in.op == CP_OP_BRA) {
            labelled[in.target] = true;
        }
    }
    for (size_t pc = 0; pc < n; pc++) {
        g_autoptr(GString) text = g_string_new(NULL);
        char target[8];

        if (pc < 256 && labelled[pc]) {
            g_string_append_printf(out, "L%02zx:\n", pc);
        }
        if (!ctxprog_decode(words[pc], &in)) {
            raw++;
        }
        /* a target past the end is no label: it stays a number */
        g_snprintf(target, sizeof(target), "L%02x", in.target);
        format_insn(&in, in.op == CP_OP_BRA && in.target < n ? target : NULL,
                    text);
        g_string_append_printf(out, "\t%-40s; %02zx: %08x%s\n", text->str, pc,
                               words[pc], in.op == CP_OP_RAW ? " (unknown)" : "");
    }
    return raw;
}
