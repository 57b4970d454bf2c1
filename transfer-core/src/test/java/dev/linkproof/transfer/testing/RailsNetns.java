package dev.linkproof.transfer.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rails harness {@code scripts/lib/rails-netns.sh} driven from a test: an initiator's and a
 * target's network namespace joined by one veth pair per rail, rail k being {@code 10.77.k.1 <->
 * 10.77.k.2}. {@link #up} skips the test, saying why, where namespaces cannot be made (not root, no
 * iproute2, a kernel or container without them). The namespaces are named after this JVM's process
 * id, so the same test running in another worktree at the same time has its own; those that a JVM
 * killed before its clean-up left behind are deleted by the next {@link #up}.
 */
public final class RailsNetns implements AutoCloseable {
    /** Prefix of the namespaces tests make; the process id follows. */
    private static final String TEST_PREFIX = "lp-rt";

    private static final long COMMAND_SECONDS = 30;

    private final Path script;
    private final String prefix;

    private RailsNetns(Path script, String prefix) {
        this.script = script;
        this.prefix = prefix;
    }

    /** Brings up {@code rails} rails in namespaces of this JVM's own, or skips the test with the reason. */
    public static RailsNetns up(int rails) throws IOException, InterruptedException {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                () -> "needs root to create network namespaces (running as " + System.getProperty("user.name") + ")");
        assumeTrue(
                Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "needs iproute2's ip command");
        assumeTrue(
                Files.isExecutable(Path.of("/usr/sbin/tc")) || Files.isExecutable(Path.of("/sbin/tc")),
                "needs iproute2's tc command");
        Path script = findScript();
        deleteLeftovers(script);
        RailsNetns net =
                new RailsNetns(script, TEST_PREFIX + ProcessHandle.current().pid());
        Result r = net.run("up", Integer.toString(rails));
        if (r.code() != 0) {
            net.close();
        }
        assumeTrue(r.code() == 0, () -> "cannot create network namespaces here: " + r.output());
        return net;
    }

    /** The script, from the module's directory (where Surefire runs) or the repository's. */
    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path s = dir.resolve("scripts/lib/rails-netns.sh");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException(
                "scripts/lib/rails-netns.sh not found above " + Path.of("").toAbsolutePath());
    }

    /** Namespaces of test JVMs that are gone (killed before their clean-up). */
    private static void deleteLeftovers(Path script) throws IOException, InterruptedException {
        Pattern mine = Pattern.compile(Pattern.quote(TEST_PREFIX) + "(\\d+)-i");
        try (var names = Files.list(Path.of("/run/netns"))) {
            for (Path ns : names.toList()) {
                Matcher m = mine.matcher(ns.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                    new RailsNetns(script, TEST_PREFIX + m.group(1)).close();
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // no namespace yet on this host
        }
    }

    public String initiatorNs() {
        return prefix + "-i";
    }

    public String targetNs() {
        return prefix + "-t";
    }

    /** Rail {@code k}'s initiator address, 10.77.k.1. */
    public static String initiatorAddress(int rail) {
        return "10.77." + rail + ".1";
    }

    /** Rail {@code k}'s target address, 10.77.k.2. */
    public static String targetAddress(int rail) {
        return "10.77." + rail + ".2";
    }

    /** The command prefix that runs a process in the initiator's namespace. */
    public List<String> inInitiatorNs() {
        return List.of("ip", "netns", "exec", initiatorNs());
    }

    public List<String> inTargetNs() {
        return List.of("ip", "netns", "exec", targetNs());
    }

    /** Holds what rail {@code rail}'s initiator sends to {@code rate} (a tc rate: {@code 50mbit}). */
    public void throttle(int rail, String rate) throws IOException, InterruptedException {
        check(run("throttle", Integer.toString(rail), rate), "throttle " + rail + " " + rate);
    }

    public void unthrottle(int rail) throws IOException, InterruptedException {
        check(run("unthrottle", Integer.toString(rail)), "unthrottle " + rail);
    }

    /** A rail's initiator end: bytes sent and received on it, and whether it is throttled. */
    public record LinkStats(long txBytes, long rxBytes, boolean throttled) {}

    /** Every rail's initiator-end counters, by rail. */
    public Map<Integer, LinkStats> stats() throws IOException, InterruptedException {
        Result r = check(run("stats"), "stats");
        Map<Integer, LinkStats> stats = new TreeMap<>();
        Pattern line = Pattern.compile("rail=(\\d+) link=\\S+ tx_bytes=(\\d+) rx_bytes=(\\d+) qdisc=(\\S+)");
        for (String l : r.output().split("\n")) {
            Matcher m = line.matcher(l.trim());
            if (m.matches()) {
                stats.put(
                        Integer.parseInt(m.group(1)),
                        new LinkStats(
                                Long.parseLong(m.group(2)),
                                Long.parseLong(m.group(3)),
                                m.group(4).equals("tbf")));
            }
        }
        return stats;
    }

    /** The TCP sockets of the initiator's namespace, as its kernel lists them (TIME_WAIT ones included). */
    public List<Procs.TcpSocket> initiatorSockets() throws IOException, InterruptedException {
        Result r = check(
                command(List.of("ip", "netns", "exec", initiatorNs(), "cat", "/proc/net/tcp", "/proc/net/tcp6")),
                "reading the initiator namespace's sockets");
        return Procs.tcpSockets(r.output());
    }

    /** Deletes both namespaces and their links; nothing when they are gone. */
    @Override
    public void close() throws IOException {
        try {
            check(run("down"), "down");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while deleting namespaces " + initiatorNs() + " and " + targetNs(), e);
        }
    }

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        return command(cmd);
    }

    private Result command(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("LP_RAILS_NS", prefix);
        Process p = pb.start();
        // Read on another thread: a command stuck on the RTNL lock must not hold this one past its deadline.
        var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            return new Result(-1, String.join(" ", cmd) + ": no answer within " + COMMAND_SECONDS + " s");
        }
        return new Result(p.exitValue(), out.join());
    }

    private static Result check(Result r, String what) {
        if (r.code() != 0) {
            throw new IllegalStateException("rails-netns.sh " + what + " failed (exit " + r.code() + "): "
                    + r.output().strip());
        }
        return r;
    }

    private record Result(int code, String output) {}
}
