package dev.linkproof.fleet.coordinate;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.plan.PatternParser;
import dev.linkproof.fleet.plan.Plan;
import dev.linkproof.fleet.rendezvous.Registry;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The coordinator's rounds at fleet scale, for bench/fleet-scale.sh (issue #24, item 9): {@code nodes}
 * real agents in this JVM on loopback (each its own AgentServer, port and sessions), the pairwise plan
 * over them, and its first {@code rounds} rounds run through {@link Coordinator} with a 1-byte tcp
 * WRITE per pair, every pair of a round at once (each pair both ways: {@code nodes} drives a round).
 * Prints each round's wall time and slowest pair, and how many pairs failed: what one round of a
 * 1,024-node fleet costs the coordinator, beside the pairs themselves.
 */
public final class FleetScaleSimulation {
    private FleetScaleSimulation() {}

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String token = "fleet-scale-simulation-token";
        long t0 = System.nanoTime();
        List<AgentServer> agents = new ArrayList<>();
        Map<String, Registry.Node> registered = new HashMap<>();
        List<String> names =
                IntStream.rangeClosed(1, nodes).mapToObj(i -> "sim" + i).toList();
        for (String n : names) {
            AgentServer a = AgentServer.start("127.0.0.1", 0, token, IoSettings.DEFAULT);
            agents.add(a);
            registered.put(
                    n,
                    new Registry.Node(
                            n, a.host(), a.port(), ProcessHandle.current().pid(), "sim", Instant.now()));
        }
        System.out.printf(
                Locale.ROOT, "fleet-scale nodes=%d agents_started_s=%.2f%n", nodes, (System.nanoTime() - t0) / 1e9);
        long p0 = System.nanoTime();
        Plan plan = PatternParser.parse("pairwise").plan(names);
        System.out.printf(
                Locale.ROOT,
                "plan rounds=%d directed_pairs=%d plan_s=%.3f%n",
                plan.rounds().size(),
                plan.pairCount(),
                (System.nanoTime() - p0) / 1e9);
        TransferSpec spec = TransferSpec.builder()
                .pointId("fleet-scale")
                .transport("tcp")
                .op(Op.WRITE)
                .size(1)
                .batch(1)
                .iterations(1)
                .warmup(0)
                .build();
        Timeouts timeouts = new Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(60), IoSettings.DEFAULT);
        double sumRound = 0;
        double sumSlowest = 0;
        try (Coordinator c = new Coordinator(
                n -> Optional.ofNullable(registered.get(n)),
                token,
                timeouts,
                Duration.ofSeconds(60),
                Transports.discover())) {
            System.out.println("round  pairs  wall_s  slowest_pair_s  failed");
            for (int r = 0; r < Math.min(rounds, plan.rounds().size()); r++) {
                List<Pair> round = plan.rounds().get(r).pairs();
                long s = System.nanoTime();
                List<PairRun> runs = c.runRound(round, spec);
                double wall = (System.nanoTime() - s) / 1e9;
                double slowest =
                        runs.stream().mapToLong(PairRun::wallNanos).max().orElse(0) / 1e9;
                long failed =
                        runs.stream().filter(x -> x.failureKind().isPresent()).count();
                System.out.printf(
                        Locale.ROOT, "%5d  %5d  %6.2f  %14.2f  %6d%n", r + 1, round.size(), wall, slowest, failed);
                runs.stream()
                        .filter(x -> x.failure() != null)
                        .limit(2)
                        .forEach(x -> System.out.println(
                                "  e.g. " + x.pair() + ": " + x.failure().getMessage()));
                if (r > 0) { // the first round opens every initiator's session: reported, left out of the sums
                    sumRound += wall;
                    sumSlowest += slowest;
                }
            }
        } finally {
            agents.forEach(AgentServer::close);
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf(
                Locale.ROOT,
                "rounds after the first: wall %.2f s, slowest pairs %.2f s, ratio %.3f; heap used %.0f MiB; "
                        + "threads peak %d%n",
                sumRound,
                sumSlowest,
                sumSlowest == 0 ? 0 : sumRound / sumSlowest,
                (rt.totalMemory() - rt.freeMemory()) / 1048576.0,
                java.lang.management.ManagementFactory.getThreadMXBean().getPeakThreadCount());
    }
}
