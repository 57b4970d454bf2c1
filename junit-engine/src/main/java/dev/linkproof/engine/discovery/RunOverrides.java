package dev.linkproof.engine.discovery;

import dev.linkproof.engine.api.Direction;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * What the run, not the annotation, says about every point: the NICs and GPUs to repeat points over
 * ({@code linkproof.nics=each}, {@code linkproof.gpus=each}) and the rails and direction of RDMA points
 * ({@code linkproof.rails}, {@code linkproof.direction}; empty: as annotated). {@link SweepExpander} makes new ones.
 *
 * @param nics            the RDMA devices a verbs point is made once for; empty: once, on the run's choice
 * @param gpus            with {@code linkproof.gpus=each}, how many GPUs the profile provides; 0 or 1: as written
 * @param stagesGpuMemory which transports move GPU memory through a host copy (for names)
 */
record RunOverrides(
        List<String> nics,
        int gpus,
        OptionalInt rails,
        Optional<Direction> direction,
        Predicate<String> stagesGpuMemory) {
    static final RunOverrides NONE = new RunOverrides(List.of(), 0, OptionalInt.empty(), Optional.empty(), id -> false);

    RunOverrides {
        nics = List.copyOf(nics);
    }

    RunOverrides withNics(List<String> n) {
        return new RunOverrides(n, gpus, rails, direction, stagesGpuMemory);
    }

    RunOverrides withGpus(int g) {
        return new RunOverrides(nics, g, rails, direction, stagesGpuMemory);
    }

    RunOverrides withRails(OptionalInt r) {
        return new RunOverrides(nics, gpus, r, direction, stagesGpuMemory);
    }

    RunOverrides withDirection(Optional<Direction> d) {
        return new RunOverrides(nics, gpus, rails, d, stagesGpuMemory);
    }

    RunOverrides withGpuStaging(Predicate<String> s) {
        return new RunOverrides(nics, gpus, rails, direction, s);
    }

    /** The devices a point of {@code transport} with {@code settings} is made once for; {@code [null]} = once, no device. */
    List<String> nicsFor(String transport, Map<String, String> settings) {
        if (nics.isEmpty()
                || !ResourcePlan.RDMA_TRANSPORTS.contains(transport)
                || settings.containsKey(VerbsSettings.DEVICE)) {
            return Collections.singletonList(null);
        }
        return nics;
    }

    /** The rail counts a point of {@code transport} is made for. */
    int[] railsFor(String transport, int[] annotated) {
        return rails.isPresent() && ResourcePlan.RDMA_TRANSPORTS.contains(transport)
                ? new int[] {rails.getAsInt()}
                : annotated;
    }

    boolean bothWays(String transport, Direction annotated) {
        Direction d =
                direction.isPresent() && ResourcePlan.RDMA_TRANSPORTS.contains(transport) ? direction.get() : annotated;
        return d == Direction.BOTH_WAYS;
    }

    /**
     * {@code p} and, with {@code gpus} of 2 or more, its shifts: each GPU index moved by 0, 1, …
     * {@code gpus - 1} (modulo {@code gpus}), so {@code gpu->gpu} runs on every GPU, {@code gpu->gpu:1}
     * on every neighbouring pair, {@code host->gpu} on every GPU's host path. A placement beyond the
     * GPUs there are stays as written (and skips).
     */
    List<Placement> shifts(Placement p) {
        for (var side : List.of(p.initiator(), p.target())) {
            if (side.kind() == MemoryKind.GPU && side.device() >= gpus) {
                return List.of(p);
            }
        }
        if (!p.onGpu() || gpus < 2) {
            return List.of(p);
        }
        List<Placement> out = new ArrayList<>();
        for (int shift = 0; shift < gpus; shift++) {
            out.add(p.shifted(shift, gpus));
        }
        return out;
    }
}
