package dev.linkproof.engine.discovery;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expands a {@link TransferTest} into its points, statically, at discovery time, so every point is a
 * test with a stable unique id before anything runs. A sweep that cannot be expanded yields an
 * {@link InvalidSweepException} naming the attribute and the value.
 */
public final class SweepExpander {
    /** Largest number of points one method may expand to: a typo in a range must not make a million tests. */
    public static final int MAX_POINTS = 10_000;
    /** The most rails a point may name: more NICs than any node has. */
    public static final int MAX_RAILS = dev.linkproof.engine.config.LinkproofConfiguration.MAX_RAILS;

    private final String defaultTransport;
    private final double iterationScale;
    private final java.util.function.Function<String, String> connectionNoun;

    /**
     * @param connectionNoun what a transport calls a queue pair ("conn", "QP", "ep"), for display names
     */
    public SweepExpander(String defaultTransport, double iterationScale, java.util.function.Function<String, String> connectionNoun) {
        this(defaultTransport, iterationScale, connectionNoun, dev.linkproof.profiles.Defaults.NONE);
    }

    /** @param defaults the profile's values for what an annotation leaves unset */
    public SweepExpander(String defaultTransport, double iterationScale, java.util.function.Function<String, String> connectionNoun,
                         dev.linkproof.profiles.Defaults defaults) {
        this.defaultTransport = defaultTransport;
        this.iterationScale = iterationScale;
        this.connectionNoun = connectionNoun;
        this.defaults = defaults;
    }

    private final dev.linkproof.profiles.Defaults defaults;
    private java.util.function.Predicate<String> stagesGpuMemory = id -> false;

    private List<String> nics = List.of();

    /**
     * The RDMA devices a verbs point runs on, one point per device ({@code linkproof.nics=each}):
     * the device is part of the point's unique id ({@code ,nic=mlx5_3}) and name ({@code · mlx5_3})
     * and its {@code verbs.device} setting. Empty (the default): one point, on the device the run
     * chooses. A point whose settings name {@code verbs.device} keeps its one device.
     */
    public SweepExpander withNics(List<String> nics) {
        this.nics = List.copyOf(nics);
        return this;
    }

    private int gpus;

    /**
     * With {@code linkproof.gpus=each}, how many GPUs the profile provides: a point whose memory
     * names a GPU is made once per GPU, its GPU indices (the profile's k-th GPU, as {@code gpu:k}
     * always means; RunProfile#placeGpus maps them to runtime ordinals) shifted by 0, 1, … {@code gpus - 1} (modulo {@code gpus}), so {@code gpu->gpu} runs on every GPU (0→0, 1→1, …), {@code gpu->gpu:1} on
     * every neighbouring pair (0→1, 1→2, …, n-1→0: each GPU's link to the next), {@code host->gpu}
     * on every GPU's host path. The shifted indices are in the point's memory, hence its unique id
     * and name. 0 or 1 (the default): as written.
     */
    public SweepExpander withGpus(int gpus) {
        this.gpus = gpus;
        return this;
    }

    /** {@code mem} and, with {@link #withGpus}, its shifts; a placement beyond the GPUs there are stays as written (and skips). */
    private List<MemoryPlacement[]> shifts(MemoryPlacement[] mem) {
        boolean gpu = false;
        for (MemoryPlacement side : mem) {
            if (side.kind() == dev.linkproof.transfer.MemoryKind.GPU) {
                gpu = true;
                if (side.device() >= gpus) {
                    return List.<MemoryPlacement[]>of(mem);
                }
            }
        }
        if (!gpu || gpus < 2) {
            return List.<MemoryPlacement[]>of(mem);
        }
        List<MemoryPlacement[]> out = new ArrayList<>();
        for (int shift = 0; shift < gpus; shift++) {
            MemoryPlacement[] moved = new MemoryPlacement[mem.length];
            for (int i = 0; i < mem.length; i++) {
                moved[i] = mem[i].kind() == dev.linkproof.transfer.MemoryKind.GPU
                        ? new MemoryPlacement(mem[i].kind(), (mem[i].device() + shift) % gpus) : mem[i];
            }
            out.add(moved);
        }
        return out;
    }

    /** The devices a point of {@code transport} with {@code settings} is made once for; {@code [null]} = once, no device. */
    private List<String> nicsFor(String transport, Map<String, String> settings) {
        if (nics.isEmpty() || !dev.linkproof.profiles.ResourcePlan.RDMA_TRANSPORTS.contains(transport)
                || settings.containsKey(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE)) {
            return java.util.Collections.singletonList(null);
        }
        return nics;
    }

    private java.util.OptionalInt rails = java.util.OptionalInt.empty();

    /**
     * {@code linkproof.rails}: the rails every RDMA point runs at once, in place of its annotation's
     * (0 = every rail the profile resolves). Empty (the default): as annotated.
     */
    public SweepExpander withRails(java.util.OptionalInt rails) {
        this.rails = rails;
        return this;
    }

    private java.util.Optional<dev.linkproof.engine.api.Direction> direction = java.util.Optional.empty();

    /** {@code linkproof.direction}: the direction of every RDMA point, in place of its annotation's. Empty: as annotated. */
    public SweepExpander withDirection(java.util.Optional<dev.linkproof.engine.api.Direction> direction) {
        this.direction = direction;
        return this;
    }

    private boolean bothWays(String transport, dev.linkproof.engine.api.Direction annotated) {
        dev.linkproof.engine.api.Direction d = direction.isPresent()
                && dev.linkproof.profiles.ResourcePlan.RDMA_TRANSPORTS.contains(transport) ? direction.get() : annotated;
        return d == dev.linkproof.engine.api.Direction.BOTH_WAYS;
    }

    /** The rail counts a point of {@code transport} is made for. */
    private int[] railsFor(String transport, int[] annotated) {
        if (rails.isPresent() && dev.linkproof.profiles.ResourcePlan.RDMA_TRANSPORTS.contains(transport)) {
            return new int[] {rails.getAsInt()};
        }
        return annotated;
    }

    /** Which transports move GPU memory through a host copy: their GPU points say "staged" in their names. */
    public SweepExpander withGpuStaging(java.util.function.Predicate<String> stagesGpuMemory) {
        this.stagesGpuMemory = stagesGpuMemory;
        return this;
    }

    /**
     * The sweep's points. Every dimension is checked before any point is made, and all that is wrong
     * is reported at once ("batch 0 out of range 1..65536; offset 4096 out of range 0..4095"), so a
     * method with several mistakes takes one round to mend.
     */
    public List<SweepPoint> expand(Method method, TransferTest t) throws InvalidSweepException {
        List<String> problems = new ArrayList<>();
        List<Long> sizes = check(problems, () -> sizes(t.sizes()), List.of());
        boolean defaultSizes = t.sizes().values().length == 1 && t.sizes().values()[0].equals("64KiB")
                && t.sizes().from().isEmpty() && t.sizes().to().isEmpty();
        int[] batches = check(problems, () -> positive("batch",
                t.batch().length == 0 ? new int[] {defaults.batch().orElse(1)} : t.batch(), TransferSpec.MAX_BATCH), new int[0]);
        int[] qps = check(problems, () -> positive("qps",
                t.qps().length == 0 ? new int[] {defaults.qps().orElse(1)} : t.qps(), TransferSpec.MAX_CONNECTIONS), new int[0]);
        int[] depths = check(problems, () -> positive("pipeline", t.pipeline(), TransferSpec.MAX_PIPELINE), new int[0]);
        if (t.rails().length == 0) {
            problems.add("rails is empty");
        }
        for (int r : t.rails()) {
            if (r < 0 || r > MAX_RAILS) {
                problems.add("rails " + r + " out of range 0.." + MAX_RAILS + " (0 = TransferTest.ALL_RAILS, every rail the profile resolves)");
            }
        }
        if (t.op().length == 0) {
            problems.add("op is empty");
        }
        if (t.offset().length == 0) {
            problems.add("offset is empty");
        }
        for (long o : t.offset()) {
            if (o < 0 || o > 4095) {
                problems.add("offset " + o + " out of range 0..4095");
            }
        }
        if (t.mode() == Mode.LATENCY) {
            for (int d : depths) {
                if (d != 1) {
                    problems.add("pipeline " + d + " with mode = LATENCY: latency mode is stop-and-wait (pipeline 1)");
                }
            }
        }
        if (t.iterations() < 0) {
            problems.add("iterations " + t.iterations() + " must be >= 0 (0 = automatic)");
        }
        if (t.warmup() < -1) {
            problems.add("warmup " + t.warmup() + " must be >= 0 (-1 = automatic)");
        }
        List<MemoryPlacement[]> memories = new ArrayList<>();
        // A point of several rails is not repeated per GPU shift: its rails place their GPUs themselves
        // (GPU pairs each shifted by the rail's index, or the GPU beside each rail's NIC), as such a
        // point is not repeated per NIC.
        List<MemoryPlacement[]> written = new ArrayList<>();
        Set<String> placements = new java.util.HashSet<>();
        Set<String> writtenPlacements = new java.util.HashSet<>();
        for (String m : t.memory()) {
            // a placement the GPU shifts make twice (gpu->gpu and gpu:1->gpu:1) is one, and counts once
            check(problems, () -> {
                MemoryPlacement[] as = memory(m);
                shifts(as).stream().filter(p -> placements.add(p[0] + "->" + p[1])).forEach(memories::add);
                if (writtenPlacements.add(as[0] + "->" + as[1])) {
                    written.add(as);
                }
                return null;
            }, null);
        }
        if (t.memory().length == 0) {
            problems.add("memory is empty");
        }
        String[] transports = t.transport().length == 0 ? new String[] {defaultTransport} : t.transport();
        for (String id : transports) {
            // A transport id becomes a tag of its points, so it must be a valid JUnit tag.
            if (!org.junit.platform.engine.TestTag.isValid(id)) {
                problems.add("transport '" + id + "' is not a valid transport id (no blanks, commas, "
                        + "parentheses, &, | or !)");
            }
        }
        Map<String, String> settings = check(problems, () -> settings(t.settings()), Map.of());
        List<String[]> paths = new ArrayList<>(); // {transport, device or null, rails}: what the other dimensions repeat over
        for (String transport : transports) {
            for (int r : railsFor(transport, t.rails())) {
                // A point of several rails runs on the devices of all of them: it is not repeated per device.
                boolean both = bothWays(transport, t.direction());
                List<String> nics = r == 1 && !both ? nicsFor(transport, settings) : java.util.Collections.singletonList(null);
                nics.forEach(nic -> paths.add(new String[] {transport, nic, Integer.toString(r)}));
            }
        }
        long count = (long) t.op().length * sizes.size() * batches.length * qps.length * depths.length
                * t.offset().length * memories.size() * paths.size();
        if (count > MAX_POINTS) {
            problems.add("the sweep expands to " + count + " points, more than " + MAX_POINTS);
        }
        if (!problems.isEmpty()) {
            throw new InvalidSweepException(String.join("; ", problems));
        }

        String methodKey = method.getDeclaringClass().getName() + "#" + method.getName();
        List<SweepPoint> points = new ArrayList<>();
        List<String> badPoints = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String[] path : paths) {
            String transport = path[0];
            String nic = path[1];
            int railCount = Integer.parseInt(path[2]);
            boolean both = bothWays(transport, t.direction());
            String railsId = (railCount == 1 ? "" : ",rails=" + (railCount == 0 ? "all" : Integer.toString(railCount)))
                    + (both ? ",both-ways" : "");
            String railsName = (railCount == 1 ? "" : " · " + (railCount == 0 ? "all" : Integer.toString(railCount)) + " rails")
                    + (both ? " · both ways" : "");
            Map<String, String> pointSettings = settings;
            if (nic != null) {
                pointSettings = new java.util.LinkedHashMap<>(settings);
                pointSettings.put(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE, nic);
            }
            for (Op op : t.op()) {
                for (MemoryPlacement[] mem : railCount == 1 && !both ? memories : written) {
                    for (int q : qps) {
                        for (int depth : depths) {
                            for (int batch : batches) {
                                for (long offset : t.offset()) {
                                    // An atomic's size is its counter's width, 8: the default sizes (64 KiB,
                                    // made for moving bytes) mean it; sizes given explicitly are checked
                                    // by TransferSpec, which names the 8 it needs.
                                    for (long size : op.atomic() && defaultSizes ? List.of((long) Op.ATOMIC_BYTES) : sizes) {
                                        String segment = segment(op, size, batch, q, depth, mem, transport, offset, t)
                                                + (nic == null ? "" : ",nic=" + nic) + railsId;
                                        if (!seen.add(segment)) {
                                            continue; // a value listed twice is one point
                                        }
                                        int iters = iterations(t, size, batch);
                                        int warmup = t.warmup() >= 0 ? t.warmup()
                                                : defaults.warmup().isPresent() ? defaults.warmup().getAsInt()
                                                : Math.max(2, iters / 10);
                                        TransferSpec spec;
                                        try {
                                            spec = new TransferSpec(methodKey + "[" + segment + "]", transport, op, t.mode(),
                                                    size, batch, q, depth, iters, warmup, t.layout(), offset, mem[0], mem[1], pointSettings);
                                        } catch (IllegalArgumentException e) {
                                            badPoints.add("point " + segment + ": " + e.getMessage());
                                            continue;
                                        }
                                        points.add(new SweepPoint(spec, displayName(spec) + (nic == null ? "" : " · " + nic) + railsName,
                                                segment, railCount, both));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if (!badPoints.isEmpty()) {
            // Every bad point, up to a few; a dimension that breaks many says so once per point.
            List<String> shown = badPoints.subList(0, Math.min(MAX_BAD_POINTS_SHOWN, badPoints.size()));
            throw new InvalidSweepException(String.join("; ", shown) + (badPoints.size() > shown.size()
                    ? "; and " + (badPoints.size() - shown.size()) + " more point(s) like these" : ""));
        }
        return points;
    }

    /** How many of a sweep's bad points its discovery issue names one by one. */
    private static final int MAX_BAD_POINTS_SHOWN = 3;

    /** A dimension's check that throws {@link InvalidSweepException}. */
    @FunctionalInterface
    private interface Check<T> {
        T get() throws InvalidSweepException;
    }

    /** {@code check}'s value, or {@code fallback} with its problem added to {@code problems}. */
    private static <T> T check(List<String> problems, Check<T> check, T fallback) {
        try {
            return check.get();
        } catch (InvalidSweepException e) {
            problems.add(e.getMessage());
            return fallback;
        }
    }

    private int iterations(TransferTest t, long size, int batch) {
        int base;
        if (t.iterations() > 0) {
            base = t.iterations();
        } else if (defaults.iterations().isPresent()) {
            base = defaults.iterations().getAsInt();
        } else {
            long perIteration = size * batch;
            base = (int) Math.max(10, Math.min(1000, (256L << 20) / perIteration));
        }
        return (int) Math.max(1, Math.round(base * iterationScale));
    }

    static List<Long> sizes(Sweep s) throws InvalidSweepException {
        boolean range = !s.from().isEmpty() || !s.to().isEmpty();
        if (range && s.values().length > 0) {
            throw new InvalidSweepException("sizes: give either values or from/to, not both");
        }
        List<Long> out = new ArrayList<>();
        if (!range) {
            if (s.values().length == 0) {
                throw new InvalidSweepException("sizes: no values");
            }
            for (String v : s.values()) {
                out.add(size(v));
            }
            return out;
        }
        if (s.from().isEmpty() || s.to().isEmpty()) {
            throw new InvalidSweepException("sizes: a range needs both from and to");
        }
        long from = size(s.from());
        long to = size(s.to());
        if (from > to) {
            throw new InvalidSweepException("sizes: from " + s.from() + " is larger than to " + s.to() + " (empty range)");
        }
        String step = s.step().trim();
        if (step.startsWith("x") || step.startsWith("X") || step.startsWith("×") || step.startsWith("*")) {
            long factor;
            try {
                factor = Long.parseLong(step.substring(1).trim());
            } catch (NumberFormatException e) {
                throw new InvalidSweepException("sizes: bad step '" + s.step() + "' (expected x2, x4 or +4KiB)");
            }
            if (factor < 2) {
                throw new InvalidSweepException("sizes: step '" + s.step() + "' must multiply by at least 2");
            }
            for (long v = from; v <= to; v = Math.multiplyExact(v, factor)) {
                out.add(v);
                if (v > Long.MAX_VALUE / factor) {
                    break;
                }
            }
        } else if (step.startsWith("+")) {
            long inc;
            try {
                inc = Units.parseSize(step.substring(1));
            } catch (IllegalArgumentException e) {
                throw new InvalidSweepException("sizes: bad step '" + s.step() + "': " + e.getMessage());
            }
            if (inc <= 0) {
                throw new InvalidSweepException("sizes: step '" + s.step() + "' must be positive");
            }
            for (long v = from; v <= to; v += inc) {
                out.add(v);
                if (out.size() > MAX_POINTS) {
                    throw new InvalidSweepException("sizes: " + s.from() + ".." + s.to() + " step " + s.step()
                            + " gives more than " + MAX_POINTS + " sizes");
                }
            }
        } else {
            throw new InvalidSweepException("sizes: bad step '" + s.step() + "' (expected x2, x4 or +4KiB)");
        }
        return out;
    }

    private static long size(String text) throws InvalidSweepException {
        try {
            long v = Units.parseSize(text);
            if (v < 1 || v > TransferSpec.MAX_SIZE) {
                throw new InvalidSweepException("sizes: " + text + " out of range 1 B.." + Units.formatSize(TransferSpec.MAX_SIZE));
            }
            return v;
        } catch (IllegalArgumentException e) {
            throw new InvalidSweepException("sizes: " + e.getMessage());
        }
    }

    private static int[] positive(String what, int[] values, int max) throws InvalidSweepException {
        if (values.length == 0) {
            throw new InvalidSweepException(what + " is empty");
        }
        for (int v : values) {
            if (v < 1 || v > max) {
                throw new InvalidSweepException(what + " " + v + " out of range 1.." + max);
            }
        }
        return values;
    }

    private static MemoryPlacement[] memory(String text) throws InvalidSweepException {
        try {
            String[] sides = text.split("->|→", -1);
            if (sides.length == 1) {
                MemoryPlacement m = MemoryPlacement.parse(sides[0]);
                return new MemoryPlacement[] {m, m};
            }
            if (sides.length == 2) {
                return new MemoryPlacement[] {MemoryPlacement.parse(sides[0]), MemoryPlacement.parse(sides[1])};
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidSweepException("memory: " + e.getMessage());
        }
        throw new InvalidSweepException("memory: bad placement '" + text + "' (expected e.g. host or host->gpu:1)");
    }

    private static Map<String, String> settings(String[] pairs) throws InvalidSweepException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : pairs) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new InvalidSweepException("settings: '" + p + "' is not KEY=value");
            }
            out.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
        }
        return out;
    }

    private static String segment(Op op, long size, int batch, int qps, int depth, MemoryPlacement[] mem,
                                  String transport, long offset, TransferTest t) {
        StringBuilder sb = new StringBuilder()
                .append("op=").append(op.label())
                .append(",size=").append(size)
                .append(",batch=").append(batch)
                .append(",qps=").append(qps)
                .append(",depth=").append(depth)
                .append(",mem=").append(mem[0]).append("->").append(mem[1])
                .append(",transport=").append(transport);
        if (offset != 0) {
            sb.append(",offset=").append(offset);
        }
        if (t.layout() != Layout.CONTIGUOUS) {
            sb.append(",layout=").append(t.layout().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (t.mode() != Mode.BANDWIDTH) {
            sb.append(",mode=").append(t.mode().name().toLowerCase(java.util.Locale.ROOT));
        }
        return sb.toString();
    }

    /** {@code write 4 KiB ×8 · 4 conn · tcp}, with the non-default dimensions appended. */
    public String displayName(TransferSpec s) {
        StringBuilder sb = new StringBuilder()
                .append(s.op().label()).append(' ').append(Units.formatSize(s.size()))
                .append(" ×").append(s.batch())
                .append(" · ").append(s.connections()).append(' ').append(connectionNoun.apply(s.transport()))
                .append(" · ").append(s.transport());
        if (s.pipelineDepth() > 1) {
            sb.append(" · depth ").append(s.pipelineDepth());
        }
        if (s.offset() != 0) {
            sb.append(" · +").append(s.offset()).append(" B offset");
        }
        if (s.layout() != Layout.CONTIGUOUS) {
            sb.append(" · strided");
        }
        if (s.mode() == Mode.LATENCY) {
            sb.append(" · latency");
        }
        if (!s.initiatorMemory().equals(MemoryPlacement.HOST) || !s.targetMemory().equals(MemoryPlacement.HOST)) {
            sb.append(" · ").append(s.initiatorMemory()).append('→').append(s.targetMemory());
            boolean gpu = s.initiatorMemory().kind() == dev.linkproof.transfer.MemoryKind.GPU
                    || s.targetMemory().kind() == dev.linkproof.transfer.MemoryKind.GPU;
            if (gpu && stagesGpuMemory.test(s.transport())) {
                sb.append(" (staged via host)");
            }
        }
        return sb.toString();
    }
}
