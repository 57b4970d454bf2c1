package dev.linkproof.transfer.probe;

import java.util.Optional;

/**
 * One entry of {@code /sys/class/net}: its name, and its attributes {@code speed}, {@code operstate}
 * ({@code unknown} when absent), {@code mtu} and {@code address} (the MAC).
 *
 * @param driver     the underlying device's kernel driver; empty for virtual interfaces
 * @param pci        the PCI function, when the device is one (virtio devices sit below one)
 * @param speedMbps  -1 when unknown (down, or a virtual interface)
 * @param mtu        -1 when unknown
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
