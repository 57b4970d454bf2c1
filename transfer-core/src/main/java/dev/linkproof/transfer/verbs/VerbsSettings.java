package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The verbs transport's knobs, read from a point's {@link TransferSpec#settings()} so both ranks see
 * the same values: the perftest and MORI-IO tuning parameters under Linkproof names. Every key with
 * its default and its perftest flag: docs/transports/verbs.md, "Settings". A merged or unchunked WR
 * larger than the port's {@code max_msg_sz} fails the point before anything is posted, naming the
 * sizes and the settings that avoid it ({@code verbs.chunkBytes}, {@code verbs.merge=false}).
 */
public record VerbsSettings(
        Optional<String> device,
        int port,
        OptionalInt gidIndex,
        OptionalInt mtuBytes,
        boolean eventMode,
        int signalEvery,
        int postList,
        int txDepth,
        int cqBatch,
        int inlineBytes,
        boolean inlineMax,
        long chunkBytes,
        int maxChunks,
        boolean merge,
        OptionalInt rdAtomic) {
    public static final String DEVICE = "verbs.device";
    public static final String PORT = "verbs.port";
    public static final String GID_INDEX = "verbs.gidIndex";
    public static final String MTU = "verbs.mtu";
    public static final String COMPLETION = "verbs.completion";
    public static final String SIGNAL_EVERY = "verbs.signalEvery";
    public static final String POST_LIST = "verbs.postList";
    public static final String TX_DEPTH = "verbs.txDepth";
    public static final String CQ_BATCH = "verbs.cqBatch";
    public static final String INLINE = "verbs.inline";
    public static final String CHUNK_BYTES = "verbs.chunkBytes";
    public static final String MAX_CHUNKS = "verbs.maxChunks";
    public static final String MERGE = "verbs.merge";
    public static final String RD_ATOMIC = "verbs.rdAtomic";
    /** Per-rank fallback for {@link #DEVICE}: each host names its own device (two hosts rarely share names). */
    public static final String DEVICE_PROPERTY = "linkproof.verbs.device";

    public static final String DEVICE_ENV = "LINKPROOF_VERBS_DEVICE";

    static final Set<String> KEYS = Set.of(
            DEVICE,
            PORT,
            GID_INDEX,
            MTU,
            COMPLETION,
            SIGNAL_EVERY,
            POST_LIST,
            TX_DEPTH,
            CQ_BATCH,
            INLINE,
            CHUNK_BYTES,
            MAX_CHUNKS,
            MERGE,
            RD_ATOMIC);

    /** Parses the {@code verbs.*} keys; a bad value or an unknown {@code verbs.} key names the key. */
    public static VerbsSettings of(TransferSpec spec) {
        Map<String, String> s = spec.settings();
        for (String k : s.keySet()) {
            if (k.startsWith("verbs.") && !KEYS.contains(k)) {
                throw new IllegalArgumentException("unknown verbs setting '" + k + "' (known: "
                        + String.join(", ", new java.util.TreeSet<>(KEYS)) + ")");
            }
        }
        Optional<String> device = Optional.ofNullable(s.get(DEVICE))
                .or(() -> Optional.ofNullable(System.getProperty(DEVICE_PROPERTY)))
                .or(() -> Optional.ofNullable(System.getenv(DEVICE_ENV)))
                .filter(d -> !d.isBlank());
        String completion = s.getOrDefault(COMPLETION, "poll").toLowerCase(Locale.ROOT);
        if (!completion.equals("poll") && !completion.equals("event")) {
            throw new IllegalArgumentException(COMPLETION + "=" + completion + ": expected poll or event");
        }
        OptionalInt mtu = optInt(s, MTU, 256, 4096);
        if (mtu.isPresent() && Integer.bitCount(mtu.getAsInt()) != 1) {
            throw new IllegalArgumentException(MTU + "=" + mtu.getAsInt() + ": expected 256, 512, 1024, 2048 or 4096");
        }
        String inline = s.getOrDefault(INLINE, spec.mode() == Mode.LATENCY ? "220" : "0");
        boolean inlineMax = inline.equalsIgnoreCase("max");
        int inlineBytes = inlineMax ? 0 : (int) parse(INLINE, inline, 0, 1 << 16);
        String merge = s.getOrDefault(MERGE, "true");
        if (!merge.equalsIgnoreCase("true") && !merge.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(MERGE + "=" + merge + ": expected true or false");
        }
        return new VerbsSettings(
                device,
                (int) num(s, PORT, 1, 1, 255),
                optInt(s, GID_INDEX, 0, 65535),
                mtu,
                completion.equals("event"),
                (int) num(s, SIGNAL_EVERY, 16, 1, 1 << 16),
                (int) num(s, POST_LIST, 16, 1, 1 << 16),
                (int) num(s, TX_DEPTH, 128, 1, 1 << 16),
                (int) num(s, CQ_BATCH, 16, 1, 4096),
                inlineBytes,
                inlineMax,
                num(s, CHUNK_BYTES, 0, 0, TransferSpec.MAX_SIZE),
                (int) num(s, MAX_CHUNKS, 0, 0, 1 << 20),
                Boolean.parseBoolean(merge),
                optInt(s, RD_ATOMIC, 1, 255));
    }

    /** The {@code ibv_mtu} enum value for a byte count (256 → 1 ... 4096 → 5). */
    static int mtuEnum(int bytes) {
        return Integer.numberOfTrailingZeros(bytes) - 7;
    }

    static int mtuBytes(int mtuEnum) {
        return 128 << mtuEnum;
    }

    private static long num(Map<String, String> s, String key, long dflt, long min, long max) {
        String v = s.get(key);
        return v == null ? dflt : parse(key, v, min, max);
    }

    private static OptionalInt optInt(Map<String, String> s, String key, long min, long max) {
        String v = s.get(key);
        return v == null ? OptionalInt.empty() : OptionalInt.of((int) parse(key, v, min, max));
    }

    private static long parse(String key, String v, long min, long max) {
        long n;
        try {
            n = dev.linkproof.transfer.Units.parseSize(v.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + ": not a number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + "=" + v + " out of range " + min + ".." + max);
        }
        return n;
    }
}
