package dev.linkproof.engine.config;

import dev.linkproof.engine.config.Value.Choice;
import dev.linkproof.transfer.control.HostPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The registry of configuration keys: every {@code linkproof.*} key, its type, its default and what it does,
 * once. The engine parses its keys through these entries, {@link KnownKeys} takes the names for the unknown-key
 * check from {@link #ALL}, and docs/configuration.md's table is {@link #markdownTable()}, which a test holds it to.
 * Keys another module parses (the profile's, the libraries', the fleet's) are here for the reference and the check.
 *
 * <p>Longer than 400 lines because it is the registry itself: one entry per key, each a row of the
 * reference's table, and a registry split in two would be two places to look for a key.
 */
public final class ConfigurationKeys {
    private static final Value<Boolean> EACH_NIC = Value.oneOf(
            new Choice<>("first", false, "the profile's first RDMA device, the default"),
            new Choice<>("each", true, "every RDMA device the profile resolves, a point per device"));
    private static final Value<Boolean> EACH_GPU = Value.oneOf(
            new Choice<>("first", false, "the GPUs a test names, the default"),
            new Choice<>("each", true, "every GPU the profile provides, a point per GPU"));
    private static final Value<Boolean> BOTH_WAYS =
            Value.oneOf(new Choice<>("one-way", false, ""), new Choice<>("both-ways", true, ""));

    public static final Key<HostPort> PEER = new Key<>(
            Constants.PEER,
            Value.hostPort(HostPort.AGENT_PORT, 1, "; the agent prints its port when it starts"),
            "none (local pair)",
            "`host:port` of a target agent already running ([two-hosts.md](two-hosts.md)); unset, the engine "
                    + "starts a local agent. The port may be left out (the agent's default, 7471); an IPv6 address "
                    + "goes in brackets (`[fe80::1]:7471`); a malformed address stops the run before any point");
    public static final Key<String> TOKEN = new Key<>(
            Constants.TOKEN,
            Value.text("text"),
            "none",
            "that agent's session token (its `--token`, or the one it printed)");
    public static final Key<String> TRANSPORT = new Key<>(
            Constants.TRANSPORT,
            Value.text("a transport's name"),
            "`tcp`",
            "transport for sweeps that name none; one not on the class path is a configuration error listing "
                    + "those that are");
    public static final Key<Double> ITERATIONS_SCALE = new Key<>(
            Constants.ITERATIONS_SCALE,
            Value.positive(1000),
            "`1`",
            "multiplies every point's iteration count, automatic or explicit; a number in (0, 1000] (e.g. "
                    + "`0.1` on slow emulated hosts)");
    public static final Key<Duration> DURATION = new Key<>(
            Constants.DURATION,
            Value.deadline("the longest run of a point"),
            "none (each point's count of iterations)",
            "run every point for about this long (`60s`; at most one hour), as a burn-in soak or perftest's "
                    + "`-D`; see [below](#linkproofduration)");
    public static final Key<Duration> TIMEOUT_PROGRESS = new Key<>(
            Constants.TIMEOUT_PROGRESS,
            Value.deadline("the agent accepts"),
            "`10s`",
            "a transfer with no progress for this long fails, on both ranks: the initiator sends it in "
                    + "`HELLO` and the agent (local or remote) applies it to its side; at most one hour. It also "
                    + "bounds the initiator's data connections' connect (the agent's own: 10 s)");
    public static final Key<Duration> TIMEOUT_CONTROL = new Key<>(
            Constants.TIMEOUT_CONTROL,
            Value.deadline("the longest deadline"),
            "`30s`",
            "one control request, at most one hour; the reply to the verification pass's checksum request "
                    + "may take the progress deadline more, which the target spends waiting for its receive "
                    + "completions (verbs SEND, WRITE_WITH_IMM)");
    public static final Key<Duration> TIMEOUT_AGENT_START = new Key<>(
            Constants.TIMEOUT_AGENT_START,
            Value.deadline("the longest deadline"),
            "`30s`",
            "a local agent's start; at most one hour");
    public static final Key<String> AGENT_JVM_ARGS = new Key<>(
            Constants.AGENT_JVM_ARGS,
            Value.text("JVM options"),
            "`-Xmx256m`",
            "JVM options of a local agent, space-separated");
    public static final Key<Path> AGENT_LOG = new Key<>(
            Constants.AGENT_LOG,
            Value.path("a file"),
            "`linkproof-agent.log` in the platform's output directory (`junit.platform.reporting.output.dir`; JUnit's"
                    + " default: `target/` under Maven, else the working directory)",
            "a local agent's output; beside it the agent also writes its own copy, "
                    + "`linkproof-agent-<pid>.log`, which remains only when its initiator died before stopping it "
                    + "([two-hosts.md](two-hosts.md#what-an-agent-leaves-behind))");
    public static final Key<Boolean> PROGRESS = new Key<>(
            Constants.PROGRESS,
            Value.bool(),
            "`true`",
            "one console line per point, and the summary at the end of the run");
    public static final Key<Path> RESULTS = new Key<>(
            Constants.RESULTS,
            Value.path("a file"),
            "`linkproof-results.jsonl` in the platform's output directory (`junit.platform.reporting.output.dir`;"
                    + " JUnit's default: `target/` under Maven, else the working directory)",
            "the JSON-lines results file ([reports.md](reports.md#the-results-file)); one that cannot be "
                    + "created is a configuration error");
    public static final Key<Path> PROMETHEUS_TEXTFILE = new Key<>(
            Constants.PROMETHEUS_TEXTFILE,
            Value.path("a directory"),
            "none",
            "a directory (node_exporter's `--collector.textfile.directory`) the run's metrics are written to "
                    + "at its end, as `linkproof.prom`: a temporary `.linkproof.prom.*.tmp` renamed into place, "
                    + "readable by all ([reports.md](reports.md#prometheus)); created if missing; a file there is a "
                    + "configuration error");
    public static final Key<String> PROMETHEUS_PUSHGATEWAY = new Key<>(
            Constants.PROMETHEUS_PUSHGATEWAY,
            Value.text("a URL"),
            "none (no push)",
            "a Pushgateway's base URL (`http://pushgateway:9091`): the run's metrics are PUT to "
                    + "`/metrics/job/<job>/<label>/<value>…`, replacing that group's; not `http(s)://host…` is a "
                    + "configuration error; a push that fails is a warning at the end of the run naming the URL and "
                    + "the HTTP status ([reports.md](reports.md#prometheus))");
    public static final Key<String> PROMETHEUS_JOB =
            new Key<>(Constants.PROMETHEUS_JOB, Value.text("text"), "`linkproof`", "the `job` of the pushed group");
    public static final Key<String> PROMETHEUS_GROUPING = new Key<>(
            Constants.PROMETHEUS_GROUPING,
            Value.text("`name=value,…`"),
            "none",
            "the pushed group's other labels, `name=value,…` (`instance=node1,cluster=a`); not `name=value`, "
                    + "a name given twice, `job`, or a name Prometheus refuses is a configuration error");
    public static final Key<Path> BASELINE = new Key<>(
            Constants.BASELINE,
            Value.path("a file or folder"),
            "none (no comparison)",
            "a results file, or a folder of them, to compare every point with "
                    + "([reports.md](reports.md#baselines)); one that cannot be read is a configuration error");
    public static final Key<Double> BASELINE_TOLERANCE = new Key<>(
            Constants.BASELINE_TOLERANCE,
            Value.of("a fraction or percentage", LinkproofConfiguration::tolerance),
            "the profile's `baseline.tolerance`, else `0.05`",
            "allowed regression against the baseline: a fraction in [0, 1) (`0.08`) or a percentage below "
                    + "100 % (`8%`); anything else, `1` or more, or a negative value is an error naming the key");
    public static final Key<Integer> BASELINE_RERUNS = new Key<>(
            Constants.BASELINE_RERUNS,
            Value.whole(0, LinkproofConfiguration.MAX_RERUNS),
            "`1`",
            "reruns (0-5) of a point whose only failure is a regression against the baseline, busy host or quiet,"
                    + " counted apart from the busy-host reruns; the last attempt is the verdict; `0` makes none");
    public static final Key<Integer> BUSY_HOST_RERUNS = new Key<>(
            Constants.BUSY_HOST_RERUNS,
            Value.whole(0, LinkproofConfiguration.MAX_RERUNS),
            "`1`",
            "reruns (0-5) of a point that fell short of a performance criterion or its baseline while other "
                    + "processes kept a host busy (half a CPU or more taken, less than one CPU left idle); `0` makes "
                    + "none (a baseline-only failure may still get its baseline rerun)");
    public static final Key<String> PROFILE = new Key<>(
            Constants.PROFILE,
            Value.text("`auto`, an id or a YAML file"),
            "`auto`",
            "the hardware profile: `auto` (matched against the probe; `loopback` when nothing matches), a "
                    + "built-in id (`cx7-400g`), or a YAML file (a value with `/` or ending in `.yaml`/`.yml`, "
                    + "relative to the working directory) ([profiles.md](profiles.md))");
    public static final Key<String> PROFILE_OVERLAY = new Key<>(
            Constants.PROFILE_OVERLAY,
            Value.text("YAML files, comma-separated"),
            "none",
            "overlay YAML files laid over the chosen profile, comma-separated, in order; any other "
                    + "`linkproof.profile.*` key is an error");
    public static final Key<String> CRITERIA_PREFIX = new Key<>(
            Constants.CRITERIA_PREFIX,
            Value.text("a criterion's key's value"),
            "none",
            "`linkproof.criteria.<name>.<key>=<value>` sets one key of the profile's criterion `<name>`, "
                    + "over every file: `-Dlinkproof.criteria.write-large.min-bandwidth=40GB/s`; an empty value "
                    + "deletes the key, an unknown name is an error, lists are comma-separated");
    public static final Key<Path> PROBE_ROOT = new Key<>(
            Constants.PROBE_ROOT,
            Value.path("a directory"),
            "`/`",
            "the directory the hardware probe reads as `/` (a copied or fake sysfs tree); the profile is "
                    + "matched against it and the report's `environment.properties` describes it");
    public static final Key<Boolean> REQUIRE_PROFILE_MATCH = new Key<>(
            Constants.REQUIRE_PROFILE_MATCH,
            Value.bool(),
            "`false`",
            "`true`: a profile chosen automatically that falls back to `loopback` on a host with RDMA "
                    + "devices or GPUs is a configuration error before any point; `false`: the run warns at its end");
    public static final Key<String> VERBS_DEVICE = new Key<>(
            Constants.VERBS_DEVICE,
            Value.text("an RDMA device's name"),
            "the profile's NIC",
            "RDMA device for verbs points whose settings name none (also `LINKPROOF_VERBS_DEVICE`); not with "
                    + "`linkproof.nics=each` ([transports/verbs.md](transports/verbs.md#settings))");
    public static final Key<Boolean> NICS = new Key<>(
            Constants.NICS,
            EACH_NIC,
            "`first`",
            "which RDMA devices the profile resolves a verbs point runs on: `first` (one point, on the "
                    + "plan's first device) or `each` (one point per device) "
                    + "([transports/verbs.md](transports/verbs.md#every-nic-of-a-node))");
    public static final Key<Integer> RAILS = new Key<>(
            Constants.RAILS,
            Value.of("`all` \\| 1–" + LinkproofConfiguration.MAX_RAILS, LinkproofConfiguration::rails),
            "as each test says",
            "how many rails every verbs point runs at once: `all` (every RDMA device the profile resolves, "
                    + "NIC i with NIC i) or a count; overrides `@TransferTest(rails = …)` "
                    + "([writing-tests.md](writing-tests.md#every-rail-at-once))");
    public static final Key<List<TcpRail>> TCP_RAILS = new Key<>(
            Constants.TCP_RAILS,
            Value.of("`SOURCE->TARGET`, comma-separated", TcpRail::parseList),
            "none",
            "the links tcp rails run on, one per rail: `SOURCE->TARGET` or `TARGET`, comma-separated "
                    + "(`10.77.0.1->10.77.0.2,10.77.1.1->10.77.1.2`) "
                    + "([writing-tests.md](writing-tests.md#every-rail-at-once))");
    public static final Key<Boolean> DIRECTION = new Key<>(
            Constants.DIRECTION,
            BOTH_WAYS,
            "as each test says",
            "which way every verbs point moves its data: `one-way` or `both-ways` (each rail also back from "
                    + "the target's node, at the same time, as perftest's `-b`); overrides `@TransferTest(direction = "
                    + "…)` ([writing-tests.md](writing-tests.md#every-rail-at-once))");
    public static final Key<Boolean> GPUS = new Key<>(
            Constants.GPUS,
            EACH_GPU,
            "`first`",
            "which GPUs a GPU-memory point runs on: `first` (those its memory names; `gpu:k` is the "
                    + "profile's k-th GPU, `gpu` the first) or `each` (once per GPU the profile provides, its GPU "
                    + "indices shifted; a point of several rails is not repeated: its rails are the shifts, or the "
                    + "GPUs beside its NICs) ([transports/gpu.md](transports/gpu.md#which-gpus-a-point-runs-on))");
    public static final Key<String> GPU_RUNTIME = new Key<>(
            Constants.GPU_RUNTIME,
            Value.text("`auto` \\| `cuda` \\| `hip` \\| `none`"),
            "`auto`",
            "GPU runtime of this process and of a local agent: `auto` (CUDA, then HIP), `cuda`, `hip`, `none`; system"
                    + " property, else `LINKPROOF_GPU_RUNTIME`; any other value is a configuration error");
    public static final Key<String> GPU_CUDA_LIBRARY = new Key<>(
            Constants.GPU_CUDA_LIBRARY,
            Value.text("a library"),
            "`libcuda.so.1`",
            "the CUDA driver library to load; system property, else `LINKPROOF_GPU_CUDA_LIBRARY`");
    public static final Key<String> GPU_HIP_LIBRARY = new Key<>(
            Constants.GPU_HIP_LIBRARY,
            Value.text("a library"),
            "`libamdhip64.so`, then `.so.6`, `.so.5`",
            "the HIP library to load; system property, else `LINKPROOF_GPU_HIP_LIBRARY`");
    public static final Key<String> UCX_LIBRARY = new Key<>(
            Constants.UCX_LIBRARY,
            Value.text("a library"),
            "`libucp.so.0`",
            "the UCX library to load; system property only (a local agent started by the engine inherits it, "
                    + "one started by hand does not)");
    public static final Key<String> LIBFABRIC_LIBRARY = new Key<>(
            Constants.LIBFABRIC_LIBRARY,
            Value.text("a library"),
            "`libfabric.so.1`",
            "the libfabric library to load (AWS EFA's: `/opt/amazon/efa/lib/libfabric.so.1`); system property only (a "
                    + "local agent started by the engine inherits it, one started by hand does not)");
    public static final Key<String> LIBFABRIC_PROVIDER = new Key<>(
            Constants.LIBFABRIC_PROVIDER,
            Value.text("a provider"),
            "libfabric's first match",
            "the provider libfabric points use when their settings name none (`libfabric.provider`): `shm`, "
                    + "`tcp;ofi_rxm`, `verbs;ofi_rxm`, `efa`; system property, else `LINKPROOF_LIBFABRIC_PROVIDER`, on "
                    + "each rank (a local agent inherits it); a target on another provider than the initiator names "
                    + "fails the point naming both ([transports/libfabric.md](transports/libfabric.md))");
    public static final Key<String> FLEET = new Key<>(
            Constants.FLEET,
            Value.text("a launcher"),
            "none (a run of one pair)",
            "a fleet run: who is expected (`slurm`, `kubernetes`, `torchrun`, `mpi`, `hostfile:PATH`, "
                    + "`nodes:a,b,c`, `auto`); every point runs on every pair of the plan between the agents "
                    + "registered ([fleet.md](fleet.md#running-a-fleet)); not with `linkproof.peer`");
    public static final Key<HostPort> FLEET_REGISTRY = new Key<>(
            Constants.FLEET_REGISTRY,
            Value.hostPort(HostPort.REGISTRY_PORT, 0, ""),
            "`0.0.0.0:7470`",
            "`host:port` the fleet's registry listens on for its agents' `--register` (port left out: 7470; "
                    + "0: any free port; IPv6 in brackets)");
    public static final Key<String> FLEET_PATTERN = new Key<>(
            Constants.FLEET_PATTERN,
            Value.text("a pattern"),
            "`pairwise`",
            "which pairs run in which round: `pairwise`, `ring`, `random-k:K[:seed=N]`, `incast[:NODE]`, "
                    + "`fan-out[:NODE]`, `file:PATH` ([fleet.md](fleet.md#patterns))");
    public static final Key<Duration> FLEET_REGISTER_WITHIN = new Key<>(
            Constants.FLEET_REGISTER_WITHIN,
            Value.deadline("the longest deadline"),
            "`60s`",
            "how long the registry waits for every expected node");
    public static final Key<String> FLEET_ACT = new Key<>(
            Constants.FLEET_ACT,
            Value.oneOf(
                    new Choice<>("slurm", "slurm", "drain"),
                    new Choice<>("kubernetes", "kubernetes", "label and taint"),
                    new Choice<>("print", "print", "the commands")),
            "none",
            "act on the blamed nodes: `slurm` (drain), `kubernetes` (label and taint), `print` (the "
                    + "commands) ([fleet.md](fleet.md#acting-on-verdicts))");
    public static final Key<Path> FLEET_VERDICT = new Key<>(
            Constants.FLEET_VERDICT,
            Value.path("a file"),
            "`fleet-verdict.json` in the platform's output directory",
            "where the fleet's verdicts are written (heat maps and `fleet.prom` beside it)");
    public static final Key<String> PROJECT_VERSION = new Key<>(
            Constants.PROJECT_VERSION,
            Value.text("a version"),
            "none",
            "not read by the engine: the Maven property a project pins Linkproof's version with "
                    + "([examples/own-project](../examples/own-project)); known, so passing it with `-D` is no error");
    public static final Key<Boolean> HARNESS_SOFTROCE = new Key<>(
            Constants.HARNESS_SOFTROCE,
            Value.bool(),
            "`false`",
            "this repository's tests only: run the verbs suite on Soft-RoCE in a QEMU VM (`scripts/test.sh` "
                    + "passes `true`)");
    public static final Key<String> HARNESS_SOFTROCE_CLASSES = new Key<>(
            Constants.HARNESS_SOFTROCE_CLASSES,
            Value.text("class names"),
            "all of the suite's",
            "this repository's tests only: which of the Soft-RoCE suite's classes run in the VM, by simple "
                    + "name, comma-separated (`LibfabricOnSoftRoce`): a shorter VM run");
    public static final Key<Boolean> HARNESS_SLURM = new Key<>(
            Constants.HARNESS_SLURM,
            Value.bool(),
            "`false`",
            "this repository's tests only: run the fleet suite on a Slurm cluster of network namespaces "
                    + "(`scripts/test.sh` passes `true`)");
    public static final Key<Path> HARNESS_CONSOLE_LAUNCHER = new Key<>(
            Constants.HARNESS_CONSOLE_LAUNCHER,
            Value.path("a jar"),
            "set by conformance-tests' pom",
            "this repository's tests only: the JUnit ConsoleLauncher jar the end-to-end tests start");
    public static final Key<Path> HARNESS_ALLURE_HOME = new Key<>(
            Constants.HARNESS_ALLURE_HOME,
            Value.path("a directory"),
            "set by conformance-tests' pom",
            "this repository's tests only: the Allure command line the report tests run");
    public static final Key<Path> HARNESS_CUDA_INCLUDE = new Key<>(
            Constants.HARNESS_CUDA_INCLUDE,
            Value.path("a directory"),
            "`/usr/local/cuda/include`",
            "this repository's tests only: where the CUDA layout check finds `cuda.h`");
    public static final Key<Path> HARNESS_BUNDLE = new Key<>(
            Constants.HARNESS_BUNDLE,
            Value.path("a tar.gz"),
            "set by `distribution`'s pom",
            "this repository's tests only: the release bundle BundleIT unpacks and runs");
    public static final Key<Double> FLEET_MIN_OF_MEDIAN = new Key<>(
            Constants.FLEET_MIN_OF_MEDIAN,
            Value.number(),
            "the profile's `fleet.min-of-median-bandwidth`, else `0.93`",
            "a pair below this fraction of its point's median bandwidth over the fleet is an outlier "
                    + "(ClusterKit's figure)");
    public static final Key<Double> FLEET_MAX_OF_LOWEST = new Key<>(
            Constants.FLEET_MAX_OF_LOWEST,
            Value.number(),
            "the profile's `fleet.max-of-lowest-latency`, else `2.1`",
            "at a latency point, a pair above this multiple of its point's lowest latency over the fleet may "
                    + "be an outlier (ClusterKit's)");
    public static final Key<Double> FLEET_MAX_DEVIATIONS = new Key<>(
            Constants.FLEET_MAX_DEVIATIONS,
            Value.number(),
            "the profile's `fleet.max-deviations`, else `3`",
            "…and only when it is also this many robust standard deviations (1.4826 × the median absolute "
                    + "deviation) from the point's median ([fleet.md](fleet.md#how-a-verdict-is-reached))");
    public static final Key<Integer> FLEET_MIN_NODES = new Key<>(
            Constants.FLEET_MIN_NODES,
            Value.whole(),
            "the profile's `fleet.min-nodes`, else `4`",
            "fewer registered nodes: no point is judged against the fleet (the profile's criteria still " + "judge)");
    public static final Key<Integer> FLEET_MIN_PAIRS = new Key<>(
            Constants.FLEET_MIN_PAIRS,
            Value.whole(),
            "the profile's `fleet.min-pairs`, else `6`",
            "fewer pairs measured at a point: it is not judged against the fleet");
    public static final Key<Integer> FLEET_CONFIRMATIONS = new Key<>(
            Constants.FLEET_CONFIRMATIONS,
            Value.whole(),
            "the profile's `fleet.confirmations`, else `3`",
            "how many more times a failing pair runs, itself and both ways, before any verdict; it fails "
                    + "when it failed in a majority of its runs (1..20)");
    public static final Key<Double> FLEET_MAX_BLAMED_FRACTION = new Key<>(
            Constants.FLEET_MAX_BLAMED_FRACTION,
            Value.number(),
            "the profile's `fleet.max-blamed-fraction`, else `0.25`",
            "the circuit breaker: verdicts singling out more of the fleet become one `fleet-degraded` "
                    + "verdict, and nothing is acted on");
    public static final Key<Path> FLEET_HISTORY = new Key<>(
            Constants.FLEET_HISTORY,
            Value.path("a directory"),
            "none",
            "a directory of earlier verdict documents (this run's is added): with it, `act` takes a node out "
                    + "only when history agrees (`linkproof.fleet.actAfter`)");
    public static final Key<String> FLEET_ACT_AFTER = new Key<>(
            Constants.FLEET_ACT_AFTER,
            Value.text("`COUNT/WINDOW`"),
            "the profile's `fleet.act-after`, else `2/3`",
            "with a history: blamed in COUNT of the last WINDOW runs, this one included, before a node is "
                    + "acted on");

    /** Every key, in the reference's order. */
    public static final List<Key<?>> ALL = List.of(
            PEER,
            TOKEN,
            TRANSPORT,
            ITERATIONS_SCALE,
            DURATION,
            TIMEOUT_PROGRESS,
            TIMEOUT_CONTROL,
            TIMEOUT_AGENT_START,
            AGENT_JVM_ARGS,
            AGENT_LOG,
            PROGRESS,
            RESULTS,
            PROMETHEUS_TEXTFILE,
            PROMETHEUS_PUSHGATEWAY,
            PROMETHEUS_JOB,
            PROMETHEUS_GROUPING,
            BASELINE,
            BASELINE_TOLERANCE,
            BASELINE_RERUNS,
            BUSY_HOST_RERUNS,
            PROFILE,
            PROFILE_OVERLAY,
            CRITERIA_PREFIX,
            PROBE_ROOT,
            REQUIRE_PROFILE_MATCH,
            VERBS_DEVICE,
            NICS,
            RAILS,
            TCP_RAILS,
            DIRECTION,
            GPUS,
            GPU_RUNTIME,
            GPU_CUDA_LIBRARY,
            GPU_HIP_LIBRARY,
            UCX_LIBRARY,
            LIBFABRIC_LIBRARY,
            LIBFABRIC_PROVIDER,
            FLEET,
            FLEET_REGISTRY,
            FLEET_PATTERN,
            FLEET_REGISTER_WITHIN,
            FLEET_ACT,
            FLEET_VERDICT,
            PROJECT_VERSION,
            HARNESS_SOFTROCE,
            HARNESS_SOFTROCE_CLASSES,
            HARNESS_SLURM,
            HARNESS_CONSOLE_LAUNCHER,
            HARNESS_ALLURE_HOME,
            HARNESS_CUDA_INCLUDE,
            HARNESS_BUNDLE,
            FLEET_MIN_OF_MEDIAN,
            FLEET_MAX_OF_LOWEST,
            FLEET_MAX_DEVIATIONS,
            FLEET_MIN_NODES,
            FLEET_MIN_PAIRS,
            FLEET_CONFIRMATIONS,
            FLEET_MAX_BLAMED_FRACTION,
            FLEET_HISTORY,
            FLEET_ACT_AFTER);

    private ConfigurationKeys() {}

    /** The reference's table of keys (docs/configuration.md), one row per key in {@link #ALL}'s order. */
    public static String markdownTable() {
        StringBuilder t = new StringBuilder("| Key | Value | Default | What it does |\n|---|---|---|---|\n");
        for (Key<?> k : ALL) {
            t.append("| `")
                    .append(k.family() ? k.name() + "*" : k.name())
                    .append("` | ")
                    .append(k.value().form())
                    .append(" | ")
                    .append(k.defaultText())
                    .append(" | ")
                    .append(k.doc())
                    .append(" |\n");
        }
        return t.toString();
    }
}
