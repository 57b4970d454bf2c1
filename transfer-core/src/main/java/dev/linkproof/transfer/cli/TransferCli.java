package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentMain;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Runs transfer points against a target agent from the command line and prints one line per point,
 * in the spirit of perftest's {@code ib_write_bw}, each run exactly as the engine runs it (warmup,
 * one whole-loop timer, a fresh-pattern verification pass); the options: docs/benchmarks.md,
 * "Running points outside JUnit". {@code --agent-cpus} starts the local agent under
 * {@code taskset -c}, so a benchmark on one host keeps the two ranks on different CPUs. Exit status:
 * 0 when every point ran and validated, 1 when one did not, 2 for bad arguments. {@link TransferPoints}
 * makes the points, {@link TransferRun} runs them, {@link TransferPrinter} prints them.
 */
@Command(
        name = "linkproof-transfer",
        mixinStandardHelpOptions = true,
        version = AgentMain.VERSION,
        sortOptions = false,
        description = {
            "Runs Linkproof transfer points against a target agent and prints one line per point.",
            "Every list option takes comma-separated values; the points are their cross product."
        },
        footer = {
            "",
            "Examples:",
            "  linkproof-transfer --op write --size 64KiB,1MiB,16MiB --depth 16 --duration 2s --agent-cpus 1",
            "  linkproof-transfer --peer target:7471 --token $TOKEN --size 4KiB --mode latency --iters 10000",
            "  linkproof-transfer --transport verbs --rails rxe0,rxe9 --size 64KiB,1MiB --batch 32 --depth 4",
            "  linkproof-transfer --transport ucx --rails mlx5_0,mlx5_1 --size 1MiB --batch 16 --depth 4",
            "  linkproof-transfer --transport gpu-ipc --rails '0->1,1->0' --both-ways --size 64MiB",
            "  linkproof-transfer --rails '10.1.0.1->10.1.0.2,10.2.0.1->10.2.0.2' --size 1MiB --format json"
        })
public final class TransferCli implements Callable<Integer> {

    /** How the result lines are printed. */
    public enum Format {
        TABLE,
        CSV,
        JSON
    }

    /** A {@code --peer} value. */
    @Option(
            names = {"-o", "--op"},
            defaultValue = "write",
            converter = Converters.OpConverter.class,
            description = "Operation: write, read, send, write-with-imm (default ${DEFAULT-VALUE}).")
    Op op;

    @Option(
            names = {"-s", "--size"},
            split = ",",
            defaultValue = "64KiB",
            converter = Converters.SizeConverter.class,
            paramLabel = "SIZE",
            description = "Bytes per transfer, e.g. 4096, 64KiB, 1MiB (binary units; default ${DEFAULT-VALUE}).")
    List<Long> sizes;

    @Option(
            names = {"-b", "--batch"},
            split = ",",
            defaultValue = "1",
            paramLabel = "N",
            description = "Transfers per iteration, each into its own slot (default ${DEFAULT-VALUE}).")
    List<Integer> batches;

    @Option(
            names = {"-q", "--qps", "--connections"},
            split = ",",
            defaultValue = "1",
            paramLabel = "N",
            description = "Queue pairs / connections used in parallel (default ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(
            names = {"-d", "--depth"},
            split = ",",
            defaultValue = "1",
            paramLabel = "N|auto",
            description = "Iterations in flight; 1 = stop-and-wait; auto = enough to keep about 4 MiB in flight"
                    + " per point (default ${DEFAULT-VALUE}).")
    List<String> depths;

    @Option(
            names = {"-n", "--iters"},
            defaultValue = "1000",
            description = "Timed iterations per point (default ${DEFAULT-VALUE}); see --duration.")
    int iterations;

    @Option(
            names = {"-w", "--warmup"},
            defaultValue = "20",
            description = "Untimed warmup iterations (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
            names = {"-D", "--duration"},
            converter = Converters.DurationConverter.class,
            description = "Instead of --iters: run each point first as a short probe (about 128 MiB, at most --iters, "
                    + "at least two pipelines' worth), then with as many iterations as fill about this long (e.g. 2s, "
                    + "500ms, PT3S; at most an hour).")
    Duration duration;

    @Option(
            names = {"-m", "--mode"},
            defaultValue = "bandwidth",
            description = "bandwidth (one whole-loop timer) or latency (stop-and-wait, per-iteration percentiles); "
                    + "default ${DEFAULT-VALUE}.")
    Mode mode;

    @Option(
            names = {"-t", "--transport"},
            defaultValue = "tcp",
            description = "Transport id (default ${DEFAULT-VALUE}).")
    String transport;

    @Option(
            names = "--layout",
            defaultValue = "contiguous",
            description = "contiguous or strided slots (default ${DEFAULT-VALUE}).")
    Layout layout;

    @Option(
            names = "--offset",
            defaultValue = "0",
            description = "Misalignment of every slot, 0..4095 bytes (default ${DEFAULT-VALUE}).")
    long offset;

    @Option(
            names = "--initiator-mem",
            defaultValue = "host",
            converter = Converters.MemoryConverter.class,
            description = "Initiator memory: host, hugepage, gpu[:N] (default ${DEFAULT-VALUE}).")
    MemoryPlacement initiatorMemory;

    @Option(
            names = "--target-mem",
            defaultValue = "host",
            converter = Converters.MemoryConverter.class,
            description = "Target memory: host, hugepage, gpu[:N] (default ${DEFAULT-VALUE}).")
    MemoryPlacement targetMemory;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "A transport setting, given to both ranks (repeatable).")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(
            names = "--rails",
            split = ",",
            paramLabel = "RAIL",
            description = {
                "Run every point on these rails at once: one session to the agent and one data path per rail, their"
                    + " timed loops started together (a start barrier). Prints the aggregate (all bytes over the first"
                    + " start to the last end, the slowest rail's latency, every rail's validation) and then each"
                    + " rail.",
                "  verbs: a device per rail, used on both ranks (rail k runs with verbs.device = entry k): rxe0,rxe9.",
                "  ucx: a device per rail, DEVICE or DEVICE:PORT, used on both ranks (rail k's UCX context gets"
                    + " UCX_NET_DEVICES = entry k, a bare name on port 1, as the engine's ucx rails): mlx5_0,mlx5_1.",
                "  tcp: SOURCE->TARGET or TARGET per rail (the settings tcp.source, tcp.address; quote the '>'): "
                        + "'10.1.0.1->10.1.0.2,10.2.0.1->10.2.0.2'.",
                "  gpu-ipc: a GPU pair I->J per rail, runtime ordinals (rail k copies between the GPUs of entry k, "
                        + "in place of --initiator-mem/--target-mem, which it excludes): '0->1,1->0'.",
                "  libfabric: a domain of the point's provider per rail, used on both ranks (rail k runs with"
                        + " libfabric.domain = entry k; fi_info lists them): --set libfabric.provider='tcp;ofi_rxm'"
                        + " --rails lo,eth0.",
                "One entry runs one rail the same way, to compare it alone with several."
            })
    List<String> railNames;

    @Option(
            names = "--both-ways",
            description = {
                "Every rail (or the one pair) also runs back, from the agent's host to this one, at the same time, as"
                    + " ib_write_bw -b: the agent drives each way back toward an agent in this process (on loopback,"
                    + " or on the address this host reaches --peer from). Each way is validated on both ranks; the"
                    + " aggregate is all ways' bytes over the first start to the last end. Over tcp rails each needs"
                    + " SOURCE->TARGET. gpu-ipc is of one host: each GPU pair (the point's own without --rails) also"
                    + " runs reversed, GPU J to GPU I, driven from here as the engine runs it."
            })
    boolean bothWays;

    @Option(
            names = {"-r", "--repeat"},
            defaultValue = "1",
            description = "Run every point this many times (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = {"-f", "--format"},
            defaultValue = "table",
            description = "table (ib_write_bw style), csv or json (one object a line); default ${DEFAULT-VALUE}.")
    Format format;

    @Option(
            names = "--peer",
            converter = Converters.PeerConverter.class,
            paramLabel = "HOST:PORT",
            description = "Connect to the agent running there instead of starting a local one.")
    dev.linkproof.transfer.control.HostPort peer;

    @Option(names = "--token", description = "Token of the agent at --peer (default: $" + AgentMain.TOKEN_ENV + ").")
    String token;

    @Option(
            names = "--agent-cpus",
            paramLabel = "CPUS",
            description = "Start the local agent under taskset -c CPUS (e.g. 1 or 2-3), away from this process.")
    String agentCpus;

    @Option(
            names = "--agent-jvm-arg",
            paramLabel = "ARG",
            description = "Extra JVM option for the local agent (repeatable).")
    List<String> agentJvmArgs = new ArrayList<>();

    @Option(
            names = "--agent-log",
            description = "Where the local agent's output goes (default: a file in java.io.tmpdir).")
    Path agentLog;

    @Option(
            names = "--progress-timeout",
            defaultValue = "10s",
            converter = Converters.DurationConverter.class,
            description = "Fail a point whose data path makes no progress for this long (default ${DEFAULT-VALUE}).")
    Duration progressTimeout;

    @CommandLine.Spec
    CommandSpec commandSpec;

    private static final Pattern CPU_LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
    /** The longest --duration, as the engine's linkproof.duration. */
    private static final Duration MAX_DURATION = Duration.ofHours(1);

    /** The command line with this tool's conventions: case-insensitive enums, terse usage errors. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new TransferCli());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // --agent-jvm-arg=-Dkey=value: without this, picocli takes "-Dkey=value" for this tool's -D (--duration)
        // and refuses it as the agent's option. A value that is meant as an option still fails, by its converter.
        cl.setAllowOptionsAsOptionParameters(true);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("linkproof-transfer: " + ex.getMessage());
            err.println("Run with --help for the options.");
            err.flush();
            return ex.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<RailEntries.Entry> rails = rails();
        List<TransferSpec> points = points();
        checkTarget();
        return new TransferRun(this).run(rails, points);
    }

    /**
     * {@code --rails} as each rail's label and settings, and with {@code --both-ways} each of them back
     * after them; empty without either. Bad entries are usage errors.
     */
    List<RailEntries.Entry> rails() {
        if (railNames == null && !bothWays) {
            return List.of();
        }
        try {
            List<RailEntries.Entry> out =
                    railNames == null ? List.of() : RailEntries.parse(transport, railNames, settings);
            if (railNames != null && transport.equals(dev.linkproof.transfer.gpuipc.GpuIpcTransport.ID)) {
                for (String memoryOption : List.of("--initiator-mem", "--target-mem")) {
                    CommandLine.ParseResult given = commandSpec.commandLine().getParseResult();
                    if (given != null && given.hasMatchedOption(memoryOption)) {
                        throw new IllegalArgumentException(
                                "--rails names each gpu-ipc rail's GPUs (I->J, runtime ordinals): " + "drop "
                                        + memoryOption);
                    }
                }
            }
            return bothWays
                    ? RailEntries.bothWays(transport, out, new Rails.Placement(initiatorMemory, targetMemory))
                    : out;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandSpec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * Every point of the cross product, in the order they run (size outermost), validated here so a
     * bad combination is a usage error before any agent is started.
     */
    List<TransferSpec> points() {
        requireArg(repeat >= 1, "--repeat must be at least 1, was " + repeat);
        requireArg(duration == null || !duration.isNegative() && !duration.isZero(), "--duration must be positive");
        requireArg(
                duration == null || duration.compareTo(MAX_DURATION) <= 0,
                "--duration must be at most " + MAX_DURATION);
        requireArg(
                progressTimeout != null && !progressTimeout.isNegative() && !progressTimeout.isZero(),
                "--progress-timeout must be positive");
        // gpu-ipc rails name their own GPUs: the point's memory is rail 0's, as the engine's results record has it.
        Rails.Placement memory = transport.equals(dev.linkproof.transfer.gpuipc.GpuIpcTransport.ID) && railNames != null
                ? rails().getFirst().memory().orElseThrow()
                : new Rails.Placement(initiatorMemory, targetMemory);
        return TransferPoints.of(this, memory, commandSpec.commandLine());
    }

    private void checkTarget() {
        requireArg(
                peer == null || agentCpus == null,
                "--peer and --agent-cpus exclude each other: "
                        + "pin a remote agent where it is started (taskset -c N linkproof-agent ...)");
        requireArg(
                agentCpus == null || CPU_LIST.matcher(agentCpus).matches(),
                "--agent-cpus '" + agentCpus + "' is not a CPU list like 1, 2-3 or 1,3");
        requireArg(
                peer == null || resolvedToken() != null,
                "--peer needs the agent's token: --token T or $" + AgentMain.TOKEN_ENV
                        + " (the agent prints it when it generates one)");
    }

    /** The session's deadlines: {@code --progress-timeout}, the others {@link Timeouts#DEFAULT}'s. */
    Timeouts timeouts() {
        return new Timeouts(
                Timeouts.DEFAULT.agentStart(),
                Timeouts.DEFAULT.control(),
                new IoSettings(progressTimeout, IoSettings.DEFAULT.connectTimeout()));
    }

    /**
     * What a failure because a deadline ran out adds to its message: the option that sets it
     * ({@code " [deadline: --progress-timeout=10s; raise it if the transfer is slow rather than stuck]"}),
     * or the value and that no option does. Empty for every other failure.
     */
    String deadlineNote(Throwable failure) {
        // Only the progress deadline has an option here; the others keep their defaults.
        return dev.linkproof.transfer.session.DeadlineNote.of(
                failure,
                timeouts(),
                d -> d == Deadline.PROGRESS ? java.util.Optional.of("--progress-timeout") : java.util.Optional.empty());
    }

    String resolvedToken() {
        String t = token != null ? token : System.getenv(AgentMain.TOKEN_ENV);
        return t == null || t.isEmpty() ? null : t;
    }

    private void requireArg(boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(commandSpec.commandLine(), message);
        }
    }
}
