/*
 * libnvbios: the tables BMP and BIT point to besides the DCB: the init
 * table and its script list, DAC load-detection values, TMDS, the flat
 * panel and LVDS tables, RAM restrict, PLL limits and performance levels.
 * As Linux 6.1 reads them: nouveau_bios.c, nvkm/subdev/bios/{init,pll,
 * perf,ramcfg}.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nvbios-int.h"

/* A pointer must land in the image; 0 means "no table". */
static bool pointer_ok(const NVBios *b, const char *what, uint32_t ptr,
                       GError **errp)
{
    if (ptr && ptr >= b->image_size) {
        FAIL(NVBIOS_ERR_POINTER, "%s pointer 0x%04x is outside the image "
             "(0x%zx bytes)", what, ptr, b->image_size);
    }
    return true;
}

static bool parse_init_table(NVBios *b, GError **errp)
{
    static const struct { uint8_t at; const char *name; } ptrs[] = {
        { 0x00, "init script table" }, { 0x02, "macro index table" },
        { 0x04, "macro table" }, { 0x06, "condition table" },
        { 0x08, "io condition table" }, { 0x0a, "io flag condition table" },
        { 0x0c, "init function table" },
    };
    uint16_t *dst[] = {
        &b->script_table, &b->macro_index_table, &b->macro_table,
        &b->condition_table, &b->io_condition_table,
        &b->io_flag_condition_table, &b->function_table,
    };
    uint32_t t = b->init_table, tbl;

    if (!t) {
        return true;
    }
    /* (the init table itself lies in the BMP structure or BIT 'I' data,
     * both already checked) */
    for (size_t i = 0; i < G_N_ELEMENTS(ptrs); i++) {
        *dst[i] = rd16(b, t + ptrs[i].at);
        if (!pointer_ok(b, ptrs[i].name, *dst[i], errp)) {
            g_prefix_error(errp, "init table at 0x%x: ", t);
            return false;
        }
    }

    /* a zero-terminated list of script pointers -- unless a BMP older
     * than 5.10 is present too, whose two direct pointers nouveau's
     * init_script() prefers */
    if (b->bmp_offset && (b->bmp_major << 8 | b->bmp_minor) < 0x0510) {
        return true;
    }
    tbl = b->script_table;
    if (!tbl) {
        nvbios_warn(b, "init table at 0x%x has no script table: nouveau "
                    "runs no init scripts", t);
        return true;
    }
    for (unsigned i = 0; ; i++) {
        uint16_t p;

        if (!in_image(b, tbl + 2 * i, 2)) {
            FAIL(NVBIOS_ERR_POINTER, "init script table at 0x%x runs past "
                 "the image without a 0 terminator", tbl);
        }
        p = rd16(b, tbl + 2 * i);
        if (!p) {
            return nvbios_region(b, "init script table", tbl, 2 * i + 2,
                                 errp);
        }
        if (b->n_scripts >= NVBIOS_MAX_SCRIPTS) {
            FAIL(NVBIOS_ERR_SCRIPT, "init script table at 0x%x: more than "
                 "%d scripts", tbl, NVBIOS_MAX_SCRIPTS);
        }
        if (p >= b->image_size) {
            FAIL(NVBIOS_ERR_POINTER, "init script table at 0x%x: script %u "
                 "pointer 0x%04x is outside the image", tbl, i, p);
        }
        b->scripts[b->n_scripts++] = p;
    }
}

/* BIT 'i' +13: version, header length, then DAC and TV DAC test values. */
static bool parse_daccmp(NVBios *b, GError **errp)
{
    uint32_t o = b->daccmp_offset;
    uint8_t hdr;

    if (!o) {
        return true;
    }
    if (!in_image(b, o, 2)) {
        FAIL(NVBIOS_ERR_POINTER, "DAC load comparison table pointer 0x%04x "
             "(BIT 'i' +13) is outside the image", o);
    }
    b->daccmp_version = rd08(b, o);
    hdr = rd08(b, o + 1);
    if (b->daccmp_version != 0x00 && b->daccmp_version != 0x10) {
        nvbios_warn(b, "DAC load comparison table at 0x%x: version %d.%d, "
                    "nouveau knows 0.0 and 1.0 and ignores it", o,
                    b->daccmp_version >> 4, b->daccmp_version & 0xf);
        return true;
    }
    if (!nvbios_region(b, "DAC load table", o, hdr + 8, errp)) {
        return false;
    }
    b->dactestval = rd32(b, o + hdr);
    b->tvdactestval = rd32(b, o + hdr + 4);
    return true;
}

/* TMDS table (BIT 'T'): 1.1 with two stub scripts and two clock tables. */
static bool parse_tmds(NVBios *b, GError **errp)
{
    const NVBiosBitEntry *t = nvbios_bit(b, 'T');
    uint32_t o;

    if (!t) {
        return true;
    }
    if (t->length != 2) {
        FAIL(NVBIOS_ERR_VERSION, "BIT 'T' at 0x%x is %u bytes, nouveau "
             "understands 2 (\"Do not understand BIT TMDS table\")",
             t->offset, t->length);
    }
    o = rd16(b, t->data);
    if (!o) {
        return true;
    }
    if (!in_image(b, o, 1)) {
        FAIL(NVBIOS_ERR_POINTER, "TMDS table pointer 0x%04x (BIT 'T' at "
             "0x%x) is outside the image", o, t->data);
    }
    b->tmds_offset = o;
    b->tmds_version = rd08(b, o);
    if (b->tmds_version != 0x11) {
        nvbios_warn(b, "TMDS table at 0x%x: version %d.%d, nouveau parses "
                    "only 1.1", o, b->tmds_version >> 4,
                    b->tmds_version & 0xf);
        return true;
    }
    if (!nvbios_region(b, "TMDS table", o, 15, errp)) {
        return false;
    }
    for (int i = 0; i < 2; i++) {
        uint16_t s = rd16(b, o + 7 + 2 * i);
        if (!in_image(b, s, 1) || rd08(b, s) != 0x71) {
            nvbios_warn(b, "TMDS table at 0x%x: script %d (0x%04x) is not a "
                        "stub INIT_DONE (nouveau warns)", o, i, s);
        }
    }
    b->tmds_script[0] = rd16(b, o + 11);
    b->tmds_script[1] = rd16(b, o + 13);
    return true;
}

static bool parse_bit_pointers(NVBios *b, GError **errp)
{
    const NVBiosBitEntry *e;

    if ((e = nvbios_bit(b, 'D'))) {
        if (e->length != 4) {
            FAIL(NVBIOS_ERR_VERSION, "BIT 'D' at 0x%x is %u bytes, nouveau "
                 "understands 4", e->offset, e->length);
        }
        b->fp_table = rd16(b, e->data + 2);
    }
    if ((e = nvbios_bit(b, 'L'))) {
        if (e->length != 2) {
            FAIL(NVBIOS_ERR_VERSION, "BIT 'L' at 0x%x is %u bytes, nouveau "
                 "understands 2", e->offset, e->length);
        }
        b->lvds_manufacturer = rd16(b, e->data);
    }
    if ((e = nvbios_bit(b, 'M')) && e->length >= 5) {
        if (e->version < 2) {
            b->ram_restrict_count = rd08(b, e->data + 2);
            b->ram_restrict_table = rd16(b, e->data + 3);
        } else {
            b->ram_restrict_count = rd08(b, e->data);
            b->ram_restrict_table = rd16(b, e->data + 1);
        }
    }
    return pointer_ok(b, "flat panel table", b->fp_table, errp) &&
           pointer_ok(b, "LVDS manufacturer table", b->lvds_manufacturer,
                      errp) &&
           pointer_ok(b, "RAM restrict table", b->ram_restrict_table, errp) &&
           pointer_ok(b, "TMDS output 0 clock table", b->tmds_script[0],
                      errp) &&
           pointer_ok(b, "TMDS output 1 clock table", b->tmds_script[1],
                      errp);
}

static void pll_v1(NVBios *b, uint32_t o, NVBiosPll *p)
{
    p->offset = o;
    p->vco1_min = rd32(b, o + 0);
    p->vco1_max = rd32(b, o + 4);
    p->vco2_min = rd32(b, o + 8);
    p->vco2_max = rd32(b, o + 12);
    p->vco1_min_in = rd32(b, o + 16);
    p->vco2_min_in = rd32(b, o + 20);
}

static void pll_v2(NVBios *b, uint32_t o, uint8_t len, NVBiosPll *p)
{
    p->offset = o;
    p->reg = rd32(b, o);
    p->vco1_min = rd16(b, o + 4) * 1000;
    p->vco1_max = rd16(b, o + 6) * 1000;
    p->vco2_min = rd16(b, o + 8) * 1000;
    p->vco2_max = rd16(b, o + 10) * 1000;
    p->vco1_min_in = rd16(b, o + 12) * 1000;
    p->vco2_min_in = rd16(b, o + 14) * 1000;
    p->vco1_max_in = rd16(b, o + 16) * 1000;
    p->vco2_max_in = rd16(b, o + 18) * 1000;
    p->vco1_min_n = rd08(b, o + 20);
    p->vco1_max_n = rd08(b, o + 21);
    p->vco1_min_m = rd08(b, o + 22);
    p->vco1_max_m = rd08(b, o + 23);
    p->vco2_min_n = rd08(b, o + 24);
    p->vco2_max_n = rd08(b, o + 25);
    p->vco2_min_m = rd08(b, o + 26);
    p->vco2_max_m = rd08(b, o + 27);
    p->max_p = rd08(b, o + 29);
    p->bias_p = rd08(b, o + 30);
    if (len > 0x22) {
        p->refclk = rd32(b, o + 31);
    }
}

/* PLL limits: BIT 'C' (1: 16-bit pointer at +8, 2: 32-bit at +0), else
 * BMP 5.24+ at +142. */
static bool parse_pll(NVBios *b, GError **errp)
{
    const NVBiosBitEntry *c = nvbios_bit(b, 'C');
    uint32_t o = 0;
    uint8_t hdr = 1, cnt = 1, len = 0x18;
    bool from_bmp = false;

    if (c && c->version == 1 && c->length >= 10) {
        o = rd16(b, c->data + 8);
    } else if (c && c->version == 2 && c->length >= 4) {
        o = rd32(b, c->data);
    } else if (c) {
        nvbios_warn(b, "BIT 'C' at 0x%x: version %u length %u holds no PLL "
                    "limits pointer nouveau reads", c->offset, c->version,
                    c->length);
    }
    if (!o && b->bmp_offset &&
        (b->bmp_major << 8 | b->bmp_minor) >= 0x0524) {
        o = rd16(b, b->bmp_offset + 142);
        from_bmp = true;
    }
    if (!o) {
        return true;
    }
    if (!in_image(b, o, 4)) {
        FAIL(NVBIOS_ERR_POINTER, "PLL limits table pointer 0x%x (%s) is "
             "outside the image", o, from_bmp ? "BMP +142" : "BIT 'C'");
    }
    b->pll_offset = o;
    b->pll_version = rd08(b, o);
    if (!from_bmp) {
        hdr = rd08(b, o + 1);
        len = rd08(b, o + 2);
        cnt = rd08(b, o + 3);
    }
    switch (b->pll_version) {
    case 0x00:
        /* empty table (seen on NV18): nouveau uses the BMP VCO limits */
        return true;
    case 0x10:
    case 0x11:
        /* one record for every PLL, right after the version byte */
        if (!nvbios_region(b, "PLL limits", o, 25, errp)) {
            return false;
        }
        b->n_pll = 1;
        pll_v1(b, o + 1, &b->pll[0]);
        break;
    case 0x20:
    case 0x21:
        if (!nvbios_table(b, "PLL limits table", o, hdr, cnt, len,
                          NVBIOS_MAX_PLL, 31, errp)) {
            return false;
        }
        for (unsigned i = 0; i < cnt; i++) {
            pll_v2(b, o + hdr + i * len, len, &b->pll[b->n_pll]);
            if (b->pll[b->n_pll].reg) {
                b->n_pll++;
            }
        }
        break;
    case 0x30:
    case 0x40:
    case 0x50:
        nvbios_warn(b, "PLL limits table at 0x%x: version %d.%d is an NV50+ "
                    "layout, not decoded", o, b->pll_version >> 4,
                    b->pll_version & 0xf);
        return true;
    default:
        FAIL(NVBIOS_ERR_VERSION, "PLL limits table at 0x%x: unknown version "
             "0x%02x (nouveau: \"unknown pll limits version\")", o,
             b->pll_version);
    }
    for (unsigned i = 0; i < b->n_pll; i++) {
        const NVBiosPll *p = &b->pll[i];
        if (p->vco1_min > p->vco1_max || p->vco2_min > p->vco2_max) {
            FAIL(NVBIOS_ERR_VERSION, "PLL limits at 0x%x: a VCO minimum is "
                 "above its maximum", p->offset);
        }
    }
    return true;
}

const NVBiosPll *nvbios_pll(const NVBios *b, uint32_t reg)
{
    if (!b->n_pll) {
        return NULL;
    }
    for (unsigned i = 0; i < b->n_pll; i++) {
        if (!b->pll[i].reg || b->pll[i].reg == reg) {
            return &b->pll[i];
        }
    }
    return &b->pll[0];      /* nouveau falls back to the first record */
}

/* Performance table: BIT 'P' (version <= 2: 32-bit pointer at +0). */
static bool parse_perf(NVBios *b, GError **errp)
{
    const NVBiosBitEntry *p = nvbios_bit(b, 'P');
    uint32_t o;
    uint8_t ver, hdr, cnt, len, snr, ssz;

    if (!p || p->version > 2 || p->length < 4) {
        return true;
    }
    /* the other P v1/v2 pointers nouveau follows without a length check */
    if (p->length < (p->version == 1 ? 20 : 0x10)) {
        nvbios_warn(b, "BIT 'P' at 0x%x: %u bytes, but nouveau reads "
                    "pointers up to +%u", p->offset, p->length,
                    p->version == 1 ? 20 : 0x10);
    }
    b->timing_table = rd32(b, p->data + (p->version == 1 ? 4 : 8));
    b->therm_table = rd32(b, p->data + (p->version == 1 ? 12 : 16));
    b->volt_table = rd32(b, p->data + (p->version == 1 ? 16 : 12));
    if (!pointer_ok(b, "timing table", b->timing_table, errp) ||
        !pointer_ok(b, "thermal table", b->therm_table, errp) ||
        !pointer_ok(b, "voltage table", b->volt_table, errp)) {
        g_prefix_error(errp, "BIT 'P' at 0x%x: ", p->offset);
        return false;
    }
    o = rd32(b, p->data);
    if (!o) {
        return true;
    }
    if (!in_image(b, o, 6)) {
        FAIL(NVBIOS_ERR_POINTER, "performance table pointer 0x%x (BIT 'P' "
             "at 0x%x) is outside the image", o, p->data);
    }
    ver = rd08(b, o);
    hdr = rd08(b, o + 1);
    if (ver >= 0x40 && ver < 0x41) {
        cnt = rd08(b, o + 5);
        len = rd08(b, o + 2);
        snr = rd08(b, o + 4);
        ssz = rd08(b, o + 3);
    } else if (ver >= 0x20 && ver < 0x40) {
        cnt = rd08(b, o + 2);
        len = rd08(b, o + 3);
        snr = rd08(b, o + 4);
        ssz = rd08(b, o + 5);
    } else {
        nvbios_warn(b, "performance table at 0x%x: version 0x%02x, nouveau "
                    "ignores it", o, ver);
        return true;
    }
    b->perf_offset = o;
    b->perf_version = ver;
    if (!nvbios_table(b, "performance table", o, hdr, cnt, len + snr * ssz,
                      NVBIOS_MAX_PERF, ver < 0x40 ? 0x0d : 0, errp)) {
        return false;
    }
    for (unsigned i = 0; i < cnt; i++) {
        uint32_t e = o + hdr + i * (len + snr * ssz);
        NVBiosPerf *l = &b->perf[b->n_perf++];
        l->offset = e;
        l->pstate = rd08(b, e);
        if (ver >= 0x21 && ver <= 0x24) {
            uint32_t shader = rd16(b, e + 6) * 1000;
            uint8_t chip = b->version[2];
            l->core = shader + (int8_t)rd08(b, e + 8) * 1000;
            l->memory = rd16(b, e + 0x0b) *
                        (chip == 0x49 || chip == 0x4b ? 1000 : 2000);
        }
    }
    return true;
}

/*
 * A pixel-clock comparison table (the TMDS output tables at BMP +89/+91 and
 * BIT 'T' +11/+13, the LVDS reset tables), read as nouveau's clkcmptable
 * reads it up to the first clock of 0 (whose script serves every lower
 * clock): highest clock first, records {clock / 10 kHz, script} of 4 bytes
 * from VBIOS version 5.x on, before it of 3 bytes whose third is the
 * script's index in the init script table.
 */
static bool parse_clock_table(NVBios *b, const char *name, uint32_t o,
                              NVBiosClk *clk, unsigned *count, GError **errp)
{
    unsigned rec = b->version[3] < 5 ? 3 : 4;
    unsigned n = 0;

    *count = 0;
    if (!o) {
        return true;
    }
    for (;; n++) {
        uint32_t at = o + rec * n;
        uint16_t khz10, script;

        if (n == NVBIOS_MAX_TMDS_CLK) {
            FAIL(NVBIOS_ERR_VERSION, "%s at 0x%x: more than %d records "
                 "without a closing 0", name, o, NVBIOS_MAX_TMDS_CLK);
        }
        if (!in_image(b, at, rec)) {
            FAIL(NVBIOS_ERR_POINTER, "%s at 0x%x runs past the image", name,
                 o);
        }
        khz10 = rd16(b, at);
        if (rec == 4) {
            script = rd16(b, at + 2);
        } else if (b->script_table &&
                   in_image(b, b->script_table + 2 * rd08(b, at + 2), 2)) {
            script = rd16(b, b->script_table + 2 * rd08(b, at + 2));
        } else {
            FAIL(NVBIOS_ERR_POINTER, "%s at 0x%x: script index %u is not in "
                 "a script table", name, o, rd08(b, at + 2));
        }
        if (script && !in_image(b, script, 1)) {
            FAIL(NVBIOS_ERR_POINTER, "%s at 0x%x: script 0x%04x is outside "
                 "the image", name, o, script);
        }
        clk[n].min_khz = khz10 * 10;
        clk[n].script = script;
        if (!khz10) {
            break;
        }
    }
    *count = n + 1;
    return nvbios_region(b, name, o, rec * (n + 1), errp);
}

static bool parse_tmds_clocks(NVBios *b, GError **errp)
{
    return parse_clock_table(b, "TMDS output 0 clock table", b->tmds_script[0],
                             b->tmds_clk[0], &b->n_tmds_clk[0], errp) &&
           parse_clock_table(b, "TMDS output 1 clock table", b->tmds_script[1],
                             b->tmds_clk[1], &b->n_tmds_clk[1], errp);
}

/*
 * Flat panel table 2.0 (nouveau's parse_fp_mode_table): {version, header
 * length, record length, records, minimum front porch}, then records of
 * at least 37 bytes, each a mode as nouveau_bios_fp_mode reads it (its
 * offsets less the 7 bytes 1.0 records have in front).  Earlier versions
 * are told, not parsed.
 */
static bool parse_fp_table(NVBios *b, GError **errp)
{
    uint32_t o = b->fp_table;
    uint8_t hdr, len;

    if (!o) {
        return true;
    }
    b->fp_version = rd08(b, o);
    if (b->fp_version != 0x20) {
        return true;
    }
    if (!nvbios_region(b, "flat panel table header", o, 5, errp)) {
        return false;
    }
    hdr = rd08(b, o + 1);
    len = rd08(b, o + 2);
    b->n_fp_modes = rd08(b, o + 3);
    b->fp_min_front_porch = rd08(b, o + 4);
    if (hdr < 5 || len < 37 || b->n_fp_modes > NVBIOS_MAX_FP_MODES) {
        FAIL(NVBIOS_ERR_VERSION, "flat panel table at 0x%x: header %u, "
             "records of %u bytes, %u of them: expected a header of 5 or "
             "more, records of 37 bytes or more, at most %d", o, hdr, len,
             b->n_fp_modes, NVBIOS_MAX_FP_MODES);
    }
    if (!nvbios_region(b, "flat panel table", o + 5, hdr - 5 +
                       len * b->n_fp_modes, errp)) {
        return false;
    }
    for (unsigned i = 0; i < b->n_fp_modes; i++) {
        uint32_t r = o + hdr + len * i;
        NVBiosFpMode *m = &b->fp_mode[i];

        m->clock_khz = rd16(b, r) * 10;
        if (!m->clock_khz) {
            continue;
        }
        m->hdisplay = rd16(b, r + 4) + 1;
        m->hsync_start = rd16(b, r + 10) + 1;
        m->hsync_end = rd16(b, r + 12) + 1;
        m->htotal = rd16(b, r + 14) + 1;
        m->vdisplay = rd16(b, r + 18) + 1;
        m->vsync_start = rd16(b, r + 24) + 1;
        m->vsync_end = rd16(b, r + 26) + 1;
        m->vtotal = rd16(b, r + 28) + 1;
        m->phsync = rd08(b, r + 30) & 0x10;
        m->pvsync = rd08(b, r + 30) & 0x01;
    }
    return true;
}

/*
 * LVDS manufacturer table 3.0 (nouveau's run_lvds_table and
 * nouveau_bios_parse_lvds_table): a header of at least 0x1f bytes
 * {version, header length, record length, records, strapless 24-bit mask,
 * dual-link clock / 10 kHz, panel-on scripts[2], panel-off scripts[2],
 * reset clock tables[8]}, then {conf, fp index} records by FP strap.
 */
static bool parse_lvds_table(NVBios *b, GError **errp)
{
    static const char *const reset_names[8] = {
        "LVDS reset table 0", "LVDS reset table 1", "LVDS reset table 2",
        "LVDS reset table 3", "LVDS reset table 4", "LVDS reset table 5",
        "LVDS reset table 6", "LVDS reset table 7",
    };
    uint32_t o = b->lvds_manufacturer;
    uint8_t hdr, len;

    if (!o) {
        return true;
    }
    b->lvds_version = rd08(b, o);
    if (b->lvds_version != 0x30) {
        return true;
    }
    if (!nvbios_region(b, "LVDS table header", o, 0x1f, errp)) {
        return false;
    }
    hdr = rd08(b, o + 1);
    len = rd08(b, o + 2);
    b->n_lvds_records = rd08(b, o + 3);
    if (hdr < 0x1f || len < 2 || b->n_lvds_records > NVBIOS_LVDS_RECORDS) {
        FAIL(NVBIOS_ERR_VERSION, "LVDS table at 0x%x: header %u, records of "
             "%u bytes, %u of them: nouveau needs a header of 31 or more "
             "(\"LVDS table header not understood\"), records of 2 or more, "
             "at most %d", o, hdr, len, b->n_lvds_records,
             NVBIOS_LVDS_RECORDS);
    }
    if (hdr > 0x1f && !nvbios_region(b, "LVDS table header", o + 0x1f,
                                     hdr - 0x1f, errp)) {
        return false;
    }
    if (!nvbios_region(b, "LVDS table", o + hdr, len * b->n_lvds_records,
                       errp)) {
        return false;
    }
    b->lvds_strapless_24bit = rd08(b, o + 4);
    b->lvds_duallink_khz = rd16(b, o + 5) * 10;
    for (int i = 0; i < 2; i++) {
        b->lvds_panel_on[i] = rd16(b, o + 7 + 2 * i);
        b->lvds_panel_off[i] = rd16(b, o + 11 + 2 * i);
    }
    for (unsigned i = 0; i < b->n_lvds_records; i++) {
        b->lvds_record[i].conf = rd08(b, o + hdr + len * i);
        b->lvds_record[i].fp_index = rd08(b, o + hdr + len * i + 1);
    }
    for (int i = 0; i < 2; i++) {
        if (!pointer_ok(b, "LVDS panel-on script", b->lvds_panel_on[i],
                        errp) ||
            !pointer_ok(b, "LVDS panel-off script", b->lvds_panel_off[i],
                        errp)) {
            return false;
        }
    }
    for (int i = 0; i < 8; i++) {
        b->lvds_reset_table[i] = rd16(b, o + 15 + 2 * i);
        if (!pointer_ok(b, reset_names[i], b->lvds_reset_table[i], errp) ||
            !parse_clock_table(b, reset_names[i], b->lvds_reset_table[i],
                               b->lvds_reset[i], &b->n_lvds_reset[i], errp)) {
            return false;
        }
    }
    return true;
}

bool nvbios_parse_tables(NVBios *b, GError **errp)
{
    return parse_init_table(b, errp) && parse_daccmp(b, errp) &&
           parse_tmds(b, errp) && parse_bit_pointers(b, errp) &&
           parse_tmds_clocks(b, errp) && parse_fp_table(b, errp) &&
           parse_lvds_table(b, errp) && parse_pll(b, errp) &&
           parse_perf(b, errp);
}
