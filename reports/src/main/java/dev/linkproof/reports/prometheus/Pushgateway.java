package dev.linkproof.reports.prometheus;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Pushes a run's metrics to a Prometheus Pushgateway: {@code PUT} of the text format to
 * {@code /metrics/job/<job>/<label>/<value>…}, which replaces every metric of that group, so the group holds the last
 * run's metrics and no stale series of an earlier one. A value that is empty or holds a {@code /} goes
 * base64url-encoded ({@code <label>@base64/<value>}), the others percent-encoded. client_java's Pushgateway exporter
 * is not served to this project's builds, and one request needs no library.
 *
 * @param gateway the Pushgateway's base URL ({@code http://pushgateway:9091}; a path is a prefix, as behind a proxy)
 */
public record Pushgateway(URI gateway, String job, Map<String, String> grouping) {
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    public Pushgateway {
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(job, "job");
        grouping = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(grouping));
        String bad = problem(gateway, job, grouping);
        if (bad != null) {
            throw new IllegalArgumentException(gateway + " (job " + job + ", grouping " + grouping + "): " + bad);
        }
    }

    /** What is wrong with a gateway, job and grouping ({@link #urlProblem}, {@link #groupProblem}), or null when nothing is. */
    public static String problem(URI gateway, String job, Map<String, String> grouping) {
        String url = urlProblem(gateway);
        return url != null ? url : groupProblem(job, grouping);
    }

    /** What is wrong with a gateway's URL, or null: it must be {@code http(s)://host[:port][/path]}. */
    public static String urlProblem(URI gateway) {
        String scheme = gateway.getScheme() == null ? "" : gateway.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "not an http:// or https:// URL";
        }
        if (gateway.getHost() == null || gateway.getHost().isEmpty()) {
            return "names no host";
        }
        if (gateway.getRawQuery() != null || gateway.getRawFragment() != null || gateway.getRawUserInfo() != null) {
            return "has a query, fragment or user part; give the Pushgateway's base URL";
        }
        return null;
    }

    /**
     * What is wrong with a job and grouping, or null: an empty job, a label name Prometheus refuses,
     * {@code job} among the grouping labels, or an empty value.
     */
    public static String groupProblem(String job, Map<String, String> grouping) {
        if (job.isBlank()) {
            return "the job is empty";
        }
        for (Map.Entry<String, String> l : grouping.entrySet()) {
            if (!LABEL.matcher(l.getKey()).matches() || l.getKey().startsWith("__")) {
                return "'" + l.getKey()
                        + "' is not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)";
            }
            if (l.getKey().equals("job")) {
                return "job is the group's job: give it as the job";
            }
            if (l.getValue().isEmpty()) {
                return "the label " + l.getKey() + " has no value";
            }
        }
        return null;
    }

    /** The group's URL: {@code <gateway>/metrics/job/<job>/<label>/<value>…}. */
    public URI url() {
        StringBuilder s = new StringBuilder(gateway.toString().replaceAll("/+$", "")).append("/metrics");
        segment(s, "job", job);
        grouping.forEach((k, v) -> segment(s, k, v));
        return URI.create(s.toString());
    }

    private static void segment(StringBuilder s, String name, String value) {
        if (value.isEmpty() || value.contains("/")) {
            s.append('/')
                    .append(name)
                    .append("@base64/")
                    .append(
                            value.isEmpty()
                                    ? "="
                                    : Base64.getUrlEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
        } else {
            s.append('/')
                    .append(name)
                    .append('/')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"));
        }
    }

    /**
     * How a push went: the URL, and the HTTP status (0 when no answer came) with the first line of
     * the answer's body, or the error that stopped the request.
     */
    public record Result(URI url, int status, String detail) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** "HTTP 500 (push failed: …)" or "no answer: Connection refused". */
        public String describe() {
            return status == 0
                    ? "no answer: " + detail
                    : "HTTP " + status + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /** Pushes {@code metrics}, replacing the group's; never throws for what the gateway or the network did. */
    public Result push(MetricSnapshots metrics) {
        URI url = url();
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
        try (client) {
            HttpRequest request = HttpRequest.newBuilder(url)
                    .timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", Exposition.CONTENT_TYPE)
                    .PUT(HttpRequest.BodyPublishers.ofString(Exposition.text(metrics), StandardCharsets.UTF_8))
                    .build();
            HttpResponse<String> response =
                    client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            String body = response.body() == null ? "" : response.body().strip();
            int eol = body.indexOf('\n');
            String first = eol < 0 ? body : body.substring(0, eol);
            return new Result(url, response.statusCode(), first.length() > 200 ? first.substring(0, 200) + "…" : first);
        } catch (IOException e) {
            return new Result(url, 0, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(url, 0, "interrupted");
        }
    }
}
