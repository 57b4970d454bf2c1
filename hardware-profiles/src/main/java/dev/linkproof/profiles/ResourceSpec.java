package dev.linkproof.profiles;

import java.util.List;

/**
 * What a run on this profile may use.
 *
 * @param nics      RDMA device names; empty = {@code auto}: the matching devices with an ACTIVE port, NUMA-local to
 *                  the GPUs or pinned cores where that can be told
 * @param gpus      GPU indices; empty with {@code gpusAuto} ({@code gpus: auto}) = every matching GPU, without it = none
 * @param cpuCores  cores to pin the ranks to; empty = {@code auto} (no pinning)
 * @param hugepages free huge pages a hugepage-memory point needs; fewer and such points are skipped
 */
public record ResourceSpec(
        List<String> nics, List<Integer> gpus, boolean gpusAuto, List<Integer> cpuCores, long hugepages) {
    public static final ResourceSpec AUTO = new ResourceSpec(List.of(), List.of(), true, List.of(), 0);

    public ResourceSpec {
        nics = List.copyOf(nics);
        gpus = List.copyOf(gpus);
        cpuCores = List.copyOf(cpuCores);
    }

    public boolean nicsAuto() {
        return nics.isEmpty();
    }
}
