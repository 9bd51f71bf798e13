// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvaccel: a DRM client of nouveau's ABI16 interface, run in the guest,
 * that makes the virtual card do work and checks the result itself.
 *
 *   nvaccel copy N        N M2MF copies of random sizes, pitches and
 *                         offsets between VRAM and GART buffers, every
 *                         byte compared with what the CPU expects
 *   nvaccel pingpong N    two channels of two clients take N turns, each
 *                         reading what the other's last turn wrote: each
 *                         waits for the other channel's fence, which
 *                         nouveau implements with PFIFO semaphores on NV17+
 *   nvaccel ctxstate N    two channels each set up an M2MF copy once, then
 *                         launch it N times in turns with nothing else: each
 *                         launch must copy with its own channel's offsets,
 *                         pitches and sizes, which on NV40 live in PGRAPH
 *                         registers only the context program carries across
 *                         the switches between the channels
 *   nvaccel bench MIB     MIB MiB of M2MF copies VRAM -> GART, then the
 *                         same with memcpy, both timed in the guest
 *   nvaccel info          nouveau's GETPARAM answers: chipset, VRAM and
 *                         GART sizes, graphics units
 *   nvaccel hostile KIND  a bad submission (invalid-cmd, bad-handle,
 *                         bad-method, dma-overrun, jump-out), then a good
 *                         copy that must still complete
 *
 * Each prints one line per result, "ok ..." or "FAIL ...", and exits 1 on
 * any failure.  Submission follows libdrm's pre-NV50 pushbuf protocol:
 * commands in a GART buffer object ending in the two words the kernel
 * names as the way back to its ring (suffix0/1), relocations for every
 * buffer offset in a command.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "drm.h"
#include "nouveau_drm.h"

/* ABI16 (nouveau_abi16.h; libdrm's nouveau_drm.h has the same layout) */
struct nvaccel_channel_alloc {
	uint32_t fb_ctxdma_handle;
	uint32_t tt_ctxdma_handle;
	int channel;
	uint32_t pushbuf_domains;
	uint32_t notifier_handle;
	struct {
		uint32_t handle;
		uint32_t grclass;
	} subchan[8];
	uint32_t nr_subchan;
};

struct nvaccel_grobj_alloc {
	int channel;
	uint32_t handle;
	int class;
};

struct nvaccel_getparam {
	uint64_t param;
	uint64_t value;
};

#define GETPARAM_FB_SIZE	8
#define GETPARAM_AGP_SIZE	9
#define GETPARAM_CHIPSET_ID	11
#define GETPARAM_GRAPH_UNITS	13

#define IOCTL_GETPARAM DRM_IOWR(DRM_COMMAND_BASE + DRM_NOUVEAU_GETPARAM, \
				struct nvaccel_getparam)
#define IOCTL_CHANNEL_ALLOC DRM_IOWR(DRM_COMMAND_BASE + DRM_NOUVEAU_CHANNEL_ALLOC, \
				     struct nvaccel_channel_alloc)
#define IOCTL_GROBJ_ALLOC DRM_IOW(DRM_COMMAND_BASE + DRM_NOUVEAU_GROBJ_ALLOC, \
				  struct nvaccel_grobj_alloc)

#define HANDLE_VRAM	0xbeef0201
#define HANDLE_GART	0xbeef0202
#define HANDLE_M2MF	0xbeef3901
#define SUBC_M2MF	4
#define PUSH_WORDS	2048

struct bo {
	int fd;			/* the DRM file @handle belongs to */
	uint32_t handle, domain, size;
	uint64_t map_handle;
	uint8_t *map;
};

struct chan {
	int fd, id;
	struct bo push;
	uint32_t words[PUSH_WORDS];
	unsigned int n;
	uint32_t suffix[2];	/* what ends a push buffer, from the kernel */
	struct drm_nouveau_gem_pushbuf_bo bos[8];
	unsigned int nr_bos;
	struct drm_nouveau_gem_pushbuf_reloc relocs[256];
	unsigned int nr_relocs;
};

static int fd;		/* the client's DRM file; pingpong opens a second */
static uint32_t rng = 0x12345678;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return n ? rng % n : rng;
}

static void die(const char *what)
{
	printf("FAIL %s: %s\n", what, strerror(errno));
	exit(1);
}

static void bo_new_fd(struct bo *bo, int fd, uint32_t domain, uint32_t size)
{
	struct drm_nouveau_gem_new req = {
		.info.size = size, .info.domain = domain, .align = 0x1000,
	};

	if (ioctl(fd, DRM_IOCTL_NOUVEAU_GEM_NEW, &req))
		die("GEM_NEW");
	bo->fd = fd;
	bo->handle = req.info.handle;
	bo->domain = domain;
	bo->size = size;
	bo->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       req.info.map_handle);
	if (bo->map == MAP_FAILED)
		die("mmap");
}

static void bo_new(struct bo *bo, uint32_t domain, uint32_t size)
{
	bo_new_fd(bo, fd, domain, size);
}

/* @bo as another DRM file (another nouveau client) sees it, through PRIME */
static void bo_share(struct bo *view, const struct bo *bo, int fd2)
{
	struct drm_prime_handle req = {
		.handle = bo->handle, .flags = DRM_CLOEXEC | DRM_RDWR,
	};

	if (ioctl(bo->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &req))
		die("PRIME_HANDLE_TO_FD");
	if (ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &req))
		die("PRIME_FD_TO_HANDLE");
	close(req.fd);
	*view = *bo;
	view->fd = fd2;
	view->handle = req.handle;
}

/* wait until the GPU is done with @bo */
static int bo_wait(struct bo *bo)
{
	struct drm_nouveau_gem_cpu_prep req = {
		.handle = bo->handle, .flags = NOUVEAU_GEM_CPU_PREP_WRITE,
	};

	return ioctl(bo->fd, DRM_IOCTL_NOUVEAU_GEM_CPU_PREP, &req);
}

/*
 * How a push buffer must end, as libdrm learns it: an empty submission
 * returns the suffix.  Before NV25 the kernel jumps to the buffer and
 * patches the jump back into the last two words; from NV25 it calls it,
 * and the buffer must end in a return (0x00020000) itself.
 */
static void chan_suffix(struct chan *c)
{
	struct drm_nouveau_gem_pushbuf req = { .channel = c->id };

	if (ioctl(c->fd, DRM_IOCTL_NOUVEAU_GEM_PUSHBUF, &req))
		die("GEM_PUSHBUF (suffix)");
	c->suffix[0] = req.suffix0;
	c->suffix[1] = req.suffix1;
}

static void chan_new_fd(struct chan *c, int fd)
{
	struct nvaccel_channel_alloc req = {
		.fb_ctxdma_handle = HANDLE_VRAM, .tt_ctxdma_handle = HANDLE_GART,
	};
	struct nvaccel_grobj_alloc obj = { .handle = HANDLE_M2MF, .class = 0x39 };

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	if (ioctl(fd, IOCTL_CHANNEL_ALLOC, &req))
		die("CHANNEL_ALLOC");
	c->id = req.channel;
	obj.channel = c->id;
	if (ioctl(fd, IOCTL_GROBJ_ALLOC, &obj))
		die("GROBJ_ALLOC M2MF");
	bo_new_fd(&c->push, fd, NOUVEAU_GEM_DOMAIN_GART, PUSH_WORDS * 4);
	chan_suffix(c);
}

static void chan_new(struct chan *c)
{
	chan_new_fd(c, fd);
}

static unsigned int chan_bo(struct chan *c, struct bo *bo)
{
	unsigned int i;

	for (i = 0; i < c->nr_bos; i++)
		if (c->bos[i].handle == bo->handle)
			return i;
	c->bos[i] = (struct drm_nouveau_gem_pushbuf_bo) {
		.handle = bo->handle,
		.valid_domains = bo->domain,
		.read_domains = bo->domain, .write_domains = bo->domain,
	};
	c->nr_bos++;
	return i;
}

static void out(struct chan *c, uint32_t w)
{
	if (c->n < PUSH_WORDS - 2)
		c->words[c->n++] = w;
}

static void mthd(struct chan *c, int subc, uint32_t m, int count)
{
	out(c, count << 18 | subc << 13 | m);
}

/* a word that the kernel sets to @bo's offset + @delta */
static void out_reloc(struct chan *c, struct bo *bo, uint32_t delta)
{
	struct drm_nouveau_gem_pushbuf_reloc *r = &c->relocs[c->nr_relocs++];

	r->reloc_bo_index = chan_bo(c, &c->push);
	r->reloc_bo_offset = c->n * 4;
	r->bo_index = chan_bo(c, bo);
	r->flags = NOUVEAU_GEM_RELOC_LOW;
	r->data = delta;
	out(c, 0);
}

/* submit; with @wait, until the GPU has run it */
static int kick(struct chan *c, int wait)
{
	unsigned int index = chan_bo(c, &c->push);
	struct drm_nouveau_gem_pushbuf_push push = {
		.bo_index = index, .offset = 0, .length = (c->n + 2) * 4,
	};
	struct drm_nouveau_gem_pushbuf req = {
		.channel = c->id,
		.nr_buffers = c->nr_bos, .buffers = (uintptr_t)c->bos,
		.nr_relocs = c->nr_relocs, .relocs = (uintptr_t)c->relocs,
		.nr_push = 1, .push = (uintptr_t)&push,
	};
	int ret;

	/* the buffer is ours again once the GPU has read the last one */
	bo_wait(&c->push);
	/* the way back to the kernel's ring: a return, or a jump the
	 * kernel rewrites if it has moved */
	memcpy(c->push.map, c->words, c->n * 4);
	memcpy(c->push.map + c->n * 4, c->suffix, 8);
	ret = ioctl(c->fd, DRM_IOCTL_NOUVEAU_GEM_PUSHBUF, &req);
	if (!ret) {
		c->suffix[0] = req.suffix0;
		c->suffix[1] = req.suffix1;
	}
	if (wait)
		bo_wait(&c->push);
	c->n = 0;
	c->nr_bos = 0;
	c->nr_relocs = 0;
	return ret;
}

static void m2mf(struct chan *c, struct bo *src, uint32_t soff, uint32_t spitch,
		 struct bo *dst, uint32_t doff, uint32_t dpitch,
		 uint32_t len, uint32_t lines)
{
	mthd(c, SUBC_M2MF, 0x0000, 1);
	out(c, HANDLE_M2MF);
	mthd(c, SUBC_M2MF, 0x0184, 2);
	out(c, src->domain == NOUVEAU_GEM_DOMAIN_VRAM ? HANDLE_VRAM : HANDLE_GART);
	out(c, dst->domain == NOUVEAU_GEM_DOMAIN_VRAM ? HANDLE_VRAM : HANDLE_GART);
	mthd(c, SUBC_M2MF, 0x030c, 8);
	out_reloc(c, src, soff);
	out_reloc(c, dst, doff);
	out(c, spitch);
	out(c, dpitch);
	out(c, len);
	out(c, lines);
	out(c, 0x101);
	out(c, 0);
	chan_bo(c, src);
	chan_bo(c, dst);
}

/* ---- the modes ------------------------------------------------------ */

#define BO_SIZE (1 << 20)

static int copies(int n)
{
	struct bo vram, gart;
	struct chan c;
	int bad = 0;

	chan_new(&c);
	bo_new(&vram, NOUVEAU_GEM_DOMAIN_VRAM, BO_SIZE);
	bo_new(&gart, NOUVEAU_GEM_DOMAIN_GART, BO_SIZE);
	for (int i = 0; i < n; i++) {
		int up = i & 1;         /* VRAM -> GART, or GART -> VRAM */
		struct bo *src = up ? &gart : &vram, *dst = up ? &vram : &gart;
		uint32_t lines = i == 7 ? 2047 : 1 + rnd(64);
		uint32_t len = i == 7 ? 1 + rnd(200) : 1 + rnd(4000);
		uint32_t spitch = len + rnd(64), dpitch = len + rnd(64);
		uint32_t soff, doff;

		while ((uint64_t)spitch * lines > BO_SIZE / 2 ||
		       (uint64_t)dpitch * lines > BO_SIZE / 2) {
			lines = lines / 2 + 1;
		}
		soff = rnd(BO_SIZE - spitch * lines);
		doff = rnd(BO_SIZE - dpitch * lines);
		for (uint32_t k = 0; k < BO_SIZE; k += 4)
			*(uint32_t *)(src->map + k) = rnd(0);
		memset(dst->map, 0xa5, BO_SIZE);
		m2mf(&c, src, soff, spitch, dst, doff, dpitch, len, lines);
		if (kick(&c, 1) || bo_wait(dst)) {
			printf("FAIL copy %d: submission: %s\n", i, strerror(errno));
			return 1;
		}
		for (uint32_t l = 0; l < lines; l++) {
			if (memcmp(dst->map + doff + l * dpitch,
				   src->map + soff + l * spitch, len)) {
				printf("FAIL copy %d (%s, %u x %u bytes, pitch %u/%u, "
				       "offsets %#x/%#x): line %u differs\n", i,
				       up ? "GART->VRAM" : "VRAM->GART", lines, len,
				       spitch, dpitch, soff, doff, l);
				bad++;
				break;
			}
			if (l + 1 < lines && dpitch > len &&
			    dst->map[doff + l * dpitch + len] != 0xa5) {
				printf("FAIL copy %d: wrote past line %u\n", i, l);
				bad++;
				break;
			}
		}
	}
	if (!bad)
		printf("ok copy %d copies, every byte checked\n", n);
	return !!bad;
}

/*
 * Turn i runs on channel i & 1: long copies that keep the engine busy
 * (so the turn is still running when the next one is submitted), then
 * value i into slot i of S, then slot i - 1 of S, written by the other
 * channel's turn, into slot i of T.  T[i] holds i - 1 only if the kernel
 * made each turn wait for the other channel's.
 *
 * The channels belong to two DRM files, i.e. two nouveau clients, the
 * buffers shared through PRIME: nouveau (nv17_fence_sync) orders channels
 * with PFIFO semaphores on NV17+ only when it can take the other
 * channel's client lock, which the submitting client's own lock rules
 * out for two channels of one client; those, and all channels before
 * NV17, wait on the CPU.
 */
#define SLOT 4096
#define FILLER (512 << 10)
#define FILLER_COPIES 8		/* 8 MiB of traffic: ~8 ms of engine time */

static int pingpong(int n)
{
	struct bo src[2], sbuf[2], tbuf[2], fsrc[2], fdst[2];
	struct chan ch[2];
	int fds[2] = { fd, open("/dev/dri/card0", O_RDWR) };
	int bad = 0;

	if (fds[1] < 0)
		die("open /dev/dri/card0 again");
	chan_new_fd(&ch[0], fds[0]);
	chan_new_fd(&ch[1], fds[1]);
	bo_new(&src[0], NOUVEAU_GEM_DOMAIN_VRAM, (n + 1) * SLOT);
	bo_new(&sbuf[0], NOUVEAU_GEM_DOMAIN_VRAM, (n + 1) * SLOT);
	bo_new(&tbuf[0], NOUVEAU_GEM_DOMAIN_VRAM, (n + 1) * SLOT);
	bo_new(&fsrc[0], NOUVEAU_GEM_DOMAIN_VRAM, FILLER);
	bo_share(&src[1], &src[0], fds[1]);
	bo_share(&sbuf[1], &sbuf[0], fds[1]);
	bo_share(&tbuf[1], &tbuf[0], fds[1]);
	bo_share(&fsrc[1], &fsrc[0], fds[1]);
	for (int k = 0; k < 2; k++)
		bo_new_fd(&fdst[k], fds[k], NOUVEAU_GEM_DOMAIN_VRAM, FILLER);
	for (int i = 0; i <= n; i++)
		memset(src[0].map + i * SLOT, i & 0xff, SLOT);
	memset(sbuf[0].map, 0xa5, (n + 1) * SLOT);
	memset(tbuf[0].map, 0xa5, (n + 1) * SLOT);
	/* slot 0 of S as if a turn -1 had written it */
	memset(sbuf[0].map, 0xff, SLOT);
	for (int i = 1; i <= n; i++) {
		int k = i & 1;
		struct chan *c = &ch[k];

		for (int j = 0; j < FILLER_COPIES; j++)
			m2mf(c, &fsrc[k], 0, 4096, &fdst[k], 0, 4096, 4096,
			     FILLER / 4096);
		m2mf(c, &src[k], i * SLOT, SLOT, &sbuf[k], i * SLOT, SLOT, SLOT, 1);
		m2mf(c, &sbuf[k], (i - 1) * SLOT, SLOT, &tbuf[k], i * SLOT, SLOT,
		     SLOT, 1);
		if (kick(c, 0)) {
			printf("FAIL pingpong %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	if (bo_wait(&tbuf[0]))
		die("wait");
	for (int i = 1; i <= n && bad < 5; i++) {
		uint8_t want = i == 1 ? 0xff : (i - 1) & 0xff;
		uint8_t *t = tbuf[0].map + i * SLOT;

		if (t[0] != want || t[SLOT - 1] != want) {
			printf("FAIL pingpong turn %d on channel %d read %#x from the "
			       "other channel's turn, want %#x\n", i, ch[i & 1].id,
			       t[0], want);
			bad++;
		}
	}
	if (!bad)
		printf("ok pingpong %d turns between channels %d and %d of two "
		       "clients, each after the other's\n", n, ch[0].id, ch[1].id);
	return !!bad;
}

/*
 * Channel k's copy: its own source and destination offsets, pitches, line
 * length and count, all different from the other channel's, so that a
 * launch made with the other's state writes the wrong bytes or places.
 */
static const struct {
	uint32_t soff, spitch, doff, dpitch, len, lines;
} ctxstate_copy[2] = {
	{ 0x0100, 512, 0x0040, 400, 300, 20 },
	{ 0x2000, 1024, 0x0800, 768, 700, 9 },
};

#define CTXSTATE_SIZE 0x8000

static int ctxstate_check(int turn, int k, struct bo *src, struct bo *dst)
{
	uint32_t want = ctxstate_copy[k].doff, l;

	for (l = 0; l < ctxstate_copy[k].lines; l++) {
		uint32_t d = ctxstate_copy[k].doff + l * ctxstate_copy[k].dpitch;
		uint32_t s = ctxstate_copy[k].soff + l * ctxstate_copy[k].spitch;

		if (memcmp(dst->map + d, src->map + s, ctxstate_copy[k].len))
			break;
		want = d + ctxstate_copy[k].len;
	}
	if (l == ctxstate_copy[k].lines) {
		/* and nothing else written: the bytes around the lines */
		for (uint32_t i = 0; i < CTXSTATE_SIZE; i++) {
			uint32_t at = i - ctxstate_copy[k].doff;

			if (at < ctxstate_copy[k].lines * ctxstate_copy[k].dpitch &&
			    at % ctxstate_copy[k].dpitch < ctxstate_copy[k].len)
				continue;
			if (dst->map[i] != 0xa5) {
				printf("FAIL ctxstate turn %d, channel %d: byte %#x "
				       "written outside its copy\n", turn, k, i);
				return 1;
			}
		}
		return 0;
	}
	printf("FAIL ctxstate turn %d, channel %d: line %u of its copy differs "
	       "(good up to %#x): the launch did not use its own state\n",
	       turn, k, l, want);
	return 1;
}

static int ctxstate(int n)
{
	struct bo src[2], dst[2];
	struct chan ch[2];
	int fds[2] = { fd, open("/dev/dri/card0", O_RDWR) };
	int bad = 0;

	if (fds[1] < 0)
		die("open /dev/dri/card0 again");
	for (int k = 0; k < 2; k++) {
		chan_new_fd(&ch[k], fds[k]);
		bo_new_fd(&src[k], fds[k], NOUVEAU_GEM_DOMAIN_VRAM, CTXSTATE_SIZE);
		bo_new_fd(&dst[k], fds[k], NOUVEAU_GEM_DOMAIN_GART, CTXSTATE_SIZE);
	}
	for (int i = 0; i < 2 * n && bad < 5; i++) {
		int k = i & 1;
		struct chan *c = &ch[k];

		/* new bytes each turn: a stale copy cannot pass */
		for (uint32_t j = 0; j < CTXSTATE_SIZE; j += 4)
			*(uint32_t *)(src[k].map + j) = rnd(0);
		memset(dst[k].map, 0xa5, CTXSTATE_SIZE);
		if (i < 2) {
			/* the state, once: the object, DMA objects, the copy */
			m2mf(c, &src[k], ctxstate_copy[k].soff,
			     ctxstate_copy[k].spitch, &dst[k],
			     ctxstate_copy[k].doff, ctxstate_copy[k].dpitch,
			     ctxstate_copy[k].len, ctxstate_copy[k].lines);
		} else {
			/* the launch alone (BUFFER_NOTIFY), on what the channel
			 * set up before the other's turns */
			mthd(c, SUBC_M2MF, 0x0328, 1);
			out(c, 0);
			chan_bo(c, &src[k]);
			chan_bo(c, &dst[k]);
		}
		if (kick(c, 1) || bo_wait(&dst[k])) {
			printf("FAIL ctxstate turn %d: submission: %s\n", i,
			       strerror(errno));
			return 1;
		}
		bad += ctxstate_check(i, k, &src[k], &dst[k]);
	}
	if (!bad)
		printf("ok ctxstate %d launches on channels %d and %d in turns, each "
		       "with its own state\n", 2 * n, ch[0].id, ch[1].id);
	return !!bad;
}

static int hostile(const char *kind)
{
	struct bo vram, gart;
	struct chan c;
	int ret;

	chan_new(&c);
	bo_new(&vram, NOUVEAU_GEM_DOMAIN_VRAM, 0x10000);
	bo_new(&gart, NOUVEAU_GEM_DOMAIN_GART, 0x10000);
	if (!strcmp(kind, "invalid-cmd")) {
		out(&c, 0xe0000003);
	} else if (!strcmp(kind, "bad-handle")) {
		mthd(&c, 3, 0x0000, 1);
		out(&c, 0xdeadbeef);
	} else if (!strcmp(kind, "bad-method")) {
		mthd(&c, SUBC_M2MF, 0x0000, 1);
		out(&c, HANDLE_M2MF);
		mthd(&c, SUBC_M2MF, 0x1234 & ~3, 1);
		out(&c, 0xcafe);
	} else if (!strcmp(kind, "dma-overrun")) {
		/* a copy of 64 KiB lines beyond the end of every buffer */
		m2mf(&c, &vram, 0, 0x10000, &gart, 0, 0x10000, 0x10000, 2047);
		c.relocs[c.nr_relocs - 1].data = 0xfff00000;
	} else if (!strcmp(kind, "jump-out")) {
		out(&c, 0x20000000 | 0x1ffff000);
	} else {
		printf("FAIL hostile: no kind %s\n", kind);
		return 1;
	}
	ret = kick(&c, 0);
	printf("ok hostile %s submitted (%d)\n", kind, ret);
	sleep(1);

	/* the channel, or a new one, still works.  The bad submission's
	 * fence may never come (the driver skips the rest of a broken push
	 * buffer): a fresh push buffer, and the good copy's later fence
	 * releases it */
	bo_new(&c.push, NOUVEAU_GEM_DOMAIN_GART, PUSH_WORDS * 4);
	memset(vram.map, 0x5a, 64);
	memset(gart.map, 0, 64);
	m2mf(&c, &vram, 0, 64, &gart, 0, 64, 64, 1);
	if (kick(&c, 1) || bo_wait(&gart) || gart.map[63] != 0x5a) {
		struct chan d;

		chan_new(&d);
		m2mf(&d, &vram, 0, 64, &gart, 0, 64, 64, 1);
		if (kick(&d, 1) || bo_wait(&gart) || gart.map[63] != 0x5a) {
			printf("FAIL hostile %s: a good copy after it did not complete\n",
			       kind);
			return 1;
		}
		printf("ok hostile %s: a new channel copies\n", kind);
		return 0;
	}
	printf("ok hostile %s: the channel copies afterwards\n", kind);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* M2MF copies of @mib MiB VRAM -> GART against memcpy of the same, in
 * guest (virtual) time */
static int bench(int mib)
{
	uint32_t size = 4 << 20, lines = size / 4096;
	struct bo vram, gart;
	struct chan c;
	double t0, gpu, cpu;
	int reps = mib / 4 > 0 ? mib / 4 : 1;

	chan_new(&c);
	bo_new(&vram, NOUVEAU_GEM_DOMAIN_VRAM, size);
	bo_new(&gart, NOUVEAU_GEM_DOMAIN_GART, size);
	memset(vram.map, 0x3c, size);
	t0 = now_s();
	for (int i = 0; i < reps; i++) {
		for (uint32_t l = 0; l < lines; l += 2047) {
			uint32_t n = lines - l < 2047 ? lines - l : 2047;

			m2mf(&c, &vram, l * 4096, 4096, &gart, l * 4096, 4096, 4096, n);
		}
		if (kick(&c, 1) || bo_wait(&gart))
			die("bench submission");
	}
	gpu = now_s() - t0;
	if (gart.map[size - 1] != 0x3c)
		printf("FAIL bench: the copy did not arrive\n");
	t0 = now_s();
	for (int i = 0; i < reps; i++)
		memcpy(gart.map, vram.map, size);
	cpu = now_s() - t0;
	printf("ok bench %d MiB: m2mf %.1f MiB/s, memcpy %.1f MiB/s\n",
	       reps * 4, reps * 4 / gpu, reps * 4 / cpu);
	return 0;
}

/* what nouveau tells its clients about the card (GETPARAM) */
static int info(void)
{
	static const struct { uint64_t param; const char *name; } params[] = {
		{ GETPARAM_CHIPSET_ID, "chipset" },
		{ GETPARAM_FB_SIZE, "fb_size" },
		{ GETPARAM_AGP_SIZE, "gart_size" },
		{ GETPARAM_GRAPH_UNITS, "graph_units" },
	};

	for (unsigned int i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		struct nvaccel_getparam req = { .param = params[i].param };

		if (ioctl(fd, IOCTL_GETPARAM, &req))
			die(params[i].name);
		printf("ok info %s 0x%llx\n", params[i].name,
		       (unsigned long long)req.value);
	}
	return 0;
}

int main(int argc, char **argv)
{
	fd = open("/dev/dri/card0", O_RDWR);
	if (fd < 0)
		die("open /dev/dri/card0");
	if (argc == 3 && !strcmp(argv[1], "copy"))
		return copies(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "pingpong"))
		return pingpong(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "ctxstate"))
		return ctxstate(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "hostile"))
		return hostile(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "bench"))
		return bench(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "info"))
		return info();
	fprintf(stderr, "usage: nvaccel copy N | pingpong N | ctxstate N | hostile KIND | "
		"bench MIB | info\n");
	return 2;
}
