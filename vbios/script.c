/*
 * libnvbios: init script opcodes, lengths exactly as Linux 6.1's devinit
 * interpreter (nvkm/subdev/bios/init.c) consumes them, a walker that
 * follows sub-scripts and jumps the way the interpreter does, and a
 * disassembler.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios-int.h"
#include <string.h>

/* op, name, fixed length, offset of a count, bytes per counted element,
 * fixed operands, fields of a counted element */
static const NVBiosOpcode opcodes[] = {
    { 0x32, "INIT_IO_RESTRICT_PROG", 11, 6, 4,
      "port:2 index:1 mask:1 shift:1 count:1 reg:4", "data:4" },
    { 0x33, "INIT_REPEAT", 2, 0, 0, "count:1", "" },
    { 0x34, "INIT_IO_RESTRICT_PLL", 12, 7, 2,
      "port:2 index:1 mask:1 shift:1 iofc:1 count:1 reg:4", "freq:2" },
    { 0x36, "INIT_END_REPEAT", 1, 0, 0, "", "" },
    { 0x37, "INIT_COPY", 11, 0, 0,
      "reg:4 shift:1 smask:1 port:2 index:1 mask:1", "" },
    { 0x38, "INIT_NOT", 1, 0, 0, "", "" },
    { 0x39, "INIT_IO_FLAG_CONDITION", 2, 0, 0, "cond:1", "" },
    { 0x3a, "INIT_GENERIC_CONDITION", 3, 0, 0, "cond:1 size:1", "" },
    { 0x3b, "INIT_IO_MASK_OR", 2, 0, 0, "index:1", "" },
    { 0x3c, "INIT_IO_OR", 2, 0, 0, "index:1", "" },
    { 0x47, "INIT_ANDN_REG", 9, 0, 0, "reg:4 mask:4", "" },
    { 0x48, "INIT_OR_REG", 9, 0, 0, "reg:4 mask:4", "" },
    { 0x49, "INIT_INDEX_ADDRESS_LATCHED", 18, 17, 2,
      "creg:4 dreg:4 mask:4 data:4 count:1", "addr:1 data:1" },
    { 0x4a, "INIT_IO_RESTRICT_PLL2", 11, 6, 4,
      "port:2 index:1 mask:1 shift:1 count:1 reg:4", "freq:4" },
    { 0x4b, "INIT_PLL2", 9, 0, 0, "reg:4 freq:4", "" },
    { 0x4c, "INIT_I2C_BYTE", 4, 3, 3, "index:1 addr:1 count:1", "reg:1 mask:1 data:1" },
    { 0x4d, "INIT_ZM_I2C_BYTE", 4, 3, 2, "index:1 addr:1 count:1", "reg:1 data:1" },
    { 0x4e, "INIT_ZM_I2C", 4, 3, 1, "index:1 addr:1 count:1", "data:1" },
    { 0x4f, "INIT_TMDS", 5, 0, 0, "tmds:1 addr:1 mask:1 data:1", "" },
    { 0x50, "INIT_ZM_TMDS_GROUP", 3, 2, 2, "tmds:1 count:1", "addr:1 data:1" },
    { 0x51, "INIT_CR_INDEX_ADDRESS_LATCHED", 5, 4, 1,
      "addr0:1 addr1:1 base:1 count:1", "data:1" },
    { 0x52, "INIT_CR", 4, 0, 0, "addr:1 mask:1 data:1", "" },
    { 0x53, "INIT_ZM_CR", 3, 0, 0, "addr:1 data:1", "" },
    { 0x54, "INIT_ZM_CR_GROUP", 2, 1, 2, "count:1", "addr:1 data:1" },
    { 0x56, "INIT_CONDITION_TIME", 3, 0, 0, "cond:1 retry:1", "" },
    { 0x57, "INIT_LTIME", 3, 0, 0, "msec:2", "" },
    { 0x58, "INIT_ZM_REG_SEQUENCE", 6, 5, 4, "base:4 count:1", "data:4" },
    { 0x59, "INIT_PLL_INDIRECT", 7, 0, 0, "reg:4 addr:2", "" },
    { 0x5a, "INIT_ZM_REG_INDIRECT", 7, 0, 0, "reg:4 addr:2", "" },
    { 0x5b, "INIT_SUB_DIRECT", 3, 0, 0, "addr:2", "" },
    { 0x5c, "INIT_JUMP", 3, 0, 0, "addr:2", "" },
    { 0x5e, "INIT_I2C_IF", 6, 0, 0, "index:1 addr:1 reg:1 mask:1 data:1", "" },
    { 0x5f, "INIT_COPY_NV_REG", 22, 0, 0,
      "sreg:4 shift:1 smask:4 sxor:4 dreg:4 dmask:4", "" },
    { 0x62, "INIT_ZM_INDEX_IO", 5, 0, 0, "port:2 index:1 data:1", "" },
    { 0x63, "INIT_COMPUTE_MEM", 1, 0, 0, "", "" },
    { 0x65, "INIT_RESET", 13, 0, 0, "reg:4 data1:4 data2:4", "" },
    { 0x66, "INIT_CONFIGURE_MEM", 1, 0, 0, "", "" },
    { 0x67, "INIT_CONFIGURE_CLK", 1, 0, 0, "", "" },
    { 0x68, "INIT_CONFIGURE_PREINIT", 1, 0, 0, "", "" },
    { 0x69, "INIT_IO", 5, 0, 0, "port:2 mask:1 data:1", "" },
    { 0x6b, "INIT_SUB", 2, 0, 0, "index:1", "" },
    { 0x6d, "INIT_RAM_CONDITION", 3, 0, 0, "mask:1 value:1", "" },
    { 0x6e, "INIT_NV_REG", 13, 0, 0, "reg:4 mask:4 data:4", "" },
    { 0x6f, "INIT_MACRO", 2, 0, 0, "macro:1", "" },
    { 0x71, "INIT_DONE", 1, 0, 0, "", "" },
    { 0x72, "INIT_RESUME", 1, 0, 0, "", "" },
    { 0x73, "INIT_STRAP_CONDITION", 9, 0, 0, "mask:4 value:4", "" },
    { 0x74, "INIT_TIME", 3, 0, 0, "usec:2", "" },
    { 0x75, "INIT_CONDITION", 2, 0, 0, "cond:1", "" },
    { 0x76, "INIT_IO_CONDITION", 2, 0, 0, "cond:1", "" },
    { 0x77, "INIT_ZM_REG16", 7, 0, 0, "reg:4 data:2", "" },
    { 0x78, "INIT_INDEX_IO", 6, 0, 0, "port:2 index:1 mask:1 data:1", "" },
    { 0x79, "INIT_PLL", 7, 0, 0, "reg:4 freq:2", "" },
    { 0x7a, "INIT_ZM_REG", 9, 0, 0, "reg:4 data:4", "" },
    { 0x87, "INIT_RAM_RESTRICT_PLL", 2, 0, 0, "type:1", "freq:4" },
    { 0x8c, "INIT_RESET_BEGUN", 1, 0, 0, "", "" },
    { 0x8d, "INIT_RESET_END", 1, 0, 0, "", "" },
    { 0x8e, "INIT_GPIO", 1, 0, 0, "", "" },
    { 0x8f, "INIT_RAM_RESTRICT_ZM_REG_GROUP", 7, 0, 0, "reg:4 incr:1 num:1", "data:4" },
    { 0x90, "INIT_COPY_ZM_REG", 9, 0, 0, "sreg:4 dreg:4", "" },
    { 0x91, "INIT_ZM_REG_GROUP", 6, 5, 4, "reg:4 count:1", "data:4" },
    { 0x92, "INIT_RESERVED", 1, 0, 0, "", "" },
    { 0x96, "INIT_XLAT", 17, 0, 0,
      "sreg:4 sshift:1 smask:1 index:1 dreg:4 dmask:4 shift:1", "" },
    { 0x97, "INIT_ZM_MASK_ADD", 13, 0, 0, "reg:4 mask:4 add:4", "" },
    { 0x98, "INIT_AUXCH", 6, 5, 2, "addr:4 count:1", "mask:1 data:1" },
    { 0x99, "INIT_ZM_AUXCH", 6, 5, 1, "addr:4 count:1", "data:1" },
    { 0x9a, "INIT_I2C_LONG_IF", 7, 0, 0,
      "index:1 addr:1 reglo:1 reghi:1 mask:1 data:1", "" },
    { 0xa9, "INIT_GPIO_NE", 2, 1, 1, "count:1", "gpio:1" },
    { 0xaa, "INIT_RESERVED", 4, 0, 0, "arg0:1 arg1:1 arg2:1", "" },
};

const NVBiosOpcode *nvbios_opcode(uint8_t op)
{
    for (size_t i = 0; i < G_N_ELEMENTS(opcodes); i++) {
        if (opcodes[i].op == op) {
            return &opcodes[i];
        }
    }
    return NULL;
}

const NVBiosOpcode *nvbios_opcode_by_name(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(opcodes); i++) {
        const char *n = opcodes[i].name + 5;        /* past "INIT_" */
        if (!g_ascii_strcasecmp(name, opcodes[i].name) ||
            !g_ascii_strcasecmp(name, n)) {
            return &opcodes[i];
        }
    }
    return NULL;
}

static uint32_t at(const NVBios *b, uint32_t off, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
        v = v << 8 | (off + i < b->size ? b->data[off + i] : 0);
    }
    return v;
}

/* Conditions INIT_GENERIC_CONDITION knows; for others it skips @size. */
static bool generic_condition_known(uint8_t cond)
{
    return cond == 0 || cond == 1 || cond == 2 || cond == 5 || cond == 7;
}

size_t nvbios_insn_len(const NVBios *b, uint32_t off, GError **errp)
{
    const NVBiosOpcode *op;
    size_t len;

    if (off >= b->size) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "instruction at 0x%x is past the end of the file", off);
        return 0;
    }
    op = nvbios_opcode(b->data[off]);
    if (!op) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "unknown opcode 0x%02x at 0x%x", b->data[off], off);
        return 0;
    }
    len = op->len;
    if (op->count_at) {
        len += (size_t)at(b, off + op->count_at, 1) * op->elem;
    }
    switch (op->op) {
    case 0x3a:
        if (!generic_condition_known(at(b, off + 1, 1))) {
            len += at(b, off + 2, 1);
        }
        break;
    case 0x87:      /* one frequency per RAM configuration */
        len += (size_t)b->ram_restrict_count * 4;
        break;
    case 0x8f:      /* num registers, each one value per RAM configuration */
        len += (size_t)at(b, off + 6, 1) * b->ram_restrict_count * 4;
        break;
    }
    if (off + len > b->size) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "%s at 0x%x (%zu bytes) runs past the end of the file",
                    op->name, off, len);
        return 0;
    }
    return len;
}

/* Print "name=0x.." for each "name:size" field of @fmt read at *pos. */
static void fields(const NVBios *b, const char *fmt, uint32_t *pos,
                   GString *out)
{
    g_auto(GStrv) f = g_strsplit(fmt, " ", -1);

    for (int i = 0; f[i] && *f[i]; i++) {
        const char *colon = strchr(f[i], ':');
        int size = colon[1] - '0';
        g_string_append_printf(out, "%s%.*s=0x%0*x", i ? " " : "",
                               (int)(colon - f[i]), f[i], 2 * size,
                               at(b, *pos, size));
        *pos += size;
    }
}

static unsigned fields_size(const char *fmt)
{
    unsigned n = 0;
    for (const char *c = strchr(fmt, ':'); c; c = strchr(c + 1, ':')) {
        n += c[1] - '0';
    }
    return n;
}

size_t nvbios_disasm(const NVBios *b, uint32_t off, GString *out,
                     GError **errp)
{
    size_t len = nvbios_insn_len(b, off, errp);
    const NVBiosOpcode *op;
    uint32_t pos = off + 1, esize;

    if (!len) {
        return 0;
    }
    op = nvbios_opcode(b->data[off]);
    g_string_append_printf(out, "0x%04x: %-22s ", off, op->name);
    fields(b, op->args, &pos, out);
    esize = fields_size(op->elems);
    while (esize && pos + esize <= off + len) {
        g_string_append(out, " {");
        fields(b, op->elems, &pos, out);
        g_string_append(out, "}");
    }
    if (pos < off + len) {
        g_string_append(out, " [");
        for (uint32_t p = pos; p < off + len; p++) {
            g_string_append_printf(out, "%s%02x", p == pos ? "" : " ",
                                   b->data[p]);
        }
        g_string_append(out, "]");
    }
    while (out->len && out->str[out->len - 1] == ' ') {
        g_string_truncate(out, out->len - 1);
    }
    g_string_append_c(out, '\n');
    return len;
}

unsigned nvbios_fields_size(const char *fmt)
{
    return fields_size(fmt);
}

/*
 * Walking: from a script's start to its INIT_DONE, into INIT_SUB_DIRECT
 * and INIT_SUB targets, and along INIT_JUMP (taken, as it is while the
 * interpreter's condition flag is set).  Reaching an instruction twice in
 * one walk is a loop; calling a script already on the call stack is
 * unbounded recursion.
 */
#define MAX_DEPTH 8

typedef struct Walk {
    NVBios *b;
    uint32_t stack[MAX_DEPTH];
    unsigned depth;
    GHashTable *checked;        /* scripts already walked without error */
} Walk;

static bool walk(Walk *w, uint32_t start, GError **errp);

static bool walk_call(Walk *w, uint32_t insn, uint32_t target, GError **errp)
{
    const NVBios *b = w->b;

    if (!target || target >= b->image_size) {
        FAIL(NVBIOS_ERR_POINTER, "%s at 0x%x calls 0x%04x, outside the "
             "image", nvbios_opcode(b->data[insn])->name, insn, target);
    }
    for (unsigned i = 0; i < w->depth; i++) {
        if (w->stack[i] == target) {
            FAIL(NVBIOS_ERR_SCRIPT, "%s at 0x%x calls the script at 0x%04x, "
                 "which is already running: the scripts loop",
                 nvbios_opcode(b->data[insn])->name, insn, target);
        }
    }
    if (w->depth >= MAX_DEPTH) {
        FAIL(NVBIOS_ERR_SCRIPT, "%s at 0x%x: sub-scripts nest deeper than "
             "%d", nvbios_opcode(b->data[insn])->name, insn, MAX_DEPTH);
    }
    return walk(w, target, errp);
}

static bool walk(Walk *w, uint32_t start, GError **errp)
{
    const NVBios *b = w->b;
    g_autoptr(GHashTable) seen = NULL;
    uint32_t off = start;

    if (g_hash_table_contains(w->checked, GUINT_TO_POINTER(start))) {
        return true;
    }
    seen = g_hash_table_new(NULL, NULL);
    w->stack[w->depth++] = start;
    for (;;) {
        uint8_t op;
        size_t n;

        if (off >= b->image_size) {
            FAIL(NVBIOS_ERR_SCRIPT, "script at 0x%x runs past the image "
                 "without INIT_DONE", start);
        }
        if (g_hash_table_contains(seen, GUINT_TO_POINTER(off))) {
            FAIL(NVBIOS_ERR_SCRIPT, "script at 0x%x loops: INIT_JUMP comes "
                 "back to 0x%x", start, off);
        }
        g_hash_table_add(seen, GUINT_TO_POINTER(off));
        op = b->data[off];
        if (op == 0x71) {
            break;
        }
        n = nvbios_insn_len(b, off, errp);
        if (!n) {
            return false;
        }
        if (op == 0x5b && !walk_call(w, off, at(b, off + 1, 2), errp)) {
            return false;
        }
        if (op == 0x6b) {
            uint8_t idx = at(b, off + 1, 1);
            uint32_t tbl = b->script_table, target;
            if (!tbl || !in_image(b, tbl + 2 * idx, 2)) {
                FAIL(NVBIOS_ERR_SCRIPT, "INIT_SUB at 0x%x: script %u is not "
                     "in a script table", off, idx);
            }
            target = at(b, tbl + 2 * idx, 2);
            if (target && !walk_call(w, off, target, errp)) {
                return false;
            }
        }
        if (op == 0x5c) {
            uint32_t target = at(b, off + 1, 2);
            if (!target || target >= b->image_size) {
                FAIL(NVBIOS_ERR_POINTER, "INIT_JUMP at 0x%x to 0x%04x, "
                     "outside the image", off, target);
            }
            off = target;
            continue;
        }
        off += n;
        if (g_hash_table_size(seen) > 65536) {
            FAIL(NVBIOS_ERR_SCRIPT, "script at 0x%x does not end", start);
        }
    }
    w->depth--;
    g_hash_table_add(w->checked, GUINT_TO_POINTER(start));
    return true;
}

bool nvbios_parse_scripts(NVBios *b, GError **errp)
{
    Walk w = { .b = b };
    bool ok = true;

    w.checked = g_hash_table_new(NULL, NULL);
    for (unsigned i = 0; ok && i < b->n_scripts; i++) {
        w.depth = 0;
        if (!walk(&w, b->scripts[i], errp)) {
            g_prefix_error(errp, "init script %u: ", i);
            ok = false;
        }
    }
    for (unsigned t = 0; ok && t < 2; t++) {
        for (unsigned i = 0; ok && i < b->n_tmds_clk[t]; i++) {
            w.depth = 0;
            if (b->tmds_clk[t][i].script &&
                !walk(&w, b->tmds_clk[t][i].script, errp)) {
                g_prefix_error(errp, "TMDS output %u script for %u kHz: ", t,
                               b->tmds_clk[t][i].min_khz);
                ok = false;
            }
        }
    }
    for (unsigned i = 0; ok && i < 2; i++) {
        uint16_t on = b->lvds_panel_on[i], off = b->lvds_panel_off[i];

        w.depth = 0;
        if ((on && !walk(&w, on, errp)) || (off && !walk(&w, off, errp))) {
            g_prefix_error(errp, "LVDS panel power script, set %u: ", i);
            ok = false;
        }
    }
    for (unsigned t = 0; ok && t < 8; t++) {
        for (unsigned i = 0; ok && i < b->n_lvds_reset[t]; i++) {
            w.depth = 0;
            if (b->lvds_reset[t][i].script &&
                !walk(&w, b->lvds_reset[t][i].script, errp)) {
                g_prefix_error(errp, "LVDS reset table %u script for %u kHz: ",
                               t, b->lvds_reset[t][i].min_khz);
                ok = false;
            }
        }
    }
    g_hash_table_unref(w.checked);
    return ok;
}
