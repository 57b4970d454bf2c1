package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.transfer.FailureKind;
import java.nio.charset.StandardCharsets;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * A fleet run's last container: failing pairs retested with partners that passed, then the verdicts,
 * each a test of its own that fails ({@code [verdict:bad-node:lpn3]}); a fleet that blames nobody has
 * one passing test saying so. The verdicts are written down (console, fleet-verdict.json, Allure)
 * by the reporting room.
 */
public final class FleetVerdictsDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String VALUE = "verdicts";
    private final java.util.Set<org.junit.platform.engine.TestTag> tags;

    /** @param tags every tag of the run's fleet points: a tag filter that keeps any of them keeps the verdicts */
    public FleetVerdictsDescriptor(UniqueId engineId, java.util.Set<org.junit.platform.engine.TestTag> tags) {
        super(engineId.append(FleetRegistrationDescriptor.SEGMENT, VALUE), "fleet verdicts");
        this.tags = java.util.Set.copyOf(tags);
    }

    @Override
    public java.util.Set<org.junit.platform.engine.TestTag> getTags() {
        return tags;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public boolean mayRegisterTests() {
        return true;
    }

    @Override
    public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor) {
        var fleet = context.fleet().orElseThrow();
        Blame blame = fleet.conclude();
        RunReporter.FleetReport report = context.reporter()
                .fleetFinished(
                        fleet.runInfo(context.profile().id()),
                        fleet.settings().verdictFile(),
                        fleet.settings().history(),
                        blame,
                        fleet.outcomes(),
                        fleet::labels,
                        context.progress()::fleet);
        fleet.act(blame, context.progress());
        // The verdict document and the heat maps as this container's files (Open Test Reporting keeps them).
        context.publishFile(
                this,
                "fleet-verdict.json",
                "application/json",
                report.verdictJson().getBytes(StandardCharsets.UTF_8));
        int i = 0;
        for (String svg : report.heatMaps().values()) {
            context.publishFile(
                    this, "fleet-heatmap-" + (++i) + ".svg", "image/svg+xml", svg.getBytes(StandardCharsets.UTF_8));
        }
        // The first verdict test carries the heat maps and the verdict document in the Allure report.
        if (blame.blamesNobody()) {
            run(executor, new VerdictTest(getUniqueId(), "none", "the fleet blames nobody", null, report));
        }
        for (Verdict v : blame.verdicts()) {
            run(
                    executor,
                    new VerdictTest(
                            getUniqueId(),
                            VerdictTest.id(v),
                            v.describe(),
                            v,
                            v == blame.verdicts().getFirst() ? report : null));
        }
        return context;
    }

    private void run(DynamicTestExecutor executor, VerdictTest child) {
        addChild(child);
        executor.execute(child);
    }

    /** One verdict as a test: it fails with the verdict's reason, of the kind that matches it. */
    static final class VerdictTest extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
        static final String SEGMENT = "verdict";
        private final Verdict verdict;
        private final RunReporter.FleetReport report;

        VerdictTest(UniqueId parent, String id, String name, Verdict verdict, RunReporter.FleetReport report) {
            super(parent.append(SEGMENT, id), name);
            this.verdict = verdict;
            this.report = report;
        }

        @Override
        public Type getType() {
            return Type.TEST;
        }

        @Override
        public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor) {
            if (report != null) {
                report.attach();
            }
            if (verdict != null) {
                // The evidence with the verdict, wherever its failure is read (console, Surefire, Allure).
                StringBuilder why = new StringBuilder(verdict.describe());
                verdict.evidence().forEach(e -> why.append("\n  ").append(e.describe()));
                if (verdict.evidenceOmitted() > 0) {
                    why.append("\n  … and ")
                            .append(verdict.evidenceOmitted())
                            .append(" more run(s) in fleet-verdict.json");
                }
                throw new PointFailure(kind(verdict), why.toString());
            }
            return context;
        }

        static FailureKind kind(Verdict v) {
            return switch (v.kind()) {
                case CORRUPTING_NODE -> FailureKind.DATA_CORRUPTION;
                case UNREACHABLE_NODE, MISSING_NODE -> FailureKind.PEER_FAILURE;
                case BAD_NODE, BAD_LINK -> FailureKind.BELOW_CRITERION;
                // The breaker names no node; the run still fails, as corrupt when any of its evidence is.
                case FLEET_DEGRADED ->
                    v.evidence().stream()
                                    .anyMatch(
                                            e -> e.fault().orElse(null) == dev.linkproof.fleet.blame.PairFault.CORRUPT)
                            ? FailureKind.DATA_CORRUPTION
                            : FailureKind.BELOW_CRITERION;
            };
        }

        /** A verdict's unique-id value: {@code bad-node:lpn3}, {@code bad-link:lpn1<->lpn2}. */
        static String id(Verdict v) {
            return v.kind().slug() + ":"
                    + String.join(
                            v.kind() == dev.linkproof.fleet.blame.VerdictKind.FLEET_DEGRADED ? "," : "<->", v.nodes());
        }
    }
}
