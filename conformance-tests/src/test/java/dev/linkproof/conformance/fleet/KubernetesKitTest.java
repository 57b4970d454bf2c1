package dev.linkproof.conformance.fleet;

import static dev.linkproof.conformance.fleet.KubernetesKitRules.Network.HOST;
import static dev.linkproof.conformance.fleet.KubernetesKitRules.Network.MULTUS;
import static dev.linkproof.conformance.fleet.KubernetesKitRules.Network.POD;
import static dev.linkproof.conformance.fleet.KustomizeSubset.list;
import static dev.linkproof.conformance.fleet.KustomizeSubset.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.fleet.KubernetesKitRules.Network;
import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.ProfileProperties;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every overlay of the Kubernetes kit (examples/fleet/kubernetes), rendered by kustomize's rules
 * ({@link KustomizeSubset}) and checked ({@link KubernetesKitRules}) as docs/fleet.md ("Kubernetes", "Checked in
 * CI") lists; every overlay launches as tcp-demo does, which FleetKitsTest checks against AgentMain, the roster and
 * the engine's keys. Where kubectl is on the PATH, {@code kubectl kustomize} must render each the same. A broken
 * overlay draws the right complaints, so the checks can fail. Tagged e2e, as FleetKitsTest.
 */
@Tag("e2e")
class KubernetesKitTest {
    static final Path KIT = FleetKitsTest.KUBERNETES;
    static final Path ACT = KIT.resolve("components/act");
    /** Each overlay and the network it puts the agents' data path on: an overlay not named here fails the first test. */
    static final Map<String, Network> OVERLAYS = Map.of("tcp-demo", POD, "rdma", MULTUS, "rdma-hostnet", HOST);

    static Stream<String> overlays() {
        return OVERLAYS.keySet().stream().sorted();
    }

    @Test
    void theOverlaysAreTheOnesTheseChecksKnow() throws IOException {
        try (Stream<Path> dirs = Files.list(KIT.resolve("overlays"))) {
            assertThat(dirs.map(d -> d.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(OVERLAYS.keySet());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overlays")
    void everyManifestOfTheOverlayKeepsTheKitsRules(String overlay) {
        KustomizeSubset.Rendered r = KustomizeSubset.build(overlay(overlay));
        assertThat(r.objects())
                .extracting(KubernetesKitRules::name)
                .containsExactlyInAnyOrder(
                        "Job/linkproof-agents",
                        "Service/linkproof-agents",
                        "Job/linkproof-coordinator",
                        "Service/linkproof-coordinator",
                        "ConfigMap/linkproof-profile");
        assertThat(KubernetesKitRules.problems(r, image(overlay), OVERLAYS.get(overlay), false))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0} with act")
    @MethodSource("overlays")
    void withTheActComponentTheCoordinatorAloneMayGetListAndPatchNodes(String overlay, @TempDir Path dir)
            throws IOException {
        KustomizeSubset.Rendered r = KustomizeSubset.build(withAct(overlay, dir));
        assertThat(r.objects())
                .extracting(KubernetesKitRules::name)
                .contains(
                        "ServiceAccount/linkproof-act",
                        "ClusterRole/linkproof-act",
                        "ClusterRoleBinding/linkproof-act");
        assertThat(KubernetesKitRules.problems(r, image(overlay), OVERLAYS.get(overlay), true))
                .isEmpty();
    }

    /** The base names the image only by the knob's name, so an overlay's `images:` sets every container's. */
    @Test
    void theBaseNamesTheImageOnlyByTheKnobsName() throws IOException {
        List<Object> images = new ArrayList<>();
        try (Stream<Path> files = Files.list(KIT.resolve("base"))) {
            for (Path f : files.filter(p -> !p.endsWith("kustomization.yaml")).toList()) {
                for (Map<String, Object> o : KustomizeSubset.documents(Files.readString(f), f.toString())) {
                    if ("Job".equals(o.get("kind"))) {
                        list(KubernetesKitRules.podSpec(o).get("containers"), "containers")
                                .forEach(c -> images.add(map(c, "c").get("image")));
                    }
                }
            }
        }
        assertThat(images).hasSize(2).containsOnly("linkproof");
        for (String overlay : OVERLAYS.keySet()) {
            assertThat(knob(overlay)).as(overlay).containsEntry("name", "linkproof");
        }
    }

    /**
     * An overlay changes what the pods get — resources, devices, security, network, placement, the
     * profile, engine keys added to the coordinator's — never the launch FleetKitsTest checks on
     * tcp-demo: the Services, the Jobs, the pods' names and labels, the containers' commands,
     * arguments, environment, ports and mounts.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("overlays")
    void anOverlayChangesWhatThePodsGetNeverTheLaunch(String overlay) {
        Map<String, Object> demo =
                launch(KustomizeSubset.build(overlay("tcp-demo")).objects());
        Map<String, Object> here =
                launch(KustomizeSubset.build(overlay(overlay)).objects());
        assertThat(here).isEqualTo(demo);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overlays")
    void theProfileInTheOverlaysConfigMapLoads(String overlay, @TempDir Path dir) throws IOException {
        Map<String, Object> configMap = KustomizeSubset.build(overlay(overlay)).objects().stream()
                .filter(o -> "ConfigMap".equals(o.get("kind")))
                .findFirst()
                .orElseThrow();
        Path file = dir.resolve("profile.yaml");
        Files.writeString(
                file, String.valueOf(map(configMap.get("data"), "data").get("profile.yaml")));
        LoadedProfile loaded = new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString())).load(() -> {
            throw new AssertionError("a profile named by path needs no probe");
        });
        assertThat(loaded.profile().id())
                .isEqualTo(OVERLAYS.get(overlay).fabric() ? "fleet-rdma" : "fleet-pod-network");
        assertThat(loaded.profile().criteria()).isNotEmpty();
    }

    /** The subset follows kustomize's rules: kubectl's kustomize renders each overlay, with act and without, the same. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("overlays")
    void kubectlKustomizeRendersEachOverlayAsTheSubsetDoes(String overlay, @TempDir Path dir) throws Exception {
        Optional<Path> kubectl = kubectl();
        assumeTrue(
                kubectl.isPresent(),
                "kubectl is not on the PATH: the overlays were rendered and checked by the subset's rules alone, "
                        + "not compared with kustomize's own rendering");
        for (Path d : List.of(overlay(overlay), withAct(overlay, dir))) {
            assertThat(byId(kustomize(kubectl.get(), d)))
                    .as("kubectl kustomize %s against the subset's rendering", d)
                    .isEqualTo(byId(KustomizeSubset.build(d).objects()));
        }
    }

    // ---- the checks can fail ----

    /** The rdma overlay with each rule broken once, by a patch on top: each draws its complaint. */
    @Test
    void aBrokenOverlayDrawsTheRightComplaints(@TempDir Path dir) throws IOException {
        Path broken = Files.createDirectories(dir.resolve("broken"));
        Files.writeString(broken.resolve("kustomization.yaml"), """
            apiVersion: kustomize.config.k8s.io/v1beta1
            kind: Kustomization
            resources:
              - %s
            patches:
              - target: {kind: Job, name: linkproof-agents}
                patch: |-
                  - op: replace
                    path: /spec/template/spec/containers/0/resources/requests/memory
                    value: 16Gi
                  - op: remove
                    path: /spec/template/spec/containers/0/resources/limits/rdma~1rdma_shared_device_a
                  - op: remove
                    path: /spec/template/spec/containers/0/securityContext/capabilities/add
                  - op: replace
                    path: /spec/template/spec/containers/0/image
                    value: docker.io/someone/else:1
              - target: {kind: Job, name: linkproof-coordinator}
                patch: |-
                  - op: add
                    path: /spec/template/spec/containers/0/securityContext/privileged
                    value: true
                  - op: replace
                    path: /spec/template/spec/containers/0/command
                    value: [bash, -c, "cd /linkproof && mvn -B test"]
                  - op: add
                    path: /spec/template/spec/serviceAccountName
                    value: cluster-admin-sa
              - target: {kind: Job, name: linkproof-agent}
                patch: |-
                  - op: add
                    path: /spec/template/spec/hostNetwork
                    value: true
            """.formatted(relative(broken, overlay("rdma"))));
        List<String> problems =
                KubernetesKitRules.problems(KustomizeSubset.build(broken), image("rdma"), MULTUS, false);
        assertThat(problems)
                .containsExactlyInAnyOrder(
                        "a patch selects nothing: " + broken.resolve("kustomization.yaml")
                                + ": inline patch (target {kind=Job, name=linkproof-agent})",
                        "Job/linkproof-agents container agent: requests.memory 16Gi is not limits.memory 32Gi"
                                + " (requests = limits: a Guaranteed pod)",
                        "Job/linkproof-agents container agent: image docker.io/someone/else:1 is not the overlay's"
                                + " images knob, "
                                + image("rdma"),
                        "Job/linkproof-agents container agent: no RDMA device-plugin resource in its limits (e.g."
                                + " rdma/rdma_shared_device_a)",
                        "Job/linkproof-agents container agent: does not add IPC_LOCK (memory registration pins pages)",
                        "Job/linkproof-agents container agent: may run as root (runAsNonRoot false, runAsUser 0)"
                                + " though it needs no IPC_LOCK",
                        "Job/linkproof-coordinator container coordinator: privileged",
                        "Job/linkproof-coordinator container coordinator: its command runs mvn (the image has the"
                                + " bundle; no Maven, no kubectl)",
                        "Job/linkproof-coordinator container coordinator: its command does not run the bundle's"
                                + " /opt/linkproof/bin/linkproof",
                        "Job/linkproof-coordinator: runs as ServiceAccount cluster-admin-sa without the act component");

        // The pod network's overlay with the fabric's agents: a demo that is not one.
        assertThat(KubernetesKitRules.problems(
                        KustomizeSubset.build(overlay("rdma-hostnet")), image("rdma-hostnet"), POD, false))
                .contains(
                        "Job/linkproof-agents: the pod-network overlay uses hostNetwork",
                        "Job/linkproof-agents container agent: the pod-network overlay adds IPC_LOCK",
                        "Job/linkproof-coordinator container coordinator: the pod-network overlay runs the pairs over"
                                + " verbs");
        // The Multus overlay named as the host-network one, and a build without RBAC named as acting.
        assertThat(KubernetesKitRules.problems(KustomizeSubset.build(overlay("rdma")), image("rdma"), HOST, true))
                .contains(
                        "Job/linkproof-agents: the host-network overlay's agents are not on hostNetwork",
                        "Job/linkproof-agents: a Multus annotation on the host-network overlay",
                        "the act component is not one ServiceAccount, one ClusterRole and one ClusterRoleBinding: []");
    }

    /** The act component widened to every resource and verb, and bound to another account: refused. */
    @Test
    void anActComponentThatGrantsMoreIsRefused(@TempDir Path dir) throws IOException {
        Path wider = Files.createDirectories(dir.resolve("wider"));
        Files.writeString(wider.resolve("kustomization.yaml"), """
            resources:
              - %s
            components:
              - %s
            namespace: linkproof
            patches:
              - target: {kind: ClusterRole, name: linkproof-act}
                patch: |-
                  - op: add
                    path: /rules/0/verbs/-
                    value: delete
              - target: {kind: ClusterRoleBinding}
                patch: |-
                  - op: add
                    path: /subjects/-
                    value: {kind: ServiceAccount, name: default, namespace: kube-system}
            """.formatted(
                        relative(wider, overlay("tcp-demo")), relative(wider, ACT)));
        assertThat(KubernetesKitRules.problems(KustomizeSubset.build(wider), image("tcp-demo"), POD, true))
                .containsExactlyInAnyOrder(
                        "ClusterRole/linkproof-act: grants [{apiGroups=[], resources=[nodes], verbs=[get, list, patch,"
                                + " delete]}], not exactly nodes get, list, patch",
                        "ClusterRoleBinding/linkproof-act: subjects [{kind=ServiceAccount, name=linkproof-act,"
                            + " namespace=linkproof}, {kind=ServiceAccount, name=default, namespace=kube-system}], not"
                            + " exactly {kind=ServiceAccount, name=linkproof-act, namespace=linkproof}");
    }

    /** A kustomization beyond the subset is refused with its file named, never rendered some other way. */
    @Test
    void aKustomizationOutsideTheSubsetIsRefused(@TempDir Path dir) throws IOException {
        Path prefix = Files.createDirectories(dir.resolve("prefix"));
        Files.writeString(
                prefix.resolve("kustomization.yaml"),
                "resources:\n  - " + relative(prefix, overlay("tcp-demo")) + "\nnamePrefix: x-\n");
        assertThatThrownBy(() -> KustomizeSubset.build(prefix))
                .isInstanceOf(KustomizeSubset.OutsideSubset.class)
                .hasMessageStartingWith(prefix.resolve("kustomization.yaml")
                        + ": 'namePrefix' is outside the kustomize subset the kit keeps to");

        Path merge = Files.createDirectories(dir.resolve("merge"));
        Files.writeString(
                merge.resolve("kustomization.yaml"),
                "resources:\n  - " + relative(merge, overlay("tcp-demo")) + "\npatches:\n" + "  - path: agents.yaml\n");
        Files.writeString(
                merge.resolve("agents.yaml"),
                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: linkproof-agents\nspec:\n  parallelism: 2\n");
        assertThatThrownBy(() -> KustomizeSubset.build(merge))
                .isInstanceOf(KustomizeSubset.OutsideSubset.class)
                .hasMessage(merge.resolve("agents.yaml")
                        + ": not a list of JSON 6902 operations (a strategic-merge patch is outside the subset)");
    }

    /** The comparison with kubectl's rendering is no formality: two renderings that differ do not compare equal. */
    @Test
    void renderingsThatDifferDoNotCompareEqual() {
        Map<String, Map<String, Object>> demo =
                byId(KustomizeSubset.build(overlay("tcp-demo")).objects());
        Map<String, Map<String, Object>> rdma =
                byId(KustomizeSubset.build(overlay("rdma")).objects());
        assertThat(rdma.keySet()).isEqualTo(demo.keySet());
        assertThat(rdma).isNotEqualTo(demo);
    }

    // ---- helpers ----

    static Path overlay(String name) {
        return KIT.resolve("overlays").resolve(name);
    }

    /** The overlay's images knob, as the containers' image renders from it. */
    static String image(String overlay) {
        Map<String, Object> knob = knob(overlay);
        return knob.get("newName") + ":" + knob.get("newTag");
    }

    private static Map<String, Object> knob(String overlay) {
        try {
            Map<String, Object> k = KustomizeSubset.documents(
                            Files.readString(overlay(overlay).resolve("kustomization.yaml")), overlay)
                    .getFirst();
            List<Object> images = list(k.get("images"), overlay + ": images");
            assertThat(images).as("%s: one image knob", overlay).hasSize(1);
            return map(images.getFirst(), "image");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The overlay with the act component on top, as a user's own kustomization would put it (kustomize
     * loads directories only by relative paths): its objects in the overlay's namespace.
     */
    static Path withAct(String overlay, Path dir) throws IOException {
        Path k = Files.createDirectories(dir.resolve(overlay + "-act"));
        String namespace = String.valueOf(
                KustomizeSubset.documents(Files.readString(overlay(overlay).resolve("kustomization.yaml")), overlay)
                        .getFirst()
                        .get("namespace"));
        Files.writeString(
                k.resolve("kustomization.yaml"),
                "resources:\n  - " + relative(k, overlay(overlay)) + "\ncomponents:\n  - " + relative(k, ACT)
                        + "\nnamespace: " + namespace + "\n");
        return k;
    }

    private static String relative(Path from, Path to) {
        return from.toAbsolutePath()
                .normalize()
                .relativize(to.toAbsolutePath().normalize())
                .toString();
    }

    /**
     * What an overlay must not change: every object's identity; the Services whole; each Job's spec
     * but its pod template; of the pods, their labels, subdomain, restart policy and affinity; of
     * their containers, name, command, environment, ports, mounts and arguments (of the coordinator's,
     * those tcp-demo has, in order, the engine keys an overlay adds left out).
     */
    private static Map<String, Object> launch(List<Map<String, Object>> objects) {
        Map<String, Object> launch = new TreeMap<>();
        for (Map<String, Object> o : objects) {
            String name = KubernetesKitRules.name(o);
            switch (String.valueOf(o.get("kind"))) {
                case "Service" -> launch.put(name, o);
                case "Job" -> {
                    Map<String, Object> spec = new LinkedHashMap<>(map(o.get("spec"), "spec"));
                    Map<String, Object> template = map(spec.remove("template"), "template");
                    Map<String, Object> pod = map(template.get("spec"), "pod spec");
                    launch.put(name, spec);
                    launch.put(
                            name + " pod",
                            Map.of(
                                    "labels",
                                    map(template.get("metadata"), "metadata").get("labels"),
                                    "subdomain",
                                    String.valueOf(pod.get("subdomain")),
                                    "restartPolicy",
                                    pod.get("restartPolicy"),
                                    "affinity",
                                    String.valueOf(pod.get("affinity"))));
                    for (Object c : list(pod.get("containers"), "containers")) {
                        Map<String, Object> container = map(c, "container");
                        List<Object> args = new ArrayList<>(list(container.get("args"), "args"));
                        if (name.equals("Job/linkproof-coordinator")) {
                            args.removeIf(
                                    a -> List.of(KubernetesKitRules.VERBS_KEY).contains(a));
                        }
                        Map<String, Object> kept = new LinkedHashMap<>();
                        for (String field : List.of("name", "command", "env", "ports", "volumeMounts")) {
                            kept.put(field, String.valueOf(container.get(field)));
                        }
                        kept.put("args", args);
                        launch.put(name + " container " + container.get("name"), kept);
                    }
                }
                default -> launch.put(name, "present");
            }
        }
        return launch;
    }

    private static Map<String, Map<String, Object>> byId(List<Map<String, Object>> objects) {
        Map<String, Map<String, Object>> byId = new TreeMap<>();
        objects.forEach(o -> assertThat(byId.put(KustomizeSubset.id(o), o))
                .as("%s twice", KustomizeSubset.id(o))
                .isNull());
        return byId;
    }

    static Optional<Path> kubectl() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d).resolve("kubectl");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** {@code kubectl kustomize DIR}: the objects kustomize itself renders. */
    private static List<Map<String, Object>> kustomize(Path kubectl, Path dir) throws Exception {
        Path err = Files.createTempFile("kustomize", ".err");
        try {
            Process p = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString())
                    .redirectError(err.toFile())
                    .start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS))
                    .as("kubectl kustomize %s ends", dir)
                    .isTrue();
            assertThat(p.exitValue())
                    .as("kubectl kustomize %s: %s", dir, Files.readString(err))
                    .isZero();
            return KustomizeSubset.documents(out, "kubectl kustomize " + dir);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
