package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.act.ActPlan;
import dev.linkproof.fleet.act.Command;
import dev.linkproof.fleet.act.CommandOutcome;
import dev.linkproof.fleet.act.CommandRunner;
import dev.linkproof.fleet.act.History;
import dev.linkproof.fleet.act.KubernetesApi;
import dev.linkproof.fleet.act.KubernetesMark;
import dev.linkproof.fleet.act.Mark;
import dev.linkproof.fleet.act.Runner;
import dev.linkproof.fleet.act.Selection;
import dev.linkproof.fleet.act.Undo;
import dev.linkproof.fleet.blame.Blame;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A campaign's last step, {@link Campaign#act}: the verdicts acted on through the scheduler or
 * printed for an operator. Apart from the campaign because it runs scheduler commands, not pairs.
 */
final class CampaignActions {
    /** How long one drain, taint or query command may take. */
    static final Duration ACT_DEADLINE = Duration.ofSeconds(30);

    private final CampaignSettings settings;
    private final CampaignListener listener;
    private final Campaign.Schedulers schedulers;

    CampaignActions(CampaignSettings settings, CampaignListener listener, Campaign.Schedulers schedulers) {
        this.settings = settings;
        this.listener = listener;
        this.schedulers = schedulers;
    }

    /** As {@link Campaign#act}; {@code registered}: the nodes that registered and their machines, asked only when acting. */
    List<CommandOutcome> act(Blame blame, Optional<History> history, Supplier<Map<String, String>> registered) {
        CampaignSettings.Act how = settings.act();
        if (how == CampaignSettings.Act.NONE) {
            return List.of();
        }
        listener.on(new CampaignEvent.HistoryRead(history.map(h -> String.format(
                        "history: %d earlier run(s); a node is acted on when blamed in %s of the last runs, this one"
                                + " included",
                        h.runs().size(), settings.actAfter()))
                .orElse("no history kept: acting on this run's confirmed verdicts alone")));
        Map<String, String> machines = registered.get();
        Selection selection = Selection.of(
                blame.verdicts(), settings.blame().mostBlamed(blame.nodes().size()), history, settings.actAfter());
        KubernetesMark kubernetes = schedulers.kubernetes().onMachines(n -> machines.getOrDefault(n, n));
        ActPlan actions = how.kubernetes()
                ? kubernetes.plan(selection)
                : schedulers.slurm().plan(selection);
        actions.notActedOn().forEach(n -> listener.on(new CampaignEvent.NotActed(n)));
        if (!how.runs()) {
            if (!actions.commands().isEmpty()) {
                listener.on(new CampaignEvent.ActPrinted(
                        how.kubernetes() ? "label and taint the blamed nodes" : "drain the blamed nodes",
                        CampaignSettings.ACT_KEY + "=" + (how.kubernetes() ? "kubernetes" : "slurm"),
                        actions.shellLines()));
            }
            return List.of();
        }
        if (!how.kubernetes()) {
            return act(actions, blame, machines, new CommandRunner(ACT_DEADLINE), false, kubernetes);
        }
        try (KubernetesApi api = new KubernetesApi(schedulers.kubernetesClient(), ACT_DEADLINE)) {
            return act(actions, blame, machines, api, true, kubernetes);
        }
    }

    /** The plan's commands, then the undo: the scheduler says which nodes carry our mark; the ones that pass now come back. */
    private List<CommandOutcome> act(
            ActPlan actions,
            Blame blame,
            Map<String, String> machines,
            Runner runner,
            boolean onKubernetes,
            KubernetesMark kubernetes) {
        List<CommandOutcome> done = new ArrayList<>();
        for (CommandOutcome o : runner.run(actions)) {
            done.add(o);
            listener.on(new CampaignEvent.Acted(o));
        }
        Command query = onKubernetes ? kubernetes.query() : schedulers.slurm().query();
        CommandOutcome listed = runner.run(query);
        done.add(listed);
        if (!(listed instanceof CommandOutcome.Succeeded ok)) {
            listener.on(new CampaignEvent.Acted(listed));
            return done;
        }
        Map<String, String> machineOf = new LinkedHashMap<>();
        machines.forEach((node, machine) -> machineOf.put(node, onKubernetes ? machine : node));
        List<Mark> marks = onKubernetes
                ? kubernetes.marks(ok.output())
                : schedulers.slurm().marks(ok.output());
        for (Mark m : Undo.of(marks, blame, machineOf)) {
            if (actions.commands().stream().anyMatch(x -> x.node().equals(m.node()))) {
                continue; // taken out in this very run
            }
            listener.on(new CampaignEvent.Undone(m));
            List<Command> back = onKubernetes
                    ? kubernetes.clear(m)
                    : List.of(schedulers.slurm().resume(m));
            for (CommandOutcome o : runner.run(back)) {
                done.add(o);
                listener.on(new CampaignEvent.Acted(o));
            }
        }
        return done;
    }
}
