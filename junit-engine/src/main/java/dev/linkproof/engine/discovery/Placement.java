package dev.linkproof.engine.discovery;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;

/** Where a point's two buffers live: the initiator's and the target's ({@code host->gpu:1}). */
record Placement(MemoryPlacement initiator, MemoryPlacement target) {
    /** {@code host}, {@code gpu:1} (both sides) or {@code host->gpu:1}, as {@code @TransferTest(memory)} takes it. */
    static Placement parse(String text) throws InvalidSweepException {
        try {
            String[] sides = text.split("->|→", -1);
            if (sides.length == 1) {
                MemoryPlacement m = MemoryPlacement.parse(sides[0]);
                return new Placement(m, m);
            }
            if (sides.length == 2) {
                return new Placement(MemoryPlacement.parse(sides[0]), MemoryPlacement.parse(sides[1]));
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidSweepException("memory: " + e.getMessage());
        }
        throw new InvalidSweepException("memory: bad placement '" + text + "' (expected e.g. host or host->gpu:1)");
    }

    boolean onGpu() {
        return initiator.kind() == MemoryKind.GPU || target.kind() == MemoryKind.GPU;
    }

    /** Each GPU side moved {@code shift} GPUs on, modulo {@code gpus}. */
    Placement shifted(int shift, int gpus) {
        return new Placement(shifted(initiator, shift, gpus), shifted(target, shift, gpus));
    }

    private static MemoryPlacement shifted(MemoryPlacement m, int shift, int gpus) {
        return m.kind() == MemoryKind.GPU ? new MemoryPlacement(m.kind(), (m.device() + shift) % gpus) : m;
    }

    /** As a unique id writes it: {@code host->gpu:1}. */
    @Override
    public String toString() {
        return initiator + "->" + target;
    }
}
