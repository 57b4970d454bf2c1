package dev.linkproof.fleet.blame;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Locale;

/**
 * The blame on a simulated fleet of many nodes: a pairwise first round (every ordered pair), five
 * injected faults (a slow node, a slow link, a dead node, a corrupting node, a missing node), the
 * retests it plans answered by the same model, and the verdicts, with the time and heap each step
 * took. {@code BlameAtScaleTest} asserts its verdicts; {@code bench/fleet-blame-sim.sh} runs
 * {@link #main} for the figures in bench/RESULTS.md.
 */
public final class FleetBlameSimulation {
    static final String SLOW_NODE = "lpn100";
    static final String SLOW_LINK_A = "lpn200";
    static final String SLOW_LINK_B = "lpn201";
    static final String DEAD_NODE = "lpn300";
    static final String CORRUPTING_NODE = "lpn400";
    static final String MISSING_NODE = "lpn500";

    /** What one simulation found, and what it cost. */
    record Result(
            int nodes,
            int outcomes,
            long pairs,
            int retests,
            int retestRounds,
            Blame blame,
            double generateSeconds,
            double planSeconds,
            double blameSeconds,
            long heapWithOutcomesBytes,
            long heapWithBlameBytes,
            long peakHeapBytes,
            long allocatedBytes) {}

    private FleetBlameSimulation() {}

    static Result run(int nodes) {
        SyntheticFleet fleet = new SyntheticFleet(nodes, 1024)
                .slowNode(SLOW_NODE)
                .slowLink(SLOW_LINK_A, SLOW_LINK_B)
                .deadNode(DEAD_NODE)
                .corruptingNode(CORRUPTING_NODE)
                .missingNode(MISSING_NODE);
        long t0 = System.nanoTime();
        Observations first = fleet.firstRound();
        long t1 = System.nanoTime();
        long withOutcomes = usedAfterGc();
        resetPeaks();
        long allocated0 = allocated();
        long t2 = System.nanoTime();
        int[] reruns = new int[3];
        Verdicts.Reruns model = fleet.reruns();
        long t3 = System.nanoTime();
        Blame blame = Verdicts.reach(
                first,
                new Verdicts.Reruns() {
                    @Override
                    public List<PairOutcome> run(Stage stage, List<RerunRound> rounds) {
                        return model.run(stage, rounds);
                    }

                    @Override
                    public void planned(Stage stage, int pairs, int runs, int rounds) {
                        if (stage == Stage.RETEST) {
                            reruns[0] += pairs;
                            reruns[1] += rounds;
                        } else {
                            reruns[2] += runs;
                        }
                    }
                },
                BlameSettings.DEFAULTS);
        long t4 = t3;
        long t5 = System.nanoTime();
        long allocatedBytes = allocated() - allocated0;
        long peak = peak();
        long withBlame = usedAfterGc();
        long registered = first.registered().size();
        // Keep the outcomes reachable up to here, so the heap figure holds them as a run does.
        int outcomes = first.outcomes().size();
        return new Result(
                nodes,
                outcomes,
                registered * (registered - 1) / 2,
                reruns[0],
                reruns[1],
                blame,
                (t1 - t0) / 1e9,
                (t3 - t2) / 1e9,
                (t5 - t4) / 1e9,
                withOutcomes,
                withBlame,
                peak,
                allocatedBytes);
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        // The plan the engine prints before any transfer: the pairwise round robin over the same nodes.
        List<String> names = java.util.stream.IntStream.rangeClosed(1, nodes)
                .mapToObj(i -> "lpn" + i)
                .toList();
        long p0 = System.nanoTime();
        dev.linkproof.fleet.plan.Plan pattern =
                dev.linkproof.fleet.plan.PatternParser.parse("pairwise").plan(names);
        long p1 = System.nanoTime();
        System.out.printf(
                Locale.ROOT,
                "pattern pairwise nodes=%d rounds=%d directed_pairs=%d plan_s=%.3f%n",
                nodes,
                pattern.rounds().size(),
                pattern.pairCount(),
                (p1 - p0) / 1e9);
        Result r = run(nodes);
        System.out.printf(
                Locale.ROOT,
                "fleet-blame-sim nodes=%d registered_pairs=%d outcomes=%d retests=%d retest_rounds=%d%n",
                r.nodes(),
                r.pairs(),
                r.outcomes(),
                r.retests(),
                r.retestRounds());
        System.out.printf(
                Locale.ROOT,
                "time generate_s=%.3f plan_retests_s=%.3f blame_s=%.3f plan_plus_blame_s=%.3f%n",
                r.generateSeconds(),
                r.planSeconds(),
                r.blameSeconds(),
                r.planSeconds() + r.blameSeconds());
        System.out.printf(
                Locale.ROOT,
                "heap outcomes_mib=%.1f with_verdicts_mib=%.1f peak_during_plan_and_blame_mib=%.1f"
                        + " allocated_by_plan_and_blame_mib=%.1f max_mib=%.1f%n",
                mib(r.heapWithOutcomesBytes()),
                mib(r.heapWithBlameBytes()),
                mib(r.peakHeapBytes()),
                mib(r.allocatedBytes()),
                mib(Runtime.getRuntime().maxMemory()));
        r.blame().verdicts().forEach(v -> System.out.println("verdict " + v.describe()));
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    /** Bytes this thread has allocated so far (HotSpot's count; the plan and blame run on it alone). */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long usedAfterGc() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /**
     * The sum of the heap pools' peaks since {@link #resetPeaks} (reset once the outcomes are held):
     * the outcomes, the plan's and blame's working sets, and their garbage not yet collected; an upper bound.
     */
    private static long peak() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
