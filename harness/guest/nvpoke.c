// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nvpoke: read or write a 32-bit register of the card from the guest,
 * through BAR0 as sysfs maps it (resource0), behind whatever driver is
 * bound: the way a test makes the card do what no driver asked for.
 *
 *   nvpoke ADDR           print the register at BAR0 offset ADDR
 *   nvpoke ADDR VALUE     write VALUE there
 *
 * Numbers in C notation (0x...).  Exits 1 on a bad argument or when no
 * NVIDIA display device is found.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BAR0_SIZE	0x1000000

static int read_hex(const char *path, unsigned long *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return 0;
	ok = fscanf(f, "%lx", val) == 1;
	fclose(f);
	return ok;
}

/* The first NVIDIA (or SGS-Thomson/NVIDIA) device of display class. */
static int find_card(char *path, size_t len)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	unsigned long vendor, class;
	char p[512];

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/vendor", e->d_name);
		if (!read_hex(p, &vendor) || (vendor != 0x10de && vendor != 0x12d2))
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/class", e->d_name);
		if (!read_hex(p, &class) || (class >> 16) != 0x03)
			continue;
		snprintf(path, len, "/sys/bus/pci/devices/%s/resource0", e->d_name);
		closedir(d);
		return 1;
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	char path[600], *end;
	unsigned long addr, val = 0;
	volatile uint32_t *bar0;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: nvpoke ADDR [VALUE]\n");
		return 1;
	}
	addr = strtoul(argv[1], &end, 0);
	if (*end || addr & 3 || addr >= BAR0_SIZE) {
		fprintf(stderr, "nvpoke: %s is not a register offset in BAR0\n", argv[1]);
		return 1;
	}
	if (argc == 3) {
		val = strtoul(argv[2], &end, 0);
		if (*end || val > 0xffffffffUL) {
			fprintf(stderr, "nvpoke: %s is not a 32-bit value\n", argv[2]);
			return 1;
		}
	}
	if (!find_card(path, sizeof(path))) {
		fprintf(stderr, "nvpoke: no NVIDIA display device\n");
		return 1;
	}
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	bar0 = mmap(NULL, BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bar0 == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (argc == 3)
		bar0[addr / 4] = val;
	else
		printf("0x%08x\n", bar0[addr / 4]);
	return 0;
}
