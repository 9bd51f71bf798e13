/*
 * nvdev DMA objects ("ctxdmas"): how PFIFO and PGRAPH reach memory.
 *
 * A DMA object is 16 bytes or more of RAMIN:
 *   word 0  class (0x02 from memory, 0x03 to memory, 0x3d in memory)
 *           | 0x1000 page table present | 0x2000 linear
 *           | 0x4000 read-only | 0x8000 write-only
 *           | target << 16 (0 VRAM, 2 PCI, 3 PCI non-snooped)
 *           | (start & 0xfff) << 20
 *   word 1  limit: the last valid byte offset
 *   word 2+ page table entries: frame | 2 writable | 1 present; a linear
 *           object uses only the first, as its base
 * (envytools hwdocs "DMA objects"; nouveau dma/usernv04.c and
 * mmu/vmmnv04.c write exactly these).  On NV41+ with the PCIE GART on
 * (0x100800 bit 1), a PCI address is a GART address, translated through
 * the page table at 0x100800: one 32-bit entry (phys >> 7) | 1 per 4 KiB
 * page (nouveau mmu/vmmnv41.c).  The NV44 class (NV44, G72 and the IGPs)
 * has its own: the table in VRAM at 0x100800 & ~0x7ffff (bit 4 enable),
 * 0x100804 the bytes it maps, four 27-bit frame numbers (phys >> 12) packed
 * in each 16 bytes, the group valid when its last word has bit 30, and
 * 0x100818 the bus address of a dummy page that takes what no valid entry
 * maps (nouveau mmu/nv44.c and vmmnv44.c; envytools documents none of it).
 *
 * Every access is checked against the object's limit, VRAM's size and
 * the GART: a bad one is logged (LOG_GUEST_ERROR) and fails; nothing
 * outside the device's own memory and the guest's RAM is touched.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "sysemu/dma.h"
#include "nvdev.h"

#define DMA_PT_PRESENT  0x00001000
#define DMA_LINEAR      0x00002000
#define DMA_RO          0x00004000
#define DMA_TARGET(f)   (((f) >> 16) & 3)
#define DMA_ADJUST(f)   ((f) >> 20)
#define PTE_PRESENT     1
#define PTE_WRITABLE    2
#define TARGET_VRAM     0
#define PAGE            0x1000u

#define NV41_GART_ON    0x2             /* NV41+: table in RAMIN */
#define NV44_GART_ON    0x10            /* NV44 class: table in VRAM */
#define NV44_GROUP_OK   0x40000000

bool nv_dma_object(NVDevState *s, uint32_t inst, NVDmaObj *o, const char *who)
{
    uint32_t cls;

    if (!nv_ramin_valid(s, inst, 16)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object at RAMIN 0x%x "
                      "is outside instance memory\n", who, inst);
        return false;
    }
    o->inst = inst;
    o->flags = nv_ramin_rd32(s, inst);
    o->limit = nv_ramin_rd32(s, inst + 4);
    o->pte0 = nv_ramin_rd32(s, inst + 8);
    o->adjust = DMA_ADJUST(o->flags);
    cls = o->flags & 0xfff;
    if (cls != 0x02 && cls != 0x03 && cls != 0x3d) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: RAMIN 0x%x holds class "
                      "0x%x, not a DMA object\n", who, inst, cls);
        return false;
    }
    if (DMA_TARGET(o->flags) == 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object 0x%x has "
                      "target 1, which no card implements\n", who, inst);
        return false;
    }
    return true;
}

/* The NV44 class: four frames packed in 16 bytes of the VRAM table */
static bool gart44_translate(NVDevState *s, uint32_t ctrl, uint64_t addr,
                             uint64_t *phys, const char *who)
{
    uint64_t table = ctrl & ~0x7ffffu, idx = addr / PAGE, at, pfn;
    uint32_t w[4];

    at = table + (idx / 4) * 16;
    if (addr >= nv_pfb_reg(s, NV_PFB_GART_SIZE) ||
        at + 16 > s->vga.vram_size) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: GART address 0x%" PRIx64
                      " is beyond the GART (0x%x bytes, table at VRAM 0x%"
                      PRIx64 "): the dummy page\n", who, addr,
                      nv_pfb_reg(s, NV_PFB_GART_SIZE), table);
        goto dummy;
    }
    for (int i = 0; i < 4; i++) {
        w[i] = ldl_le_p(s->vga.vram_ptr + at + i * 4);
    }
    if (!(w[3] & NV44_GROUP_OK)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: GART page 0x%" PRIx64
                      " is not mapped: the dummy page\n", who,
                      addr & ~(uint64_t)(PAGE - 1));
        goto dummy;
    }
    switch (idx & 3) {
    case 0:
        pfn = w[0] & 0x07ffffff;
        break;
    case 1:
        pfn = (w[0] >> 27) | (w[1] & 0x003fffff) << 5;
        break;
    case 2:
        pfn = (w[1] >> 22) | (w[2] & 0x0001ffff) << 10;
        break;
    default:
        pfn = (w[2] >> 17) | (uint64_t)(w[3] & 0x00000fff) << 15;
        break;
    }
    *phys = pfn * PAGE + addr % PAGE;
    return true;
dummy:
    *phys = (nv_pfb_reg(s, NV_PFB_GART_NULL) & ~(PAGE - 1)) + addr % PAGE;
    return true;
}

/* The guest-physical address of a GART address on NV41+, or false */
static bool gart_translate(NVDevState *s, uint64_t addr, uint64_t *phys,
                           const char *who)
{
    uint32_t ctrl = nv_pfb_reg(s, NV_PFB_GART_CTRL);
    uint32_t pt = ctrl & ~0xfffu, pte;

    if ((s->chip->caps & NV_CAP_NV44_GART) && (ctrl & NV44_GART_ON)) {
        return gart44_translate(s, ctrl, addr, phys, who);
    }
    if (!(s->chip->caps & NV_CAP_PCIE_GART) || !(ctrl & NV41_GART_ON)) {
        *phys = addr;
        return true;
    }
    if (!nv_ramin_valid(s, pt + (addr / PAGE) * 4, 4) ||
        addr / PAGE > UINT32_MAX / 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: GART address 0x%" PRIx64
                      " is beyond the GART's page table\n", who, addr);
        return false;
    }
    pte = nv_ramin_rd32(s, pt + (addr / PAGE) * 4);
    if (!(pte & 1)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: GART page 0x%" PRIx64
                      " is not mapped\n", who, addr & ~(uint64_t)(PAGE - 1));
        return false;
    }
    *phys = ((uint64_t)(pte & ~1u) << 7) + (addr & (PAGE - 1));
    return true;
}

/*
 * The address of byte @va (adjust + offset) of @o, the bytes of it left
 * in the same page (or the whole object, if linear), and its page's
 * writability.
 */
static bool translate(NVDevState *s, const NVDmaObj *o, uint64_t va,
                      uint64_t *addr, uint64_t *run, bool *writable,
                      const char *who)
{
    uint32_t pte;

    if (o->flags & DMA_LINEAR) {
        *addr = (o->pte0 & ~(PAGE - 1)) + va;
        *run = (uint64_t)o->adjust + o->limit + 1 - va;
        *writable = o->pte0 & PTE_WRITABLE;
        return true;
    }
    if (!(o->flags & DMA_PT_PRESENT) ||
        !nv_ramin_valid(s, o->inst + 8 + (va / PAGE) * 4, 4)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object 0x%x has no "
                      "page table entry for offset 0x%" PRIx64 "\n", who,
                      o->inst, va - o->adjust);
        return false;
    }
    pte = nv_ramin_rd32(s, o->inst + 8 + (va / PAGE) * 4);
    if (!(pte & PTE_PRESENT)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object 0x%x: page at "
                      "offset 0x%" PRIx64 " is not present\n", who, o->inst,
                      va - o->adjust);
        return false;
    }
    *addr = (pte & ~(PAGE - 1)) + va % PAGE;
    *run = PAGE - va % PAGE;
    *writable = pte & PTE_WRITABLE;
    return true;
}

static bool in_limit(const NVDmaObj *o, uint32_t off, uint32_t len,
                     const char *who)
{
    if (len && (off > o->limit || len - 1 > o->limit - off)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: access of %u bytes at "
                      "offset 0x%x overruns DMA object 0x%x (limit 0x%x)\n",
                      who, len, off, o->inst, o->limit);
        return false;
    }
    return true;
}

bool nv_dma_rw(NVDevState *s, const NVDmaObj *o, uint32_t off, void *buf,
               uint32_t len, bool write, const char *who)
{
    uint8_t *p = buf;
    uint64_t va = (uint64_t)o->adjust + off;

    if (!in_limit(o, off, len, who)) {
        return false;
    }
    if (write && (o->flags & DMA_RO)) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: write through read-only "
                      "DMA object 0x%x\n", who, o->inst);
        return false;
    }
    while (len) {
        uint64_t addr, run;
        bool writable;
        uint32_t n;

        if (!translate(s, o, va, &addr, &run, &writable, who)) {
            return false;
        }
        if (write && !writable) {
            qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object 0x%x: "
                          "write to a read-only page\n", who, o->inst);
            return false;
        }
        n = MIN(run, len);
        if (DMA_TARGET(o->flags) == TARGET_VRAM) {
            if (addr >= s->vga.vram_size || n > s->vga.vram_size - addr) {
                qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: DMA object 0x%x "
                              "reaches VRAM 0x%" PRIx64 ", beyond its 0x%"
                              PRIx64 " bytes\n", who, o->inst, addr,
                              (uint64_t)s->vga.vram_size);
                return false;
            }
            if (write) {
                memcpy(s->vga.vram_ptr + addr, p, n);
                memory_region_set_dirty(&s->vga.vram, addr, n);
            } else {
                memcpy(p, s->vga.vram_ptr + addr, n);
            }
        } else {
            /* system memory over the bus, page by page through the GART */
            uint32_t done = 0;

            while (done < n) {
                uint64_t phys;
                uint32_t m = MIN(n - done, PAGE - (addr + done) % PAGE);

                if (!gart_translate(s, addr + done, &phys, who)) {
                    return false;
                }
                if (pci_dma_rw(PCI_DEVICE(s), phys, p + done, m,
                               write ? DMA_DIRECTION_FROM_DEVICE :
                               DMA_DIRECTION_TO_DEVICE,
                               MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
                    qemu_log_mask(LOG_GUEST_ERROR, "nvdev: %s: bus error at "
                                  "0x%" PRIx64 " through DMA object 0x%x\n",
                                  who, phys, o->inst);
                    return false;
                }
                done += m;
            }
        }
        p += n;
        va += n;
        len -= n;
    }
    return true;
}

/*
 * A host pointer to @len bytes at @off of @o when all of them are one
 * linear run of VRAM (as 2D surfaces are), else NULL: the 2D engine
 * draws straight into VRAM, and falls back to nothing else.
 */
uint8_t *nv_dma_vram(NVDevState *s, const NVDmaObj *o, uint32_t off,
                     uint32_t len, bool write)
{
    uint64_t addr, run;
    bool writable;

    if (DMA_TARGET(o->flags) != TARGET_VRAM || !in_limit(o, off, len, "PGRAPH") ||
        !translate(s, o, (uint64_t)o->adjust + off, &addr, &run, &writable,
                   "PGRAPH")) {
        return NULL;
    }
    if (len > run || (write && (!writable || (o->flags & DMA_RO))) ||
        addr >= s->vga.vram_size || len > s->vga.vram_size - addr) {
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev: PGRAPH: %u bytes at offset "
                      "0x%x of DMA object 0x%x are not %s VRAM\n", len, off,
                      o->inst, write ? "writable" : "readable");
        return NULL;
    }
    return s->vga.vram_ptr + addr;
}

void nv_dma_vram_dirty(NVDevState *s, uint8_t *p, uint32_t len)
{
    memory_region_set_dirty(&s->vga.vram, p - s->vga.vram_ptr, len);
}
