/*
 * libnvbios: init script opcodes (lengths as Linux 6.1's
 * nvkm/subdev/bios/init.c consumes them) and a disassembler.
 *
 * Only opcodes whose layout has been checked against init.c are listed;
 * any other opcode is reported as unknown, just as nouveau's interpreter
 * fails devinit on it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"

static const NVBiosOpcode opcodes[] = {
    { 0x47, "INIT_ANDN_REG", 9 },
    { 0x48, "INIT_OR_REG", 9 },
    { 0x4d, "INIT_ZM_I2C_BYTE", 0 },
    { 0x52, "INIT_CR", 4 },
    { 0x53, "INIT_ZM_CR", 3 },
    { 0x54, "INIT_ZM_CR_GROUP", 0 },
    { 0x58, "INIT_ZM_REG_SEQUENCE", 0 },
    { 0x5b, "INIT_SUB_DIRECT", 3 },
    { 0x62, "INIT_ZM_INDEX_IO", 5 },
    { 0x69, "INIT_IO", 5 },
    { 0x6e, "INIT_NV_REG", 13 },
    { 0x71, "INIT_DONE", 1 },
    { 0x72, "INIT_RESUME", 1 },
    { 0x74, "INIT_TIME", 3 },
    { 0x75, "INIT_CONDITION", 2 },
    { 0x77, "INIT_ZM_REG16", 7 },
    { 0x78, "INIT_INDEX_IO", 6 },
    { 0x7a, "INIT_ZM_REG", 9 },
    { 0x91, "INIT_ZM_REG_GROUP", 0 },
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

static uint32_t at(const NVBios *b, uint32_t off, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
        v = v << 8 | (off + i < b->size ? b->data[off + i] : 0);
    }
    return v;
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
    switch (op->op) {
    case 0x4d: len = 4 + at(b, off + 3, 1) * 2; break;
    case 0x54: len = 2 + at(b, off + 1, 1) * 2; break;
    case 0x58:
    case 0x91: len = 6 + at(b, off + 5, 1) * 4; break;
    default: len = op->len; break;
    }
    if (off + len > b->size) {
        g_set_error(errp, NVBIOS_ERROR, NVBIOS_ERR_SCRIPT,
                    "%s at 0x%x (%zu bytes) runs past the end of the file",
                    op->name, off, len);
        return 0;
    }
    return len;
}

size_t nvbios_disasm(const NVBios *b, uint32_t off, GString *out,
                     GError **errp)
{
    size_t len = nvbios_insn_len(b, off, errp);
    const NVBiosOpcode *op;

    if (!len) {
        return 0;
    }
    op = nvbios_opcode(b->data[off]);
    g_string_append_printf(out, "0x%04x: %-20s", off, op->name);
    switch (op->op) {
    case 0x7a:
        g_string_append_printf(out, " R[0x%06x] = 0x%08x",
                               at(b, off + 1, 4), at(b, off + 5, 4));
        break;
    case 0x77:
        g_string_append_printf(out, " R[0x%06x] = 0x%04x",
                               at(b, off + 1, 4), at(b, off + 5, 2));
        break;
    case 0x6e:
        g_string_append_printf(out, " R[0x%06x] &= 0x%08x |= 0x%08x",
                               at(b, off + 1, 4), at(b, off + 5, 4),
                               at(b, off + 9, 4));
        break;
    case 0x47:
    case 0x48:
        g_string_append_printf(out, " R[0x%06x] %s 0x%08x",
                               at(b, off + 1, 4), op->op == 0x47 ? "&= ~" : "|=",
                               at(b, off + 5, 4));
        break;
    case 0x53:
        g_string_append_printf(out, " CR%02X = 0x%02x", at(b, off + 1, 1),
                               at(b, off + 2, 1));
        break;
    case 0x52:
        g_string_append_printf(out, " CR%02X &= 0x%02x |= 0x%02x",
                               at(b, off + 1, 1), at(b, off + 2, 1),
                               at(b, off + 3, 1));
        break;
    case 0x54:
        for (uint32_t i = 0; i < at(b, off + 1, 1); i++) {
            g_string_append_printf(out, " CR%02X=0x%02x",
                                   at(b, off + 2 + 2 * i, 1),
                                   at(b, off + 3 + 2 * i, 1));
        }
        break;
    case 0x74:
        g_string_append_printf(out, " %u us", at(b, off + 1, 2));
        break;
    case 0x58:
    case 0x91:
        g_string_append_printf(out, " R[0x%06x] x%u", at(b, off + 1, 4),
                               at(b, off + 5, 1));
        break;
    case 0x5b:
        g_string_append_printf(out, " 0x%04x", at(b, off + 1, 2));
        break;
    case 0x62:
    case 0x69:
    case 0x78:
        g_string_append_printf(out, " port 0x%04x", at(b, off + 1, 2));
        break;
    default:
        break;
    }
    g_string_append_c(out, '\n');
    return len;
}
