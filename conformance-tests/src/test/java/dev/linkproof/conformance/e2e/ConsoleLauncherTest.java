package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.linkproof.conformance.e2e.fixtures.ConsoleLaunched;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One point, selected by its unique id, run by JUnit's ConsoleLauncher (the standalone jar of this
 * build's JUnit version, from Maven Central) each way a user or an IDE gives it the class path:
 * {@code --class-path}, the class path on the JVM, an {@code @argfile}, and a manifest-only
 * class-path jar. The point passes only if the engine's local agent starts there, so this is the
 * test of "the agent starts from whatever class path the engine was loaded from": with the agent's
 * class path taken from {@code java.class.path}, the {@code --class-path} form failed the point
 * with "Could not find or load main class dev.linkproof.transfer.agent.AgentMain".
 */
@Tag("e2e")
@Timeout(300)
class ConsoleLauncherTest {
    /** The point, as docs/writing-tests.md shows how to write it. */
    static final String POINT = "[engine:linkproof]/[class:" + ConsoleLaunched.class.getName() + "]/[method:write()]"
            + "/[point:op=write,size=65536,batch=1,qps=1,depth=1,mem=host->host,transport=tcp]";

    private static final String MAIN = "org.junit.platform.console.ConsoleLauncher";

    private static Path launcher;
    /** The Maven test class path of this module, as Surefire's fork has it. */
    private static List<String> classPath;

    @TempDir
    Path dir;

    @BeforeAll
    static void launcherAndClassPath() {
        String jar = System.getProperty("linkproof.consoleLauncher");
        assertThat(jar)
                .as("linkproof.consoleLauncher (set by the pom) names the ConsoleLauncher's jar")
                .isNotBlank();
        launcher = Path.of(jar);
        assertThat(launcher)
                .as("the pom's dependency:copy puts the standalone ConsoleLauncher here")
                .isRegularFile();
        classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .toList();
    }

    /** The id is the point's: the engine resolves it to exactly one test. */
    @Test
    void theIdSelectsOnePoint() {
        var plan = LauncherFactory.create()
                .discover(LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectUniqueId(POINT))
                        .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                        .build());
        List<String> tests = plan
                .getDescendants(plan.getRoots().stream()
                        .filter(r -> r.getUniqueId().equals("[engine:linkproof]"))
                        .findFirst()
                        .orElseThrow())
                .stream()
                .filter(TestIdentifier::isTest)
                .map(TestIdentifier::getUniqueId)
                .toList();
        assertThat(tests).containsExactly(POINT);
    }

    /** {@code java -jar junit-platform-console-standalone.jar execute --class-path <cp> --select-unique-id <point>} */
    @Test
    void withClassPathOption() throws Exception {
        List<String> cmd = java();
        cmd.addAll(List.of(
                "-jar", launcher.toString(), "execute", "--class-path", String.join(File.pathSeparator, classPath)));
        cmd.addAll(selectThePoint());
        passesOnePoint(cmd);
    }

    /**
     * {@code java -cp junit-platform-console-standalone.jar:<cp> org.junit.platform.console.ConsoleLauncher execute
     * --select-unique-id <point>}
     */
    @Test
    void withClassPathOnTheJvm() throws Exception {
        List<String> cmd = java();
        cmd.addAll(List.of("-cp", jvmClassPath(), MAIN, "execute"));
        cmd.addAll(selectThePoint());
        passesOnePoint(cmd);
    }

    /** {@code java @argfile}, the argument file holding the class path, as IDEs shorten a long command line. */
    @Test
    void withAnArgumentFile() throws Exception {
        List<String> args = new ArrayList<>(List.of("-cp", jvmClassPath(), MAIN, "execute"));
        args.addAll(selectThePoint());
        Path argfile = dir.resolve("launcher.args");
        Files.writeString(
                argfile,
                args.stream()
                        .map(a -> '"' + a.replace("\\", "\\\\") + '"')
                        .collect(Collectors.joining("\n", "", "\n")));
        List<String> cmd = java();
        cmd.add("@" + argfile);
        passesOnePoint(cmd);
    }

    /** A manifest-only jar whose Class-Path names every entry, as IDEs shorten a long class path. */
    @Test
    void withAManifestOnlyClassPathJar() throws Exception {
        List<String> urls = new ArrayList<>();
        for (String e : (launcher + File.pathSeparator + String.join(File.pathSeparator, classPath))
                .split(File.pathSeparator)) {
            urls.add(Path.of(e).toAbsolutePath().toUri().toString()); // a directory's URI ends with '/'
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        Path jar = dir.resolve("classpath.jar");
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream j = new JarOutputStream(out, manifest)) {
            j.flush();
        }
        List<String> cmd = java();
        cmd.addAll(List.of("-cp", jar.toString(), MAIN, "execute"));
        cmd.addAll(selectThePoint());
        passesOnePoint(cmd);
    }

    private String jvmClassPath() {
        return launcher + File.pathSeparator + String.join(File.pathSeparator, classPath);
    }

    private static List<String> java() {
        return new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m"));
    }

    private List<String> selectThePoint() {
        return List.of(
                "--select-unique-id",
                POINT,
                "--config",
                "linkproof.profile=" + E2e.VALIDATION_ONLY,
                "--config",
                "linkproof.agent.log=" + dir.resolve("agent.log"),
                "--disable-banner",
                "--disable-ansi-colors",
                "--details=tree",
                "--fail-if-no-tests");
    }

    /** Runs the launcher in a directory of its own and checks that exactly the one point ran and passed. */
    private void passesOnePoint(List<String> cmd) throws IOException, InterruptedException {
        Path out = dir.resolve("launcher.out");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        boolean ended = p.waitFor(240, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        String said = Files.readString(out, StandardCharsets.UTF_8);
        String agentLog =
                Files.exists(dir.resolve("agent.log")) ? Files.readString(dir.resolve("agent.log")) : "(none)";
        String context = String.join(" ", cmd) + "\n--- output:\n" + said + "\n--- agent log:\n" + agentLog;
        assertThat(ended).as("the launcher ends; %s", context).isTrue();
        assertThat(p.exitValue()).as("the launcher's exit status; %s", context).isZero();
        assertThat(count(said, "tests found")).as("tests found; %s", context).isEqualTo(1);
        assertThat(count(said, "tests successful"))
                .as("tests successful; %s", context)
                .isEqualTo(1);
        assertThat(said).as(context).contains("write 64 KiB ×1 · 1 conn · tcp");
        assertThat(agentLog).as("the point ran on a local agent").contains("linkproof-agent ready");
    }

    /** A figure of the launcher's summary, e.g. {@code [         1 tests successful      ]}. */
    private static int count(String output, String what) {
        Matcher m = Pattern.compile("\\[\\s*(\\d+) " + what + "\\s*]").matcher(output);
        assertThat(m.find())
                .as("'%s' in the launcher's summary:%n%s", what, output)
                .isTrue();
        return Integer.parseInt(m.group(1));
    }
}
