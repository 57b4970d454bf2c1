package dev.linkproof.fleet.act;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Acting on Kubernetes nodes through the API server, against fabric8's mock server in CRUD mode: it
 * keeps the nodes it is given and applies the client's patches to them as an API server would, so
 * the labels and taints are read back from the nodes themselves. The servers that refuse are the
 * mock server answering as a real one does (403 with RBAC's message), a port nobody listens on, and
 * one that accepts and never answers.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesApiTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** The pods the verdicts name, and the Kubernetes node each ran on (as the agents registered them). */
    private static final Map<String, String> MACHINES = Map.of(
            "linkproof-agents-1",
            "gpu-node-1",
            "linkproof-agents-2",
            "gpu-node-2",
            "linkproof-agents-3",
            "gpu-node-3",
            "linkproof-agents-4",
            "gpu-node-4");

    private static final KubernetesMark MARK = KubernetesMark.DEFAULT.onMachines(MACHINES::get);

    /** Set by the extension for each test: a server of its own, and a client of it for the test's reads and writes. */
    KubernetesMockServer server;

    KubernetesClient kube;
    private final List<KubernetesApi> apis = new ArrayList<>();

    @BeforeEach
    void nodes() {
        for (int i = 1; i <= 4; i++) {
            kube.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("gpu-node-" + i)
                            .addToLabels("kubernetes.io/hostname", "gpu-node-" + i)
                            .endMetadata()
                            .withNewSpec()
                            .endSpec()
                            .build())
                    .create();
        }
        // gpu-node-2 carries a taint and a label of someone else's: acting must keep both.
        kube.nodes()
                .withName("gpu-node-2")
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToLabels("team", "ml")
                        .endMetadata()
                        .editSpec()
                        .addNewTaint()
                        .withKey("nvidia.com/gpu")
                        .withValue("present")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec()
                        .build());
    }

    @AfterEach
    void close() {
        apis.forEach(KubernetesApi::close);
    }

    private KubernetesApi api(KubernetesMockServer s, Duration deadline) {
        KubernetesApi api = new KubernetesApi(s::createClient, deadline);
        apis.add(api);
        return api;
    }

    private static Verdict verdict(VerdictKind kind, String pod) {
        return new Verdict(kind, List.of(pod), List.of(), 0, "fails with 3 of its 3 partners");
    }

    private static Selection selection(Verdict... verdicts) {
        return Selection.of(List.of(verdicts), Integer.MAX_VALUE, Optional.empty(), ActAfter.DEFAULT);
    }

    private Node node(String name) {
        return kube.nodes().withName(name).get();
    }

    private static List<String> taints(Node n) {
        return n.getSpec().getTaints() == null
                ? List.of()
                : n.getSpec().getTaints().stream()
                        .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                        .toList();
    }

    @Test
    void theBlamedPodsNodesAreLabelledAndTaintedAndNothingElseIsTouched() {
        ActPlan plan = MARK.plan(selection(
                verdict(VerdictKind.BAD_NODE, "linkproof-agents-2"),
                verdict(VerdictKind.CORRUPTING_NODE, "linkproof-agents-3")));
        List<CommandOutcome> outcomes = api(server, DEADLINE).run(plan);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(CommandOutcome.Succeeded.class));
        assertThat(outcomes)
                .extracting(o -> ((CommandOutcome.Succeeded) o).output())
                .containsExactly(
                        "node/gpu-node-2 labeled",
                        "node/gpu-node-2 tainted",
                        "node/gpu-node-3 labeled",
                        "node/gpu-node-3 tainted");
        Node two = node("gpu-node-2");
        assertThat(two.getMetadata().getLabels())
                .containsEntry("linkproof.dev/verdict", "bad-node")
                .containsEntry("team", "ml")
                .containsEntry("kubernetes.io/hostname", "gpu-node-2");
        assertThat(taints(two))
                .containsExactly("nvidia.com/gpu=present:NoSchedule", "linkproof.dev/bad-node=true:NoSchedule");
        assertThat(two.getSpec().getUnschedulable()).as("tainted, not cordoned").isNotEqualTo(Boolean.TRUE);
        Node three = node("gpu-node-3");
        assertThat(three.getMetadata().getLabels()).containsEntry("linkproof.dev/verdict", "corrupting-node");
        assertThat(taints(three)).containsExactly("linkproof.dev/corrupting-node=true:NoSchedule");
        // Nodes no verdict names are as they were.
        for (String untouched : List.of("gpu-node-1", "gpu-node-4")) {
            assertThat(node(untouched).getMetadata().getLabels()).containsOnlyKeys("kubernetes.io/hostname");
            assertThat(taints(node(untouched))).isEmpty();
        }
    }

    @Test
    void aSecondRunOnAMarkedNodeReplacesItsMarkInsteadOfFailing() {
        KubernetesApi api = api(server, DEADLINE);
        api.run(MARK.plan(selection(verdict(VerdictKind.BAD_NODE, "linkproof-agents-4"))));
        List<CommandOutcome> again = api.run(MARK.plan(selection(verdict(VerdictKind.BAD_NODE, "linkproof-agents-4"))));
        assertThat(again).allSatisfy(o -> assertThat(o.succeeded()).isTrue());
        assertThat(((CommandOutcome.Succeeded) again.get(1)).output())
                .isEqualTo("node/gpu-node-4 already tainted linkproof.dev/bad-node=true:NoSchedule");
        assertThat(taints(node("gpu-node-4"))).containsExactly("linkproof.dev/bad-node=true:NoSchedule");
        // Blamed for something else: the label names the new verdict (kubectl label --overwrite).
        api.run(MARK.plan(selection(verdict(VerdictKind.UNREACHABLE_NODE, "linkproof-agents-4"))));
        assertThat(node("gpu-node-4").getMetadata().getLabels())
                .containsEntry("linkproof.dev/verdict", "unreachable-node");
        assertThat(taints(node("gpu-node-4")))
                .containsExactly(
                        "linkproof.dev/bad-node=true:NoSchedule", "linkproof.dev/unreachable-node=true:NoSchedule");
    }

    @Test
    void theMarksAreListedAndUndoClearsOursAndOnlyOurs() {
        KubernetesApi api = api(server, DEADLINE);
        api.run(MARK.plan(selection(
                verdict(VerdictKind.BAD_NODE, "linkproof-agents-2"),
                verdict(VerdictKind.UNREACHABLE_NODE, "linkproof-agents-4"))));

        CommandOutcome listed = api.run(MARK.query());
        assertThat(listed).isInstanceOf(CommandOutcome.Succeeded.class);
        List<Mark> marks = MARK.marks(((CommandOutcome.Succeeded) listed).output());
        assertThat(marks)
                .containsExactlyInAnyOrder(
                        new Mark("gpu-node-2", "bad-node"), new Mark("gpu-node-4", "unreachable-node"));

        Mark two = marks.stream()
                .filter(m -> m.node().equals("gpu-node-2"))
                .findFirst()
                .orElseThrow();
        List<CommandOutcome> cleared = api.run(MARK.clear(two));
        assertThat(cleared)
                .extracting(o -> ((CommandOutcome.Succeeded) o).output())
                .containsExactly("node/gpu-node-2 unlabeled", "node/gpu-node-2 untainted");
        Node n = node("gpu-node-2");
        assertThat(n.getMetadata().getLabels())
                .doesNotContainKey("linkproof.dev/verdict")
                .containsEntry("team", "ml");
        assertThat(taints(n)).containsExactly("nvidia.com/gpu=present:NoSchedule");
        assertThat(MARK.marks(((CommandOutcome.Succeeded) api.run(MARK.query())).output()))
                .containsExactly(new Mark("gpu-node-4", "unreachable-node"));
        // Cleared twice: nothing left to remove is no failure.
        assertThat(api.run(MARK.clear(two)))
                .extracting(o -> ((CommandOutcome.Succeeded) o).output())
                .containsExactly(
                        "node/gpu-node-2 has no label linkproof.dev/verdict",
                        "node/gpu-node-2 has no taint linkproof.dev/bad-node:NoSchedule");
    }

    @Test
    void aNodeThatDoesNotExistIsRefusedWithItsName() {
        KubernetesMark elsewhere = KubernetesMark.DEFAULT.onMachines(pod -> "gpu-node-9");
        List<CommandOutcome> outcomes = api(server, DEADLINE)
                .run(elsewhere.plan(selection(verdict(VerdictKind.BAD_NODE, "linkproof-agents-1"))));
        assertThat(outcomes)
                .extracting(
                        o -> o.command().argv().get(1), o -> o instanceof CommandOutcome.Refused r ? r.status() : -1)
                .containsExactly(tuple("label", 404), tuple("taint", 404));
        assertThat(outcomes)
                .allSatisfy(o -> assertThat(((CommandOutcome.Refused) o).why())
                        .startsWith("Not Found: no node gpu-node-9 in the cluster")
                        .contains("LINKPROOF_K8S_NODE_NAME"));
        assertThat(kube.nodes().list().getItems()).hasSize(4);
    }

    @Test
    void aServerThatForbidsSaysWhichRbacVerbIsMissing() {
        KubernetesMockServer rbac = new KubernetesMockServer(false);
        rbac.init();
        try {
            // As a real API server answers an account that may read nodes but not patch them, then one
            // that may not even read or list them (no act component at all).
            rbac.expect()
                    .get()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(200, node("gpu-node-2"))
                    .always();
            rbac.expect()
                    .patch()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(403, forbidden("patch"))
                    .always();
            List<CommandOutcome> outcomes =
                    api(rbac, DEADLINE).run(MARK.plan(selection(verdict(VerdictKind.BAD_NODE, "linkproof-agents-2"))));
            assertThat(outcomes)
                    .hasSize(2)
                    .allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(CommandOutcome.Refused.class, r -> {
                        assertThat(r.status()).isEqualTo(403);
                        assertThat(r.why())
                                .startsWith("Forbidden: the coordinator's account may not patch node gpu-node-2: RBAC"
                                        + " gives it no 'patch' on the cluster-scoped resource nodes")
                                .contains("act component", "get, list and patch", "cannot patch resource \"nodes\"");
                    }));

            rbac.clearExpectations();
            rbac.expect()
                    .get()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(403, forbidden("get"))
                    .always();
            rbac.expect()
                    .get()
                    .withPath("/api/v1/nodes?labelSelector=linkproof.dev%2Fverdict")
                    .andReturn(403, forbidden("list"))
                    .always();
            KubernetesApi api = api(rbac, DEADLINE);
            assertThat(api.run(MARK.taint(verdict(VerdictKind.BAD_NODE, "linkproof-agents-2"))))
                    .isInstanceOfSatisfying(
                            CommandOutcome.Refused.class,
                            r -> assertThat(r.why())
                                    .startsWith("Forbidden: the coordinator's account may not get node "
                                            + "gpu-node-2: RBAC gives it no 'get'"));
            assertThat(api.run(MARK.query()))
                    .isInstanceOfSatisfying(
                            CommandOutcome.Refused.class,
                            r -> assertThat(r.why())
                                    .startsWith("Forbidden: the coordinator's account may not list nodes labelled"
                                            + " linkproof.dev/verdict: RBAC gives it no 'list'"));
        } finally {
            rbac.destroy();
        }
    }

    @Test
    void aPatchThatRacesAnotherWriterIsGuardedByTheVersionReadAndTriedAgain() throws Exception {
        KubernetesMockServer racing = new KubernetesMockServer(false);
        racing.init();
        try {
            Node read = new NodeBuilder(node("gpu-node-2"))
                    .editMetadata()
                    .withResourceVersion("7")
                    .endMetadata()
                    .build();
            racing.expect()
                    .get()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(200, read)
                    .always();
            // The first patch loses to another writer (the resourceVersion test fails), the second lands.
            racing.expect()
                    .patch()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(
                            409,
                            new StatusBuilder()
                                    .withStatus("Failure")
                                    .withReason("Conflict")
                                    .withCode(409)
                                    .withMessage("the object has been modified")
                                    .build())
                    .once();
            racing.expect()
                    .patch()
                    .withPath("/api/v1/nodes/gpu-node-2")
                    .andReturn(200, read)
                    .once();
            CommandOutcome o =
                    api(racing, DEADLINE).run(MARK.taint(verdict(VerdictKind.BAD_NODE, "linkproof-agents-2")));
            assertThat(o)
                    .isInstanceOfSatisfying(
                            CommandOutcome.Succeeded.class,
                            s -> assertThat(s.output()).isEqualTo("node/gpu-node-2 tainted"));

            List<String> requests = new ArrayList<>();
            String patch = null;
            for (int i = racing.getRequestCount(); i > 0; i--) {
                var r = racing.takeRequest();
                requests.add(r.getMethod());
                patch = r.getMethod().equals("PATCH") ? r.getUtf8Body() : patch;
            }
            assertThat(requests).containsExactly("GET", "PATCH", "GET", "PATCH");
            // The other writer's taint (nvidia.com/gpu) stays; ours is added after it; all behind the version read.
            assertThat(patch)
                    .isEqualTo(
                            "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"7\"},{\"op\":\"add\","
                                + "\"path\":\"/spec/taints\",\"value\":["
                                + "{\"effect\":\"NoSchedule\",\"key\":\"nvidia.com/gpu\",\"value\":\"present\"},"
                                + "{\"effect\":\"NoSchedule\",\"key\":\"linkproof.dev/bad-node\",\"value\":\"true\"}]}]");
        } finally {
            racing.destroy();
        }
    }

    private static io.fabric8.kubernetes.api.model.Status forbidden(String verb) {
        return new StatusBuilder()
                .withStatus("Failure")
                .withReason("Forbidden")
                .withCode(403)
                .withMessage(
                        "nodes \"gpu-node-2\" is forbidden: " + "User \"system:serviceaccount:fleet:default\" cannot "
                                + verb + " resource \"nodes\" in API group \"\" at the cluster scope")
                .build();
    }

    @Test
    void noServerIsNotStartedAndASilentOneTimesOut() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        KubernetesApi nobody = new KubernetesApi(() -> client("http://127.0.0.1:" + closed, 5_000), DEADLINE);
        apis.add(nobody);
        CommandOutcome o = nobody.run(MARK.label(verdict(VerdictKind.BAD_NODE, "linkproof-agents-1")));
        assertThat(o)
                .isInstanceOfSatisfying(
                        CommandOutcome.NotStarted.class,
                        n -> assertThat(n.why())
                                .startsWith("no answer from the Kubernetes API server at http://127.0.0.1:" + closed)
                                .contains("(get node gpu-node-1)"));

        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> accepted = new ArrayList<>();
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (Exception e) {
                    // closed at the end of the test
                }
            });
            KubernetesApi slow = new KubernetesApi(
                    () -> client("http://127.0.0.1:" + silent.getLocalPort(), 60_000), Duration.ofMillis(700));
            apis.add(slow);
            long t0 = System.nanoTime();
            CommandOutcome late = slow.run(MARK.query());
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
            assertThat(late)
                    .isInstanceOfSatisfying(
                            CommandOutcome.TimedOut.class,
                            t -> assertThat(t.deadline()).isEqualTo(Duration.ofMillis(700)));
        }
    }

    @Test
    void aProgramIsNotAnApiCall() {
        CommandOutcome o = api(server, DEADLINE).run(SlurmDrain.DEFAULT.query());
        assertThat(o)
                .isInstanceOfSatisfying(
                        CommandOutcome.NotStarted.class,
                        n -> assertThat(n.why()).contains("CommandRunner"));
    }

    private static KubernetesClient client(String url, int requestTimeoutMillis) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withRequestTimeout(requestTimeoutMillis)
                .withConnectionTimeout(2_000)
                .withRequestRetryBackoffLimit(0)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
