package dev.linkproof.reports.allure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.linkproof.reports.results.CreationObstacle;
import dev.linkproof.transfer.FailureKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run-level files of an Allure results folder: {@code environment.properties} (what the run
 * ran on), {@code categories.json} (how failures are grouped) and {@code executor.json} (which CI
 * build produced it).
 */
public final class RunFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunFiles() {}

    /** The Allure results folder: {@code allure.results.directory}, as the Allure listener reads it. */
    public static Path resultsDirectory() {
        return Path.of(System.getProperty(RESULTS_DIRECTORY_KEY, "allure-results"));
    }

    /** The key that names the Allure results folder, a system property (as the Allure listener reads it). */
    public static final String RESULTS_DIRECTORY_KEY = "allure.results.directory";

    /**
     * Why the Allure results folder {@code dir} cannot be created or written, or empty when it can:
     * a file where it or a parent of it should be, no folder to create it in, no permission. Both this
     * engine (run files, attachments) and the Allure listener (a result per test) write there, and a
     * run that finds out at its first point fails every point with "Could not create Allure results
     * directory".
     */
    public static java.util.Optional<String> whyNotCreatable(Path dir) {
        Path d = dir.toAbsolutePath();
        return CreationObstacle.of(dir, true)
                .map(o -> "cannot create the Allure results folder " + dir + ": "
                        + switch (o.reason()) {
                            case WRONG_KIND -> "it is a file";
                            case NOT_WRITABLE ->
                                o.at().equals(d) ? "permission denied" : "permission denied in " + o.at();
                            case NO_FOLDER -> "no folder to create it in";
                            case FILE_IN_THE_WAY -> "a file is in the way (" + o.at() + ")";
                        });
    }

    public static void writeAll(Path dir, Map<String, String> environment, Map<String, String> ciEnv) {
        try {
            Files.createDirectories(dir);
            writeEnvironment(dir.resolve("environment.properties"), environment);
            Files.writeString(
                    dir.resolve("categories.json"), JSON.writeValueAsString(categories()), StandardCharsets.UTF_8);
            Files.writeString(
                    dir.resolve("executor.json"), JSON.writeValueAsString(executor(ciEnv)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Allure run files in " + dir, e);
        }
    }

    static void writeEnvironment(Path file, Map<String, String> environment) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (var e : new TreeMap<>(environment).entrySet()) {
            sb.append(escapeKey(e.getKey()))
                    .append('=')
                    .append(escapeValue(e.getValue()))
                    .append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Failure categories, one per {@link FailureKind#category()}, in the enum's order. A failure of a
     * known kind names it after its class in the first line of its trace ({@link FailureKind#traceTag()},
     * {@code dev.linkproof.engine.failure.PointFailure [DATA_CORRUPTION]: …}); each category matches those
     * tags, never the message. Allure files a result under every category that matches, so the two for
     * what carries no tag (a test method's own assertion, failed; any other error, broken) match only
     * a trace without one. Skips, whatever their reason, are {@link FailureKind#UNAVAILABLE}.
     */
    public static List<Map<String, Object>> categories() {
        Map<String, List<FailureKind>> byCategory = new LinkedHashMap<>();
        for (FailureKind k : FailureKind.values()) {
            byCategory
                    .computeIfAbsent(k.category(), c -> new java.util.ArrayList<>())
                    .add(k);
        }
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (var e : byCategory.entrySet()) {
            List<FailureKind> kinds = e.getValue();
            List<String> statuses =
                    kinds.stream().map(k -> k.status().label()).distinct().toList();
            if (kinds.contains(FailureKind.UNAVAILABLE)) {
                out.add(category(e.getKey(), null, statuses));
            } else if (kinds.contains(FailureKind.TEST_ASSERTION) || kinds.contains(FailureKind.ERROR)) {
                out.add(category(e.getKey(), UNTAGGED, statuses));
            } else {
                // A tagged failure files under its kind whatever its status.
                out.add(category(e.getKey(), tagged(kinds), List.of("failed", "broken")));
            }
        }
        return out;
    }

    /**
     * The categories Allure files a result of {@code status} with {@code trace} under, by its own rule
     * (every category whose statuses and whole-trace pattern match, the pattern with DOTALL): what the
     * report will show, for a test to hold against a failure's kind.
     */
    public static List<String> categoriesFor(String status, String trace) {
        return categories().stream()
                .filter(c -> ((List<?>) c.get("matchedStatuses")).contains(status))
                .filter(c -> !c.containsKey("traceRegex")
                        || trace != null
                                && java.util.regex.Pattern.compile(
                                                (String) c.get("traceRegex"), java.util.regex.Pattern.DOTALL)
                                        .matcher(trace)
                                        .matches())
                .map(c -> (String) c.get("name"))
                .toList();
    }

    /** The first line of a trace that carries a kind: "dev.linkproof.… [KIND]", then ": message" and the frames. */
    private static final String TAG = "dev\\.linkproof\\.\\S+ \\[[A-Z_]+\\]";
    /** A trace whose first line carries no kind (Allure matches the whole trace, newlines included). */
    static final String UNTAGGED = "(?!" + TAG + ").*";

    /** A trace whose first line carries one of {@code kinds}. */
    static String tagged(List<FailureKind> kinds) {
        return "dev\\.linkproof\\.\\S+ ("
                + String.join(
                        "|", kinds.stream().map(k -> "\\[" + k.name() + "\\]").toList()) + ")(: .*)?";
    }

    private static Map<String, Object> category(String name, String traceRegex, List<String> statuses) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        if (traceRegex != null) {
            c.put("traceRegex", traceRegex);
        }
        c.put("matchedStatuses", statuses);
        return c;
    }

    /** Who ran this: GitHub Actions, GitLab CI or Jenkins from their variables, else this host. */
    public static Map<String, Object> executor(Map<String, String> env) {
        Map<String, Object> x = new LinkedHashMap<>();
        if ("true".equals(env.get("GITHUB_ACTIONS"))) {
            String base = env.getOrDefault("GITHUB_SERVER_URL", "https://github.com") + "/"
                    + env.getOrDefault("GITHUB_REPOSITORY", "");
            x.put("name", "GitHub Actions");
            x.put("type", "github");
            x.put("url", base);
            x.put("buildOrder", env.getOrDefault("GITHUB_RUN_NUMBER", ""));
            x.put(
                    "buildName",
                    env.getOrDefault("GITHUB_WORKFLOW", "workflow") + " #" + env.getOrDefault("GITHUB_RUN_NUMBER", ""));
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
