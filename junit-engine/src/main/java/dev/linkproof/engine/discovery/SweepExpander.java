package dev.linkproof.engine.discovery;

import dev.linkproof.engine.api.Direction;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.profiles.Defaults;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Expands a {@link TransferTest} into its points, statically, at discovery time, so every point is a
 * test with a stable unique id before anything runs. The annotation is read and checked by
 * {@link SweepDimensions}, the run's overrides are {@link RunOverrides}, names are {@link PointNames};
 * this class makes the cross product and sizes each point's iterations. A sweep that cannot be
 * expanded yields an {@link InvalidSweepException} naming the attribute and the value.
 */
public final class SweepExpander {
    /** Largest number of points one method may expand to: a typo in a range must not make a million tests. */
    public static final int MAX_POINTS = SweepDimensions.MAX_POINTS;
    /** The most rails a point may name: more NICs than any node has. */
    public static final int MAX_RAILS = SweepDimensions.MAX_RAILS;
    /** How many of a sweep's bad points its discovery issue names one by one. */
    private static final int MAX_BAD_POINTS_SHOWN = 3;

    private final String defaultTransport;
    private final double iterationScale;
    private final Function<String, String> connectionNoun;
    private final Defaults defaults;
    private final RunOverrides run;

    /** @param connectionNoun what a transport calls a queue pair ("conn", "QP", "ep"), for display names */
    public SweepExpander(String defaultTransport, double iterationScale, Function<String, String> connectionNoun) {
        this(defaultTransport, iterationScale, connectionNoun, Defaults.NONE);
    }

    /** @param defaults the profile's values for what an annotation leaves unset */
    public SweepExpander(
            String defaultTransport,
            double iterationScale,
            Function<String, String> connectionNoun,
            Defaults defaults) {
        this(defaultTransport, iterationScale, connectionNoun, defaults, RunOverrides.NONE);
    }

    private SweepExpander(
            String defaultTransport,
            double iterationScale,
            Function<String, String> connectionNoun,
            Defaults defaults,
            RunOverrides run) {
        this.defaultTransport = defaultTransport;
        this.iterationScale = iterationScale;
        this.connectionNoun = connectionNoun;
        this.defaults = defaults;
        this.run = run;
    }

    private SweepExpander with(RunOverrides overrides) {
        return new SweepExpander(defaultTransport, iterationScale, connectionNoun, defaults, overrides);
    }

    /**
     * The RDMA devices a verbs point runs on, one point per device ({@code linkproof.nics=each}):
     * the device is part of the point's unique id ({@code ,nic=mlx5_3}) and name ({@code · mlx5_3})
     * and its {@code verbs.device} setting. Empty (the default): one point, on the device the run
     * chooses. A point whose settings name {@code verbs.device} keeps its one device.
     */
    public SweepExpander withNics(List<String> nics) {
        return with(run.withNics(nics));
    }

    /**
     * With {@code linkproof.gpus=each}, how many GPUs the profile provides: a point whose memory
     * names a GPU is made once per GPU, its GPU indices (the profile's k-th GPU, as {@code gpu:k}
     * always means) shifted ({@link RunOverrides#shifts}). The shifted indices are in the point's
     * memory, hence its unique id and name. 0 or 1 (the default): as written.
     */
    public SweepExpander withGpus(int gpus) {
        return with(run.withGpus(gpus));
    }

    /**
     * {@code linkproof.rails}: the rails every RDMA point runs at once, in place of its annotation's
     * (0 = every rail the profile resolves). Empty (the default): as annotated.
     */
    public SweepExpander withRails(OptionalInt rails) {
        return with(run.withRails(rails));
    }

    /** {@code linkproof.direction}: the direction of every RDMA point, in place of its annotation's. Empty: as annotated. */
    public SweepExpander withDirection(Optional<Direction> direction) {
        return with(run.withDirection(direction));
    }

    /** Which transports move GPU memory through a host copy: their GPU points say "staged" in their names. */
    public SweepExpander withGpuStaging(Predicate<String> stagesGpuMemory) {
        return with(run.withGpuStaging(stagesGpuMemory));
    }

    /** The sweep's points; every dimension is checked before any point is made ({@link SweepDimensions}). */
    public List<SweepPoint> expand(Method method, TransferTest t) throws InvalidSweepException {
        SweepDimensions d = SweepDimensions.read(t, defaults, run, defaultTransport);
        PointNames names = new PointNames(connectionNoun, run.stagesGpuMemory());
        String methodKey = method.getDeclaringClass().getName() + "#" + method.getName();
        List<SweepPoint> points = new ArrayList<>();
        List<String> badPoints = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (PointPath path : d.paths()) {
            Map<String, String> settings = d.settings();
            if (path.nic() != null) {
                settings = new LinkedHashMap<>(settings);
                settings.put(VerbsSettings.DEVICE, path.nic());
            }
            for (Op op : d.ops()) {
                for (Placement mem : d.placementsFor(path)) {
                    for (int q : d.qps()) {
                        for (int depth : d.depths()) {
                            for (int batch : d.batches()) {
                                for (long offset : d.offsets()) {
                                    for (long size : d.sizesFor(op)) {
                                        String segment = PointNames.segment(
                                                        op,
                                                        size,
                                                        batch,
                                                        q,
                                                        depth,
                                                        mem,
                                                        path.transport(),
                                                        offset,
                                                        t.layout(),
                                                        t.mode())
                                                + path.idSuffix();
                                        if (!seen.add(segment)) {
                                            continue; // a value listed twice is one point
                                        }
                                        int iters = iterations(t, size, batch);
                                        TransferSpec spec;
                                        try {
                                            spec = new TransferSpec(
                                                    methodKey + "[" + segment + "]",
                                                    path.transport(),
                                                    op,
                                                    t.mode(),
                                                    size,
                                                    batch,
                                                    q,
                                                    depth,
                                                    iters,
                                                    warmup(t, iters),
                                                    t.layout(),
                                                    offset,
                                                    mem.initiator(),
                                                    mem.target(),
                                                    settings);
                                        } catch (IllegalArgumentException e) {
                                            badPoints.add("point " + segment + ": " + e.getMessage());
                                            continue;
                                        }
                                        points.add(new SweepPoint(
                                                spec,
                                                names.displayName(spec) + path.nameSuffix(),
                                                segment,
                                                path.rails(),
                                                path.bothWays()));
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
            throw new InvalidSweepException(String.join("; ", shown)
                    + (badPoints.size() > shown.size()
                            ? "; and " + (badPoints.size() - shown.size()) + " more point(s) like these"
                            : ""));
        }
        return points;
    }

    /** Given, the profile's, or enough to move about 256 MiB (10 to 1000), scaled by {@code linkproof.iterations.scale}. */
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

    /** Given, the profile's, or a tenth of the iterations (at least 2). */
    private int warmup(TransferTest t, int iters) {
        return t.warmup() >= 0
                ? t.warmup()
                : defaults.warmup().isPresent() ? defaults.warmup().getAsInt() : Math.max(2, iters / 10);
    }
}
