package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        List<String> javaClassPath = Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .distinct()
                .toList();
        assertThat(AgentClassPath.entries(ClassLoader.getSystemClassLoader())).containsExactlyElementsOf(javaClassPath);
    }

    /** Surefire without a fork: an isolated URLClassLoader whose parent is the platform loader; java.class.path is Maven's. */
    @Test
    void anIsolatedLoaderGivesItsOwnEntriesAndNothingOfJavaClassPath() throws Exception {
        List<URL> urls = agentUrls();
        try (URLClassLoader isolated =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
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
     * A loader that lists nothing (not a URLClassLoader: module systems, some build tools' workers):
     * the code sources of the classes the agent needs stand in for its entries.
     */
    @Test
    void aLoaderThatListsNothingGivesTheCodeSourcesOfWhatTheAgentNeeds() throws Exception {
        try (NonUrlLoader loader = new NonUrlLoader(agentUrls())) {
            List<String> entries = AgentClassPath.entries(loader);
            assertThat(entries).containsExactlyInAnyOrderElementsOf(paths(agentUrls()));
            // every library transfer-core's pom names for run time is among them (a new one needs a class in
            // AgentClassPath)
            String pom = Files.readString(Path.of("pom.xml"));
            Matcher dependency = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL)
                    .matcher(pom);
            List<String> runtime = new ArrayList<>();
            while (dependency.find()) {
                if (!dependency.group(1).contains("<scope>test</scope>")) {
                    runtime.add(dependency.group(1).replaceAll("(?s).*<artifactId>(.*?)</artifactId>.*", "$1"));
                }
            }
            assertThat(runtime).as("transfer-core's run-time dependencies").isNotEmpty();
            for (String artifact : runtime) {
                assertThat(entries)
                        .as("an entry for %s", artifact)
                        .anyMatch(e -> Path.of(e).getFileName().toString().startsWith(artifact + "-"));
            }
        }
    }

    /**
     * The whole way: transfer-core loaded by a loader of its own, of either kind, while
     * java.class.path names a jar with nothing in it (as under the ConsoleLauncher or Maven), and
     * the agent it starts serves a validated point. With java.class.path the agent could not find
     * its main class.
     */
    @ParameterizedTest
    @ValueSource(strings = {"isolated URLClassLoader", "a loader that lists nothing"})
    void anAgentStartsFromTheLoaderNotFromJavaClassPath(String kind) throws Exception {
        Path launcherOnly = Files.createFile(dir.resolve("launcher-only.jar"));
        String saved = System.getProperty("java.class.path");
        System.setProperty("java.class.path", launcherOnly.toString());
        try (AutoCloseable loaderToClose = kind.startsWith("isolated")
                ? new URLClassLoader(agentUrls().toArray(URL[]::new), ClassLoader.getPlatformClassLoader())
                : new NonUrlLoader(agentUrls())) {
            ClassLoader loader = (ClassLoader) loaderToClose;
            Class<?> localAgent = Class.forName(LocalAgent.class.getName(), true, loader);
            assertThat(localAgent).isNotSameAs(LocalAgent.class);
            Object agent = localAgent
                    .getMethod("start", List.class, Path.class, Duration.class)
                    .invoke(null, List.of("-Xmx64m"), dir.resolve("agent.log"), Duration.ofSeconds(30));
            try (AutoCloseable closing = (AutoCloseable) agent) {
                String host = (String) localAgent.getMethod("host").invoke(agent);
                int port = (int) localAgent.getMethod("port").invoke(agent);
                String token = (String) localAgent.getMethod("token").invoke(agent);
                try (Session s = Session.open(host, port, token, Timeouts.DEFAULT)) {
                    assertThat(s.run(TransferSpec.builder()
                                            .pointId("AgentClassPathTest#isolated")
                                            .op(Op.WRITE)
                                            .size(4097)
                                            .batch(2)
                                            .iterations(5)
                                            .warmup(1)
                                            .build())
                                    .isValid())
                            .isTrue();
                }
            }
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    /**
     * Defines classes itself from bytes it reads through a hidden loader, each with the code source
     * it came from, and lists no URLs: what a module system's or a build tool's loader looks like.
     */
    private static final class NonUrlLoader extends ClassLoader implements AutoCloseable {
        private final URLClassLoader hidden;

        NonUrlLoader(List<URL> urls) {
            super(ClassLoader.getPlatformClassLoader());
            hidden = new URLClassLoader(urls.toArray(URL[]::new), null);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String resource = name.replace('.', '/') + ".class";
            URL u = hidden.getResource(resource);
            if (u == null) {
                throw new ClassNotFoundException(name);
            }
            try (InputStream in = u.openStream()) {
                byte[] b = in.readAllBytes();
                String url = u.toString();
                URL location = url.startsWith("jar:")
                        ? URI.create(url.substring(4, url.indexOf("!/"))).toURL()
                        : URI.create(url.substring(0, url.length() - resource.length()))
                                .toURL();
                return defineClass(
                        name,
                        b,
                        0,
                        b.length,
                        new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null));
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }

        @Override
        protected URL findResource(String name) {
            return hidden.getResource(name);
        }

        @Override
        protected Enumeration<URL> findResources(String name) throws IOException {
            return hidden.getResources(name);
        }

        @Override
        public void close() throws IOException {
            hidden.close();
        }
    }

    /** transfer-core's classes and the libraries it runs on, as this JVM loaded them. */
    private static List<URL> agentUrls() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Class<?> c : List.of(
                LocalAgent.class,
                picocli.CommandLine.class,
                org.HdrHistogram.Histogram.class,
                com.fasterxml.jackson.databind.ObjectMapper.class,
                com.fasterxml.jackson.core.JsonFactory.class,
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
