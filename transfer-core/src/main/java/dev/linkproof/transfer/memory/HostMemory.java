package dev.linkproof.transfer.memory;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Allocates host buffers: page-aligned through an {@link Arena}, or huge-page backed through
 * mmap(MAP_HUGETLB). Every buffer is freed when closed, so a sweep's footprint is one point's.
 */
public final class HostMemory {
    public static final long PAGE = 4096;

    private HostMemory() {}

    public static Buffer allocate(MemoryPlacement placement, long bytes) {
        return switch (placement.kind()) {
            case HOST -> pageAligned(bytes);
            case HUGEPAGE -> hugepages(bytes);
            case GPU ->
                throw new IllegalArgumentException("GPU memory is allocated by a GPU runtime, not by HostMemory");
        };
    }

    public static Buffer pageAligned(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("buffer size must be positive, was " + bytes);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment = arena.allocate(bytes, PAGE);
            return new ArenaBuffer(arena, segment, MemoryPlacement.HOST);
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }

    public static Buffer hugepages(long bytes) {
        Optional<String> why = hugepagesUnavailable();
        if (why.isPresent()) {
            throw new IllegalStateException("hugepages unavailable: " + why.get());
        }
        long huge = hugepageSize();
        long rounded = (bytes + huge - 1) / huge * huge;
        MemorySegment mapping = Libc.mmapAnonymous(rounded, Libc.MAP_HUGETLB);
        return new MappedBuffer(mapping, mapping.asSlice(0, bytes));
    }

    /** Empty when huge pages can be had; otherwise why not, read from /proc/meminfo. */
    public static Optional<String> hugepagesUnavailable() {
        Path meminfo = Path.of("/proc/meminfo");
        try {
            long free = -1;
            long total = -1;
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith("HugePages_Free:")) {
                    free = Long.parseLong(line.substring(15).trim());
                } else if (line.startsWith("HugePages_Total:")) {
                    total = Long.parseLong(line.substring(16).trim());
                }
            }
            if (total < 0) {
                return Optional.of("the kernel reports no HugePages in /proc/meminfo");
            }
            if (free <= 0) {
                return Optional.of("HugePages_Total=" + total + ", HugePages_Free=" + free
                        + " in /proc/meminfo (reserve some with: sysctl vm.nr_hugepages=N)");
            }
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.of("cannot read " + meminfo + ": " + e.getMessage());
        }
    }

    static long hugepageSize() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("Hugepagesize:")) {
                    return Long.parseLong(line.substring(13).replace("kB", "").trim()) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through to the x86_64 default
        }
        return 2L << 20;
    }

    private static final class ArenaBuffer implements Buffer {
        private final Arena arena;
        private final MemorySegment segment;
        private final MemoryPlacement placement;

        ArenaBuffer(Arena arena, MemorySegment segment, MemoryPlacement placement) {
            this.arena = arena;
            this.segment = segment;
            this.placement = placement;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public MemoryPlacement placement() {
            return placement;
        }

        @Override
        public synchronized void close() {
            if (arena.scope().isAlive()) {
                arena.close();
            }
        }
    }

    private static final class MappedBuffer implements Buffer {
        private final MemorySegment mapping;
        private final MemorySegment segment;
        private boolean closed;

        MappedBuffer(MemorySegment mapping, MemorySegment segment) {
            this.mapping = mapping;
            this.segment = segment;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public MemoryPlacement placement() {
            return new MemoryPlacement(MemoryKind.HUGEPAGE, 0);
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                Libc.munmap(mapping);
            }
        }
    }
}
