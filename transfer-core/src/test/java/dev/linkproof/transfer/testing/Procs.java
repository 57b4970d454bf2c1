package dev.linkproof.transfer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** What Linux's /proc says about a process and a port, for the tests of what a dead initiator leaves. */
public final class Procs {
    private Procs() {
    }

    /** True when no process {@code pid} runs: none at all, or only its zombie waiting to be reaped. */
    public static boolean gone(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // pid (comm) S ...: the state follows the last ')', since comm may hold anything
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when a TCP socket of this network namespace listens on {@code port} (any address, v4 or v6). */
    public static boolean listening(int port) {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (Stream<String> lines = Files.lines(Path.of(table))) {
                // sl local_address rem_address st ...; st 0A is LISTEN
                if (lines.skip(1).map(String::trim).map(l -> l.split("\\s+"))
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

    /** The open file descriptors of a process, by what they point at (socket:[…], /dev/shm/…, anon_inode:…). */
    public static List<String> fds(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    return "?"; // closed while we looked
                }
            }).sorted().toList();
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
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"))).replace('\0', ' ').trim();
        } catch (IOException e) {
            return "";
        }
    }
}
