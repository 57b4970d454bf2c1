package dev.linkproof.transfer.probe;

/**
 * The default huge page pool, from {@code /proc/meminfo}.
 *
 * @param total        {@code HugePages_Total}
 * @param free         {@code HugePages_Free}
 * @param pageSizeKiB  {@code Hugepagesize}, 0 when unknown
 */
public record HugePages(long total, long free, long pageSizeKiB) {
    public static final HugePages NONE = new HugePages(0, 0, 0);
}
