package dev.linkproof.conformance.bench;

import dev.linkproof.reports.fleet.FleetVerdictDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the false-blame bench found: a line per run as it ends, with why each verdict was reached,
 * and the table per case at the end, against each case's target. Apart from {@link FleetFalseBlame},
 * which runs the fleets and only hands each run's verdicts here.
 */
final class FalseBlameTally {
    static final String DEGRADED = "fleet-degraded";

    /** One run's outcome. {@code error} is non-null when the run produced no verdicts to judge. */
    record Outcome(
            String caseName,
            int run,
            List<String> verdicts,
            int expected,
            int found,
            int extra,
            int drained,
            String error,
            double seconds) {}

    private final List<Outcome> outcomes = new ArrayList<>();

    /** A verdict as the table names it: {@code bad-node lpn3}, {@code bad-link lpn1<->lpn2} (nodes sorted), {@code fleet-degraded}. */
    static String key(FleetVerdictDocument.VerdictEntry v) {
        if (v.kind().equals(DEGRADED) || v.nodes() == null || v.nodes().isEmpty()) {
            return v.kind();
        }
        List<String> n =
                v.kind().equals("bad-link") ? v.nodes().stream().sorted().toList() : v.nodes();
        return v.kind() + " " + String.join("<->", n);
    }

    void record(
            boolean counted,
            String caseName,
            int i,
            FleetVerdictDocument d,
            List<String> expected,
            List<String> drained,
            String error,
            long t0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<String> verdicts = d == null
                ? List.of()
                : d.verdicts().stream().map(FalseBlameTally::key).toList();
        List<String> left = new ArrayList<>(verdicts);
        int found = 0;
        for (String e : expected) {
            if (left.remove(e)) {
                found++;
            }
        }
        int extra = left.size();
        Outcome o = new Outcome(caseName, i, verdicts, expected.size(), found, extra, drained.size(), error, seconds);
        if (counted) {
            outcomes.add(o);
        }
        String result;
        if (error != null) {
            result = "ERROR";
        } else if (expected.isEmpty()) {
            result = "false " + extra;
        } else {
            result = "found " + found + "/" + expected.size() + " extra " + extra;
        }
        if (!drained.isEmpty()) {
            result += " drained " + drained.size();
        }
        System.out.printf(
                Locale.ROOT,
                "  %-15s %3d  %6.1f  %-28s  %s%n",
                counted ? caseName : caseName + "*",
                i,
                seconds,
                result,
                verdicts.isEmpty() ? "none" : String.join(", ", verdicts));
        if (error != null) {
            System.out.println("      error: " + oneLine(error, 400));
        }
        if (d != null) {
            for (var v : d.verdicts()) { // why each verdict was reached, for the ones that should not have been
                System.out.println("      " + key(v) + ": " + oneLine(v.reason(), 220));
            }
            if (!counted) {
                System.out.println("      (* calibration run: measures the clean per-pair bandwidth; not counted)");
            }
        }
        if (!drained.isEmpty()) { // node|linkproof: kind: reason -> node (linkproof: kind)
            System.out.println("      drained (resumed since): "
                    + drained.stream()
                            .map(l -> {
                                String[] p = l.split("[|:]", 4);
                                return p.length >= 3 ? p[0] + " (" + p[1] + ":" + p[2] + ")" : l;
                            })
                            .collect(Collectors.joining(", ")));
        }
        System.out.flush();
    }

    /** Prints the table; true when every case met its target. */
    boolean summary(List<String> cases, Double halfRate) {
        System.out.println();
        System.out.println("# summary"
                + (halfRate == null ? "" : String.format(Locale.ROOT, " (faults at %.0f Mbit/s)", halfRate)));
        System.out.println("case             runs  expected_found  false_or_extra  drained  errors  target");
        boolean all = true;
        for (String c : cases) {
            List<Outcome> os =
                    outcomes.stream().filter(o -> o.caseName().equals(c)).toList();
            int expected = os.stream().mapToInt(Outcome::expected).sum();
            int found = os.stream().mapToInt(Outcome::found).sum();
            int extra = os.stream().mapToInt(Outcome::extra).sum();
            int drained = os.stream().mapToInt(Outcome::drained).sum();
            long errors = os.stream().filter(o -> o.error() != null).count();
            boolean clean = c.startsWith("clean-");
            boolean met = !os.isEmpty() && errors == 0 && extra == 0 && found == expected && drained == 0;
            all &= met;
            String target = clean
                    ? "0 false verdicts"
                    : c.equals("breaker") ? "fleet-degraded, nothing drained" : "all found, nothing else";
            System.out.printf(
                    Locale.ROOT,
                    "%-15s  %4d  %14s  %14d  %7d  %6d  %s: %s%n",
                    c,
                    os.size(),
                    clean ? "-" : found + "/" + expected,
                    extra,
                    drained,
                    errors,
                    met ? "met" : "MISSED",
                    target);
        }
        System.out.println(all ? "# every target met" : "# a target was missed");
        return all;
    }

    private static String oneLine(String s, int max) {
        String t = String.valueOf(s).replaceAll("\\s+", " ").strip();
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }
}
