/*
 * nvbios: dump, check and build VBIOS images.
 *
 *   nvbios dump [--json] FILE
 *   nvbios check FILE
 *   nvbios build [-o FILE.rom] BOARD.ini
 *
 * Options may come before or after the file (GOption, one context per
 * subcommand); every subcommand takes --help.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios.h"
#include <stdio.h>
#include <string.h>

static const char summary[] =
    "Subcommands:\n"
    "  dump [--json] FILE          the image's structures and tables\n"
    "  check FILE                  parse it; warnings on stderr\n"
    "  build -o FILE.rom BOARD.ini an image from a board description\n"
    "\n"
    "'nvbios SUBCOMMAND --help' for a subcommand's options.";

static int usage(void)
{
    fprintf(stderr, "usage: nvbios SUBCOMMAND [OPTION...] FILE\n\n%s\n",
            summary);
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

/*
 * Parse a subcommand's options out of argv (wherever they are); true with
 * exactly one argument left, the file, in *file.
 */
static bool parse_args(const char *cmd, const char *param, const char *help,
                       const GOptionEntry *entries, int *argc, char ***argv,
                       const char **file, int *rc)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new(param);
    g_autofree gchar *prog = g_strdup_printf("nvbios %s", cmd);
    GError *err = NULL;

    g_set_prgname(prog);
    g_option_context_set_summary(ctx, help);
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, argc, argv, &err)) {
        fprintf(stderr, "nvbios %s: %s\n", cmd, err->message);
        g_error_free(err);
        *rc = 2;
        return false;
    }
    if (*argc != 2) {
        g_autofree gchar *text = g_option_context_get_help(ctx, TRUE, NULL);
        fprintf(stderr, "nvbios %s: expected one %s\n\n%s", cmd, param, text);
        *rc = 2;
        return false;
    }
    *file = (*argv)[1];
    return true;
}

static int cmd_dump(int argc, char **argv, bool check)
{
    g_autofree gchar *data = NULL;
    g_autoptr(GString) out = g_string_new(NULL);
    gboolean json = FALSE;
    const GOptionEntry entries[] = {
        { "json", 'j', 0, G_OPTION_ARG_NONE, &json,
          "JSON (the fields of vbios/SCHEMA.md) instead of text", NULL },
        { NULL }
    };
    const char *file;
    NVBios bios;
    int rc;

    if (!parse_args(check ? "check" : "dump", "FILE",
                    check ? "Parse a VBIOS image: 'ok', or why it is invalid; "
                            "warnings on stderr." :
                            "Show a VBIOS image's structures and tables.",
                    check ? entries + 1 : entries, &argc, &argv, &file, &rc)) {
        return rc;
    }
    if (load(file, &bios, &data)) {
        return 1;
    }
    if (check) {
        for (unsigned i = 0; i < bios.n_warnings; i++) {
            fprintf(stderr, "nvbios: %s: warning: %s\n", file,
                    bios.warnings[i]);
        }
        printf("%s: ok%s\n", file, bios.n_warnings ? " (with warnings)" : "");
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

static int cmd_build(int argc, char **argv)
{
    g_autofree gchar *output = NULL;
    const GOptionEntry entries[] = {
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "where the image goes (required)", "FILE.rom" },
        { NULL }
    };
    const char *file;
    GError *err = NULL;
    GByteArray *rom;
    NVBios bios;
    int rc;

    if (!parse_args("build", "BOARD.ini",
                    "Build a VBIOS image from a board description "
                    "(vbios/boards/README.md).", entries, &argc, &argv, &file,
                    &rc)) {
        return rc;
    }
    if (!output) {
        fprintf(stderr, "nvbios build: -o FILE.rom is required\n");
        return 2;
    }
    rom = nvbios_build_file(file, &err);
    if (!rom || !nvbios_parse(&bios, rom->data, rom->len, &err) ||
        !g_file_set_contents(output, (const char *)rom->data, rom->len,
                             &err)) {
        fprintf(stderr, "nvbios: %s\n", err->message);
        g_error_free(err);
        if (rom) {
            g_byte_array_unref(rom);
        }
        return 1;
    }
    g_byte_array_unref(rom);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        return usage();
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        printf("usage: nvbios SUBCOMMAND [OPTION...] FILE\n\n%s\n", summary);
        return 0;
    }
    /* the subcommand's own argv: its name in place of the program's */
    if (!strcmp(argv[1], "dump") || !strcmp(argv[1], "check")) {
        return cmd_dump(argc - 1, argv + 1, !strcmp(argv[1], "check"));
    }
    if (!strcmp(argv[1], "build")) {
        return cmd_build(argc - 1, argv + 1);
    }
    fprintf(stderr, "nvbios: unknown subcommand '%s'\n", argv[1]);
    return usage();
}
