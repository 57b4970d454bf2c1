package dev.linkproof.engine.run;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.FleetSettings;
import dev.linkproof.fleet.plan.PatternParser;
import dev.linkproof.fleet.plan.Plan;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Works out a fleet run's plan at discovery: who the launcher says to expect, and the pattern over them. */
final class FleetPlans {
    private FleetPlans() {
    }

    /** @throws IllegalArgumentException naming the key or variable that is wrong */
    static FleetPlan of(FleetSettings settings, Map<String, String> env) {
        String launcher = settings.launcher();
        List<String> nodes;
        String source;
        if (launcher.startsWith("nodes:")) {
            nodes = Arrays.stream(launcher.substring("nodes:".length()).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                    .toList();
            source = Constants.FLEET + "=" + launcher;
        } else {
            throw new IllegalArgumentException(Constants.FLEET + "=" + launcher + " is not a launcher this build knows (nodes:a,b,c)");
        }
        if (nodes.size() < 2) {
            throw new IllegalArgumentException(Constants.FLEET + "=" + launcher + " names " + nodes.size()
                    + " node(s); a fleet needs at least two");
        }
        Plan plan;
        try {
            plan = PatternParser.parse(settings.pattern()).plan(nodes);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new FleetPlan(nodes, source, plan);
    }
}
