package dev.linkproof.conformance.fleet;

import static dev.linkproof.conformance.fleet.KustomizeSubset.list;
import static dev.linkproof.conformance.fleet.KustomizeSubset.map;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What every rendered overlay of the Kubernetes kit must be (issue 32, item 5), as a list of
 * complaints — empty when the overlay is right — so a test can also feed it a broken overlay and
 * expect the right one. Each complaint names the object and container.
 */
final class KubernetesKitRules {
    /** The network an overlay puts the agents' data path on. */
    enum Network {
        /** tcp over the pod network: no devices, no capabilities, no host or secondary network. */
        POD,
        /** RDMA on a secondary network of the pod: the Multus annotation. */
        MULTUS,
        /** RDMA on the node's own network: hostNetwork. */
        HOST;

        boolean fabric() {
            return this != POD;
        }
    }

    static final String LAUNCHER = FleetKitsTest.LAUNCHER;
    static final String MULTUS_ANNOTATION = "k8s.v1.cni.cncf.io/networks";
    static final Set<String> GPUS = Set.of("nvidia.com/gpu", "amd.com/gpu");
    static final Set<String> RBAC =
            Set.of("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
    static final String ACT_KEY = "-Dlinkproof.fleet.act=kubernetes";
    static final String VERBS_KEY = "-Dlinkproof.transport=verbs";
    private static final Pattern WORDS = Pattern.compile("[\\s;|&()<>\"'`$=]+");

    private final List<String> problems = new ArrayList<>();

    private KubernetesKitRules() {}

    /**
     * @param image  the overlay's images knob as it renders ({@code newName:newTag}): every container's image
     * @param acting whether the act component is part of the build
     */
    static List<String> problems(KustomizeSubset.Rendered rendered, String image, Network network, boolean acting) {
        KubernetesKitRules r = new KubernetesKitRules();
        r.check(rendered, image, network, acting);
        return List.copyOf(r.problems);
    }

    private void complain(String problem) {
        problems.add(problem);
    }

    private void check(KustomizeSubset.Rendered rendered, String image, Network network, boolean acting) {
        rendered.unmatched().forEach(p -> complain("a patch selects nothing: " + p));
        List<Map<String, Object>> objects = rendered.objects();
        Set<String> namespaces = new LinkedHashSet<>();
        for (Map<String, Object> o : objects) {
            if (o.get("apiVersion") == null || o.get("kind") == null) {
                complain(name(o) + ": no apiVersion or kind");
            }
            if (!KustomizeSubset.CLUSTER_SCOPED.contains(String.valueOf(o.get("kind")))) {
                namespaces.add(String.valueOf(map(o.get("metadata"), "metadata").get("namespace")));
            }
        }
        if (namespaces.size() != 1 || namespaces.contains("null")) {
            complain("the namespaced objects are not all in one namespace the overlay sets: " + namespaces);
        }
        List<Map<String, Object>> jobs =
                objects.stream().filter(o -> "Job".equals(o.get("kind"))).toList();
        Map<String, Object> agents = jobs.stream()
                .filter(j -> "Indexed".equals(map(j.get("spec"), "spec").get("completionMode")))
                .findFirst()
                .orElse(null);
        Map<String, Object> coordinator =
                jobs.stream().filter(j -> j != agents).findFirst().orElse(null);
        if (agents == null || coordinator == null || jobs.size() != 2) {
            complain("not one agents' Indexed Job and one coordinator Job: "
                    + jobs.stream().map(KubernetesKitRules::name).toList());
            return;
        }
        for (Map<String, Object> job : jobs) {
            pod(job, image);
        }
        agents(agents, network);
        coordinator(coordinator, network);
        rbac(objects, agents, coordinator, acting);
    }

    /** What holds for every pod and container: Guaranteed, the bundle from the image knob, hardened. */
    private void pod(Map<String, Object> job, String image) {
        Map<String, Object> spec = podSpec(job);
        for (String host : List.of("hostPID", "hostIPC")) {
            if (Boolean.TRUE.equals(spec.get(host))) {
                complain(name(job) + ": " + host);
            }
        }
        for (Object v : list(spec.get("volumes"), "volumes")) {
            if (map(v, "volume").containsKey("hostPath")) {
                complain(name(job) + ": volume " + map(v, "volume").get("name") + " mounts a hostPath");
            }
        }
        List<Object> all = new ArrayList<>(list(spec.get("containers"), "containers"));
        all.addAll(list(spec.get("initContainers"), "initContainers"));
        for (Object c : all) {
            Map<String, Object> container = map(c, "container");
            String where = name(job) + " container " + container.get("name");
            resources(where, container);
            if (!Objects.equals(image, container.get("image"))) {
                complain(where + ": image " + container.get("image") + " is not the overlay's images knob, " + image);
            }
            List<String> words = new ArrayList<>();
            for (String field : List.of("command", "args")) {
                for (Object w : list(container.get(field), field)) {
                    words.addAll(List.of(WORDS.split(String.valueOf(w))));
                }
            }
            for (String w : words) {
                String base = w.substring(w.lastIndexOf('/') + 1);
                if (Set.of("mvn", "mvnw", "kubectl").contains(base)) {
                    complain(
                            where + ": its command runs " + base + " (the image has the bundle; no Maven, no kubectl)");
                }
            }
            if (list(container.get("command"), "command").stream()
                    .map(String::valueOf)
                    .noneMatch(w -> w.contains(LAUNCHER))) {
                complain(where + ": its command does not run the bundle's " + LAUNCHER);
            }
            security(where, spec, container);
        }
    }

    private void resources(String where, Map<String, Object> container) {
        Map<String, Object> resources =
                container.get("resources") == null ? Map.of() : map(container.get("resources"), "resources");
        Map<String, Object> requests =
                resources.get("requests") == null ? Map.of() : map(resources.get("requests"), "requests");
        Map<String, Object> limits =
                resources.get("limits") == null ? Map.of() : map(resources.get("limits"), "limits");
        for (String r : List.of("cpu", "memory")) {
            if (requests.get(r) == null || limits.get(r) == null) {
                complain(where + ": no " + r + " request and limit (requests = limits, set: a Guaranteed pod)");
            } else if (!String.valueOf(requests.get(r)).equals(String.valueOf(limits.get(r)))) {
                complain(where + ": requests." + r + " " + requests.get(r) + " is not limits." + r + " " + limits.get(r)
                        + " (requests = limits: a Guaranteed pod)");
            }
        }
        for (Map.Entry<String, Object> e : requests.entrySet()) {
            // Anything else requested (a device plugin's resource) must be its limit, as Kubernetes requires.
            if (!List.of("cpu", "memory").contains(e.getKey())
                    && !String.valueOf(e.getValue()).equals(String.valueOf(limits.get(e.getKey())))) {
                complain(where + ": requests." + e.getKey() + " " + e.getValue() + " is not limits." + e.getKey() + " "
                        + limits.get(e.getKey()));
            }
        }
    }

    private void security(String where, Map<String, Object> pod, Map<String, Object> container) {
        Map<String, Object> podSc =
                pod.get("securityContext") == null ? Map.of() : map(pod.get("securityContext"), "securityContext");
        Map<String, Object> sc = container.get("securityContext") == null
                ? Map.of()
                : map(container.get("securityContext"), "securityContext");
        if (Boolean.TRUE.equals(sc.get("privileged"))) {
            complain(where + ": privileged");
        }
        if (!Boolean.FALSE.equals(sc.get("allowPrivilegeEscalation"))) {
            complain(where + ": allowPrivilegeEscalation is not false");
        }
        Map<String, Object> caps =
                sc.get("capabilities") == null ? Map.of() : map(sc.get("capabilities"), "capabilities");
        if (!list(caps.get("drop"), "drop").contains("ALL")) {
            complain(where + ": does not drop ALL capabilities");
        }
        Set<Object> added = new LinkedHashSet<>(list(caps.get("add"), "add"));
        added.remove("IPC_LOCK");
        if (!added.isEmpty()) {
            complain(where + ": adds " + added + " (IPC_LOCK is the one capability the kit adds)");
        }
        boolean ipcLock = list(caps.get("add"), "add").contains("IPC_LOCK");
        Object nonRoot = sc.containsKey("runAsNonRoot") ? sc.get("runAsNonRoot") : podSc.get("runAsNonRoot");
        Object user = sc.containsKey("runAsUser") ? sc.get("runAsUser") : podSc.get("runAsUser");
        boolean root = !Boolean.TRUE.equals(nonRoot) || Integer.valueOf(0).equals(user);
        if (root && !ipcLock) {
            complain(where + ": may run as root (runAsNonRoot " + nonRoot + ", runAsUser " + user
                    + ") though it needs no IPC_LOCK");
        }
    }

    private void agents(Map<String, Object> job, Network network) {
        Map<String, Object> spec = podSpec(job);
        Map<String, Object> container =
                map(list(spec.get("containers"), "containers").getFirst(), "container");
        String where = name(job) + " container " + container.get("name");
        Map<String, Object> limits = limits(container);
        List<String> gpus = limits.keySet().stream()
                .filter(GPUS::contains)
                .filter(k -> positive(limits.get(k)))
                .toList();
        List<String> devices = limits.keySet().stream()
                .filter(k -> k.contains("/") && !GPUS.contains(k) && !k.startsWith("hugepages-"))
                .filter(k -> positive(limits.get(k)))
                .toList();
        boolean ipcLock = capabilities(container).contains("IPC_LOCK");
        boolean hostNetwork = Boolean.TRUE.equals(spec.get("hostNetwork"));
        Object multus = annotations(job).get(MULTUS_ANNOTATION);
        if (network.fabric()) {
            if (devices.isEmpty()) {
                complain(where + ": no RDMA device-plugin resource in its limits (e.g. rdma/rdma_shared_device_a)");
            }
            if (gpus.isEmpty()) {
                complain(where + ": no GPUs in its limits ("
                        + String.join(" or ", GPUS.stream().sorted().toList()) + ")");
            }
            if (!ipcLock) {
                complain(where + ": does not add IPC_LOCK (memory registration pins pages)");
            }
        } else {
            if (!devices.isEmpty() || !gpus.isEmpty()) {
                complain(where + ": the pod-network overlay asks for devices " + devices + gpus);
            }
            if (ipcLock) {
                complain(where + ": the pod-network overlay adds IPC_LOCK");
            }
        }
        switch (network) {
            case MULTUS -> {
                if (multus == null || String.valueOf(multus).isBlank()) {
                    complain(name(job) + ": no Multus network annotation (" + MULTUS_ANNOTATION
                            + ") on the agents' pods");
                }
                if (hostNetwork) {
                    complain(name(job) + ": hostNetwork on the Multus overlay");
                }
            }
            case HOST -> {
                if (!hostNetwork) {
                    complain(name(job) + ": the host-network overlay's agents are not on hostNetwork");
                }
                if (!"ClusterFirstWithHostNet".equals(spec.get("dnsPolicy"))) {
                    complain(name(job)
                            + ": hostNetwork without dnsPolicy ClusterFirstWithHostNet (the coordinator's"
                            + " Service would not resolve)");
                }
                if (multus != null) {
                    complain(name(job) + ": a Multus annotation on the host-network overlay");
                }
            }
            case POD -> {
                if (hostNetwork || multus != null) {
                    complain(name(job) + ": the pod-network overlay uses "
                            + (hostNetwork ? "hostNetwork" : "a Multus network"));
                }
            }
        }
    }

    private void coordinator(Map<String, Object> job, Network network) {
        Map<String, Object> spec = podSpec(job);
        Map<String, Object> container =
                map(list(spec.get("containers"), "containers").getFirst(), "container");
        String where = name(job) + " container " + container.get("name");
        if (limits(container).keySet().stream().anyMatch(k -> k.contains("/"))) {
            complain(where + ": the coordinator asks for devices: "
                    + limits(container).keySet());
        }
        if (Boolean.TRUE.equals(spec.get("hostNetwork"))) {
            complain(name(job) + ": the coordinator is on hostNetwork");
        }
        boolean verbs = list(container.get("args"), "args").contains(VERBS_KEY);
        if (network.fabric() != verbs) {
            complain(where + ": "
                    + (network.fabric()
                            ? "the fabric overlay does not run the pairs over verbs (" + VERBS_KEY + ")"
                            : "the pod-network overlay runs the pairs over verbs"));
        }
    }

    /** The act component's RBAC, and the coordinator's identity with it and without. */
    private void rbac(
            List<Map<String, Object>> objects,
            Map<String, Object> agents,
            Map<String, Object> coordinator,
            boolean acting) {
        List<Map<String, Object>> rbac = objects.stream()
                .filter(o -> RBAC.contains(String.valueOf(o.get("kind"))))
                .toList();
        Map<String, Object> coordinatorPod = podSpec(coordinator);
        List<Object> args = list(
                map(list(coordinatorPod.get("containers"), "containers").getFirst(), "container")
                        .get("args"),
                "args");
        for (Map<String, Object> job : List.of(agents, coordinator)) {
            boolean acts = acting && job == coordinator;
            Map<String, Object> pod = podSpec(job);
            if (!Objects.equals(acts, pod.get("automountServiceAccountToken"))) {
                complain(name(job) + ": automountServiceAccountToken is " + pod.get("automountServiceAccountToken")
                        + ", not " + acts
                        + (acts
                                ? " (the act component's token)"
                                : " (only the acting coordinator calls the API server)"));
            }
            if (!acts && pod.get("serviceAccountName") != null) {
                complain(name(job) + ": runs as ServiceAccount " + pod.get("serviceAccountName")
                        + (acting ? "" : " without the act component"));
            }
        }
        if (!acting) {
            if (!rbac.isEmpty()) {
                complain("RBAC objects without the act component: "
                        + rbac.stream().map(KubernetesKitRules::name).toList());
            }
            if (args.contains(ACT_KEY)) {
                complain(name(coordinator) + ": acts (" + ACT_KEY + ") without the act component's ServiceAccount");
            }
            return;
        }
        List<Map<String, Object>> accounts = of(rbac, "ServiceAccount");
        List<Map<String, Object>> roles = of(rbac, "ClusterRole");
        List<Map<String, Object>> bindings = of(rbac, "ClusterRoleBinding");
        if (accounts.size() != 1 || roles.size() != 1 || bindings.size() != 1 || rbac.size() != 3) {
            complain("the act component is not one ServiceAccount, one ClusterRole and one ClusterRoleBinding: "
                    + rbac.stream().map(KubernetesKitRules::name).toList());
            return;
        }
        String account = metaName(accounts.getFirst());
        String namespace = String.valueOf(
                map(accounts.getFirst().get("metadata"), "metadata").get("namespace"));
        List<Object> rules = list(roles.getFirst().get("rules"), "rules");
        boolean exact = rules.size() == 1
                && Objects.equals(map(rules.getFirst(), "rule").get("apiGroups"), List.of(""))
                && Objects.equals(map(rules.getFirst(), "rule").get("resources"), List.of("nodes"))
                && Set.copyOf(list(map(rules.getFirst(), "rule").get("verbs"), "verbs"))
                        .equals(Set.of("get", "list", "patch"))
                && list(map(rules.getFirst(), "rule").get("verbs"), "verbs").size() == 3
                && map(rules.getFirst(), "rule").keySet().equals(Set.of("apiGroups", "resources", "verbs"));
        if (!exact) {
            complain(name(roles.getFirst()) + ": grants " + rules + ", not exactly nodes get, list, patch");
        }
        Map<String, Object> binding = bindings.getFirst();
        Map<String, Object> ref = map(binding.get("roleRef"), "roleRef");
        if (!"ClusterRole".equals(ref.get("kind"))
                || !metaName(roles.getFirst()).equals(ref.get("name"))) {
            complain(name(binding) + ": binds " + ref + ", not the act ClusterRole " + metaName(roles.getFirst()));
        }
        Map<String, Object> subject = new java.util.LinkedHashMap<>();
        subject.put("kind", "ServiceAccount");
        subject.put("name", account);
        subject.put("namespace", namespace);
        if (!List.of(subject).equals(list(binding.get("subjects"), "subjects"))) {
            complain(name(binding) + ": subjects " + binding.get("subjects") + ", not exactly " + subject);
        }
        if (!account.equals(coordinatorPod.get("serviceAccountName"))) {
            complain(name(coordinator) + ": runs as ServiceAccount " + coordinatorPod.get("serviceAccountName")
                    + ", not the act component's " + account);
        }
        if (!args.contains(ACT_KEY)) {
            complain(name(coordinator) + ": has the act component's ServiceAccount but does not act (" + ACT_KEY + ")");
        }
    }

    private static List<Map<String, Object>> of(List<Map<String, Object>> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    private static boolean positive(Object quantity) {
        try {
            return Long.parseLong(String.valueOf(quantity)) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Map<String, Object> limits(Map<String, Object> container) {
        Map<String, Object> resources =
                container.get("resources") == null ? Map.of() : map(container.get("resources"), "resources");
        return resources.get("limits") == null ? Map.of() : map(resources.get("limits"), "limits");
    }

    private static List<Object> capabilities(Map<String, Object> container) {
        Map<String, Object> sc = container.get("securityContext") == null
                ? Map.of()
                : map(container.get("securityContext"), "securityContext");
        Map<String, Object> caps =
                sc.get("capabilities") == null ? Map.of() : map(sc.get("capabilities"), "capabilities");
        return list(caps.get("add"), "add");
    }

    private static Map<String, Object> annotations(Map<String, Object> job) {
        Map<String, Object> meta = map(
                map(map(job.get("spec"), "spec").get("template"), "template").get("metadata"), "pod metadata");
        return meta.get("annotations") == null ? Map.of() : map(meta.get("annotations"), "annotations");
    }

    static Map<String, Object> podSpec(Map<String, Object> job) {
        return map(map(map(job.get("spec"), "spec").get("template"), "template").get("spec"), "pod spec");
    }

    private static String metaName(Map<String, Object> o) {
        return String.valueOf(map(o.get("metadata"), "metadata").get("name"));
    }

    static String name(Map<String, Object> o) {
        return o.get("kind") + "/" + (o.get("metadata") instanceof Map<?, ?> m ? m.get("name") : "?");
    }
}
