package dev.linkproof.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One tcp rail of {@code linkproof.tcp.rails}: the address the target's data listener binds to and the
 * initiator connects to, and, optionally, the initiator's own address on that link (so the kernel sends
 * the rail over it). Written {@code SOURCE->TARGET} or {@code TARGET}.
 */
public record TcpRail(Optional<String> source, String target) {
    public TcpRail {
        if (target == null || target.isBlank()) {
            throw new IllegalArgumentException("a tcp rail needs a target address");
        }
    }

    /** How reports name the rail: {@code 10.77.1.1->10.77.1.2}, or the target alone. */
    public String label() {
        return source.map(s -> s + "->" + target).orElse(target);
    }

    /** Comma-separated rails; a bad entry is named with the form (the key's reader names the key). */
    static List<TcpRail> parseList(String value) {
        List<TcpRail> out = new ArrayList<>();
        for (String entry : value.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            int arrow = e.indexOf("->");
            String source = arrow < 0 ? null : e.substring(0, arrow).strip();
            String target = arrow < 0 ? e : e.substring(arrow + 2).strip();
            if (target.isEmpty()
                    || (source != null && source.isEmpty())
                    || target.contains("->")
                    || target.contains(" ")) {
                throw new IllegalArgumentException("has a bad rail '" + e + "' (SOURCE->TARGET or TARGET, e.g. "
                        + "10.77.0.1->10.77.0.2, comma-separated, one per rail)");
            }
            out.add(new TcpRail(Optional.ofNullable(source), target));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("names no rail (SOURCE->TARGET or TARGET, comma-separated)");
        }
        return List.copyOf(out);
    }
}
