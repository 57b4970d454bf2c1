package dev.linkproof.engine.run;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.FleetSettings;
import dev.linkproof.fleet.plan.PatternParser;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.nio.file.Path;
import dev.linkproof.fleet.rendezvous.HostFile;
import dev.linkproof.fleet.rendezvous.Launcher;
import dev.linkproof.fleet.rendezvous.LauncherEnvironment;
import dev.linkproof.fleet.rendezvous.Roster;

/** Works out a fleet run's plan at discovery: who the launcher says to expect, and the pattern over them. */
final class FleetPlans {
    private FleetPlans() {
    }

    /**
     * @param env the environment of this JVM, where the launcher's variables are
     * @throws IllegalArgumentException naming the key or variable that is wrong
     */
    static FleetPlan of(FleetSettings settings, Map<String, String> env) {
        String launcher = settings.launcher();
        List<String> nodes;
        String source;
        if (launcher.startsWith("nodes:")) {
            nodes = Arrays.stream(launcher.substring("nodes:".length()).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                    .toList();
            source = Constants.FLEET + "=" + launcher;
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
                    throw new IllegalArgumentException(Constants.FLEET + "=" + launcher + " names no launcher: " + LAUNCHERS);
                }
            };
            nodes = roster.nodes();
            source = roster.origin();
        }
        if (nodes.size() < 2) {
            throw new IllegalArgumentException(Constants.FLEET + "=" + launcher + " gives " + nodes.size() + " node(s) ("
                    + String.join(", ", nodes) + "); a fleet needs at least two");
        }
        if (new java.util.HashSet<>(nodes).size() != nodes.size()) {
            throw new IllegalArgumentException(Constants.FLEET + "=" + launcher + " names a node twice: " + nodes);
        }
        return new FleetPlan(nodes, source, PatternParser.parse(settings.pattern()).plan(nodes));
    }

    static final String LAUNCHERS = "slurm, kubernetes, torchrun, mpi, hostfile:PATH, nodes:a,b,c, or auto (the launcher "
            + "whose variables are in the environment)";
}
