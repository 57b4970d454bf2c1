package dev.linkproof.conformance.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a process holds that a leak would grow, read from {@code /proc}: open file descriptors and
 * threads. {@code pid} 0 is this process.
 */
public record ProcessCounts(long fds, long threads) {
    public static ProcessCounts of(long pid) {
        Path proc = pid == 0 ? Path.of("/proc/self") : Path.of("/proc", Long.toString(pid));
        return new ProcessCounts(count(proc.resolve("fd")), count(proc.resolve("task")));
    }

    private static long count(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return fds + " fds, " + threads + " threads";
    }
}
