package dev.linkproof.conformance.bench;

import dev.linkproof.conformance.bench.fixtures.FleetCostPoint;
import dev.linkproof.conformance.fleet.SlurmFleet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bench/fleet-cost.sh's runner (issue #24, item 9): what the coordinator adds to a fleet run. Runs a
 * clean fleet of the four Slurm nodes {@code reps} times and prints, for each, the rounds' wall time
 * (warm-up, confirmations and retests included) against the sum of each round's slowest pair, as the coordinator
 * measured them; the time from the last registration to the verdicts (rounds, retests, blame, the
 * verdict file and heat maps) against the same sum; and the whole job's wall time for context (sbatch,
 * JVM starts, registration).
 */
public final class FleetCost {
    private static final Pattern COST = Pattern.compile(
            "cost: the rounds \\(warm-up, confirmations and retests included\\) took ([0-9.]+) s, their slowest pairs"
                    + " ([0-9.]+) s together \\([0-9.]+×\\); ([0-9.]+) s from the last registration to the verdicts");

    private FleetCost() {}

    public static void main(String[] args) throws Exception {
        int reps = Integer.parseInt(args.length > 0 ? args[0] : "3");
        Path work = Files.createDirectories(
                Path.of(args.length > 1 ? args[1] : "target/fleet-cost").toAbsolutePath());
        SlurmFleet.up();
        System.out.println("run  rounds_s  slowest_pairs_s  ratio  registered_to_verdicts_s  ratio  job_s");
        for (int i = 1; i <= reps; i++) {
            long t0 = System.nanoTime();
            SlurmFleet.Job job = SlurmFleet.run(
                    SlurmFleet.Run.named("cost-" + i)
                            .testClass(FleetCostPoint.class.getName())
                            .with("linkproof.fleet.minOfMedianBandwidth", "0.01"),
                    work);
            double jobSeconds = (System.nanoTime() - t0) / 1e9;
            Matcher m = COST.matcher(job.coordinatorOutput());
            if (job.exitCode() != 0 || !m.find()) {
                throw new IllegalStateException("run " + i + " failed (exit " + job.exitCode() + "); see " + job.dir()
                        + ":\n" + job.coordinatorOutput());
            }
            double rounds = Double.parseDouble(m.group(1));
            double slowest = Double.parseDouble(m.group(2));
            double coordinated = Double.parseDouble(m.group(3));
            System.out.printf(
                    Locale.ROOT,
                    "%3d  %8.2f  %15.2f  %5.3f  %24.2f  %5.3f  %5.1f%n",
                    i,
                    rounds,
                    slowest,
                    rounds / slowest,
                    coordinated,
                    coordinated / slowest,
                    jobSeconds);
        }
    }
}
