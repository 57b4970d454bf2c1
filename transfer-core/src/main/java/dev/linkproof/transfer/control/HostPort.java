package dev.linkproof.transfer.control;

import java.util.OptionalInt;

/**
 * A {@code host:port} as every address Linkproof reads is written: a target agent
 * ({@code linkproof.peer}, {@code --peer}), a fleet's registry ({@code linkproof.fleet.registry},
 * {@code --register}). An IPv6 address is written in brackets ({@code [fe80::1]:7471}, RFC 3986's
 * form) and held without them; where the caller has a default port, the port may be left out.
 *
 * @param port 0..65535; 0 only where the caller allows it (a port to listen on)
 */
public record HostPort(String host, int port) {
    /** The port a target agent listens on unless told otherwise ({@code linkproof agent --port}). */
    public static final int AGENT_PORT = 7471;
    /** The port a fleet's registry listens on unless told otherwise ({@code linkproof.fleet.registry}). */
    public static final int REGISTRY_PORT = 7470;

    public HostPort {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("no host");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
    }

    /** {@code text} as host:port with a port of at least {@code minPort}; without a port, {@code defaultPort} if any. */
    public static HostPort parse(String text, OptionalInt defaultPort, int minPort) {
        String t = text == null ? "" : text.strip();
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                throw bad(text, "no ']' after the IPv6 address");
            }
            host = t.substring(1, close);
            String rest = t.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw bad(text, "'" + rest + "' after ']' (expected :PORT)");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int first = t.indexOf(':');
            if (first != t.lastIndexOf(':')) {
                throw bad(text, "an IPv6 address needs brackets");
            }
            host = first < 0 ? t : t.substring(0, first);
            port = first < 0 ? null : t.substring(first + 1);
        }
        if (host.isBlank()) {
            throw bad(text, "no host");
        }
        if (port == null) {
            if (defaultPort.isEmpty()) {
                throw bad(text, "no port");
            }
            return new HostPort(host, defaultPort.getAsInt());
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw bad(text, "bad port '" + port + "' (a number from " + minPort + " to 65535)");
        }
        if (p < minPort || p > 65535) {
            throw bad(text, "port " + p + " is outside " + minPort + "..65535");
        }
        return new HostPort(host, p);
    }

    /** As {@link #parse(String, OptionalInt, int)}, a port 1..65535 required. */
    public static HostPort parse(String text) {
        return parse(text, OptionalInt.empty(), 1);
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException(
                "'" + text + "' is not HOST:PORT: " + why + " (e.g. node2:7471, 10.0.0.2:7471 or [fe80::1]:7471)");
    }

    /** Back in the form it is read in: brackets around an IPv6 address. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
