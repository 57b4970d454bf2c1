package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Who is expected in a fleet run, read from the launcher: the nodes in the launcher's order, each once, and for an
 * agent, which of them it is.
 *
 * @param origin      where the list came from, for the printed plan and errors ({@code SLURM_JOB_NODELIST=lpn[1-4]})
 * @param self        this process's node, when the launcher says (the coordinator's process may have none)
 * @param coordinator the coordinator's address, unresolved, when the launcher gives one (torchrun's MASTER_ADDR, MASTER_PORT)
 * @param subdomain   what makes a node name resolvable: a Kubernetes Indexed Job's headless Service ({@link #address})
 */
public record Roster(
        Launcher launcher,
        String origin,
        List<String> nodes,
        Optional<String> self,
        OptionalInt rank,
        Optional<InetSocketAddress> coordinator,
        Optional<String> subdomain) {
    public Roster {
        Objects.requireNonNull(launcher, "launcher");
        Objects.requireNonNull(origin, "origin");
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new FleetConfigurationException(origin + " expects no nodes");
        }
        Set<String> seen = new HashSet<>();
        for (String n : nodes) {
            if (!seen.add(n)) {
                throw new FleetConfigurationException(origin + " names node " + n + " twice");
            }
        }
        self.ifPresent(s -> {
            if (!seen.contains(s)) {
                throw new FleetConfigurationException("this node, " + s + ", is not among the nodes of " + origin);
            }
        });
    }

    /** The name to dial for {@code node}: the name itself, or {@code <name>.<subdomain>} for a pod of an Indexed Job. */
    public String address(String node) {
        if (!nodes.contains(node)) {
            throw new IllegalArgumentException(node + " is not expected by " + origin);
        }
        return subdomain.map(s -> node + "." + s).orElse(node);
    }
}
