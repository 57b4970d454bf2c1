package dev.linkproof.engine.run;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.TransferSession;
import dev.linkproof.transfer.spi.Transports;

/**
 * Owns the pair for a run: one session, reused across points, re-provisioned after a peer failure. Without
 * {@code linkproof.peer} it starts (and after a failure, restarts) a local agent; with it, it connects to the agent
 * there. An agent that cannot be started, or a peer never reached or that refused the run (a wrong token, another
 * protocol version), is not retried: its first cause is repeated at once, since each point would wait out the
 * control deadline again (30 s by default, most of an hour over a hundred points). A peer reached once is tried
 * again after a failure, as its agent may have been restarted, but only {@link #LOST_PEER_TRIES} times in a row:
 * a host that went down is silent, and would cost every remaining point the deadline.
 */
public final class SessionProvider implements AutoCloseable {
    private final LinkproofConfiguration config;
    /** The run's transports (RunSetup discovered them): every session of the run runs on them. */
    private final Transports transports;

    private LocalAgent agent;
    private Session session;
    /**
     * An agent in this JVM, the target of the ways back of both-ways points (the target's agent drives
     * them toward it); started at the first such point, kept for the run.
     */
    private dev.linkproof.transfer.agent.AgentServer homeAgent;

    private String homeToken;

    /** The sessions of rails beyond the first, to the same agent, kept across points like the first. */
    private final java.util.List<Session> railSessions = new java.util.ArrayList<>();

    private TransferException startFailure;
    /** Connections in a row to a peer that was reached and then lost, before the run stops trying. */
    public static final int LOST_PEER_TRIES = 3;
    /**
     * Why the run stopped connecting to {@code linkproof.peer}: the first connection failed, or
     * {@link #LOST_PEER_TRIES} in a row after the peer was lost.
     */
    private TransferException peerGivenUp;

    private boolean peerReached;
    private int failedOpensInARow;
    private int provisions;
    private java.util.Map<String, String> agentEnvironment = java.util.Map.of();

    public SessionProvider(LinkproofConfiguration config, Transports transports) {
        this.config = config;
        this.transports = transports;
    }

    /** Environment variables the next local agent starts with (the profile's transport environment). */
    public synchronized void agentEnvironment(java.util.Map<String, String> env) {
        this.agentEnvironment = java.util.Map.copyOf(env);
    }

    public synchronized TransferSession acquire() throws TransferException {
        if (session != null && session.usable()) {
            return session;
        }
        if (startFailure != null) {
            throw new TransferException(
                    "the target agent could not be started earlier in this run: " + startFailure.getMessage(),
                    startFailure);
        }
        closeSession();
        if (config.peer().isPresent()) {
            if (peerGivenUp != null) {
                throw new TransferException(
                        "not retried for every point: " + peerGivenUp.getMessage()
                                + (peerReached
                                        ? " (the peer was lost earlier in this run, and " + LOST_PEER_TRIES
                                                + " reconnections in a row failed)"
                                        : peerGivenUp instanceof RemoteErrorException
                                                ? " (at this run's first point; the peer was reached and refused the"
                                                        + " session)"
                                                : " (at this run's first point; the run has not reached the peer)"),
                        peerGivenUp);
            }
            try {
                session = openRemote(config.peer().get());
                peerReached = true;
                failedOpensInARow = 0;
            } catch (TransferException e) {
                if (!peerReached || ++failedOpensInARow >= LOST_PEER_TRIES) {
                    peerGivenUp = e;
                }
                throw e;
            }
        } else {
            if (agent == null || !agent.alive()) {
                closeAgent();
                try {
                    agent = LocalAgent.start(
                            config.agentJvmArgs(),
                            agentEnvironment,
                            config.agentLog(),
                            config.timeouts().agentStart());
                } catch (PeerFailureException e) {
                    startFailure = e;
                    throw e;
                }
            }
            session = Session.open(agent.host(), agent.port(), agent.token(), config.timeouts(), transports);
        }
        provisions++;
        return session;
    }

    /**
     * {@code n} sessions to the same agent, for the rails of one point: the run's session and
     * {@code n - 1} more, each its own control connection, kept for the next point of rails and
     * replaced when one broke.
     */
    public synchronized java.util.List<TransferSession> acquireRails(int n) throws TransferException {
        TransferSession first = acquire();
        railSessions.removeIf(s -> {
            if (!s.usable()) {
                s.close();
                return true;
            }
            return false;
        });
        while (railSessions.size() < n - 1) {
            railSessions.add(
                    config.peer().isPresent()
                            ? openRemote(config.peer().get())
                            : Session.open(agent.host(), agent.port(), agent.token(), config.timeouts(), transports));
        }
        java.util.List<TransferSession> out = new java.util.ArrayList<>();
        out.add(first);
        out.addAll(railSessions.subList(0, n - 1));
        return out;
    }

    /**
     * This JVM's agent for the ways back: on a local pair on loopback, with {@code linkproof.peer} on the
     * address this host reached the peer from (so the peer can reach it back on the same route).
     */
    public synchronized dev.linkproof.transfer.session.Rails.Home home(TransferSession towardPeer)
            throws TransferException {
        if (homeAgent == null) {
            homeToken = dev.linkproof.transfer.control.AgentProcess.newToken();
            String bind = config.peer().isPresent() ? towardPeer.control().localAddress() : "127.0.0.1";
            try {
                homeAgent = dev.linkproof.transfer.agent.AgentServer.start(
                        bind, 0, homeToken, config.timeouts().io(), transports);
            } catch (java.io.IOException e) {
                throw new TransferException(
                        "cannot start this host's agent for the way back (on " + bind + "): " + e.getMessage(), e);
            }
        }
        return new dev.linkproof.transfer.session.Rails.Home(homeAgent.host(), homeAgent.port(), homeToken);
    }

    private Session openRemote(dev.linkproof.transfer.control.HostPort peer) throws TransferException {
        String token = config.token()
                .orElseThrow(() -> new TransferException(Constants.PEER + " is set but " + Constants.TOKEN
                        + " is not: give the token the agent was started with (it prints it)"));
        return Session.open(peer.host(), peer.port(), token, config.timeouts(), transports);
    }

    /**
     * Drops the pair after a peer failure: the next point gets a new session (and a new local agent).
     * The agent gets {@link #FAILED_AGENT_GRACE} to stop: one that failed may be stopped or wedged and
     * ignore SIGTERM, and the point's failure is reported only once it is gone.
     */
    public synchronized void invalidate() {
        closeSession();
        if (agent != null) {
            agent.close(FAILED_AGENT_GRACE);
            agent = null;
        }
    }

    /** How long an agent of a failed pair has for its orderly stop before it is killed. */
    static final java.time.Duration FAILED_AGENT_GRACE = java.time.Duration.ofMillis(500);

    /** How many times a pair was provisioned in this run. */
    public synchronized int provisions() {
        return provisions;
    }

    private void closeSession() {
        if (session != null) {
            session.close();
            session = null;
        }
        railSessions.forEach(Session::close);
        railSessions.clear();
    }

    private void closeAgent() {
        if (agent != null) {
            agent.close();
            agent = null;
        }
    }

    @Override
    public synchronized void close() {
        closeSession();
        closeAgent();
        if (homeAgent != null) {
            homeAgent.close();
            homeAgent = null;
        }
    }
}
