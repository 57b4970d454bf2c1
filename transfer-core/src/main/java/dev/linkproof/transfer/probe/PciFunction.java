package dev.linkproof.transfer.probe;

import java.util.Locale;

/**
 * One PCI function as sysfs shows it under {@code /sys/bus/pci/devices/<address>}: each number is
 * its attribute of that name ({@code vendor}, {@code subsystem_device}, {@code class},
 * {@code numa_node}), -1 when unknown; each string is empty when unknown.
 *
 * @param address  domain:bus:device.function, e.g. {@code 0000:81:00.0}
 * @param driver   the bound kernel driver: the {@code driver} link, else {@code DRIVER=} in uevent
 * @param name     a human name from the built-in table or {@code pci.ids}
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
