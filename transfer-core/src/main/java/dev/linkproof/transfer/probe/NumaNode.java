package dev.linkproof.transfer.probe;

import java.util.List;

/**
 * One NUMA node, from {@code /sys/devices/system/node/node<N>}.
 *
 * @param id            node number
 * @param cpuList       its {@code cpulist}, e.g. {@code 0-47,96-143}
 * @param memTotalKiB   {@code MemTotal} from its {@code meminfo}, -1 when unknown
 */
public record NumaNode(int id, String cpuList, long memTotalKiB) {
    public List<Integer> cpus() {
        return CpuList.parseLenient(cpuList);
    }
}
