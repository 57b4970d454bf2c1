package dev.linkproof.engine.config;

import dev.linkproof.reports.prometheus.Pushgateway;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * Where the run's metrics go besides {@code fleet.prom} ({@code linkproof.prometheus.*}): a
 * node_exporter textfile directory, a Pushgateway, or both. Read at discovery: a malformed URL or
 * grouping stops the run before any point, naming its key; what the gateway answers at the run's
 * end is a warning, not a failure.
 *
 * @param textfile    the directory {@code linkproof.prom} is written to, when given
 * @param pushgateway the group pushed to, when a gateway is given
 */
public record PrometheusSettings(Optional<Path> textfile, Optional<Pushgateway> pushgateway) {
    /** The file written into the textfile directory. */
    public static final String TEXTFILE_NAME = "linkproof.prom";

    public static final PrometheusSettings NONE = new PrometheusSettings(Optional.empty(), Optional.empty());

    /** The keys; each bad value adds an error naming its key to {@code errors}, and that part is left out. */
    static PrometheusSettings parse(ConfigurationParameters p, List<String> errors) {
        Optional<Path> textfile = Optional.empty();
        LinkproofConfiguration.Reader r = new LinkproofConfiguration.Reader(p, errors);
        Optional<Path> dir = r.optional(ConfigurationKeys.PROMETHEUS_TEXTFILE);
        if (dir.isPresent()) {
            if (Files.exists(dir.get()) && !Files.isDirectory(dir.get())) {
                errors.add(Constants.PROMETHEUS_TEXTFILE + "=" + dir.get()
                        + " is a file, not a directory (node_exporter's "
                        + "--collector.textfile.directory; the run writes " + TEXTFILE_NAME + " into it)");
            } else {
                textfile = dir;
            }
        }
        int before = errors.size();
        // A blank job is unset: the default job, as for every key.
        String job = r.get(ConfigurationKeys.PROMETHEUS_JOB, Constants.DEFAULT_PROMETHEUS_JOB);
        Map<String, String> grouping = r.read(
                () -> grouping(ConfigurationKeys.PROMETHEUS_GROUPING.read(p).orElse("")), Map.of());
        Optional<String> url = r.optional(ConfigurationKeys.PROMETHEUS_PUSHGATEWAY);
        URI uri = null;
        if (url.isPresent()) {
            String problem;
            try {
                uri = new URI(url.get());
                problem = Pushgateway.urlProblem(uri);
            } catch (URISyntaxException e) {
                problem = "not a URL: " + e.getMessage();
            }
            if (problem != null) {
                errors.add(Constants.PROMETHEUS_PUSHGATEWAY + "=" + url.get() + " is "
                        + (problem.startsWith("not") ? problem : "a URL that " + problem)
                        + " (e.g. http://pushgateway.example:9091)");
            }
        }
        Optional<Pushgateway> gateway = url.isPresent() && errors.size() == before
                ? Optional.of(new Pushgateway(uri, job, grouping))
                : Optional.empty();
        return new PrometheusSettings(textfile, gateway);
    }

    /** {@code instance=node1,cluster=a}, in order; blank: none. A part that is not {@code name=value}, or a name given twice, throws. */
    static Map<String, String> grouping(String v) {
        Map<String, String> out = new LinkedHashMap<>();
        if (v.isBlank()) {
            return out;
        }
        for (String part : v.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(Constants.PROMETHEUS_GROUPING + "=" + v + ": '" + part.strip()
                        + "' is not name=value (e.g. instance=node1,cluster=a)");
            }
            String name = part.substring(0, eq).strip();
            if (out.put(name, part.substring(eq + 1).strip()) != null) {
                throw new IllegalArgumentException(
                        Constants.PROMETHEUS_GROUPING + "=" + v + " gives " + name + " twice");
            }
        }
        String problem = Pushgateway.groupProblem("job", out);
        if (problem != null) {
            throw new IllegalArgumentException(Constants.PROMETHEUS_GROUPING + "=" + v + ": " + problem);
        }
        return out;
    }
}
