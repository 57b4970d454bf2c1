package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentMain;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The initiator of {@link TcpRailsNetnsTest}, in a JVM of its own so that it can run inside the
 * initiator's network namespace: one tcp WRITE point over several rails at once ({@link Rails#run}).
 * Arguments {@code HOST PORT SIZE ITERATIONS RAIL0 RAIL1 ...}, each RAIL the rail's settings as
 * {@code key=value,key=value} or {@code -}; the token in {@code $LINKPROOF_TOKEN}. It prints a line
 * per rail, {@code rail index=0 label=… valid=true GBps=… start=… end=… moved=…} (its timed loop on
 * {@link System#nanoTime()}; the payload bytes, warmup and verification included), then
 * {@code rails done}; a failure prints {@code rails failed: <why>} and exits 1.
 */
public final class RailsInitiatorMain {
    /** Connections per rail: more than one, so a rail's pinning holds for all of its connections. */
    static final int CONNECTIONS = 2;

    static final int WARMUP = 2;
    static final String DONE = "rails done";
    static final String FAILED = "rails failed: ";

    private RailsInitiatorMain() {}

    static TransferSpec railSpec(int rail, long size, int iterations, Map<String, String> settings) {
        return TransferSpec.builder()
                .pointId("TcpRailsNetnsTest/rail" + rail)
                .transport(TcpTransport.ID)
                .op(Op.WRITE)
                .size(size)
                .batch(1)
                .connections(CONNECTIONS)
                .iterations(iterations)
                .warmup(WARMUP)
                .settings(settings)
                .build();
    }

    static Map<String, String> parseSettings(String arg) {
        Map<String, String> s = new LinkedHashMap<>();
        if (!arg.equals("-")) {
            for (String kv : arg.split(",")) {
                int eq = kv.indexOf('=');
                s.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return s;
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        long size = Long.parseLong(args[2]);
        int iterations = Integer.parseInt(args[3]);
        String token = System.getenv(AgentMain.TOKEN_ENV);
        List<Session> sessions = new ArrayList<>();
        int exit = 0;
        try {
            List<Rails.Rail> rails = new ArrayList<>();
            for (int i = 4; i < args.length; i++) {
                int rail = i - 4;
                Map<String, String> settings = parseSettings(args[i]);
                Session s = Session.open(host, port, token, Timeouts.DEFAULT);
                sessions.add(s);
                String label = settings.getOrDefault(TcpSettings.SOURCE, "?") + "->"
                        + settings.getOrDefault(TcpSettings.ADDRESS, host);
                rails.add(new Rails.Rail(label, s, railSpec(rail, size, iterations, settings)));
            }
            TransferSpec point = railSpec(0, size, iterations, Map.of()).withPointId("TcpRailsNetnsTest");
            Measurement m = Rails.run(point, rails, Duration.ofSeconds(20));
            for (RailResult r : m.rails()) {
                TransferSpec spec = r.measurement().spec();
                long moved = MeasurementLoop.batchesPerPoint(spec) * spec.batch() * spec.size();
                System.out.printf(
                        Locale.ROOT,
                        "rail index=%d label=%s valid=%b GBps=%.6f start=%d end=%d moved=%d%n",
                        r.index(),
                        r.label(),
                        r.measurement().isValid(),
                        r.measurement().bandwidthGBps(),
                        r.loopStartNanos(),
                        r.loopEndNanos(),
                        moved);
            }
            System.out.println(DONE);
        } catch (TransferException e) {
            System.out.println(FAILED + e.getMessage());
            exit = 1;
        } finally {
            for (Session s : sessions) {
                s.close();
            }
        }
        System.exit(exit);
    }
}
