package dev.linkproof.reports.allure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The run-level files of an Allure results folder: {@code environment.properties} (what the run
 * ran on), {@code categories.json} (how failures are grouped) and {@code executor.json} (which CI
 * build produced it).
 */
public final class RunFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunFiles() {
    }

    /** The Allure results folder: {@code allure.results.directory}, as the Allure listener reads it. */
    public static Path resultsDirectory() {
        return Path.of(System.getProperty("allure.results.directory", "allure-results"));
    }

    public static void writeAll(Path dir, Map<String, String> environment, Map<String, String> ciEnv) {
        try {
            Files.createDirectories(dir);
            writeEnvironment(dir.resolve("environment.properties"), environment);
            Files.writeString(dir.resolve("categories.json"), JSON.writeValueAsString(categories()), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("executor.json"), JSON.writeValueAsString(executor(ciEnv)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Allure run files in " + dir, e);
        }
    }

    static void writeEnvironment(Path file, Map<String, String> environment) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (var e : new TreeMap<>(environment).entrySet()) {
            sb.append(escapeKey(e.getKey())).append('=').append(escapeValue(e.getValue())).append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Failure categories, first match wins. The messages they match are the engine's own: a data
     * mismatch says "data corruption" (a wrong receive completion "completion mismatch"); a
     * performance shortfall while a host was busy ends "[ran while a host was busy: …]" or, after a
     * rerun, "… (still busy)]", and is told apart from one on quiet hosts, which is the transport's;
     * a baseline miss says "performance regression", a missed criterion "below criterion", a
     * transport the profile requires and a rank lacks "requires the … transport (transport.required)",
     * a dead peer "peer failure", a bad annotation or profile "configuration error"; skips name what is
     * unavailable.
     */
    public static List<Map<String, Object>> categories() {
        return List.of(
                category("Data corruption", ".*(data corruption|completion mismatch).*", List.of("failed", "broken")),
                category("Short on a busy host", ".*(ran while a host was busy: |\\(still busy\\)\\]).*", List.of("failed")),
                category("Performance regression", ".*performance regression.*", List.of("failed")),
                category("Below criterion", ".*below criterion.*", List.of("failed")),
                category("Required transport unavailable", ".*requires the \\S+ transport \\(transport\\.required\\).*",
                        List.of("failed")),
                // linkproof.nics=each on a NIC with its port down (or another link rate): the hardware's
                // fault, not the configuration's, and filed before "profile" makes it one.
                category("NIC not fit for the profile", ".*RDMA device \\S+ is of the kind profile .* and not fit for it.*",
                        List.of("failed")),
                category("Peer failure", ".*(peer failure|no target rank|target agent).*", List.of("broken", "failed")),
                category("Configuration error", ".*(configuration error|profile).*", List.of("broken", "failed")),
                category("Hardware or transport unavailable", ".*", List.of("skipped")));
    }

    /**
     * The category a point with {@code status} (failed, broken, skipped) and {@code message} falls in,
     * as Allure files it: the first of {@link #categories()} whose statuses and message pattern match.
     */
    @SuppressWarnings("unchecked")
    public static Optional<String> categoryOf(String status, String message) {
        String text = message == null ? "" : message;
        for (Map<String, Object> c : categories()) {
            if (((List<String>) c.get("matchedStatuses")).contains(status)
                    && java.util.regex.Pattern.compile((String) c.get("messageRegex"), java.util.regex.Pattern.DOTALL)
                            .matcher(text).matches()) {
                return Optional.of((String) c.get("name"));
            }
        }
        return Optional.empty();
    }

    private static Map<String, Object> category(String name, String regex, List<String> statuses) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        c.put("messageRegex", regex);
        c.put("matchedStatuses", statuses);
        return c;
    }

    /** Who ran this: GitHub Actions, GitLab CI or Jenkins from their variables, else this host. */
    public static Map<String, Object> executor(Map<String, String> env) {
        Map<String, Object> x = new LinkedHashMap<>();
        if ("true".equals(env.get("GITHUB_ACTIONS"))) {
            String base = env.getOrDefault("GITHUB_SERVER_URL", "https://github.com") + "/" + env.getOrDefault("GITHUB_REPOSITORY", "");
            x.put("name", "GitHub Actions");
            x.put("type", "github");
            x.put("url", base);
            x.put("buildOrder", env.getOrDefault("GITHUB_RUN_NUMBER", ""));
            x.put("buildName", env.getOrDefault("GITHUB_WORKFLOW", "workflow") + " #" + env.getOrDefault("GITHUB_RUN_NUMBER", ""));
            x.put("buildUrl", base + "/actions/runs/" + env.getOrDefault("GITHUB_RUN_ID", ""));
        } else if (env.containsKey("GITLAB_CI")) {
            x.put("name", "GitLab CI");
            x.put("type", "gitlab");
            x.put("url", env.getOrDefault("CI_PROJECT_URL", ""));
            x.put("buildOrder", env.getOrDefault("CI_PIPELINE_IID", ""));
            x.put("buildName", env.getOrDefault("CI_JOB_NAME", "job") + " #" + env.getOrDefault("CI_PIPELINE_IID", ""));
            x.put("buildUrl", env.getOrDefault("CI_JOB_URL", env.getOrDefault("CI_PIPELINE_URL", "")));
        } else if (env.containsKey("JENKINS_URL")) {
            x.put("name", "Jenkins");
            x.put("type", "jenkins");
            x.put("url", env.get("JENKINS_URL"));
            x.put("buildOrder", env.getOrDefault("BUILD_NUMBER", ""));
            x.put("buildName", env.getOrDefault("BUILD_TAG", env.getOrDefault("JOB_NAME", "build")));
            x.put("buildUrl", env.getOrDefault("BUILD_URL", ""));
        } else {
            x.put("name", "local");
            x.put("type", "local");
            x.put("buildName", "local run on " + env.getOrDefault("HOSTNAME", hostName()));
        }
        return x;
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String escapeKey(String k) {
        return k.replace("\\", "\\\\").replace(" ", "\\ ").replace("=", "\\=").replace(":", "\\:");
    }

    /** Properties files are ISO-8859-1: everything else is written as a \\uXXXX escape, as Allure reads it. */
    private static String escapeValue(String v) {
        if (v == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (char c : v.toCharArray()) {
            if (c == '\\') {
                sb.append("\\\\");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
