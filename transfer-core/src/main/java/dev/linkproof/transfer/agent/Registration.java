package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.ProtocolException;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A fleet agent's side of the rendezvous: it dials the coordinator's registry, says which node it is
 * and where it serves, and holds the connection for the run. The launcher (srun, a Kubernetes Job)
 * starts agents about when it starts the coordinator, so the dial is retried until its deadline: a
 * coordinator not listening yet is the normal case. The registry then PINGs every
 * {@link #HEARTBEAT} and the agent answers PONG; an agent that hears nothing for
 * {@link #SILENCE_LIMIT} (a host or the network died without closing) takes the coordinator for
 * gone, as on BYE or end of stream, and stops: a fleet's agent never outlives its run.
 */
public final class Registration implements AutoCloseable {
    /** How often the registry pings each registered agent. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** Silence after which an agent takes its coordinator for gone: four heartbeats missed. */
    public static final Duration SILENCE_LIMIT = HEARTBEAT.multipliedBy(4);
    /** The longest pause between two dials while the coordinator is not up yet. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    private static final String WHAT = "the coordinator's registry";

    private final ControlChannel channel;

    private Registration(ControlChannel channel) {
        this.channel = channel;
    }

    /**
     * Dials {@code host:port} until it answers or {@code within} has passed; each failed dial is told
     * to {@code progress} (the first and then every tenth), so a log shows an agent waiting rather
     * than hanging.
     */
    public static Registration dial(String host, int port, Duration within, Consumer<String> progress)
            throws PeerFailureException {
        long deadline = System.nanoTime() + within.toNanos();
        long backoffMillis = 100;
        int tries = 0;
        while (true) {
            tries++;
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            try {
                Duration dial = left.compareTo(Duration.ofSeconds(5)) < 0 ? left : Duration.ofSeconds(5);
                return new Registration(ControlChannel.connect(
                        host, port, dial.isNegative() || dial.isZero() ? Duration.ofMillis(1) : dial, WHAT));
            } catch (PeerFailureException e) {
                if (System.nanoTime() + backoffMillis * 1_000_000 >= deadline) {
                    throw new PeerFailureException(
                                    "the coordinator's registry at " + host + ":" + port
                                            + " did not answer within " + Units.formatDuration(within) + " (" + tries
                                            + " dials; last: "
                                            + e.getMessage()
                                                    .replace(
                                                            "cannot reach " + WHAT + " at " + host + ":" + port + ": ",
                                                            "")
                                            + ")",
                                    e)
                            .expired(Deadline.CONTROL);
                }
                if (tries == 1 || tries % 10 == 0) {
                    progress.accept("waiting for the coordinator's registry at " + host + ":" + port + " (dial " + tries
                            + ": "
                            + e.getMessage().replace("cannot reach " + WHAT + " at " + host + ":" + port + ": ", "")
                            + ")");
                }
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new PeerFailureException(
                            "interrupted while waiting for the coordinator's registry", interrupted);
                }
                backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis());
            }
        }
    }

    /** This side's address on the connection: where the coordinator, and the other agents, can reach this node. */
    public String localAddress() {
        return channel.localAddress();
    }

    /**
     * Registers; a refusal (wrong token, a node the run does not expect, one already registered) is a
     * {@link dev.linkproof.transfer.control.RemoteErrorException} naming it.
     */
    public Messages.Registered register(Messages.Register request, Duration timeout) throws TransferException {
        return channel.call(MessageType.REGISTER, request, MessageType.REGISTERED, Messages.Registered.class, timeout);
    }

    /**
     * Serves the heartbeat until the coordinator ends the run (BYE), closes the connection, or falls
     * silent for {@link #SILENCE_LIMIT}; returns why, in words, for the agent's last log line.
     */
    public String awaitEnd() {
        while (true) {
            Frame frame;
            try {
                frame = channel.readRaw(SILENCE_LIMIT);
            } catch (SocketTimeoutException e) {
                return "the coordinator at " + channel.peer() + " was silent for " + SILENCE_LIMIT.toSeconds()
                        + " s (its host or the network between us is down)";
            } catch (EOFException e) {
                return "the coordinator at " + channel.peer()
                        + " closed the registration (the run ended or its process died)";
            } catch (IOException e) {
                return "the registration with the coordinator at " + channel.peer() + " broke: " + e.getMessage();
            } catch (ProtocolException e) {
                return "the coordinator at " + channel.peer() + " broke the protocol: " + e.getMessage();
            }
            if (frame == null) {
                return "the coordinator at " + channel.peer()
                        + " closed the registration (the run ended or its process died)";
            }
            switch (frame.type()) {
                case BYE -> {
                    String reason = "";
                    try {
                        reason = Messages.decode(frame, Messages.Bye.class).reason();
                    } catch (ProtocolException ignored) {
                        // a BYE is a BYE, whatever its body
                    }
                    return "the coordinator ended the run" + (reason == null || reason.isEmpty() ? "" : ": " + reason);
                }
                case PING -> {
                    try {
                        long nonce = Messages.decode(frame, Messages.Ping.class).nonce();
                        channel.writeRaw(
                                FrameCodec.encode(MessageType.PONG, Messages.encode(new Messages.Pong(nonce))));
                    } catch (ProtocolException e) {
                        return "the coordinator at " + channel.peer() + " broke the protocol: " + e.getMessage();
                    } catch (IOException e) {
                        return "the registration with the coordinator at " + channel.peer() + " broke: "
                                + e.getMessage();
                    }
                }
                default -> {
                    return "the coordinator at " + channel.peer() + " sent " + frame.type() + " on the registration";
                }
            }
        }
    }

    @Override
    public void close() {
        channel.close();
    }
}
