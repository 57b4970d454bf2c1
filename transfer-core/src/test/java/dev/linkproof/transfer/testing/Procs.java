package dev.linkproof.transfer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What Linux's /proc says about a process and a port, for the tests of what a dead initiator leaves,
 * and about the TCP sockets of a network namespace, for the tests of which addresses a point used.
 */
public final class Procs {
    private Procs() {}

    /** True when no process {@code pid} runs: none at all, or only its zombie waiting to be reaped or released. */
    public static boolean gone(long pid) {
        Path dir = Path.of("/proc", Long.toString(pid));
        try {
            String stat = Files.readString(dir.resolve("stat"));
            // pid (comm) S ...: the state follows the last ')', since comm may hold anything. Z is a
            // zombie, X one being released (seen between Z and the directory's going, 2026-12-06).
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X';
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            // Released between the open and the read: the kernel answers ESRCH ("No such process"), a
            // plain IOException, and the directory goes with it. Polling an exiting process hits this
            // one time in four here; it failed the Soft-RoCE VM's VerbsInitiatorDeath in CI.
            if (!Files.isDirectory(dir)) {
                return true;
            }
            throw new UncheckedIOException(e);
        }
    }

    /** True when a TCP socket of this network namespace listens on {@code port} (any address, v4 or v6). */
    public static boolean listening(int port) {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (Stream<String> lines = Files.lines(Path.of(table))) {
                // sl local_address rem_address st ...; st 0A is LISTEN
                if (lines.skip(1)
                        .map(String::trim)
                        .map(l -> l.split("\\s+"))
                        .anyMatch(f -> f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("0A"))) {
                    return true;
                }
            } catch (NoSuchFileException e) {
                // no IPv6 here
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return false;
    }

    /** A TCP socket as the kernel lists it: its two ends and its state ({@code LISTEN}, {@code ESTABLISHED}, ...). */
    public record TcpSocket(InetSocketAddress local, InetSocketAddress remote, String state) {
        @Override
        public String toString() {
            return local.getAddress().getHostAddress() + ":" + local.getPort() + " <-> "
                    + remote.getAddress().getHostAddress() + ":" + remote.getPort() + " " + state;
        }
    }

    private static final String[] TCP_STATES = {
        "?",
        "ESTABLISHED",
        "SYN_SENT",
        "SYN_RECV",
        "FIN_WAIT1",
        "FIN_WAIT2",
        "TIME_WAIT",
        "CLOSE",
        "CLOSE_WAIT",
        "LAST_ACK",
        "LISTEN",
        "CLOSING",
        "NEW_SYN_RECV"
    };

    /** The TCP sockets of this process's network namespace, v4 and v6 ({@code /proc/net/tcp} and {@code tcp6}). */
    public static List<TcpSocket> tcpSockets() {
        StringBuilder tables = new StringBuilder();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                tables.append(Files.readString(Path.of(table)));
            } catch (NoSuchFileException e) {
                // no IPv6 here
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tcpSockets(tables.toString());
    }

    /**
     * Parses the text of {@code /proc/net/tcp} and {@code /proc/net/tcp6} (header lines included), as
     * read in any network namespace (e.g. through {@code ip netns exec NS cat ...}). An IPv4 address
     * a dual-stack socket maps ({@code ::ffff:a.b.c.d}) comes back as the IPv4 address.
     */
    public static List<TcpSocket> tcpSockets(String tables) {
        List<TcpSocket> sockets = new java.util.ArrayList<>();
        for (String line : tables.split("\n")) {
            String[] f = line.trim().split("\\s+");
            // sl local_address rem_address st ...; the header's second field is "local_address"
            if (f.length < 4 || !f[0].endsWith(":") || !f[1].contains(":") || f[1].startsWith("local")) {
                continue;
            }
            int st = Integer.parseInt(f[3], 16);
            sockets.add(new TcpSocket(
                    endpoint(f[1]), endpoint(f[2]), st < TCP_STATES.length ? TCP_STATES[st] : "state " + st));
        }
        return sockets;
    }

    /** {@code 0100007F:1F90} (v4) or 32 hex digits and a port (v6): each 32-bit word in host (little-endian) order. */
    private static InetSocketAddress endpoint(String field) {
        int colon = field.indexOf(':');
        String hex = field.substring(0, colon);
        byte[] raw = new byte[hex.length() / 2];
        for (int word = 0; word < raw.length / 4; word++) {
            for (int b = 0; b < 4; b++) {
                raw[word * 4 + b] =
                        (byte) Integer.parseInt(hex.substring(word * 8 + (3 - b) * 2, word * 8 + (3 - b) * 2 + 2), 16);
            }
        }
        try {
            // getByAddress turns ::ffff:a.b.c.d into an Inet4Address itself
            return new InetSocketAddress(
                    InetAddress.getByAddress(raw), Integer.parseInt(field.substring(colon + 1), 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + field, e);
        }
    }

    /** The open file descriptors of a process, by what they point at (socket:[…], /dev/shm/…, anon_inode:…). */
    public static List<String> fds(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.map(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString();
                        } catch (IOException e) {
                            return "?"; // closed while we looked
                        }
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many of a process's descriptors are sockets. */
    public static long sockets(long pid) {
        return fds(pid).stream().filter(f -> f.startsWith("socket:")).count();
    }

    /** The process's command line, arguments joined by spaces; empty when it is gone. */
    public static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")))
                    .replace('\0', ' ')
                    .trim();
        } catch (IOException e) {
            return "";
        }
    }
}
