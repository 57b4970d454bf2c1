package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The libfabric transport's settings, read from a point's {@link TransferSpec#settings()} (so both
 * ranks see the same values), each rank falling back to its own system property and environment:
 * {@code libfabric.provider} (else {@code linkproof.libfabric.provider}, {@code
 * LINKPROOF_LIBFABRIC_PROVIDER}, else libfabric's first match) and {@code libfabric.domain} (a rail's
 * NIC or interface; else any), as docs/transports/libfabric.md says. The target publishes the
 * provider it opened and the initiator opens the same: a target whose own fallback chose another than
 * the initiator's named one fails the point naming both.
 */
public record LibfabricSettings(Optional<String> provider, Optional<String> domain) {
    public static final String PROVIDER = "libfabric.provider";
    public static final String DOMAIN = "libfabric.domain";
    /** Per-rank fallback for {@link #PROVIDER}; a local agent inherits it from the engine's JVM. */
    public static final String PROVIDER_PROPERTY = "linkproof.libfabric.provider";

    public static final String PROVIDER_ENV = "LINKPROOF_LIBFABRIC_PROVIDER";

    static final Set<String> KEYS = Set.of(PROVIDER, DOMAIN);

    /** Parses the {@code libfabric.*} keys; an unknown {@code libfabric.} key is named. */
    public static LibfabricSettings of(TransferSpec spec) {
        return of(spec.settings());
    }

    static LibfabricSettings of(Map<String, String> s) {
        for (String k : s.keySet()) {
            if (k.startsWith("libfabric.") && !KEYS.contains(k)) {
                throw new IllegalArgumentException("unknown libfabric setting '" + k + "' (known: "
                        + String.join(", ", new TreeSet<>(KEYS)) + ")");
            }
        }
        Optional<String> provider = Optional.ofNullable(s.get(PROVIDER))
                .or(() -> Optional.ofNullable(System.getProperty(PROVIDER_PROPERTY)))
                .or(() -> Optional.ofNullable(System.getenv(PROVIDER_ENV)))
                .map(String::strip)
                .filter(p -> !p.isEmpty());
        Optional<String> domain =
                Optional.ofNullable(s.get(DOMAIN)).map(String::strip).filter(d -> !d.isEmpty());
        return new LibfabricSettings(provider, domain);
    }

    /**
     * The capabilities {@code spec} needs of its provider: its op's, and FI_HMEM where either rank's
     * memory is a GPU's. Both ranks ask the same, so both open the provider as it offers FI_HMEM.
     */
    static long caps(TransferSpec spec) {
        return caps(spec.op()) | (gpuMemory(spec) ? LibfabricAbi.FI_HMEM : 0);
    }

    static boolean gpuMemory(TransferSpec spec) {
        return spec.initiatorMemory().kind() == MemoryKind.GPU
                || spec.targetMemory().kind() == MemoryKind.GPU;
    }

    /** The capabilities a point of {@code op} needs of its provider. */
    static long caps(Op op) {
        return switch (op) {
            case WRITE, READ -> LibfabricAbi.FI_RMA;
            case SEND -> LibfabricAbi.FI_MSG;
            case FETCH_ADD, COMPARE_SWAP -> LibfabricAbi.FI_ATOMIC;
            default -> throw new IllegalArgumentException("libfabric has no " + op.label() + " here");
        };
    }
}
