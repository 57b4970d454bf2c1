package dev.linkproof.transfer;

/** Whether a transport (or memory kind) can run in this process, and if not, why. */
public record Availability(boolean available, String reason) {
    public static Availability yes(String detail) {
        return new Availability(true, detail);
    }

    public static Availability no(String reason) {
        return new Availability(false, reason);
    }
}
