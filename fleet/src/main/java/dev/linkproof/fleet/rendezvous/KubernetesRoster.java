package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The expected pods of a Kubernetes Indexed Job. The Job, Service and count come from
 * configuration when given, else from {@code LINKPROOF_K8S_JOB}, {@code LINKPROOF_K8S_SERVICE} and
 * {@code LINKPROOF_K8S_COMPLETIONS}, which the launch kit's manifest sets; without
 * {@code LINKPROOF_K8S_JOB} the Job's name is the pod's {@code HOSTNAME} less its {@code -<index>}.
 * This pod is {@code <job>-<JOB_COMPLETION_INDEX>}; its {@code HOSTNAME}, when set, must say so, or
 * the configured Job is not the one this pod belongs to.
 */
final class KubernetesRoster {
    static final String INDEX = "JOB_COMPLETION_INDEX";
    static final String JOB = "LINKPROOF_K8S_JOB";
    static final String SERVICE = "LINKPROOF_K8S_SERVICE";
    static final String COMPLETIONS = "LINKPROOF_K8S_COMPLETIONS";

    private KubernetesRoster() {}

    static Roster read(LauncherVariables env, Optional<KubernetesJob> configured) {
        OptionalInt index = env.index(INDEX);
        Optional<String> hostname = env.get("HOSTNAME");
        KubernetesJob job = configured.orElseGet(() -> new KubernetesJob(
                env.get(JOB).orElseGet(() -> jobFromHostname(hostname, index)),
                env.require(SERVICE, "the headless Service of the Indexed Job (set by the manifest)"),
                env.requireCount(COMPLETIONS, "the Job's completions (set by the manifest)")));
        Optional<String> self = Optional.empty();
        if (index.isPresent()) {
            LauncherVariables.checkBelow(INDEX, index.getAsInt(), "completions", job.completions());
            self = Optional.of(job.podName(index.getAsInt()));
            if (hostname.isPresent() && !hostname.get().equals(self.get())) {
                throw new FleetConfigurationException("HOSTNAME=" + hostname.get() + " is not " + self.get()
                        + ", the pod of Job " + job.job() + " with " + INDEX + "=" + index.getAsInt());
            }
        }
        String origin = "Kubernetes Indexed Job " + job.job() + " (service " + job.service() + ", " + job.completions()
                + " completions)";
        return new Roster(
                Launcher.KUBERNETES, origin, job.podNames(), self, index, Optional.empty(), Optional.of(job.service()));
    }

    private static String jobFromHostname(Optional<String> hostname, OptionalInt index) {
        String suffix = index.isPresent() ? "-" + index.getAsInt() : null;
        if (hostname.isEmpty()
                || suffix == null
                || !hostname.get().endsWith(suffix)
                || hostname.get().equals(suffix)) {
            throw new FleetConfigurationException(JOB + " is not set, and the Job's name cannot be read from HOSTNAME="
                    + hostname.orElse("(unset)") + " and " + INDEX + "="
                    + (suffix == null ? "(unset)" : index.getAsInt())
                    + " (an Indexed Job's pod is <job>-<index>)");
        }
        return hostname.get().substring(0, hostname.get().length() - suffix.length());
    }
}
