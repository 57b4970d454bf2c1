package dev.linkproof.transfer.probe;

import java.util.Optional;

/**
 * One entry of {@code /sys/class/net}.
 *
 * @param name        interface name
 * @param driver      kernel driver of the underlying device ({@code device/driver} link, else {@code uevent}); empty for virtual interfaces
 * @param pci         the PCI function, when the device is one (virtio devices sit below one)
 * @param speedMbps   {@code speed} in Mb/s, -1 when unknown (down, or a virtual interface)
 * @param operState   {@code operstate}, e.g. {@code up}
 * @param mtu         {@code mtu}, -1 when unknown
 * @param address     {@code address} (MAC)
 */
public record NetInterface(
        String name,
        String driver,
        Optional<PciFunction> pci,
        long speedMbps,
        String operState,
        int mtu,
        String address) {
    public int numaNode() {
        return pci.map(PciFunction::numaNode).orElse(-1);
    }

    public boolean loopback() {
        return name.equals("lo");
    }
}
