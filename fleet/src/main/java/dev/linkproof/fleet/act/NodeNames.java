package dev.linkproof.fleet.act;

import java.util.regex.Pattern;

/**
 * The node names a command may carry. Slurm's {@code nodename=} takes a host list, so a comma (or
 * brackets) in a name would drain other nodes than the one blamed, a name starting with a dash would
 * be read as an option by the printed kubectl line, and a '/' would change the API path: such a name
 * is refused rather than passed on.
 */
final class NodeNames {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

    private NodeNames() {}

    static String check(String node) {
        if (!NAME.matcher(node).matches()) {
            throw new IllegalArgumentException(
                    "not a plain node name (letters, digits, '.', '_', '-', not starting with a sign): '" + node + "'");
        }
        return node;
    }
}
