package dev.linkproof.engine.discovery;

/**
 * What a sweep's other dimensions repeat over: a transport, the NIC a point is pinned to (null: the
 * run's choice), how many rails it runs at once (0: all) and whether both ways.
 */
record PointPath(String transport, String nic, int rails, boolean bothWays) {
    /** Whether this path's points repeat over the memory placements' GPU shifts (one rail, one way). */
    boolean single() {
        return rails == 1 && !bothWays;
    }

    /** The unique id's tail: {@code ,nic=mlx5_3}, {@code ,rails=all}, {@code ,both-ways}. */
    String idSuffix() {
        return (nic == null ? "" : ",nic=" + nic)
                + (rails == 1 ? "" : ",rails=" + (rails == 0 ? "all" : Integer.toString(rails)))
                + (bothWays ? ",both-ways" : "");
    }

    /** The display name's tail: {@code · mlx5_3}, {@code · all rails}, {@code · both ways}. */
    String nameSuffix() {
        return (nic == null ? "" : " · " + nic)
                + (rails == 1 ? "" : " · " + (rails == 0 ? "all" : Integer.toString(rails)) + " rails")
                + (bothWays ? " · both ways" : "");
    }
}
