package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import java.util.stream.IntStream;

/**
 * An Indexed Job behind a headless Service: its pods are {@code <job>-0} … {@code <job>-(n−1)}, each reachable as
 * {@code <job>-<index>.<service>}. Kubernetes puts neither the Job's name, the Service nor the completion count in a
 * pod's environment, so they come from configuration or from variables the manifest sets ({@link KubernetesRoster}).
 *
 * @param job         the Job's name, the pods' hostname prefix
 * @param service     the headless Service, the pods' {@code subdomain}
 * @param completions {@code spec.completions} (= {@code spec.parallelism}: every pod at once)
 */
public record KubernetesJob(String job, String service, int completions) {
    public KubernetesJob {
        if (job == null || job.isBlank() || service == null || service.isBlank()) {
            throw new FleetConfigurationException(
                    "a Kubernetes Indexed Job needs a job name and a headless service, got job=" + job + " service="
                            + service);
        }
        if (completions < 1) {
            throw new FleetConfigurationException(
                    "a Kubernetes Indexed Job needs at least one completion, not " + completions);
        }
    }

    /** The pods' hostnames, by completion index. */
    public List<String> podNames() {
        return IntStream.range(0, completions).mapToObj(this::podName).toList();
    }

    public String podName(int index) {
        return job + "-" + index;
    }
}
