package dev.linkproof.transfer.probe;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One device under {@code /sys/class/infiniband}.
 *
 * @param name       the verbs device name, e.g. {@code mlx5_0}, {@code rocep81s0f0}, {@code rxe0}
 * @param nodeType   {@code node_type}, e.g. {@code CA}
 * @param firmware   {@code fw_ver}; empty for software devices
 * @param hcaType    {@code hca_type}, e.g. {@code MT4129}; empty when absent
 * @param boardId    {@code board_id}; empty when absent
 * @param nodeGuid   {@code node_guid}
 * @param pci        the PCI function behind the device ({@code device} link); empty for software devices
 * @param driver     kernel driver of the PCI function ({@code mlx5_core}, {@code bnxt_en}); for software
 *                   devices the RDMA driver ({@code rdma_rxe}, {@code siw})
 * @param netdevs    network interfaces of the same PCI function ({@code device/net}), or the software
 *                   device's {@code parent}
 * @param ports      the device's ports
 * @param software   true for Soft-RoCE (rxe) and soft-iWARP (siw): no PCI function of its own
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
