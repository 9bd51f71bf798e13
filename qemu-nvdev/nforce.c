/*
 * nvdev-nforce: the functions of an nForce or nForce2 host bridge that the
 * drivers of its integrated GPU (NV1A "nForce", NV1F "nForce2") read.
 * The IGP has no memory of its own: the chipset sets part of system RAM
 * aside for it, and says how much in its memory controller's config
 * space, where nouveau looks (nvkm/subdev/fb/ramnv1a.c, dispnv04/arb.c,
 * dispnv04/hw.c):
 *
 *   nForce   00.1 0x7c: bits 10:6 the MiB set aside - 1, bit 12 DDR
 *            00.3 0x6c: bits 11:8 the memory PLL's P (400 MHz / P)
 *   nForce2  00.1 0x84: bits 10:4 the MiB set aside - 1; 0x7c bit 12 DDR
 *            00.5 0x4c: the memory clock in Hz
 *
 * Each function is one instance (addr=00.1, 00.3 or 00.5).  Function 0
 * stays QEMU's i440FX, made multifunction as the nForce's own host bridge
 * is, so that the guest looks for the others (QEMU's pc machine creates
 * it single-function whatever -global says).
 * nvdev takes its VRAM size from function 1, as nouveau does.  The memory
 * itself stays the device's own: QEMU's pc machine gives a device no way
 * to take RAM out of the e820 map, and nouveau never looks for it there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "nvdev.h"

OBJECT_DECLARE_SIMPLE_TYPE(NVNforceState, NVDEV_NFORCE)

struct NVNforceState {
    PCIDevice parent_obj;
    uint32_t generation;        /* 1: nForce (NV1A), 2: nForce2 (NV1F) */
    uint32_t stolen_mb;
    uint32_t mclk_khz;
    bool ddr;
};

/* PCI device IDs of the memory controller functions (pci.ids) */
static const struct {
    unsigned generation, function;
    uint16_t device_id;
} nforce_functions[] = {
    { 1, 1, 0x01ac },           /* nForce 220/420 Memory Controller */
    { 1, 3, 0x01ab },           /* nForce 420 Memory Controller (DDR) */
    { 2, 1, 0x01eb },           /* nForce2 Memory Controller 1 */
    { 2, 5, 0x01ef },           /* nForce2 Memory Controller 5 */
};

static void nforce_realize(PCIDevice *pdev, Error **errp)
{
    NVNforceState *s = NVDEV_NFORCE(pdev);
    unsigned fn = PCI_FUNC(pdev->devfn);
    unsigned max_mb = s->generation == 1 ? 32 : 128;
    uint16_t id = 0;

    if (s->generation != 1 && s->generation != 2) {
        error_setg(errp, "nvdev-nforce: generation=%u: expected 1 (nForce) "
                   "or 2 (nForce2)", s->generation);
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(nforce_functions); i++) {
        if (nforce_functions[i].generation == s->generation &&
            nforce_functions[i].function == fn) {
            id = nforce_functions[i].device_id;
        }
    }
    if (!id || PCI_SLOT(pdev->devfn)) {
        error_setg(errp, "nvdev-nforce: an nForce%s has no memory controller "
                   "function at %02x.%x the IGP's driver reads (%s)",
                   s->generation == 1 ? "" : "2", PCI_SLOT(pdev->devfn), fn,
                   s->generation == 1 ? "00.1, 00.3" : "00.1, 00.5");
        return;
    }
    if (s->stolen_mb < 1 || s->stolen_mb > max_mb) {
        error_setg(errp, "nvdev-nforce: stolen_mb=%u: the nForce%s sets "
                   "aside 1 to %u MiB", s->stolen_mb,
                   s->generation == 1 ? "" : "2", max_mb);
        return;
    }
    if (s->mclk_khz < 27000 || s->mclk_khz > 400000) {
        error_setg(errp, "nvdev-nforce: mclk_khz=%u: expected 27000 to "
                   "400000", s->mclk_khz);
        return;
    }
    pci_config_set_device_id(pdev->config, id);
    if (fn == 1) {
        pci_set_long(pdev->config + 0x7c, (s->ddr ? 1u << 12 : 0) |
                     (s->generation == 1 ? (s->stolen_mb - 1) << 6 : 0));
        if (s->generation == 2) {
            pci_set_long(pdev->config + 0x84, (s->stolen_mb - 1) << 4);
        }
    } else if (fn == 3) {
        /* 400 MHz / P, the nearest P */
        unsigned p = MIN(15, MAX(1, (400000 + s->mclk_khz / 2) / s->mclk_khz));
        pci_set_long(pdev->config + 0x6c, p << 8);
    } else {
        pci_set_long(pdev->config + 0x4c, s->mclk_khz * 1000);
    }
}

static DeviceRealize nforce_parent_realize;

/* Before the PCI core places a function > 0: function 0 says multifunction */
static void nforce_qdev_realize(DeviceState *dev, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(dev);
    PCIBus *bus = PCI_BUS(qdev_get_parent_bus(dev));
    PCIDevice *f0 = bus ? pci_find_device(bus, 0, PCI_DEVFN(0, 0)) : NULL;

    if (f0 && pdev->devfn != -1 && PCI_SLOT(pdev->devfn) == 0 &&
        PCI_FUNC(pdev->devfn)) {
        f0->cap_present |= QEMU_PCI_CAP_MULTIFUNCTION;
        f0->config[PCI_HEADER_TYPE] |= PCI_HEADER_TYPE_MULTI_FUNCTION;
    }
    nforce_parent_realize(dev, errp);
}

uint32_t nv_nforce_stolen_mb(PCIBus *bus, Error **errp)
{
    PCIDevice *mc = pci_find_device(bus, 0, PCI_DEVFN(0, 1));
    NVNforceState *s = mc ? (NVNforceState *)
        object_dynamic_cast(OBJECT(mc), TYPE_NVDEV_NFORCE) : NULL;

    if (!s) {
        error_setg(errp, "nvdev: an nForce IGP takes its memory from the "
                   "host bridge, and 00.1 is not an nvdev-nforce: add "
                   "-global i440FX.multifunction=on -device "
                   "nvdev-nforce,addr=00.1,... before nvdev");
        return 0;
    }
    return s->stolen_mb;
}

static Property nforce_properties[] = {
    DEFINE_PROP_UINT32("generation", NVNforceState, generation, 1),
    DEFINE_PROP_UINT32("stolen_mb", NVNforceState, stolen_mb, 32),
    DEFINE_PROP_UINT32("mclk_khz", NVNforceState, mclk_khz, 133333),
    DEFINE_PROP_BOOL("ddr", NVNforceState, ddr, true),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_nforce = {
    .name = TYPE_NVDEV_NFORCE,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, NVNforceState),
        VMSTATE_END_OF_LIST()
    },
};

static void nforce_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = nforce_realize;
    device_class_set_parent_realize(dc, nforce_qdev_realize,
                                    &nforce_parent_realize);
    k->vendor_id = PCI_VENDOR_ID_NVIDIA;
    k->device_id = 0;
    k->class_id = PCI_CLASS_MEMORY_RAM;
    dc->desc = "nForce/nForce2 memory controller function (for nvdev's IGPs)";
    dc->hotpluggable = false;
    dc->vmsd = &vmstate_nforce;
    device_class_set_props(dc, nforce_properties);
}

static const TypeInfo nforce_info = {
    .name = TYPE_NVDEV_NFORCE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(NVNforceState),
    .class_init = nforce_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void nforce_register_types(void)
{
    type_register_static(&nforce_info);
}

type_init(nforce_register_types)
