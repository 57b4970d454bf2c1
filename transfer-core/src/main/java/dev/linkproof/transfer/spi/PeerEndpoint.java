package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.TransferException;
import java.util.HexFormat;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads the other rank's half of a connection: the string map a transport's target point publishes
 * (PREPARED, CONNECTED) and its initiator consumes, or the reverse. It crossed the control channel,
 * so a missing or malformed entry is the peer's fault and becomes a {@link TransferException} that
 * names the transport, the key and the value — never a {@link NumberFormatException} from deep
 * inside a transport.
 */
public final class PeerEndpoint {
    private final String transport;
    private final Map<String, String> entries;

    private PeerEndpoint(String transport, Map<String, String> entries) {
        this.transport = transport;
        this.entries = entries;
    }

    public static PeerEndpoint of(String transport, Map<String, String> entries) {
        return new PeerEndpoint(transport, entries);
    }

    public String string(String key) throws TransferException {
        String v = entries.get(key);
        if (v == null) {
            // A JSON null decodes to a present key with no value: "lacks it (it has it)" would confuse.
            throw new TransferException(
                    entries.containsKey(key)
                            ? transport + " endpoint from the peer has " + key + "=null: expected a value"
                            : transport + " endpoint from the peer lacks '" + key + "' (it has " + entries.keySet()
                                    + ")");
        }
        return v;
    }

    /** A decimal whole number in {@code min..max}. */
    public long number(String key, long min, long max) throws TransferException {
        String v = string(key);
        OptionalLong n = wholeNumber(v, min, max);
        if (n.isEmpty()) {
            throw malformed(key, v, "a whole number in " + min + ".." + max);
        }
        return n.getAsLong();
    }

    /** An unsigned 64-bit decimal (an address). */
    public long unsigned(String key) throws TransferException {
        String v = string(key);
        try {
            return Long.parseUnsignedLong(v.trim());
        } catch (NumberFormatException e) {
            throw malformed(key, v, "an unsigned 64-bit number");
        }
    }

    /** Comma-separated whole numbers in {@code min..max}, one per queue pair or connection. */
    public int[] numbers(String key, int min, int max) throws TransferException {
        String v = string(key);
        String[] parts = v.split(",", -1);
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            OptionalLong n = wholeNumber(parts[i], min, max);
            if (n.isEmpty()) {
                throw malformed(key, v, "comma-separated whole numbers in " + min + ".." + max);
            }
            out[i] = (int) n.getAsLong();
        }
        return out;
    }

    /** At least one byte as hexadecimal digits (an address, a key, a handle: never empty). */
    public byte[] hex(String key) throws TransferException {
        String v = string(key);
        try {
            byte[] bytes = HexFormat.of().parseHex(v);
            if (bytes.length > 0) {
                return bytes;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the message below
        }
        throw malformed(key, v, "hexadecimal bytes, at least one");
    }

    /** A 64-bit value as at most 16 hexadecimal digits. */
    public long hexNumber(String key) throws TransferException {
        String v = string(key);
        if (v.isEmpty() || v.length() > 16 || !v.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw malformed(key, v, "1 to 16 hexadecimal digits");
        }
        return HexFormat.fromHexDigitsToLong(v);
    }

    /** {@code text} as a decimal in {@code min..max}; empty when it is not one. */
    private static OptionalLong wholeNumber(String text, long min, long max) {
        try {
            long n = Long.parseLong(text.trim());
            return n >= min && n <= max ? OptionalLong.of(n) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private TransferException malformed(String key, String value, String expected) {
        String shown = value.length() > 40 ? value.substring(0, 40) + "... (" + value.length() + " chars)" : value;
        return new TransferException(
                transport + " endpoint from the peer has " + key + "='" + shown + "': expected " + expected);
    }
}
