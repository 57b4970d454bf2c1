package dev.linkproof.fleet.act;

import java.util.List;

/**
 * What a Kubernetes command does to a node, as {@link KubernetesApi} carries it out through the API
 * server; {@link Command#argv} is the same as an operator would type it with kubectl (the dry run's
 * lines, and the line each outcome is reported under).
 */
public sealed interface NodeEdit {
    /** The kubectl line doing the same to {@code node}. */
    List<String> kubectl(String node);

    /** Sets a label, replacing the value it had ({@code kubectl label --overwrite}). */
    record Label(String key, String value) implements NodeEdit {
        @Override
        public List<String> kubectl(String node) {
            return List.of("kubectl", "label", "node", node, key + "=" + value, "--overwrite");
        }
    }

    /** Removes a label; a node without it is left as it is. */
    record Unlabel(String key) implements NodeEdit {
        @Override
        public List<String> kubectl(String node) {
            return List.of("kubectl", "label", "node", node, key + "-");
        }
    }

    /** Adds a taint, replacing one with the same key and effect ({@code kubectl taint --overwrite}). */
    record Taint(String key, String value, String effect) implements NodeEdit {
        @Override
        public List<String> kubectl(String node) {
            return List.of("kubectl", "taint", "node", node, key + "=" + value + ":" + effect, "--overwrite");
        }
    }

    /** Removes the taints with this key and effect; a node without one is left as it is. */
    record Untaint(String key, String effect) implements NodeEdit {
        @Override
        public List<String> kubectl(String node) {
            return List.of("kubectl", "taint", "node", node, key + ":" + effect + "-");
        }
    }

    /**
     * Lists the nodes carrying a label, one a line with the label's value: {@code node-a bad-node}
     * (the command's node is empty: it serves no one node).
     */
    record ListLabelled(String key) implements NodeEdit {
        @Override
        public List<String> kubectl(String node) {
            return List.of(
                    "kubectl",
                    "get",
                    "nodes",
                    "-l",
                    key,
                    "--no-headers",
                    "-o",
                    "custom-columns=NAME:.metadata.name,VALUE:.metadata.labels." + key.replace(".", "\\."));
        }
    }
}
