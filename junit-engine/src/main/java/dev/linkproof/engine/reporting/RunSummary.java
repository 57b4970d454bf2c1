package dev.linkproof.engine.reporting;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.RailResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's outcome in a few lines, for the end of the console output: how many points passed,
 * failed (by the categories the Allure report files them under) and were skipped (by reason, the
 * most frequent first), and how many reruns were made; where points ran on two or more RDMA devices
 * ({@code linkproof.nics=each}, or the rails of one point), how each device fared (a point of rails
 * counts each rail's device, {@link #onRails}). On a hardware runner the skip reasons are
 * what to read first: a point skipped for a missing provider or driver is a setup fault, not a pass.
 */
final class RunSummary {
    /** Skip reasons listed one by one; the rest are counted. */
    static final int REASONS_SHOWN = 6;

    private static final int REASON_CHARS = 160;

    private final AtomicInteger passed = new AtomicInteger();
    private final AtomicInteger reruns = new AtomicInteger();
    private final AtomicInteger sweepsFailed = new AtomicInteger();
    private final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> skipped = new ConcurrentHashMap<>();
    private final AtomicLong start = new AtomicLong(System.nanoTime());
    /** Per RDMA device a point ran on: {passed, failed}; listed when points ran on two or more (linkproof.nics=each). */
    private final Map<String, AtomicInteger[]> devices = new ConcurrentHashMap<>();

    void passed() {
        passed.incrementAndGet();
    }

    /** A point that failed, counted under its kind's category (the Allure report's). */
    void failed(FailureKind kind) {
        failed.computeIfAbsent(kind.category(), k -> new AtomicInteger()).incrementAndGet();
    }

    void skipped(String reason) {
        String r = reason == null || reason.isBlank()
                ? "skipped"
                : reason.strip().lines().findFirst().orElse("skipped");
        if (r.length() > REASON_CHARS) {
            r = r.substring(0, REASON_CHARS - 1) + "…";
        }
        skipped.computeIfAbsent(r, k -> new AtomicInteger()).incrementAndGet();
    }

    /** A finished point that ran on RDMA device {@code device} (none: {@code null}), passed or not. */
    void onDevice(String device, boolean passed) {
        if (device != null) {
            devices
                    .computeIfAbsent(device, k -> new AtomicInteger[] {new AtomicInteger(), new AtomicInteger()})[
                    passed ? 0 : 1]
                    .incrementAndGet();
        }
    }

    /**
     * A finished point of several rails, passed or not: each rail's device once per point (a rail out
     * and its way back on one NIC count once), not the one device its aggregate names. A rail's device
     * is its RDMA device ({@code verbs.device}, ucx's {@code UCX_NET_DEVICES}), else, for a rail of GPUs,
     * its GPU pair ("GPU 1→GPU 0"); a rail of neither (a tcp link) counts under none. When the point
     * failed, the devices of the rails whose own data did not validate failed; when no rail's data
     * failed (a criterion on the aggregate or the balance, a broken run), every rail's device did.
     */
    void onRails(List<RailResult> rails, boolean passed) {
        boolean someRailCorrupt = rails.stream().anyMatch(r -> !r.measurement().isValid());
        Map<String, Boolean> fared = new java.util.LinkedHashMap<>();
        for (RailResult r : rails) {
            boolean failedHere =
                    !passed && (!someRailCorrupt || !r.measurement().isValid());
            railDevice(r.measurement().spec()).ifPresent(d -> fared.merge(d, !failedHere, Boolean::logicalAnd));
        }
        fared.forEach(this::onDevice);
    }

    /** A rail's device, as {@link #onRails} counts it. */
    static java.util.Optional<String> railDevice(TransferSpec spec) {
        java.util.Optional<String> nic = dev.linkproof.reports.results.PointRecord.nic(spec);
        if (nic.isPresent()) {
            return nic;
        }
        MemoryPlacement from = spec.initiatorMemory();
        MemoryPlacement to = spec.targetMemory();
        if (from.kind() != MemoryKind.GPU && to.kind() != MemoryKind.GPU) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(side(from) + "→" + side(to));
    }

    private static String side(MemoryPlacement p) {
        return p.kind() == MemoryKind.GPU ? "GPU " + p.device() : p.kind().label();
    }

    void rerun() {
        reruns.incrementAndGet();
    }

    /** A sweep failed by a curve rule over its points (its points may all have passed). */
    void sweepFailed() {
        sweepsFailed.incrementAndGet();
    }

    /** The summary's lines, without a prefix; none when no point finished. */
    List<String> lines() {
        int fail = sum(failed);
        int skip = sum(skipped);
        int all = passed.get() + fail + skip;
        if (all == 0 && sweepsFailed.get() == 0) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        Duration took = Duration.ofNanos(System.nanoTime() - start.get());
        lines.add(String.format(
                Locale.ROOT,
                "%d point(s) in %d s: %d passed, %d failed, %d skipped%s",
                all,
                took.toSeconds(),
                passed.get(),
                fail,
                skip,
                reruns.get() == 0 ? "" : "; " + reruns.get() + " rerun(s)"));
        if (sweepsFailed.get() > 0) {
            lines.add(String.format(
                    Locale.ROOT,
                    "failed:  %4d sweep(s) as a whole (curve rule; the points are counted above)",
                    sweepsFailed.get()));
        }
        for (Map.Entry<String, Integer> e : byCount(failed)) {
            lines.add(String.format(Locale.ROOT, "failed:  %4d × %s", e.getValue(), e.getKey()));
        }
        if (devices.size() > 1) {
            // One NIC of eight failing reads at a glance: the most failures first.
            devices.entrySet().stream()
                    .sorted(Comparator.<Map.Entry<String, AtomicInteger[]>>comparingInt(e -> -e.getValue()[1].get())
                            .thenComparing(Map.Entry::getKey))
                    .forEach(e -> lines.add(String.format(
                            Locale.ROOT,
                            "device:  %s: %d passed, %d failed",
                            e.getKey(),
                            e.getValue()[0].get(),
                            e.getValue()[1].get())));
        }
        List<Map.Entry<String, Integer>> reasons = byCount(skipped);
        for (Map.Entry<String, Integer> e : reasons.subList(0, Math.min(REASONS_SHOWN, reasons.size()))) {
            lines.add(String.format(Locale.ROOT, "skipped: %4d × %s", e.getValue(), e.getKey()));
        }
        if (reasons.size() > REASONS_SHOWN) {
            int rest = reasons.subList(REASONS_SHOWN, reasons.size()).stream()
                    .mapToInt(Map.Entry::getValue)
                    .sum();
            lines.add(String.format(
                    Locale.ROOT,
                    "skipped: %4d × for %d other reason(s) (the Allure report and the " + "results file give each)",
                    rest,
                    reasons.size() - REASONS_SHOWN));
        }
        return lines;
    }

    private static int sum(Map<String, AtomicInteger> m) {
        return m.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** Most frequent first, then by name, so the summary reads the same run to run. */
    private static List<Map.Entry<String, Integer>> byCount(Map<String, AtomicInteger> m) {
        return m.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue().get()))
                .sorted(Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue)
                        .reversed()
                        .thenComparing(Map.Entry::getKey))
                .toList();
    }
}
