package dev.linkproof.transfer.session;

import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.Transports;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The class path a local agent's JVM gets: what the loader of transfer-core's classes sees, not this
 * JVM's {@code java.class.path}, which names only the launcher under the JUnit ConsoleLauncher (its
 * own jar), Surefire without a fork (Maven's boot jar) or any harness with a loader of its own.
 * First the URLs of that loader and its parents, outermost first ({@code java.class.path} for the
 * application loader; a manifest-only class-path jar stays one entry); then the code source of every
 * class the agent must load, for a loader in between that lists nothing: transfer-core's, its
 * libraries', and every {@link Transport} the loader finds, the tests' fault injectors included.
 */
final class AgentClassPath {
    /** One class of transfer-core and of each library it runs on (transfer-core's pom). */
    private static final List<String> AGENT_CLASSES = List.of(
            dev.linkproof.transfer.control.AgentProcess.MAIN_CLASS,
            "picocli.CommandLine",
            "org.HdrHistogram.Histogram",
            "com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.core.JsonFactory",
            "com.fasterxml.jackson.annotation.JsonCreator");

    private AgentClassPath() {}

    /** The class path for an agent started from the classes {@code loader} sees, as one {@code -cp} argument. */
    static String of(ClassLoader loader) {
        return String.join(File.pathSeparator, entries(loader));
    }

    /** Its entries, each once, in the order a class is looked up. */
    static List<String> entries(ClassLoader loader) {
        Set<String> entries = new LinkedHashSet<>();
        List<ClassLoader> chain = new ArrayList<>();
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            chain.addFirst(l);
        }
        for (ClassLoader l : chain) {
            if (l == ClassLoader.getSystemClassLoader()) {
                for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                    if (!e.isBlank()) {
                        entries.add(Path.of(e).toAbsolutePath().toString());
                    }
                }
            } else if (l instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    file(url).ifPresent(entries::add);
                }
            }
        }
        for (String name : AGENT_CLASSES) {
            try {
                codeSource(Class.forName(name, false, loader)).ifPresent(entries::add);
            } catch (ClassNotFoundException | LinkageError e) {
                // the agent's own start says what is missing
            }
        }
        for (Class<? extends Transport> type : Transports.providerTypes(loader)) {
            codeSource(type).ifPresent(entries::add);
        }
        return List.copyOf(entries);
    }

    private static Optional<String> codeSource(Class<?> c) {
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        return cs == null || cs.getLocation() == null ? Optional.empty() : file(cs.getLocation());
    }

    private static Optional<String> file(URL url) {
        if (!"file".equals(url.getProtocol())) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(url.toURI()).toAbsolutePath().toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.of(url.getPath()); // a URL with unescaped characters, as some class loaders make them
        }
    }
}
