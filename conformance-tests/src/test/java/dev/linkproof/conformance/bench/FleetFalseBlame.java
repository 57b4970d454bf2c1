package dev.linkproof.conformance.bench;

import dev.linkproof.conformance.fleet.SlurmFleet;
import dev.linkproof.conformance.fleet.fixtures.FleetWrite;
import dev.linkproof.reports.fleet.FleetVerdictDocument;
import dev.linkproof.reports.fleet.FleetVerdictFile;
import dev.linkproof.transfer.control.AgentProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * bench/fleet-false-blame.sh's runner (issue #31, item 6): the fleet's false-verdict rate. Clean
 * fleets — the Slurm cluster of network namespaces ({@code --nodes}, default 8) and
 * {@code --loopback-agents} (16) agents on 127.0.0.1 — where every verdict is a false one; then
 * faulty Slurm fleets, each with a known fault, where the expected verdicts must all be found and
 * nothing else blamed:
 *
 * <ul>
 *   <li>{@code half-node}: lpn3 sends at half the line rate (or the clean per-pair bandwidth) — bad-node lpn3;
 *   <li>{@code half-link}: lpn1 → lpn2 at half — bad-link lpn1&lt;-&gt;lpn2;
 *   <li>{@code corrupting}: lpn2's agent flips a bit of what it writes — corrupting-node lpn2;
 *   <li>{@code two-bad}: lpn3 and lpn6 at half — bad-node lpn3 and bad-node lpn6;
 *   <li>{@code breaker}: lpn2, lpn4 and lpn6 at half (three of eight), with {@code linkproof.fleet.act=slurm}
 *       — one fleet-degraded verdict, and no node drained.
 * </ul>
 *
 * <p>Every run is judged by the project's shipped fleet criteria: SlurmFleet's relaxed figures for the
 * suite are set back to the defaults (minOfMedianBandwidth 0.93, maxOfLowestLatency 2.1), and no other
 * fleet key is set except where a case needs it.
 *
 * <p>With {@code --link-mbit B} (the script's default, 100), every node's egress is held to B Mbit/s
 * for every Slurm run, clean or faulty: the fleet's line rate, so that a pair's bandwidth is set by
 * its links as on a fabric, and "half" is B/2, a node or link at half its line rate. Without it, the
 * pairs run as fast as two shared cores let eight namespaces run (clean pairs then spread over 10×:
 * 0.12 to 4 GB/s in one bench), and "half" is half the median, over the clean Slurm runs of this
 * invocation, of each run's point median ({@code points[].medianGBps}); without clean Slurm runs,
 * one calibration run (not counted) measures it, or {@code --half-rate-mbit} gives it. Prints one
 * line per run and a table per case, and exits 1 when a target is missed.
 *
 * <p>Needs the Slurm cluster (root, slurm-wlm, munge) for every case but {@code clean-loopback}; run
 * from conformance-tests with the test class path and {@code -Dlinkproof.consoleLauncher}.
 */
public final class FleetFalseBlame {
    static final List<String> CASES = List.of("clean-slurm", "clean-loopback", "half-node", "half-link", "corrupting", "two-bad",
            "breaker");
    static final String DEGRADED = "fleet-degraded";
    /** The shipped defaults (FleetSettings), set over SlurmFleet's relaxed suite figures. */
    static final Map<String, String> SHIPPED = Map.of("linkproof.fleet.minOfMedianBandwidth", "0.93",
            "linkproof.fleet.maxOfLowestLatency", "2.1");
    static final long LOOPBACK_DEADLINE_S = 600;

    /** A faulty case: the slurm-netns.sh faults (RATE stands for the half rate), a corrupting node, acting, what must be found. */
    record Fault(String name, List<List<String>> faults, String corruptNode, boolean act, List<String> expected) {
        List<String> faultedNodes() {
            return faults.stream().map(f -> f.get(1)).distinct().toList();
        }
    }

    /** One run's outcome. {@code error} is non-null when the run produced no verdicts to judge. */
    record Outcome(String caseName, int run, List<String> verdicts, int expected, int found, int extra, int drained, String error,
            double seconds) {
    }

    private final Path work;
    private final int nodes;
    private final int loopbackAgents;
    private final List<Outcome> outcomes = new ArrayList<>();
    private final List<Double> cleanMedians = new ArrayList<>();
    private double cleanMin = Double.POSITIVE_INFINITY;
    private double cleanMax = 0;

    /**
     * The fleet's line rate in Mbit/s: every node's egress is held to it (tbf) for every Slurm run,
     * clean or faulty, so that a pair's bandwidth is set by its links, as on a fabric, and not by how
     * two shared cores schedule eight namespaces (which spreads clean pairs over 10×). 0: no shaping.
     */
    private int linkMbit;

    private FleetFalseBlame(Path work, int nodes, int loopbackAgents) {
        this.work = work;
        this.nodes = nodes;
        this.loopbackAgents = loopbackAgents;
    }

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (IllegalArgumentException usage) { // before any run: a bad knob
            System.err.println("fleet-false-blame: " + usage.getMessage());
            System.exit(2);
        }
    }

    private static void run(String[] args) throws Exception {
        Map<String, String> opt = options(args);
        int runs = Integer.parseInt(opt.getOrDefault("runs", "20"));
        int faultRuns = Integer.parseInt(opt.getOrDefault("fault-runs", Integer.toString(runs)));
        int nodes = Integer.parseInt(opt.getOrDefault("nodes", "8"));
        int loopback = Integer.parseInt(opt.getOrDefault("loopback-agents", "16"));
        List<String> cases = Arrays.stream(opt.getOrDefault("cases", String.join(",", CASES)).split("[ ,]+")).filter(s -> !s.isEmpty())
                .toList();
        for (String c : cases) {
            if (!CASES.contains(c)) {
                throw new IllegalArgumentException("case '" + c + "' is not one of " + CASES);
            }
        }
        if ((cases.contains("two-bad") || cases.contains("breaker")) && nodes < 6) {
            throw new IllegalArgumentException("two-bad and breaker fault lpn6: they need at least 6 nodes, not " + nodes);
        }
        if (cases.stream().anyMatch(c -> !c.equals("clean-loopback")) && (nodes < 3 || nodes > 9)) {
            throw new IllegalArgumentException("the Slurm cluster has 3..9 nodes, not " + nodes);
        }
        Path work = Files.createDirectories(Path.of(opt.getOrDefault("out", "target/fleet-false-blame")).toAbsolutePath());
        FleetFalseBlame bench = new FleetFalseBlame(work, nodes, loopback);
        bench.linkMbit = Integer.parseInt(opt.getOrDefault("link-mbit", "0"));
        Double halfRate = opt.containsKey("half-rate-mbit") ? Double.valueOf(opt.get("half-rate-mbit"))
                : bench.linkMbit > 0 ? Double.valueOf(bench.linkMbit / 2.0) : null;
        if (bench.linkMbit > 0) {
            System.out.printf(Locale.ROOT, "# every node's egress held to %d Mbit/s (the fleet's line rate); faults at %.0f Mbit/s%n",
                    bench.linkMbit, halfRate);
        }
        System.out.printf(Locale.ROOT, "# cases %s; %d clean run(s) each, %d run(s) per faulty case; %d Slurm nodes, %d loopback agents%n",
                String.join(" ", cases), runs, faultRuns, nodes, loopback);
        System.out.println("# case            run  wall_s  result                        verdicts");
        try {
            boolean slurm = cases.stream().anyMatch(c -> !c.equals("clean-loopback"));
            if (slurm) {
                resumeDrained().forEach(l -> System.out.println("# resumed, drained before this bench: " + l));
                SlurmFleet.up(nodes);
                for (int i = 1; i <= nodes; i++) {
                    SlurmFleet.fault("clear", "lpn" + i); // a fault an interrupted run left behind
                }
                resumeDrained().forEach(l -> System.out.println("# resumed, drained before this bench: " + l));
            }
            for (String c : cases) {
                switch (c) {
                    case "clean-slurm" -> IntStream.rangeClosed(1, runs).forEach(i -> bench.cleanSlurm(c, i, true));
                    case "clean-loopback" -> IntStream.rangeClosed(1, runs).forEach(i -> bench.cleanLoopback(c, i));
                    default -> {
                        if (halfRate == null) {
                            halfRate = bench.halfRateMbit();
                        }
                        Fault f = fault(c);
                        for (int i = 1; i <= faultRuns; i++) {
                            bench.faulty(f, i, halfRate);
                        }
                    }
                }
            }
        } catch (Exception | Error e) {
            // The summary below ends the JVM: say what stopped the bench first, or it is lost.
            System.out.println("# the bench stopped: " + e);
            e.printStackTrace(System.out);
            throw e;
        } finally {
            boolean met = bench.summary(cases, halfRate);
            System.out.flush();
            System.exit(met ? 0 : 1);
        }
    }

    static Fault fault(String name) {
        return switch (name) {
            case "half-node" -> new Fault(name, List.of(List.of("slow-node", "lpn3", "RATE")), "", false, List.of("bad-node lpn3"));
            case "half-link" -> new Fault(name, List.of(List.of("slow-link", "lpn1", "lpn2", "RATE")), "", false,
                    List.of("bad-link lpn1<->lpn2"));
            case "corrupting" -> new Fault(name, List.of(), "lpn2", false, List.of("corrupting-node lpn2"));
            case "two-bad" -> new Fault(name, List.of(List.of("slow-node", "lpn3", "RATE"), List.of("slow-node", "lpn6", "RATE")), "", false,
                    List.of("bad-node lpn3", "bad-node lpn6"));
            case "breaker" -> new Fault(name, List.of(List.of("slow-node", "lpn2", "RATE"), List.of("slow-node", "lpn4", "RATE"),
                    List.of("slow-node", "lpn6", "RATE")), "", true, List.of(DEGRADED));
            default -> throw new IllegalArgumentException("no faulty case " + name);
        };
    }

    /** The Slurm fleet's suite run, with the shipped fleet criteria over SlurmFleet's relaxed ones. */
    private SlurmFleet.Run slurmRun(String name) {
        SlurmFleet.Run r = SlurmFleet.Run.named(name);
        for (var e : SHIPPED.entrySet()) {
            r = r.with(e.getKey(), e.getValue());
        }
        return r;
    }

    /** A clean Slurm run; {@code counted}: a run of the clean-slurm case (else the calibration run). */
    /** Every node at the fleet's line rate (when one is set), before a run's faults replace some. */
    private void lineRate() throws Exception {
        if (linkMbit > 0) {
            for (int n = 1; n <= nodes; n++) {
                SlurmFleet.fault("slow-node", "lpn" + n, linkMbit + "mbit");
            }
        }
    }

    /** Every node back to no shaping; errors named in the result, not thrown. */
    private String clearAll() {
        String error = null;
        for (int n = 1; n <= nodes; n++) {
            try {
                SlurmFleet.fault("clear", "lpn" + n);
            } catch (Exception e) {
                error = (error == null ? "" : error + "; ") + "clearing lpn" + n + ": " + e.getMessage();
            }
        }
        return error;
    }

    private void cleanSlurm(String caseName, int i, boolean counted) {
        long t0 = System.nanoTime();
        try {
            SlurmFleet.Job job;
            try {
                lineRate();
                job = SlurmFleet.run(slurmRun(caseName + "-" + i), work, nodes);
            } finally {
                clearAll();
            }
            List<String> drained = resumeDrained();
            FleetVerdictDocument d = read(job.verdictFile(), job.coordinatorOutput());
            for (var p : d.points()) {
                if (p.medianGBps() != null) {
                    cleanMedians.add(p.medianGBps());
                    cleanMin = Math.min(cleanMin, p.minGBps());
                    cleanMax = Math.max(cleanMax, p.maxGBps());
                }
            }
            record(counted, caseName, i, d, List.of(), drained, null, t0);
        } catch (Exception e) {
            record(counted, caseName, i, null, List.of(), List.of(), e.getMessage(), t0);
        }
    }

    private void cleanLoopback(String caseName, int i) {
        long t0 = System.nanoTime();
        try {
            record(true, caseName, i, FleetVerdictFile.read(loopbackRun(caseName + "-" + i)), List.of(), List.of(), null, t0);
        } catch (Exception e) {
            record(true, caseName, i, null, List.of(), List.of(), e.getMessage(), t0);
        }
    }

    private void faulty(Fault f, int i, double halfRateMbit) {
        long t0 = System.nanoTime();
        String rate = Math.max(1, Math.round(halfRateMbit)) + "mbit";
        SlurmFleet.Run run = slurmRun(f.name() + "-" + i);
        if (!f.corruptNode().isEmpty()) {
            run = run.corruptNode(f.corruptNode());
        }
        if (f.act()) {
            run = run.with("linkproof.fleet.act", "slurm");
        }
        SlurmFleet.Job job = null;
        String error = null;
        List<String> drained = List.of();
        try {
            lineRate();
            for (List<String> fault : f.faults()) {
                SlurmFleet.fault(fault.stream().map(a -> a.equals("RATE") ? rate : a).toArray(String[]::new));
            }
            job = SlurmFleet.run(run, work, nodes);
        } catch (Exception e) {
            error = e.getMessage();
        } finally {
            String cleared = clearAll();
            if (cleared != null) {
                error = (error == null ? "" : error + "; ") + cleared;
            }
            try {
                drained = resumeDrained();
            } catch (Exception e) {
                error = (error == null ? "" : error + "; ") + "sinfo/resume: " + e.getMessage();
            }
        }
        FleetVerdictDocument d = null;
        if (error == null) {
            try {
                d = read(job.verdictFile(), job.coordinatorOutput());
            } catch (Exception e) {
                error = e.getMessage();
            }
        }
        record(true, f.name(), i, d, f.expected(), drained, error, t0);
    }

    private static FleetVerdictDocument read(Path file, String coordinatorOutput) {
        if (!Files.isRegularFile(file)) {
            String tail = coordinatorOutput.lines().skip(Math.max(0, coordinatorOutput.lines().count() - 5))
                    .collect(Collectors.joining(" | "));
            throw new IllegalStateException("no " + file + "; the coordinator's last lines: " + tail);
        }
        return FleetVerdictFile.read(file);
    }

    /** A verdict as the table names it: {@code bad-node lpn3}, {@code bad-link lpn1<->lpn2} (nodes sorted), {@code fleet-degraded}. */
    static String key(FleetVerdictDocument.VerdictEntry v) {
        if (v.kind().equals(DEGRADED) || v.nodes() == null || v.nodes().isEmpty()) {
            return v.kind();
        }
        List<String> n = v.kind().equals("bad-link") ? v.nodes().stream().sorted().toList() : v.nodes();
        return v.kind() + " " + String.join("<->", n);
    }

    private void record(boolean counted, String caseName, int i, FleetVerdictDocument d, List<String> expected, List<String> drained,
            String error,
            long t0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<String> verdicts = d == null ? List.of() : d.verdicts().stream().map(FleetFalseBlame::key).toList();
        List<String> left = new ArrayList<>(verdicts);
        int found = 0;
        for (String e : expected) {
            if (left.remove(e)) {
                found++;
            }
        }
        int extra = left.size();
        Outcome o = new Outcome(caseName, i, verdicts, expected.size(), found, extra, drained.size(), error, seconds);
        if (counted) {
            outcomes.add(o);
        }
        String result;
        if (error != null) {
            result = "ERROR";
        } else if (expected.isEmpty()) {
            result = "false " + extra;
        } else {
            result = "found " + found + "/" + expected.size() + " extra " + extra;
        }
        if (!drained.isEmpty()) {
            result += " drained " + drained.size();
        }
        System.out.printf(Locale.ROOT, "  %-15s %3d  %6.1f  %-28s  %s%n", counted ? caseName : caseName + "*", i, seconds, result,
                verdicts.isEmpty() ? "none" : String.join(", ", verdicts));
        if (error != null) {
            System.out.println("      error: " + oneLine(error, 400));
        }
        if (d != null) {
            for (var v : d.verdicts()) { // why each verdict was reached, for the ones that should not have been
                System.out.println("      " + key(v) + ": " + oneLine(v.reason(), 220));
            }
            if (!counted) {
                System.out.println("      (* calibration run: measures the clean per-pair bandwidth; not counted)");
            }
        }
        if (!drained.isEmpty()) { // node|linkproof: kind: reason -> node (linkproof: kind)
            System.out.println("      drained (resumed since): " + drained.stream().map(l -> {
                String[] p = l.split("[|:]", 4);
                return p.length >= 3 ? p[0] + " (" + p[1] + ":" + p[2] + ")" : l;
            }).collect(Collectors.joining(", ")));
        }
        System.out.flush();
    }

    private static String oneLine(String s, int max) {
        String t = String.valueOf(s).replaceAll("\\s+", " ").strip();
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }

    /** Half the clean per-pair bandwidth in Mbit/s (tc's mbit: 10^6 bit/s), from the clean Slurm runs or one calibration run. */
    private double halfRateMbit() {
        if (cleanMedians.isEmpty()) {
            cleanSlurm("calibrate", 1, false);
        }
        if (cleanMedians.isEmpty()) {
            throw new IllegalStateException("no clean per-pair bandwidth measured (the clean Slurm runs wrote no point median); "
                    + "give --half-rate-mbit");
        }
        double median = median(cleanMedians);
        double half = median * 8000 / 2;
        System.out.printf(Locale.ROOT, "# clean per-pair bandwidth: %.3f GB/s (median of %d clean run(s)' point medians; their pairs "
                + "ran at %.3f to %.3f GB/s); the faults hold a node or link to half: %.0f Mbit/s%n", median, cleanMedians.size(), cleanMin,
                cleanMax, half);
        return half;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Nodes drained with a linkproof reason ({@code node|reason}, sinfo -R's): each is resumed. */
    private static List<String> resumeDrained() throws IOException, InterruptedException {
        String listing;
        try {
            listing = SlurmFleet.sh("sinfo", "-R", "-h", "-N", "-o", "%N|%E");
        } catch (IOException e) {
            return List.of(); // no cluster yet: nothing drained
        }
        List<String> drained = listing.lines().filter(l -> l.contains("|linkproof")).distinct().toList();
        for (String line : drained) {
            SlurmFleet.sh("scontrol", "update", "nodename=" + line.substring(0, line.indexOf('|')), "state=resume");
        }
        return drained;
    }

    /**
     * One loopback fleet: {@link LoopbackAgents} (every agent in one JVM, each registering under its
     * name nK) and the coordinator as JUnit's ConsoleLauncher with {@code linkproof.fleet=nodes:n1,…},
     * both on 127.0.0.1 with a fresh token; returns the run's fleet-verdict.json.
     */
    private Path loopbackRun(String name) throws IOException, InterruptedException {
        Path dir = work.resolve(name);
        if (Files.isDirectory(dir)) {
            try (var old = Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        String launcher = System.getProperty("linkproof.consoleLauncher");
        String token = AgentProcess.newToken();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String registry = "127.0.0.1:" + port;
        List<String> names = IntStream.rangeClosed(1, loopbackAgents).mapToObj(k -> "n" + k).toList();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("linkproof.fleet", "nodes:" + String.join(",", names));
        config.put("linkproof.fleet.registry", registry);
        config.put("linkproof.fleet.registerWithin", "90s");
        config.put("linkproof.fleet.verdict", dir.resolve("fleet-verdict.json").toString());
        config.put("linkproof.results", dir.resolve("results.jsonl").toString());
        config.put("linkproof.agent.log", dir.resolve("local-agent.log").toString());
        config.put("linkproof.profile", Path.of("src", "test", "resources", "profiles", "validation-only.yaml").toAbsolutePath().toString());
        config.put("linkproof.timeout.control", "10s");
        config.putAll(SHIPPED);

        List<String> agentsCmd = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "-cp",
                classPath, LoopbackAgents.class.getName(), registry, "90s"));
        agentsCmd.addAll(names);
        List<String> coordinatorCmd = new ArrayList<>(List.of(java, "-Xmx384m", "--enable-native-access=ALL-UNNAMED",
                "-Dallure.results.directory=" + dir.resolve("allure-results"), "-jar", launcher, "execute", "--disable-banner",
                "--details=none", "--class-path", classPath, "--select-class", FleetWrite.class.getName()));
        config.forEach((k, v) -> coordinatorCmd.add("--config=" + k + "=" + v));
        Files.writeString(dir.resolve("commands.txt"), String.join(" ", agentsCmd).replace(classPath, "$CP") + "\n"
                + String.join(" ", coordinatorCmd).replace(classPath, "$CP") + "\n");

        Process agents = start(agentsCmd, token, dir.resolve("agents.out"));
        Process coordinator = null;
        try {
            coordinator = start(coordinatorCmd, token, dir.resolve("coordinator.out"));
            if (!coordinator.waitFor(LOOPBACK_DEADLINE_S, TimeUnit.SECONDS)) {
                throw new IOException("the loopback fleet " + name + " did not end within " + LOOPBACK_DEADLINE_S + " s; see " + dir);
            }
            Files.writeString(dir.resolve("coordinator.out"), "coordinator exit " + coordinator.exitValue() + "\n",
                    StandardOpenOption.APPEND);
            // The coordinator's end is the agents' (the registry says BYE).
            if (!agents.waitFor(60, TimeUnit.SECONDS)) {
                System.out.println("      the loopback agents did not end within 60 s of the coordinator; stopped");
            }
        } finally {
            if (coordinator != null && coordinator.isAlive()) {
                coordinator.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            if (agents.isAlive()) {
                agents.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        Path verdicts = dir.resolve("fleet-verdict.json");
        read(verdicts, Files.readString(dir.resolve("coordinator.out"))); // fails naming the coordinator's last lines when absent
        return verdicts;
    }

    private static Process start(List<String> cmd, String token, Path out) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("SLURM") || k.startsWith("LINKPROOF_"));
        env.put("LINKPROOF_TOKEN", token);
        return pb.start();
    }

    /** Prints the table; true when every case met its target. */
    private boolean summary(List<String> cases, Double halfRate) {
        System.out.println();
        System.out.println("# summary" + (halfRate == null ? "" : String.format(Locale.ROOT, " (faults at %.0f Mbit/s)", halfRate)));
        System.out.println("case             runs  expected_found  false_or_extra  drained  errors  target");
        boolean all = true;
        for (String c : cases) {
            List<Outcome> os = outcomes.stream().filter(o -> o.caseName().equals(c)).toList();
            int expected = os.stream().mapToInt(Outcome::expected).sum();
            int found = os.stream().mapToInt(Outcome::found).sum();
            int extra = os.stream().mapToInt(Outcome::extra).sum();
            int drained = os.stream().mapToInt(Outcome::drained).sum();
            long errors = os.stream().filter(o -> o.error() != null).count();
            boolean clean = c.startsWith("clean-");
            boolean met = !os.isEmpty() && errors == 0 && extra == 0 && found == expected && drained == 0;
            all &= met;
            String target = clean ? "0 false verdicts" : c.equals("breaker") ? "fleet-degraded, nothing drained" : "all found, nothing else";
            System.out.printf(Locale.ROOT, "%-15s  %4d  %14s  %14d  %7d  %6d  %s: %s%n", c, os.size(),
                    clean ? "-" : found + "/" + expected, extra, drained, errors, met ? "met" : "MISSED", target);
        }
        System.out.println(all ? "# every target met" : "# a target was missed");
        return all;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: FleetFalseBlame [--runs R] [--fault-runs R] [--nodes N] [--loopback-agents N] "
                        + "[--cases a,b] [--half-rate-mbit M] [--link-mbit B] [--out DIR]; got " + String.join(" ", args));
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }
}
