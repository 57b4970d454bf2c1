package dev.linkproof.engine.config;

/**
 * Every configuration key a run reads, wherever it is read: the engine's own, and those the profile
 * loader and the transports read themselves (system properties, so that a local agent reads them
 * too), each named here from where it is read. Keys come from JUnit configuration parameters, which
 * include system properties, so {@code mvn test -Dlinkproof.peer=host:7471} works as it is. The
 * configuration reference (docs/configuration.md) has a row for each, and a test holds the two
 * together and checks that no other {@code linkproof.*} key is read anywhere.
 */
public final class Constants {
    /** The engine's id, in unique ids and in Surefire's {@code includeJUnit5Engines}. */
    public static final String ENGINE_ID = "linkproof";

    /** {@code host:port} of an agent already running on the target host; unset = start a local agent. */
    public static final String PEER = "linkproof.peer";

    /** The token that agent was started with (its {@code --token}, or the one it printed). */
    public static final String TOKEN = "linkproof.token";

    /** Transport for sweeps that name none. Default {@value #DEFAULT_TRANSPORT}. */
    public static final String TRANSPORT = "linkproof.transport";
    public static final String DEFAULT_TRANSPORT = "tcp";

    /** Multiplies every point's automatic and explicit iteration count (e.g. 0.1 on slow emulated hosts). Default 1. */
    public static final String ITERATIONS_SCALE = "linkproof.iterations.scale";

    /** How long a local agent may take to start. Default 30s. Durations: {@code 30s}, {@code 500ms}, {@code PT1M}. */
    public static final String TIMEOUT_AGENT_START = "linkproof.timeout.agentStart";

    /** How long one control request may take. Default 30s. */
    public static final String TIMEOUT_CONTROL = "linkproof.timeout.control";

    /** A data transfer that makes no progress for this long fails the point. Default 10s. */
    public static final String TIMEOUT_PROGRESS = "linkproof.timeout.progress";

    /** JVM options for a local agent, space-separated. Default {@value #DEFAULT_AGENT_JVM_ARGS}. */
    public static final String AGENT_JVM_ARGS = dev.linkproof.transfer.session.LocalAgent.JVM_ARGS_KEY;
    public static final String DEFAULT_AGENT_JVM_ARGS = dev.linkproof.transfer.session.LocalAgent.DEFAULT_JVM_ARGS;

    /**
     * File that receives a local agent's output. Default {@code target/linkproof-agent.log} where
     * {@code target/} exists, else {@code linkproof-agent.log} in {@code java.io.tmpdir}. Beside it
     * the agent writes its own copy ({@code linkproof-agent-<pid>.log}), removed when the engine stops
     * the agent, so one remains only of an agent whose initiator died first.
     */
    public static final String AGENT_LOG = dev.linkproof.transfer.session.LocalAgent.LOG_KEY;

    /**
     * JSON-lines results file, one object per point (schema {@code linkproof.results/1}). Default
     * {@code target/linkproof-results.jsonl} where {@code target/} exists, else {@code ./linkproof-results.jsonl}.
     */
    public static final String RESULTS = "linkproof.results";

    /** A previous run's results file (or a folder of them): points that regress against it fail. Unset = no comparison. */
    public static final String BASELINE = "linkproof.baseline";

    /**
     * Allowed regression against the baseline, as the profile's {@code baseline.tolerance} takes it: a
     * fraction in [0, 1) ({@code 0.08}) or a percentage below 100 % ({@code 8%}). Wins over the
     * profile's {@code baseline.tolerance}, which wins over the default 0.05 (5 %).
     */
    public static final String BASELINE_TOLERANCE = "linkproof.baseline.tolerance";

    /**
     * The RDMA device verbs points use, when neither the point's nor the profile's settings name one
     * ({@code verbs.device}). On a local pair the engine hands it to both ranks, over the profile's
     * NIC choice; with {@code linkproof.peer} each rank reads its own (this key as a system property,
     * or {@link #VERBS_DEVICE_ENV}). Unset: the profile's NIC (local pair), else the NUMA-local device.
     */
    public static final String VERBS_DEVICE = dev.linkproof.transfer.verbs.VerbsSettings.DEVICE_PROPERTY;
    public static final String VERBS_DEVICE_ENV = dev.linkproof.transfer.verbs.VerbsSettings.DEVICE_ENV;

    /**
     * The hardware profile: a built-in id, a path to a YAML file, or {@code auto} (the default:
     * matched against the probe). Overlays: {@code linkproof.profile.overlay}; single criteria:
     * {@code linkproof.criteria.<name>.<key>} (see hardware-profiles/README.md).
     */
    public static final String PROFILE = dev.linkproof.profiles.ProfileProperties.PROFILE;
    public static final String PROFILE_OVERLAY = dev.linkproof.profiles.ProfileProperties.OVERLAY;
    public static final String CRITERIA_PREFIX = dev.linkproof.profiles.ProfileProperties.CRITERIA_PREFIX;

    /** The directory the hardware probe reads as {@code /}: a copied or fake sysfs tree. Default {@code /}. */
    public static final String PROBE_ROOT = dev.linkproof.profiles.ProfileProperties.PROBE_ROOT;

    /**
     * The GPU runtime of this process and of a local agent: {@code auto} (CUDA, then HIP), {@code cuda},
     * {@code hip} or {@code none}; a system property, else {@code LINKPROOF_GPU_RUNTIME}. Read by the
     * GPU runtimes themselves, in whichever process loads one.
     */
    public static final String GPU_RUNTIME = dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME;
    /** The CUDA driver library to load (default {@code libcuda.so.1}); else {@code LINKPROOF_GPU_CUDA_LIBRARY}. */
    public static final String GPU_CUDA_LIBRARY = dev.linkproof.transfer.gpu.select.GpuRuntimes.CUDA_LIBRARY;
    /** The HIP library to load (default {@code libamdhip64.so}, then .so.6, .so.5); else {@code LINKPROOF_GPU_HIP_LIBRARY}. */
    public static final String GPU_HIP_LIBRARY = dev.linkproof.transfer.gpu.select.GpuRuntimes.HIP_LIBRARY;
    /** The UCX library to load (default {@code libucp.so.0}); a system property, which a local agent inherits. */
    public static final String UCX_LIBRARY = dev.linkproof.transfer.ucx.Ucx.LIBRARY_PROPERTY;
    /** The libfabric library to load (default {@code libfabric.so.1}); a system property, which a local agent inherits. */
    public static final String LIBFABRIC_LIBRARY = dev.linkproof.transfer.libfabric.Libfabric.LIBRARY_PROPERTY;
    /**
     * The libfabric provider libfabric points use when their settings name none ({@code libfabric.provider}):
     * {@code shm}, {@code tcp;ofi_rxm}, {@code verbs;ofi_rxm}, {@code efa}; each rank's system property (else
     * {@code LINKPROOF_LIBFABRIC_PROVIDER}), which a local agent inherits. Unset: libfabric's first match.
     */
    public static final String LIBFABRIC_PROVIDER = dev.linkproof.transfer.libfabric.LibfabricSettings.PROVIDER_PROPERTY;

    /**
     * How many times a point is rerun when it fell below a performance criterion (or its baseline)
     * while other processes kept a host busy: they took half a CPU or more and, with the point's
     * own processes, left less than one CPU idle ({@link dev.linkproof.transfer.measure.HostContention#busy()}).
     * Every attempt is reported; data corruption is never rerun. Default 1; 0 makes none (a failure on
     * the baseline alone may still get its {@link #BASELINE_RERUNS} rerun).
     */
    public static final String BUSY_HOST_RERUNS = "linkproof.busyHost.reruns";

    /**
     * How many times a point is rerun when its only failure is a regression against the baseline,
     * whatever the hosts' load: a regression the rerun repeats fails, a one-off (a page fault storm,
     * a scheduler hiccup) clears. Counted apart from the busy-host reruns: on a busy host the busy-host
     * rerun comes first. Every attempt is reported. Default 1; 0 makes none.
     */
    public static final String BASELINE_RERUNS = "linkproof.baseline.reruns";

    /**
     * {@code true}: a run whose profile was chosen automatically and fell back (loopback) on a host
     * with RDMA devices or GPUs stops before any point, as a configuration error: a NIC with a port
     * down or at another link rate matches no NIC profile, and the fallback would skip what that
     * profile fails. For hardware runners that cannot pin one profile per host class. Default
     * {@code false}: the run warns at its end.
     */
    public static final String REQUIRE_PROFILE_MATCH = "linkproof.requireProfileMatch";

    /**
     * Which of the RDMA devices the profile resolves a verbs point runs on: {@code first} (the
     * default: one point, on the plan's first device, NUMA-local under {@code nics: auto}) or
     * {@code each} (one point per device, named and identified by it: {@code write 4 KiB ×1 · 1 QP ·
     * verbs · mlx5_3}, {@code …,nic=mlx5_3]}), so that a node's every NIC is checked, not only the
     * first; a NIC of the profile's kind that its plan leaves out for its state (a port down) gets
     * its points too, and they fail naming why. With {@link #PEER} the target runs each point on its device of the same name (a node
     * pair whose hosts name their NICs alike, rail by rail). A point whose settings name
     * {@code verbs.device} keeps its one device; {@link #VERBS_DEVICE} cannot be given with {@code each}.
     */
    public static final String NICS = "linkproof.nics";

    /**
     * How many rails every RDMA point (verbs) runs at once, whatever its annotation's {@code rails}
     * says: {@code all} (every RDMA device the profile resolves, NIC i of the initiator with NIC i of the
     * target) or a count. Unset: as each test says (1 unless it says otherwise).
     */
    public static final String RAILS = "linkproof.rails";

    /**
     * The links tcp rails run on, one per rail, comma-separated: {@code SOURCE->TARGET} (the
     * initiator's address on the link and the target's) or {@code TARGET} alone, e.g.
     * {@code 10.77.0.1->10.77.0.2,10.77.1.1->10.77.1.2}. A tcp point with more than one rail needs them.
     */
    public static final String TCP_RAILS = "linkproof.tcp.rails";

    /**
     * Which way every RDMA point (verbs) moves its data, whatever its annotation says: {@code one-way}
     * or {@code both-ways} (each rail also from the target's node back, at the same time, as
     * perftest's {@code -b}). Unset: as each test says.
     */
    public static final String DIRECTION = "linkproof.direction";

    /**
     * Which GPUs a GPU-memory point runs on: {@code first} (the default: the GPUs its memory names,
     * {@code gpu:k} being the k-th GPU the profile provides, {@code gpu} the first) or {@code each} (once per GPU the profile provides, every GPU index of
     * its memory shifted by 0 … n-1 modulo n: {@code gpu->gpu} on every GPU, {@code gpu->gpu:1} on
     * every neighbouring pair 0→1, 1→2, …, n-1→0, {@code host->gpu} on every GPU). The shifted
     * placement is the point's memory, so its unique id and name say which of the profile's GPUs it
     * ran on (the results record and Allure, which runtime ordinals).
     */
    public static final String GPUS = "linkproof.gpus";

    /**
     * Run every point for about this long (e.g. {@code 60s}), as a burn-in soak or perftest's
     * {@code -D} do, instead of its count of iterations: the point runs once as written (and once
     * more for a tenth of the time when that was far shorter), then with its iterations sized from
     * that pace to fill the time; that run is its measurement ({@code TimedRun}). Unset (the default): the counts as written (and
     * {@link #ITERATIONS_SCALE}). At most one hour.
     */
    public static final String DURATION = "linkproof.duration";

    /** Print one line per finished point on the console. Default true. */
    public static final String PROGRESS = "linkproof.progress";

    /**
     * A fleet run: every point runs on every pair of the fleet's plan instead of on one pair, between
     * agents the launcher placed on every node, this JVM coordinating. The value says who is expected:
     * {@code slurm} ({@code SLURM_JOB_NODELIST}), {@code kubernetes} (an Indexed Job's pods),
     * {@code torchrun}, {@code mpi}, {@code hostfile:PATH}, or {@code nodes:a,b,c}. Unset: a run of one
     * pair. See docs/fleet.md.
     */
    public static final String FLEET = dev.linkproof.fleet.campaign.FleetPlan.LAUNCHER_KEY;

    /** Where the fleet's registry listens for its agents, {@code host:port}. Default {@value #DEFAULT_FLEET_REGISTRY}. */
    public static final String FLEET_REGISTRY = dev.linkproof.fleet.campaign.CampaignSettings.REGISTRY_KEY;
    public static final String DEFAULT_FLEET_REGISTRY = "0.0.0.0:" + dev.linkproof.transfer.control.HostPort.REGISTRY_PORT;

    /** Which pairs run in which round: {@code pairwise} (default), {@code ring}, {@code random-k:K}, {@code incast}, {@code fan-out}, {@code file:PATH}. */
    public static final String FLEET_PATTERN = dev.linkproof.fleet.plan.PatternParser.KEY;

    /** How long the registry waits for every expected node to register. Default 60s. */
    public static final String FLEET_REGISTER_WITHIN = "linkproof.fleet.registerWithin";

    /** Opt-in: drain (Slurm) or label and taint (Kubernetes) the blamed nodes: {@code slurm}, {@code kubernetes}, or {@code print} (the commands, not run). Unset: nothing. */
    public static final String FLEET_ACT = dev.linkproof.fleet.campaign.CampaignSettings.ACT_KEY;

    /**
     * The fleet-relative criteria: a pair below this fraction of its point's median bandwidth over the
     * fleet is an outlier (default 0.93, NVIDIA ClusterKit's), and above this multiple of the point's
     * lowest latency (default 2.1, ClusterKit's).
     */
    public static final String FLEET_MIN_OF_MEDIAN = "linkproof.fleet.minOfMedianBandwidth";
    public static final String FLEET_MAX_OF_LOWEST = "linkproof.fleet.maxOfLowestLatency";

    /**
     * The fleet's spread: a pair is an outlier only when it is also more than this many robust
     * standard deviations (1.4826 × the median absolute deviation) from its point's median. Default 3.
     */
    public static final String FLEET_MAX_DEVIATIONS = "linkproof.fleet.maxDeviations";

    /** Fewer registered nodes than this, and no point is judged against the fleet (only by the profile). Default 4. */
    public static final String FLEET_MIN_NODES = "linkproof.fleet.minNodes";

    /** Fewer pairs measured at a point than this, and the point is not judged against the fleet. Default 6. */
    public static final String FLEET_MIN_PAIRS = "linkproof.fleet.minPairs";

    /**
     * How many more times a failing pair runs, itself and both ways, before any verdict; it fails when
     * it failed in a majority of all its runs. Default 3 (1..20).
     */
    public static final String FLEET_CONFIRMATIONS = "linkproof.fleet.confirmations";

    /**
     * The circuit breaker: when the verdicts would single out more than this share of the fleet's
     * nodes, the run gives one fleet-degraded verdict and acts on no node. Default 0.25.
     */
    public static final String FLEET_MAX_BLAMED_FRACTION = "linkproof.fleet.maxBlamedFraction";

    /**
     * A directory of earlier verdict documents; this run's is added. With it, a node is acted on only
     * when blamed in {@link #FLEET_ACT_AFTER} of the last runs. Unset: no history.
     */
    public static final String FLEET_HISTORY = "linkproof.fleet.history";

    /** With a history: {@code COUNT/WINDOW}, blamed in COUNT of the last WINDOW runs (this one included) before acting. Default 2/3. */
    public static final String FLEET_ACT_AFTER = "linkproof.fleet.actAfter";

    /** Where the fleet's verdicts are written for automation. Default {@code target/fleet-verdict.json}. */
    public static final String FLEET_VERDICT = "linkproof.fleet.verdict";

    /**
     * A directory (node_exporter's {@code --collector.textfile.directory}) the run's metrics are
     * written to at its end, as {@code linkproof.prom}: a temporary file in it renamed into place.
     * Unset: none (a fleet run still writes {@code fleet.prom} beside its verdicts). See docs/reports.md.
     */
    public static final String PROMETHEUS_TEXTFILE = "linkproof.prometheus.textfile";

    /** A Pushgateway's base URL ({@code http://host:9091}) the run's metrics are pushed to at its end. Unset: no push. */
    public static final String PROMETHEUS_PUSHGATEWAY = "linkproof.prometheus.pushgateway";

    /** The {@code job} of the Pushgateway's group. Default {@value #DEFAULT_PROMETHEUS_JOB}. */
    public static final String PROMETHEUS_JOB = "linkproof.prometheus.job";
    public static final String DEFAULT_PROMETHEUS_JOB = "linkproof";

    /** The group's other labels, {@code name=value,…} ({@code instance=node1,cluster=a}). Default none. */
    public static final String PROMETHEUS_GROUPING = "linkproof.prometheus.grouping";

    /**
     * Not read by the engine, and known all the same, so a run that carries them is no typo: the
     * Maven property a user's project pins Linkproof's version with (examples/own-project; Surefire
     * passes {@code -D} properties on to the tests), and this repository's own test switches
     * (scripts/test.sh and the conformance module's pom set them).
     */
    public static final String PROJECT_VERSION = "linkproof.version";
    public static final String HARNESS_SOFTROCE = "linkproof.softroce";
    public static final String HARNESS_SLURM = "linkproof.slurm";
    public static final String HARNESS_CONSOLE_LAUNCHER = "linkproof.consoleLauncher";
    public static final String HARNESS_ALLURE_HOME = "linkproof.allure.home";
    public static final String HARNESS_CUDA_INCLUDE = "linkproof.cuda.include";
    public static final String HARNESS_BUNDLE = "linkproof.bundle";

    private Constants() {
    }
}
