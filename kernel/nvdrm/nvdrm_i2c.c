// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the I2C buses of NV04..NV4x, bit-banged through a pair of
 * extended CRTC registers on head A that the VBIOS I2C table names (drive:
 * bit 5 SCL, bit 4 SDA, bit 0 enable; sense: bit 2 SCL, bit 3 SDA), or on
 * C51 through a PCRTC word (DCB type 4), driven by the kernel's
 * i2c-algo-bit.
 */
#include <linux/jiffies.h>

#include "nvdrm_drv.h"

/*
 * C51's ports: a word in head A's PCRTC, SCL out in bit 5 and SDA out in
 * bit 4 (bit 0 kept set), SCL in at bit 18 and SDA in at bit 19.
 */
#define NV4E_I2C(bus)	(0x600800 + (bus)->drive)

static void nvdrm_i2c_drive(struct nvdrm_i2c_bus *bus, u8 bit, int state)
{
	u8 val;

	if (bus->type == NVDRM_I2C_NV4E) {
		val = nv_rd32(bus->ndev, NV4E_I2C(bus)) & (0x30 & ~bit);
		nv_wr32(bus->ndev, NV4E_I2C(bus), val | (state ? bit : 0) | 0x01);
		return;
	}
	val = nvdrm_rd_cr(bus->ndev, 0, bus->drive);

	if (state)
		val |= bit;
	else
		val &= ~bit;
	nvdrm_wr_cr(bus->ndev, 0, bus->drive, val | 0x01);
}

static void nvdrm_i2c_setscl(void *data, int state)
{
	nvdrm_i2c_drive(data, 0x20, state);
}

static void nvdrm_i2c_setsda(void *data, int state)
{
	nvdrm_i2c_drive(data, 0x10, state);
}

static int nvdrm_i2c_getscl(void *data)
{
	struct nvdrm_i2c_bus *bus = data;

	if (bus->type == NVDRM_I2C_NV4E)
		return !!(nv_rd32(bus->ndev, NV4E_I2C(bus)) & BIT(18));
	return !!(nvdrm_rd_cr(bus->ndev, 0, bus->sense) & 0x04);
}

static int nvdrm_i2c_getsda(void *data)
{
	struct nvdrm_i2c_bus *bus = data;

	if (bus->type == NVDRM_I2C_NV4E)
		return !!(nv_rd32(bus->ndev, NV4E_I2C(bus)) & BIT(19));
	return !!(nvdrm_rd_cr(bus->ndev, 0, bus->sense) & 0x08);
}

int nvdrm_i2c_init(struct nvdrm_device *ndev)
{
	int i, ret;

	for (i = 0; i < NVDRM_MAX_I2C; i++) {
		const struct nvdrm_i2c_port *port = &ndev->vbios.i2c[i];
		struct nvdrm_i2c_bus *bus = &ndev->i2c[i];

		if (!port->used)
			continue;
		bus->ndev = ndev;
		bus->type = port->type;
		bus->drive = port->drive;
		bus->sense = port->sense;
		bus->bit = (struct i2c_algo_bit_data) {
			.data = bus,
			.setsda = nvdrm_i2c_setsda,
			.setscl = nvdrm_i2c_setscl,
			.getsda = nvdrm_i2c_getsda,
			.getscl = nvdrm_i2c_getscl,
			.udelay = 10,
			.timeout = usecs_to_jiffies(2200),
		};
		bus->adapter.owner = THIS_MODULE;
		bus->adapter.dev.parent = &ndev->pdev->dev;
		bus->adapter.algo_data = &bus->bit;
		if (port->type == NVDRM_I2C_NV4E)
			snprintf(bus->adapter.name, sizeof(bus->adapter.name),
				 "nvdrm %s bus %d (PCRTC 0x%06x)",
				 pci_name(ndev->pdev), i, NV4E_I2C(bus));
		else
			snprintf(bus->adapter.name, sizeof(bus->adapter.name),
				 "nvdrm %s bus %d (CR%02X/CR%02X)",
				 pci_name(ndev->pdev), i, port->drive,
				 port->sense);
		ret = i2c_bit_add_bus(&bus->adapter);
		if (ret) {
			drm_err(&ndev->drm, "I2C bus %d: %d\n", i, ret);
			nvdrm_i2c_fini(ndev);
			return ret;
		}
		bus->registered = true;
	}
	return 0;
}

void nvdrm_i2c_fini(struct nvdrm_device *ndev)
{
	int i;

	for (i = 0; i < NVDRM_MAX_I2C; i++) {
		if (ndev->i2c[i].registered)
			i2c_del_adapter(&ndev->i2c[i].adapter);
		ndev->i2c[i].registered = false;
	}
}
