package dev.linkproof.transfer.probe;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One device under {@code /sys/class/infiniband}; the strings are its attributes ({@code node_type},
 * {@code fw_ver}, {@code hca_type}, {@code board_id}, {@code node_guid}), empty when absent.
 *
 * @param pci       the PCI function behind it ({@code device} link); empty for a software device
 * @param driver    the PCI function's kernel driver, or a software device's RDMA driver ({@code rdma_rxe})
 * @param netdevs   the PCI function's interfaces ({@code device/net}), or a software device's parent
 * @param software  Soft-RoCE (rxe) or soft-iWARP (siw): no PCI function of its own
 */
public record RdmaDevice(
        String name,
        String nodeType,
        String firmware,
        String hcaType,
        String boardId,
        String nodeGuid,
        Optional<PciFunction> pci,
        String driver,
        List<String> netdevs,
        List<RdmaPort> ports,
        boolean software) {
    public RdmaDevice {
        netdevs = List.copyOf(netdevs);
        ports = List.copyOf(ports);
    }

    /** NUMA node of the PCI function, -1 when unknown. */
    public int numaNode() {
        return pci.map(PciFunction::numaNode).orElse(-1);
    }

    /** The model from the PCI id table ({@code ConnectX-7}), or the software driver's name. */
    public String model() {
        if (software) {
            return driver.equals("rdma_rxe") ? "Soft-RoCE (rxe)" : driver.equals("siw") ? "soft-iWARP (siw)" : driver;
        }
        return pci.map(PciFunction::name).filter(s -> !s.isEmpty()).orElse("unknown");
    }

    public boolean hasActivePort() {
        return ports.stream().anyMatch(RdmaPort::active);
    }

    /** The highest rate of an ACTIVE port, in Gb/s. */
    public OptionalDouble activeRateGbps() {
        return ports.stream()
                .filter(RdmaPort::active)
                .mapToDouble(RdmaPort::rateGbps)
                .max();
    }
}
