package dev.linkproof.profiles;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What an RDMA device must be for a profile to match: every rule that is set must hold for the same device, and at
 * least {@code minCount} devices (default 1) must pass.
 *
 * @param pciVendor    PCI vendor id ({@code 0x15b3} Mellanox/NVIDIA, {@code 0x14e4} Broadcom)
 * @param drivers      kernel drivers of the PCI function, any of them ({@code mlx5_core}, {@code bnxt_en}, {@code rdma_rxe})
 * @param linkRateGbps the rate an ACTIVE port must run at, Gb/s; also what "× link" criteria multiply
 * @param minFirmware  the oldest {@code fw_ver} accepted, compared number by number
 */
public record NicRule(
        OptionalInt pciVendor,
        List<Integer> pciDevices,
        List<String> drivers,
        OptionalDouble linkRateGbps,
        Optional<String> linkLayer,
        Optional<String> minFirmware,
        int minCount) {
    public NicRule {
        pciDevices = List.copyOf(pciDevices);
        drivers = List.copyOf(drivers);
    }

    /** How many rules it sets: a more specific profile wins a tie between matches. */
    int specificity() {
        return (pciVendor.isPresent() ? 1 : 0)
                + (pciDevices.isEmpty() ? 0 : 1)
                + (drivers.isEmpty() ? 0 : 1)
                + (linkRateGbps.isPresent() ? 1 : 0)
                + (linkLayer.isPresent() ? 1 : 0)
                + (minFirmware.isPresent() ? 1 : 0);
    }

    /** Whether the rule says which kind of device it is for (PCI vendor or device ids, driver), not only a state (link rate, layer). */
    public boolean namesAKind() {
        return pciVendor.isPresent() || !pciDevices.isEmpty() || !drivers.isEmpty();
    }
}
