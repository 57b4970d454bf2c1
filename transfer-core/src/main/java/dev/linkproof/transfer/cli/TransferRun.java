package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.TimedRun;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.session.TransferSession;
import dev.linkproof.transfer.spi.Transports;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One run of {@link TransferCli}'s points, once its options are checked: the local agent it starts
 * (or the one at {@code --peer}), one session to it per rail, this process's agent for the ways back of
 * {@code --both-ways}, every point's runs printed by {@link TransferPrinter}, and all of them closed at
 * the end. The command keeps what its options mean; this keeps what runs and what it holds open.
 */
final class TransferRun {
    /** The token of this process's agent for the ways back: random, given only to the agent that drives them. */
    private static final String HOME_TOKEN = dev.linkproof.transfer.control.AgentProcess.newToken();
    /** Bytes a calibration probe moves at least, so its rate is not all start-up. */
    private static final long PROBE_BYTES = 128L << 20;

    private final TransferCli cli;

    TransferRun(TransferCli cli) {
        this.cli = cli;
    }

    /**
     * Runs {@code points} on {@code rails} (one session when there are none) and returns the exit
     * status: 0 when every point ran and validated, 1 when one failed, was corrupt or could not run.
     */
    int run(List<RailEntries.Entry> rails, List<TransferSpec> points) throws Exception {
        PrintWriter out = cli.commandSpec.commandLine().getOut();
        PrintWriter err = cli.commandSpec.commandLine().getErr();
        Timeouts timeouts = cli.timeouts();
        Path log = cli.agentLog != null
                ? cli.agentLog
                : Path.of(
                        System.getProperty("java.io.tmpdir"),
                        "linkproof-agent-" + ProcessHandle.current().pid() + ".log");
        LocalAgent local = null;
        AgentServer home = null;
        // One session per rail (one when there are no rails), all to the same agent.
        List<Session> sessions = new ArrayList<>();
        int rc = 0;
        try {
            if (cli.peer == null) {
                local = cli.agentCpus != null
                        ? LocalAgent.start(
                                List.of("taskset", "-c", cli.agentCpus),
                                cli.agentJvmArgs,
                                java.util.Map.of(),
                                log,
                                timeouts.agentStart())
                        : LocalAgent.start(cli.agentJvmArgs, log, timeouts.agentStart());
            }
            // Discovered once for the run: every rail's session and the agent for the ways back run on them.
            Transports transports = Transports.discover();
            for (int i = 0; i < Math.max(1, rails.size()); i++) {
                sessions.add(
                        cli.peer != null
                                ? Session.open(
                                        cli.peer.host(), cli.peer.port(), cli.resolvedToken(), timeouts, transports)
                                : Session.open(local.host(), local.port(), local.token(), timeouts, transports));
            }
            Session session = sessions.getFirst();
            if (rails.stream().anyMatch(RailEntries.Entry::back)) {
                home = homeAgent(session, transports);
            }
            TransferPrinter printer = new TransferPrinter(
                    cli.format,
                    out,
                    err,
                    cli.repeat > 1,
                    rails.stream().map(RailEntries.Entry::label).toList(),
                    rails.stream().anyMatch(e -> e.memory().isPresent()));
            printer.banner(
                    points.getFirst(),
                    session,
                    cli.peer != null
                            ? cli.peer.toString()
                            : cli.agentCpus != null ? "local agent on CPU(s) " + cli.agentCpus : "local agent");
            // The rails as one session (Rails.asSession): what it supports names the rail that cannot run a point.
            TransferSession each = rails.isEmpty()
                    ? session
                    : Rails.asSession(lanes(rails, sessions, home, timeouts), timeouts.control());
            TimedRun.Runner runner = each::run;
            for (TransferSpec point : points) {
                Availability can = each.supports(point);
                if (!can.available()) {
                    printer.skipped(point, can.reason());
                    continue;
                }
                for (int r = 0; r < cli.repeat; r++) {
                    TransferSpec spec = point.withPointId(point.pointId() + "/rep=" + r);
                    try {
                        Measurement m = cli.duration == null
                                ? runner.run(spec)
                                : TimedRun.run(runner, probe(spec), cli.duration);
                        printer.result(m, r);
                        if (!m.isValid()) {
                            rc = 1;
                        }
                    } catch (TransferException e) {
                        rc = 1;
                        String why = e.getMessage() + cli.deadlineNote(e);
                        printer.failed(spec, r, why);
                        List<String> gone = new ArrayList<>();
                        for (int i = 0; i < sessions.size(); i++) {
                            if (!sessions.get(i).usable()) {
                                gone.add(
                                        rails.isEmpty()
                                                ? "the target"
                                                : "rail " + i + " ("
                                                        + rails.get(i).label() + ")'s session");
                            }
                        }
                        if (!gone.isEmpty()) {
                            err.println("linkproof-transfer: " + String.join(", ", gone)
                                    + (gone.size() == 1 ? " is" : " are") + " gone; stopping (" + why + ")");
                            err.flush();
                            return 1;
                        }
                    }
                }
            }
        } catch (TransferException e) {
            err.println("linkproof-transfer: " + e.getMessage() + cli.deadlineNote(e));
            err.flush();
            return 1;
        } finally {
            for (Session s : sessions) {
                s.close();
            }
            if (home != null) {
                home.close();
            }
            if (local != null) {
                local.close();
            }
            out.flush();
        }
        return rc;
    }

    /** This process's agent for the ways back: on loopback for a local agent, else on the address the peer was reached from. */
    private AgentServer homeAgent(Session toPeer, Transports transports) throws TransferException {
        String bind = cli.peer == null ? "127.0.0.1" : toPeer.control().localAddress();
        try {
            return AgentServer.start(bind, 0, HOME_TOKEN, cli.timeouts().io(), transports);
        } catch (java.io.IOException e) {
            throw new TransferException(
                    "cannot start this process's agent for the ways back (on " + bind + "): " + e.getMessage(), e);
        }
    }

    /**
     * Each rail as a lane: rail k on session k with its settings (a --set that clashes with them was
     * refused) and, for a gpu-ipc rail, its GPUs in place of the point's memory; a way back on its own
     * session driven toward {@code home}.
     */
    static List<Rails.Lane> lanes(
            List<RailEntries.Entry> rails, List<Session> sessions, AgentServer home, Timeouts timeouts) {
        List<Rails.Lane> out = new ArrayList<>();
        for (int k = 0; k < rails.size(); k++) {
            RailEntries.Entry e = rails.get(k);
            out.add(Rails.lane(
                    e.label(),
                    sessions.get(k),
                    e.settings(),
                    e.memory(),
                    e.back() ? Optional.of(new Rails.Home(home.host(), home.port(), HOME_TOKEN)) : Optional.empty(),
                    timeouts));
        }
        return out;
    }

    /**
     * {@code spec} cut down to a probe for {@link TimedRun}: about {@value #PROBE_BYTES} bytes, at most
     * its own iterations, at least two pipelines' worth; the run it sizes replaces --iters.
     */
    private static TransferSpec probe(TransferSpec spec) {
        long perIteration = spec.bytesPerIteration();
        long byBytes = (PROBE_BYTES + perIteration - 1) / perIteration;
        long iterations = Math.max(2L * spec.pipelineDepth(), Math.min(spec.iterations(), byBytes));
        return spec.withIterations((int) iterations, spec.warmup());
    }
}
