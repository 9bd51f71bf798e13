/*
 * nvdev I2C: the bit-banged buses of NV04..NV4x, driven through head A's
 * extended CRTC registers (nvkm/subdev/i2c/busnv04.c): the drive register
 * has SCL out in bit 5 and SDA out in bit 4, the sense register reads SCL
 * in bit 2 and SDA in bit 3.  The ports and their register pairs come from
 * the VBIOS's DCB I2C table (or the BMP defaults CR3F/CR3E, CR37/CR36).
 * C51 has a second kind (DCB type 4, nouveau's busnv4e.c): a word in head
 * A's PCRTC at 0x600800 plus the entry's offset, SCL out in bit 5 and SDA
 * out in bit 4 (nouveau keeps bit 0 set), SCL in at bit 18 and SDA in at
 * bit 19.  Each bus is a QEMU I2C bus behind bitbang_i2c; the monitor's
 * DDC (i2c-ddc) sits on the CRT output's bus.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "migration/vmstate.h"
#include "hw/display/i2c-ddc.h"
#include "hw/qdev-properties.h"
#include "nvdev.h"
#include "hw/display/edid.h"
#include "trace.h"

#define DRIVE_SCL 0x20
#define DRIVE_SDA 0x10
#define SENSE_SCL 0x04
#define SENSE_SDA 0x08
#define NV4E_SENSE_SCL (1u << 18)
#define NV4E_SENSE_SDA (1u << 19)
#define NV4E_CTL_MASK  0x3f             /* what nouveau's masks write */

static NVI2CPort *port_by_drive(NVDevState *s, uint8_t type, uint8_t idx)
{
    for (int i = 0; i < s->n_i2c; i++) {
        if (s->i2c[i].type == type && s->i2c[i].drive == idx) {
            return &s->i2c[i];
        }
    }
    return NULL;
}

static NVI2CPort *port_by_sense(NVDevState *s, uint8_t idx)
{
    for (int i = 0; i < s->n_i2c; i++) {
        if (s->i2c[i].type == NVBIOS_I2C_NV04 && s->i2c[i].sense == idx) {
            return &s->i2c[i];
        }
    }
    return NULL;
}

bool nv_i2c_sense(NVDevState *s, uint8_t idx, uint8_t *val)
{
    NVI2CPort *p = port_by_sense(s, idx);

    if (!p) {
        return false;
    }
    /* no clock stretching: SCL reads what is driven; SDA is wired-AND */
    *val = ((p->scl) ? SENSE_SCL : 0) | ((p->sda && p->sda_in) ? SENSE_SDA : 0);
    return true;
}

/*
 * A passive observer of each bus for the trace: START, the address byte,
 * data bytes (as the SDA line shows them, whoever drives it) and STOP,
 * recorded as "i2c-txn" lines: S (start, ADDR = slave << 1 | R/W),
 * B (a byte, with the ACK bit 8 of VALUE low = ACKed) and P (stop).
 */
static void observe(NVDevState *s, NVI2CPort *p, bool old_scl, bool old_sda)
{
    bool sda = p->sda && p->sda_in;     /* the wire */
    uint32_t bus = p->index << 16;

    if (old_scl && p->scl && old_sda && !sda) {             /* START */
        p->obs_bits = 0;
        p->obs_byte = 0;
        p->obs_first = true;
        p->obs_active = true;
        return;
    }
    if (old_scl && p->scl && !old_sda && sda) {             /* STOP */
        if (p->obs_active) {
            nvdev_trace_record(s, 'P', 1, "i2c-txn", bus, 0, "I2C", "STOP",
                               false);
        }
        p->obs_active = false;
        return;
    }
    if (!p->obs_active || old_scl || !p->scl) {
        return;                                             /* not a rising SCL */
    }
    if (p->obs_bits < 8) {
        p->obs_byte = (p->obs_byte << 1) | sda;
        p->obs_bits++;
        return;
    }
    /* ninth clock: the ACK bit */
    if (p->obs_first) {
        nvdev_trace_record(s, 'S', 2, "i2c-txn", bus | p->obs_byte, sda << 8,
                           "I2C", "START", false);
        p->obs_first = false;
    } else {
        nvdev_trace_record(s, 'B', 2, "i2c-txn", bus, p->obs_byte | sda << 8,
                           "I2C", "BYTE", false);
    }
    p->obs_bits = 0;
    p->obs_byte = 0;
}

static void drive_lines(NVDevState *s, NVI2CPort *p, uint8_t val)
{
    bool scl = val & DRIVE_SCL, sda = val & DRIVE_SDA;
    bool old_scl, old_sda;

    old_scl = p->scl;
    old_sda = p->sda && p->sda_in;
    /* the bitbang state machine wants one line change at a time */
    if (sda != p->sda) {
        p->sda = sda;
        p->sda_in = bitbang_i2c_set(&p->bb, BITBANG_I2C_SDA, sda);
    }
    if (scl != p->scl) {
        p->scl = scl;
        p->sda_in = bitbang_i2c_set(&p->bb, BITBANG_I2C_SCL, scl);
    }
    trace_nvdev_i2c(p->index, scl, sda, p->sda_in);
    if (s->trace) {
        observe(s, p, old_scl, old_sda);
    }
}

void nv_i2c_drive(NVDevState *s, uint8_t idx, uint8_t val)
{
    NVI2CPort *p = port_by_drive(s, NVBIOS_I2C_NV04, idx);

    if (p) {
        drive_lines(s, p, val);
    }
}

/* C51's ports: @addr is the offset in head A's PCRTC (0x600000) */
static NVI2CPort *pcrtc_port(NVDevState *s, hwaddr addr)
{
    if (!(s->chip->caps & NV_CAP_NV4E_I2C) || addr < 0x800 || addr > 0x8fc ||
        addr & 3) {
        return NULL;
    }
    return port_by_drive(s, NVBIOS_I2C_NV4E, addr - 0x800);
}

bool nv_i2c_pcrtc_read(NVDevState *s, hwaddr addr, uint64_t *val)
{
    NVI2CPort *p = pcrtc_port(s, addr);

    if (!p) {
        return false;
    }
    *val = p->ctl | (p->scl ? NV4E_SENSE_SCL : 0) |
           (p->sda && p->sda_in ? NV4E_SENSE_SDA : 0);
    return true;
}

bool nv_i2c_pcrtc_write(NVDevState *s, hwaddr addr, uint64_t val)
{
    NVI2CPort *p = pcrtc_port(s, addr);

    if (!p) {
        return false;
    }
    p->ctl = val & NV4E_CTL_MASK;
    drive_lines(s, p, p->ctl);
    return true;
}

static void add_port(NVDevState *s, int index, uint8_t type, uint8_t drive,
                     uint8_t sense)
{
    NVI2CPort *p = &s->i2c[s->n_i2c++];
    g_autofree char *name = g_strdup_printf("nvdev.i2c%d", index);

    p->index = index;
    p->type = type;
    p->ctl = DRIVE_SCL | DRIVE_SDA | 1;
    p->drive = drive;
    p->sense = sense;
    p->scl = p->sda = p->sda_in = true;
    p->bus = i2c_init_bus(DEVICE(s), name);
    bitbang_i2c_init(&p->bb, p->bus);
}

NVI2CPort *nv_i2c_port(NVDevState *s, int index)
{
    for (int i = 0; i < s->n_i2c; i++) {
        if (s->i2c[i].index == index) {
            return &s->i2c[i];
        }
    }
    return NULL;
}

bool nv_i2c_init(NVDevState *s, Error **errp)
{
    if (s->bios.i2c_offset) {
        for (int i = 0; i < NVBIOS_MAX_I2C && s->n_i2c < NV_MAX_I2C; i++) {
            const NVBiosI2cPort *bp = &s->bios.i2c[i];

            if (!bp->used) {
                continue;
            }
            if (bp->type == NVBIOS_I2C_NV04 ||
                (bp->type == NVBIOS_I2C_NV4E &&
                 (s->chip->caps & NV_CAP_NV4E_I2C))) {
                add_port(s, i, bp->type, bp->drive, bp->sense);
            } else {
                qemu_log_mask(LOG_UNIMP, "nvdev: the VBIOS's I2C port %d has "
                              "type %u, which %s does not have: no bus\n",
                              i, bp->type, s->chip->name);
            }
        }
    } else {
        add_port(s, 0, NVBIOS_I2C_NV04, 0x3f, 0x3e);
        add_port(s, 1, NVBIOS_I2C_NV04, 0x37, 0x36);
    }
    return true;
}

/*
 * QEMU's i2c-ddc with its whole state migrated.  i2c-ddc's own
 * VMStateDescription (QEMU 7.2) leaves out the I2CSlave part, whose
 * post_load puts a slave addressed mid-transfer back on its bus: after a
 * migration in the middle of an EDID read the monitor would stop
 * answering.  This type is i2c-ddc with that part saved too.
 */
#define TYPE_NVDEV_DDC "nvdev-ddc"

static const VMStateDescription vmstate_nv_ddc = {
    .name = TYPE_NVDEV_DDC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_I2C_SLAVE(i2c, I2CDDCState),
        VMSTATE_BOOL(firstbyte, I2CDDCState),
        VMSTATE_UINT8(reg, I2CDDCState),
        VMSTATE_END_OF_LIST()
    },
};

static void nv_ddc_class_init(ObjectClass *oc, void *data)
{
    DEVICE_CLASS(oc)->vmsd = &vmstate_nv_ddc;
}

static const TypeInfo nv_ddc_info = {
    .name = TYPE_NVDEV_DDC,
    .parent = TYPE_I2CDDC,
    .instance_size = sizeof(I2CDDCState),
    .class_init = nv_ddc_class_init,
};

static void nv_ddc_register_types(void)
{
    type_register_static(&nv_ddc_info);
}

type_init(nv_ddc_register_types)

/*
 * A monitor (or a panel) on a DDC bus: QEMU's EDID ("default"), QEMU's
 * EDID of a display whose preferred and largest mode is "WxH" at 60 Hz, or
 * the bytes of a file.
 */
bool nv_i2c_attach_monitor(NVDevState *s, int port, const char *what,
                           Error **errp)
{
    NVI2CPort *p = nv_i2c_port(s, port);
    I2CDDCState *ddc;
    unsigned w, h;
    char tail;

    if (!p) {
        error_setg(errp, "nvdev: the VBIOS has no I2C port %d for the "
                   "monitor's DDC", port);
        return false;
    }
    ddc = I2CDDC(qdev_new(TYPE_NVDEV_DDC));
    if (sscanf(what, "%ux%u%c", &w, &h, &tail) == 2) {
        if (w < 320 || w > 4095 || h < 200 || h > 4095) {
            error_setg(errp, "nvdev: a %ux%u display: expected 320x200 to "
                       "4095x4095", w, h);
            object_unref(OBJECT(ddc));
            return false;
        }
        ddc->edid_info.prefx = ddc->edid_info.maxx = w;
        ddc->edid_info.prefy = ddc->edid_info.maxy = h;
        ddc->edid_info.refresh_rate = 60000;
        qemu_edid_generate(ddc->edid_blob, sizeof(ddc->edid_blob),
                           &ddc->edid_info);
    } else if (strcmp(what, "default")) {
        g_autoptr(GError) err = NULL;
        g_autofree gchar *edid = NULL;
        gsize len;

        if (!g_file_get_contents(what, &edid, &len, &err)) {
            error_setg(errp, "nvdev: cannot read EDID: %s", err->message);
            object_unref(OBJECT(ddc));
            return false;
        }
        if (len < 128 || edid[0] != 0 || (uint8_t)edid[1] != 0xff) {
            error_setg(errp, "nvdev: %s is not an EDID (128 bytes starting "
                       "00 ff ff ff ff ff ff 00)", what);
            object_unref(OBJECT(ddc));
            return false;
        }
        memcpy(ddc->edid_blob, edid, sizeof(ddc->edid_blob));
    }
    i2c_slave_set_address(I2C_SLAVE(ddc), 0x50);
    return qdev_realize_and_unref(DEVICE(ddc), BUS(p->bus), errp);
}

/*
 * Migration: each port's wire (what the driver drives, what the slave
 * drives back), bitbang_i2c's state machine mid-byte and the trace's
 * observer.  The QEMU I2C bus and its slaves migrate themselves (the bus
 * which slave is addressed, nvdev-ddc and the CH7006 their registers).
 */
static int nv_i2c_port_post_load(void *opaque, int version_id)
{
    NVI2CPort *p = opaque;

    if (p->bb.state > SENT_NACK || p->obs_bits > 8) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_nv_i2c_port = {
    .name = "nvdev/i2c-port",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = nv_i2c_port_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(scl, NVI2CPort),
        VMSTATE_BOOL(sda, NVI2CPort),
        VMSTATE_BOOL(sda_in, NVI2CPort),
        VMSTATE_BOOL(obs_active, NVI2CPort),
        VMSTATE_BOOL(obs_first, NVI2CPort),
        VMSTATE_UINT8(obs_byte, NVI2CPort),
        VMSTATE_UINT8(obs_bits, NVI2CPort),
        VMSTATE_UINT32(bb.state, NVI2CPort),
        VMSTATE_INT32(bb.last_data, NVI2CPort),
        VMSTATE_INT32(bb.last_clock, NVI2CPort),
        VMSTATE_INT32(bb.device_out, NVI2CPort),
        VMSTATE_UINT8(bb.buffer, NVI2CPort),
        VMSTATE_INT32(bb.current_addr, NVI2CPort),
        VMSTATE_UINT8(ctl, NVI2CPort),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_nv_i2c = {
    .name = "nvdev/i2c",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(i2c, NVDevState, NV_MAX_I2C, 1,
                             vmstate_nv_i2c_port, NVI2CPort),
        VMSTATE_END_OF_LIST()
    },
};
