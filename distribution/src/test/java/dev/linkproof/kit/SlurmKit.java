package dev.linkproof.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Slurm fleet suite's cluster and its jobs, submitted the way a user submits them: the cluster is
 * scripts/lib/slurm-netns.sh's (slurmctld on a bridge, one slurmd per network namespace), and each job is
 * {@code examples/fleet/slurm/submit.sh --bundle <this build's tarball> -N 4 ... -- <linkproof run arguments>}.
 * What a run varies goes through the kit's own doors: options before {@code --}, {@code linkproof run}'s arguments
 * after it, the environment sbatch passes on (LINKPROOF_CLASSPATH, LINKPROOF_FAULT_NODE), a setup file sourced on
 * every node ({@code --setup}); faults are made from outside, as they happen to a cluster: tc in a node's
 * namespace, a node drained, an agent killed.
 */
final class SlurmKit {
    /** The repository: failsafe runs in distribution/. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    static final Path NETNS = ROOT.resolve("scripts/lib/slurm-netns.sh");
    static final Path SUBMIT = ROOT.resolve("examples/fleet/slurm/submit.sh");
    /** The lock every user of the cluster holds while using it (the fleet benches too). */
    static final Path LOCK = Path.of("/tmp/linkproof-slurm.lock");

    static final int NODES = 4;
    /**
     * One job: node check, JVM starts, registration, three rounds and the retests; far less on a
     * quiet machine. submit.sh cancels the job past it (exit 124).
     */
    static final Duration JOB_DEADLINE = Duration.ofMinutes(4);

    private SlurmKit() {}

    /** What one job left: its folder (job.out, coordinator.out, nodes.out, agent-*.out, out/), and submit.sh's output and status. */
    record Job(Path dir, int exitCode, String submitOutput, String coordinatorOutput, String jobOutput) {
        Path out() {
            return dir.resolve("out");
        }

        Path verdictFile() {
            return out().resolve("fleet-verdict.json");
        }

        /** Everything to read when an assertion fails. */
        String story() {
            return "submit.sh said:\n" + submitOutput + "\njob.out:\n" + jobOutput;
        }
    }

    /** Done to a running job from outside (a drain, a killed agent), given its folder once submit.sh names it. */
    interface During {
        void act(Path jobDir) throws Exception;
    }

    /** One submission: submit.sh's options before {@code --}, linkproof run's after it, the environment, a setup file, a fault. */
    static final class Run {
        final String name;
        final List<String> kit = new ArrayList<>();
        final List<String> run = new ArrayList<>();
        final Map<String, String> env = new LinkedHashMap<>();
        String setup;
        During during;
        /** The submitting shell's {@code ulimit -l} (Slurm gives every node the submitter's limits), or none: as it is. */
        Long memlockKib;

        Run(String name) {
            this.name = name;
        }

        /** Options of submit.sh (the kit's, or sbatch's), before {@code --}. */
        Run kit(String... args) {
            kit.addAll(List.of(args));
            return this;
        }

        /** Arguments of {@code linkproof run}, after {@code --}. */
        Run run(String... args) {
            run.addAll(List.of(args));
            return this;
        }

        /** An engine key for the coordinator: {@code -Dkey=value} after {@code --}. */
        Run key(String key, String value) {
            return run("-D" + key + "=" + value);
        }

        /** A variable of submit.sh's environment, which sbatch passes to the job and srun to every node. */
        Run env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** A setup file's text ({@code --setup}): sourced by bash on every node before Linkproof runs there. */
        Run setup(String text) {
            setup = text;
            return this;
        }

        Run during(During d) {
            during = d;
            return this;
        }

        Run memlock(long kib) {
            memlockKib = kib;
            return this;
        }
    }

    static String sh(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " did not finish within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out);
        }
        return out;
    }

    /** The cluster of {@link #NODES} nodes, lpn1..lpn4: reused if it has that many, else made anew. */
    static void up() throws IOException, InterruptedException {
        System.out.println("[fleet] "
                + sh("bash", NETNS.toString(), "up", Integer.toString(NODES)).strip());
    }

    static void down() throws IOException, InterruptedException {
        sh("bash", NETNS.toString(), "down");
    }

    /**
     * slurm-netns.sh's faults: {@code slow-node NODE RATE}, {@code slow-link FROM TO RATE}, {@code kill-agent NODE},
     * {@code clear NODE}, …
     */
    static String fault(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", NETNS.toString()));
        cmd.addAll(List.of(args));
        return sh(cmd.toArray(String[]::new));
    }

    private static final Pattern SUBMITTED = Pattern.compile("submit: job (\\d+) submitted; everything in (\\S+)");

    /**
     * Submits one run through the kit over the cluster's four nodes and waits for submit.sh, which
     * waits for the job. Every run shares {@code work} as its --out-dir, so the tarball is unpacked
     * once (linkproof-bundles/) and each job has its folder linkproof-fleet-<job>/ beside the others.
     */
    static Job submit(Run run, Path bundle, Path work) throws Exception {
        Files.createDirectories(work);
        List<String> cmd = new ArrayList<>();
        if (run.memlockKib != null) {
            cmd.addAll(List.of("bash", "-c", "ulimit -l " + run.memlockKib + " && exec \"$0\" \"$@\""));
        }
        cmd.addAll(List.of(
                SUBMIT.toString(),
                "--bundle",
                bundle.toString(),
                "--out-dir",
                work.toString(),
                "--deadline",
                JOB_DEADLINE.toSeconds() + "s",
                "-N",
                Integer.toString(NODES)));
        if (run.setup != null) {
            Path setup = work.resolve(run.name + ".setup.sh");
            Files.writeString(setup, run.setup);
            cmd.addAll(List.of("--setup", setup.toString()));
        }
        cmd.addAll(run.kit);
        cmd.add("--");
        cmd.addAll(run.run);
        Path log = work.resolve(run.name + ".submit.out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(run.env);
        System.out.println("[fleet] " + run.name + ": " + String.join(" ", cmd));
        Process p = pb.start();
        p.getOutputStream().close();
        long deadline = System.nanoTime() + JOB_DEADLINE.plusMinutes(1).toNanos();
        Path dir = null;
        Thread during = null;
        AtomicReference<Throwable> duringFailed = new AtomicReference<>();
        while (p.isAlive() || dir == null) {
            if (dir == null) {
                Matcher m = SUBMITTED.matcher(Files.readString(log));
                if (m.find()) {
                    dir = Path.of(m.group(2));
                    if (run.during != null) {
                        Path jobDir = dir;
                        during = Thread.ofVirtual().start(() -> {
                            try {
                                run.during.act(jobDir);
                            } catch (Throwable t) {
                                duringFailed.set(t);
                            }
                        });
                    }
                } else if (!p.isAlive()) {
                    throw new AssertionError("submit.sh ended (" + p.exitValue() + ") without submitting " + run.name
                            + ":\n" + Files.readString(log));
                }
            }
            if (System.nanoTime() > deadline) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                throw new AssertionError(
                        "submit.sh for " + run.name + " did not end within " + JOB_DEADLINE.plusMinutes(1)
                                + " (it cancels its job at " + JOB_DEADLINE + "):\n" + Files.readString(log));
            }
            p.waitFor(250, TimeUnit.MILLISECONDS);
        }
        if (during != null) {
            during.join(Duration.ofSeconds(30));
            if (duringFailed.get() != null) {
                throw new AssertionError("what " + run.name + " did to its job failed", duringFailed.get());
            }
        }
        String submitOutput = Files.readString(log);
        System.out.println("[fleet] " + run.name + ": submit.sh exited " + p.exitValue() + "; " + dir);
        return new Job(
                dir, p.exitValue(), submitOutput, read(dir.resolve("coordinator.out")), read(dir.resolve("job.out")));
    }

    private static String read(Path f) throws IOException {
        return Files.isRegularFile(f) ? Files.readString(f) : "(no " + f.getFileName() + ")";
    }

    /** Waits (up to the job's deadline) until {@code file} exists and, when {@code line} is given, holds a line starting with it. */
    static void awaitFile(Path file, String line) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + JOB_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.isRegularFile(file)
                    && (line == null || Files.readString(file).lines().anyMatch(l -> l.startsWith(line)))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException(file + (line == null ? " never appeared" : " never said " + line));
    }

    /**
     * The cluster's lock, {@code flock /tmp/linkproof-slurm.lock} as the benches take it, held by a
     * flock(1) process until {@link AutoCloseable#close()} or this JVM's end (its standard input, a
     * pipe from here, closes then). Not taken again when a caller up the process tree holds it
     * ({@code flock -o /tmp/linkproof-slurm.lock mvn ...}, bench/fleet-suite-repeat.sh): that would
     * wait for ever.
     */
    static AutoCloseable lock() throws IOException, InterruptedException {
        Optional<Long> holder = ancestorHolding(LOCK);
        if (holder.isPresent()) {
            System.out.println("[fleet] " + LOCK + " is held by a caller (pid " + holder.get() + "): not taken again");
            return () -> {};
        }
        Process p = new ProcessBuilder("flock", "-o", LOCK.toString(), "-c", "echo locked; exec cat")
                .redirectErrorStream(true)
                .start();
        CountDownLatch locked = new CountDownLatch(1);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.equals("locked")) {
                        locked.countDown();
                    }
                }
            } catch (IOException e) {
                // the holder is gone; close() says so
            }
        });
        if (!locked.await(2, TimeUnit.SECONDS)) {
            System.out.println("[fleet] waiting for " + LOCK + " (another user of the Slurm cluster holds it)");
            while (!locked.await(1, TimeUnit.SECONDS)) {
                if (!p.isAlive()) {
                    throw new IOException(
                            "flock " + LOCK + " ended with status " + p.exitValue() + " without the lock");
                }
            }
        }
        System.out.println("[fleet] holding " + LOCK);
        return () -> {
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        };
    }

    /**
     * The process of this JVM's ancestry (itself included) that holds a flock on {@code file}: one
     * /proc/locks names (flock -o FILE CMD: the flock process waits for its command), or one that
     * has the file open while it is locked (exec 9>>FILE; flock 9: the lock belongs to the shell's
     * descriptor, and /proc/locks names the flock process, gone since).
     */
    static Optional<Long> ancestorHolding(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long device = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        Set<Long> holders = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
            // "7: FLOCK  ADVISORY  WRITE 18320 fe:00:2147044 0 EOF"; a waiter's line has "->" after the number.
            String[] f = line.strip().split("\\s+");
            if (f.length >= 6 && f[1].equals("FLOCK")) {
                String[] id = f[5].split(":");
                if (id.length == 3 && Long.parseLong(id[2]) == inode) {
                    holders.add(Long.parseLong(f[4]));
                }
            }
        }
        if (holders.isEmpty()) {
            return Optional.empty();
        }
        for (Optional<ProcessHandle> h = Optional.of(ProcessHandle.current());
                h.isPresent();
                h = h.get().parent()) {
            long pid = h.get().pid();
            if (holders.contains(pid) || hasOpen(pid, device, inode)) {
                return Optional.of(pid);
            }
        }
        return Optional.empty();
    }

    /** Whether process {@code pid} has a descriptor open on the file with this device and inode. */
    private static boolean hasOpen(long pid, long device, long inode) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return ((Number) Files.getAttribute(fd, "unix:ino")).longValue() == inode
                            && ((Number) Files.getAttribute(fd, "unix:dev")).longValue() == device;
                } catch (IOException | UnsupportedOperationException e) {
                    return false; // closed meanwhile, or not a file
                }
            });
        } catch (IOException e) {
            return false; // gone, or not ours to read
        }
    }
}
