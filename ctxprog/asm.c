/*
 * libctxprog: the assembler.  Its input is what ctxprog_disasm() prints:
 *
 *   LABEL:                      a branch target (any identifier)
 *   MNEMONIC OPERAND, ...       one instruction
 *   .word VALUE                 a word as it is
 *   ; or # to the end of a line: a comment
 *
 * Flags and commands by name or number; branch targets by label or
 * number.  Two passes: labels first, so branches may go forward.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <string.h>

typedef struct Asm {
    CtxprogArch arch;
    GHashTable *labels;         /* name -> pc + 1 */
    unsigned line;
    GError **errp;
} Asm;

static bool fail(Asm *a, int code, const char *msg, const char *what)
{
    g_set_error(a->errp, CTXPROG_ERROR, code, "line %u: %s%s", a->line, msg,
                what ? what : "");
    return false;
}

static bool number(const char *s, uint64_t *v)
{
    char *end;

    if (!*s || !(g_ascii_isdigit(*s))) {
        return false;
    }
    *v = g_ascii_strtoull(s, &end, 0);
    return *end == 0;
}

static bool ident(const char *s)
{
    if (!g_ascii_isalpha(*s) && *s != '_' && *s != '.') {
        return false;
    }
    for (; *s; s++) {
        if (!g_ascii_isalnum(*s) && *s != '_' && *s != '.') {
            return false;
        }
    }
    return true;
}

static bool operand_num(Asm *a, const char *s, uint64_t max, unsigned *v)
{
    uint64_t n;

    if (!number(s, &n)) {
        return fail(a, CTXPROG_ERR_SYNTAX, "not a number: ", s);
    }
    if (n > max) {
        return fail(a, CTXPROG_ERR_RANGE, "out of range: ", s);
    }
    *v = n;
    return true;
}

static bool operand_flag(Asm *a, const char *s, unsigned *flag)
{
    for (unsigned f = 0; f < 0x80; f++) {
        const char *name = ctxprog_flag_name(a->arch, f);

        if (name && !strcmp(name, s)) {
            *flag = f;
            return true;
        }
    }
    return operand_num(a, s, 0x7f, flag);
}

/* NV50's xfer areas: 1 or 2 */
static bool operand_area(Asm *a, const char *s, unsigned *area)
{
    if (!operand_num(a, s, 2, area)) {
        return false;
    }
    return *area ? true :
           fail(a, CTXPROG_ERR_RANGE, "xfer areas are 1 and 2, not ", s);
}

static bool operand_state(Asm *a, const char *s, bool *state)
{
    if (!strcmp(s, "set") || !strcmp(s, "clear")) {
        *state = s[0] == 's';
        return true;
    }
    return fail(a, CTXPROG_ERR_SYNTAX, "want set or clear, not ", s);
}

static bool operand_cmd(Asm *a, const char *s, unsigned *cmd)
{
    for (unsigned c = 0; c < 32; c++) {
        const char *name = ctxprog_cmd_name(a->arch, c);

        if (name && !strcmp(name, s)) {
            *cmd = c;
            return true;
        }
    }
    return operand_num(a, s, 0x1f, cmd);
}

static bool operand_target(Asm *a, const char *s, bool final, unsigned *pc)
{
    unsigned max = a->arch == CTXPROG_NV50 ? CTXPROG_NV50_MAX - 1 :
                   CTXPROG_NV40_MAX - 1;
    gpointer v;

    if (!ident(s)) {
        return operand_num(a, s, max, pc);
    }
    if (!g_hash_table_lookup_extended(a->labels, s, NULL, &v)) {
        *pc = 0;
        return final ? fail(a, CTXPROG_ERR_LABEL, "no such label: ", s) : true;
    }
    *pc = GPOINTER_TO_UINT(v) - 1;
    if (*pc > max) {
        return fail(a, CTXPROG_ERR_RANGE, "beyond a branch's reach: ", s);
    }
    return true;
}

/* @ops: the operands of one instruction; on success *word is its encoding */
static bool insn(Asm *a, const char *mn, char **ops, unsigned n, bool final,
                 uint32_t *word)
{
    static const struct {
        const char *name;
        CtxprogOp op;
        unsigned nops;
        bool nv50;              /* NV50's alone */
    } forms[] = {
        { "nop", CP_OP_NOP, 0, false }, { "ctx", CP_OP_CTX, 2, false },
        { "lsr", CP_OP_LSR, 1, false }, { "lsr2", CP_OP_LSR2, 1, false },
        { "bra", CP_OP_BRA, 3, false }, { "wait", CP_OP_WAIT, 2, false },
        { "set", CP_OP_SET, 2, false }, { "cmd", CP_OP_CMD, 1, false },
        { "xfer", CP_OP_XFER, 2, false }, { "reset", CP_OP_RESET, 2, false },
        { "call", CP_OP_CALL, 3, true }, { "ret", CP_OP_RET, 2, true },
        { "ldsr", CP_OP_LDSR, 1, true }, { "seek", CP_OP_SEEK, 3, true },
        { ".word", CP_OP_RAW, 1, false },
    };
    bool nv50 = a->arch == CTXPROG_NV50;
    CtxprogInsn in = { .arch = a->arch };
    unsigned v = 0;
    size_t f;

    for (f = 0; f < G_N_ELEMENTS(forms) && strcmp(forms[f].name, mn); f++) {
    }
    if (f == G_N_ELEMENTS(forms)) {
        return fail(a, CTXPROG_ERR_SYNTAX, "unknown instruction ", mn);
    }
    if (forms[f].nv50 && !nv50) {
        return fail(a, CTXPROG_ERR_SYNTAX, "an NV50 instruction: ", mn);
    }
    if (n != forms[f].nops) {
        return fail(a, CTXPROG_ERR_SYNTAX, "wrong number of operands for ", mn);
    }
    in.op = forms[f].op;
    switch (in.op) {
    case CP_OP_RAW:
        if (!operand_num(a, ops[0], UINT32_MAX, &v)) {
            return false;
        }
        in.word = v;
        break;
    case CP_OP_NOP:
        break;
    case CP_OP_CTX:
        if (!operand_num(a, ops[0], nv50 ? 0x43fffc : 0x40fffc, &in.reg)) {
            return false;
        }
        if (!strcmp(ops[1], "$sr")) {
            in.count = 0;
        } else if (!operand_num(a, ops[1], nv50 ? 0xf : 0x3f, &in.count)) {
            return false;
        } else if (!in.count) {
            return fail(a, CTXPROG_ERR_RANGE, "a count of 0 is written ", "$sr");
        }
        break;
    case CP_OP_LSR:
    case CP_OP_LSR2:
        if (!operand_num(a, ops[0], 0xfffff, &in.imm)) {
            return false;
        }
        break;
    case CP_OP_BRA:
    case CP_OP_CALL:
        if (!operand_flag(a, ops[0], &in.flag) ||
            !operand_state(a, ops[1], &in.state) ||
            !operand_target(a, ops[2], final, &in.target)) {
            return false;
        }
        break;
    case CP_OP_RET:
    case CP_OP_WAIT:
    case CP_OP_SET:
        if (!operand_flag(a, ops[0], &in.flag) ||
            !operand_state(a, ops[1], &in.state)) {
            return false;
        }
        break;
    case CP_OP_CMD:
        if (!operand_cmd(a, ops[0], &in.cmd)) {
            return false;
        }
        break;
    case CP_OP_XFER:
        if (nv50) {
            if (!operand_area(a, ops[0], &in.area) ||
                !operand_num(a, ops[1], 0xff, &in.imm)) {
                return false;
            }
            break;
        }
        if (!strcmp(ops[0], "main") || !strcmp(ops[0], "unk2")) {
            in.area = ops[0][0] == 'm' ? 1 : 2;
        } else if (!operand_num(a, ops[0], 7, &in.area)) {
            return false;
        }
        if (!operand_num(a, ops[1], 0x7f, &in.start)) {
            return false;
        }
        break;
    case CP_OP_RESET:
        if (!operand_num(a, ops[0], 0xf, &in.idx) ||
            !operand_num(a, ops[1], 0xffff, &in.imm)) {
            return false;
        }
        break;
    case CP_OP_LDSR:
        if (!operand_num(a, ops[0], 0x43fffc, &in.reg)) {
            return false;
        }
        break;
    case CP_OP_SEEK:
        if (!operand_area(a, ops[0], &in.area) ||
            !operand_num(a, ops[1], 0xff, &in.imm) ||
            !operand_num(a, ops[2], 0x7ff, &in.start)) {
            return false;
        }
        break;
    }
    if (!ctxprog_encode(&in, word)) {
        return fail(a, CTXPROG_ERR_RANGE, "operands do not fit ", mn);
    }
    return true;
}

/* One pass over @text; the final one appends to @words. */
static bool pass(Asm *a, const char *text, bool final, GArray *words)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    unsigned pc = 0;

    for (a->line = 1; lines[a->line - 1]; a->line++) {
        char *l = lines[a->line - 1];
        char *colon, *sp;
        g_auto(GStrv) ops = NULL;
        uint32_t w;

        l[strcspn(l, ";#")] = 0;
        g_strstrip(l);
        colon = strchr(l, ':');
        if (colon) {
            *colon = 0;
            g_strstrip(l);
            if (!ident(l)) {
                return fail(a, CTXPROG_ERR_SYNTAX, "not a label: ", l);
            }
            if (!final) {
                if (g_hash_table_contains(a->labels, l)) {
                    return fail(a, CTXPROG_ERR_LABEL, "label defined twice: ", l);
                }
                g_hash_table_insert(a->labels, g_strdup(l),
                                    GUINT_TO_POINTER(pc + 1));
            }
            l = colon + 1;
            g_strstrip(l);
        }
        if (!*l) {
            continue;
        }
        sp = l + strcspn(l, " \t");
        if (*sp) {
            *sp++ = 0;
            ops = g_strsplit(sp, ",", -1);
            for (char **o = ops; *o; o++) {
                g_strstrip(*o);
            }
        } else {
            ops = g_new0(char *, 1);
        }
        if (!insn(a, l, ops, g_strv_length(ops), final, &w)) {
            return false;
        }
        if (final) {
            g_array_append_val(words, w);
        }
        pc++;
    }
    return true;
}

bool ctxprog_asm(CtxprogArch arch, const char *text, GArray *words,
                 GError **errp)
{
    Asm a = {
        .arch = arch,
        .labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
        .errp = errp,
    };
    bool ok = pass(&a, text, false, NULL) && pass(&a, text, true, words);

    g_hash_table_destroy(a.labels);
    return ok;
}
