package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An initiator in a JVM of its own, for the tests that kill it in the middle of a point
 * ({@link InitiatorDeathTest}). It runs one point that would take minutes, against an agent of its
 * own ({@code local <tcp|ucx|verbs> <agent log>}, started as the engine does with {@link LocalAgent};
 * it prints {@code agent pid=<pid> port=<port>}) or one someone else started
 * ({@code peer <tcp|ucx> <host> <port> <token>}, as with {@code linkproof.peer}); then it prints
 * {@code point started}. {@code peer-once} in place of {@code peer} runs a short validated point
 * instead and prints {@code point passed}.
 */
public final class InitiatorMain {
    /** System property: the JVM flags of the agent a {@code local} initiator starts (the VM's guest flags), space-separated. */
    static final String AGENT_JVM_ARGS = "linkproof.agent.jvmArgs";

    private InitiatorMain() {}

    /** A point that runs for minutes: a TB over shared memory (ucx), or over loopback tcp. */
    static TransferSpec longPoint(String transport) {
        TransferSpec.Builder b = TransferSpec.builder()
                .pointId("InitiatorMain#long-" + transport)
                .transport(transport)
                .op(Op.WRITE)
                .batch(1);
        return switch (transport) {
            case "ucx" ->
                b.settings(Map.of("UCX_TLS", "shm"))
                        .size(2L << 20)
                        .iterations(500_000)
                        .warmup(10)
                        .build();
            case "tcp" -> b.size(1L << 20).iterations(1_000_000).warmup(10).build();
            // Soft-RoCE under TCG moves a 64 KiB write in about a millisecond: this runs for many minutes.
            case "verbs" -> b.size(64L << 10).iterations(1_000_000).warmup(10).build();
            default -> throw new IllegalArgumentException("transport " + transport);
        };
    }

    /** A short validated point of the same kind, for the run after a vanished initiator's. */
    static TransferSpec shortPoint(String transport, String id) {
        TransferSpec.Builder b = TransferSpec.builder()
                .pointId(id)
                .transport(transport)
                .op(Op.WRITE)
                .size(64 << 10)
                .batch(2)
                .iterations(20)
                .warmup(2);
        if (transport.equals("ucx")) {
            b.settings(Map.of("UCX_TLS", "shm"));
        }
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        String transport = args[1];
        LocalAgent agent = null;
        String host;
        int port;
        String token;
        if (args[0].equals("local")) {
            String flags = System.getProperty(AGENT_JVM_ARGS, "").strip();
            List<String> agentFlags = new java.util.ArrayList<>(List.of("-Xmx128m"));
            if (!flags.isEmpty()) {
                agentFlags.addAll(List.of(flags.split("\\s+")));
            }
            agent = LocalAgent.start(agentFlags, Path.of(args[2]), Duration.ofSeconds(120));
            System.out.println("agent pid=" + agent.pid() + " port=" + agent.port());
            host = agent.host();
            port = agent.port();
            token = agent.token();
        } else {
            host = args[2];
            port = Integer.parseInt(args[3]);
            token = args[4];
        }
        try (Session s = Session.open(host, port, token, Timeouts.DEFAULT)) {
            if (args[0].equals("peer-once")) {
                if (!s.run(shortPoint(transport, "InitiatorMain#once")).isValid()) {
                    throw new AssertionError("the point did not validate");
                }
                System.out.println("point passed");
                return;
            }
            System.out.println("point started");
            System.out.flush();
            s.run(longPoint(transport));
            System.out.println("point ended");
        }
        if (agent != null) {
            agent.close();
        }
    }
}
