package dev.linkproof.transfer;

import java.util.Objects;

/**
 * Whether a transport (or memory kind) can run in this process, and if not, why: the {@link Kind}
 * says what is missing as a value the engine decides on (a required transport's point fails or
 * skips by it), the reason says it to a person; nothing reads the reason's words.
 */
public record Availability(Kind kind, String reason) {
    /** What an unavailable point lacks; {@link #AVAILABLE} when it lacks nothing. */
    public enum Kind {
        AVAILABLE,
        /**
         * Not on this host: the transport (no library, device, provider, class) or what the point's
         * memory needs (no GPU runtime, no GPU of that index, no huge pages, a GPU that cannot export
         * a dma-buf). The historical meaning of {@link #no}.
         */
        ABSENT,
        /**
         * The transport is here, and the device it would run this point on reports that it cannot do
         * what the point asks: a verbs device whose {@code atomic_cap} is {@code IBV_ATOMIC_NONE}, for an
         * atomic point. The hardware falls short; a profile that requires the transport fails the point.
         */
        DEVICE_LACKS_CAPABILITY,
        /**
         * The transport is here and does not do this point, whatever the hardware: an op it has none
         * of (tcp atomics), memory it does not cover (verbs atomics on GPU memory). A limit of the
         * transport as linkproof implements it, never a finding about the host: skipped under any profile.
         */
        NOT_SUPPORTED
    }

    public Availability {
        Objects.requireNonNull(kind, "kind");
    }

    public boolean available() {
        return kind == Kind.AVAILABLE;
    }

    public static Availability yes(String detail) {
        return new Availability(Kind.AVAILABLE, detail);
    }

    /** Unavailable because what the point needs is not on this host ({@link Kind#ABSENT}). */
    public static Availability no(String reason) {
        return new Availability(Kind.ABSENT, reason);
    }

    /** Unavailable because the point's device lacks a capability the point needs ({@link Kind#DEVICE_LACKS_CAPABILITY}). */
    public static Availability deviceLacks(String reason) {
        return new Availability(Kind.DEVICE_LACKS_CAPABILITY, reason);
    }

    /** Unavailable because the transport does not do this point ({@link Kind#NOT_SUPPORTED}). */
    public static Availability notSupported(String reason) {
        return new Availability(Kind.NOT_SUPPORTED, reason);
    }

    /**
     * The same availability, its reason after {@code prefix} ("verbs unavailable: "): what wraps a
     * transport's answer to say where it comes from keeps its kind.
     */
    public Availability prefixed(String prefix) {
        return new Availability(kind, prefix + reason);
    }
}
