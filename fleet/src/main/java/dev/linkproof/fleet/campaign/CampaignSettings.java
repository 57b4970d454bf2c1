package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.act.ActAfter;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.transfer.session.Timeouts;
import java.time.Duration;
import java.util.Objects;

/**
 * What a campaign needs besides its plan: where its registry listens and how long it waits, the token every agent
 * was given, the transfers' deadlines, how verdicts are reached, and what to do about them.
 *
 * @param registryPort 0: any free one
 * @param actAfter     how many of the last runs must blame a node before it is acted on (with a history)
 */
public record CampaignSettings(
        String registryHost,
        int registryPort,
        Duration registerWithin,
        String token,
        Timeouts timeouts,
        BlameSettings blame,
        Act act,
        ActAfter actAfter) {
    /** Where the registry listens, {@code host:port}: named in the messages about it. */
    public static final String REGISTRY_KEY = "linkproof.fleet.registry";
    /** What to do about blamed nodes: named in a dry run's hint. */
    public static final String ACT_KEY = "linkproof.fleet.act";

    public CampaignSettings {
        Objects.requireNonNull(registryHost, "registryHost");
        Objects.requireNonNull(registerWithin, "registerWithin");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(blame, "blame");
        Objects.requireNonNull(act, "act");
        Objects.requireNonNull(actAfter, "actAfter");
    }

    /** What a run does about its verdicts. */
    public enum Act {
        /** Nothing: the verdicts are reported. */
        NONE,
        /** Drain the blamed nodes in Slurm, resume the ones Linkproof drained that now pass. */
        SLURM,
        /** Label and taint the blamed nodes' machines in Kubernetes, and clear them when they pass again. */
        KUBERNETES,
        /** Print Slurm's commands for an operator. */
        PRINT_SLURM,
        /** Print Kubernetes' commands for an operator. */
        PRINT_KUBERNETES;

        public boolean kubernetes() {
            return this == KUBERNETES || this == PRINT_KUBERNETES;
        }

        public boolean runs() {
            return this == SLURM || this == KUBERNETES;
        }
    }
}
