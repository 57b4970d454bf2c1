package dev.linkproof.engine.config;

/**
 * The names of every configuration key a run reads, wherever it is read: the engine's own, and those
 * the profile loader, the fleet and the transports read themselves (declared in their modules, named
 * here by reference). What each key takes, its default and what it does are its entry in
 * {@link ConfigurationKeys}, from which docs/configuration.md's table is made. Keys come from JUnit
 * configuration parameters, which include system properties, so {@code mvn test
 * -Dlinkproof.peer=host:7471} works as it is. Names are {@code linkproof.} and dot-separated
 * lowerCamelCase words ({@code linkproof.timeout.agentStart}); a test holds every name to that style.
 */
public final class Constants {
    /** The engine's id (not a key), in unique ids and in Surefire's {@code includeJUnit5Engines}. */
    public static final String ENGINE_ID = "linkproof";

    public static final String PEER = "linkproof.peer";
    public static final String TOKEN = "linkproof.token";
    public static final String TRANSPORT = "linkproof.transport";
    public static final String DEFAULT_TRANSPORT = "tcp";
    public static final String ITERATIONS_SCALE = "linkproof.iterations.scale";
    public static final String TIMEOUT_AGENT_START = "linkproof.timeout.agentStart";
    public static final String TIMEOUT_CONTROL = "linkproof.timeout.control";
    public static final String TIMEOUT_PROGRESS = "linkproof.timeout.progress";
    public static final String AGENT_JVM_ARGS = dev.linkproof.transfer.session.LocalAgent.JVM_ARGS_KEY;
    public static final String DEFAULT_AGENT_JVM_ARGS = dev.linkproof.transfer.session.LocalAgent.DEFAULT_JVM_ARGS;
    public static final String AGENT_LOG = dev.linkproof.transfer.session.LocalAgent.LOG_KEY;
    public static final String RESULTS = "linkproof.results";
    public static final String BASELINE = "linkproof.baseline";
    public static final String BASELINE_TOLERANCE = "linkproof.baseline.tolerance";
    public static final String VERBS_DEVICE = dev.linkproof.transfer.verbs.VerbsSettings.DEVICE_PROPERTY;
    public static final String VERBS_DEVICE_ENV = dev.linkproof.transfer.verbs.VerbsSettings.DEVICE_ENV;
    public static final String PROFILE = dev.linkproof.profiles.ProfileProperties.PROFILE;
    public static final String PROFILE_OVERLAY = dev.linkproof.profiles.ProfileProperties.OVERLAY;
    public static final String CRITERIA_PREFIX = dev.linkproof.profiles.ProfileProperties.CRITERIA_PREFIX;
    public static final String PROBE_ROOT = dev.linkproof.profiles.ProfileProperties.PROBE_ROOT;
    public static final String GPU_RUNTIME = dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME;
    public static final String GPU_CUDA_LIBRARY = dev.linkproof.transfer.gpu.select.GpuRuntimes.CUDA_LIBRARY;
    public static final String GPU_HIP_LIBRARY = dev.linkproof.transfer.gpu.select.GpuRuntimes.HIP_LIBRARY;
    public static final String UCX_LIBRARY = dev.linkproof.transfer.ucx.Ucx.LIBRARY_PROPERTY;
    public static final String LIBFABRIC_LIBRARY = dev.linkproof.transfer.libfabric.Libfabric.LIBRARY_PROPERTY;
    public static final String LIBFABRIC_PROVIDER =
            dev.linkproof.transfer.libfabric.LibfabricSettings.PROVIDER_PROPERTY;
    public static final String BUSY_HOST_RERUNS = "linkproof.busyHost.reruns";
    public static final String BASELINE_RERUNS = "linkproof.baseline.reruns";
    public static final String REQUIRE_PROFILE_MATCH = "linkproof.requireProfileMatch";
    public static final String NICS = "linkproof.nics";
    public static final String RAILS = "linkproof.rails";
    public static final String TCP_RAILS = "linkproof.tcp.rails";
    public static final String DIRECTION = "linkproof.direction";
    public static final String GPUS = "linkproof.gpus";
    public static final String DURATION = "linkproof.duration";
    public static final String PROGRESS = "linkproof.progress";
    public static final String FLEET = dev.linkproof.fleet.campaign.FleetPlan.LAUNCHER_KEY;
    public static final String FLEET_REGISTRY = dev.linkproof.fleet.campaign.CampaignSettings.REGISTRY_KEY;
    public static final String DEFAULT_FLEET_REGISTRY =
            "0.0.0.0:" + dev.linkproof.transfer.control.HostPort.REGISTRY_PORT;
    public static final String FLEET_PATTERN = dev.linkproof.fleet.plan.PatternParser.KEY;
    public static final String FLEET_REGISTER_WITHIN = "linkproof.fleet.registerWithin";
    public static final String FLEET_ACT = dev.linkproof.fleet.campaign.CampaignSettings.ACT_KEY;
    public static final String FLEET_MIN_OF_MEDIAN = "linkproof.fleet.minOfMedianBandwidth";
    public static final String FLEET_MAX_OF_LOWEST = "linkproof.fleet.maxOfLowestLatency";
    public static final String FLEET_MAX_DEVIATIONS = "linkproof.fleet.maxDeviations";
    public static final String FLEET_MIN_NODES = "linkproof.fleet.minNodes";
    public static final String FLEET_MIN_PAIRS = "linkproof.fleet.minPairs";
    public static final String FLEET_CONFIRMATIONS = "linkproof.fleet.confirmations";
    public static final String FLEET_MAX_BLAMED_FRACTION = "linkproof.fleet.maxBlamedFraction";
    public static final String FLEET_HISTORY = "linkproof.fleet.history";
    public static final String FLEET_ACT_AFTER = "linkproof.fleet.actAfter";
    public static final String FLEET_VERDICT = "linkproof.fleet.verdict";
    public static final String PROMETHEUS_TEXTFILE = "linkproof.prometheus.textfile";
    public static final String PROMETHEUS_PUSHGATEWAY = "linkproof.prometheus.pushgateway";
    public static final String PROMETHEUS_JOB = "linkproof.prometheus.job";
    public static final String DEFAULT_PROMETHEUS_JOB = "linkproof";
    public static final String PROMETHEUS_GROUPING = "linkproof.prometheus.grouping";
    public static final String PROJECT_VERSION = "linkproof.version";
    public static final String HARNESS_SOFTROCE = "linkproof.softroce";
    public static final String HARNESS_SOFTROCE_CLASSES = "linkproof.softroce.classes";
    public static final String HARNESS_SLURM = "linkproof.slurm";
    public static final String HARNESS_CONSOLE_LAUNCHER = "linkproof.consoleLauncher";
    public static final String HARNESS_ALLURE_HOME = "linkproof.allure.home";
    public static final String HARNESS_CUDA_INCLUDE = "linkproof.cuda.include";
    public static final String HARNESS_BUNDLE = "linkproof.bundle";

    private Constants() {}
}
