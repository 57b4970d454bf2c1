package dev.linkproof.fleet.blame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Verdicts from a fleet run's first round and its retests: the {@link Rules} decide who is blamed;
 * this gathers each verdict's evidence and writes its reason. Retest outcomes are judged against
 * the first round's fleet reference (a handful of retests has no median worth the name).
 */
public final class Blamer {
    /** How many partner names a reason lists before it says "…". */
    private static final int NAMES_IN_A_REASON = 5;

    private Blamer() {
    }

    public static Blame blame(Observations first, List<PairOutcome> retests, BlameSettings settings) {
        PairJudge judge = new PairJudge(FleetRelative.of(first.outcomes(), settings.thresholds()));
        Ledger l = Ledger.of(first.expected(), first.outcomes(), retests, judge);
        Rules.Decision d = Rules.decide(l, first.expected(), first.registered());
        BitSet beforeBad = new BitSet(l.size());
        for (int i = 0; i < l.size(); i++) {
            if (d.blamed(i) && d.nodeKind()[i] != VerdictKind.BAD_NODE) {
                beforeBad.set(i);
            }
        }
        BitSet blamed = Rules.blamedSet(d);
        int limit = settings.evidenceLimit();
        List<Verdict> verdicts = new ArrayList<>();
        for (VerdictKind kind : List.of(VerdictKind.MISSING_NODE, VerdictKind.UNREACHABLE_NODE, VerdictKind.CORRUPTING_NODE,
                VerdictKind.BAD_NODE)) {
            for (int i = 0; i < l.size(); i++) {
                if (d.nodeKind()[i] == kind) {
                    verdicts.add(nodeVerdict(l, i, kind, beforeBad, limit));
                }
            }
        }
        for (Ledger.FailingPair p : d.links()) {
            verdicts.add(linkVerdict(l, p, blamed, limit));
        }
        return new Blame(l.names, verdicts, judge);
    }

    private static Verdict nodeVerdict(Ledger l, int i, VerdictKind kind, BitSet beforeBad, int limit) {
        String node = l.names.get(i);
        return switch (kind) {
            case MISSING_NODE -> new Verdict(kind, List.of(node), List.of(), 0, node + " was expected and never registered with the coordinator");
            case UNREACHABLE_NODE -> {
                List<Evidence> e = evidence(l, i, x -> x.fault() == PairFault.UNREACHABLE, p -> true);
                yield cap(kind, node, e, limit, String.format("no pair reached %s: all %d of its outcomes, with %d partner%s, were unreachable",
                        node, l.outcomes[i], l.partners[i].cardinality(), l.partners[i].cardinality() == 1 ? "" : "s"));
            }
            case CORRUPTING_NODE -> {
                List<Evidence> e = evidence(l, i, x -> x.fault() == PairFault.CORRUPT, p -> true);
                List<String> with = l.failingOf.get(i).stream().filter(p -> p.has(PairFault.CORRUPT)).map(p -> l.names.get(p.other(i))).toList();
                yield cap(kind, node, e, limit, String.format("data failed validation on %d of its %d partners' pairs (%s), %s the node they share",
                        with.size(), Rules.partners(l, i, beforeBad), names(with), node));
            }
            case BAD_NODE -> {
                List<Evidence> e = evidence(l, i, x -> true, p -> !beforeBad.get(p.other(i)));
                yield cap(kind, node, e, limit, String.format("fails with %d of its %d partners (%s)%s", Rules.failingPartners(l, i, beforeBad),
                        Rules.partners(l, i, beforeBad), faults(e), e.stream().anyMatch(Evidence::retest) ? ", retests with partners that passed included" : ""));
            }
            case BAD_LINK -> throw new IllegalArgumentException("a link is no node");
        };
    }

    private static Verdict linkVerdict(Ledger l, Ledger.FailingPair p, BitSet blamed, int limit) {
        String a = l.names.get(p.a);
        String b = l.names.get(p.b);
        int aOthers = Rules.partners(l, p.a, blamed) - 1;
        int bOthers = Rules.partners(l, p.b, blamed) - 1;
        int aPass = aOthers - (Rules.failingPartners(l, p.a, blamed) - 1);
        int bPass = bOthers - (Rules.failingPartners(l, p.b, blamed) - 1);
        String elsewhere = aOthers == 0 && bOthers == 0
                ? "neither node has another partner to tell which side it is (no retest with a partner that passed)"
                : String.format("%s passes with %d of its %d other partners and %s with %d of %d%s", a, aPass, aOthers, b, bPass, bOthers,
                        l.retested[p.a] || l.retested[p.b] ? ", retests included" : "");
        return cap(VerdictKind.BAD_LINK, List.of(a, b), p.evidence, limit, String.format("%s<->%s fails (%s) while %s", a, b, faults(p.evidence), elsewhere));
    }

    private static List<Evidence> evidence(Ledger l, int node, Predicate<Evidence> which, Predicate<Ledger.FailingPair> pairs) {
        List<Evidence> e = new ArrayList<>();
        for (Ledger.FailingPair p : l.failingOf.get(node)) {
            if (pairs.test(p)) {
                p.evidence.stream().filter(which).forEach(e::add);
            }
        }
        return e;
    }

    private static Verdict cap(VerdictKind kind, String node, List<Evidence> e, int limit, String reason) {
        return cap(kind, List.of(node), e, limit, reason);
    }

    private static Verdict cap(VerdictKind kind, List<String> nodes, List<Evidence> e, int limit, String reason) {
        return new Verdict(kind, nodes, e.subList(0, Math.min(limit, e.size())), Math.max(0, e.size() - limit), reason);
    }

    /** "SLOW ×6, CORRUPT ×1". */
    private static String faults(List<Evidence> e) {
        Map<PairFault, Long> counts = e.stream().collect(Collectors.groupingBy(Evidence::fault, () -> new EnumMap<>(PairFault.class),
                Collectors.counting()));
        return counts.entrySet().stream().map(c -> c.getKey() + " ×" + c.getValue()).collect(Collectors.joining(", "));
    }

    private static String names(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(NAMES_IN_A_REASON, names.size())));
        return names.size() > NAMES_IN_A_REASON ? shown + ", …" : shown;
    }
}
