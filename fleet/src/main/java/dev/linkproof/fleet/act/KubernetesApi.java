package dev.linkproof.fleet.act;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Carries out {@link KubernetesMark}'s commands through the API server with fabric8's client, no kubectl: in a pod
 * as its ServiceAccount, elsewhere as {@code ~/.kube/config}'s current context. Every edit reads the node
 * ({@code get}) and writes only what changes as a JSON patch guarded by the resourceVersion it read ({@code patch}),
 * reading again when the node changed in between, as kubectl does; the marks are listed with a label selector
 * ({@code list}). So the coordinator's account needs exactly get, list and patch on nodes (the kit's act component).
 * Each call ends as a {@link CommandOutcome}: {@code Refused} with the HTTP status (403 names the missing RBAC verb,
 * 404 the missing node), {@code NotStarted} or {@code TimedOut}.
 */
public final class KubernetesApi implements Runner, AutoCloseable {
    /** How often a taint is read and patched again when the node changed between the two. */
    static final int ATTEMPTS = 3;

    private final Supplier<KubernetesClient> clients;
    private final Duration deadline;
    private final ExecutorService calls = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("linkproof-kubernetes-", 0).factory());
    private KubernetesClient client;

    /**
     * @param clients  makes the client on the first command (the API server is not contacted before
     *                 there is something to do); closed with this
     * @param deadline how long one command may take, its reads, patches and retries together
     */
    public KubernetesApi(Supplier<KubernetesClient> clients, Duration deadline) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a deadline must be positive, not " + deadline);
        }
        this.clients = clients;
        this.deadline = deadline;
    }

    /**
     * The client as the coordinator uses it: configured from the pod's ServiceAccount or ~/.kube/config, each
     * request under {@code deadline}.
     */
    public static KubernetesClient defaultClient(Duration deadline) {
        int ms = (int) Math.min(Integer.MAX_VALUE, deadline.toMillis());
        Config config = new ConfigBuilder(Config.autoConfigure(null))
                .withRequestTimeout(ms)
                .withConnectionTimeout(Math.min(ms, 10_000))
                // The client's own retries would outlast the deadline: one, then the outcome says what happened.
                .withRequestRetryBackoffLimit(1)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public CommandOutcome run(Command c) {
        if (c.edit() == null) {
            return new CommandOutcome.NotStarted(c, "a program, not a Kubernetes API call: CommandRunner runs it");
        }
        KubernetesClient k;
        try {
            k = client();
        } catch (RuntimeException e) {
            return new CommandOutcome.NotStarted(
                    c,
                    "no Kubernetes client: " + message(e)
                            + " (in a pod the ServiceAccount is used; elsewhere ~/.kube/config or $KUBECONFIG)");
        }
        Future<String> call = calls.submit(() -> apply(k, c.node(), c.edit()));
        try {
            return new CommandOutcome.Succeeded(c, call.get(deadline.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            call.cancel(true);
            return new CommandOutcome.TimedOut(c, deadline, "");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return new CommandOutcome.TimedOut(c, deadline, "");
        } catch (ExecutionException e) {
            return failed(c, e.getCause(), k);
        }
    }

    private synchronized KubernetesClient client() {
        if (client == null) {
            client = Objects.requireNonNull(clients.get(), "the client supplier gave none");
        }
        return client;
    }

    /** The edit, done; what kubectl would have printed for it. */
    private static String apply(KubernetesClient k, String node, NodeEdit edit) {
        return switch (edit) {
            case NodeEdit.Label l ->
                editNode(k, node, n -> {
                            Map<String, String> labels = n.getMetadata().getLabels();
                            if (labels != null && l.value().equals(labels.get(l.key()))) {
                                return List.of();
                            }
                            return List.of(
                                    labels == null
                                            ? op("add", "/metadata/labels", Map.of(l.key(), l.value()))
                                            : op("add", "/metadata/labels/" + pointer(l.key()), l.value()));
                        })
                        ? "node/" + node + " labeled"
                        : "node/" + node + " already labeled " + l.key() + "=" + l.value();
            case NodeEdit.Unlabel u ->
                editNode(k, node, n -> {
                            Map<String, String> labels = n.getMetadata().getLabels();
                            return labels == null || !labels.containsKey(u.key())
                                    ? List.of()
                                    : List.of(op("remove", "/metadata/labels/" + pointer(u.key()), null));
                        })
                        ? "node/" + node + " unlabeled"
                        : "node/" + node + " has no label " + u.key();
            case NodeEdit.Taint t ->
                editNode(
                                k,
                                node,
                                n -> taints(
                                        n,
                                        t.key(),
                                        t.effect(),
                                        new TaintBuilder()
                                                .withKey(t.key())
                                                .withValue(t.value())
                                                .withEffect(t.effect())
                                                .build()))
                        ? "node/" + node + " tainted"
                        : "node/" + node + " already tainted " + t.key() + "=" + t.value() + ":" + t.effect();
            case NodeEdit.Untaint u ->
                editNode(k, node, n -> taints(n, u.key(), u.effect(), null))
                        ? "node/" + node + " untainted"
                        : "node/" + node + " has no taint " + u.key() + ":" + u.effect();
            case NodeEdit.ListLabelled l ->
                call(
                                "list",
                                "nodes labelled " + l.key(),
                                () -> k.nodes().withLabel(l.key()).list())
                        .getItems()
                        .stream()
                        .map(n -> n.getMetadata().getName() + " "
                                + n.getMetadata().getLabels().get(l.key()))
                        .collect(Collectors.joining("\n"));
        };
    }

    /**
     * Reads the node ({@code get}), works out the JSON patch operations the edit needs (none: the node
     * is as it should be already) and applies them ({@code patch}) behind a test of the resourceVersion
     * read, so nothing another controller wrote in between is lost: on a conflict the node is read
     * again, at most {@link #ATTEMPTS} times.
     *
     * @return whether the node was patched
     */
    private static boolean editNode(KubernetesClient k, String node, Function<Node, List<Map<String, Object>>> edit) {
        Resource<Node> r = k.nodes().withName(node);
        for (int attempt = 1; ; attempt++) {
            Node n = call("get", "node " + node, r::get);
            if (n == null) {
                throw new ApiCallFailed(
                        "get",
                        "node " + node,
                        new KubernetesClientException("nodes \"" + node + "\" not found", 404, null));
            }
            List<Map<String, Object>> ops = edit.apply(n);
            if (ops.isEmpty()) {
                return false;
            }
            List<Map<String, Object>> guarded = new ArrayList<>();
            String version = n.getMetadata().getResourceVersion();
            if (version != null) {
                guarded.add(op("test", "/metadata/resourceVersion", version));
            }
            guarded.addAll(ops);
            String patch = k.getKubernetesSerialization().asJson(guarded);
            try {
                // On the node read (not on r): fabric8 would read it once more to have an item to patch.
                call(
                        "patch",
                        "node " + node,
                        () -> k.nodes().resource(n).patch(PatchContext.of(PatchType.JSON), patch));
                return true;
            } catch (ApiCallFailed e) {
                // 409 Conflict, or 422 from the failed test: the node changed since it was read.
                if (attempt >= ATTEMPTS || (e.error.getCode() != 409 && e.error.getCode() != 422)) {
                    throw e;
                }
            }
        }
    }

    /**
     * The node's taints less those with {@code key} and {@code effect}, plus {@code taint} when one is given: the
     * operation, or none if nothing changes.
     */
    private static List<Map<String, Object>> taints(Node n, String key, String effect, Taint taint) {
        List<Taint> now = n.getSpec() == null || n.getSpec().getTaints() == null
                ? List.of()
                : n.getSpec().getTaints();
        if (taint != null && now.stream().anyMatch(t -> same(t, taint))) {
            return List.of();
        }
        List<Taint> next = new ArrayList<>(now.stream()
                .filter(t -> !(key.equals(t.getKey()) && effect.equals(t.getEffect())))
                .toList());
        if (taint != null) {
            next.add(taint);
        } else if (next.size() == now.size()) {
            return List.of();
        }
        return List.of(op(
                "add",
                n.getSpec() == null ? "/spec" : "/spec/taints",
                n.getSpec() == null ? Map.of("taints", next) : next));
    }

    /** One JSON patch operation (RFC 6902); {@code value} null for a remove. */
    private static Map<String, Object> op(String op, String path, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op);
        m.put("path", path);
        if (value != null) {
            m.put("value", value);
        }
        return m;
    }

    /** A key as one JSON pointer token (RFC 6901): {@code linkproof.dev/verdict} → {@code linkproof.dev~1verdict}. */
    static String pointer(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static boolean same(Taint a, Taint b) {
        return Objects.equals(a.getKey(), b.getKey())
                && Objects.equals(a.getEffect(), b.getEffect())
                && Objects.equals(a.getValue(), b.getValue());
    }

    /** One request, its failure labelled with the RBAC verb it needed and what it was for. */
    private static <T> T call(String verb, String target, Supplier<T> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            throw new ApiCallFailed(verb, target, e);
        }
    }

    /** What failed, and what to do about it. */
    private static CommandOutcome failed(Command c, Throwable t, KubernetesClient k) {
        if (!(t instanceof ApiCallFailed f)) {
            return new CommandOutcome.NotStarted(c, message(t));
        }
        int code = f.error.getCode();
        String server = f.error.getStatus() != null && f.error.getStatus().getMessage() != null
                ? f.error.getStatus().getMessage()
                : message(f.error);
        if (code <= 0) {
            // No HTTP status: the request got no answer (refused, reset, unresolvable, TLS).
            return new CommandOutcome.NotStarted(
                    c,
                    "no answer from the Kubernetes API server at " + k.getMasterUrl() + " (" + f.verb + " " + f.target
                            + "): " + message(f.error));
        }
        return switch (code) {
            case 401 ->
                new CommandOutcome.Refused(
                        c,
                        code,
                        "Unauthorized: the API server at " + k.getMasterUrl()
                                + " did not accept the credentials (in a pod its ServiceAccount's token; elsewhere"
                                + " ~/.kube/config's): "
                                + server);
            case 403 ->
                new CommandOutcome.Refused(
                        c,
                        code,
                        "Forbidden: the coordinator's account may not " + f.verb + " " + f.target
                                + ": RBAC gives it no '" + f.verb
                                + "' on the cluster-scoped resource nodes (the Kubernetes kit's act component grants"
                                + " get, list and patch: ClusterRole linkproof-act, bound to the ServiceAccount"
                                + " linkproof-act the coordinator runs as); the server: " + server);
            case 404 ->
                new CommandOutcome.Refused(
                        c,
                        code,
                        "Not Found: no " + f.target + " in the cluster at " + k.getMasterUrl()
                                + " (a blamed agent's node is the one it registered: $LINKPROOF_K8S_NODE_NAME, from"
                                + " the pod's spec.nodeName); the server: "
                                + server);
            case 409, 422 ->
                new CommandOutcome.Refused(
                        c,
                        code,
                        "the node changed while it was being edited, " + ATTEMPTS
                                + " times running, or the edit is invalid (" + f.verb + " " + f.target
                                + "); the server: " + server);
            default -> new CommandOutcome.Refused(c, code, f.verb + " " + f.target + ": " + server);
        };
    }

    /** The innermost cause with its type (a connection refused says no more than that), or the message itself. */
    private static String message(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root == t) {
            return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        }
        return root.getClass().getSimpleName() + (root.getMessage() != null ? ": " + root.getMessage() : "");
    }

    /** A request the server refused or never answered: the verb it needed, what it was for, the client's exception. */
    private static final class ApiCallFailed extends RuntimeException {
        final String verb;
        final String target;
        final transient KubernetesClientException error;

        ApiCallFailed(String verb, String target, KubernetesClientException error) {
            super(verb + " " + target + ": " + error.getMessage(), error);
            this.verb = verb;
            this.target = target;
            this.error = error;
        }
    }

    @Override
    public synchronized void close() {
        calls.shutdownNow();
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
