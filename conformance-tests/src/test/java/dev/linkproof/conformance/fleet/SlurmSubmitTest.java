package dev.linkproof.conformance.fleet;

import static dev.linkproof.conformance.fleet.SlurmKitRuns.SLURM;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.fake;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.fakeBundle;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.fleet.SlurmKitRuns.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm launch kit's submit wrapper (examples/fleet/slurm/submit.sh) holds the job until its
 * folder exists, passes its knobs and arguments on to sbatch and the batch script, unpacks a
 * tarball once, and reports the job's status; against stand-in sbatch, scontrol and scancel and a
 * stand-in bundle. The batch script itself is SlurmKitTest's.
 * Tagged e2e: a test of the product, not of the hardware, so a conformance run leaves it out.
 */
@Tag("e2e")
class SlurmSubmitTest {
    @Test
    void submitHoldsTheJobUntilItsFolderExistsPassesItsArgumentsOnAndExitsWithTheJobsStatus(@TempDir Path dir)
            throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls");
        Path bundle = fakeBundle(dir.resolve("linkproof-9.9"), log);
        Path runs = dir.resolve("runs");
        fake(bin, "sbatch", "echo \"sbatch $*\" >> " + log + "; echo '4242;cluster'");
        fake(
                bin,
                "scontrol",
                "echo \"scontrol $*\" >> " + log + "; [ \"$1\" = release ] && exit 0; echo \"JobId=4242 "
                        + "JobName=linkproof-fleet JobState=$STATE Reason=None ExitCode=$CODE:0\"");
        fake(bin, "scancel", "echo \"scancel $*\" >> " + log);
        String path = bin + ":" + System.getenv("PATH");
        Path script = SLURM.resolve("submit.sh");
        Path folder = runs.resolve("linkproof-fleet-4242");

        Run failed = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "-N",
                        "4",
                        "--",
                        "--select",
                        "WriteCorrectness"),
                Map.of("PATH", path, "STATE", "FAILED", "CODE", "3"));
        assertThat(failed.rc()).as(failed.out()).isEqualTo(3);
        assertThat(failed.out())
                .contains("job 4242 submitted; everything in " + folder)
                .contains("job 4242 ended: FAILED, exit code 3");
        List<String> calls = Files.readAllLines(log);
        assertThat(calls.getFirst())
                .isEqualTo("sbatch --parsable --hold --output=" + runs + "/linkproof-fleet-%j/job.out --exclusive "
                        + "-N 4 " + SLURM.resolve("linkproof-fleet.sbatch") + " --bundle " + bundle + " --out-dir "
                        + runs
                        + " -- --select WriteCorrectness");
        // Released once its folder is there, where Slurm opens its output.
        assertThat(calls.get(1)).isEqualTo("scontrol release 4242");
        assertThat(folder).isDirectory();
        Files.writeString(folder.resolve("coordinator.out"), "the suite ran\n");
        Files.createDirectories(folder.resolve("out"));
        Files.writeString(folder.resolve("out/fleet-verdict.json"), "{}");

        // The knobs: sharing the nodes, GPUs, a time limit, the node check's floor, a setup file.
        Files.delete(log);
        Path setup = Files.writeString(dir.resolve("setup.sh"), "module load ucx\n");
        Run passed = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "--no-exclusive",
                        "--gres=gpu:8",
                        "--setup",
                        setup.toString(),
                        "--no-memlock-check",
                        "--memlock-min",
                        "1024",
                        "-N",
                        "2"),
                Map.of(
                        "PATH",
                        path,
                        "STATE",
                        "COMPLETED",
                        "CODE",
                        "0",
                        "LINKPROOF_GPUS_PER_NODE",
                        "8",
                        "LINKPROOF_TIME",
                        "30:00",
                        "LINKPROOF_PARTITION",
                        "gpu",
                        "LINKPROOF_ACCOUNT",
                        "fabric"));
        assertThat(passed.rc()).as(passed.out()).isZero();
        assertThat(Files.readAllLines(log).getFirst())
                .isEqualTo("sbatch --parsable --hold --output=" + runs
                        + "/linkproof-fleet-%j/job.out --time=30:00 --partition=gpu --account=fabric --gpus-per-node=8"
                        + " --gres=gpu:8 -N 2 "
                        + SLURM.resolve("linkproof-fleet.sbatch") + " --bundle " + bundle + " --out-dir " + runs
                        + " --setup " + setup
                        + " --no-memlock-check --memlock-min 1024 --");
        assertThat(passed.out())
                .contains("coordinator      " + folder.resolve("coordinator.out"))
                .contains("verdicts         " + folder.resolve("out/fleet-verdict.json"))
                .doesNotContain("Allure report"); // none was written

        Run cancelled = run(
                List.of(script.toString(), "--bundle", bundle.toString(), "--out-dir", runs.toString()),
                Map.of("PATH", path, "STATE", "CANCELLED", "CODE", "0"));
        assertThat(cancelled.rc())
                .as("a cancelled job is no success: %s", cancelled.out())
                .isEqualTo(1);

        Run late = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "--deadline",
                        "1s"),
                Map.of("PATH", path, "STATE", "RUNNING", "CODE", "0"));
        assertThat(late.rc()).as(late.out()).isEqualTo(124);
        assertThat(Files.readAllLines(log)).last().isEqualTo("scancel 4242");

        Run noBundle = run(List.of(script.toString(), "--out-dir", runs.toString()), Map.of("PATH", path));
        assertThat(noBundle.rc()).isEqualTo(2);
        assertThat(noBundle.out())
                .contains("which bundle?")
                .contains("mvn -B -q -pl distribution -am package -DskipTests");
        Run notABundle = run(
                List.of(script.toString(), "--bundle", dir.toString(), "--out-dir", runs.toString()),
                Map.of("PATH", path));
        assertThat(notABundle.rc()).isEqualTo(2);
        assertThat(notABundle.out()).contains("has no bin/linkproof");
        Run out = run(
                List.of(script.toString(), "--bundle", bundle.toString(), "--", "--out", "x"), Map.of("PATH", path));
        assertThat(out.rc()).isEqualTo(2);
        assertThat(out.out()).contains("leave out --out");
    }

    /** A release tarball is unpacked once per content beside the jobs' folders, and the job gets the unpacked folder. */
    @Test
    void submitUnpacksATarballOnceAndHandsTheJobTheUnpackedBundle(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls");
        fakeBundle(dir.resolve("build/linkproof-9.9"), log);
        Path tarball = dir.resolve("linkproof-9.9-linux-x86_64.tar.gz");
        Run tar = run(
                List.of(
                        "tar",
                        "czf",
                        tarball.toString(),
                        "-C",
                        dir.resolve("build").toString(),
                        "linkproof-9.9"),
                Map.of());
        assertThat(tar.rc()).as(tar.out()).isZero();
        fake(bin, "sbatch", "echo \"sbatch $*\" >> " + log + "; echo 11");
        fake(
                bin,
                "scontrol",
                "[ \"$1\" = release ] && exit 0; echo 'JobId=11 JobState=COMPLETED Reason=None ExitCode=0:0'");
        Path runs = dir.resolve("runs");
        Map<String, String> env = Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "LINKPROOF_BUNDLE",
                tarball.toString(),
                "LINKPROOF_OUT_DIR",
                runs.toString());

        Run first = run(List.of(SLURM.resolve("submit.sh").toString(), "-N", "2"), env);
        assertThat(first.rc()).as(first.out()).isZero();
        List<Path> unpacked;
        try (var s = Files.list(runs.resolve("linkproof-bundles"))) {
            unpacked = s.toList();
        }
        assertThat(unpacked)
                .singleElement()
                .satisfies(p ->
                        assertThat(p.getFileName().toString()).matches("linkproof-9\\.9-linux-x86_64-[0-9a-f]{12}"));
        Path home = unpacked.getFirst().resolve("linkproof-9.9");
        assertThat(home.resolve("bin/linkproof")).isExecutable();
        assertThat(home.resolve("runtime/bin/java")).isExecutable();
        assertThat(first.out()).contains("unpacked " + tarball + " into " + unpacked.getFirst());
        assertThat(Files.readAllLines(log).getFirst()).contains(" --bundle " + home + " ");

        Run second = run(List.of(SLURM.resolve("submit.sh").toString(), "-N", "2"), env);
        assertThat(second.rc()).as(second.out()).isZero();
        assertThat(second.out()).as("the same tarball: unpacked once").doesNotContain("unpacked");
        assertThat(Files.readAllLines(log).getLast()).contains(" --bundle " + home + " ");
    }
}
