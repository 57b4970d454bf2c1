package dev.linkproof.transfer;

import java.util.Locale;

/** Where a buffer lives. GPU memory is allocated by a GPU runtime; the host kinds by {@code memory.HostMemory}. */
public enum MemoryKind {
    /** Page-aligned host memory. */
    HOST,
    /** Host memory backed by huge pages (MAP_HUGETLB); unavailable where the system reserves none. */
    HUGEPAGE,
    /** Device memory of a GPU, addressed by device index. */
    GPU;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
