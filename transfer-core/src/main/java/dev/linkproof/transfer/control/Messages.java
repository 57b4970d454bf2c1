package dev.linkproof.transfer.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.validate.CompletionCheck;
import java.util.List;
import java.util.Map;

/** The bodies of control messages, and their JSON codec. */
public final class Messages {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

    private Messages() {}

    /**
     * First message of a session; the agent answers WELCOME or ERROR and closes on a bad token.
     * {@code progressTimeoutMillis} is the initiator's progress deadline: the agent applies it to
     * its side of every point of the session, so one setting on the initiator governs both ranks.
     */
    public record Hello(String token, int protocolVersion, String initiatorHost, long progressTimeoutMillis) {
        /** The longest progress deadline an agent accepts: a stalled transfer is noticed within the hour. */
        public static final long MAX_PROGRESS_TIMEOUT_MILLIS = 3_600_000;
    }

    public record TransportInfo(String id, boolean available, String reason) {
        public TransportInfo {
            required(id, "transport id");
            reason = reason == null ? "" : reason;
        }
    }

    /**
     * The agent's GPUs, so the initiator can skip a point whose target memory is on a GPU the
     * target does not have, with the target's own reason.
     */
    public record GpuInfo(boolean available, String detail, int devices) {
        public GpuInfo {
            detail = detail == null ? "" : detail;
        }
    }

    /**
     * The agent's answer to HELLO; {@code progressTimeoutMillis} is the deadline it applies for this
     * session; {@code bootId}: its kernel's boot id (null where unreadable), so an initiator can tell
     * an agent that shares its CPUs (same kernel) from one on another host.
     */
    public record Welcome(
            String agentVersion,
            String host,
            long pid,
            String jdk,
            List<TransportInfo> transports,
            GpuInfo gpus,
            long progressTimeoutMillis,
            String bootId) {
        public Welcome {
            required(agentVersion, "agentVersion");
            required(host, "host");
            required(jdk, "jdk");
            required(transports, "transports");
            required(gpus, "gpus");
            for (TransportInfo t : transports) {
                required(t, "transport");
            }
        }
    }

    public record Prepare(TransferSpec spec) {
        public Prepare {
            required(spec, "spec");
        }
    }

    /** The target's memory and transport endpoint for a point. */
    public record Prepared(String pointId, long regionBytes, Map<String, String> endpoint) {
        public Prepared {
            required(pointId, "pointId");
            required(endpoint, "endpoint");
        }
    }

    /** The initiator's half of a two-phase connection (RC queue pairs); reply CONNECTED with the target's answer. */
    public record Connect(String pointId, Map<String, String> endpoint) {
        public Connect {
            required(pointId, "pointId");
        }
    }

    public record Connected(String pointId, Map<String, String> endpoint) {
        public Connected {
            required(endpoint, "endpoint");
        }
    }

    /** Owner-side request: write generation {@code generation} of the pattern; reply CHECKSUMS. */
    public record Fill(String pointId, int generation) {
        public Fill {
            required(pointId, "pointId");
        }
    }

    /**
     * Receiver-side request after the verification pass: checksum every slot as it is now, and report
     * what the receiver checked in the completions of the {@code batches} batches the initiator ran
     * (a target that sees completions waits for them first, within its I/O deadline); reply CHECKSUMS.
     */
    public record Checksum(String pointId, long batches) {
        public Checksum {
            required(pointId, "pointId");
        }

        /** For a caller that does not care about completions (none are waited for). */
        public Checksum(String pointId) {
            this(pointId, 0);
        }
    }

    /**
     * {@code completions} is null in a reply to FILL (the owner checks no completions). {@code counters}:
     * for an atomic point, every slot's 8-byte counter as the target's host reads it (its checksum
     * says that a counter is wrong, its value by how much); null for other ops.
     */
    public record Checksums(String pointId, long[] checksums, CompletionCheck completions, long[] counters) {
        public Checksums {
            required(checksums, "checksums");
        }

        public Checksums(String pointId, long[] checksums, CompletionCheck completions) {
            this(pointId, checksums, completions, null);
        }

        public Checksums(String pointId, long[] checksums) {
            this(pointId, checksums, null, null);
        }
    }

    /** Find the first byte of {@code slot} that differs from {@code ownerRank}'s pattern of {@code generation}. */
    public record Locate(String pointId, int slot, int ownerRank, int generation) {
        public Locate {
            required(pointId, "pointId");
        }
    }

    /** {@code offset} is -1 when the slot matches. */
    public record Located(String pointId, int slot, long offset, int expected, int actual) {}

    public record Release(String pointId) {
        public Release {
            required(pointId, "pointId");
        }
    }

    /**
     * The agent's answer to RELEASE. {@code host}: how busy other processes kept the target's host
     * from PREPARE to RELEASE (absent where it has no {@code /proc}), so an initiator on another host
     * can tell a slow point from a busy target.
     */
    public record Released(String pointId, HostLoad host) {
        public Released(String pointId) {
            this(pointId, null);
        }
    }

    /**
     * How busy is the agent's host now: it measures {@code windowMillis} and answers LOADED. The
     * initiator asks before rerunning a point that fell short while the target's host was busy.
     */
    public record Load(long windowMillis) {
        /** Long enough to tell (a tick is 10 ms), short enough to keep the session answering. */
        public static final long MIN_WINDOW_MILLIS = 100;

        public static final long MAX_WINDOW_MILLIS = 2_000;

        public Load {
            if (windowMillis < MIN_WINDOW_MILLIS || windowMillis > MAX_WINDOW_MILLIS) {
                throw new IllegalArgumentException(
                        "windowMillis " + windowMillis + " is outside " + MIN_WINDOW_MILLIS + ".." + MAX_WINDOW_MILLIS);
            }
        }
    }

    /** The answer to LOAD; {@code host} is null where the agent cannot measure (no {@code /proc}). */
    public record Loaded(HostLoad host) {}

    /**
     * A host's CPU use over a window, as {@code HostContention} measures it: CPUs' worth of time
     * other processes and the agent's own took, of {@code cpus}, over {@code wallNanos}.
     */
    public record HostLoad(double otherCpus, double ownCpus, int cpus, long wallNanos) {
        /** More CPUs than any host has: a figure beyond it is not a measurement. */
        static final int MAX_CPUS = 1 << 16;

        public HostLoad {
            if (cpus < 1 || cpus > MAX_CPUS) {
                throw new IllegalArgumentException("host.cpus " + cpus + " is outside 1.." + MAX_CPUS);
            }
            // Our agents clamp to the CPU count; the slack of one is for another sender's rounding.
            if (!(otherCpus >= 0 && otherCpus <= cpus + 1) || !(ownCpus >= 0 && ownCpus <= cpus + 1)) {
                throw new IllegalArgumentException("host.otherCpus " + otherCpus + " and host.ownCpus " + ownCpus
                        + " must each be within 0.." + (cpus + 1) + " for " + cpus + " CPUs");
            }
            if (wallNanos <= 0) {
                throw new IllegalArgumentException("host.wallNanos " + wallNanos + " must be positive");
            }
        }

        /** What the agent measured, for the wire; refuses (IllegalArgumentException) what no host could have. */
        public static HostLoad of(HostContention h) {
            return new HostLoad(h.otherCpus(), h.ownCpus(), h.cpus(), h.wallNanos());
        }

        /** What the initiator judges by. */
        public HostContention contention() {
            return new HostContention(otherCpus, ownCpus, cpus, wallNanos);
        }
    }

    /**
     * The coordinator's request that this agent be the initiator of a point against another agent
     * (the target at {@code targetHost:targetPort}, with its token), as the engine is for its own
     * points: the same spec both ranks get from one source, validation on both. {@code gated}: stop
     * before the timed loop (state ARMED) until GO, so the point starts together with others.
     * {@code controlMillis}: the control deadline of this agent's session with the target. Reply
     * DRIVE_STATE as soon as the drive leaves PROVISIONING, or within {@link #STATE_WAIT_MILLIS}.
     */
    public record Drive(
            String driveId,
            TransferSpec spec,
            String targetHost,
            int targetPort,
            String targetToken,
            boolean gated,
            long controlMillis) {
        /** The longest an agent holds a DRIVE, GO or POLL before it answers with the state as it is. */
        public static final long STATE_WAIT_MILLIS = 1000;

        public Drive {
            required(driveId, "driveId");
            required(spec, "spec");
            required(targetHost, "targetHost");
            required(targetToken, "targetToken");
            if (targetPort < 1 || targetPort > 65535) {
                throw new IllegalArgumentException("targetPort " + targetPort + " is outside 1..65535");
            }
            if (controlMillis < 1 || controlMillis > Hello.MAX_PROGRESS_TIMEOUT_MILLIS) {
                throw new IllegalArgumentException(
                        "controlMillis " + controlMillis + " is outside 1.." + Hello.MAX_PROGRESS_TIMEOUT_MILLIS);
            }
        }
    }

    /** Start (or, {@code cancel}, abandon) an ARMED drive's timed loop; reply DRIVE_STATE. */
    public record Go(String driveId, boolean cancel) {
        public Go {
            required(driveId, "driveId");
        }
    }

    /** The drive's state, answered when it is no longer {@code seen} or within {@link Drive#STATE_WAIT_MILLIS}. */
    public record Poll(String driveId, String seen) {
        public Poll {
            required(driveId, "driveId");
        }
    }

    /**
     * Where a drive is: PROVISIONING, ARMED (at its start barrier), RUNNING, DONE (with its measurement),
     * FAILED (with why, and whether the target failed: {@code peerFailure}).
     */
    public record DriveState(
            String driveId, String state, DrivenMeasurement measurement, String failure, boolean peerFailure) {
        public DriveState {
            required(driveId, "driveId");
            required(state, "state");
        }
    }

    /**
     * A measurement made by an agent that drove a point, as it travels to the coordinator:
     * {@code loopStartAfterGoNanos} is how long after it received GO its timed loop started, so
     * the coordinator can place the loop on its own clock (0 for a drive that was not gated).
     */
    public record DrivenMeasurement(
            TransferSpec spec,
            long bytes,
            long totalNanos,
            double bandwidthGBps,
            dev.linkproof.transfer.measure.LatencyStats latency,
            int slots,
            long validatedBytes,
            int badSlots,
            dev.linkproof.transfer.validate.Mismatch firstBad,
            CompletionCheck completions,
            Map<String, String> environment,
            List<dev.linkproof.transfer.measure.Phases.Phase> phases,
            long loopStartAfterGoNanos) {
        public DrivenMeasurement {
            required(spec, "spec");
            required(latency, "latency");
            environment = environment == null ? Map.of() : environment;
            phases = phases == null ? List.of() : phases;
        }

        public static DrivenMeasurement of(dev.linkproof.transfer.measure.Measurement m, long loopStartAfterGoNanos) {
            var v = m.validation();
            return new DrivenMeasurement(
                    m.spec(),
                    m.bytes(),
                    m.totalNanos(),
                    m.bandwidthGBps(),
                    m.latency(),
                    v.slots(),
                    v.bytes(),
                    v.badSlots(),
                    v.firstBad().orElse(null),
                    v.completions(),
                    m.environment(),
                    m.phases(),
                    loopStartAfterGoNanos);
        }

        public dev.linkproof.transfer.measure.Measurement measurement() {
            var v = new dev.linkproof.transfer.validate.Validation(
                    slots, validatedBytes, badSlots, java.util.Optional.ofNullable(firstBad), completions);
            return new dev.linkproof.transfer.measure.Measurement(
                    spec, bytes, totalNanos, bandwidthGBps, latency, v, Map.copyOf(environment), List.copyOf(phases));
        }
    }

    /**
     * A fleet's agent, to the coordinator's registry: which node it is ({@code node}, as the launcher
     * names it), where its agent serves ({@code host}:{@code port}, an address on the interface it
     * reached the coordinator through), and the run's token. The connection stays open afterwards:
     * its end tells each side the other is gone. Reply REGISTERED, or ERROR (wrong token, a node
     * the run does not expect, a node already registered). {@code machine}: the machine the agent runs
     * on when that is not the node (a Kubernetes pod's node, which labels and taints name); may be null.
     */
    public record Register(
            String token,
            int protocolVersion,
            String node,
            String host,
            int port,
            long pid,
            String agentVersion,
            String machine) {
        /** Longest node name accepted: a DNS name (253), as Kubernetes pod names are. */
        public static final int MAX_NODE_NAME = 253;

        public Register {
            required(token, "token");
            required(node, "node");
            required(host, "host");
            if (node.isBlank() || node.length() > MAX_NODE_NAME || node.chars().anyMatch(c -> c <= ' ' || c == 127)) {
                throw new IllegalArgumentException("node '" + node + "' is not a node name (1.." + MAX_NODE_NAME
                        + " characters, no spaces or control characters)");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is outside 1..65535");
            }
        }
    }

    /** The registry's answer: the node as registered, and the coordinator's own name for the logs. */
    public record Registered(String node, String coordinator) {
        public Registered {
            required(node, "node");
            required(coordinator, "coordinator");
        }
    }

    public record Ping(long nonce) {}

    public record Pong(long nonce) {}

    public record Bye(String reason) {}

    /** A refused request. {@code code} is stable (for programs); {@code message} names the cause (for people). */
    public record Error(String code, String message) {
        public Error {
            required(code, "code");
            required(message, "message");
        }
    }

    public static byte[] encode(Object message) {
        try {
            return JSON.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot encode " + message.getClass().getSimpleName(), e);
        }
    }

    /**
     * A field the receiver relies on, checked as the record is made: Jackson leaves a missing
     * object field null, and a decoded null would otherwise surface as a NullPointerException in
     * the handler instead of a bad-request answer naming the field.
     */
    static void required(Object value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
    }

    /**
     * Decodes a body; a body that does not parse, fails the record's own checks, or is JSON
     * {@code null} (which Jackson maps to a null record) is a non-fatal protocol error.
     */
    public static <T> T decode(Frame frame, Class<T> type) throws ProtocolException {
        try {
            T message = JSON.readValue(frame.body(), type);
            if (message == null) {
                throw new ProtocolException(
                        "bad-body", "malformed " + frame.type() + " body: null, expected a JSON object", false);
            }
            return message;
        } catch (java.io.IOException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String why = root instanceof IllegalArgumentException
                    ? root.getMessage()
                    : firstLine(String.valueOf(e.getMessage()));
            throw new ProtocolException(
                    root instanceof IllegalArgumentException ? "bad-request" : "bad-body",
                    "malformed " + frame.type() + " body: " + why,
                    false);
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
