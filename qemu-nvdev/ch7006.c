/*
 * nvdev CH7006: the Chrontel CH7006 TV encoder as an I2C slave (0x75 on
 * the board's TV I2C port), with the register file and the load-sense
 * behaviour the kernel's ch7006 driver relies on (drm/i2c/ch7006_*.c):
 *
 *  - the first byte of a write sets the subaddress (bits 5:0); further
 *    bytes, and reads, go to successive registers;
 *  - DETECT (0x10): setting SENSE and clearing it again latches the load
 *    test results in bits 3..1 (S-video Y, S-video C, CVBS), a 0 meaning a
 *    load is present, provided the chip is powered (POWER level not off);
 *  - VERSION_ID (0x25) is read-only.
 * What is plugged into the TV connector is the "tv" property: composite,
 * svideo, scart or none.  Every register access is traced by name.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/i2c/i2c.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "nvdev.h"
#include "trace.h"

#define CH7006_POWER            0x0e
#define CH7006_POWER_LEVEL      0x07
#define CH7006_POWER_OFF        0x01
#define CH7006_POWER_FULL_OFF   0x04
#define CH7006_DETECT           0x10
#define CH7006_DETECT_SVIDEO_Y  (1 << 3)
#define CH7006_DETECT_SVIDEO_C  (1 << 2)
#define CH7006_DETECT_CVBS      (1 << 1)
#define CH7006_DETECT_SENSE     (1 << 0)
#define CH7006_VERSION_ID       0x25
#define CH7006_VERSION          0x2a    /* GUESS: the CH7006A's ID */
#define CH7006_NREGS            0x40

OBJECT_DECLARE_SIMPLE_TYPE(NVCh7006State, NVDEV_CH7006)

struct NVCh7006State {
    I2CSlave parent_obj;

    char *tv;                   /* property: what is plugged in */
    NVDevState *nv;             /* the card, for the trace */
    int bus;

    uint8_t regs[CH7006_NREGS];
    uint8_t ptr;
    bool have_ptr;
};

static const char *reg_name(uint8_t reg)
{
    const NVRegName *r = nv_i2c_reg_lookup("CH7006", reg);
    return r ? r->name : "-";
}

static void ch7006_trace(NVCh7006State *s, char dir, uint8_t reg, uint8_t val)
{
    trace_nvdev_ch7006(dir == 'W' ? "write" : "read", reg, reg_name(reg), val);
    if (s->nv) {
        nvdev_trace_record(s->nv, dir, 1, "i2c",
                           s->bus << 16 | 0x75 << 8 | reg, val, "CH7006",
                           reg_name(reg), false);
    }
}

/* Load-test result bits for what is attached: 0 = load present. */
static uint8_t sense_result(NVCh7006State *s)
{
    uint8_t level = s->regs[CH7006_POWER] & CH7006_POWER_LEVEL;

    if (level == CH7006_POWER_OFF || level == CH7006_POWER_FULL_OFF) {
        return CH7006_DETECT_SVIDEO_Y | CH7006_DETECT_SVIDEO_C |
               CH7006_DETECT_CVBS;
    }
    if (!strcmp(s->tv, "composite")) {
        return CH7006_DETECT_SVIDEO_Y | CH7006_DETECT_SVIDEO_C;
    }
    if (!strcmp(s->tv, "svideo")) {
        return CH7006_DETECT_CVBS;
    }
    if (!strcmp(s->tv, "scart")) {
        return 0;
    }
    return CH7006_DETECT_SVIDEO_Y | CH7006_DETECT_SVIDEO_C |
           CH7006_DETECT_CVBS;
}

static void ch7006_write_reg(NVCh7006State *s, uint8_t reg, uint8_t val)
{
    ch7006_trace(s, 'W', reg, val);
    switch (reg) {
    case CH7006_VERSION_ID:
        qemu_log_mask(LOG_GUEST_ERROR, "nvdev-ch7006: VERSION_ID is read-only\n");
        return;
    case CH7006_DETECT:
        if ((s->regs[reg] & CH7006_DETECT_SENSE) && !(val & CH7006_DETECT_SENSE)) {
            /* end of a sense cycle: latch the load test results */
            val = (val & ~0x0e) | sense_result(s);
        } else {
            val = (val & ~0x0e) | (s->regs[reg] & 0x0e);
        }
        break;
    default:
        break;
    }
    s->regs[reg] = val;
}

static int ch7006_event(I2CSlave *i2c, enum i2c_event event)
{
    NVCh7006State *s = NVDEV_CH7006(i2c);

    if (event == I2C_START_SEND) {
        s->have_ptr = false;
    }
    return 0;
}

static int ch7006_send(I2CSlave *i2c, uint8_t data)
{
    NVCh7006State *s = NVDEV_CH7006(i2c);

    if (!s->have_ptr) {
        s->ptr = data & (CH7006_NREGS - 1);
        s->have_ptr = true;
        return 0;
    }
    ch7006_write_reg(s, s->ptr, data);
    s->ptr = (s->ptr + 1) & (CH7006_NREGS - 1);
    return 0;
}

static uint8_t ch7006_recv(I2CSlave *i2c)
{
    NVCh7006State *s = NVDEV_CH7006(i2c);
    uint8_t val = s->ptr == CH7006_VERSION_ID ? CH7006_VERSION : s->regs[s->ptr];

    ch7006_trace(s, 'R', s->ptr, val);
    s->ptr = (s->ptr + 1) & (CH7006_NREGS - 1);
    return val;
}

static void ch7006_reset(DeviceState *dev)
{
    NVCh7006State *s = NVDEV_CH7006(dev);

    memset(s->regs, 0, sizeof(s->regs));
    s->regs[CH7006_DETECT] = CH7006_DETECT_SVIDEO_Y | CH7006_DETECT_SVIDEO_C |
                             CH7006_DETECT_CVBS;
    s->ptr = 0;
    s->have_ptr = false;
}

static void ch7006_realize(DeviceState *dev, Error **errp)
{
    NVCh7006State *s = NVDEV_CH7006(dev);

    if (!s->tv) {
        s->tv = g_strdup("composite");
    }
    if (strcmp(s->tv, "composite") && strcmp(s->tv, "svideo") &&
        strcmp(s->tv, "scart") && strcmp(s->tv, "none")) {
        error_setg(errp, "nvdev: tv=%s: expected composite, svideo, scart "
                   "or none", s->tv);
    }
}

static const VMStateDescription vmstate_ch7006 = {
    .name = "nvdev-ch7006",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_I2C_SLAVE(parent_obj, NVCh7006State),
        VMSTATE_UINT8_ARRAY(regs, NVCh7006State, CH7006_NREGS),
        VMSTATE_UINT8(ptr, NVCh7006State),
        VMSTATE_BOOL(have_ptr, NVCh7006State),
        VMSTATE_END_OF_LIST()
    },
};

static Property ch7006_properties[] = {
    DEFINE_PROP_STRING("tv", NVCh7006State, tv),
    DEFINE_PROP_END_OF_LIST(),
};

static void ch7006_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    I2CSlaveClass *k = I2C_SLAVE_CLASS(klass);

    dc->realize = ch7006_realize;
    dc->reset = ch7006_reset;
    dc->vmsd = &vmstate_ch7006;
    dc->desc = "Chrontel CH7006 TV encoder (nvdev board part)";
    dc->user_creatable = false;
    device_class_set_props(dc, ch7006_properties);
    k->event = ch7006_event;
    k->recv = ch7006_recv;
    k->send = ch7006_send;
}

static const TypeInfo ch7006_info = {
    .name = TYPE_NVDEV_CH7006,
    .parent = TYPE_I2C_SLAVE,
    .instance_size = sizeof(NVCh7006State),
    .class_init = ch7006_class_init,
};

static void ch7006_register_types(void)
{
    type_register_static(&ch7006_info);
}

type_init(ch7006_register_types)

bool nv_ch7006_attach(NVDevState *s, int port, uint8_t addr, const char *tv,
                      Error **errp)
{
    NVI2CPort *p = nv_i2c_port(s, port);
    NVCh7006State *ch;

    if (!p) {
        error_setg(errp, "nvdev: the board's CH7006 is on I2C port %d, "
                   "which the VBIOS does not declare", port);
        return false;
    }
    ch = NVDEV_CH7006(qdev_new(TYPE_NVDEV_CH7006));
    ch->nv = s;
    ch->bus = port;
    qdev_prop_set_string(DEVICE(ch), "tv", tv ? tv : "composite");
    i2c_slave_set_address(I2C_SLAVE(ch), addr);
    return qdev_realize_and_unref(DEVICE(ch), BUS(p->bus), errp);
}
