package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.FleetConfigurationException;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.plan.PatternParser;
import dev.linkproof.fleet.plan.Plan;
import dev.linkproof.fleet.plan.Round;
import dev.linkproof.fleet.rendezvous.HostFile;
import dev.linkproof.fleet.rendezvous.Launcher;
import dev.linkproof.fleet.rendezvous.LauncherEnvironment;
import dev.linkproof.fleet.rendezvous.Roster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A fleet run's plan, worked out before anything runs: the nodes the launcher says to expect (and
 * where that came from, for messages) and the pattern's rounds over them. Every point of the run
 * runs this plan.
 */
public record FleetPlan(List<String> nodes, String source, Plan plan) {
    /** The key that names the launcher; every message about it names the key. */
    public static final String LAUNCHER_KEY = "linkproof.fleet";

    public static final String LAUNCHERS =
            "slurm, kubernetes, torchrun, mpi, hostfile:PATH, nodes:a,b,c, or auto (the launcher "
                    + "whose variables are in the environment)";

    public FleetPlan {
        nodes = List.copyOf(nodes);
    }

    /**
     * The plan of {@code launcher} ({@code slurm}, {@code nodes:a,b,c}, …) and {@code pattern}.
     *
     * @param env the environment of this process, where the launcher's variables are
     * @throws FleetConfigurationException naming the key or variable that is wrong
     */
    public static FleetPlan of(String launcher, String pattern, Map<String, String> env) {
        List<String> nodes;
        String source;
        if (launcher.startsWith("nodes:")) {
            nodes = Arrays.stream(launcher.substring("nodes:".length()).split(","))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .toList();
            source = LAUNCHER_KEY + "=" + launcher;
        } else {
            Roster roster = switch (launcher.toLowerCase(Locale.ROOT)) {
                case "auto" -> LauncherEnvironment.roster(env);
                case "slurm" -> LauncherEnvironment.roster(Launcher.SLURM, env, Optional.empty());
                case "kubernetes", "k8s" -> LauncherEnvironment.roster(Launcher.KUBERNETES, env, Optional.empty());
                case "torchrun" -> LauncherEnvironment.roster(Launcher.TORCHRUN, env, Optional.empty());
                case "mpi", "openmpi" -> LauncherEnvironment.roster(Launcher.OPEN_MPI, env, Optional.empty());
                default -> {
                    if (launcher.startsWith("hostfile:")) {
                        yield HostFile.read(Path.of(launcher.substring("hostfile:".length())));
                    }
                    throw new FleetConfigurationException(
                            LAUNCHER_KEY + "=" + launcher + " names no launcher: " + LAUNCHERS);
                }
            };
            nodes = roster.nodes();
            source = roster.origin();
        }
        if (nodes.size() < 2) {
            throw new FleetConfigurationException(LAUNCHER_KEY + "=" + launcher + " gives " + nodes.size()
                    + " node(s) (" + String.join(", ", nodes) + "); a fleet needs at least two");
        }
        if (new HashSet<>(nodes).size() != nodes.size()) {
            throw new FleetConfigurationException(LAUNCHER_KEY + "=" + launcher + " names a node twice: " + nodes);
        }
        return new FleetPlan(nodes, source, PatternParser.parse(pattern).plan(nodes));
    }

    /** Whether the launcher is Kubernetes': acting then labels and taints rather than drains. */
    public static boolean kubernetes(String launcher) {
        return List.of("kubernetes", "k8s").contains(launcher.toLowerCase(Locale.ROOT));
    }

    /** The pattern that paired the nodes, as reports name it. */
    public String pattern() {
        return plan.pattern();
    }

    /** Every directed pair of the plan, in round order. */
    public List<Pair> pairs() {
        return plan.pairs();
    }

    /** The plan's rounds with only the {@code selected} pairs (one pair's unique id selects just that pair); empty rounds dropped. */
    public List<List<Pair>> rounds(Set<Pair> selected) {
        List<List<Pair>> out = new ArrayList<>();
        for (Round r : plan.rounds()) {
            List<Pair> kept = r.pairs().stream().filter(selected::contains).toList();
            if (!kept.isEmpty()) {
                out.add(kept);
            }
        }
        return out;
    }
}
