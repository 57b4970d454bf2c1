package dev.linkproof.profiles;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import java.util.Optional;

/**
 * Which memory a criterion covers, initiator side and target side; an empty side means any kind.
 * Written {@code host} (both sides host), {@code gpu->host} or {@code gpu→host}, {@code any->gpu}, {@code any}.
 */
public record MemoryPair(Optional<MemoryKind> initiator, Optional<MemoryKind> target) {
    public static final MemoryPair ANY = new MemoryPair(Optional.empty(), Optional.empty());

    public static MemoryPair both(MemoryKind k) {
        return new MemoryPair(Optional.of(k), Optional.of(k));
    }

    public boolean matches(MemoryPlacement initiatorMemory, MemoryPlacement targetMemory) {
        return initiator.map(k -> k == initiatorMemory.kind()).orElse(true)
                && target.map(k -> k == targetMemory.kind()).orElse(true);
    }

    public boolean overlaps(MemoryPair o) {
        return side(initiator, o.initiator) && side(target, o.target);
    }

    private static boolean side(Optional<MemoryKind> a, Optional<MemoryKind> b) {
        return a.isEmpty() || b.isEmpty() || a.get() == b.get();
    }

    @Override
    public String toString() {
        if (initiator.isEmpty() && target.isEmpty()) {
            return "any";
        }
        if (initiator.equals(target)) {
            return initiator.get().label();
        }
        return initiator.map(MemoryKind::label).orElse("any") + "→"
                + target.map(MemoryKind::label).orElse("any");
    }
}
