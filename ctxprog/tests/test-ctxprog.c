/*
 * libctxprog unit tests.  Oracles: the encodings nouveau's generator
 * emits (ctxnv40.h CP_* macros), the program nouveau 6.1 uploads on NV43
 * (tests/nv43-nouveau.hex, from a boot's register trace) and the file
 * layout its 2009 loader read.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ctxprog.h"
#include <string.h>

static GArray *words_of(const char *text)
{
    GArray *w = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autoptr(GError) err = NULL;

    g_assert_true(ctxprog_asm(text, w, &err));
    g_assert_no_error(err);
    return w;
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
        ctxprog_decode(cases[i].word, &in);
        ctxprog_format(&in, back);
        g_assert_cmpstr(back->str, ==, cases[i].text);
    }
}

/* every 24-bit word: decoded ones encode back to themselves */
static void test_decode_encode_every_word(void)
{
    unsigned known = 0;

    for (uint32_t w = 0; w < (1u << 24); w++) {
        CtxprogInsn in;
        uint32_t back = ~w;

        if (!ctxprog_decode(w, &in)) {
            g_assert_cmpint(in.op, ==, CP_OP_RAW);
            continue;
        }
        known++;
        g_assert_true(ctxprog_encode(&in, &back));
        if (back != w) {
            g_error("0x%06x decodes to op %d, encodes to 0x%06x", w, in.op, back);
        }
    }
    /* opcodes 1, 2, 3, 9 whole; 4 (1/16), 5, 7 (1/4096), 6 (1/32768) ... */
    g_assert_cmpuint(known, >, 4u << 20);
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
    ctxprog_disasm((uint32_t *)w->data, w->len, text);
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
    raw = ctxprog_disasm((uint32_t *)w->data, w->len, text);
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

        g_assert_false(ctxprog_asm(cases[i].text, w, &err));
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
        g_assert_cmpuint(ctxprog_disasm((uint32_t *)gen.words->data,
                                        gen.words->len, text), ==, 1);
        g_assert_true(ctxprog_asm(text->str, again, NULL));
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
    return g_test_run();
}
