package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.act.CommandOutcome;
import dev.linkproof.fleet.act.Mark;
import dev.linkproof.fleet.act.NotActedOn;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.PointStats;
import dev.linkproof.fleet.blame.Stage;
import dev.linkproof.transfer.Units;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** One thing that happened in a campaign, with the line a console shows for it. */
public sealed interface CampaignEvent {
    /** The line for a console, without a prefix; may span lines. */
    String describe();

    /** The plan before any transfer: what will run, in how many rounds, and about how long. */
    record Planned(String plan) implements CampaignEvent {
        @Override
        public String describe() {
            return plan;
        }
    }

    record RegistryListening(String host, int port, int nodes, String source, Duration within)
            implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(
                    "registry listening on %s:%d for %d nodes from %s; waiting up to %s",
                    host, port, nodes, source, Units.formatDuration(within));
        }
    }

    record RegistryFailed(String why) implements CampaignEvent {
        @Override
        public String describe() {
            return why;
        }
    }

    record Registered(int registered, int expected, double seconds, List<String> missing) implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "%d of %d nodes registered in %.1f s%s",
                    registered,
                    expected,
                    seconds,
                    missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing));
        }
    }

    record WarmedUp(int pairs, double seconds) implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(Locale.ROOT, "warm-up round (not judged): %d pairs in %.1f s", pairs, seconds);
        }
    }

    /** One round of the plan at a point. */
    record RoundRan(String point, int round, int rounds, int pairs, double seconds, double slowestPair, long failed)
            implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s: round %d/%d, %d pairs in %.2f s (slowest pair %.2f s)%s",
                    point,
                    round,
                    rounds,
                    pairs,
                    seconds,
                    slowestPair,
                    failed == 0 ? "" : ", " + failed + " failed");
        }
    }

    /** Reruns about to start: confirmations of what failed, or retests with partners that passed. */
    record RerunsPlanned(Stage stage, int pairs, int runs, int rounds) implements CampaignEvent {
        @Override
        public String describe() {
            return stage == Stage.CONFIRMATION
                    ? String.format(
                            "confirming before any verdict: %d (pair, point)s that failed, or the reverse of one, %d"
                                    + " runs in %d rounds",
                            pairs, runs, rounds)
                    : String.format(
                            "retesting %d suspects with partners that passed: %d runs in %d rounds",
                            pairs, runs, rounds);
        }
    }

    record RerunRoundRan(Stage stage, String point, int round, int rounds, int pairs, double seconds, long failed)
            implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s round %d/%d (%s): %d pairs in %.1f s%s",
                    stage.slug(),
                    round,
                    rounds,
                    point,
                    pairs,
                    seconds,
                    failed == 0 ? "" : ", " + failed + " failed");
        }
    }

    /** Retests the planner could not pair: no node passed to pair them with. */
    record RetestsUnplanned(List<String> suspects) implements CampaignEvent {
        @Override
        public String describe() {
            return "no partner that passed to retest " + String.join(", ", suspects) + " with";
        }
    }

    /** The verdicts reached, with what confirmation cleared and which points were not judged against the fleet. */
    record Concluded(Blame blame) implements CampaignEvent {
        @Override
        public String describe() {
            StringBuilder s = new StringBuilder();
            for (Blame.Cleared c : blame.cleared()) {
                s.append("cleared by its confirmations: ").append(c.describe()).append('\n');
            }
            for (PointStats p : blame.points()) {
                p.notJudged()
                        .ifPresent(why -> s.append(p.point().name())
                                .append(": not judged against the fleet (")
                                .append(why)
                                .append("); the profile's criteria still judge it\n"));
            }
            s.append(
                    blame.blamesNobody()
                            ? "verdicts: the fleet blames nobody"
                            : "verdicts: "
                                    + blame.verdicts().stream()
                                            .map(v -> v.kind().slug() + " "
                                                    + String.join(
                                                            v.kind() == dev.linkproof.fleet.blame.VerdictKind.BAD_LINK
                                                                    ? "<->"
                                                                    : ",",
                                                            v.nodes()))
                                            .collect(Collectors.joining("; ")));
            return s.toString();
        }
    }

    /** What the coordinator cost: the rounds' wall time against their slowest pairs', and the time to the verdicts. */
    record Cost(double roundsSeconds, double slowestPairsSeconds, double registeredToVerdictsSeconds)
            implements CampaignEvent {
        @Override
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "cost: the rounds (warm-up, confirmations and retests included) took %.2f s, their slowest "
                            + "pairs %.2f s together (%.2f×); %.2f s from the last registration to the verdicts",
                    roundsSeconds,
                    slowestPairsSeconds,
                    slowestPairsSeconds == 0 ? 0.0 : roundsSeconds / slowestPairsSeconds,
                    registeredToVerdictsSeconds);
        }
    }

    record NotActed(NotActedOn verdict) implements CampaignEvent {
        @Override
        public String describe() {
            return "not acted on: " + verdict.describe();
        }
    }

    /** A dry run's commands, for an operator to run. */
    record ActPrinted(String what, String key, List<String> lines) implements CampaignEvent {
        @Override
        public String describe() {
            return "to " + what + " (" + key + " runs these):"
                    + lines.stream().map(l -> "\n  " + l).collect(Collectors.joining());
        }
    }

    record Acted(CommandOutcome outcome) implements CampaignEvent {
        @Override
        public String describe() {
            return outcome.command().shellLine() + ": "
                    + switch (outcome) {
                        case CommandOutcome.Succeeded s -> "done";
                        case CommandOutcome.Failed f ->
                            "failed, exit " + f.exitCode() + ": " + f.output().strip();
                        case CommandOutcome.TimedOut t -> "killed after " + Units.formatDuration(t.deadline());
                        case CommandOutcome.NotStarted n -> "not started: " + n.why();
                        case CommandOutcome.Refused r -> "refused, HTTP " + r.status() + ": " + r.why();
                    };
        }
    }

    /** A node Linkproof took out earlier passes again and is brought back. */
    record Undone(Mark mark) implements CampaignEvent {
        @Override
        public String describe() {
            return mark.node() + " passes again: bringing it back (it was taken out for: " + mark.reason() + ")";
        }
    }

    /** How history weighs this run's verdicts: none kept, or how many earlier runs it holds. */
    record HistoryRead(String description) implements CampaignEvent {
        @Override
        public String describe() {
            return description;
        }
    }
}
