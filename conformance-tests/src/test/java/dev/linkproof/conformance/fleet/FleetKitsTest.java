package dev.linkproof.conformance.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.fleet.rendezvous.Launcher;
import dev.linkproof.fleet.rendezvous.LauncherEnvironment;
import dev.linkproof.fleet.rendezvous.Roster;
import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.ProfileProperties;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.agent.AgentMain;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The fleet's Kubernetes launch kit (examples/fleet/kubernetes, docs/fleet.md "Launch kits") agrees
 * with the code it launches: the manifests with each other, with the roster the engine reads from
 * the environment they give, with AgentMain's options and the engine's keys. No cluster is needed:
 * the checks read the tcp-demo overlay as kustomize renders it ({@link KustomizeSubset};
 * KubernetesKitTest checks every overlay launches the same way, and what each gives its pods). The
 * Slurm kit is SlurmKitTest's and SlurmSubmitTest's.
 * Tagged e2e: a test of the product, not of the hardware, so a conformance run leaves it out.
 */
@Tag("e2e")
class FleetKitsTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path KUBERNETES = ROOT.resolve("examples/fleet/kubernetes");
    /** The bundle's launcher in the image (image/Containerfile): the agents run its {@code agent} subcommand. */
    static final String LAUNCHER = "/opt/linkproof/bin/linkproof";

    /** Every object of the tcp-demo overlay as kustomize renders it, by kind and name ("Job/linkproof-agents"). */
    static Map<String, Map<String, Object>> objects;

    @BeforeAll
    static void readManifests() {
        objects = new LinkedHashMap<>();
        List<Map<String, Object>> rendered =
                KustomizeSubset.build(KUBERNETES.resolve("overlays/tcp-demo")).objects();
        assertThat(rendered)
                .as("objects of %s", KUBERNETES.resolve("overlays/tcp-demo"))
                .isNotEmpty();
        for (Map<String, Object> o : rendered) {
            String key =
                    o.get("kind") + "/" + map(o.get("metadata"), "metadata").get("name");
            assertThat(objects.put(key, o)).as("%s defined twice", key).isNull();
        }
    }

    // ---- Kubernetes ----

    @Test
    void theAgentsAreAnIndexedJobOfParallelPodsBehindAHeadlessServiceNamedAsTheirSubdomain() {
        Map<String, Object> job = agentsJob();
        Map<String, Object> spec = map(job.get("spec"), "Job spec");
        assertThat(spec.get("completionMode")).isEqualTo("Indexed");
        assertThat(spec.get("completions")).isInstanceOf(Integer.class);
        assertThat(spec.get("parallelism")).as("every agent at once").isEqualTo(spec.get("completions"));

        Map<String, Object> podSpec = podSpec(job);
        String subdomain = (String) podSpec.get("subdomain");
        Map<String, Object> service = object("Service/" + subdomain);
        Map<String, Object> serviceSpec = map(service.get("spec"), "Service spec");
        assertThat(serviceSpec.get("clusterIP")).as("headless").isEqualTo("None");
        // Without a selector matching the pods, the Service publishes no <pod>.<service> records.
        assertThat(podLabels(job)).containsAllEntriesOf(stringMap(serviceSpec.get("selector")));
        assertThat(podSpec.get("restartPolicy")).isEqualTo("Never");
    }

    @Test
    void theAgentsDialTheCoordinatorServiceAtThePortTheRegistryListensOn() throws Exception {
        ParseResult agent = agentOptions(container(agentsJob()));
        String register = agent.matchedOptionValue("--register", "");
        assertThat(register).as("--register").matches("[^:]+:\\d+");
        String host = register.substring(0, register.lastIndexOf(':'));
        int port = Integer.parseInt(register.substring(register.lastIndexOf(':') + 1));
        assertThat(agent.matchedOptionValue("--port", -1))
                .as("--port 0: a free port")
                .isZero();
        assertThat(Units.parseDuration(agent.matchedOptionValue("--register-within", "120s")))
                .isPositive();

        // The host is the coordinator's Service, which selects the coordinator's pod, not an agent.
        Map<String, Object> coordinatorService = object("Service/" + host);
        Map<String, Object> serviceSpec = map(coordinatorService.get("spec"), "Service spec");
        Map<String, String> selector = stringMap(serviceSpec.get("selector"));
        Map<String, Object> coordinator = coordinatorJob();
        assertThat(podLabels(coordinator)).containsAllEntriesOf(selector);
        assertThat(podLabels(agentsJob()).entrySet().containsAll(selector.entrySet()))
                .as("the coordinator's Service %s selects the agents too", selector)
                .isFalse();
        List<Object> ports = list(serviceSpec.get("ports"), "Service ports");
        assertThat(ports).hasSize(1);
        Map<String, Object> servicePort = map(ports.getFirst(), "port");
        assertThat(servicePort.get("port")).isEqualTo(port);

        Map<String, String> keys = engineKeys(args(container(coordinator)));
        String registry = keys.get(Constants.FLEET_REGISTRY);
        assertThat(registry).as(Constants.FLEET_REGISTRY).isNotNull();
        int listens = Integer.parseInt(registry.substring(registry.lastIndexOf(':') + 1));
        assertThat(servicePort.getOrDefault("targetPort", servicePort.get("port")))
                .isEqualTo(listens);
        assertThat(registry.substring(0, registry.lastIndexOf(':')))
                .as("listening on every address of the pod")
                .isEqualTo("0.0.0.0");
        assertThat(keys.get(Constants.FLEET)).isEqualTo("kubernetes");
        assertThat(Units.parseDuration(keys.get(Constants.FLEET_REGISTER_WITHIN)))
                .isPositive();
    }

    /** With linkproof.fleet.act=kubernetes, a blamed pod's node is labelled and tainted: each agent says which it is. */
    @Test
    void eachAgentSaysWhichKubernetesNodeItRunsOn() {
        Map<String, Object> machine = env(container(agentsJob())).get("LINKPROOF_K8S_NODE_NAME");
        assertThat(machine)
                .as("the agents' LINKPROOF_K8S_NODE_NAME (read by AgentMain --register)")
                .isNotNull();
        Object field = map(map(machine.get("valueFrom"), "valueFrom").get("fieldRef"), "fieldRef")
                .get("fieldPath");
        assertThat(field).isEqualTo("spec.nodeName");
    }

    @Test
    void theCoordinatorAndTheAgentsReadTheTokenFromTheSameSecret() {
        Map<String, Object> agentToken = env(container(agentsJob())).get("LINKPROOF_TOKEN");
        Map<String, Object> coordinatorToken = env(container(coordinatorJob())).get("LINKPROOF_TOKEN");
        assertThat(agentToken).as("the agents' LINKPROOF_TOKEN").isNotNull();
        assertThat(agentToken).as("no token written into a manifest").doesNotContainKey("value");
        Object secretRef = map(agentToken.get("valueFrom"), "valueFrom").get("secretKeyRef");
        assertThat(secretRef).as("from a Secret").isNotNull();
        assertThat(coordinatorToken).isEqualTo(agentToken);
    }

    @Test
    void theLauncherVariablesNameTheJobItsServiceAndItsCompletions() {
        Map<String, Object> job = agentsJob();
        String name = name(job);
        String service = (String) podSpec(job).get("subdomain");
        int completions = (Integer) map(job.get("spec"), "Job spec").get("completions");
        for (Map<String, Object> o : List.of(job, coordinatorJob())) {
            Map<String, String> env = resolvedEnv(container(o), 0);
            assertThat(env)
                    .as("%s's environment", name(o))
                    .containsEntry("LINKPROOF_K8S_JOB", name)
                    .containsEntry("LINKPROOF_K8S_SERVICE", service)
                    .containsEntry("LINKPROOF_K8S_COMPLETIONS", Integer.toString(completions));
        }
    }

    @Test
    void theRosterOfAPodAndOfTheCoordinatorNamesThePodsOfTheJob() {
        Map<String, Object> job = agentsJob();
        String name = name(job);
        int completions = (Integer) map(job.get("spec"), "Job spec").get("completions");
        List<String> pods =
                IntStream.range(0, completions).mapToObj(i -> name + "-" + i).toList();
        String service = (String) podSpec(job).get("subdomain");

        // Pod 2 as Kubernetes starts it: the manifest's variables, JOB_COMPLETION_INDEX, and the
        // hostname an Indexed Job's pod gets, <job>-<index>.
        Map<String, String> pod2 = new LinkedHashMap<>(resolvedEnv(container(job), 2));
        pod2.put("JOB_COMPLETION_INDEX", "2");
        pod2.put("HOSTNAME", name + "-2");
        Roster roster = LauncherEnvironment.roster(Launcher.KUBERNETES, pod2, Optional.empty());
        assertThat(roster.nodes()).isEqualTo(pods);
        assertThat(roster.self()).contains(name + "-2");
        assertThat(roster.address(name + "-2")).isEqualTo(name + "-2." + service);
        // The name the agent registers under is the one the roster expects.
        assertThat(pod2.get(AgentMain.NODE_ENV)).as("$%s", AgentMain.NODE_ENV).isEqualTo(name + "-2");

        // The coordinator is no pod of the Job: the same nodes, none of them itself.
        Roster coordinator = LauncherEnvironment.roster(
                Launcher.KUBERNETES, resolvedEnv(container(coordinatorJob()), -1), Optional.empty());
        assertThat(coordinator.nodes()).isEqualTo(pods);
        assertThat(coordinator.self()).isEmpty();
    }

    @Test
    void theProfileInTheConfigMapLoadsAsAProfileWhereTheCoordinatorLooksForIt(@TempDir Path dir) throws IOException {
        Map<String, Object> coordinator = coordinatorJob();
        String profilePath = engineKeys(args(container(coordinator))).get(Constants.PROFILE);
        assertThat(profilePath).as(Constants.PROFILE).isNotNull().startsWith("/");

        // The volume mounted at the path's directory is the ConfigMap; the file is one of its keys.
        Path path = Path.of(profilePath);
        Map<String, Object> mount = list(container(coordinator).get("volumeMounts"), "volumeMounts").stream()
                .map(m -> map(m, "volumeMount"))
                .filter(m -> Path.of((String) m.get("mountPath")).equals(path.getParent()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume mounted at " + path.getParent()));
        Map<String, Object> volume = list(podSpec(coordinator).get("volumes"), "volumes").stream()
                .map(v -> map(v, "volume"))
                .filter(v -> v.get("name").equals(mount.get("name")))
                .findFirst()
                .orElseThrow();
        String configMap = (String) map(volume.get("configMap"), "volume " + mount.get("name") + ": configMap")
                .get("name");
        Map<String, Object> data = map(object("ConfigMap/" + configMap).get("data"), "ConfigMap data");
        String yaml = (String) data.get(path.getFileName().toString());
        assertThat(yaml)
                .as("ConfigMap %s key %s", configMap, path.getFileName())
                .isNotNull();

        Path file = dir.resolve(path.getFileName().toString());
        Files.writeString(file, yaml);
        LoadedProfile loaded = new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString())).load(() -> {
            throw new AssertionError("a profile named by path needs no probe");
        });
        assertThat(loaded.profile().id()).isEqualTo("fleet-pod-network");
        assertThat(loaded.profile().criteria()).isNotEmpty();
    }

    // ---- helpers ----

    private static Map<String, Object> agentsJob() {
        List<Map<String, Object>> indexed = objects.entrySet().stream()
                .filter(e -> e.getKey().startsWith("Job/"))
                .map(Map.Entry::getValue)
                .filter(j -> "Indexed".equals(map(j.get("spec"), "spec").get("completionMode")))
                .toList();
        assertThat(indexed).as("one Indexed Job").hasSize(1);
        return indexed.getFirst();
    }

    private static Map<String, Object> coordinatorJob() {
        List<Map<String, Object>> others = objects.entrySet().stream()
                .filter(e -> e.getKey().startsWith("Job/"))
                .map(Map.Entry::getValue)
                .filter(j -> j != agentsJob())
                .toList();
        assertThat(others).as("one coordinator Job besides the agents'").hasSize(1);
        return others.getFirst();
    }

    private static Map<String, Object> object(String key) {
        Map<String, Object> o = objects.get(key);
        assertThat(o).as("%s among %s", key, objects.keySet()).isNotNull();
        return o;
    }

    private static String name(Map<String, Object> o) {
        return (String) map(o.get("metadata"), "metadata").get("name");
    }

    private static Map<String, Object> podSpec(Map<String, Object> job) {
        return map(map(map(job.get("spec"), "spec").get("template"), "template").get("spec"), "pod spec");
    }

    private static Map<String, String> podLabels(Map<String, Object> job) {
        return stringMap(map(
                        map(map(job.get("spec"), "spec").get("template"), "template")
                                .get("metadata"),
                        "pod metadata")
                .get("labels"));
    }

    private static Map<String, Object> container(Map<String, Object> job) {
        List<Object> containers = list(podSpec(job).get("containers"), "containers");
        assertThat(containers).as("%s's containers", name(job)).hasSize(1);
        return map(containers.getFirst(), "container");
    }

    private static List<String> args(Map<String, Object> container) {
        return list(container.getOrDefault("args", List.of()), "args").stream()
                .map(String::valueOf)
                .toList();
    }

    /** The agent container's arguments as AgentMain parses them: the command must be the bundle's {@code linkproof agent}. */
    private static ParseResult agentOptions(Map<String, Object> container) {
        List<String> command = list(container.get("command"), "command").stream()
                .map(String::valueOf)
                .toList();
        assertThat(command).isEqualTo(List.of(LAUNCHER, "agent"));
        return new CommandLine(new AgentMain()).parseArgs(args(container).toArray(String[]::new));
    }

    /** The {@code -Dlinkproof.…=value} arguments, each key checked to be one the engine reads (a constant of {@link Constants}). */
    static Map<String, String> engineKeys(List<String> args) {
        Set<String> known = Arrays.stream(Constants.class.getFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
                .map(FleetKitsTest::value)
                .filter(v -> v.startsWith("linkproof."))
                .collect(Collectors.toSet());
        Map<String, String> keys = new LinkedHashMap<>();
        Pattern p = Pattern.compile("-D(linkproof\\.[^=]+)=(.*)");
        for (String a : args) {
            Matcher m = p.matcher(a);
            if (m.matches()) {
                assertThat(known).as("%s is a key the engine reads", m.group(1)).contains(m.group(1));
                keys.put(m.group(1), m.group(2));
            }
        }
        return keys;
    }

    private static String value(Field f) {
        try {
            return String.valueOf(f.get(null));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Map<String, Object>> env(Map<String, Object> container) {
        Map<String, Map<String, Object>> env = new LinkedHashMap<>();
        for (Object e : list(container.get("env"), "env")) {
            Map<String, Object> entry = map(e, "env entry");
            env.put((String) entry.get("name"), entry);
        }
        return env;
    }

    /**
     * The container's environment as Kubernetes gives it to pod {@code index} (-1: not a pod of an
     * Indexed Job): literal values with {@code $(VAR)} expanded from earlier entries, the completion
     * index from the downward API; Secrets are left out.
     */
    private static Map<String, String> resolvedEnv(Map<String, Object> container, int index) {
        Map<String, String> out = new LinkedHashMap<>();
        Pattern ref = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
        env(container).forEach((name, entry) -> {
            if (entry.containsKey("value")) {
                Matcher m = ref.matcher(String.valueOf(entry.get("value")));
                StringBuilder b = new StringBuilder();
                while (m.find()) {
                    String v = out.get(m.group(1));
                    assertThat(v)
                            .as("%s refers to $(%s), which is not set before it", name, m.group(1))
                            .isNotNull();
                    m.appendReplacement(b, Matcher.quoteReplacement(v));
                }
                m.appendTail(b);
                out.put(name, b.toString());
                return;
            }
            Map<String, Object> from = map(entry.get("valueFrom"), name + ": valueFrom");
            if (from.containsKey("fieldRef")) {
                String field = (String) map(from.get("fieldRef"), "fieldRef").get("fieldPath");
                // The downward API fields the kit reads: the pod's completion index, and the node it runs on.
                assertThat(field)
                        .as("%s's field", name)
                        .isIn("metadata.annotations['batch.kubernetes.io/job-completion-index']", "spec.nodeName");
                if (index >= 0) {
                    out.put(name, field.equals("spec.nodeName") ? "k8s-node-" + index : Integer.toString(index));
                }
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String what) {
        assertThat(o).as(what).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o, String what) {
        assertThat(o).as(what).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    private static Map<String, String> stringMap(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        map(o, "a map of strings").forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }
}
