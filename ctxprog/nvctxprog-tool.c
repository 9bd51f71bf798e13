/*
 * nvctxprog: NV40- and NV50-family context programs.
 *
 *   nvctxprog disasm PROGRAM [--arch nv40|nv50]
 *                                      the listing (asm's input)
 *   nvctxprog asm SOURCE [-o OUT] [--format hex|nvcp|bin] [--arch nv40|nv50]
 *   nvctxprog info FILE [--arch nv40|nv50]
 *                                      what a firmware file holds
 *   nvctxprog vals FILE.ctxvals        the context values, one a line
 *   nvctxprog gen CHIPSET|all [-o DIR] [--format asm|hex]
 *                                      our program and initial values for
 *                                      an NV40-family chipset; with -o the
 *                                      firmware files DIR/nvXX.ctxprog and
 *                                      DIR/nvXX.ctxvals
 *   nvctxprog run PROGRAM [--as switch|save|load]
 *                                      run it on a PGRAPH of its own: a
 *                                      channel switch (the hardware's
 *                                      AUTO_SAVE + AUTO_LOAD), or the
 *                                      driver's USER_SAVE / USER_LOAD
 *
 * A PROGRAM is an NVCP file (nouveau/nvXX.ctxprog), a text file of words
 * (one number a line, ; or # comments) or raw little-endian words.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const usage_text =
    "usage: nvctxprog disasm PROGRAM [--arch nv40|nv50]\n"
    "       nvctxprog asm SOURCE [-o OUT] [--format hex|nvcp|bin] "
    "[--arch nv40|nv50]\n"
    "       nvctxprog info FILE [--arch nv40|nv50]\n"
    "       nvctxprog vals FILE.ctxvals\n"
    "       nvctxprog gen CHIPSET|all [-o DIR] [--format asm|hex]\n"
    "       nvctxprog run PROGRAM [--as switch|save|load]\n"
    "PROGRAM: an NVCP file, a text file of words, or raw little-endian words\n"
    "--arch: the instruction set, NV40's (default) or NV50's (G80 and later)\n"
    "CHIPSET: nv40 nv41 nv42 nv43 nv44 nv46 nv47 nv49 nv4a nv4b nv4c nv4e\n"
    "         nv63 nv67 nv68\n";

static int usage(FILE *f, int rc)
{
    fputs(usage_text, f);
    return rc;
}

static bool is_text(const gchar *data, gsize len)
{
    for (gsize i = 0; i < len; i++) {
        if (!g_ascii_isprint(data[i]) && !g_ascii_isspace(data[i])) {
            return false;
        }
    }
    return true;
}

static bool text_words(const gchar *data, GArray *words, GError **errp)
{
    g_auto(GStrv) lines = g_strsplit(data, "\n", -1);

    for (unsigned i = 0; lines[i]; i++) {
        char *l = lines[i], *end;
        guint64 v;

        l[strcspn(l, ";#")] = 0;
        g_strstrip(l);
        if (!*l) {
            continue;
        }
        v = g_ascii_strtoull(l, &end, 16);
        if (*end || v > UINT32_MAX) {
            g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_SYNTAX,
                        "line %u: not a 32-bit hex word: %s", i + 1, l);
            return false;
        }
        g_array_append_vals(words, &(uint32_t) { v }, 1);
    }
    return true;
}

static bool load_program(const char *path, GArray *words, GError **errp)
{
    g_autofree gchar *data = NULL;
    gsize len;

    if (!g_file_get_contents(path, &data, &len, errp)) {
        return false;
    }
    if (len >= 4 && !memcmp(data, "NVCP", 4)) {
        return ctxprog_nvcp_read((const uint8_t *)data, len, words, errp);
    }
    if (is_text(data, len)) {
        return text_words(data, words, errp);
    }
    if (len % 4) {
        g_set_error(errp, CTXPROG_ERROR, CTXPROG_ERR_LENGTH,
                    "%zu bytes: neither NVCP, text, nor whole words", len);
        return false;
    }
    for (gsize i = 0; i < len; i += 4) {
        const uint8_t *p = (const uint8_t *)data + i;
        uint32_t w = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

        g_array_append_val(words, w);
    }
    return true;
}

static int fail(const char *path, GError *err)
{
    fprintf(stderr, "nvctxprog: %s: %s\n", path, err->message);
    g_error_free(err);
    return 1;
}

static int cmd_disasm(const char *path, CtxprogArch arch)
{
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GString) out = g_string_new(NULL);
    GError *err = NULL;
    unsigned raw;

    if (!load_program(path, words, &err)) {
        return fail(path, err);
    }
    raw = ctxprog_disasm(arch, (uint32_t *)words->data, words->len, out);
    g_string_append_printf(out, "; %u words, %u unknown\n", words->len, raw);
    fputs(out->str, stdout);
    return 0;
}

static int cmd_asm(const char *path, const char *out_path, const char *format,
                   CtxprogArch arch)
{
    unsigned max = arch == CTXPROG_NV50 ? CTXPROG_NV50_MAX : CTXPROG_NV40_MAX;

    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GByteArray) bytes = NULL;
    g_autofree gchar *text = NULL;
    GError *err = NULL;

    if (!g_file_get_contents(path, &text, NULL, &err) ||
        !ctxprog_asm(arch, text, words, &err)) {
        return fail(path, err);
    }
    if (!strcmp(format, "nvcp")) {
        if (words->len > max) {
            fprintf(stderr, "nvctxprog: %s: %u instructions, an %s CTXCTL "
                    "holds %u\n", path, words->len,
                    arch == CTXPROG_NV50 ? "NV50" : "NV40", max);
            return 1;
        }
        bytes = ctxprog_nvcp_write((uint32_t *)words->data, words->len);
    } else if (!strcmp(format, "bin") || !strcmp(format, "hex")) {
        bytes = g_byte_array_new();
        for (unsigned i = 0; i < words->len; i++) {
            uint32_t w = g_array_index(words, uint32_t, i);

            if (format[0] == 'h') {
                g_autofree gchar *line = g_strdup_printf("0x%08x\n", w);
                g_byte_array_append(bytes, (guint8 *)line, strlen(line));
            } else {
                uint8_t le[4] = { w, w >> 8, w >> 16, w >> 24 };
                g_byte_array_append(bytes, le, 4);
            }
        }
    } else {
        fprintf(stderr, "nvctxprog: no format %s (hex, nvcp, bin)\n", format);
        return 2;
    }
    if (!out_path) {
        fwrite(bytes->data, 1, bytes->len, stdout);
        return 0;
    }
    if (!g_file_set_contents(out_path, (gchar *)bytes->data, bytes->len, &err)) {
        return fail(out_path, err);
    }
    return 0;
}

static int cmd_info(const char *path, bool list_vals, CtxprogArch arch)
{
    g_autofree gchar *data = NULL;
    GError *err = NULL;
    gsize len;

    if (!g_file_get_contents(path, &data, &len, &err)) {
        return fail(path, err);
    }
    if (len >= 4 && !memcmp(data, "NVCV", 4)) {
        g_autoptr(GArray) vals = g_array_new(FALSE, FALSE, sizeof(CtxprogVal));
        uint32_t top = 0;

        if (!ctxprog_nvcv_read((const uint8_t *)data, len, vals, &err)) {
            return fail(path, err);
        }
        for (unsigned i = 0; i < vals->len; i++) {
            CtxprogVal *v = &g_array_index(vals, CtxprogVal, i);

            top = MAX(top, v->offset + 1);
            if (list_vals) {
                printf("0x%05x 0x%08x\n", v->offset, v->value);
            }
        }
        if (!list_vals) {
            printf("%s: ctxvals (NVCV v0), %u values, image at least 0x%x "
                   "bytes\n", path, vals->len, top * 4);
        }
        return 0;
    }
    if (list_vals) {
        fprintf(stderr, "nvctxprog: %s: not an NVCV file\n", path);
        return 1;
    }
    if (len >= 4 && !memcmp(data, "NVCP", 4)) {
        g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        g_autoptr(GString) out = g_string_new(NULL);
        unsigned max = arch == CTXPROG_NV50 ? CTXPROG_NV50_MAX :
                       CTXPROG_NV40_MAX;
        unsigned raw;

        if (!ctxprog_nvcp_read((const uint8_t *)data, len, words, &err)) {
            return fail(path, err);
        }
        raw = ctxprog_disasm(arch, (uint32_t *)words->data, words->len, out);
        printf("%s: ctxprog (NVCP v0), %u instructions, %u unknown to %s%s\n",
               path, words->len, raw, arch == CTXPROG_NV50 ? "NV50" : "NV40",
               words->len > max ? ", more than its CTXCTL holds" : "");
        return 0;
    }
    fprintf(stderr, "nvctxprog: %s: neither an NVCP nor an NVCV file\n", path);
    return 1;
}

static bool write_bytes(const char *path, GByteArray *bytes, GError **errp)
{
    bool ok = g_file_set_contents(path, (gchar *)bytes->data, bytes->len, errp);

    g_byte_array_unref(bytes);
    return ok;
}

static int gen_one(const CtxprogChip *chip, const char *dir, const char *format,
                   bool summary)
{
    CtxprogGen gen = { 0 };
    GError *err = NULL;
    int rc = 0;

    if (!ctxprog_nv40_generate(chip, &gen, &err)) {
        return fail(chip->name, err);
    }
    if (dir) {
        g_autofree gchar *base = g_ascii_strdown(chip->name, -1);
        g_autofree gchar *prog = g_strdup_printf("%s/%s.ctxprog", dir, base);
        g_autofree gchar *vals = g_strdup_printf("%s/%s.ctxvals", dir, base);

        if (!write_bytes(prog, ctxprog_nvcp_write((uint32_t *)gen.words->data,
                                                  gen.words->len), &err) ||
            !write_bytes(vals, ctxprog_nvcv_write((CtxprogVal *)gen.vals->data,
                                                  gen.vals->len), &err)) {
            rc = fail(dir, err);
            goto out;
        }
    } else if (!summary && !strcmp(format, "hex")) {
        for (unsigned i = 0; i < gen.words->len; i++) {
            printf("0x%08x\n", g_array_index(gen.words, uint32_t, i));
        }
        goto out;
    } else if (!summary) {
        fputs(gen.source, stdout);
    }
    printf("%s%s: %u instructions, image 0x%x bytes, %u values, %u vertex "
           "units\n", dir || summary ? "" : "; ", chip->name, gen.words->len,
           gen.image_size, gen.vals->len, chip->vs_units);
out:
    ctxprog_gen_clear(&gen);
    return rc;
}

static int cmd_gen(const char *name, const char *dir, const char *format)
{
    size_t n;
    const CtxprogChip *chips = ctxprog_nv40_chips(&n);
    const CtxprogChip *chip = ctxprog_nv40_chip(name);
    int rc = 0;

    if (strcmp(format, "asm") && strcmp(format, "hex")) {
        fprintf(stderr, "nvctxprog: no format %s for gen (asm, hex)\n", format);
        return 2;
    }
    if (dir && g_mkdir_with_parents(dir, 0755) < 0) {
        fprintf(stderr, "nvctxprog: %s: %s\n", dir, g_strerror(errno));
        return 1;
    }
    if (strcmp(name, "all")) {
        if (!chip) {
            fprintf(stderr, "nvctxprog: %s is no NV40-family chipset\n", name);
            return usage(stderr, 2);
        }
        return gen_one(chip, dir, format, false);
    }
    for (size_t i = 0; i < n; i++) {
        rc |= gen_one(&chips[i], dir, format, true);
    }
    return rc;
}

/* ---- run: the interpreter on a PGRAPH and two images of its own ------- */

#define RUN_IMAGE_WORDS (256 * 1024 / 4)    /* more than any NV4x context */

typedef struct Bench {
    uint32_t regs[0x10000 / 4];             /* PGRAPH, 0x400000-0x40ffff */
    uint32_t image[2][RUN_IMAGE_WORDS];     /* at RAMIN 0x100000, 0x200000 */
    bool auto_save, auto_load;
} Bench;

static uint32_t bench_rd(void *opaque, uint32_t reg)
{
    return ((Bench *)opaque)->regs[(reg & 0xffff) / 4];
}

static void bench_wr(void *opaque, uint32_t reg, uint32_t val)
{
    ((Bench *)opaque)->regs[(reg & 0xffff) / 4] = val;
}

static bool bench_flag(void *opaque, unsigned flag)
{
    Bench *b = opaque;

    return flag == CP_FLAG_AUTO_SAVE ? b->auto_save :
           flag == CP_FLAG_AUTO_LOAD ? b->auto_load :
           flag == CP_FLAG_ALWAYS || flag == CP_FLAG_STATE3D;
}

static bool bench_image(void *opaque, uint32_t image, uint32_t index,
                        uint32_t *val, bool write)
{
    uint32_t at = (image & 0xfffff) << 4;
    uint32_t *img;

    if ((at != 0x100000 && at != 0x200000) || index >= RUN_IMAGE_WORDS) {
        return false;
    }
    img = ((Bench *)opaque)->image[at == 0x200000];
    if (write) {
        img[index] = *val;
    } else {
        *val = img[index];
    }
    return true;
}

static int cmd_run(const char *path, const char *as)
{
    static const CtxprogOps ops = {
        .reg_read = bench_rd, .reg_write = bench_wr,
        .hw_flag = bench_flag, .image_rw = bench_image,
    };
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autofree Bench *b = g_new0(Bench, 1);
    GError *err = NULL;
    CtxprogRun run;

    if (!load_program(path, words, &err)) {
        return fail(path, err);
    }
    /* channel A (image 0x100000) resident, B (0x200000) next */
    bench_wr(b, CTXPROG_REG_CUR, 0x01010000);
    bench_wr(b, CTXPROG_REG_NEXT, 0x01020000);
    bench_wr(b, CTXPROG_REG_SWAP, 0x01010000);
    if (!strcmp(as, "switch")) {
        b->auto_save = b->auto_load = true;
    } else if (!strcmp(as, "save")) {
        bench_wr(b, CTXPROG_REG_FLAGS0, 1u << CP_FLAG_USER_SAVE);
    } else if (!strcmp(as, "load")) {
        bench_wr(b, CTXPROG_REG_SWAP, 0x01020000);
        bench_wr(b, CTXPROG_REG_FLAGS0, 1u << CP_FLAG_USER_LOAD);
    } else {
        fprintf(stderr, "nvctxprog: run --as switch, save or load, not %s\n", as);
        return 2;
    }
    ctxprog_run((uint32_t *)words->data, words->len, 0, 100000, &ops, b, &run);
    printf("%s: %s at PC 0x%02x (0x%08x) after %u steps, %u registers "
           "transferred, %u words stepped over", as,
           ctxprog_stop_name(run.stop), run.pc, run.word, run.steps,
           run.transfers, run.skipped);
    if (run.first_skipped >= 0) {
        printf(" (the first at PC 0x%02x: 0x%08x)", run.first_skipped,
               g_array_index(words, uint32_t, run.first_skipped));
    }
    printf("; current 0x%08x\n", bench_rd(b, CTXPROG_REG_CUR));
    return run.stop == CTXPROG_STOP_END ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    const char *file = NULL, *out = NULL, *format = NULL, *as = NULL;
    const char *arch_name = NULL;
    CtxprogArch arch = CTXPROG_NV40;

    if (!cmd) {
        return usage(stderr, 2);
    }
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        return usage(stdout, 0);
    }
    /* options before or after the file */
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            return usage(stdout, 0);
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            format = argv[++i];
        } else if (!strcmp(argv[i], "--as") && i + 1 < argc) {
            as = argv[++i];
        } else if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
            arch_name = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "nvctxprog: unknown option %s\n", argv[i]);
            return usage(stderr, 2);
        } else if (!file) {
            file = argv[i];
        } else {
            return usage(stderr, 2);
        }
    }
    if (!file) {
        return usage(stderr, 2);
    }
    if ((out || format) && strcmp(cmd, "asm") && strcmp(cmd, "gen")) {
        fprintf(stderr, "nvctxprog: -o and --format are asm's and gen's\n");
        return 2;
    }
    if (as && strcmp(cmd, "run")) {
        fprintf(stderr, "nvctxprog: --as is run's\n");
        return 2;
    }
    if (arch_name && strcmp(cmd, "disasm") && strcmp(cmd, "asm") &&
        strcmp(cmd, "info")) {
        fprintf(stderr, "nvctxprog: --arch is disasm's, asm's and info's\n");
        return 2;
    }
    if (arch_name && !ctxprog_arch_parse(arch_name, &arch)) {
        fprintf(stderr, "nvctxprog: no instruction set %s (nv40, nv50)\n",
                arch_name);
        return 2;
    }
    if (!strcmp(cmd, "disasm")) {
        return cmd_disasm(file, arch);
    } else if (!strcmp(cmd, "asm")) {
        return cmd_asm(file, out, format ? format : "hex", arch);
    } else if (!strcmp(cmd, "gen")) {
        return cmd_gen(file, out, format ? format : "asm");
    } else if (!strcmp(cmd, "info")) {
        return cmd_info(file, false, arch);
    } else if (!strcmp(cmd, "vals")) {
        return cmd_info(file, true, arch);
    } else if (!strcmp(cmd, "run")) {
        return cmd_run(file, as ? as : "switch");
    }
    fprintf(stderr, "nvctxprog: no command %s\n", cmd);
    return usage(stderr, 2);
}
