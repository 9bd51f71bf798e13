/*
 * libnvbios internals shared by the parser's files: bounds-checked reads,
 * error and warning helpers, table extents.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NVBIOS_INT_H
#define NVBIOS_INT_H

#include "nvbios.h"

#define FAIL(code, ...) \
    do { g_set_error(errp, NVBIOS_ERROR, (code), __VA_ARGS__); \
         return false; } while (0)

/* [off, off + len) lies inside the file. */
static inline bool have(const NVBios *b, uint64_t off, uint64_t len)
{
    return off <= b->size && len <= b->size - off;
}

/* [off, off + len) lies inside the first image, where tables live. */
static inline bool in_image(const NVBios *b, uint64_t off, uint64_t len)
{
    return off <= b->image_size && len <= b->image_size - off &&
           have(b, off, len);
}

static inline uint8_t rd08(const NVBios *b, uint32_t off)
{
    return have(b, off, 1) ? b->data[off] : 0;
}

static inline uint16_t rd16(const NVBios *b, uint32_t off)
{
    return have(b, off, 2) ? b->data[off] | b->data[off + 1] << 8 : 0;
}

static inline uint32_t rd32(const NVBios *b, uint32_t off)
{
    return have(b, off, 4) ?
           (uint32_t)rd16(b, off) | (uint32_t)rd16(b, off + 2) << 16 : 0;
}

/* Record something nouveau would accept but that is probably a mistake. */
void nvbios_warn(NVBios *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * Note that table @name occupies [start, start + len).  Overlapping another
 * table is a warning (nouveau does not check); running outside the image
 * is an error.
 */
bool nvbios_region(NVBios *b, const char *name, uint32_t start, uint32_t len,
                   GError **errp);

/*
 * A table of @cnt entries of @len bytes after a @hdr-byte header: at most
 * @max entries of at least @min_len bytes, inside the image (a region).
 */
bool nvbios_table(NVBios *b, const char *name, uint32_t o, unsigned hdr,
                  unsigned cnt, unsigned len, unsigned max, unsigned min_len,
                  GError **errp);

bool nvbios_parse_dcb(NVBios *b, GError **errp);
bool nvbios_parse_tables(NVBios *b, GError **errp);
bool nvbios_parse_scripts(NVBios *b, GError **errp);

#endif
