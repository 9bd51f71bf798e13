// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvuevent: pass the kernel's uevents on to libudev's netlink group, as
 * udevd does once it has handled them, in a guest that runs no udevd.
 *
 * Programs that watch devices through libudev (IGT's uevent monitor:
 * hotplug and lease events of DRM devices) listen on the "udev" group
 * (2), which only udevd feeds; the kernel sends to the "kernel" group (1).
 * A message on group 2 is libudev's: a 40-byte header ("libudev", magic
 * 0xfeedcafe, where the properties start and how long they are, and the
 * MurmurHash2 of SUBSYSTEM and DEVTYPE that libudev's socket filter
 * compares; magic and hashes big-endian) and the event's KEY=VALUE
 * strings.  Tags
 * (udev rules' work) are none here.
 *
 * Usage: nvuevent &   (runs until killed)
 */
#include <endian.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define GROUP_KERNEL	1
#define GROUP_UDEV	2
#define UDEV_MAGIC	0xfeedcafeu

struct udev_header {
	char prefix[8];
	uint32_t magic;
	uint32_t header_size;
	uint32_t properties_off;
	uint32_t properties_len;
	uint32_t filter_subsystem_hash;
	uint32_t filter_devtype_hash;
	uint32_t filter_tag_bloom_hi;
	uint32_t filter_tag_bloom_lo;
};

/* MurmurHash2, 32 bits, seed 0: the hash libudev's filters compare. */
static uint32_t murmur2(const char *s)
{
	const uint32_t m = 0x5bd1e995;
	size_t len = strlen(s);
	uint32_t h = (uint32_t)len;
	const unsigned char *p = (const unsigned char *)s;

	while (len >= 4) {
		uint32_t k = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

		k *= m;
		k ^= k >> 24;
		k *= m;
		h *= m;
		h ^= k;
		p += 4;
		len -= 4;
	}
	switch (len) {
	case 3:
		h ^= p[2] << 16;
		/* fall through */
	case 2:
		h ^= p[1] << 8;
		/* fall through */
	case 1:
		h ^= p[0];
		h *= m;
	}
	h ^= h >> 13;
	h *= m;
	h ^= h >> 15;
	return h;
}

/* The value of KEY= among the NUL-separated strings of @props. */
static const char *property(const char *props, size_t len, const char *key)
{
	size_t klen = strlen(key);
	const char *p = props;

	while (p < props + len) {
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
		p += strlen(p) + 1;
	}
	return NULL;
}

int main(void)
{
	struct sockaddr_nl in = { .nl_family = AF_NETLINK, .nl_groups = GROUP_KERNEL };
	struct sockaddr_nl out = { .nl_family = AF_NETLINK, .nl_groups = GROUP_UDEV };
	static char buf[8192];
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0) {
		perror("nvuevent: netlink");
		return 1;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		struct udev_header h = {
			.prefix = "libudev",
			.magic = htobe32(UDEV_MAGIC),
			.header_size = sizeof(h),
			.properties_off = sizeof(h),
		};
		struct iovec iov[2];
		struct msghdr msg = {
			.msg_name = &out, .msg_namelen = sizeof(out),
			.msg_iov = iov, .msg_iovlen = 2,
		};
		const char *props, *subsystem, *devtype;
		size_t hlen, plen;

		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "ACTION@DEVPATH" then the properties; libudev's own
		 * messages (ours, looping back) are not the kernel's */
		hlen = strlen(buf) + 1;
		if (!strchr(buf, '@') || hlen >= (size_t)n)
			continue;
		props = buf + hlen;
		plen = n - hlen;
		subsystem = property(props, plen, "SUBSYSTEM");
		if (!subsystem)
			continue;
		devtype = property(props, plen, "DEVTYPE");
		h.properties_len = plen;
		h.filter_subsystem_hash = htobe32(murmur2(subsystem));
		if (devtype)
			h.filter_devtype_hash = htobe32(murmur2(devtype));
		iov[0].iov_base = &h;
		iov[0].iov_len = sizeof(h);
		iov[1].iov_base = (void *)props;
		iov[1].iov_len = plen;
		/* ECONNREFUSED: nobody listens on the group yet */
		sendmsg(fd, &msg, 0);
	}
}
