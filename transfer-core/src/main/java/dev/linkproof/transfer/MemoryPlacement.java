package dev.linkproof.transfer;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A memory kind on one side of a pair, with a device index for GPUs: {@code host}, {@code hugepage},
 * {@code gpu}, {@code gpu:1}.
 */
public record MemoryPlacement(MemoryKind kind, int device) {
    public static final MemoryPlacement HOST = new MemoryPlacement(MemoryKind.HOST, 0);

    public MemoryPlacement {
        if (kind == null) {
            throw new IllegalArgumentException("memory kind is required");
        }
        if (device < 0) {
            throw new IllegalArgumentException("device index must be >= 0, was " + device);
        }
    }

    @JsonCreator
    public static MemoryPlacement parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int colon = t.indexOf(':');
        String kindText = colon < 0 ? t : t.substring(0, colon);
        MemoryKind kind;
        try {
            kind = MemoryKind.valueOf(kindText.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown memory kind '" + text + "' (expected host, hugepage, gpu or gpu:N)");
        }
        int device = 0;
        if (colon >= 0) {
            if (kind != MemoryKind.GPU) {
                throw new IllegalArgumentException("only gpu memory takes a device index: '" + text + "'");
            }
            try {
                device = Integer.parseInt(t.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad device index in '" + text + "'");
            }
        }
        return new MemoryPlacement(kind, device);
    }

    @JsonValue
    @Override
    public String toString() {
        return kind == MemoryKind.GPU && device != 0 ? "gpu:" + device : kind.label();
    }
}
