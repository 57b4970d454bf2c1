package dev.linkproof.transfer.probe;

import java.util.List;

/**
 * Processors and NUMA layout.
 *
 * @param modelName   {@code model name} from {@code /proc/cpuinfo}, or empty
 * @param onlineList  {@code /sys/devices/system/cpu/online}
 * @param online      how many cpus that list names
 * @param nodes       NUMA nodes; one node 0 holding every online cpu when the kernel shows none
 */
public record CpuLayout(String modelName, String onlineList, int online, List<NumaNode> nodes) {
    public CpuLayout {
        nodes = List.copyOf(nodes);
    }
}
