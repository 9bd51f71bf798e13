/*
 * libctxprog: NV40- and NV50-family PGRAPH context programs ("ctxprogs").
 *
 * A ctxprog is the microcode PGRAPH's context-switch unit (CTXCTL) runs
 * to save the outgoing channel's graphics state to its context image in
 * instance memory and load the incoming one's.  The driver uploads it
 * through 0x400324 (index) / 0x400328 (data), one 32-bit word an
 * instruction.  This library decodes, disassembles and assembles those
 * words, and reads and writes the 2009 firmware files nouveau loaded them
 * from (nouveau/nvXX.ctxprog "NVCP", nouveau/nvXX.ctxvals "NVCV").
 *
 * Instruction word (bits 31:24 are zero in every known program; a word
 * that does not decode is kept as raw data, never dropped):
 *
 *   23:20 opcode
 *   0  nop                      (the whole word zero)
 *   1  ctx REG, COUNT           COUNT (19:14) PGRAPH registers from REG
 *                               ((REG - 0x400000) >> 2 in 13:0) to or from
 *                               the image; COUNT 0 takes it from $sr
 *   2  lsr IMM                  20-bit immediate into the scratch register
 *   3  lsr2 IMM                 20-bit immediate into the second scratch
 *   4  bra FLAG, set|clear, T   19:18 zero (call/ret are NV50's), target
 *                               15:8, bit 7 set: branch if the flag is clear
 *   5  wait FLAG, set|clear     bit 7 set: until the flag is set
 *   6  cmd N                    a CTXCTL command (4:0)
 *   7  set FLAG, set|clear      bit 7: the value
 *   8  xfer AREA, START         a transfer of per-unit state (area 2:0,
 *                               start 9:3)
 *   9  reset IDX, MASK          (19:16, 15:0)
 *
 * Polarity of bit 7 follows nouveau (ctxnv40.h: CP_BRA_IF_CLEAR,
 * CP_WAIT_SET, CP_SET_1); envytools reads bit 7 of wait as a negation and
 * names flag 0x60 "idle" where nouveau has STATUS with idle 0.  Both make
 * "wait 0x60" wait for an idle engine.
 *
 * NV50 (G80 to GT21x) has the same opcodes 0-7 and 9 with wider fields and
 * its own numbering of flags and commands (nouveau gr/ctxnv50.c's CP_*;
 * envytools envydis/ctx.c), and differs from opcode 8 on:
 *
 *   1  ctx REG, COUNT           COUNT 19:16, (REG - 0x400000) >> 2 in 15:0
 *                               (ctxnv50.c's CP_CTX_REG says 13:0, but its
 *                               cp_ctx masks nothing and the TP registers
 *                               from 0x410000 on set bit 14)
 *   4  bra/call/ret             19:18 0 bra, 1 call, 2 ret; target 16:8
 *   8  xfer AREA, MASK          a transfer of the strands in MASK (7:0) of
 *                               xfer area 1 or 2 (bit 19 clear or set)
 *   a  ldsr REG                 a PGRAPH register into the scratch flags
 *                               (0x400830); REG as ctx's, in 15:0
 *   c  seek AREA, MASK, POS     position the transfer in strands MASK of
 *                               AREA at POS (18:8)
 *
 * The programs hold 256 (NV40) and 512 (NV50) instructions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CTXPROG_H
#define CTXPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>

#define CTXPROG_ERROR ctxprog_error_quark()
GQuark ctxprog_error_quark(void);

typedef enum {
    CTXPROG_ERR_SYNTAX,     /* assembler input that means nothing */
    CTXPROG_ERR_RANGE,      /* an operand that does not fit its field */
    CTXPROG_ERR_LABEL,      /* a label used and never defined, or twice */
    CTXPROG_ERR_TRUNCATED,  /* a firmware file shorter than it says */
    CTXPROG_ERR_SIGNATURE,  /* not an NVCP / NVCV file */
    CTXPROG_ERR_LENGTH,     /* its length field disagrees with its size */
    CTXPROG_ERR_VERSION,    /* a version other than 0 */
} CtxprogErrorCode;

/* The most instructions a CTXCTL holds (8- and 9-bit program counter). */
#define CTXPROG_NV40_MAX 256
#define CTXPROG_NV50_MAX 512

/* The instruction set: NV40's (NV40-NV4E, C51, MCP6x) or NV50's (G80+) */
typedef enum {
    CTXPROG_NV40,
    CTXPROG_NV50,
} CtxprogArch;

/* "nv40" or "nv50"; false if neither */
bool ctxprog_arch_parse(const char *name, CtxprogArch *arch);

typedef enum {
    CP_OP_RAW,              /* no known instruction: the word as data */
    CP_OP_NOP,
    CP_OP_CTX,
    CP_OP_LSR,
    CP_OP_LSR2,
    CP_OP_BRA,
    CP_OP_WAIT,
    CP_OP_CMD,
    CP_OP_SET,
    CP_OP_XFER,
    CP_OP_RESET,
    CP_OP_CALL,             /* NV50 */
    CP_OP_RET,              /* NV50 */
    CP_OP_LDSR,             /* NV50 */
    CP_OP_SEEK,             /* NV50 */
} CtxprogOp;

/* CTXCTL commands (opcode 6), NV40 numbering */
enum {
    CP_CMD_NEXT_TO_SWAP = 0x07,         /* next channel -> 0x400784 */
    CP_CMD_NEXT_TO_CURRENT = 0x09,      /* next channel -> current */
    CP_CMD_SET_CONTEXT_POINTER = 0x0a,  /* $sr -> the image pointer */
    CP_CMD_START_TIMER = 0x0b,
    CP_CMD_CLEAR_RESET = 0x0c,
    CP_CMD_HALT = 0x0d,                 /* stop, PC kept */
    CP_CMD_END = 0x0e,                  /* stop, PC back to 0 */
    CP_CMD_INTR = 0x0f,
};

/* flags: 0x00-0x0f 0x400310, 0x20-0x2f 0x400314, 0x60-0x6f 0x400318 (RO) */
enum {
    CP_FLAG_SWAP_DIRECTION = 0x00,      /* 0 load, 1 save */
    CP_FLAG_USER_SAVE = 0x05,
    CP_FLAG_USER_LOAD = 0x06,
    CP_FLAG_STATUS = 0x60,              /* 0 idle */
    CP_FLAG_AUTO_SAVE = 0x64,
    CP_FLAG_AUTO_LOAD = 0x65,
    CP_FLAG_STATE3D = 0x66,
    CP_FLAG_ALWAYS = 0x68,
    CP_FLAG_TIMER = 0x69,                /* 0 once START_TIMER has run out */
};

/* CTXCTL commands of NV50 (nouveau ctxnv50.c; envytools names 8-0xb) */
enum {
    CP50_CMD_NEWCTX = 0x04,             /* rebind the image's DMA object */
    CP50_CMD_NEXT_TO_SWAP = 0x05,
    CP50_CMD_SET_CONTEXT_POINTER = 0x06,
    CP50_CMD_SET_XFER_POINTER = 0x07,   /* $sr & 0xffff8 -> 0x40033c */
    CP50_CMD_START_TIMER = 0x08,
    CP50_CMD_ENABLE = 0x09,             /* 0x400040 = 0: units on */
    CP50_CMD_HALT = 0x0a,
    CP50_CMD_INTR = 0x0b,
    CP50_CMD_END = 0x0c,
    CP50_CMD_NEXT_TO_CURRENT = 0x0d,
};

/* NV50 flags: 0x00-0x1f 0x400824, 0x20-0x3f 0x400828, 0x40-0x5f 0x40082c
 * (hardware status, RO), 0x60-0x7f 0x400830 (scratch) */
enum {
    CP50_FLAG_SWAP_DIRECTION = 0x00,
    CP50_FLAG_USER_SAVE = 0x05,
    CP50_FLAG_USER_LOAD = 0x06,
    CP50_FLAG_XFER_SWITCH = 0x0e,
    CP50_FLAG_STATE = 0x1c,             /* 1 running */
    CP50_FLAG_STATUS = 0x40,            /* 1 idle */
    CP50_FLAG_AUTO_SAVE = 0x44,
    CP50_FLAG_AUTO_LOAD = 0x45,
    CP50_FLAG_NEWCTX = 0x4a,            /* 1 done */
    CP50_FLAG_XFER = 0x4b,              /* 1 busy */
    CP50_FLAG_TIMER = 0x4c,
    CP50_FLAG_ALWAYS = 0x4d,
    CP50_FLAG_INTR = 0x4f,
};

typedef struct CtxprogInsn {
    CtxprogArch arch;
    CtxprogOp op;
    uint32_t word;          /* as encoded (for CP_OP_RAW, the data) */
    uint32_t reg;           /* ctx, ldsr: PGRAPH register (absolute) */
    unsigned count;         /* ctx: registers, 0 = from $sr */
    uint32_t imm;           /* lsr/lsr2: value; reset, NV50 xfer, seek: mask */
    unsigned flag;          /* bra/call/ret/wait/set */
    bool state;             /* bra: branch if set; wait: until set; set: value */
    unsigned target;        /* bra, call */
    unsigned cmd;           /* cmd */
    unsigned area, start;   /* xfer, seek (NV50 areas 1 and 2) */
    unsigned idx;           /* reset */
} CtxprogInsn;

/* Decode @word of @arch; false (and insn->op == CP_OP_RAW) if it is no
 * instruction. */
bool ctxprog_decode(CtxprogArch arch, uint32_t word, CtxprogInsn *insn);
/* Encode @insn (of insn->arch); false if an operand does not fit (then
 * *word is untouched) */
bool ctxprog_encode(const CtxprogInsn *insn, uint32_t *word);

/* One instruction as text, without label or comment ("ctx 0x400b00, 4") */
void ctxprog_format(const CtxprogInsn *insn, GString *out);
/* NULL if it has none */
const char *ctxprog_flag_name(CtxprogArch arch, unsigned flag);
const char *ctxprog_cmd_name(CtxprogArch arch, unsigned cmd);

/*
 * The listing of @n words: labels where branches land ("L1c:"), one
 * instruction a line with its address and word as a comment.  Returns the
 * number of raw (undecodable) words.
 */
unsigned ctxprog_disasm(CtxprogArch arch, const uint32_t *words, size_t n,
                        GString *out);

/* Assemble @text (the listing's syntax) into @words (guint32). */
bool ctxprog_asm(CtxprogArch arch, const char *text, GArray *words,
                 GError **errp);

/* ---- the interpreter ----------------------------------------------------- */

/*
 * CTXCTL's state lives in PGRAPH registers, as on the card, reached
 * through @reg_read/@reg_write (the device's register file, no side
 * effects): flags 0x00-0x1f in 0x400310 and 0x20-0x3f in 0x400314, the
 * scratch registers 0x40031c ($sr) and 0x400338, the image pointer
 * 0x400334 (words), the channel registers 0x40032c (current), 0x400330
 * (next) and 0x400784 (the image transfers go to, RAMIN >> 4 in 19:0).
 * Flags 0x40-0x7f are the hardware's (@hw_flag).  @image_rw moves word
 * @index of the image at 0x400784; false: outside instance memory.
 */
typedef struct CtxprogOps {
    uint32_t (*reg_read)(void *opaque, uint32_t reg);
    void (*reg_write)(void *opaque, uint32_t reg, uint32_t val);
    bool (*hw_flag)(void *opaque, unsigned flag);
    bool (*image_rw)(void *opaque, uint32_t image, uint32_t index,
                     uint32_t *val, bool write);
} CtxprogOps;

#define CTXPROG_REG_FLAGS0      0x400310
#define CTXPROG_REG_FLAGS1      0x400314
#define CTXPROG_REG_SR          0x40031c
#define CTXPROG_REG_CUR         0x40032c
#define CTXPROG_REG_NEXT        0x400330
#define CTXPROG_REG_POINTER     0x400334
#define CTXPROG_REG_SR2         0x400338
#define CTXPROG_REG_SWAP        0x400784

typedef enum {
    CTXPROG_STOP_END,       /* cmd end: PC back to 0 */
    CTXPROG_STOP_HALT,      /* cmd halt or intr: PC kept */
    CTXPROG_STOP_STUCK,     /* a wait nothing in the run can satisfy */
    CTXPROG_STOP_STEPS,     /* ran out of steps: a loop that never ends */
    CTXPROG_STOP_PC,        /* ran off the end of the program */
    CTXPROG_STOP_FAULT,     /* a transfer outside PGRAPH or instance memory */
} CtxprogStop;

typedef struct CtxprogRun {
    CtxprogStop stop;
    unsigned pc;            /* of the instruction it stopped at (or after) */
    uint32_t word;          /* that instruction */
    unsigned steps;
    unsigned transfers;     /* registers moved to or from the image */
    unsigned skipped;       /* words run as no-ops: unknown semantics */
    int first_skipped;      /* PC of the first, -1 if none */
} CtxprogRun;

/* Run @prog from @pc for at most @max_steps instructions. */
void ctxprog_run(const uint32_t *prog, size_t n, unsigned pc,
                 unsigned max_steps, const CtxprogOps *ops, void *opaque,
                 CtxprogRun *run);
const char *ctxprog_stop_name(CtxprogStop stop);

/* ---- firmware files ------------------------------------------------------ */

#define CTXPROG_NVCP_SIGNATURE 0x5043564e   /* "NVCP" little endian */
#define CTXPROG_NVCV_SIGNATURE 0x5643564e   /* "NVCV" */

typedef struct CtxprogVal {
    uint32_t offset;        /* word index into the context image */
    uint32_t value;
} CtxprogVal;

/* NVCP: u32 signature, u8 version, u16 length, u32 data[length] */
bool ctxprog_nvcp_read(const uint8_t *data, size_t len, GArray *words,
                       GError **errp);
GByteArray *ctxprog_nvcp_write(const uint32_t *words, size_t n);

/* NVCV: u32 signature, u8 version, u32 length, {u32 offset, value}[length] */
bool ctxprog_nvcv_read(const uint8_t *data, size_t len, GArray *vals,
                       GError **errp);
GByteArray *ctxprog_nvcv_write(const CtxprogVal *vals, size_t n);

/* ---- the generator --------------------------------------------------- */

typedef struct CtxprogChip {
    unsigned chipset;       /* 0x40 ... 0x68, as PMC_BOOT_0 bits 27:20 */
    const char *name;       /* "NV43" */
    unsigned vs_units;      /* vertex shader units, one state area each */
    bool curie;             /* the NV44-class 3D engine (0x4497) */
} CtxprogChip;

/* The NV40-family chipsets nouveau 6.1 knows, in chipset order. */
const CtxprogChip *ctxprog_nv40_chips(size_t *n);
/* "nv43", "NV43", "0x43" or "43"; NULL if no such NV40-family chipset */
const CtxprogChip *ctxprog_nv40_chip(const char *name);

typedef struct CtxprogGen {
    char *source;           /* the program as assembler source */
    GArray *words;          /* guint32: the program */
    GArray *vals;           /* CtxprogVal: non-zero words of a new image */
    uint32_t image_size;    /* bytes of the context image */
} CtxprogGen;

/* The context program of @chip and the initial values of its image. */
bool ctxprog_nv40_generate(const CtxprogChip *chip, CtxprogGen *gen,
                           GError **errp);
void ctxprog_gen_clear(CtxprogGen *gen);

#endif
