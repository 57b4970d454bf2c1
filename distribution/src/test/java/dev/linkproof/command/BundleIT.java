package dev.linkproof.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.command.fixtures.ImpossibleFloor;
import dev.linkproof.command.fixtures.OwnWrites;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release bundle as a user gets it: the tar.gz this build packed, unpacked in an empty folder and
 * run with no java and no mvn on the PATH (and no JAVA_HOME, no ~/.m2), the way a compute node
 * without a JDK or Maven runs it. Every test starts {@code bin/linkproof} as a process.
 */
@Timeout(300)
class BundleIT {
    private static final long DEADLINE_SECONDS = 240;

    @TempDir
    static Path dir;

    private static Path home;
    private static Map<String, String> env;

    @BeforeAll
    static void unpack() throws Exception {
        String bundle = System.getProperty("linkproof.bundle");
        assertThat(bundle)
                .as("linkproof.bundle (set by the pom) names the packed bundle")
                .isNotBlank();
        assertThat(Path.of(bundle)).isRegularFile();
        Path unpacked = Files.createDirectories(dir.resolve("unpacked"));
        Process tar = new ProcessBuilder("tar", "xzf", bundle, "-C", unpacked.toString())
                .inheritIO()
                .start();
        assertThat(tar.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        home = unpacked.resolve("linkproof-" + System.getProperty("linkproof.version"));
        assertThat(home.resolve("bin/linkproof")).isExecutable();
        env = pathWithoutJavaOrMaven(
                Files.createDirectories(dir.resolve("path")), Files.createDirectories(dir.resolve("home")));
    }

    /**
     * An environment whose PATH has every command of this machine but java, the JDK's tools and
     * Maven: a folder of links to the rest. No JAVA_HOME, no Maven variables, an empty HOME.
     */
    private static Map<String, String> pathWithoutJavaOrMaven(Path bin, Path emptyHome) throws IOException {
        for (String d : List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")) {
            Path folder = Path.of(d);
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (Stream<Path> s = Files.list(folder)) {
                for (Path p : s.toList()) {
                    Path link = bin.resolve(p.getFileName().toString());
                    if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !Files.isExecutable(p)) {
                        continue;
                    }
                    String real = p.toRealPath().toString();
                    if (real.contains("/jvm/")
                            || real.contains("maven")
                            || p.getFileName().toString().startsWith("mvn")) {
                        continue;
                    }
                    Files.createSymbolicLink(link, p);
                }
            }
        }
        Map<String, String> e = new HashMap<>(System.getenv());
        for (String k : List.of(
                "JAVA_HOME",
                "JDK_HOME",
                "JRE_HOME",
                "M2_HOME",
                "MAVEN_HOME",
                "MAVEN_OPTS",
                "CLASSPATH",
                "JAVA_TOOL_OPTIONS",
                "JDK_JAVA_OPTIONS")) {
            e.remove(k);
        }
        e.put("PATH", bin.toString());
        e.put("HOME", emptyHome.toString());
        return e;
    }

    @Test
    void theEnvironmentHasNeitherJavaNorMaven() throws Exception {
        Run r = run(List.of("bash", "-c", "command -v java; command -v javac; command -v mvn; echo end"), dir);
        assertThat(r.output().strip()).isEqualTo("end");
    }

    @Test
    void versionNamesTheBundlesOwnRuntime() throws Exception {
        Run r = linkproof(dir, "version");
        assertThat(r.rc()).isZero();
        assertThat(r.output())
                .contains("linkproof " + System.getProperty("linkproof.version"))
                .contains(home.resolve("runtime").toString());
    }

    /** The prerequisite check ships in the bundle and knows it needs no JDK there. */
    @Test
    void checkRunsThePrerequisiteCheckWithoutAJdk() throws Exception {
        Run r = linkproof(dir, "check");
        assertThat(r.output())
                .contains("prereq: ok: Java: the bundle's own runtime")
                .contains("libibverbs");
        assertThat(r.rc()).as(r.output()).isZero();
    }

    @Test
    void runsASuiteMethodAndWritesEveryReport() throws Exception {
        Path work = Files.createDirectories(dir.resolve("suite-run"));
        Run r = linkproof(work, "run", "--select", "dev.linkproof.conformance.WriteCorrectness#oddSizes");
        assertThat(r.rc()).as(r.output()).isZero();
        assertThat(r.output())
                .contains("[linkproof 8/8] PASS")
                .contains("linkproof run: 8 passed, 0 failed, 0 skipped");
        Path out = work.resolve("linkproof-out");
        assertThat(Files.readAllLines(out.resolve("linkproof-results.jsonl"))).hasSize(8);
        assertThat(Files.readString(out.resolve("junit/TEST-linkproof.xml")))
                .contains("tests=\"8\"")
                .contains("failures=\"0\"");
        assertThat(out.resolve("junit/open-test-report.xml")).isRegularFile();
        try (Stream<Path> s = Files.list(out.resolve("allure-results"))) {
            assertThat(s.filter(p -> p.toString().endsWith("-result.json")).count())
                    .isEqualTo(8);
        }
        assertThat(out.resolve("allure-report/index.html")).isRegularFile();
        assertThat(out.resolve("allure-report/single/index.html")).isRegularFile();
    }

    @Test
    void runsAUsersOwnJarAndFailsWithItsFailure() throws Exception {
        Path jar = userJar(OwnWrites.class, ImpossibleFloor.class);
        Path work = Files.createDirectories(dir.resolve("own-run"));
        Run passing =
                linkproof(work, "run", "--no-report", "--tests", jar.toString(), "--select", OwnWrites.class.getName());
        assertThat(passing.rc()).as(passing.output()).isZero();
        assertThat(passing.output()).contains("linkproof run: 2 passed, 0 failed");

        Run failing = linkproof(work, "run", "--no-report", "--no-suite", "--tests", jar.toString());
        assertThat(failing.rc()).as(failing.output()).isEqualTo(1);
        assertThat(failing.output())
                .contains("linkproof run: 2 passed, 1 failed")
                .contains("linkproof run: FAILED write 64 KiB")
                .contains("Expecting actual:");
        assertThat(Files.readString(work.resolve("linkproof-out/junit/TEST-linkproof.xml")))
                .contains("failures=\"1\"");
    }

    /**
     * LINKPROOF_CLASSPATH puts a user's jar on every command's class path: `run --select` finds its
     * classes without --tests, as a fleet's agents find a user's transports (the Slurm kit's way).
     */
    @Test
    void aJarOnLinkproofClasspathIsOnTheClassPathOfTheCommand() throws Exception {
        Path jar = userJar(OwnWrites.class);
        Path work = Files.createDirectories(dir.resolve("classpath-run"));
        Run r = run(
                List.of(
                        home.resolve("bin/linkproof").toString(),
                        "run",
                        "--no-report",
                        "--no-suite",
                        "--select",
                        OwnWrites.class.getName()),
                work,
                Map.of("LINKPROOF_CLASSPATH", jar.toString()));
        assertThat(r.rc()).as(r.output()).isZero();
        assertThat(r.output()).contains("linkproof run: 2 passed, 0 failed");
    }

    @Test
    void badArgumentsAreUsageErrorsNamingTheCause() throws Exception {
        Run missing = linkproof(dir, "run", "--tests", "/no/such/tests.jar");
        assertThat(missing.rc()).isEqualTo(2);
        assertThat(missing.output()).contains("--tests /no/such/tests.jar: no such file or folder");
        Run noClass = linkproof(dir, "run", "--select", "com.example.NoSuchClass");
        assertThat(noClass.rc()).isEqualTo(2);
        assertThat(noClass.output())
                .contains("--select com.example.NoSuchClass: no class com.example.NoSuchClass in the suite");
        Run noMethod = linkproof(dir, "run", "--select", "dev.linkproof.conformance.WriteCorrectness#nope");
        assertThat(noMethod.rc()).isEqualTo(2);
        assertThat(noMethod.output()).contains("has no method nope");
    }

    /** A mistyped key on the bundle's command line stops the run before any point, naming the key meant. */
    @Test
    void aMistypedKeyOnTheCommandLineStopsTheRunNamingTheKeyMeant() throws Exception {
        Path work = Files.createDirectories(dir.resolve("typo-run"));
        Run r = linkproof(
                work,
                "run",
                "--no-report",
                "-Dlinkproof.profle=cx7-400g",
                "--select",
                "dev.linkproof.conformance.WriteCorrectness#oddSizes");
        assertThat(r.rc()).as(r.output()).isEqualTo(1);
        assertThat(r.output())
                .contains("unknown configuration key linkproof.profle (did you mean linkproof.profile?)")
                .contains("linkproof run: 0 passed")
                .doesNotContain("[linkproof 1/");
        assertThat(work.resolve("linkproof-out/linkproof-results.jsonl")).doesNotExist();
    }

    /** The two-host shape on one host: an agent from the bundle, and the bundle's transfer command against it. */
    @Test
    void anAgentAndAnInitiatorFromTheBundleMoveData() throws Exception {
        List<String> cmd = List.of(
                home.resolve("bin/linkproof").toString(),
                "agent",
                "--bind",
                "127.0.0.1",
                "--port",
                "0",
                "--token",
                "bundle-it-token-0123456789");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        Process agent = pb.start();
        try {
            var reader = new java.io.BufferedReader(
                    new java.io.InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
            String ready = null;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (String line; System.nanoTime() < until && (line = reader.readLine()) != null; ) {
                if (line.startsWith("linkproof-agent ready")) {
                    ready = line;
                    break;
                }
            }
            assertThat(ready).as("the agent's ready line").isNotNull();
            Matcher port = Pattern.compile("port=(\\d+)").matcher(ready);
            assertThat(port.find()).isTrue();
            Run transfer = linkproof(
                    dir,
                    "transfer",
                    "--peer",
                    "127.0.0.1:" + port.group(1),
                    "--token",
                    "bundle-it-token-0123456789",
                    "--size",
                    "4KiB,1MiB",
                    "--iters",
                    "200");
            assertThat(transfer.rc()).as(transfer.output()).isZero();
            assertThat(transfer.output()
                            .lines()
                            .filter(l -> l.matches(" (4096|1048576) .* ok"))
                            .count())
                    .as(transfer.output())
                    .isEqualTo(2);
        } finally {
            agent.destroy();
            if (!agent.waitFor(30, TimeUnit.SECONDS)) {
                agent.destroyForcibly();
            }
        }
        assertThat(agent.isAlive()).isFalse();
    }

    private static Path userJar(Class<?>... classes) throws IOException {
        Path jar = dir.resolve("own-tests.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> c : classes) {
                String entry = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }

    private static Run linkproof(Path workdir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/linkproof").toString()));
        cmd.addAll(List.of(args));
        return run(cmd, workdir);
    }

    private static Run run(List<String> cmd, Path workdir) throws Exception {
        return run(cmd, workdir, Map.of());
    }

    private static Run run(List<String> cmd, Path workdir, Map<String, String> extraEnv) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workdir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().putAll(extraEnv);
        Path log = Files.createTempFile(dir, "run", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        try (OutputStream stdin = p.getOutputStream()) {
            // nothing to say: the commands read no input
        }
        if (!p.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(cmd + " did not end within " + DEADLINE_SECONDS + " s:\n" + Files.readString(log));
        }
        String output = Files.readString(log);
        System.out.println("--- " + String.join(" ", cmd) + " (status " + p.exitValue() + ")\n" + output);
        return new Run(p.exitValue(), output);
    }

    private record Run(int rc, String output) {}

    @AfterAll
    static void nothingLeftRunning() {
        // Any agent a run started is a child of its bin/linkproof process, which has ended.
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(ProcessHandle::isAlive)
                        .toList())
                .isEmpty();
    }
}
