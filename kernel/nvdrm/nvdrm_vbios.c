// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvdrm: the VBIOS, read from the PROM window of BAR0 with the ROM shadow
 * bit (PCI config 0x50, mirrored at 0x1850) cleared, or on IGPs, which
 * have no ROM there, from the PCI ROM the system firmware provides; then
 * validated: ROM signature, PCI data structure, image size and the 8-bit
 * checksum.  Then the tables mode setting needs: the BMP or BIT header,
 * the DCB outputs and I2C ports (DCB 1.5 to 4.0), and the PLL limits (1.x
 * and 2.x).  This is the kernel's own parser; the tests check it against
 * libnvbios on the same board images.
 */
#include <linux/limits.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "nvdrm_drv.h"

static u16 rd16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

/* Bounds-checked reads of the image; 0 outside it. */
static u8 vb08(const struct nvdrm_vbios *vb, u32 off)
{
	return off < vb->size ? vb->data[off] : 0;
}

static u16 vb16(const struct nvdrm_vbios *vb, u32 off)
{
	return vb08(vb, off) | vb08(vb, off + 1) << 8;
}

static u32 vb32(const struct nvdrm_vbios *vb, u32 off)
{
	return vb16(vb, off) | (u32)vb16(vb, off + 2) << 16;
}

static u16 find(const u8 *data, size_t size, const char *sig, size_t len)
{
	size_t i;

	for (i = 0; i + len <= size && i < 0x10000; i++)
		if (!memcmp(data + i, sig, len))
			return i;
	return 0;
}

static int nvdrm_vbios_check(struct nvdrm_device *ndev, const u8 *rom,
			     size_t *size)
{
	struct device *dev = &ndev->pdev->dev;
	u16 pcir;
	size_t i, len;
	u8 sum = 0;

	if (rd16(rom) != 0xaa55) {
		dev_err(dev, "VBIOS: ROM signature 0x%04x, expected 0xaa55\n",
			rd16(rom));
		return -EINVAL;
	}
	pcir = rd16(rom + 0x18);
	if (pcir + 0x18 > NV_PROM_SIZE || memcmp(rom + pcir, "PCIR", 4)) {
		dev_err(dev, "VBIOS: no PCI data structure at 0x%x\n", pcir);
		return -EINVAL;
	}
	len = rd16(rom + pcir + 0x10) * 512;
	if (!len || len > NV_PROM_SIZE) {
		dev_err(dev, "VBIOS: image size %zu is not valid\n", len);
		return -EINVAL;
	}
	for (i = 0; i < len; i++)
		sum += rom[i];
	if (sum) {
		dev_err(dev, "VBIOS: bad checksum (sum 0x%02x over %zu bytes)\n",
			sum, len);
		return -EINVAL;
	}
	ndev->vbios.pci_device = rd16(rom + pcir + 6);
	*size = len;
	return 0;
}

/* The PROM window, with the ROM shadow bit cleared while it is read. */
static void nvdrm_vbios_read_prom(struct nvdrm_device *ndev, u8 *rom)
{
	u32 shadow = nv_rd32(ndev, NV_PBUS_PCI_NV_20);
	size_t i, want;

	nv_wr32(ndev, NV_PBUS_PCI_NV_20, shadow & ~1);
	/* the header first, then as much as the image says it is */
	for (i = 0; i < 0x200; i += 4)
		*(u32 *)(rom + i) = nv_rd32(ndev, NV_PROM + i);
	want = SZ_64K;
	if (rd16(rom) == 0xaa55)
		want = clamp_t(size_t, rom[2] * 512, SZ_64K, NV_PROM_SIZE);
	for (; i < want; i += 4)
		*(u32 *)(rom + i) = nv_rd32(ndev, NV_PROM + i);
	nv_wr32(ndev, NV_PBUS_PCI_NV_20, shadow | 1);
}

/*
 * An IGP's image, from what the PCI core maps as the device's ROM: for
 * the boot VGA device that is the copy the system firmware left at
 * 0xc0000.  What is not there reads as zeroes (and fails the check).
 */
static int nvdrm_vbios_read_pci_rom(struct nvdrm_device *ndev, u8 *rom)
{
	struct pci_dev *pdev = ndev->pdev;
	void __iomem *image;
	size_t size;

	image = pci_map_rom(pdev, &size);
	if (!image) {
		dev_err(&pdev->dev, "VBIOS: the PCI ROM cannot be mapped\n");
		return -ENODEV;
	}
	memset(rom, 0, NV_PROM_SIZE);
	memcpy_fromio(rom, image, min_t(size_t, size, NV_PROM_SIZE));
	pci_unmap_rom(pdev, image);
	return 0;
}

int nvdrm_vbios_load(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	struct nvdrm_vbios *vb = &ndev->vbios;
	size_t size;
	u8 *rom;
	int ret = 0;

	rom = kvmalloc(NV_PROM_SIZE, GFP_KERNEL);
	if (!rom)
		return -ENOMEM;

	if (ndev->chip->igp) {
		vb->source = "PCI ROM";
		ret = nvdrm_vbios_read_pci_rom(ndev, rom);
	} else {
		vb->source = "PROM";
		nvdrm_vbios_read_prom(ndev, rom);
	}
	if (ret) {
		kvfree(rom);
		return ret;
	}

	ret = nvdrm_vbios_check(ndev, rom, &size);
	if (ret) {
		kvfree(rom);
		return ret;
	}
	vb->data = rom;
	vb->size = size;
	vb->bmp_offset = find(rom, size, "\xff\x7fNV\0", 5);
	if (vb->bmp_offset) {
		vb->bmp_major = rom[vb->bmp_offset + 5];
		vb->bmp_minor = rom[vb->bmp_offset + 6];
	}
	vb->bit_offset = find(rom, size, "\xff\xb8\x42IT", 5);	/* 0x42 = B */
	if (!vb->bmp_offset && !vb->bit_offset)
		dev_warn(dev, "VBIOS: neither BMP nor BIT found\n");
	return 0;
}

/* The BIT entry @id: its data pointer and length, or 0. */
static u16 bit_entry(const struct nvdrm_vbios *vb, char id, u8 *version,
		     u16 *length)
{
	u32 o = vb->bit_offset;
	u8 n = vb08(vb, o + 10), size = vb08(vb, o + 9);
	u32 e;

	for (e = o + 12; n-- && size >= 6; e += size) {
		if (vb08(vb, e) == id) {
			*version = vb08(vb, e + 1);
			*length = vb16(vb, e + 2);
			return vb16(vb, e + 4);
		}
	}
	return 0;
}

static void parse_bmp(struct nvdrm_vbios *vb)
{
	u32 o = vb->bmp_offset;
	u16 ver = vb->bmp_major << 8 | vb->bmp_minor;

	vb->chip_version = vb08(vb, o + 12);
	vb->major_version = vb08(vb, o + 13);
	/* the init script table: +18, from BMP 5.10 in the init table at +75 */
	vb->script_table = vb16(vb, o + (ver >= 0x0510 ? 75 : 18));
	vb->fmaxvco = 256000;
	vb->fminvco = 128000;
	if (ver >= 0x0506) {
		vb->fmaxvco = vb32(vb, o + 67);
		vb->fminvco = vb32(vb, o + 71);
	}
	if (vb->bmp_major >= 4) {
		vb->i2c_crt = vb08(vb, o + 54);
		vb->i2c_tv = vb08(vb, o + 55);
	} else {
		vb->i2c_crt = vb08(vb, 0x48);
		vb->i2c_tv = vb08(vb, 0x49);
	}
	/* from BMP 5.11 on: the TMDS clock tables, the flat panel table */
	if (ver > 0x0510) {
		vb->tmds_table[0] = vb16(vb, o + 89);
		vb->tmds_table[1] = vb16(vb, o + 91);
		vb->fp_table = vb16(vb, o + 105);
	}
}

/* BIT 'T' (TMDS table 1.1: the clock tables at +11, +13), 'D' (+2: the
 * flat panel table).
 */
static void parse_bit_digital(struct nvdrm_vbios *vb)
{
	u16 length, t;
	u8 version;

	t = bit_entry(vb, 'T', &version, &length);
	if (t && length >= 2) {
		t = vb16(vb, t);
		if (t && vb08(vb, t) == 0x11) {
			vb->tmds_table[0] = vb16(vb, t + 11);
			vb->tmds_table[1] = vb16(vb, t + 13);
		}
	}
	t = bit_entry(vb, 'D', &version, &length);
	if (t && length >= 4)
		vb->fp_table = vb16(vb, t + 2);
}

/*
 * The LVDS table 3.0 of an NV4x mobile part (BIT 'L'), as nouveau reads it
 * (parse_fp_mode_table, nouveau_bios_parse_lvds_table): records by the FP
 * strap (PEXTDEV_BOOT_0 19:16), each {conf, flat panel mode index}.  A
 * strap and index of 0xf both mean a panel with an EDID on DDC; otherwise
 * the index names the panel's mode in the 2.0 flat panel table.
 */
static void parse_lvds(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	struct nvdrm_vbios *vb = &ndev->vbios;
	u16 t, length, fp = vb->fp_table;
	u8 version, hdr, len, idx;

	t = bit_entry(vb, 'L', &version, &length);
	if (!vb->mobile || !t || length < 2 || !vb16(vb, t))
		return;
	t = vb16(vb, t);
	if (vb08(vb, t) != 0x30) {
		dev_info(dev, "VBIOS: LVDS table version 0x%02x not driven\n",
			 vb08(vb, t));
		return;
	}
	hdr = vb08(vb, t + 1);
	len = vb08(vb, t + 2);
	vb->fp_strap = (nv_rd32(ndev, NV_PEXTDEV_BOOT_0) >> 16) & 0xf;
	if (hdr < 0x1f || len < 2 || vb->fp_strap >= vb08(vb, t + 3) ||
	    t + hdr + len * (vb->fp_strap + 1) > vb->size) {
		dev_warn(dev, "VBIOS: LVDS table at 0x%04x not understood\n", t);
		return;
	}
	vb->lvds_table = t;
	vb->lvds_24bit_mask = vb08(vb, t + 4);
	vb->lvds_duallink_khz = vb16(vb, t + 5) * 10;
	vb->lvds_conf = vb08(vb, t + hdr + len * vb->fp_strap);
	idx = vb08(vb, t + hdr + len * vb->fp_strap + 1);
	vb->fp_no_ddc = vb->fp_strap != 0xf || idx != 0xf;
	if (vb->fp_strap != 0xf && idx != 0xf && fp &&
	    vb08(vb, fp) == 0x20 && idx < vb08(vb, fp + 3) &&
	    fp + vb08(vb, fp + 1) + vb08(vb, fp + 2) * (idx + 1) <= vb->size &&
	    vb08(vb, fp + 2) >= 37)
		vb->fp_mode = fp + vb08(vb, fp + 1) + vb08(vb, fp + 2) * idx;
	dev_info(dev, "LVDS table 3.0 at 0x%04x: dual link from %u kHz, strap %u: conf 0x%02x, fp mode %u%s\n",
		 t, vb->lvds_duallink_khz, vb->fp_strap, vb->lvds_conf, idx,
		 vb->fp_no_ddc ? "" : ", panel EDID on DDC");
}

/* DCB 1.5 packs an output differently: decode it as DCB 2.0 fields. */
static int dcb15_output(struct nvdrm_dcb_output *o)
{
	switch (o->conn & 0xf) {
	case 0:
		o->type = NVDRM_OUTPUT_ANALOG;
		break;
	case 1:
		o->type = NVDRM_OUTPUT_TV;
		break;
	case 2:
	case 4:
		o->type = o->conn & 0x10 ? NVDRM_OUTPUT_LVDS : NVDRM_OUTPUT_TMDS;
		break;
	case 3:
		o->type = NVDRM_OUTPUT_LVDS;
		break;
	default:
		return -EINVAL;
	}
	o->i2c = (o->conn >> 14) & 0xf;
	o->heads = ((o->conn >> 18) & 0x7) + 1;
	o->or = o->heads;
	o->location = (o->conn >> 21) & 0xf;
	o->connector = 0;
	return 0;
}

static int parse_dcb(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	struct nvdrm_vbios *vb = &ndev->vbios;
	u32 dcb = vb16(vb, 0x36), i2c, hdr, len, cnt, i;
	u8 ver;

	if (!dcb || dcb + 8 > vb->size)
		return 0;
	ver = vb08(vb, dcb);
	if (ver >= 0x30 && ver < 0x42 && vb32(vb, dcb + 6) == 0x4edcbdcb) {
		hdr = vb08(vb, dcb + 1);
		cnt = vb08(vb, dcb + 2);
		len = vb08(vb, dcb + 3);
		i2c = vb16(vb, dcb + 4);
	} else if (ver >= 0x20 && ver < 0x30 &&
		   vb32(vb, dcb + 4) == 0x4edcbdcb) {
		i2c = vb16(vb, dcb + 2);
		hdr = 8;
		len = 8;
		cnt = i2c > dcb ? (i2c - dcb) / 8 : 0;
	} else if (ver >= 0x15 && ver < 0x20 && dcb >= 7 &&
		   !memcmp(vb->data + dcb - 7, "DEV_REC", 7)) {
		i2c = vb16(vb, dcb + 2);
		hdr = 4;
		len = 10;
		cnt = i2c > dcb ? (i2c - dcb) / 10 : 0;
	} else {
		dev_warn(dev, "VBIOS: DCB version 0x%02x at 0x%04x not usable\n",
			 ver, dcb);
		return 0;
	}
	if (len < 8) {
		dev_err(dev, "VBIOS: DCB entry size %u too small\n", len);
		return -EINVAL;
	}
	vb->dcb_version = ver;

	for (i = 0; i < cnt && vb->n_outputs < NVDRM_MAX_OUTPUTS; i++) {
		u32 e = dcb + hdr + i * len;
		struct nvdrm_dcb_output *o = &vb->outputs[vb->n_outputs];

		if (e + len > vb->size)
			break;
		o->conn = vb32(vb, e);
		if (!o->conn || o->conn == 0xffffffff || (o->conn & 0xf) == 0xe)
			break;
		if ((o->conn & 0xf) == 0xf)
			continue;
		if (ver >= 0x20) {
			o->conf = vb32(vb, e + 4);
			o->type = o->conn & 0xf;
			o->i2c = (o->conn >> 4) & 0xf;
			o->heads = (o->conn >> 8) & 0xf;
			o->connector = (o->conn >> 12) & 0xf;
			o->location = (o->conn >> 20) & 0x3;
			o->or = (o->conn >> 24) & 0xf;
		} else {
			o->conf = vb32(vb, e + 6);
			if (dcb15_output(o)) {
				dev_err(dev, "VBIOS: DCB 1.5 entry %u has unknown type %u\n",
					i, o->conn & 0xf);
				return -EINVAL;
			}
		}
		if (o->type > NVDRM_OUTPUT_LVDS) {
			dev_info(dev, "VBIOS: DCB entry %u: type %u ignored\n",
				 i, o->type);
			continue;
		}
		dev_info(dev, "DCB outp %02u: %08x %08x\n", i, o->conn, o->conf);
		vb->n_outputs++;
	}

	/* I2C ports: before 3.0 16 headerless entries of 4 bytes */
	if (i2c && i2c + 4 <= vb->size) {
		u32 ihdr = 0, icnt = 16, ilen = 4;

		if (ver >= 0x30) {
			ihdr = vb08(vb, i2c + 1);
			icnt = vb08(vb, i2c + 2);
			ilen = vb08(vb, i2c + 3);
		}
		for (i = 0; i < icnt && i < NVDRM_MAX_I2C && ilen >= 4; i++) {
			u32 e = i2c + ihdr + i * ilen;
			u8 type = vb08(vb, e + 3);

			if (ver < 0x30)
				type &= 7;
			if (type == NVDRM_I2C_NV04) {
				vb->i2c[i].drive = vb08(vb, e);
				vb->i2c[i].sense = vb08(vb, e + 1);
			} else if (type == NVDRM_I2C_NV4E) {
				/* one word, at 0x600800 + byte 1 */
				vb->i2c[i].drive = vb08(vb, e + 1);
				vb->i2c[i].sense = vb->i2c[i].drive;
			} else {
				continue;
			}
			vb->i2c[i].type = type;
			vb->i2c[i].used = true;
		}
	}
	return 0;
}

/* No DCB (the TNT family, which nouveau does not read it on either): a CRT
 * on the BMP's CRT I2C pair, at the BMP's or the usual CRTC indices.
 */
static void fabricate_outputs(struct nvdrm_device *ndev)
{
	struct nvdrm_vbios *vb = &ndev->vbios;
	u32 ent = vb->bmp_major < 4 ? 0x48 : vb->bmp_offset + 0x36;
	static const u8 defaults[2][2] = { { 0x3f, 0x3e }, { 0x37, 0x36 } };
	int i;

	vb->n_outputs = 0;
	for (i = 0; i < 2; i++) {
		u8 drive = vb->bmp_offset ? vb08(vb, ent + 4 + 2 * i) : 0;
		u8 sense = vb->bmp_offset ? vb08(vb, ent + 5 + 2 * i) : 0;

		vb->i2c[i].type = NVDRM_I2C_NV04;
		vb->i2c[i].drive = drive ? drive : defaults[i][0];
		vb->i2c[i].sense = sense ? sense : defaults[i][1];
		vb->i2c[i].used = true;
	}
	vb->outputs[0] = (struct nvdrm_dcb_output) {
		.type = NVDRM_OUTPUT_ANALOG,
		.i2c = vb->i2c_crt < NVDRM_MAX_I2C ? vb->i2c_crt : 0,
		.heads = 1,
		.or = 1,
	};
	vb->n_outputs = 1;
}

static void pll_v1(const struct nvdrm_vbios *vb, u32 o,
		   struct nvdrm_pll_limits *p)
{
	p->vco1_min = vb32(vb, o + 0);
	p->vco1_max = vb32(vb, o + 4);
	p->vco2_min = vb32(vb, o + 8);
	p->vco2_max = vb32(vb, o + 12);
	p->vco1_min_in = vb32(vb, o + 16);
	p->vco2_min_in = vb32(vb, o + 20);
}

static void pll_v2(const struct nvdrm_vbios *vb, u32 o, u8 len,
		   struct nvdrm_pll_limits *p)
{
	p->reg = vb32(vb, o);
	p->vco1_min = vb16(vb, o + 4) * 1000;
	p->vco1_max = vb16(vb, o + 6) * 1000;
	p->vco2_min = vb16(vb, o + 8) * 1000;
	p->vco2_max = vb16(vb, o + 10) * 1000;
	p->vco1_min_in = vb16(vb, o + 12) * 1000;
	p->vco2_min_in = vb16(vb, o + 14) * 1000;
	p->vco1_max_in = vb16(vb, o + 16) * 1000;
	p->vco2_max_in = vb16(vb, o + 18) * 1000;
	p->vco1_min_n = vb08(vb, o + 20);
	p->vco1_max_n = vb08(vb, o + 21);
	p->vco1_min_m = vb08(vb, o + 22);
	p->vco1_max_m = vb08(vb, o + 23);
	p->vco2_min_n = vb08(vb, o + 24);
	p->vco2_max_n = vb08(vb, o + 25);
	p->vco2_min_m = vb08(vb, o + 26);
	p->vco2_max_m = vb08(vb, o + 27);
	p->max_p = vb08(vb, o + 29);
	if (len > 0x22)
		p->refclk = vb32(vb, o + 31);
}

/* PLL limits: BIT 'C' (version 1: pointer at +8), or BMP 5.24+ at +142. */
static int parse_pll(struct nvdrm_device *ndev)
{
	struct device *dev = &ndev->pdev->dev;
	struct nvdrm_vbios *vb = &ndev->vbios;
	u32 o = 0, i;
	u8 version, hdr, len, cnt;
	u16 length, c;

	if (vb->bit_offset) {
		c = bit_entry(vb, 'C', &version, &length);
		if (c && version == 1 && length >= 10)
			o = vb16(vb, c + 8);
	} else if (vb->bmp_offset &&
		   (vb->bmp_major << 8 | vb->bmp_minor) >= 0x0524) {
		o = vb16(vb, vb->bmp_offset + 142);
	}
	if (!o)
		return 0;
	if (o + 25 > vb->size) {
		dev_err(dev, "VBIOS: PLL limits table at 0x%x is outside the image\n",
			o);
		return -EINVAL;
	}
	vb->pll_version = vb08(vb, o);
	switch (vb->pll_version) {
	case 0x00:
		break;
	case 0x10:
	case 0x11:
		pll_v1(vb, o + 1, &vb->pll[0]);
		vb->n_pll = 1;
		break;
	case 0x20:
	case 0x21:
		hdr = vb08(vb, o + 1);
		len = vb08(vb, o + 2);
		cnt = vb08(vb, o + 3);
		if (len < 31 || o + hdr + cnt * len > vb->size) {
			dev_err(dev, "VBIOS: PLL limits 2.x table at 0x%x is malformed\n",
				o);
			return -EINVAL;
		}
		for (i = 0; i < cnt && vb->n_pll < ARRAY_SIZE(vb->pll); i++)
			pll_v2(vb, o + hdr + i * len, len, &vb->pll[vb->n_pll++]);
		break;
	default:
		dev_err(dev, "VBIOS: PLL limits version 0x%02x unknown\n",
			vb->pll_version);
		return -EINVAL;
	}
	for (i = 0; i < vb->n_pll; i++)
		dev_info(dev, "PLL limits 0x%06x: VCO1 %u-%u kHz, VCO2 %u-%u kHz\n",
			 vb->pll[i].reg, vb->pll[i].vco1_min, vb->pll[i].vco1_max,
			 vb->pll[i].vco2_min, vb->pll[i].vco2_max);
	return 0;
}

int nvdrm_vbios_parse(struct nvdrm_device *ndev)
{
	struct nvdrm_vbios *vb = &ndev->vbios;
	int ret;

	if (vb->bmp_offset)
		parse_bmp(vb);
	if (vb->bit_offset) {
		u8 version;
		u16 length, i = bit_entry(vb, 'i', &version, &length);

		u16 init = bit_entry(vb, 'I', &version, &length);

		if (init && length >= 2)
			vb->script_table = vb16(vb, init);
		i = bit_entry(vb, 'i', &version, &length);
		if (i && length >= 4) {
			vb->chip_version = vb08(vb, i + 2);
			vb->major_version = vb08(vb, i + 3);
		}
		if (i && length >= 6)
			vb->mobile = vb08(vb, i + 5) & 0x10;
		/* the DAC load comparison table: version, header size, then
		 * the CRT and TV test values
		 */
		if (i && length >= 15) {
			u16 cmp = vb16(vb, i + 13);
			u8 ver = vb08(vb, cmp);

			if (cmp && (ver == 0x00 || ver == 0x10))
				vb->dactestval = vb32(vb, cmp + vb08(vb, cmp + 1));
		}
	}
	if (vb->bit_offset)
		parse_bit_digital(vb);
	/* the flat panel timing generator's minimum front porch, as nouveau
	 * finds it: 0x4b for a BMP; for a BIT none before VBIOS 5.x (the flat
	 * panel table is read only on mobile parts); a 2.0 flat panel table
	 * says, else 0x4b
	 */
	vb->digital_min_front_porch = 0x4b;
	if (!vb->bmp_offset && vb->major_version < 5)
		vb->digital_min_front_porch = 0;
	else if (vb->fp_table && vb08(vb, vb->fp_table) == 0x20)
		vb->digital_min_front_porch = vb08(vb, vb->fp_table + 4);
	if (vb->bit_offset)
		parse_lvds(ndev);
	if (ndev->chip->chipset >= 0x10) {
		ret = parse_dcb(ndev);
		if (ret)
			return ret;
	}
	if (!vb->n_outputs)
		fabricate_outputs(ndev);
	return parse_pll(ndev);
}

/*
 * The limits for the PLL at @reg, completed with the chip defaults nouveau
 * uses where the table leaves fields out (nvbios_pll_parse).
 */
const struct nvdrm_pll_limits *nvdrm_vbios_pll(struct nvdrm_device *ndev,
					       u32 reg,
					       struct nvdrm_pll_limits *p)
{
	const struct nvdrm_vbios *vb = &ndev->vbios;
	u8 cv = vb->chip_version;
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < vb->n_pll; i++) {
		if (!vb->pll[i].reg || vb->pll[i].reg == reg) {
			*p = vb->pll[i];
			break;
		}
	}
	if (vb->n_pll && i == vb->n_pll)
		*p = vb->pll[0];
	p->reg = reg;

	if (vb->pll_version == 0x10 || vb->pll_version == 0x11) {
		p->vco1_max_in = INT_MAX;
		p->vco2_max_in = INT_MAX;
		p->max_p = 6;		/* usable; 7 in the hardware */
		p->vco1_min_n = cv == 0x36 ? 0x5 : 0x1;
		p->vco1_max_n = 0xff;
		p->vco1_min_m = 0x1;
		p->vco1_max_m = 0xd;
		p->vco2_min_n = 0x4;
		p->vco2_max_n = cv == 0x30 || cv == 0x35 ? 0x1f : 0x28;
		p->vco2_min_m = 0x1;
		p->vco2_max_m = 0x4;
	} else if (vb->pll_version >= 0x20 && cv < 0x60) {
		p->max_p = 6;
	}
	if (!p->refclk)
		p->refclk = ndev->crystal;
	if (!p->vco1_max) {
		/* no table: the BMP's single-stage limits */
		p->vco1_max = vb->fmaxvco;
		p->vco1_min = vb->fminvco;
		p->vco1_min_in = 0;
		p->vco1_max_in = INT_MAX;
		p->vco1_min_n = 0x1;
		p->vco1_max_n = 0xff;
		p->vco1_min_m = 0x1;
		if (ndev->crystal == 13500) {
			if (cv < 0x11)
				p->vco1_min_m = 0x7;
			p->vco1_max_m = 0xd;
		} else {
			if (cv < 0x11)
				p->vco1_min_m = 0x8;
			p->vco1_max_m = 0xe;
		}
		p->max_p = cv < 0x17 || cv == 0x1a || cv == 0x20 ? 4 : 5;
		p->vco2_max = 0;
	}
	return p;
}
