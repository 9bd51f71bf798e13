/*
 * libctxprog unit tests.  Oracles: the encodings nouveau's generator
 * emits (ctxnv40.h's emitters over ctxnv40.c's and ctxnv50.c's CP_*
 * constants), the program nouveau 6.1 uploads on NV43
 * (tests/nv43-nouveau.hex, from a boot's register trace), the skeleton of
 * nouveau's NV50 program (nv50_grctx_generate) and the file layout its
 * 2009 loader read.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <string.h>

static GArray *words_of_arch(CtxprogArch arch, const char *text)
{
    GArray *w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GError) err = NULL;

    g_assert_true(ctxprog_asm(arch, text, w, &err));
    g_assert_no_error(err);
    return w;
}

static GArray *words_of(const char *text)
{
    return words_of_arch(CTXPROG_NV40, text);
}

static GArray *fixture(const char *name)
{
    g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, name, NULL);
    g_autofree gchar *text = NULL;
    GArray *w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_auto(GStrv) lines = NULL;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (**l && **l != '#') {
            uint32_t v = g_ascii_strtoull(*l, NULL, 16);
            g_array_append_val(w, v);
        }
    }
    return w;
}

/* what nouveau's emitters produce for these (ctxnv40.h) */
static void test_nouveau_encodings(void)
{
    static const struct {
        const char *text;
        uint32_t word;
    } cases[] = {
        { "cmd end", 0x0060000e },                  /* CP_END */
        { "cmd next_to_swap", 0x00600007 },         /* CP_NEXT_TO_SWAP */
        { "cmd next_to_current", 0x00600009 },
        { "cmd set_context_pointer", 0x0060000a },
        { "xfer main, 0", 0x00800001 },             /* CP_LOAD_MAGIC_UNK01 */
        { "xfer main, 5", 0x00800029 },             /* ..._NV44TCL */
        { "xfer main, 8", 0x00800041 },             /* ..._NV40TCL */
        { "lsr 0x12345", 0x00212345 },              /* CP_LOAD_SR | v */
        /* cp_ctx(0x400b00, 4): CP_CTX | 4 << 14 | (0x400b00 - 0x400000) >> 2 */
        { "ctx 0x400b00, 4", 0x001102c0 },
        { "ctx 0x401000, $sr", 0x00100400 },        /* a long run: count 0 */
        /* cp_bra(AUTO_SAVE, PENDING, 0x11): jump if set, no IF_CLEAR */
        { "bra auto_save, set, 0x11", 0x00401164 },
        { "bra user_save, clear, 0x11", 0x00401185 },
        /* cp_wait(STATUS, IDLE): idle is 0, no WAIT_SET */
        { "wait status, clear", 0x00500060 },
        { "set user_save, clear", 0x00700005 },     /* cp_set(.., NOT_PENDING) */
        { "set swap_direction, set", 0x00700080 },
        { "reset 1, 0x0880", 0x00910880 },
        { "nop", 0x00000000 },
        { ".word 0x01940000", 0x01940000 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GArray) w = words_of(cases[i].text);
        g_autoptr(GString) back = g_string_new(NULL);
        CtxprogInsn in;

        g_assert_cmpuint(w->len, ==, 1);
        g_assert_cmphex(g_array_index(w, uint32_t, 0), ==, cases[i].word);
        ctxprog_decode(CTXPROG_NV40, cases[i].word, &in);
        ctxprog_format(&in, back);
        g_assert_cmpstr(back->str, ==, cases[i].text);
    }
}

/* every 24-bit word: decoded ones encode back to themselves; how many */
static unsigned every_word_round_trips(CtxprogArch arch)
{
    unsigned known = 0;

    for (uint32_t w = 0; w < (1u << 24); w++) {
        CtxprogInsn in;
        uint32_t back = ~w;

        if (!ctxprog_decode(arch, w, &in)) {
            g_assert_cmpint(in.op, ==, CP_OP_RAW);
            continue;
        }
        known++;
        g_assert_true(ctxprog_encode(&in, &back));
        if (back != w) {
            g_error("0x%06x decodes to op %d, encodes to 0x%06x", w, in.op, back);
        }
    }
    return known;
}

static void test_decode_encode_every_word(void)
{
    /* opcodes 1, 2, 3, 9 whole; 4 (1/16), 5, 7 (1/4096), 6 (1/32768) ... */
    g_assert_cmpuint(every_word_round_trips(CTXPROG_NV40), >, 4u << 20);
}

/* a listing of every sampled word assembles to the same words */
static void test_text_round_trip(void)
{
    g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GArray) back = NULL;

    for (uint32_t x = 0; x < (1u << 24); x += 4099) {
        uint32_t v = x | (x % 7 == 0 ? 0x80000000u : 0);

        g_array_append_val(w, v);
    }
    /* branches must land inside: targets are made labels */
    ctxprog_disasm(CTXPROG_NV40, (uint32_t *)w->data, w->len, text);
    back = words_of(text->str);
    g_assert_cmpuint(back->len, ==, w->len);
    g_assert_cmpmem(back->data, back->len * 4, w->data, w->len * 4);
}

static void test_nouveau_nv43_program(void)
{
    g_autoptr(GArray) w = fixture("nv43-nouveau.hex");
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GArray) back = NULL;
    unsigned raw;

    g_assert_cmpuint(w->len, ==, 97);           /* accel.md: NV43 97 words */
    raw = ctxprog_disasm(CTXPROG_NV40, (uint32_t *)w->data, w->len, text);
    g_assert_cmpuint(raw, ==, 1);               /* 0x01940000 */
    g_assert_nonnull(strstr(text->str, "cmd end"));
    g_assert_nonnull(strstr(text->str, ".word 0x01940000"));
    back = words_of(text->str);
    g_assert_cmpmem(back->data, back->len * 4, w->data, w->len * 4);
}

static void test_asm_errors(void)
{
    static const struct {
        const char *text;
        int code;
        const char *says;
    } cases[] = {
        { "bra always, set, nowhere", CTXPROG_ERR_LABEL, "line 1: no such label: nowhere" },
        { "a:\nnop\na:\nnop", CTXPROG_ERR_LABEL, "line 3: label defined twice: a" },
        { "nop\nfrob 1", CTXPROG_ERR_SYNTAX, "line 2: unknown instruction frob" },
        { "ctx 0x400000, 64", CTXPROG_ERR_RANGE, "line 1: out of range: 64" },
        { "ctx 0x400002, 1", CTXPROG_ERR_RANGE, "line 1: operands do not fit ctx" },
        { "lsr 0x100000", CTXPROG_ERR_RANGE, "line 1: out of range: 0x100000" },
        { "wait status", CTXPROG_ERR_SYNTAX, "line 1: wrong number of operands for wait" },
        { "set status, maybe", CTXPROG_ERR_SYNTAX, "line 1: want set or clear, not maybe" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        g_autoptr(GError) err = NULL;

        g_assert_false(ctxprog_asm(CTXPROG_NV40, cases[i].text, w, &err));
        g_assert_error(err, CTXPROG_ERROR, cases[i].code);
        g_assert_cmpstr(err->message, ==, cases[i].says);
    }
}

static void test_firmware_files(void)
{
    static const uint32_t prog[] = { 0x00401164, 0x0060000e };
    static const CtxprogVal vals[] = { { 0, 0x100 }, { 0x2a, 0xdeadbeef } };
    g_autoptr(GByteArray) p = ctxprog_nvcp_write(prog, 2);
    g_autoptr(GByteArray) v = ctxprog_nvcv_write(vals, 2);
    g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GArray) cv = g_array_new(FALSE, FALSE, sizeof(CtxprogVal));
    GError *err = NULL;

    /* the 2009 layout: 7 + 4n and 9 + 8n bytes, "NVCP"/"NVCV" first */
    g_assert_cmpuint(p->len, ==, 7 + 8);
    g_assert_cmpmem(p->data, 7, "NVCP\0\2\0", 7);
    g_assert_cmpuint(v->len, ==, 9 + 16);
    g_assert_cmpmem(v->data, 9, "NVCV\0\2\0\0\0", 9);
    g_assert_true(ctxprog_nvcp_read(p->data, p->len, w, &err));
    g_assert_cmpmem(w->data, 8, prog, 8);
    g_assert_true(ctxprog_nvcv_read(v->data, v->len, cv, &err));
    g_assert_cmpmem(cv->data, 16, vals, 16);

    /* damaged */
    g_array_set_size(w, 0);
    g_assert_false(ctxprog_nvcp_read(p->data, p->len - 1, w, &err));
    g_assert_error(err, CTXPROG_ERROR, CTXPROG_ERR_TRUNCATED);
    g_assert_cmpstr(err->message, ==,
                    "ctxprog: says 2 entries of 4 bytes, has room for 1");
    g_clear_error(&err);
    g_assert_false(ctxprog_nvcp_read(p->data, 5, w, &err));
    g_assert_error(err, CTXPROG_ERROR, CTXPROG_ERR_TRUNCATED);
    g_clear_error(&err);
    g_byte_array_append(p, (guint8 *)"xx", 2);
    g_assert_false(ctxprog_nvcp_read(p->data, p->len, w, &err));
    g_assert_error(err, CTXPROG_ERROR, CTXPROG_ERR_LENGTH);
    g_clear_error(&err);
    g_assert_false(ctxprog_nvcp_read(v->data, v->len, w, &err));
    g_assert_error(err, CTXPROG_ERROR, CTXPROG_ERR_SIGNATURE);
    g_clear_error(&err);
    v->data[4] = 1;
    g_assert_false(ctxprog_nvcv_read(v->data, v->len, cv, &err));
    g_assert_error(err, CTXPROG_ERROR, CTXPROG_ERR_VERSION);
    g_clear_error(&err);
}

/* ---- the interpreter on a fake PGRAPH -------------------------------- */

#define IMAGE_WORDS 0x8000

typedef struct Fake {
    uint32_t regs[0x10000 / 4];
    uint32_t images[2][IMAGE_WORDS];    /* at RAMIN 0x10000, 0x20000 */
    uint8_t hw[0x80];
} Fake;

static uint32_t fake_rd(void *o, uint32_t reg)
{
    return ((Fake *)o)->regs[(reg - 0x400000) / 4];
}

static void fake_wr(void *o, uint32_t reg, uint32_t v)
{
    ((Fake *)o)->regs[(reg - 0x400000) / 4] = v;
}

static bool fake_hw(void *o, unsigned flag)
{
    return ((Fake *)o)->hw[flag];
}

static bool fake_image(void *o, uint32_t image, uint32_t index, uint32_t *v,
                       bool write)
{
    uint32_t at = (image & 0xfffff) << 4;
    Fake *f = o;
    uint32_t *img;

    if ((at != 0x10000 && at != 0x20000) || index >= IMAGE_WORDS) {
        return false;
    }
    img = f->images[at == 0x20000];
    if (write) {
        img[index] = *v;
    } else {
        *v = img[index];
    }
    return true;
}

static const CtxprogOps fake_ops = { fake_rd, fake_wr, fake_hw, fake_image };

/*
 * nouveau's NV43 program on a channel switch (the hardware's AUTO_SAVE and
 * AUTO_LOAD both pending): channel A's registers go to A's image, B's
 * image comes into the registers, and B is the current channel.
 */
static void test_run_nouveau_switch(void)
{
    g_autoptr(GArray) w = fixture("nv43-nouveau.hex");
    g_autofree Fake *f = g_new0(Fake, 1);
    unsigned checked = 0;
    CtxprogRun run;

    for (uint32_t r = 0; r < G_N_ELEMENTS(f->regs); r++) {
        f->regs[r] = 0xa0000000 | r;
    }
    for (uint32_t i = 0; i < IMAGE_WORDS; i++) {
        f->images[1][i] = 0xb0000000 | i;
    }
    fake_wr(f, CTXPROG_REG_FLAGS0, 0);
    fake_wr(f, CTXPROG_REG_CUR, 0x01001000);
    fake_wr(f, CTXPROG_REG_NEXT, 0x01002000);
    fake_wr(f, CTXPROG_REG_SWAP, 0x01001000);
    f->hw[CP_FLAG_AUTO_SAVE] = f->hw[CP_FLAG_AUTO_LOAD] = 1;
    f->hw[CP_FLAG_ALWAYS] = f->hw[CP_FLAG_STATE3D] = 1;

    ctxprog_run((uint32_t *)w->data, w->len, 0, 10000, &fake_ops, f, &run);
    g_assert_cmpint(run.stop, ==, CTXPROG_STOP_END);
    g_assert_cmphex(fake_rd(f, CTXPROG_REG_CUR), ==, 0x01002000);
    g_assert_cmphex(fake_rd(f, CTXPROG_REG_SWAP), ==, 0x01002000);
    /* the same layout both ways: where B's word k went, A's register went
     * to word k of A's image (0x400400: "ctx 0x400400, 10") */
    for (uint32_t reg = 0x400400; reg < 0x400428; reg += 4) {
        uint32_t v = fake_rd(f, reg), k = v & 0xffffff;

        g_assert_cmphex(v >> 24, ==, 0xb0);
        g_assert_cmphex(f->images[0][k], ==, 0xa0000000 | (reg - 0x400000) / 4);
        checked++;
    }
    g_assert_cmpuint(checked, ==, 10);
    /* the unknown words: the two per-unit xfers in the save and again in
     * the load, the two resets and 0x01940000 once before the load */
    g_assert_cmpuint(run.skipped, ==, 7);
    g_assert_cmpuint(run.transfers % 2, ==, 0);
    g_assert_cmpuint(run.transfers / 2, >, 400);
}

static void test_run_bounded(void)
{
    g_autofree Fake *f = g_new0(Fake, 1);
    g_autoptr(GArray) loop = words_of("a: bra always, set, a");
    g_autoptr(GArray) stuck = words_of("wait user_save, set\ncmd end");
    g_autoptr(GArray) off = words_of("lsr 0x7fff\ncmd set_context_pointer\n"
                                     "set swap_direction, set\n"
                                     "ctx 0x400400, 2\ncmd end");
    g_autoptr(GArray) past = words_of("nop");
    CtxprogRun run;

    f->hw[CP_FLAG_ALWAYS] = 1;
    fake_wr(f, CTXPROG_REG_SWAP, 0x1000);
    ctxprog_run((uint32_t *)loop->data, loop->len, 0, 500, &fake_ops, f, &run);
    g_assert_cmpint(run.stop, ==, CTXPROG_STOP_STEPS);
    g_assert_cmpuint(run.steps, ==, 500);
    ctxprog_run((uint32_t *)stuck->data, stuck->len, 0, 500, &fake_ops, f, &run);
    g_assert_cmpint(run.stop, ==, CTXPROG_STOP_STUCK);
    g_assert_cmpuint(run.pc, ==, 0);
    ctxprog_run((uint32_t *)off->data, off->len, 0, 500, &fake_ops, f, &run);
    g_assert_cmpint(run.stop, ==, CTXPROG_STOP_FAULT);
    g_assert_cmpuint(run.transfers, ==, 1);     /* word 0x7fff fits, 0x8000 not */
    ctxprog_run((uint32_t *)past->data, past->len, 0, 500, &fake_ops, f, &run);
    g_assert_cmpint(run.stop, ==, CTXPROG_STOP_PC);
}

/* ---- the generator ----------------------------------------------------- */

/* ours for NV43 is, word for word, what nouveau 6.1 uploads on an NV43 */
static void test_gen_nv43_is_nouveaus(void)
{
    g_autoptr(GArray) w = fixture("nv43-nouveau.hex");
    CtxprogGen gen = { 0 };

    g_assert_true(ctxprog_nv40_generate(ctxprog_nv40_chip("nv43"), &gen, NULL));
    g_assert_cmpuint(gen.words->len, ==, w->len);
    for (unsigned i = 0; i < w->len; i++) {
        g_assert_cmphex(g_array_index(gen.words, uint32_t, i), ==,
                        g_array_index(w, uint32_t, i));
    }
    ctxprog_gen_clear(&gen);
}

static uint32_t val_at(const CtxprogGen *gen, uint32_t offset)
{
    for (unsigned i = 0; i < gen->vals->len; i++) {
        CtxprogVal *v = &g_array_index(gen->vals, CtxprogVal, i);

        if (v->offset == offset) {
            return v->value;
        }
    }
    return 0;
}

/*
 * Every chipset's program fits CTXCTL, lists and re-assembles to itself,
 * and, run by the interpreter, loads its own initial image into the
 * registers the values were meant for and saves them back to the same
 * words: program and values agree on the layout.
 */
static void test_gen_every_chipset(void)
{
    size_t n;
    const CtxprogChip *chips = ctxprog_nv40_chips(&n);

    g_assert_cmpuint(n, ==, 15);
    g_assert_true(ctxprog_nv40_chip("NV4E") == ctxprog_nv40_chip("0x4e"));
    g_assert_null(ctxprog_nv40_chip("nv45"));
    g_assert_null(ctxprog_nv40_chip("nv4x"));
    for (size_t c = 0; c < n; c++) {
        g_autofree Fake *f = g_new0(Fake, 1);
        g_autoptr(GString) text = g_string_new(NULL);
        g_autoptr(GArray) again = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        CtxprogGen gen = { 0 };
        CtxprogRun run;
        unsigned below = 0;

        g_test_message("%s", chips[c].name);
        g_assert_true(ctxprog_nv40_generate(&chips[c], &gen, NULL));
        g_assert_cmpuint(gen.words->len, <=, CTXPROG_NV40_MAX);
        g_assert_cmpuint(ctxprog_disasm(CTXPROG_NV40,
                                        (uint32_t *)gen.words->data,
                                        gen.words->len, text), ==, 1);
        g_assert_true(ctxprog_asm(CTXPROG_NV40, text->str, again, NULL));
        g_assert_cmpmem(again->data, again->len * 4, gen.words->data,
                        gen.words->len * 4);

        /* a user load of the initial image into the registers */
        for (unsigned i = 0; i < gen.vals->len; i++) {
            CtxprogVal *v = &g_array_index(gen.vals, CtxprogVal, i);

            g_assert_cmpuint(v->offset, <, gen.image_size / 4);
            if (v->offset < IMAGE_WORDS) {
                f->images[0][v->offset] = v->value;
                below++;
            }
        }
        g_assert_cmpuint(below, >, 100);
        f->hw[CP_FLAG_ALWAYS] = f->hw[CP_FLAG_STATE3D] = 1;
        fake_wr(f, CTXPROG_REG_SWAP, 0x1000);
        fake_wr(f, CTXPROG_REG_FLAGS0, 1 << CP_FLAG_USER_LOAD);
        ctxprog_run((uint32_t *)gen.words->data, gen.words->len, 0, 10000,
                    &fake_ops, f, &run);
        g_assert_cmpint(run.stop, ==, CTXPROG_STOP_END);
        g_assert_cmphex(fake_rd(f, 0x4000a4), ==, 8);
        g_assert_cmphex(fake_rd(f, 0x400b0c), ==, 0x0b0b0b0c);
        g_assert_cmphex(fake_rd(f, 0x401c40), ==, 0x00018488);
        g_assert_cmphex(fake_rd(f, 0x403420), ==, 0x5555);
        g_assert_cmphex(fake_rd(f, 0x403420 + 4 * (chips[c].vs_units - 1)),
                        ==, 0x5555);

        /* a user save of those registers: the same words come back */
        memset(f->images[1], 0, sizeof(f->images[1]));
        fake_wr(f, CTXPROG_REG_SWAP, 0x2000);
        fake_wr(f, CTXPROG_REG_FLAGS0, 1 << CP_FLAG_USER_SAVE);
        ctxprog_run((uint32_t *)gen.words->data, gen.words->len, 0, 10000,
                    &fake_ops, f, &run);
        g_assert_cmpint(run.stop, ==, CTXPROG_STOP_END);
        for (uint32_t k = 8; k < run.transfers + 8; k++) {
            g_assert_cmphex(f->images[1][k], ==, val_at(&gen, k));
        }
        ctxprog_gen_clear(&gen);
    }
}

/* ---- NV50 ---------------------------------------------------------- */

/* nouveau's emitters (ctxnv40.h) over ctxnv50.c's constants */
#define N50_CTX(reg, n)     (0x00100000 | (n) << 16 | ((reg) - 0x400000) >> 2)
#define N50_BRA(mod, flag, set, ip) \
    (0x00400000 | (mod) << 18 | (ip) << 8 | (flag) | ((set) ? 0 : 0x80))
#define N50_WAIT(flag, set) (0x00500000 | (flag) | ((set) ? 0x80 : 0))
#define N50_SET(flag, set)  (0x00700000 | (flag) | ((set) ? 0x80 : 0))
#define N50_LSR(v)          (0x00200000 | (v))

static void test_nv50_nouveau_encodings(void)
{
    static const struct {
        const char *text;
        uint32_t word;
    } cases[] = {
        { "cmd newctx", 0x00600004 },               /* CP_NEWCTX */
        { "cmd next_to_swap", 0x00600005 },
        { "cmd set_context_pointer", 0x00600006 },
        { "cmd set_xfer_pointer", 0x00600007 },
        { "cmd enable", 0x00600009 },
        { "cmd end", 0x0060000c },
        { "cmd next_to_current", 0x0060000d },
        { "reset 0, 0xffff", 0x0090ffff },          /* CP_DISABLE1 */
        { "reset 1, 0xffff", 0x0091ffff },          /* CP_DISABLE2 */
        { "xfer 1, 0xff", 0x008000ff },             /* CP_XFER_1 */
        { "xfer 2, 0xff", 0x008800ff },             /* CP_XFER_2 */
        { "seek 1, 0xff, 0x000", 0x00c000ff },      /* CP_SEEK_1 */
        { "seek 2, 0xff, 0x000", 0x00c800ff },      /* CP_SEEK_2 */
        /* cp_ctx(0x400828, 1): the count from bit 16 */
        { "ctx 0x400828, 1", N50_CTX(0x400828, 1) },
        /* cp_ctx(0x400834, 0x32): more than 0xf goes through $sr */
        { "ctx 0x400834, $sr", N50_CTX(0x400834, 0) },
        /* a TP's registers (base 0x408000 + (8 << 12) + 0x300): bit 14 */
        { "ctx 0x410300, 4", N50_CTX(0x410300, 4) },
        { "lsr 0x00032", N50_LSR(0x32) },
        /* cp_bra, cp_cal, cp_ret: mod 0, 1, 2 in 19:18, a 9-bit target */
        { "bra auto_save, set, 0x123", N50_BRA(0, 0x44, 1, 0x123) },
        { "bra user_load, set, 0x1ff", N50_BRA(0, 0x06, 1, 0x1ff) },
        { "bra swap_direction, clear, 0x10", N50_BRA(0, 0x00, 0, 0x10) },
        { "call always, set, 0x1a", N50_BRA(1, 0x4d, 1, 0x1a) },
        { "ret always, set", N50_BRA(2, 0x4d, 1, 0) },
        { "wait newctx, clear", N50_WAIT(0x4a, 0) },    /* NEWCTX BUSY */
        { "wait xfer, clear", N50_WAIT(0x4b, 0) },      /* XFER IDLE */
        { "wait intr, set", N50_WAIT(0x4f, 1) },        /* INTR PENDING */
        { "wait status, clear", N50_WAIT(0x40, 0) },    /* STATUS BUSY */
        { "set state, set", N50_SET(0x1c, 1) },         /* STATE RUNNING */
        { "set xfer_switch, clear", N50_SET(0x0e, 0) },
        { "set 0x1d, set", N50_SET(0x1d, 1) },          /* UNK1D */
        /* envytools' ldsr: a PGRAPH register into the scratch flags */
        { "ldsr 0x400b00", 0x00a002c0 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GArray) w = words_of_arch(CTXPROG_NV50, cases[i].text);
        g_autoptr(GString) back = g_string_new(NULL);
        CtxprogInsn in;

        g_test_message("%s", cases[i].text);
        g_assert_cmpuint(w->len, ==, 1);
        g_assert_cmphex(g_array_index(w, uint32_t, 0), ==, cases[i].word);
        g_assert_true(ctxprog_decode(CTXPROG_NV50, cases[i].word, &in));
        ctxprog_format(&in, back);
        g_assert_cmpstr(back->str, ==, cases[i].text);
    }
}

/* The same words mean other things to the two sets */
static void test_nv50_differs_from_nv40(void)
{
    static const struct {
        uint32_t word;
        const char *nv40, *nv50;
    } cases[] = {
        { 0x0060000c, "cmd clear_reset", "cmd end" },
        { 0x0060000e, "cmd end", "cmd 0x0e" },
        { 0x001440c0, "ctx 0x400300, 17", "ctx 0x410300, 4" },
        { 0x00412344, ".word 0x00412344", "bra auto_save, set, 0x123" },
        { 0x0044004d, ".word 0x0044004d", "call always, set, 0x00" },
        { 0x008800ff, ".word 0x008800ff", "xfer 2, 0xff" },
        { 0x008003f9, "xfer main, 127", ".word 0x008003f9" },
        { 0x00a002c0, ".word 0x00a002c0", "ldsr 0x400b00" },
        { 0x00500060, "wait status, clear", "wait 0x60, clear" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *want[] = { cases[i].nv40, cases[i].nv50 };

        for (CtxprogArch a = CTXPROG_NV40; a <= CTXPROG_NV50; a++) {
            g_autoptr(GString) text = g_string_new(NULL);
            CtxprogInsn in;

            ctxprog_decode(a, cases[i].word, &in);
            ctxprog_format(&in, text);
            g_assert_cmpstr(text->str, ==, want[a]);
        }
    }
}

static void test_nv50_decode_encode_every_word(void)
{
    /* opcodes 1, 2, 3, 9, 0xc whole; 0xa 1/16; 4 (3/8 of 1/2) ... */
    g_assert_cmpuint(every_word_round_trips(CTXPROG_NV50), >, 5u << 20);
}

/*
 * nouveau's NV50 program skeleton (nv50_grctx_generate) without its
 * register and strand lists, emitted with nouveau's formulas: no word is
 * unknown, its listing names the flags and commands as nouveau does, and
 * the listing assembles back to the same words (forward labels included).
 */
enum { L_CHECK_LOAD, L_AUTO_LOAD, L_LOAD, L_SAVE, L_SWAP, L_PREPARE, L_EXIT };

static void test_nv50_nouveau_skeleton(void)
{
    /* where the labels land, counted from the emission below */
    static const unsigned at[] = {
        [L_CHECK_LOAD] = 4, [L_AUTO_LOAD] = 7, [L_LOAD] = 12, [L_SAVE] = 18,
        [L_SWAP] = 24, [L_PREPARE] = 39, [L_EXIT] = 44,
    };
    const uint32_t prog[] = {
        N50_SET(0x1c, 1), N50_SET(0x0e, 1),                 /* 0 */
        N50_BRA(0, 0x44, 1, at[L_SAVE]), N50_BRA(0, 0x05, 1, at[L_SAVE]),
        /* cp_check_load: 4 */
        N50_BRA(0, 0x45, 1, at[L_AUTO_LOAD]), N50_BRA(0, 0x06, 1, at[L_LOAD]),
        N50_BRA(0, 0x4d, 1, at[L_PREPARE]),
        /* cp_setup_auto_load: 7 */
        0x0090ffff, 0x0091ffff, 0x00600009, 0x00600005, N50_SET(0x01, 1),
        /* cp_setup_load: 12 */
        0x00600004, N50_WAIT(0x4a, 0), N50_SET(0x1d, 0), N50_SET(0x00, 0),
        N50_BRA(0, 0x0b, 1, at[L_PREPARE]), N50_BRA(0, 0x4d, 1, at[L_SWAP]),
        /* cp_setup_save: 18 */
        N50_SET(0x1d, 1), N50_WAIT(0x40, 0), N50_WAIT(0x4f, 1),
        N50_BRA(0, 0x40, 0, at[L_SAVE]), N50_SET(0x01, 1), N50_SET(0x00, 1),
        /* cp_swap_state: 24 */
        N50_SET(0x03, 1), N50_LSR(0x00004 / 4), 0x00600006,
        N50_CTX(0x400828, 1), N50_LSR(0x00100 / 4), 0x00600006,
        /* (the MMIO list, xfer1, xfer2) */
        N50_BRA(0, 0x00, 1, at[L_CHECK_LOAD]),              /* 30 */
        /* cp_lsr(ctxvals_base: where the MMIO list left the image) */
        N50_SET(0x20, 1), N50_SET(0x00, 1), N50_LSR(0x100), 0x00600007,
        N50_LSR(4), 0x00c000ff, 0x008000ff, N50_WAIT(0x4b, 0),
        /* cp_prepare_exit: 39 */
        N50_SET(0x01, 0), N50_SET(0x03, 0), N50_SET(0x1d, 0),
        N50_BRA(0, 0x05, 1, at[L_EXIT]), 0x0060000d,
        /* cp_exit: 44 */
        N50_SET(0x05, 0), N50_SET(0x06, 0), N50_SET(0x0e, 0), N50_SET(0x1c, 0),
        0x0060000c,
    };
    static const char *const lines[] = {
        "L12:\n\tset 0x1d, set",
        "\tbra auto_save, set, L12",
        "L04:\n\tbra auto_load, set, L07",
        "\tcmd newctx",
        "\twait newctx, clear",
        "\tbra status, clear, L12",
        "\tcmd set_xfer_pointer",
        "\tseek 1, 0xff, 0x000",
        "\txfer 1, 0xff",
        "\tbra user_save, set, L2c",
        "L2c:\n\tset user_save, clear",
        "\tcmd end",
    };
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GArray) back = NULL;

    g_assert_cmpuint(ctxprog_disasm(CTXPROG_NV50, prog, G_N_ELEMENTS(prog),
                                    text), ==, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        if (!strstr(text->str, lines[i])) {
            g_error("no \"%s\" in\n%s", lines[i], text->str);
        }
    }
    back = words_of_arch(CTXPROG_NV50, text->str);
    g_assert_cmpmem(back->data, back->len * 4, prog, sizeof(prog));
}

static void test_nv50_asm_errors(void)
{
    static const struct {
        CtxprogArch arch;
        const char *text;
        int code;
        const char *says;
    } cases[] = {
        { CTXPROG_NV40, "call always, set, 0", CTXPROG_ERR_SYNTAX,
          "line 1: an NV50 instruction: call" },
        { CTXPROG_NV40, "ldsr 0x400b00", CTXPROG_ERR_SYNTAX,
          "line 1: an NV50 instruction: ldsr" },
        { CTXPROG_NV50, "ctx 0x400000, 16", CTXPROG_ERR_RANGE,
          "line 1: out of range: 16" },
        { CTXPROG_NV50, "bra always, set, 0x200", CTXPROG_ERR_RANGE,
          "line 1: out of range: 0x200" },
        { CTXPROG_NV50, "xfer 0, 0xff", CTXPROG_ERR_RANGE,
          "line 1: xfer areas are 1 and 2, not 0" },
        { CTXPROG_NV50, "xfer main, 0", CTXPROG_ERR_SYNTAX,
          "line 1: not a number: main" },
        { CTXPROG_NV50, "seek 1, 0xff, 0x800", CTXPROG_ERR_RANGE,
          "line 1: out of range: 0x800" },
        { CTXPROG_NV50, "ret always, set, 0", CTXPROG_ERR_SYNTAX,
          "line 1: wrong number of operands for ret" },
        { CTXPROG_NV50, "wait state3d, set", CTXPROG_ERR_SYNTAX,
          "line 1: not a number: state3d" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        g_autoptr(GError) err = NULL;

        g_assert_false(ctxprog_asm(cases[i].arch, cases[i].text, w, &err));
        g_assert_error(err, CTXPROG_ERROR, cases[i].code);
        g_assert_cmpstr(err->message, ==, cases[i].says);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ctxprog/nouveau-encodings", test_nouveau_encodings);
    g_test_add_func("/ctxprog/decode-encode-every-word",
                    test_decode_encode_every_word);
    g_test_add_func("/ctxprog/text-round-trip", test_text_round_trip);
    g_test_add_func("/ctxprog/nouveau-nv43-program", test_nouveau_nv43_program);
    g_test_add_func("/ctxprog/asm-errors", test_asm_errors);
    g_test_add_func("/ctxprog/firmware-files", test_firmware_files);
    g_test_add_func("/ctxprog/run-nouveau-switch", test_run_nouveau_switch);
    g_test_add_func("/ctxprog/run-bounded", test_run_bounded);
    g_test_add_func("/ctxprog/gen-nv43-is-nouveaus", test_gen_nv43_is_nouveaus);
    g_test_add_func("/ctxprog/gen-every-chipset", test_gen_every_chipset);
    g_test_add_func("/ctxprog/nv50-nouveau-encodings",
                    test_nv50_nouveau_encodings);
    g_test_add_func("/ctxprog/nv50-differs-from-nv40",
                    test_nv50_differs_from_nv40);
    g_test_add_func("/ctxprog/nv50-decode-encode-every-word",
                    test_nv50_decode_encode_every_word);
    g_test_add_func("/ctxprog/nv50-nouveau-skeleton", test_nv50_nouveau_skeleton);
    g_test_add_func("/ctxprog/nv50-asm-errors", test_nv50_asm_errors);
    return g_test_run();
}
