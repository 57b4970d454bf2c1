package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.spi.IoSettings;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts a target agent. The engine starts one itself for local runs; for two hosts, run this on
 * the target host and point the initiator at it with {@code -Dlinkproof.peer=host:port
 * -Dlinkproof.token=...}.
 */
@Command(name = "linkproof-agent", mixinStandardHelpOptions = true, version = AgentMain.VERSION,
        description = "Serves the target rank of Linkproof transfer tests.",
        footer = "Each session runs under its initiator's progress deadline (linkproof.timeout.progress, sent in HELLO).")
public final class AgentMain implements Callable<Integer> {
    public static final String VERSION = "0.1.0";
    /** The line the launcher waits for on standard output. */
    public static final String READY = "linkproof-agent ready";
    public static final String TOKEN_ENV = "LINKPROOF_TOKEN";

    @Option(names = "--bind", defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for all).")
    String bind;

    @Option(names = "--port", defaultValue = "7471", description = "Control port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--token", description = "Session token the initiator must present (default: $" + TOKEN_ENV
            + ", else a random one that is printed).")
    String token;

    @Override
    public Integer call() throws Exception {
        String t = token != null ? token : System.getenv(TOKEN_ENV);
        boolean generated = t == null || t.isEmpty();
        if (generated) {
            byte[] b = new byte[16];
            new SecureRandom().nextBytes(b);
            t = HexFormat.of().formatHex(b);
        }
        // Each session's progress deadline is its initiator's (sent in HELLO, linkproof.timeout.progress).
        try (AgentServer server = AgentServer.start(bind, port, t, IoSettings.DEFAULT)) {
            System.out.println(READY + " host=" + server.host() + " port=" + server.port() + " pid="
                    + ProcessHandle.current().pid());
            if (generated) {
                System.out.println("token: " + t);
                System.out.println("on the initiator: mvn test -Dlinkproof.peer=<this-host>:" + server.port()
                        + " -Dlinkproof.token=" + t);
            }
            System.out.flush();
            server.awaitClose();
        }
        return 0;
    }

    public static void main(String[] args) {
        int rc = new CommandLine(new AgentMain()).execute(args);
        if (rc != 0) {
            System.exit(rc);
        }
    }
}
