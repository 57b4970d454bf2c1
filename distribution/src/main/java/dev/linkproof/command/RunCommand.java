package dev.linkproof.command;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code linkproof run}: the conformance suite (and the user's own test jars) on the JUnit Platform
 * launcher, in this JVM, with what the Maven run leaves: the engine's console lines, Allure results
 * and the HTML report, the JSON-lines results, JUnit XML (legacy and Open Test Reporting) and, in a
 * fleet run, fleet-verdict.json — all under one output folder. The {@code -D} keys are the ones
 * docs/configuration.md lists, set as system properties exactly as Surefire passes Maven's.
 */
@Command(
        name = "run",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Runs the conformance suite (and your own test jars) and writes its reports.",
        footer = {
            "",
            "Exit status: 0 when nothing failed and something ran, 1 otherwise, 2 on a usage error.",
            "Examples:",
            "  linkproof run                                        the suite against this machine",
            "  linkproof run --profile cx7-400g -Dlinkproof.peer=node2:7471 -Dlinkproof.token=...",
            "  linkproof run --select dev.linkproof.conformance.WriteCorrectness#oddSizes",
            "  linkproof run --tests my-tests.jar --profile my-nodes.yaml"
        })
final class RunCommand implements Callable<Integer> {
    @Option(
            names = "--out",
            defaultValue = "linkproof-out",
            paramLabel = "DIR",
            description = "Where the results and reports go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--tests",
            paramLabel = "JAR|DIR",
            description = "Your own compiled test classes (a jar or a class folder), run beside the suite. Repeatable.")
    List<Path> tests = new ArrayList<>();

    @Option(names = "--no-suite", description = "Run only what --tests or --select name, not the bundled suite.")
    boolean noSuite;

    @Option(
            names = "--select",
            paramLabel = "CLASS[#METHOD]",
            description = "Run only this class or method (from the suite or --tests). Repeatable.")
    List<String> select = new ArrayList<>();

    @Option(
            names = "--profile",
            paramLabel = "ID|FILE",
            description =
                    "The hardware profile: a built-in id (profiles/ lists them) or a YAML file (linkproof.profile).")
    String profile;

    @Option(
            names = "--include-tag",
            paramLabel = "TAG",
            description = "Only tests with this tag (e.g. read, rdma). Repeatable.")
    List<String> includeTags = new ArrayList<>();

    @Option(names = "--exclude-tag", paramLabel = "TAG", description = "Leave out tests with this tag. Repeatable.")
    List<String> excludeTags = new ArrayList<>();

    @Option(
            names = "--no-report",
            description = "Do not generate the Allure HTML report (the results are written all the same).")
    boolean noReport;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description =
                    "A configuration key, as with Maven: -Dlinkproof.peer=host:7471, -Dlinkproof.fleet=slurm, ...")
    Map<String, String> properties = new LinkedHashMap<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter console = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (Path t : tests) {
            if (!Files.isDirectory(t)
                    && !(Files.isRegularFile(t) && t.toString().endsWith(".jar"))) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--tests " + t + ": "
                                + (Files.exists(t) ? "not a jar or a folder of classes" : "no such file or folder"));
            }
        }
        java.util.Optional<BundleLayout> bundle = BundleLayout.fromEnvironment();
        List<Path> suite =
                noSuite ? List.of() : bundle.map(BundleLayout::suiteJars).orElse(List.of());
        if (!noSuite && select.isEmpty() && suite.isEmpty()) {
            throw new ParameterException(
                    spec.commandLine(),
                    bundle.isEmpty()
                            ? "no suite to run: start it as the bundle's bin/linkproof (which sets "
                                    + BundleLayout.HOME_VARIABLE
                                    + "), or name the tests with --tests/--select and --no-suite"
                            : "no suite jar in " + bundle.get().home().resolve("suite")
                                    + "; the bundle is incomplete, unpack it again");
        }
        if (noSuite && tests.isEmpty() && select.isEmpty()) {
            throw new ParameterException(
                    spec.commandLine(), "--no-suite leaves nothing to run: add --tests or --select");
        }

        Path results = out.resolve("allure-results");
        Path junit = out.resolve("junit");
        deleteTree(results);
        deleteTree(junit);
        Files.createDirectories(results);
        Files.createDirectories(junit);
        // What the Maven run passes as system properties; the user's -D come last and win.
        System.setProperty("allure.results.directory", results.toString());
        System.setProperty(
                "linkproof.results", out.resolve("linkproof-results.jsonl").toString());
        System.setProperty(
                "linkproof.fleet.verdict", out.resolve("fleet-verdict.json").toString());
        if (profile != null) {
            System.setProperty("linkproof.profile", profile);
        }
        properties.forEach(System::setProperty);

        ClassLoader parent = RunCommand.class.getClassLoader();
        ClassLoader loader = tests.isEmpty() ? parent : new URLClassLoader("linkproof-tests", urls(tests), parent);
        Thread.currentThread().setContextClassLoader(loader);
        List<DiscoverySelector> selectors = selectors(loader, suite);

        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .filters(tagFilters().toArray(new org.junit.platform.engine.Filter<?>[0]))
                .configurationParameter("junit.platform.reporting.open.xml.enabled", "true")
                .configurationParameter("junit.platform.reporting.output.dir", junit.toString())
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, summary, new LegacyXmlReportGeneratingListener(junit, err));
        TestExecutionSummary s = summary.getSummary();

        for (TestExecutionSummary.Failure f : s.getFailures()) {
            String why = dev.linkproof.engine.reporting.ProgressPrinter.headline(
                    f.getException().getMessage());
            console.println("linkproof run: FAILED " + f.getTestIdentifier().getDisplayName()
                    + (why.isEmpty() ? "" : " — " + why));
        }
        long skipped = s.getTestsSkippedCount() + s.getTestsAbortedCount();
        console.printf(
                "linkproof run: %d passed, %d failed, %d skipped%n",
                s.getTestsSucceededCount(), s.getTotalFailureCount(), skipped);
        console.println("linkproof run: results (JSON lines) " + where(out.resolve("linkproof-results.jsonl")));
        console.println("linkproof run: JUnit XML            " + where(junit));
        console.println("linkproof run: Allure results       " + where(results));
        report(bundle, results, console, err);
        console.flush();
        if (s.getTestsSucceededCount() + s.getTotalFailureCount() == 0) {
            err.println("linkproof run: nothing ran (" + skipped
                    + " skipped); check the selection and the skip reasons above");
            return 1;
        }
        return s.getTotalFailureCount() > 0 ? 1 : 0;
    }

    private void report(java.util.Optional<BundleLayout> bundle, Path results, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        if (noReport) {
            return;
        }
        java.util.Optional<Path> allure = bundle.flatMap(BundleLayout::allure);
        if (allure.isEmpty()) {
            err.println("linkproof run: no Allure command line ("
                    + (bundle.isEmpty()
                            ? "not run from the bundle"
                            : "none under " + bundle.get().home().resolve("allure"))
                    + "); the HTML report is left out");
            return;
        }
        Path report = this.out.resolve("allure-report");
        String why = AllureReport.generate(allure.get(), results, report);
        if (why != null) {
            err.println("linkproof run: the Allure report was not written: " + why);
        } else {
            out.println("linkproof run: Allure report        " + where(report.resolve("index.html")) + " (single file: "
                    + where(report.resolve("single").resolve("index.html")) + ")");
        }
    }

    private List<DiscoverySelector> selectors(ClassLoader loader, List<Path> suite) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String s : select) {
            String cls = s.contains("#") ? s.substring(0, s.indexOf('#')) : s;
            Class<?> c;
            try {
                c = Class.forName(cls, false, loader);
            } catch (ClassNotFoundException e) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--select " + s + ": no class " + cls + " in the suite"
                                + (tests.isEmpty() ? "" : " or in --tests " + tests));
            }
            if (!s.contains("#")) {
                selectors.add(selectClass(c));
                continue;
            }
            // By name, as -Dtest=Class#method does: a test method's parameters (Measurement, ...)
            // are the engine's to resolve, not the user's to spell.
            String name = s.substring(s.indexOf('#') + 1);
            List<java.lang.reflect.Method> methods = java.util.Arrays.stream(c.getDeclaredMethods())
                    .filter(m -> m.getName().equals(name))
                    .toList();
            if (methods.isEmpty()) {
                throw new ParameterException(
                        spec.commandLine(), "--select " + s + ": " + cls + " has no method " + name);
            }
            methods.forEach(m -> selectors.add(selectMethod(c, m)));
        }
        if (select.isEmpty()) {
            Set<Path> roots = new LinkedHashSet<>(suite);
            tests.forEach(t -> roots.add(t.toAbsolutePath()));
            selectors.addAll(selectClasspathRoots(roots));
        }
        return selectors;
    }

    private List<org.junit.platform.engine.Filter<?>> tagFilters() {
        List<org.junit.platform.engine.Filter<?>> filters = new ArrayList<>();
        if (!includeTags.isEmpty()) {
            filters.add(TagFilter.includeTags(includeTags));
        }
        if (!excludeTags.isEmpty()) {
            filters.add(TagFilter.excludeTags(excludeTags));
        }
        return filters;
    }

    private static URL[] urls(List<Path> paths) throws MalformedURLException {
        URL[] urls = new URL[paths.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = paths.get(i).toAbsolutePath().toUri().toURL();
        }
        return urls;
    }

    private static String where(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
