package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.spi.IoSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Starts a target agent. The engine starts one itself for local runs; for two hosts, run this on
 * the target host and point the initiator at it with {@code -Dlinkproof.peer=host:port
 * -Dlinkproof.token=...}.
 */
@Command(
        name = "linkproof-agent",
        mixinStandardHelpOptions = true,
        version = AgentMain.VERSION,
        description = "Serves the target rank of Linkproof transfer tests.",
        footer = "Each session runs under its initiator's progress deadline (linkproof.timeout.progress, sent in"
                + " HELLO).")
public final class AgentMain implements Callable<Integer> {
    public static final String VERSION = "0.1.0";
    /** The line the launcher waits for on standard output. */
    public static final String READY = dev.linkproof.transfer.control.AgentProcess.READY;

    public static final String TOKEN_ENV = dev.linkproof.transfer.control.AgentProcess.TOKEN_ENV;

    @Option(
            names = "--bind",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for all).")
    String bind;

    @Option(
            names = "--port",
            defaultValue = "" + dev.linkproof.transfer.control.HostPort.AGENT_PORT,
            description = "Control port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(
            names = "--token",
            description = "Session token the initiator must present (default: $" + TOKEN_ENV
                    + ", else a random one that is printed).")
    String token;

    @Option(
            names = "--initiator-pid",
            paramLabel = "PID",
            description =
                    "The initiator that started this agent: exit when it ends, however it dies, noticed by the end of"
                        + " standard input (a pipe that process holds open and never writes) or by the process being"
                        + " gone. The engine passes its own; an agent started by hand for two hosts leaves it out.")
    Long initiatorPid;

    @Option(
            names = "--log",
            paramLabel = "FILE",
            description =
                    "Also write everything the agent prints to FILE (%%p in it is the agent's pid), by itself: its"
                        + " last lines, why it stopped among them, are there even when whoever read its output is"
                        + " gone. Bounded: past 1 MiB the file becomes FILE.1 and a new one begins. The engine passes"
                        + " one beside its agent log (linkproof.agent.log), with the agent's pid in the name.")
    String log;

    @Option(
            names = "--register",
            paramLabel = "HOST:PORT",
            description =
                    "A fleet's agent: dial the coordinator's registry here (retried until --register-within), listen"
                        + " on the address that reaches it (unless --bind is given), say which node this is, and stop"
                        + " when the coordinator ends the run or is gone. Needs the run's token ($" + TOKEN_ENV
                            + " or --token).")
    String register;

    @Option(
            names = "--node",
            paramLabel = "NAME",
            description = "This node's name in the fleet, as the launcher names it (default: $" + NODE_ENV
                    + ", else $SLURMD_NODENAME, else rank<N> from $OMPI_COMM_WORLD_RANK or torchrun's $RANK,"
                    + " else the host name).")
    String node;

    @Option(
            names = "--register-within",
            paramLabel = "DURATION",
            defaultValue = "120s",
            description = "How long to keep dialling the coordinator's registry (default ${DEFAULT-VALUE}).")
    String registerWithin;

    /** The environment variable that names a fleet agent's node, before the launcher's own. */
    public static final String NODE_ENV = "LINKPROOF_NODE";

    @Spec
    CommandSpec spec;

    /** Why the agent is stopping, when it knows (its initiator gone); its last line says it. */
    private static volatile String stopReason;

    /** How long a stopping agent waits for its sessions to release what they hold. */
    static final Duration SHUTDOWN_GRACE = Duration.ofMillis(1000);

    /**
     * Bad options are usage errors naming the option (exit 2); an address it cannot listen on is a
     * one-line error saying why (exit 1). Neither prints a stack trace.
     */
    @Override
    public Integer call() throws Exception {
        if (log != null) {
            // First, so that whatever it says next is in the file too.
            Path file = AgentLog.file(log, ProcessHandle.current().pid());
            try {
                AgentLog own = AgentLog.open(file, AgentLog.LIMIT);
                System.setOut(own.tee(System.out));
                System.setErr(own.tee(System.err));
                spec.commandLine().setOut(new PrintWriter(System.out, true));
                spec.commandLine().setErr(new PrintWriter(System.err, true));
            } catch (IOException | RuntimeException e) {
                throw new ParameterException(
                        spec.commandLine(), "--log " + log + ": cannot write " + file + " (" + e + ")");
            }
        }
        if (port < 0 || port > 65535) {
            throw new ParameterException(
                    spec.commandLine(), "--port " + port + " is not a port: 1..65535, or 0 for a free one");
        }
        if (initiatorPid != null) {
            if (initiatorPid < 1) {
                throw new ParameterException(
                        spec.commandLine(), "--initiator-pid " + initiatorPid + " is not a process id");
            }
            // First, so an initiator that dies while the agent is still starting is noticed too.
            InitiatorWatch.start(initiatorPid, System.in, why -> {
                stopReason = why;
                System.err.println("linkproof-agent: " + why + "; stopping");
                System.err.flush();
                System.exit(0); // runs the shutdown hook below
            });
        }
        String t = token != null ? token : System.getenv(TOKEN_ENV);
        boolean generated = t == null || t.isEmpty();
        if (generated) {
            t = dev.linkproof.transfer.control.AgentProcess.newToken();
        } else if (t.length() < AgentServer.MIN_TOKEN_LENGTH) {
            throw new ParameterException(
                    spec.commandLine(),
                    (token != null ? "--token" : "$" + TOKEN_ENV) + " has "
                            + t.length() + " character(s); a session token needs at least "
                            + AgentServer.MIN_TOKEN_LENGTH
                            + " (leave it out and the agent makes one up and prints it)");
        }
        FleetRegistration fleet = null;
        if (register != null) {
            if (generated) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--register needs the run's token: set $" + TOKEN_ENV
                                + " (or --token) to the token the coordinator was given");
            }
            fleet = FleetRegistration.of(spec.commandLine(), register, registerWithin, nodeName());
            Registration dialled;
            try {
                dialled = Registration.dial(fleet.host(), fleet.port(), fleet.within(), line -> {
                    System.err.println("linkproof-agent: " + line);
                    System.err.flush();
                });
            } catch (dev.linkproof.transfer.PeerFailureException e) {
                spec.commandLine().getErr().println("linkproof-agent: node " + fleet.node() + ": " + e.getMessage());
                spec.commandLine().getErr().flush();
                return 1;
            }
            fleet = fleet.dialled(dialled);
            if (!spec.commandLine().getParseResult().hasMatchedOption("--bind")) {
                // The interface that reaches the coordinator is the one the other nodes reach too.
                bind = dialled.localAddress();
            }
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(
                    spec.commandLine(), "--bind " + bind + ": unknown host (the name does not resolve)");
        }
        // Each session's progress deadline is its initiator's (sent in HELLO, linkproof.timeout.progress).
        AgentServer started;
        try {
            started = AgentServer.start(bind, port, t, IoSettings.DEFAULT);
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage());
            String hint = why.startsWith("Address already in use")
                    ? " (another process listens there, perhaps another agent; --port 0 picks a free port)"
                    : why.startsWith("Cannot assign requested address")
                            ? " (" + bind + " is not an address of this host; --bind 0.0.0.0 listens on all of them)"
                            : why.startsWith("Permission denied")
                                    ? " (ports below 1024 need root; pick another --port)"
                                    : "";
            spec.commandLine()
                    .getErr()
                    .println("linkproof-agent: cannot listen on " + bind + " port " + port + ": " + why + hint);
            spec.commandLine().getErr().flush();
            return 1;
        }
        // However the agent ends (SIGTERM, Ctrl-C, its initiator gone): stop listening, close every
        // session and let each release its points (transport resources, registered and GPU memory).
        Thread hook = Thread.ofPlatform().name("agent-shutdown").unstarted(() -> shutDown(started));
        Runtime.getRuntime().addShutdownHook(hook);
        try (AgentServer server = started) {
            if (fleet != null && !fleet.register(server, t, spec.commandLine().getErr())) {
                return 1;
            }
            System.out.println(READY + " host=" + server.host() + " port=" + server.port() + " pid="
                    + ProcessHandle.current().pid() + (fleet == null ? "" : " node=" + fleet.node()));
            if (generated) {
                System.out.println("token: " + t);
                System.out.println("on the initiator: linkproof run -Dlinkproof.peer=<this-host>:" + server.port()
                        + " -Dlinkproof.token=" + t + " (or mvn test with the same -D)");
            }
            System.out.flush();
            server.awaitClose();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        return 0;
    }

    /** This node's fleet name: --node, else $LINKPROOF_NODE, else $SLURMD_NODENAME, else rank<N> (MPI, torchrun), else the host name. */
    private String nodeName() {
        if (node != null) {
            return node;
        }
        for (String env : new String[] {NODE_ENV, "SLURMD_NODENAME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        // torchrun and Open MPI name no hosts: the coordinator's roster calls their ranks rank0, rank1, …
        for (String env : new String[] {"OMPI_COMM_WORLD_RANK", "RANK"}) {
            String v = System.getenv(env);
            if (v != null && v.strip().matches("\\d+")) {
                return "rank" + v.strip();
            }
        }
        try {
            String host = InetAddress.getLocalHost().getHostName();
            int dot = host.indexOf('.');
            return dot > 0 ? host.substring(0, dot) : host;
        } catch (UnknownHostException e) {
            throw new ParameterException(
                    spec.commandLine(), "--node is needed: this host's name does not resolve (" + e.getMessage() + ")");
        }
    }

    private static void shutDown(AgentServer server) {
        int sessions = server.sessions();
        server.close();
        int stuck;
        try {
            stuck = server.awaitSessionsEnded(SHUTDOWN_GRACE);
        } catch (InterruptedException e) {
            stuck = server.sessions();
        }
        String why = stopReason;
        System.err.println("linkproof-agent: stopped" + (why == null ? "" : " (" + why + ")") + "; " + sessions
                + " session(s) closed"
                + (stuck == 0
                        ? ""
                        : ", " + stuck + " still in a transport call after " + SHUTDOWN_GRACE.toMillis()
                                + " ms (the process's exit frees what they hold)"));
        System.err.flush();
    }

    public static void main(String[] args) {
        int rc = new CommandLine(new AgentMain()).execute(args);
        if (rc != 0) {
            System.exit(rc);
        }
    }
}
