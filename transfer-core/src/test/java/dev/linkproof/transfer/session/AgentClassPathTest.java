package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's class path comes from the loader transfer-core was loaded from, not from
 * {@code java.class.path}: under a launcher that loads the engine into a class loader of its own
 * (the ConsoleLauncher's {@code --class-path}, Surefire without a fork), {@code java.class.path}
 * names only the launcher, and an agent started from it said "Could not find or load main class
 * dev.linkproof.transfer.agent.AgentMain". The ConsoleLauncher itself is run by conformance-tests'
 * {@code ConsoleLauncherTest}.
 */
@Timeout(60)
class AgentClassPathTest {
    @TempDir
    Path dir;

    /** This JVM's own class path, as Surefire's fork has it: java.class.path, then the transports' code sources if apart. */
    @Test
    void theApplicationClassLoaderGivesJavaClassPath() {
        List<String> javaClassPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString()).distinct().toList();
        assertThat(AgentClassPath.entries(ClassLoader.getSystemClassLoader())).containsExactlyElementsOf(javaClassPath);
    }

    /** Surefire without a fork: an isolated URLClassLoader whose parent is the platform loader; java.class.path is Maven's. */
    @Test
    void anIsolatedLoaderGivesItsOwnEntriesAndNothingOfJavaClassPath() throws Exception {
        List<URL> urls = agentUrls();
        try (URLClassLoader isolated = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThat(AgentClassPath.entries(isolated)).containsExactlyElementsOf(paths(urls));
        }
    }

    /** The ConsoleLauncher's --class-path: a URLClassLoader under the application loader (whose class path is the launcher's jar). */
    @Test
    void aChildLoaderComesAfterItsParents() throws Exception {
        List<URL> urls = agentUrls();
        try (URLClassLoader child = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getSystemClassLoader())) {
            List<String> entries = AgentClassPath.entries(child);
            List<String> expected = new ArrayList<>(AgentClassPath.entries(ClassLoader.getSystemClassLoader()));
            paths(urls).stream().filter(p -> !expected.contains(p)).forEach(expected::add);
            assertThat(entries).containsExactlyElementsOf(expected);
        }
    }

    /**
     * The whole way: transfer-core loaded by an isolated loader while java.class.path names a jar
     * with nothing in it (as under the ConsoleLauncher or Maven), and the agent it starts serves a
     * validated point. With java.class.path the agent could not find its main class.
     */
    @Test
    void anAgentStartsFromTheLoaderNotFromJavaClassPath() throws Exception {
        Path launcherOnly = Files.createFile(dir.resolve("launcher-only.jar"));
        String saved = System.getProperty("java.class.path");
        System.setProperty("java.class.path", launcherOnly.toString());
        try (URLClassLoader isolated = new URLClassLoader(agentUrls().toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> localAgent = Class.forName(LocalAgent.class.getName(), true, isolated);
            assertThat(localAgent).isNotSameAs(LocalAgent.class);
            Object agent = localAgent.getMethod("start", List.class, Path.class, Duration.class)
                    .invoke(null, List.of("-Xmx64m"), dir.resolve("agent.log"), Duration.ofSeconds(30));
            try (AutoCloseable closing = (AutoCloseable) agent) {
                String host = (String) localAgent.getMethod("host").invoke(agent);
                int port = (int) localAgent.getMethod("port").invoke(agent);
                String token = (String) localAgent.getMethod("token").invoke(agent);
                try (Session s = Session.open(host, port, token, Timeouts.DEFAULT)) {
                    assertThat(s.run(TransferSpec.builder().pointId("AgentClassPathTest#isolated").op(Op.WRITE).size(4097)
                            .batch(2).iterations(5).warmup(1).build()).isValid()).isTrue();
                }
            }
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    /** transfer-core's classes and the libraries it runs on, as this JVM loaded them. */
    private static List<URL> agentUrls() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Class<?> c : List.of(LocalAgent.class, picocli.CommandLine.class, org.HdrHistogram.Histogram.class,
                com.fasterxml.jackson.databind.ObjectMapper.class, com.fasterxml.jackson.core.JsonFactory.class,
                com.fasterxml.jackson.annotation.JsonCreator.class)) {
            URL u = c.getProtectionDomain().getCodeSource().getLocation();
            if (!urls.contains(u)) {
                urls.add(u);
            }
        }
        return urls;
    }

    private static List<String> paths(List<URL> urls) throws Exception {
        List<String> paths = new ArrayList<>();
        for (URL u : urls) {
            paths.add(Path.of(u.toURI()).toAbsolutePath().toString());
        }
        return paths;
    }
}
