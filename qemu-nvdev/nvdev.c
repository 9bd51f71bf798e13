/*
 * nvdev: a virtual NVIDIA GPU of the NV04..NV4x generation.
 *
 * The PCI device: realize from a VBIOS image, the BAR0 unit table, the
 * register trace, interrupt aggregation and migration state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sysemu/sysemu.h"
#include "ui/console.h"
#include "nvdev.h"
#include "trace.h"

/*
 * The BAR0 map.  Units absent on a chipset (needs_caps) are not mapped;
 * their range falls through to the "unassigned" region like any hole.
 */
static const NVUnit *const nv_units[] = {
    &nv_unit_pmc,
    &nv_unit_pbus,
    &nv_unit_pci40,
    &nv_unit_ptimer,
    &nv_unit_prmvio[0],
    &nv_unit_prmvio[1],
    &nv_unit_pfb,
    &nv_unit_pextdev,
    &nv_unit_prom,
    &nv_unit_pcrtc[0],
    &nv_unit_pcrtc[1],
    &nv_unit_prmcio[0],
    &nv_unit_prmcio[1],
    &nv_unit_pramdac[0],
    &nv_unit_pramdac[1],
    &nv_unit_prmdio[0],
    &nv_unit_prmdio[1],
    &nv_unit_pramin,
    &nv_unit_pfifo,
    &nv_unit_pfifo_cache40,
    &nv_unit_user,
    &nv_unit_user40,
    &nv_unit_pgraph,
};

/* ---- register trace ---------------------------------------------------- */

/* The hot path of tracing: format a record without printf. */
static char *put_dec(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;

    do {
        tmp[n++] = '0' + v % 10;
        v /= 10;
    } while (v);
    while (n) {
        *p++ = tmp[--n];
    }
    return p;
}

static char *put_hex(char *p, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";

    *p++ = '0';
    *p++ = 'x';
    for (int i = digits - 1; i >= 0; i--) {
        *p++ = hex[(v >> (4 * i)) & 0xf];
    }
    return p;
}

static char *put_str(char *p, const char *str)
{
    size_t n = strnlen(str, 40);    /* regdb names are short; stay bounded */

    memcpy(p, str, n);
    return p + n;
}

void nvdev_trace_record(NVDevState *s, char dir, unsigned size,
                        const char *space, uint32_t addr, uint64_t val,
                        const char *unit, const char *name, bool unimp)
{
    char line[160], *p = line;

    if (!s->trace) {
        return;
    }
    /* "SEQ VTIME DIR WIDTH SPACE ADDR VALUE UNIT NAME [unimp]" */
    p = put_dec(p, s->trace_seq++);
    *p++ = ' ';
    p = put_dec(p, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    *p++ = ' ';
    *p++ = dir;
    *p++ = ' ';
    *p++ = '0' + size;
    *p++ = ' ';
    p = put_str(p, space);
    *p++ = ' ';
    p = put_hex(p, addr, 6);
    *p++ = ' ';
    p = put_hex(p, val, size * 2);
    *p++ = ' ';
    p = put_str(p, unit);
    *p++ = ' ';
    p = put_str(p, name);
    if (unimp) {
        p = put_str(p, " unimp");
    }
    *p++ = '\n';
    fwrite(line, 1, p - line, s->trace);
}

void nvdev_trace_access(NVDevState *s, char dir, unsigned size,
                        const char *space, uint32_t addr, uint64_t val,
                        const char *unit, bool unimp)
{
    const NVRegName *reg;

    if (!s->trace) {
        return;
    }
    reg = strcmp(space, "mmio") ? NULL : nv_reg_lookup(addr);
    nvdev_trace_record(s, dir, size, space, addr, val, unit,
                       reg ? reg->name : "-", unimp);
}

/*
 * "mark": a write-only property, set at run time over QMP (qom-set), that
 * puts a marker line into the trace, e.g. "# mark 1234 5678 modetest" with
 * the next sequence number and the virtual time.  Tests slice traces with
 * it.
 */
static void nvdev_set_mark(Object *obj, const char *value, Error **errp)
{
    NVDevState *s = NVDEV(obj);

    if (strchr(value, ' ') || strchr(value, '\n')) {
        error_setg(errp, "nvdev: a trace mark is one word");
        return;
    }
    if (s->trace) {
        fprintf(s->trace, "# mark %" PRIu64 " %" PRId64 " %s\n", s->trace_seq,
                qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), value);
    }
}

static void nvdev_instance_init(Object *obj)
{
    object_property_add_str(obj, "mark", NULL, nvdev_set_mark);
}

static void nvdev_trace_close(Notifier *n, void *data)
{
    NVDevState *s = container_of(n, NVDevState, exit_notifier);

    if (s->trace) {
        fclose(s->trace);
        s->trace = NULL;
    }
}

/* ---- BAR0 dispatch ----------------------------------------------------- */

static void log_unimp(const NVUnit *u, char dir, hwaddr addr, uint64_t val,
                      unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "nvdev: %s: unimplemented %s of %u bytes at "
                  "0x%06" HWADDR_PRIx " (0x%" PRIx64 ")\n", u ? u->name : "BAR0",
                  dir == 'R' ? "read" : "write", size,
                  (u ? u->base : 0) + addr, val);
}

static uint64_t unit_read(NVDevState *s, const NVUnit *u, hwaddr addr,
                          unsigned size, bool *unimp)
{
    uint64_t val;

    if (u->bytewise && size > 1) {
        /* e.g. nouveau's 32-bit read of INP0 at 0x6013da: byte 0 is the
         * port asked for, the others the ports after it */
        bool any = false;

        val = 0;
        for (unsigned i = 0; i < size && addr + i < u->size; i++) {
            bool missing = false;
            uint64_t b = u->read(s, u, addr + i, 1, &missing);
            if (!missing) {
                val |= b << (8 * i);
                any = true;
            }
        }
        *unimp = !any;
        return val;
    }
    if (u->dword && size < 4) {
        unsigned shift = (addr & 3) * 8;
        val = u->read(s, u, addr & ~3, 4, unimp);
        return (val >> shift) & MAKE_64BIT_MASK(0, size * 8);
    }
    return u->read(s, u, addr, size, unimp);
}

static uint64_t nvdev_region_read(void *opaque, hwaddr addr, unsigned size)
{
    NVUnitRegion *r = opaque;
    bool unimp = false;
    uint64_t val;

    if (r->s->fault_dead) {
        /* a card that fell off the bus: master aborts read all ones */
        val = MAKE_64BIT_MASK(0, size * 8);
        nvdev_trace_access(r->s, 'R', size, "mmio", r->unit->base + addr, val,
                           r->unit->name, false);
        return val;
    }
    val = unit_read(r->s, r->unit, addr, size, &unimp);
    if (unimp) {
        log_unimp(r->unit, 'R', addr, 0, size);
        val = 0;
    }
    trace_nvdev_mmio_read(r->unit->name, r->unit->base + addr, size, val);
    nvdev_trace_access(r->s, 'R', size, "mmio", r->unit->base + addr, val,
                       r->unit->name, unimp);
    return val;
}

static void nvdev_region_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    NVUnitRegion *r = opaque;
    const NVUnit *u = r->unit;
    bool unimp = false;

    trace_nvdev_mmio_write(u->name, u->base + addr, size, val);
    nvdev_trace_access(r->s, 'W', size, "mmio", u->base + addr, val, u->name,
                       false);
    if (u->bytewise && size > 1) {
        bool any = false;

        for (unsigned i = 0; i < size && addr + i < u->size; i++) {
            bool missing = false;
            u->write(r->s, u, addr + i, (val >> (8 * i)) & 0xff, 1, &missing);
            any |= !missing;
        }
        if (!any) {
            log_unimp(u, 'W', addr, val, size);
        }
        return;
    }
    if (u->dword && size < 4) {
        /* merge a byte/word write into the dword register */
        unsigned shift = (addr & 3) * 8;
        uint64_t mask = MAKE_64BIT_MASK(shift, size * 8);
        bool ignore = false;
        uint64_t old = u->read(r->s, u, addr & ~3, 4, &ignore);
        val = (old & ~mask) | ((val << shift) & mask);
        addr &= ~3;
        size = 4;
    }
    u->write(r->s, u, addr, val, size, &unimp);
    if (unimp) {
        log_unimp(u, 'W', addr, val, size);
    }
}

/*
 * The CPU may issue 64-bit accesses (memset_io, memcpy_toio): on the bus
 * they arrive as two 32-bit ones, which is what .valid 8 / .impl 4 makes
 * QEMU's memory core deliver.
 */
static const MemoryRegionOps nvdev_region_ops = {
    .read = nvdev_region_read,
    .write = nvdev_region_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* Byte-port windows (PRMVIO/PRMCIO/PRMDIO) take unaligned wide accesses. */
static const MemoryRegionOps nvdev_bytewise_ops = {
    .read = nvdev_region_read,
    .write = nvdev_region_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 4, .unaligned = true },
};

static uint64_t nvdev_unassigned_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    NVDevState *s = opaque;

    log_unimp(NULL, 'R', addr, 0, size);
    nvdev_trace_access(s, 'R', size, "mmio", addr, 0, "-", true);
    return 0;
}

static void nvdev_unassigned_write(void *opaque, hwaddr addr, uint64_t val,
                                   unsigned size)
{
    NVDevState *s = opaque;

    log_unimp(NULL, 'W', addr, val, size);
    nvdev_trace_access(s, 'W', size, "mmio", addr, val, "-", true);
}

static const MemoryRegionOps nvdev_unassigned_ops = {
    .read = nvdev_unassigned_read,
    .write = nvdev_unassigned_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* ---- plain registers, as the regdb declares them ------------------------ */

uint64_t nv_plain_read(NVDevState *s, uint32_t *regs, const NVUnit *u,
                       hwaddr addr, bool *unimp)
{
    const NVRegName *reg = nv_reg_lookup(u->base + addr);

    if (!reg || !(reg->flags & NV_REG_RW) || addr >= u->size || (addr & 3)) {
        *unimp = true;
        return 0;
    }
    return regs[addr >> 2];
}

void nv_plain_write(NVDevState *s, uint32_t *regs, const NVUnit *u,
                    hwaddr addr, uint64_t val, bool *unimp)
{
    const NVRegName *reg = nv_reg_lookup(u->base + addr);

    if (!reg || !(reg->flags & NV_REG_RW) || addr >= u->size || (addr & 3)) {
        *unimp = true;
        return;
    }
    regs[addr >> 2] = val;
}

/* ---- PCI config mirror and interrupts ---------------------------------- */

uint32_t nvdev_pci_config_read(NVDevState *s, uint32_t addr, unsigned size)
{
    return pci_default_read_config(PCI_DEVICE(s), addr, size);
}

void nvdev_pci_config_write(NVDevState *s, uint32_t addr, uint32_t val,
                            unsigned size)
{
    pci_default_write_config(PCI_DEVICE(s), addr, val, size);
}

void nvdev_update_irq(NVDevState *s)
{
    uint32_t intr = nv_pmc_intr(s);
    bool level = ((s->pmc.intr_en & 1) && (intr & 0x7fffffff)) ||
                 ((s->pmc.intr_en & 2) && (intr & 0x80000000));

    trace_nvdev_irq(intr, s->pmc.intr_en, level);
    if (level != s->pmc.irq_level) {
        /* an edge of the interrupt line: ADDR is the new level, VALUE the
         * PMC INTR_0 summary that caused it */
        nvdev_trace_record(s, 'I', 4, "irq", level, intr, "PMC", "INTR", false);
        s->pmc.irq_level = level;
    }
    pci_set_irq(PCI_DEVICE(s), level);
}

/* ---- realize ----------------------------------------------------------- */

static const char *const ram_type_names[] = {
    [NVBIOS_RAM_SDRAM] = "sdram",
    [NVBIOS_RAM_DDR1] = "ddr",
    [NVBIOS_RAM_SGRAM] = "sgram",
};

/*
 * What the resistors on a real board fix: VRAM size and type, the straps
 * (the crystal among them).  nvdev's own images carry them in the board
 * record; a dump of a real card has none, so they default (the chipset's
 * usual VRAM, SDRAM, a 14.318 MHz crystal) and say so.  The vram_mb,
 * strap and ram_type properties override either.
 */
static bool nvdev_board_config(NVDevState *s, Error **errp)
{
    g_autoptr(GString) defaulted = g_string_new(NULL);
    bool nv04 = s->chip->caps & NV_CAP_PFB_NV04;
    unsigned lo = nv04 ? 4 : 16, hi = nv04 ? 32 : 512;

    if (s->bios.has_board) {
        s->strap = s->bios.board.strap;
        s->vram_mb = s->bios.board.vram_mb;
        s->ram_type = s->bios.board.ram_type;
    } else {
        s->strap = 0x00000040;          /* 14.318 MHz crystal */
        s->vram_mb = s->chip->default_vram_mb;
        s->ram_type = NVBIOS_RAM_SDRAM;
    }
    if (s->chip->caps & NV_CAP_NFORCE) {
        /* an nForce IGP: what the host bridge sets aside (nv1a_ram_new) */
        uint32_t mb = nv_nforce_stolen_mb(pci_get_bus(PCI_DEVICE(s)), errp);

        if (!mb) {
            return false;
        }
        if (mb & (mb - 1) || (s->prop_vram_mb && s->prop_vram_mb != mb)) {
            error_setg(errp, "nvdev: the nForce sets aside %u MiB: nvdev "
                       "needs a power of two%s", mb, s->prop_vram_mb ?
                       ", and vram_mb= must say the same" : "");
            return false;
        }
        s->vram_mb = mb;
    } else if (s->prop_vram_mb) {
        if (s->prop_vram_mb & (s->prop_vram_mb - 1) ||
            s->prop_vram_mb < lo || s->prop_vram_mb > hi) {
            error_setg(errp, "nvdev: vram_mb=%u: a %s has a power of two "
                       "from %u to %u MiB", s->prop_vram_mb, s->chip->name,
                       lo, hi);
            return false;
        }
        s->vram_mb = s->prop_vram_mb;
    } else if (!s->bios.has_board) {
        g_string_append_printf(defaulted, " vram_mb=%u", s->vram_mb);
    }
    if (s->prop_strap != UINT32_MAX) {
        s->strap = s->prop_strap;
    } else if (!s->bios.has_board) {
        g_string_append_printf(defaulted, " strap=0x%08x", s->strap);
    }
    if (s->prop_ram_type) {
        unsigned i;

        for (i = 0; i < ARRAY_SIZE(ram_type_names); i++) {
            if (!strcmp(s->prop_ram_type, ram_type_names[i])) {
                break;
            }
        }
        if (i == ARRAY_SIZE(ram_type_names)) {
            error_setg(errp, "nvdev: ram_type=%s: expected sdram, ddr or "
                       "sgram", s->prop_ram_type);
            return false;
        }
        s->ram_type = i;
    } else if (!s->bios.has_board) {
        g_string_append_printf(defaulted, " ram_type=%s",
                               ram_type_names[s->ram_type]);
    }
    if (defaulted->len) {
        info_report("nvdev: VBIOS %s has no nvdev board record: defaulted%s "
                    "(the vram_mb, strap and ram_type properties set them)",
                    s->vbios_path, defaulted->str);
    }
    return true;
}

static bool nvdev_load_vbios(NVDevState *s, Error **errp)
{
    g_autoptr(GError) err = NULL;
    gchar *data;
    gsize len;

    if (!s->vbios_path) {
        error_setg(errp, "nvdev: the vbios= property is required: the board "
                   "is configured from its VBIOS image");
        return false;
    }
    if (!g_file_get_contents(s->vbios_path, &data, &len, &err)) {
        error_setg(errp, "nvdev: cannot read VBIOS: %s", err->message);
        return false;
    }
    if (len > 1 * MiB) {
        error_setg(errp, "nvdev: VBIOS %s is %zu bytes; a ROM is at most "
                   "1 MiB", s->vbios_path, len);
        g_free(data);
        return false;
    }
    if (!nvbios_parse(&s->bios, (uint8_t *)data, len, &err)) {
        error_setg(errp, "nvdev: VBIOS %s is invalid: %s", s->vbios_path,
                   err->message);
        g_free(data);
        return false;
    }
    s->rom = (uint8_t *)data;
    s->rom_size = len;
    for (unsigned i = 0; i < s->bios.n_warnings; i++) {
        warn_report("nvdev: VBIOS %s: %s", s->vbios_path,
                    s->bios.warnings[i]);
    }

    if (s->bios.vendor_id != PCI_VENDOR_ID_NVIDIA &&
        s->bios.vendor_id != 0x12d2) {
        error_setg(errp, "nvdev: VBIOS %s is for PCI vendor 0x%04x, not "
                   "NVIDIA (0x10de) or SGS-Thomson/NVIDIA (0x12d2)",
                   s->vbios_path, s->bios.vendor_id);
        return false;
    }
    s->chip = nv_chipset_by_pci_id(s->bios.device_id);
    if (!s->chip) {
        error_setg(errp, "nvdev: VBIOS %s is for PCI device 0x%04x, which "
                   "is not a chipset nvdev models", s->vbios_path,
                   s->bios.device_id);
        return false;
    }
    return nvdev_board_config(s, errp);
}

static void nvdev_map_units(NVDevState *s)
{
    memory_region_init_io(&s->bar0, OBJECT(s), &nvdev_unassigned_ops, s,
                          "nvdev.bar0", NVDEV_BAR0_SIZE);
    for (size_t i = 0; i < ARRAY_SIZE(nv_units); i++) {
        const NVUnit *u = nv_units[i];
        NVUnitRegion *r;

        if ((s->chip->caps & u->needs_caps) != u->needs_caps ||
            (s->chip->caps & u->excludes_caps)) {
            continue;
        }
        assert(s->n_regions < NV_MAX_UNITS);
        r = &s->regions[s->n_regions++];
        r->s = s;
        r->unit = u;
        memory_region_init_io(&r->mr, OBJECT(s), u->bytewise ?
                              &nvdev_bytewise_ops : &nvdev_region_ops, r,
                              u->name, u->size);
        memory_region_add_subregion_overlap(&s->bar0, u->base, &r->mr, 1);
    }
}

/* The DCB I2C port of the VBIOS's first output of @type, or -1. */
static int first_output_i2c(NVDevState *s, uint8_t type)
{
    for (unsigned i = 0; i < s->bios.n_dcb; i++) {
        if (s->bios.dcb[i].type == type) {
            return s->bios.dcb[i].i2c;
        }
    }
    return -1;
}

/*
 * A laptop's built-in panel on the first LVDS output's DDC: its EDID, by
 * default a 1024x768 panel.  Only a board whose DCB has an LVDS output
 * has one; "none" takes it away (a panel without DDC).
 */
static bool nvdev_attach_panel(NVDevState *s, Error **errp)
{
    s->lvds_i2c = first_output_i2c(s, NVBIOS_OUTPUT_LVDS);
    if (!s->panel) {
        s->panel = g_strdup(s->lvds_i2c < 0 ? "none" : "1024x768");
    }
    if (!strcmp(s->panel, "none")) {
        return true;
    }
    if (s->lvds_i2c < 0) {
        error_setg(errp, "nvdev: panel=%s, but the VBIOS's DCB has no LVDS "
                   "output", s->panel);
        return false;
    }
    if ((s->lvds_i2c == s->crt_i2c && strcmp(s->monitor, "none") &&
         strcmp(s->monitor, "noddc")) ||
        (s->lvds_i2c == s->dvi_i2c && strcmp(s->monitor_dvi, "none"))) {
        error_setg(errp, "nvdev: the panel would share DDC port %d with a "
                   "monitor: unplug it (none)", s->lvds_i2c);
        return false;
    }
    return nv_i2c_attach_monitor(s, s->lvds_i2c, s->panel, errp);
}

/* The units' lives, in order: reset runs PRAMDAC before PTIMER, which
 * NVPLL clocks; unrealize runs from the end. */
static const NVUnitLife nv_unit_life[] = {
    { "PMC", .reset = nv_pmc_reset },
    { "PBUS", .reset = nv_pbus_reset },
    { "PRAMDAC", .reset = nv_pramdac_reset },
    { "PTIMER", nv_ptimer_init, nv_ptimer_reset, nv_ptimer_exit },
    { "PFB", .reset = nv_pfb_reset },
    { "PCRTC", nv_pcrtc_init, nv_pcrtc_reset, nv_pcrtc_exit },
    { "PRMVGA", .reset = nv_vga_reset },
    { "PFIFO", nv_pfifo_init, nv_pfifo_reset, nv_pfifo_exit },
    { "PGRAPH", .reset = nv_pgraph_reset },
};

static void nvdev_realize(PCIDevice *pdev, Error **errp)
{
    NVDevState *s = NVDEV(pdev);
    VGACommonState *vga = &s->vga;
    Error *err = NULL;
    uint32_t rom_bar_size;

    if (!nvdev_load_vbios(s, errp)) {
        return;
    }

    pci_set_word(pdev->config + PCI_VENDOR_ID, s->bios.vendor_id);
    pci_set_word(pdev->config + PCI_DEVICE_ID, s->bios.device_id);
    pci_set_byte(pdev->config + PCI_REVISION_ID, s->chip->boot0 & 0xff);
    pci_config_set_class(pdev->config, PCI_CLASS_DISPLAY_VGA);
    pci_set_byte(pdev->config + PCI_INTERRUPT_PIN, 1);
    /* 0x50: ROM shadow control; bit 0 set = PROM window disabled */
    pci_set_long(pdev->wmask + 0x50, 0x00000001);

    vga->vram_size_mb = s->vram_mb;
    if (!vga_common_init(vga, OBJECT(s), errp)) {
        return;
    }
    vga_init(vga, OBJECT(s), pci_address_space(pdev),
             pci_address_space_io(pdev), false);
    /* vga_init adds Bochs VBE ports, which an NVIDIA card does not have */
    portio_list_del(&vga->vbe_port_list);
    nv_scanout_init(s);
    vga->con = graphic_console_init(DEVICE(s), 0, vga->hw_ops, vga);
    nv_scanout_init_headb(s);

    memory_region_init_io(&s->vga_ports, OBJECT(s), &nv_vga_legacy_ops, s,
                          "nvdev.vga-ports", 0x30);
    memory_region_add_subregion(pci_address_space_io(pdev), 0x3b0,
                                &s->vga_ports);

    if (!s->monitor) {
        s->monitor = g_strdup("default");
    }
    if (s->fault) {
        s->fault_dead = !strcmp(s->fault, "dead");
        s->fault_prom = !strcmp(s->fault, "prom-checksum");
        if (!s->fault_dead && !s->fault_prom && strcmp(s->fault, "none")) {
            error_setg(errp, "nvdev: fault=%s: expected none, dead or "
                       "prom-checksum", s->fault);
            return;
        }
    }
    if (!nv_i2c_init(s, errp)) {
        return;
    }
    s->crt_i2c = first_output_i2c(s, NVBIOS_OUTPUT_ANALOG);
    if (s->crt_i2c < 0) {
        s->crt_i2c = 0;
    }
    if (strcmp(s->monitor, "none") && strcmp(s->monitor, "noddc") &&
        !nv_i2c_attach_monitor(s, s->crt_i2c, s->monitor, errp)) {
        return;
    }
    /* a digital monitor: what a DVI sink shows of itself is its EDID */
    s->dvi_i2c = first_output_i2c(s, NVBIOS_OUTPUT_TMDS);
    if (!s->monitor_dvi) {
        s->monitor_dvi = g_strdup("none");
    }
    if (strcmp(s->monitor_dvi, "none")) {
        if (s->dvi_i2c < 0) {
            error_setg(errp, "nvdev: monitor1=%s, but the VBIOS's DCB has "
                       "no TMDS output", s->monitor_dvi);
            return;
        }
        if (s->dvi_i2c == s->crt_i2c && strcmp(s->monitor, "none") &&
            strcmp(s->monitor, "noddc")) {
            error_setg(errp, "nvdev: monitor0 and monitor1 would share DDC "
                       "port %d: unplug one (none)", s->dvi_i2c);
            return;
        }
        if (!nv_i2c_attach_monitor(s, s->dvi_i2c, s->monitor_dvi, errp)) {
            return;
        }
    }

    if (!nvdev_attach_panel(s, errp)) {
        return;
    }

    if (s->bios.has_board &&
        s->bios.board.tv_encoder == NVBIOS_TV_ENCODER_CH7006 &&
        !nv_ch7006_attach(s, s->bios.board.tv_i2c_port,
                          s->bios.board.tv_i2c_addr, s->tv, errp)) {
        return;
    }

    nvdev_map_units(s);
    pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->bar0);
    pci_register_bar(pdev, 1, PCI_BASE_ADDRESS_MEM_PREFETCH, &vga->vram);
    if (s->chip->caps & NV_CAP_PRAMIN_BAR) {
        /* NV40: BAR2 is the RAMIN aperture (pramin.c) */
        memory_region_init_io(&s->pramin_bar, OBJECT(s), &nv_ramin_bar_ops, s,
                              "nvdev.ramin", MIN(16 * MiB, vga->vram_size));
        pci_register_bar(pdev, 2, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->pramin_bar);
    }

    rom_bar_size = pow2ceil(s->rom_size);
    memory_region_init_rom(&s->rom_bar, OBJECT(s), "nvdev.rom",
                           rom_bar_size, &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    memset(memory_region_get_ram_ptr(&s->rom_bar), 0xff, rom_bar_size);
    memcpy(memory_region_get_ram_ptr(&s->rom_bar), s->rom, s->rom_size);
    pci_register_bar(pdev, PCI_ROM_SLOT, 0, &s->rom_bar);

    if (s->trace_path) {
        s->trace = fopen(s->trace_path, "w");
        if (!s->trace) {
            error_setg_errno(errp, errno, "nvdev: cannot write trace file %s",
                             s->trace_path);
            return;
        }
        setvbuf(s->trace, NULL, _IOFBF, 1 * MiB);
        fprintf(s->trace, "# nvdev-trace 1 chipset=%s boot0=0x%08x "
                "vram_mb=%u pci=%04x:%04x crystal_khz=%u monitor0=%s tv=%s "
                "monitor1=%s panel=%s strap=0x%08x ram_type=%s\n",
                s->chip->name, s->chip->boot0, s->vram_mb, s->bios.vendor_id,
                s->bios.device_id, nv_crystal_khz(s), s->monitor,
                s->tv ? s->tv : "composite", s->monitor_dvi, s->panel,
                s->strap, ram_type_names[s->ram_type]);
        s->exit_notifier.notify = nvdev_trace_close;
        qemu_add_exit_notifier(&s->exit_notifier);
    }

    /* last: nothing after it can fail, leaving the units' timers behind */
    for (size_t i = 0; i < ARRAY_SIZE(nv_unit_life); i++) {
        if (nv_unit_life[i].realize) {
            nv_unit_life[i].realize(s);
        }
    }
}

static void nvdev_exit(PCIDevice *pdev)
{
    NVDevState *s = NVDEV(pdev);

    if (s->trace) {
        qemu_remove_exit_notifier(&s->exit_notifier);
        nvdev_trace_close(&s->exit_notifier, NULL);
    }
    for (size_t i = ARRAY_SIZE(nv_unit_life); i-- > 0;) {
        if (nv_unit_life[i].unrealize) {
            nv_unit_life[i].unrealize(s);
        }
    }
    g_free(s->rom);
}

static void nvdev_reset(DeviceState *dev)
{
    NVDevState *s = NVDEV(dev);

    pci_set_long(PCI_DEVICE(s)->config + 0x50, 0x00000001);
    for (size_t i = 0; i < ARRAY_SIZE(nv_unit_life); i++) {
        nv_unit_life[i].reset(s);
    }
    nvdev_update_irq(s);
}

/* What is derived from the loaded registers rather than migrated (the
 * units' subsections are loaded by now). */
static int nvdev_post_load(void *opaque, int version_id)
{
    NVDevState *s = opaque;

    nv_cursor_changed(s);       /* the VGA core's shadow flag */
    nvdev_update_irq(s);
    return 0;
}

/* The PCI function and head A's VGA core here; each unit's own state in
 * the unit's subsection (its file) */
static const VMStateDescription vmstate_nvdev = {
    .name = "nvdev",
    .version_id = 2,
    .minimum_version_id = 2,
    .post_load = nvdev_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, NVDevState),
        VMSTATE_STRUCT(vga, NVDevState, 0, vmstate_vga_common,
                       VGACommonState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * []) {
        &vmstate_nv_pmc,
        &vmstate_nv_ptimer,
        &vmstate_nv_pbus,
        &vmstate_nv_pfb,
        &vmstate_nv_pramdac,
        &vmstate_nv_pcrtc,
        &vmstate_nv_prmvga,
        &vmstate_nv_i2c,
        &vmstate_nv_pfifo,
        &vmstate_nv_pgraph,
        NULL
    },
};

static Property nvdev_properties[] = {
    DEFINE_PROP_STRING("vbios", NVDevState, vbios_path),
    DEFINE_PROP_STRING("trace", NVDevState, trace_path),
    /* what is plugged into the CRT connector: "default" (a monitor with
     * QEMU's EDID), an EDID file, "noddc" (a monitor without DDC: only load
     * detection finds it) or "none" */
    DEFINE_PROP_STRING("monitor0", NVDevState, monitor),
    /* what is plugged into the DVI connector (the DCB's first TMDS
     * output): "none" or a digital monitor, "default" (QEMU's EDID, which
     * says digital) or an EDID file */
    DEFINE_PROP_STRING("monitor1", NVDevState, monitor_dvi),
    /* the built-in panel on the LVDS output: "WxH" (QEMU's EDID of a panel
     * of that native mode, default 1024x768), an EDID file, or "none" */
    DEFINE_PROP_STRING("panel", NVDevState, panel),
    /* what is plugged into the TV encoder: composite, svideo, scart, none */
    DEFINE_PROP_STRING("tv", NVDevState, tv),
    /* for driver tests: "dead" (BAR0 reads all ones, as a card gone from
     * the bus), "prom-checksum" (the PROM window serves a damaged image) */
    DEFINE_PROP_STRING("fault", NVDevState, fault),
    /* what the board record (or, without one, a default) says otherwise:
     * VRAM in MiB, PEXTDEV straps, RAM type (sdram, ddr, sgram) */
    DEFINE_PROP_UINT32("vram_mb", NVDevState, prop_vram_mb, 0),
    DEFINE_PROP_UINT32("strap", NVDevState, prop_strap, UINT32_MAX),
    DEFINE_PROP_STRING("ram_type", NVDevState, prop_ram_type),
    DEFINE_PROP_END_OF_LIST(),
};

static void nvdev_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = nvdev_realize;
    k->exit = nvdev_exit;
    k->vendor_id = PCI_VENDOR_ID_NVIDIA;
    k->device_id = 0;
    k->class_id = PCI_CLASS_DISPLAY_VGA;
    dc->desc = "NVIDIA NV04..NV4x GPU (configured from its VBIOS)";
    dc->hotpluggable = false;
    dc->reset = nvdev_reset;
    dc->vmsd = &vmstate_nvdev;
    device_class_set_props(dc, nvdev_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo nvdev_info = {
    .name = TYPE_NVDEV,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(NVDevState),
    .instance_init = nvdev_instance_init,
    .class_init = nvdev_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void nvdev_register_types(void)
{
    type_register_static(&nvdev_info);
}

type_init(nvdev_register_types)
