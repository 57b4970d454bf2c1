package dev.linkproof.transfer.probe;

import java.util.Locale;

/**
 * One PCI function as sysfs shows it under {@code /sys/bus/pci/devices/<address>}.
 *
 * @param address            domain:bus:device.function, e.g. {@code 0000:81:00.0}; empty when unknown
 * @param vendorId           {@code vendor}, e.g. 0x15b3; -1 when unknown
 * @param deviceId           {@code device}, e.g. 0x1021; -1 when unknown
 * @param subsystemVendorId  {@code subsystem_vendor}; -1 when unknown
 * @param subsystemDeviceId  {@code subsystem_device}; -1 when unknown
 * @param classCode          {@code class}, e.g. 0x020000 (Ethernet) or 0x030200 (3D controller); -1 when unknown
 * @param driver             the bound kernel driver ({@code driver} link, else {@code DRIVER=} in {@code uevent}); empty when none
 * @param numaNode           {@code numa_node}; -1 when the platform reports none
 * @param localCpus          {@code local_cpulist}; empty when unknown
 * @param name               a human name from the built-in table or {@code pci.ids}; empty when unknown
 */
public record PciFunction(
        String address,
        int vendorId,
        int deviceId,
        int subsystemVendorId,
        int subsystemDeviceId,
        int classCode,
        String driver,
        int numaNode,
        String localCpus,
        String name) {

    public PciFunction withName(String newName) {
        return new PciFunction(
                address,
                vendorId,
                deviceId,
                subsystemVendorId,
                subsystemDeviceId,
                classCode,
                driver,
                numaNode,
                localCpus,
                newName);
    }

    /** {@code 15b3:1021}, as lspci -n prints it. */
    public String ids() {
        return hex4(vendorId) + ":" + hex4(deviceId);
    }

    public static String hex4(int id) {
        return id < 0 ? "????" : String.format(Locale.ROOT, "%04x", id);
    }

    public static String hex(int id) {
        return id < 0 ? "unknown" : String.format(Locale.ROOT, "0x%04x", id);
    }
}
