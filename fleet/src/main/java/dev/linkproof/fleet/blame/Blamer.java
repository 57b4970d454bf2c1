package dev.linkproof.fleet.blame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Verdicts from a fleet run's outcomes — its first round, the confirmations and the retests: the
 * {@link Rules} decide who is blamed from the confirmed failures only; this gathers each verdict's
 * evidence (every run of the pairs it rests on), writes its reason, and trips the circuit breaker
 * when too much of the fleet would be singled out. Every stage is judged against the first round's
 * fleet reference (a handful of reruns has no median worth the name).
 */
public final class Blamer {
    /** How many partner names a reason lists before it says "…". */
    private static final int NAMES_IN_A_REASON = 5;

    private Blamer() {}

    /** @param all every outcome of the run, of every stage (the first round's among them) */
    public static Blame blame(Observations first, List<PairOutcome> all, BlameSettings settings) {
        return blame(first, all, settings, ConfirmationPlanner.judge(first, settings));
    }

    static Blame blame(Observations first, List<PairOutcome> all, BlameSettings settings, PairJudge judge) {
        Ledger l = Ledger.of(first.expected(), all, judge);
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
        for (VerdictKind kind : List.of(
                VerdictKind.MISSING_NODE,
                VerdictKind.UNREACHABLE_NODE,
                VerdictKind.CORRUPTING_NODE,
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
        List<Blame.Cleared> cleared =
                l.unconfirmed().stream().map(r -> new Blame.Cleared(r.samples)).toList();
        int singled = blamed.cardinality();
        if (singled > settings.mostBlamed(l.size())) {
            verdicts = List.of(degraded(l, blamed, verdicts, settings));
        }
        return new Blame(l.names, verdicts, judge, cleared, settings);
    }

    /** The circuit breaker's one verdict: the nodes the others would have named, and their evidence. */
    private static Verdict degraded(Ledger l, BitSet blamed, List<Verdict> would, BlameSettings settings) {
        List<String> nodes = blamed.stream().mapToObj(l.names::get).toList();
        Set<Evidence> evidence = new LinkedHashSet<>();
        would.forEach(v -> evidence.addAll(v.evidence()));
        Map<VerdictKind, Long> kinds = would.stream()
                .collect(Collectors.groupingBy(
                        Verdict::kind, () -> new EnumMap<>(VerdictKind.class), Collectors.counting()));
        String reason = String.format(
                "fleet-wide: %d of %d nodes fail (%s); no node singled out: more than %d (%s of the fleet) "
                        + "points at what they share, not at each of them",
                nodes.size(),
                l.size(),
                kinds.entrySet().stream()
                        .map(e -> e.getKey().slug() + " ×" + e.getValue())
                        .collect(Collectors.joining(", ")),
                settings.mostBlamed(l.size()),
                settings.maxBlamedFraction());
        List<Evidence> e = List.copyOf(evidence);
        int limit = settings.evidenceLimit();
        return new Verdict(
                VerdictKind.FLEET_DEGRADED,
                nodes,
                e.subList(0, Math.min(limit, e.size())),
                Math.max(0, e.size() - limit),
                reason);
    }

    private static Verdict nodeVerdict(Ledger l, int i, VerdictKind kind, BitSet beforeBad, int limit) {
        String node = l.names.get(i);
        return switch (kind) {
            case MISSING_NODE ->
                new Verdict(
                        kind,
                        List.of(node),
                        List.of(),
                        0,
                        node + " was expected and never registered with the coordinator");
            case UNREACHABLE_NODE -> {
                // Its runs need not be confirmed pairs: every one of them failed the same way.
                List<Evidence> e = l.runs.values().stream()
                        .filter(r -> r.pair.initiator().equals(node)
                                || r.pair.target().equals(node))
                        .flatMap(r -> r.samples.stream())
                        .filter(x -> x.fault().orElse(null) == PairFault.UNREACHABLE)
                        .toList();
                yield cap(
                        kind,
                        node,
                        e,
                        limit,
                        String.format(
                                "no pair reached %s: all %d of its runs, with %d partner%s, were unreachable",
                                node,
                                l.outcomes[i],
                                l.partners[i].cardinality(),
                                l.partners[i].cardinality() == 1 ? "" : "s"));
            }
            case CORRUPTING_NODE -> {
                List<Evidence> e = evidence(
                        l,
                        i,
                        x -> x.fault().orElse(null) == PairFault.CORRUPT || !x.failed(),
                        p -> p.has(PairFault.CORRUPT));
                List<String> with = l.failingOf.get(i).stream()
                        .filter(p -> p.has(PairFault.CORRUPT))
                        .map(p -> l.names.get(p.other(i)))
                        .toList();
                yield cap(
                        kind,
                        node,
                        e,
                        limit,
                        String.format(
                                "data failed validation on %d of its %d partners' pairs (%s), %s the node they share;"
                                        + " %s",
                                with.size(), Rules.partners(l, i, beforeBad), names(with), node, runs(e)));
            }
            case BAD_NODE -> {
                List<Evidence> e = evidence(l, i, x -> true, p -> !beforeBad.get(p.other(i)));
                yield cap(
                        kind,
                        node,
                        e,
                        limit,
                        String.format(
                                "fails with %d of its %d partners (%s)%s; %s",
                                Rules.failingPartners(l, i, beforeBad),
                                Rules.partners(l, i, beforeBad),
                                faults(e),
                                e.stream().anyMatch(Evidence::retest)
                                        ? ", retests with partners that passed included"
                                        : "",
                                runs(e)));
            }
            case BAD_LINK, FLEET_DEGRADED ->
                throw new IllegalArgumentException("a " + kind.slug() + " verdict is no node's");
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
                : String.format(
                        "%s passes with %d of its %d other partners and %s with %d of %d%s",
                        a,
                        aPass,
                        aOthers,
                        b,
                        bPass,
                        bOthers,
                        l.retested[p.a] || l.retested[p.b] ? ", retests included" : "");
        List<Evidence> e = p.evidence();
        return cap(
                VerdictKind.BAD_LINK,
                List.of(a, b),
                e,
                limit,
                String.format("%s<->%s fails (%s) while %s; %s", a, b, faults(e), elsewhere, runs(e)));
    }

    private static List<Evidence> evidence(
            Ledger l, int node, Predicate<Evidence> which, Predicate<Ledger.FailingPair> pairs) {
        List<Evidence> e = new ArrayList<>();
        for (Ledger.FailingPair p : l.failingOf.get(node)) {
            if (pairs.test(p)) {
                p.evidence().stream().filter(which).forEach(e::add);
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

    /** "SLOW ×6, CORRUPT ×1": the failed runs by fault. */
    private static String faults(List<Evidence> e) {
        Map<PairFault, Long> counts = e.stream()
                .filter(Evidence::failed)
                .collect(Collectors.groupingBy(
                        x -> x.fault().orElseThrow(), () -> new EnumMap<>(PairFault.class), Collectors.counting()));
        return counts.entrySet().stream()
                .map(c -> c.getKey() + " ×" + c.getValue())
                .collect(Collectors.joining(", "));
    }

    /** "failed 8 of 8 runs": how much the verdict rests on. */
    private static String runs(List<Evidence> e) {
        return "failed " + e.stream().filter(Evidence::failed).count() + " of " + e.size() + " runs";
    }

    private static String names(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(NAMES_IN_A_REASON, names.size())));
        return names.size() > NAMES_IN_A_REASON ? shown + ", …" : shown;
    }
}
