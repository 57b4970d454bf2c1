package dev.linkproof.conformance.bench;

import dev.linkproof.conformance.fleet.fixtures.FleetWrite;
import dev.linkproof.transfer.control.AgentProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/** The false-blame bench's loopback fleet, apart from its Slurm runs: processes on this host, no cluster. */
final class LoopbackFleetRun {
    static final long DEADLINE_S = 600;

    private LoopbackFleetRun() {}

    /**
     * One loopback fleet: {@link LoopbackAgents} (every agent in one JVM, each registering under its
     * name nK) and the coordinator as JUnit's ConsoleLauncher with {@code linkproof.fleet=nodes:n1,…},
     * both on 127.0.0.1 with a fresh token, judged by {@code criteria}; returns the run's folder
     * (its {@code fleet-verdict.json} and {@code coordinator.out}).
     */
    static Path run(Path work, String name, int agentCount, Map<String, String> criteria)
            throws IOException, InterruptedException {
        Path dir = work.resolve(name);
        if (Files.isDirectory(dir)) {
            try (var old = Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
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
        List<String> names =
                IntStream.rangeClosed(1, agentCount).mapToObj(k -> "n" + k).toList();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("linkproof.fleet", "nodes:" + String.join(",", names));
        config.put("linkproof.fleet.registry", registry);
        config.put("linkproof.fleet.registerWithin", "90s");
        config.put("linkproof.fleet.verdict", dir.resolve("fleet-verdict.json").toString());
        config.put("linkproof.results", dir.resolve("results.jsonl").toString());
        config.put("linkproof.agent.log", dir.resolve("local-agent.log").toString());
        config.put(
                "linkproof.profile",
                Path.of("src", "test", "resources", "profiles", "validation-only.yaml")
                        .toAbsolutePath()
                        .toString());
        config.put("linkproof.timeout.control", "10s");
        config.putAll(criteria);

        List<String> agentsCmd = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classPath,
                LoopbackAgents.class.getName(),
                registry,
                "90s"));
        agentsCmd.addAll(names);
        List<String> coordinatorCmd = new ArrayList<>(List.of(
                java,
                "-Xmx384m",
                "--enable-native-access=ALL-UNNAMED",
                "-Dallure.results.directory=" + dir.resolve("allure-results"),
                "-jar",
                launcher,
                "execute",
                "--disable-banner",
                "--details=none",
                "--class-path",
                classPath,
                "--select-class",
                FleetWrite.class.getName()));
        config.forEach((k, v) -> coordinatorCmd.add("--config=" + k + "=" + v));
        Files.writeString(
                dir.resolve("commands.txt"),
                String.join(" ", agentsCmd).replace(classPath, "$CP") + "\n"
                        + String.join(" ", coordinatorCmd).replace(classPath, "$CP") + "\n");

        Process agents = start(agentsCmd, token, dir.resolve("agents.out"));
        Process coordinator = null;
        try {
            coordinator = start(coordinatorCmd, token, dir.resolve("coordinator.out"));
            if (!coordinator.waitFor(DEADLINE_S, TimeUnit.SECONDS)) {
                throw new IOException(
                        "the loopback fleet " + name + " did not end within " + DEADLINE_S + " s; see " + dir);
            }
            Files.writeString(
                    dir.resolve("coordinator.out"),
                    "coordinator exit " + coordinator.exitValue() + "\n",
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
        return dir;
    }

    private static Process start(List<String> cmd, String token, Path out) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("SLURM") || k.startsWith("LINKPROOF_"));
        env.put("LINKPROOF_TOKEN", token);
        return pb.start();
    }
}
