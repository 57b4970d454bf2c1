package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;

/**
 * The check that a rank-based launcher started one process per node: the fleet's unit is a node
 * (its NICs and its links), and two agents on one node would be planned as two nodes whose pair
 * never leaves the host.
 */
final class OneAgentPerNode {
    private OneAgentPerNode() {}

    static void check(LauncherVariables env, String localSize, String localRank, String howTo) {
        if (env.count(localSize).orElse(1) > 1) {
            throw new FleetConfigurationException(localSize + "="
                    + env.get(localSize).orElseThrow() + ": a fleet runs one agent per node (" + howTo + ")");
        }
        if (env.index(localRank).orElse(0) != 0) {
            throw new FleetConfigurationException(localRank + "="
                    + env.get(localRank).orElseThrow() + ": a fleet runs one agent per node (" + howTo + ")");
        }
    }
}
