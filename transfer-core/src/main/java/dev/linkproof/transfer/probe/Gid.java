package dev.linkproof.transfer.probe;

/**
 * One populated entry of a port's GID table ({@code ports/N/gids/I}, with {@code gid_attrs/types/I}
 * and {@code gid_attrs/ndevs/I}).
 *
 * @param index    table index, what {@code ib_write_bw -x} takes
 * @param gid      the GID as sysfs prints it, eight groups of four hex digits
 * @param type     {@code RoCE v2}, {@code IB/RoCE v1}, or empty (InfiniBand ports have no type file)
 * @param netdev   the network interface the GID belongs to (RoCE), or empty
 */
public record Gid(int index, String gid, String type, String netdev) {}
