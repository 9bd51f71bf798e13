/*
 * nvbios: dump, check and build VBIOS images.
 *
 *   nvbios dump FILE [--json]
 *   nvbios check FILE
 *   nvbios build BOARD.ini -o FILE.rom
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: nvbios dump FILE [--json]\n"
                    "       nvbios check FILE\n"
                    "       nvbios build BOARD.ini -o FILE.rom\n");
    return 2;
}

static int load(const char *path, NVBios *bios, gchar **data)
{
    GError *err = NULL;
    gsize len;

    if (!g_file_get_contents(path, data, &len, &err) ||
        !nvbios_parse(bios, (const uint8_t *)*data, len, &err)) {
        fprintf(stderr, "nvbios: %s: %s\n", path, err->message);
        g_error_free(err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    g_autofree gchar *data = NULL;
    NVBios bios;

    if (argc < 3) {
        return usage();
    }
    if (!strcmp(argv[1], "dump") || !strcmp(argv[1], "check")) {
        g_autoptr(GString) out = g_string_new(NULL);
        bool json = argc > 3 && !strcmp(argv[3], "--json");
        if (load(argv[2], &bios, &data)) {
            return 1;
        }
        if (!strcmp(argv[1], "check")) {
            for (unsigned i = 0; i < bios.n_warnings; i++) {
                fprintf(stderr, "nvbios: %s: warning: %s\n", argv[2],
                        bios.warnings[i]);
            }
            printf("%s: ok%s\n", argv[2],
                   bios.n_warnings ? " (with warnings)" : "");
            return 0;
        }
        if (json) {
            nvbios_dump_json(&bios, out);
        } else {
            nvbios_dump_text(&bios, out);
        }
        fputs(out->str, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "build")) {
        GError *err = NULL;
        GByteArray *rom;
        if (argc != 5 || strcmp(argv[3], "-o")) {
            return usage();
        }
        rom = nvbios_build_file(argv[2], &err);
        if (!rom || !nvbios_parse(&bios, rom->data, rom->len, &err) ||
            !g_file_set_contents(argv[4], (const char *)rom->data, rom->len,
                                 &err)) {
            fprintf(stderr, "nvbios: %s\n", err->message);
            g_error_free(err);
            return 1;
        }
        g_byte_array_unref(rom);
        return 0;
    }
    return usage();
}
