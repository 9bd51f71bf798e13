/*
 * libctxprog: the 2009 firmware files, as nouveau's nv40_graph.c loaded
 * them with request_firmware (little endian, packed):
 *
 *   nouveau/nvXX.ctxprog: u32 "NVCP", u8 version 0, u16 length,
 *                         u32 instruction[length]          (7 + 4n bytes)
 *   nouveau/nvXX.ctxvals: u32 "NVCV", u8 version 0, u32 length,
 *                         {u32 offset, u32 value}[length]  (9 + 8n bytes)
 *
 * A reader checks the signature, the version and that the length field
 * says what the size does, and names what is wrong.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <string.h>

static uint32_t rd32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(GByteArray *b, uint32_t v)
{
    uint8_t le[4] = { v, v >> 8, v >> 16, v >> 24 };

    g_byte_array_append(b, le, 4);
}

/* signature, version, and a length of @lenbytes bytes: the count */
static bool header(const uint8_t *data, size_t len, uint32_t sig,
                   unsigned lenbytes, size_t unit, const char *what,
                   uint32_t *count, GError **errp)
{
    size_t hdr = 5 + lenbytes;

    if (len < hdr) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_TRUNCATED,
                    "%s: %zu bytes, shorter than its %zu-byte header", what,
                    len, hdr);
        return false;
    }
    if (rd32(data) != sig) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_SIGNATURE,
                    "%s: signature 0x%08x, not 0x%08x", what, rd32(data), sig);
        return false;
    }
    if (data[4] != 0) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_VERSION,
                    "%s: version %u, only 0 is known", what, data[4]);
        return false;
    }
    *count = lenbytes == 2 ? (uint32_t)(data[5] | data[6] << 8) : rd32(data + 5);
    if ((len - hdr) / unit < *count) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_TRUNCATED,
                    "%s: says %u entries of %zu bytes, has room for %zu", what,
                    *count, unit, (len - hdr) / unit);
        return false;
    }
    if (len != hdr + *count * unit) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_LENGTH,
                    "%s: %u entries make %zu bytes, the file has %zu", what,
                    *count, hdr + *count * unit, len);
        return false;
    }
    return true;
}

bool ctxprog_nvcp_read(const uint8_t *data, size_t len, GArray *words,
                       GError **errp)
{
    uint32_t n;

    if (!header(data, len, CTXPROG_NVCP_SIGNATURE, 2, 4, "ctxprog", &n, errp)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = rd32(data + 7 + 4 * i);

        g_array_append_val(words, w);
    }
    return true;
}

GByteArray *ctxprog_nvcp_write(const uint32_t *words, size_t n)
{
    GByteArray *b = g_byte_array_new();
    uint8_t ver_len[3] = { 0, n & 0xff, (n >> 8) & 0xff };

    g_return_val_if_fail(n <= 0xffff, b);
    put32(b, CTXPROG_NVCP_SIGNATURE);
    g_byte_array_append(b, ver_len, 3);
    for (size_t i = 0; i < n; i++) {
        put32(b, words[i]);
    }
    return b;
}

bool ctxprog_nvcv_read(const uint8_t *data, size_t len, GArray *vals,
                       GError **errp)
{
    uint32_t n;

    if (!header(data, len, CTXPROG_NVCV_SIGNATURE, 4, 8, "ctxvals", &n, errp)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        CtxprogVal v = { rd32(data + 9 + 8 * i), rd32(data + 13 + 8 * i) };

        g_array_append_val(vals, v);
    }
    return true;
}

GByteArray *ctxprog_nvcv_write(const CtxprogVal *vals, size_t n)
{
    GByteArray *b = g_byte_array_new();
    uint8_t ver = 0;

    put32(b, CTXPROG_NVCV_SIGNATURE);
    g_byte_array_append(b, &ver, 1);
    put32(b, n);
    for (size_t i = 0; i < n; i++) {
        put32(b, vals[i].offset);
        put32(b, vals[i].value);
    }
    return b;
}
