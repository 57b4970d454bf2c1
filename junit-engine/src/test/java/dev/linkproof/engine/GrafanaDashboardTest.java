package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.reports.fleet.FleetPrometheus;
import dev.linkproof.reports.prometheus.PointMetrics;
import dev.linkproof.reports.prometheus.RunMetrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/grafana/linkproof-fleet.json against the metrics the code exports: every PromQL query
 * names only metric families Linkproof writes and only labels those families carry (or the
 * {@code job} and {@code instance} Prometheus adds to every scrape and push), its legends and matrix
 * transformations only those labels, and every query parses (promtool check rules). A renamed
 * metric or label breaks this test before it breaks a dashboard.
 */
class GrafanaDashboardTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path DASHBOARD = ROOT.resolve("examples/grafana/linkproof-fleet.json");
    /** The labels Prometheus itself gives every series: the scrape's target, or the Pushgateway's group. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

    private static final Pattern METRIC = Pattern.compile("\\blinkproof_[a-zA-Z0-9_]*");
    private static final Pattern SELECTOR = Pattern.compile("\\{([^{}]*)\\}");
    private static final Pattern MATCHER = Pattern.compile("^\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern LABEL_VALUES =
            Pattern.compile("label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)");
    private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");

    /** Every family Linkproof exports, with its label names. */
    static Map<String, List<String>> exported() {
        Map<String, List<String>> all = new HashMap<>(FleetPrometheus.LABELS);
        all.putAll(PointMetrics.LABELS);
        all.putAll(RunMetrics.LABELS);
        return all;
    }

    /** The metrics an expression names. */
    static Set<String> metrics(String expr) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = METRIC.matcher(expr);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** The labels an expression names: in selectors, in by/without, and label_values' second argument. */
    static Set<String> labels(String expr) {
        Set<String> out = new LinkedHashSet<>();
        Matcher s = SELECTOR.matcher(expr);
        while (s.find()) {
            for (String part : s.group(1).split(",")) {
                Matcher m = MATCHER.matcher(part);
                if (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        Matcher g = GROUPING.matcher(expr);
        while (g.find()) {
            for (String l : g.group(1).split(",")) {
                if (!l.isBlank()) {
                    out.add(l.strip());
                }
            }
        }
        Matcher v = LABEL_VALUES.matcher(expr);
        if (v.find()) {
            out.add(v.group(2));
        }
        return out;
    }

    /** What is wrong with an expression (and the labels its legend or transformation names) against the exported families. */
    static List<String> problems(String expr, Set<String> moreLabels) {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> exported = exported();
        Set<String> names = metrics(expr);
        if (names.isEmpty()) {
            problems.add(expr + ": names no linkproof metric");
        }
        Set<String> allowed = new TreeSet<>(TARGET_LABELS);
        for (String n : names) {
            if (!exported.containsKey(n)) {
                problems.add(
                        expr + ": " + n + " is not a metric Linkproof exports " + new TreeSet<>(exported.keySet()));
            } else {
                allowed.addAll(exported.get(n));
            }
        }
        Set<String> used = new LinkedHashSet<>(labels(expr));
        used.addAll(moreLabels);
        for (String l : used) {
            if (!allowed.contains(l)) {
                problems.add(expr + ": label " + l + " is not one of " + names + "'s " + allowed);
            }
        }
        return problems;
    }

    /** Every query of the dashboard: a panel's targets, each with its legend's labels and its panel's matrix fields; the variables'. */
    record Query(String where, String expr, Set<String> moreLabels) {}

    static List<Query> queries(JsonNode dashboard) {
        List<Query> out = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            Set<String> fields = new LinkedHashSet<>();
            for (JsonNode t : panel.path("transformations")) {
                for (String f : List.of("rowField", "columnField")) {
                    if (t.path("options").has(f)) {
                        fields.add(t.path("options").get(f).asText());
                    }
                }
            }
            for (JsonNode target : panel.path("targets")) {
                Set<String> more = new LinkedHashSet<>(fields);
                Matcher m = LEGEND.matcher(target.path("legendFormat").asText(""));
                while (m.find()) {
                    more.add(m.group(1));
                }
                out.add(new Query(
                        "panel '" + panel.get("title").asText() + "'",
                        target.get("expr").asText(),
                        more));
            }
        }
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if (v.path("type").asText().equals("query")) {
                JsonNode q = v.get("query");
                out.add(new Query(
                        "variable $" + v.get("name").asText(),
                        q.isTextual() ? q.asText() : q.get("query").asText(),
                        Set.of()));
            }
        }
        return out;
    }

    private static JsonNode dashboard() throws Exception {
        return new ObjectMapper().readTree(DASHBOARD.toFile());
    }

    @Test
    void everyQueryNamesOnlyTheMetricsAndLabelsLinkproofExports() throws Exception {
        List<Query> queries = queries(dashboard());
        assertThat(queries).hasSizeGreaterThan(10);
        List<String> problems = new ArrayList<>();
        for (Query q : queries) {
            problems.addAll(problems(q.expr(), q.moreLabels()).stream()
                    .map(p -> q.where() + ": " + p)
                    .toList());
        }
        assertThat(problems).isEmpty();
        // The check itself catches the old names and a label that is not there.
        assertThat(problems("linkproof_fleet_pair_bandwidth_gbps{point=\"x\"}", Set.of()))
                .anySatisfy(p -> assertThat(p)
                        .contains("linkproof_fleet_pair_bandwidth_gbps is not a metric Linkproof exports"));
        assertThat(problems(
                        "max by (initiator) (linkproof_fleet_pair_bandwidth_bytes_per_second{job=~\"$job\"})",
                        Set.of()))
                .singleElement()
                .asString()
                .contains("label initiator is not one of");
        assertThat(problems("linkproof_fleet_node_verdict", Set.of("src")))
                .singleElement()
                .asString()
                .contains("label src");
    }

    @Test
    void itHasTheHeatMapByPairTheVerdictsByNodeAndBandwidthOverTime() throws Exception {
        JsonNode d = dashboard();
        List<String> found = new ArrayList<>();
        for (JsonNode panel : d.get("panels")) {
            String exprs = panel.path("targets").findValuesAsText("expr").toString();
            String matrix = panel.path("transformations").findValuesAsText("rowField") + "x"
                    + panel.path("transformations").findValuesAsText("columnField");
            if (exprs.contains(FleetPrometheus.BANDWIDTH) && matrix.equals("[src]x[dst]")) {
                found.add("heat map by pair");
            }
            if (exprs.contains(FleetPrometheus.NODE_VERDICT) && matrix.equals("[node]x[kind]")) {
                found.add("verdicts by node");
            }
            if (exprs.contains(FleetPrometheus.BANDWIDTH)
                    && panel.get("type").asText().equals("timeseries")) {
                found.add("bandwidth over time");
            }
        }
        assertThat(found).contains("heat map by pair", "verdicts by node", "bandwidth over time");
        assertThat(d.get("uid").asText()).isEqualTo("linkproof-fleet");
    }

    @Test
    void everyQueryParsesAsPromql(@TempDir Path dir) throws Exception {
        Path promtool = PrometheusTools.require("promtool", "prometheus");
        StringBuilder rules = new StringBuilder("groups:\n  - name: linkproof-fleet-dashboard\n    rules:\n");
        int i = 0;
        for (Query q : queries(dashboard())) {
            Matcher v = LABEL_VALUES.matcher(q.expr());
            // A variable's label_values(SELECTOR, label) is Grafana's; its selector is PromQL.
            String expr =
                    (v.matches() ? v.group(1) : q.expr()).replace("$job", ".*").replace("$point", "write 4 KiB");
            rules.append("      - record: linkproof_dashboard_check_")
                    .append(++i)
                    .append("\n        expr: '")
                    .append(expr.replace("'", "''"))
                    .append("'\n");
        }
        Path file = Files.writeString(dir.resolve("dashboard-rules.yml"), rules);
        Process p = new ProcessBuilder(promtool.toString(), "check", "rules", file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("promtool check rules:%n%s%n%s", out, rules)
                .isZero();
        assertThat(out).contains("SUCCESS: " + i + " rules found");
    }
}
