/*
 * libFuzzer target for the libnvbios parser: parse, then walk everything a
 * dump would touch.  Build and run with vbios/fuzz/run-fuzz.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *err = NULL;
    NVBios bios;

    if (nvbios_parse(&bios, data, size, &err)) {
        GString *out = g_string_new(NULL);
        nvbios_dump_text(&bios, out);
        nvbios_dump_json(&bios, out);
        g_string_free(out, true);
    } else {
        g_error_free(err);
    }
    return 0;
}
