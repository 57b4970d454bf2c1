package dev.linkproof.reports.prometheus;

import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.TransferSpec;
import java.util.List;
import java.util.Objects;

/**
 * The labels of every point-level series (docs/reports.md, "Prometheus"), a run of one pair's and a fleet's alike:
 * short values a dashboard filters and groups by, never the point's JUnit unique id (some 200 characters).
 * {@code test} and {@code point} keep apart two points that share op, size, transport, memory and rails (a sweep of
 * batch or connections, two methods that run the same point): without them their series would be one.
 *
 * @param test  the test method, {@code SimpleClassName.method} ({@code WriteBandwidth.meetsProfile})
 * @param point the point's display name ({@code write 4 KiB ×8 · 4 conn · tcp})
 */
public record PointLabels(
        String test, String point, String op, long sizeBytes, String transport, String memory, String rails) {
    /** The label names, in the order of {@link #values()}. */
    public static final List<String> NAMES =
            List.of("test", "point", "op", "size_bytes", "transport", "memory", "rails");

    public PointLabels {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(rails, "rails");
    }

    /**
     * A point about to run: its spec as it runs (the profile's GPUs in place of {@code gpu:k}).
     *
     * @param rails the point's rails, 0 for every rail the profile resolves
     */
    public static PointLabels of(String testClass, String method, String pointName, TransferSpec spec, int rails) {
        return new PointLabels(
                test(testClass, method),
                pointName,
                spec.op().label(),
                spec.size(),
                spec.transport(),
                spec.initiatorMemory() + "->" + spec.targetMemory(),
                rails(rails));
    }

    /** A point's record, as the results file has it. */
    public static PointLabels of(PointRecord r, int rails) {
        return new PointLabels(
                test(r.testClass(), r.method()), r.name(), r.op(), r.size(), r.transport(), r.memory(), rails(rails));
    }

    /** {@code dev.linkproof.conformance.WriteBandwidth} and {@code meetsProfile}: {@code WriteBandwidth.meetsProfile}. */
    static String test(String testClass, String method) {
        return testClass.substring(testClass.lastIndexOf('.') + 1) + "." + method;
    }

    /** 0 (every rail the profile resolves) is {@code all}. */
    static String rails(int rails) {
        return rails == 0 ? "all" : Integer.toString(rails);
    }

    /** The values, in the order of {@link #NAMES}. */
    public String[] values() {
        return new String[] {test, point, op, Long.toString(sizeBytes), transport, memory, rails};
    }

    /** The values, then {@code more}: the label values of a family whose names are {@link #NAMES} then others. */
    public String[] values(String... more) {
        String[] v = values();
        String[] out = java.util.Arrays.copyOf(v, v.length + more.length);
        System.arraycopy(more, 0, out, v.length, more.length);
        return out;
    }

    /** {@link #NAMES}, then {@code more}: the names of a family whose values are {@link #values(String...)}. */
    public static List<String> names(String... more) {
        List<String> out = new java.util.ArrayList<>(NAMES);
        out.addAll(List.of(more));
        return List.copyOf(out);
    }
}
