package dev.linkproof.conformance.softroce;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.session.LocalAgent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.TestAbortedException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The verbs part of the conformance suite for real, on Soft-RoCE: boots scripts/softroce-vm.sh (QEMU/TCG, 2 vCPUs,
 * Debian's kernel with rdma_rxe), runs {@link #CLASSES} there with {@link dev.linkproof.conformance.runner.SuiteMain}
 * on this build's test class path and a jlinked JDK 25, and turns each test case of the XML it wrote into a dynamic
 * test here, so the VM's results land in this module's Surefire report and fail the build. An agent on this host
 * serves {@link TargetOnAnotherKernel}'s pair across the two kernels. It runs with {@code -Dlinkproof.softroce=true}
 * (scripts/test.sh passes it, so CI runs it) and qemu-system-x86_64 present, else skips with the reason: it takes
 * minutes, everything being about ten times slower under TCG. The VM's reports stay in {@code target/softroce/}.
 */
@Tag("softroce")
class SoftRoceSuite {
    static final String ENABLE = Constants.HARNESS_SOFTROCE;
    static final List<String> CLASSES = List.of(
            "dev.linkproof.conformance.verbs.VerbsCorrectness",
            "dev.linkproof.conformance.verbs.VerbsFailureModes",
            "dev.linkproof.conformance.verbs.VerbsEndpointFuzz",
            "dev.linkproof.conformance.softroce.TargetOnAnotherKernel",
            "dev.linkproof.conformance.softroce.VerbsEachNic",
            "dev.linkproof.conformance.softroce.VerbsPortDown",
            "dev.linkproof.conformance.softroce.VerbsInitiatorDeath",
            "dev.linkproof.conformance.softroce.VerbsRails",
            "dev.linkproof.conformance.softroce.VerbsRailsCli",
            "dev.linkproof.conformance.softroce.VerbsAtomics",
            "dev.linkproof.conformance.softroce.LibfabricOnSoftRoce");
    /** Runs only these of {@link #CLASSES} (simple names, comma-separated): a developer's shorter VM run. */
    static final String ONLY = Constants.HARNESS_SOFTROCE_CLASSES;
    /** The whole VM part: image build (cached), boot, the suite, power-off. */
    static final long VM_TIMEOUT_SECONDS = 20 * 60;

    @TestFactory
    Stream<DynamicTest> verbsSuiteOnSoftRoce() throws Exception {
        if (!Boolean.parseBoolean(
                System.getProperty(ENABLE, System.getenv().getOrDefault("LINKPROOF_SOFTROCE", "false")))) {
            return skipped(
                    "the Soft-RoCE VM run was not requested: -D" + ENABLE + "=true (scripts/test.sh and CI pass it)");
        }
        Path script =
                Path.of("..", "scripts", "softroce-vm.sh").toAbsolutePath().normalize();
        if (!Files.isRegularFile(script)) {
            return skipped("no " + script);
        }
        if (!onPath("qemu-system-x86_64")) {
            return skipped("qemu-system-x86_64 is not installed (scripts/setup.sh --test installs qemu-system-x86): the"
                    + " Soft-RoCE VM cannot run");
        }
        Path jdk = Path.of(System.getProperty("java.home"));
        if (!Files.isExecutable(jdk.resolve("bin/jlink"))) {
            return skipped("the test JVM's runtime " + jdk + " has no jlink: the VM's JDK 25 runtime cannot be built");
        }
        Path work = Files.createDirectories(Path.of("target/softroce").toAbsolutePath());
        Path share = work.resolve("share");
        deleteTree(share);
        Files.createDirectories(share);
        String classPath = stageClassPath(share);
        Path log = work.resolve("vm.log");
        long t0 = System.nanoTime();
        int rc;
        // Its own JVM, not this one: QEMU is a child of this JVM, and to the agent's host accounting
        // it must be another process (the VM's CPU is the host's), as a neighbour on a real host is.
        try (LocalAgent hostAgent =
                LocalAgent.start(List.of("-Xmx256m"), work.resolve("host-agent.log"), Duration.ofSeconds(60))) {
            Files.writeString(share.resolve("suite.sh"), guestScript(classPath, hostAgent), StandardCharsets.UTF_8);
            rc = runVm(script, share, jdk, log);
        }
        System.out.printf("[softroce] VM part took %d s, guest rc=%d%n", (System.nanoTime() - t0) / 1_000_000_000L, rc);
        Path reports = share.resolve("reports");
        List<Element> cases = testCases(reports);
        List<DynamicTest> tests = readReports(cases);
        copyOut(share, work);
        if (tests.isEmpty()) {
            fail("the Soft-RoCE VM ran no test (guest rc " + rc + "); see " + log);
        }
        tests.addAll(completeness(cases, rc, log));
        return tests.stream();
    }

    /** {@link #CLASSES}, or those {@value #ONLY} names; a name that is not one of them is an error. */
    static List<String> classes() {
        String only = System.getProperty(ONLY, "").strip();
        if (only.isEmpty()) {
            return CLASSES;
        }
        List<String> out = new ArrayList<>();
        for (String name : only.split("\\s*,\\s*")) {
            out.add(CLASSES.stream()
                    .filter(c -> c.endsWith("." + name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            ONLY + ": '" + name + "' is not one of the suite's classes " + CLASSES)));
        }
        return List.copyOf(out);
    }

    /** What the script's {@code timeout} returns when QEMU ran past {@link #VM_TIMEOUT_SECONDS}. */
    static final int TIMED_OUT = 124;

    /**
     * The run itself as tests: every class of {@link #CLASSES} reported, and the VM ended on its own
     * (the suite's 0 or 1, not the timeout's 124 or a crash's status). Without them a VM that ran
     * out of time after writing some reports, or never ran a class, would pass on what it did report.
     */
    static List<DynamicTest> completeness(List<Element> cases, int rc, Path log) {
        Set<String> reported = new TreeSet<>();
        cases.forEach(c -> reported.add(c.getAttribute("classname")));
        List<DynamicTest> out = new ArrayList<>();
        for (String cls : classes()) {
            boolean ran = reported.stream().anyMatch(c -> c.equals(cls) || c.startsWith(cls + "$"));
            out.add(DynamicTest.dynamicTest(cls.substring(cls.lastIndexOf('.') + 1) + " ran in the VM", () -> {
                if (!ran) {
                    fail("no result of " + cls + " came back from the Soft-RoCE VM (guest rc " + rc + "); see " + log);
                }
            }));
        }
        out.add(DynamicTest.dynamicTest("the VM finished on its own", () -> {
            if (rc == TIMED_OUT) {
                fail("the Soft-RoCE VM ran past its " + VM_TIMEOUT_SECONDS + " s and was stopped (status 124); see "
                        + log);
            }
            if (rc != 0 && rc != 1) {
                fail("the Soft-RoCE VM ended with status " + rc + " (the suite exits 0 or 1); see " + log);
            }
        }));
        return out;
    }

    /** Boots the VM with the guest script, echoes and logs its console; returns the guest's exit status. */
    private static int runVm(Path script, Path share, Path jdk, Path log) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        "bash", script.toString(), share.resolve("suite.sh").toString())
                .redirectErrorStream(true);
        pb.environment().put("SHARE", share.toString());
        pb.environment().put("JDK", jdk.toString());
        pb.environment().put("QEMU_TIMEOUT", Long.toString(VM_TIMEOUT_SECONDS));
        // eth0 in the guest; 10.0.2.2 there is this host's loopback, where the agent listens
        pb.environment().put("NIC", "user,model=virtio-net-pci");
        Process p = pb.start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                var w = Files.newBufferedWriter(log)) {
            String line;
            while ((line = r.readLine()) != null) {
                System.out.println("[softroce] " + line);
                w.write(line);
                w.newLine();
            }
        }
        if (!p.waitFor(VM_TIMEOUT_SECONDS + 60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the Soft-RoCE VM did not finish within " + VM_TIMEOUT_SECONDS + " s; see " + log);
        }
        return p.exitValue();
    }

    /** One visible skipped test with the reason (an aborted factory would leave Surefire's count at 0). */
    private static Stream<DynamicTest> skipped(String reason) {
        return Stream.of(DynamicTest.dynamicTest("verbs suite on Soft-RoCE", () -> abort(reason)));
    }

    /** The class path entries, copied under the share (jars as they are, class directories as trees). */
    private static String stageClassPath(Path share) throws IOException {
        Path cp = Files.createDirectories(share.resolve("cp"));
        List<String> inVm = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path src = Path.of(entry);
            if (!Files.exists(src) || src.getFileName().toString().startsWith("surefire")) {
                continue;
            }
            String name = String.format("%02d-%s", n++, src.getFileName());
            Path dst = cp.resolve(name);
            if (Files.isDirectory(src)) {
                copyTree(src, dst);
            } else {
                Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            }
            inVm.add("/mnt/share/cp/" + name);
        }
        return String.join(":", inVm);
    }

    private static String guestScript(String classPath, LocalAgent hostAgent) throws InterruptedException {
        // C1 only and no CDS: under TCG the JVM starts in ~2 s that way (a CDS archive stalled 10 s);
        // deadlines 6x the host's, the iteration counts are the test classes' own (functional sizes).
        String jvm =
                "-Xshare:off -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dstdout.encoding=UTF-8 -Dstderr.encoding=UTF-8";
        return """
            up() { cut -d' ' -f1 /proc/uptime; }
            echo "[guest $(up)s] verbs suite on $(cat /sys/class/infiniband/rxe0/ports/1/gids/1 2>/dev/null)"
            ulimit -l unlimited
            cd /mnt/share
            java %s -Xmx384m --enable-native-access=ALL-UNNAMED \\
              -Dlinkproof.timeout.progress=60s -Dlinkproof.timeout.control=120s -Dlinkproof.timeout.agentStart=120s \\
              "-Dlinkproof.agent.jvmArgs=%s -Xmx256m" -Dlinkproof.agent.log=/mnt/share/agent.log \\
              -D%s=true -D%s=10.0.2.2:%d -D%s=%s -D%s=%d -D%s=%s \\
              -cp "%s" dev.linkproof.conformance.runner.SuiteMain /mnt/share/reports %s
            rc=$?
            echo "[guest $(up)s] suite rc=$rc"
            exit $rc
            """.formatted(
                        jvm,
                        jvm,
                        Guest.GUEST,
                        TargetOnAnotherKernel.PEER,
                        hostAgent.port(),
                        TargetOnAnotherKernel.TOKEN,
                        hostAgent.token(),
                        TargetOnAnotherKernel.CPUS,
                        hostCpus(),
                        TargetOnAnotherKernel.BOOT_ID,
                        HostCpuMeter.kernelBootId().orElse("unknown"),
                        classPath,
                        String.join(" ", classes()));
    }

    /**
     * This host's CPUs as its agent's accounting counts them: one look of its meter, 150 ms (a window
     * under 100 ms gives no figure).
     */
    private static int hostCpus() throws InterruptedException {
        return HostCpuMeter.over(Duration.ofMillis(150))
                .map(HostContention::cpus)
                .orElseThrow(() -> new IllegalStateException(
                        "no host figure from /proc/stat: the agent could not report one either"));
    }

    /** Every test case of the VM's reports (Surefire-style XML files, in name order). */
    static List<Element> testCases(Path reports) throws Exception {
        List<Element> cases = new ArrayList<>();
        if (!Files.isDirectory(reports)) {
            return cases;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(reports)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".xml"))
                    .sorted()
                    .toList();
        }
        var factory = DocumentBuilderFactory.newInstance();
        for (Path f : files) {
            NodeList nodes = factory.newDocumentBuilder().parse(f.toFile()).getElementsByTagName("testcase");
            for (int i = 0; i < nodes.getLength(); i++) {
                cases.add((Element) nodes.item(i));
            }
        }
        return cases;
    }

    /** A dynamic test per test case: failed, skipped or passed as it did in the VM. */
    private static List<DynamicTest> readReports(List<Element> cases) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Element c : cases) {
            String cls = c.getAttribute("classname");
            String name = cls.substring(cls.lastIndexOf('.') + 1) + " › " + c.getAttribute("name");
            String failure = firstText(c, "failure", "error");
            String skipped = firstText(c, "skipped");
            tests.add(DynamicTest.dynamicTest(name, () -> {
                // The name again in the message: Surefire's summary names a dynamic test by its lambda.
                if (failure != null) {
                    fail("in the Soft-RoCE VM, " + name + ": " + failure);
                }
                if (skipped != null) {
                    throw new TestAbortedException("skipped in the Soft-RoCE VM, " + name + ": " + skipped);
                }
            }));
        }
        return tests;
    }

    private static String firstText(Element c, String... tags) {
        for (String tag : tags) {
            NodeList l = c.getElementsByTagName(tag);
            if (l.getLength() > 0) {
                Element e = (Element) l.item(0);
                String m = e.getAttribute("message");
                return m.isEmpty()
                        ? e.getTextContent().strip().lines().findFirst().orElse(tag)
                        : m;
            }
        }
        return null;
    }

    /** Reports (and any allure-results the run wrote) next to this module's Surefire reports. */
    private static void copyOut(Path share, Path work) throws IOException {
        for (String d : new String[] {"reports", "allure-results"}) {
            Path src = share.resolve(d);
            if (Files.isDirectory(src)) {
                Path dst = work.resolve(d);
                deleteTree(dst);
                copyTree(src, dst);
            }
        }
        for (String f : new String[] {"agent.log"}) { // the VM's own agents' log (host-agent.log is in work already)
            if (Files.exists(share.resolve(f))) {
                Files.copy(share.resolve(f), work.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path allure = share.resolve("allure-results");
        if (Files.isDirectory(allure)) {
            copyTree(allure, Files.createDirectories(Path.of("target/allure-results")));
        }
    }

    private static boolean onPath(String exe) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, exe))) {
                return true;
            }
        }
        return false;
    }

    private static void copyTree(Path src, Path dst) throws IOException {
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
