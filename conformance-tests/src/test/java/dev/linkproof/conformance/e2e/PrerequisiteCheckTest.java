package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The main job's prerequisite scripts on systems this machine is not: {@code scripts/lib/jdk25.sh}
 * (any JDK 25 or later) and {@code scripts/lib/prereq.sh} (the check the main job and the release
 * bundle run). Each case builds a {@link SimulatedSystem}, its stubs ({@code id}, {@code ldconfig},
 * {@code ofed_info}, {@code mvn}) as it needs, so a system without dpkg is simply one without it. Tagged e2e: it tests the product's
 * scripts, not the hardware.
 */
@Tag("e2e")
class PrerequisiteCheckTest extends SimulatedSystem {
    static final Path JDK25 = ROOT.resolve("scripts/lib/jdk25.sh");

    // ---- jdk25.sh

    @Test
    void findJdk25TakesAnyJdk25OrLaterAndRefusesOlderOnes() throws Exception {
        for (String version : List.of("26", "25.0.1", "25", "27-ea")) {
            Path home = jdk(dir.resolve("jdks/" + version), version, true);
            Run r = findJdk25(Map.of("JAVA_HOME", home.toString()));
            assertThat(r.rc).as("version %s: %s", version, r.out).isZero();
            assertThat(r.out.strip()).as("version %s", version).isEqualTo(home.toString());
        }
        for (String version : List.of("21", "17.0.12", "1.8.0_392")) {
            Path home = jdk(dir.resolve("jdks/" + version), version, true);
            Run r = findJdk25(Map.of("JAVA_HOME", home.toString()));
            assertThat(r.rc).as("version %s: %s", version, r.out).isEqualTo(1);
            assertThat(r.out)
                    .as("version %s", version)
                    .isEqualTo("test: no JDK 25 or later under /usr/lib/jvm, and JAVA_HOME (" + home
                            + ") is not one; install one (e.g. Temurin 25) or point JAVA_HOME at it\n");
        }
    }

    @Test
    void findJdk25LooksUnderUsrLibJvmFirstThenAtJavaHome() throws Exception {
        jdk(sys.resolve("usr/lib/jvm/java-21-openjdk"), "21.0.5", true);
        Path jdk26 = jdk(sys.resolve("usr/lib/jvm/temurin-26-jdk"), "26", true);
        Path javaHome = jdk(dir.resolve("jdks/25"), "25.0.1", true);
        Run r = findJdk25(Map.of("JAVA_HOME", javaHome.toString()));
        assertThat(r.out.strip()).as(r.out).isEqualTo(jdk26.toString());
        Files.delete(jdk26.resolve("bin/java"));
        assertThat(findJdk25(Map.of("JAVA_HOME", javaHome.toString())).out.strip())
                .isEqualTo(javaHome.toString());
    }

    // ---- prereq.sh

    @Test
    void rhelWithMofedAndNoDpkgCountsMofedAndInstallsNothingOverIt() throws Exception {
        rocky();
        root(true);
        stub("ofed_info", "[ \"$1\" = -s ] && echo 'MLNX_OFED_LINUX-24.04-0.7.0.0:'");
        // MOFED's libibverbs, in ldconfig's cache; its mlx5 provider beside it; no UCX at all.
        stub(
                "ldconfig",
                "[ \"$1\" = -p ] && printf '12 libs found in cache\\n"
                        + "\\tlibibverbs.so.1 (libc6,x86-64) => /usr/lib64/libibverbs.so.1\\n"
                        + "'");
        file("usr/lib64/libibverbs.so.1");
        file("usr/lib64/libibverbs/libmlx5-rdmav34.so");
        jdk(sys.resolve("usr/lib/jvm/java-26-openjdk"), "26", true);
        maven();

        Run r = prereq();
        assertThat(r.rc).as(r.out).isZero();
        assertThat(r.out.lines())
                .contains(
                        "prereq: system: Rocky Linux 9.4 (Blue Onyx) (rhel, dnf); MLNX_OFED_LINUX-24.04-0.7.0.0",
                        "prereq: ok: JDK 26 at /usr/lib/jvm/java-26-openjdk",
                        "prereq: ok: Maven: Apache Maven 3.9.9",
                        "prereq: ok: libibverbs: /usr/lib64/libibverbs.so.1 (ldconfig's cache) (from"
                                + " MLNX_OFED_LINUX-24.04-0.7.0.0)",
                        "prereq: ok: verbs providers: mlx5",
                        "prereq: warning: UCX: libucp.so.0 is not found; MLNX_OFED_LINUX-24.04-0.7.0.0 is installed,"
                                + " so no distribution UCX is installed over it: install MOFED's ucx package, or HPC-X;"
                                + " ucx points skip with their reason; tcp still runs",
                        "prereq: warning: libfabric: libfabric.so.1 is not found; MLNX_OFED_LINUX-24.04-0.7.0.0 is"
                            + " installed, so no distribution libfabric (which links the distribution's libibverbs) is"
                            + " installed over it: install your vendor's (AWS EFA's installer, your NIC vendor's);"
                            + " libfabric points skip with their reason; tcp still runs",
                        "prereq: ready (2 warning(s))");
        assertThat(r.out)
                .doesNotContain("apt-get")
                .doesNotContain("dnf install")
                .doesNotContain("not installing");
        assertThat(calls).as("root, but nothing is installed over MOFED").doesNotExist();
    }

    @Test
    void docaOfedOnDebianIsNotOverwrittenWithDebiansRdmaCore() throws Exception {
        debian();
        root(true);
        Files.createDirectories(sys.resolve("opt/mellanox/doca"));
        jdk(sys.resolve("usr/lib/jvm/temurin-25-jdk-amd64"), "25.0.1", true);
        maven();

        Run r = prereq();
        assertThat(r.rc).as(r.out).isZero();
        assertThat(r.out)
                .contains("; DOCA-OFED (/opt/mellanox/doca)")
                .contains("prereq: warning: libibverbs: libibverbs.so.1 is not found although DOCA-OFED"
                        + " (/opt/mellanox/doca) is installed; nothing is installed over MOFED/DOCA")
                .doesNotContain("libibverbs1")
                .doesNotContain("ibverbs-providers")
                .doesNotContain("libucx0")
                .doesNotContain("libfabric1");
        assertThat(calls).doesNotExist();
    }

    @Test
    void rhelWithoutMofedAsRootInstallsRdmaCoreAndUcxWithDnf() throws Exception {
        rocky();
        root(true);
        jdk(sys.resolve("usr/lib/jvm/java-25-openjdk"), "25.0.1", true);
        maven();
        Files.createDirectories(sys.resolve("usr/lib64/libibverbs"));
        Files.createDirectories(sys.resolve("usr/lib64/ucx"));
        // dnf records its call and puts the libraries where RHEL's packages do.
        stub(
                "dnf",
                "echo \"dnf $*\" >> " + calls + "\nfor f in libibverbs.so.1 libibverbs/libmlx5-rdmav34.so libucp.so.0 "
                        + "ucx/libuct_ib.so.0 libfabric.so.1; do : > "
                        + sys.resolve("usr/lib64") + "/$f; done");

        Run r = prereq();
        assertThat(r.rc).as(r.out).isZero();
        assertThat(Files.readAllLines(calls))
                .containsExactly("dnf install -y -q rdma-core libibverbs ucx ucx-ib libfabric");
        assertThat(r.out.lines())
                .contains(
                        "prereq: installing rdma-core libibverbs ucx ucx-ib libfabric with dnf",
                        "prereq: ok: libibverbs: /usr/lib64/libibverbs.so.1 (/usr/lib64)",
                        "prereq: ok: verbs providers: mlx5",
                        "prereq: ok: UCX: /usr/lib64/libucp.so.0 (/usr/lib64)",
                        "prereq: ok: libfabric: /usr/lib64/libfabric.so.1 (/usr/lib64)",
                        "prereq: ready (installed: rdma-core libibverbs ucx ucx-ib libfabric)");
        assertThat(r.out).doesNotContain("apt-get");
    }

    @Test
    void debianMissingUcxWithoutRootOrInstallSaysWhatAndCallsNoInstaller() throws Exception {
        debianWithVerbs();
        root(false);
        Run r = prereq();
        assertThat(r.rc).as("warnings only: ready; %s", r.out).isZero();
        assertThat(r.out.lines())
                .contains(
                        "prereq: system: Debian GNU/Linux 12 (bookworm) (debian, apt-get)",
                        "prereq: ok: JDK 25 at /usr/lib/jvm/temurin-25-jdk-amd64",
                        "prereq: ok: libibverbs: /usr/lib/x86_64-linux-gnu/libibverbs.so.1 (/usr/lib/x86_64-linux-gnu)",
                        "prereq: ok: verbs providers: mlx5 rxe",
                        "prereq: warning: UCX: libucp.so.0 is not found; ucx points skip with their reason; tcp still"
                                + " runs; install it: apt-get install libucx0",
                        "prereq: not installing (not root; run with --install to install with sudo): libucx0",
                        "prereq: to install what is missing: sudo apt-get install libucx0",
                        "prereq: ready (1 warning(s))");
        assertThat(r.out).doesNotContain("dnf");
        assertThat(calls)
                .as("no sudo, apt-get or dnf without root or --install")
                .doesNotExist();

        Run noInstall = prereq("--no-install");
        root(true);
        Run rootNoInstall = prereq("--no-install");
        assertThat(noInstall.rc).isZero();
        assertThat(rootNoInstall.out).contains("prereq: not installing (--no-install): libucx0");
        assertThat(calls).as("--no-install, even as root").doesNotExist();
    }

    @Test
    void debianMissingUcxWithInstallUsesSudoAptGetForItAlone() throws Exception {
        debianWithVerbs();
        root(false);
        Run r = prereq("--install");
        assertThat(r.rc).as(r.out).isZero();
        assertThat(Files.readAllLines(calls))
                .containsExactly(
                        "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
                        "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
                                + " libucx0");
        assertThat(r.out).contains("prereq: installing libucx0 with sudo apt-get");

        Files.delete(calls);
        Run env = prereq(Map.of("LINKPROOF_INSTALL", "1"));
        assertThat(env.rc).isZero();
        assertThat(Files.readAllLines(calls)).hasSize(2).last().asString().endsWith(" libucx0");

        Files.delete(calls);
        Files.delete(bin.resolve("sudo"));
        Run noSudo = prereq("--install");
        assertThat(noSudo.out).contains("prereq: not installing (--install, but not root and no sudo): libucx0");
        assertThat(calls).doesNotExist();
    }

    @Test
    void aMissingJdkIsAnErrorWithTheDistributionsPackageAndIsNeverInstalled() throws Exception {
        debianWithVerbs();
        ucx("usr/lib/x86_64-linux-gnu");
        Files.delete(sys.resolve("usr/lib/jvm/temurin-25-jdk-amd64/bin/java"));
        root(true);
        Path jdk21 = jdk(dir.resolve("jdk-21"), "21.0.5", true);
        Run r = prereq(Map.of("JAVA_HOME", jdk21.toString()));
        assertThat(r.rc).as(r.out).isEqualTo(1);
        assertThat(r.out.lines())
                .contains(
                        "prereq: error: JDK: no JDK 25 or later under /usr/lib/jvm, and JAVA_HOME (" + jdk21
                                + ") is not one; install one: apt-get install temurin-25-jdk (Adoptium's apt"
                                + " repository) or openjdk-25-jdk where the release has it; or point JAVA_HOME at one",
                        "prereq: not ready: 1 error(s), 0 warning(s)");
        assertThat(calls).as("a JDK is never installed").doesNotExist();

        rocky();
        Run rhel = prereq();
        assertThat(rhel.rc).isEqualTo(1);
        assertThat(rhel.out)
                .contains("install one: dnf install java-25-openjdk-devel (or temurin-25-jdk from Adoptium's"
                        + " repository)");

        debian();
        jdk(sys.resolve("usr/lib/jvm/java-25-jre"), "25", false);
        Run jre = prereq();
        assertThat(jre.rc).isEqualTo(1);
        assertThat(jre.out)
                .contains(
                        "prereq: error: JDK: /usr/lib/jvm/java-25-jre has java 25 but no javac (a runtime, not a JDK)");
    }

    @Test
    void aMissingMavenIsAnErrorAndInstalledAsRoot() throws Exception {
        debianWithVerbs();
        Files.delete(bin.resolve("mvn"));
        root(false);
        Run r = prereq();
        assertThat(r.rc).as(r.out).isEqualTo(1);
        assertThat(r.out)
                .contains("prereq: error: Maven: mvn is not on the PATH; install it: apt-get install maven")
                .contains("prereq: to install what is missing: sudo apt-get install maven libucx0");
        assertThat(calls).doesNotExist();
        root(true);
        prereq();
        assertThat(Files.readAllLines(calls))
                .last()
                .asString()
                .endsWith("apt-get install -y -qq --no-install-recommends maven libucx0");
    }

    @Test
    void rhelsUcxWithoutItsRdmaTransportAsksForUcxIb() throws Exception {
        rocky();
        root(false);
        jdk(sys.resolve("usr/lib/jvm/java-25-openjdk"), "25", true);
        maven();
        file("usr/lib64/libibverbs.so.1");
        file("usr/lib64/libibverbs/libmlx5-rdmav34.so");
        file("usr/lib64/libucp.so.0");
        file("usr/lib64/libfabric.so.1");

        Run r = prereq();
        assertThat(r.rc).as(r.out).isZero();
        assertThat(r.out.lines())
                .contains(
                        "prereq: ok: UCX: /usr/lib64/libucp.so.0 (/usr/lib64)",
                        "prereq: warning: UCX: no RDMA transport beside /usr/lib64/libucp.so.0"
                                + " (/usr/lib64/ucx/libuct_ib.so.0): the ucx points cannot use RDMA; install it: dnf"
                                + " install ucx-ib",
                        "prereq: to install what is missing: sudo dnf install ucx-ib");
        assertThat(calls).doesNotExist();
        file("usr/lib64/ucx/libuct_ib.so.0");
        assertThat(prereq().out).doesNotContain("warning").contains("prereq: ready\n");
    }

    @Test
    void hpcxInOptHpcxCountsAsUcxWithHowToPutItOnTheLoadersPath() throws Exception {
        rocky();
        root(true);
        jdk(sys.resolve("usr/lib/jvm/java-25-openjdk"), "25", true);
        maven();
        file("usr/lib64/libibverbs.so.1");
        file("etc/libibverbs.d/mlx5.driver");
        file("usr/lib64/libfabric.so.1");
        ucx("opt/hpcx/ucx/lib");

        Run r = prereq();
        assertThat(r.rc).as(r.out).isZero();
        assertThat(r.out)
                .contains("; HPC-X")
                .contains("prereq: ok: UCX: HPC-X's /opt/hpcx/ucx/lib/libucp.so.0, which the dynamic loader does not"
                        + " search: before a run, source /opt/hpcx/hpcx-init.sh and run hpcx_load, or add"
                        + " /opt/hpcx/ucx/lib to LD_LIBRARY_PATH (or"
                        + " -Dlinkproof.ucx.library=/opt/hpcx/ucx/lib/libucp.so.0)")
                .contains("prereq: ready\n");
        assertThat(calls).as("no distribution UCX beside HPC-X's").doesNotExist();

        Run loaded = prereq(Map.of("LD_LIBRARY_PATH", "/opt/hpcx/ucx/lib:/opt/hpcx/ompi/lib"));
        assertThat(loaded.out).contains("prereq: ok: UCX: /opt/hpcx/ucx/lib/libucp.so.0 (LD_LIBRARY_PATH)");

        ucx("sw/hpcx-v2.20/ucx/lib");
        Files.delete(sys.resolve("opt/hpcx/ucx/lib/libucp.so.0"));
        Run dir = prereq(Map.of("HPCX_DIR", "/sw/hpcx-v2.20"));
        assertThat(dir.out).contains("prereq: ok: UCX: HPC-X's /sw/hpcx-v2.20/ucx/lib/libucp.so.0");
        assertThat(calls).doesNotExist();
    }

    @Test
    void fromTheBundleNoJdkOrMavenIsNeededAndGpuAsksForTheVendorsRuntime() throws Exception {
        debianWithVerbs();
        ucx("usr/lib/x86_64-linux-gnu");
        Files.delete(sys.resolve("usr/lib/jvm/temurin-25-jdk-amd64/bin/java"));
        Files.delete(bin.resolve("mvn"));
        root(false);

        Run r = prereq(Map.of("LINKPROOF_BUNDLE", "1"));
        assertThat(r.rc).as(r.out).isZero();
        assertThat(r.out)
                .contains("prereq: ok: Java: the bundle's own runtime (no JDK or Maven needed)")
                .contains("prereq: ready\n")
                .doesNotContain("JDK:")
                .doesNotContain("Maven:");

        // The bundle's layout, found without being told: libexec/prereq.sh beside runtime/ and bin/linkproof.
        Path bundle = dir.resolve("linkproof-0.1.0");
        Files.createDirectories(bundle.resolve("libexec"));
        Files.copy(ROOT.resolve("scripts/lib/prereq.sh"), bundle.resolve("libexec/prereq.sh"));
        jdk(bundle.resolve("runtime"), "25.0.1", false);
        executable(bundle.resolve("bin/linkproof"), "exit 0");
        Run layout =
                run(List.of("/bin/bash", bundle.resolve("libexec/prereq.sh").toString()), Map.of());
        assertThat(layout.rc).as(layout.out).isZero();
        assertThat(layout.out).contains("the bundle's own runtime");

        file("dev/nvidiactl");
        Run gpu = prereq(Map.of("LINKPROOF_BUNDLE", "1"), "--gpu");
        assertThat(gpu.rc).as(gpu.out).isEqualTo(1);
        assertThat(gpu.out)
                .contains("prereq: error: GPU runtime (--gpu): neither NVIDIA's libcuda.so.1 nor ROCm's libamdhip64.so"
                        + " is found (an NVIDIA GPU is here: /dev/nvidiactl); install the vendor's: NVIDIA's"
                        + " driver with its CUDA library (cuda-drivers from NVIDIA's CUDA repository) or ROCm's"
                        + " HIP runtime (hip-runtime-amd from AMD's ROCm repository)");
        file("usr/local/cuda/lib64/libcudart.so.12");
        assertThat(prereq(Map.of("LINKPROOF_BUNDLE", "1"), "--gpu").out)
                .contains("/usr/local/cuda/lib64/libcudart.so.12 is the CUDA toolkit's runtime, but Linkproof binds the"
                        + " driver's libcuda.so.1");
        file("usr/lib/x86_64-linux-gnu/libcuda.so.1");
        Run cuda = prereq(Map.of("LINKPROOF_BUNDLE", "1"), "--gpu");
        assertThat(cuda.rc).as(cuda.out).isZero();
        assertThat(cuda.out).contains("prereq: ok: GPU runtime: NVIDIA's /usr/lib/x86_64-linux-gnu/libcuda.so.1");
        assertThat(calls).as("a GPU runtime is never installed").doesNotExist();
    }

    @Test
    void anUnknownOptionIsAUsageError() throws Exception {
        Run r = prereq("--frobnicate");
        assertThat(r.rc).isEqualTo(2);
        assertThat(r.out).startsWith("usage: prereq.sh");
    }

    // ---- scripts/setup.sh: the main job's part and the test command's

    @Test
    void theMainJobsSetupInstallsOnlyItsOwnPackagesAndTheTestCommandsTheTestInfrastructure() throws Exception {
        debianWithVerbs();
        root(true);
        // No Debian package installed, as dpkg-query sees it; dirname, grep and env from this machine.
        stub("dpkg-query", "echo -n 'unknown ok not-installed'");
        Map<String, String> path = Map.of("PATH", bin + ":/usr/bin:/bin");

        Run main = run(List.of("/bin/bash", ROOT.resolve("scripts/setup.sh").toString()), path);
        assertThat(main.rc).as(main.out).isZero();
        assertThat(Files.readAllLines(calls))
                .as(main.out)
                .containsExactly("apt-get update -qq", "apt-get install -y -qq --no-install-recommends libucx0");
        assertThat(main.out).doesNotContain("test infrastructure");

        Files.delete(calls);
        Run agent = run(List.of("/bin/bash", ROOT.resolve("scripts/setup.sh").toString(), "--agent"), path);
        assertThat(agent.rc).as(agent.out).isZero();
        assertThat(Files.readAllLines(calls)).last().asString().endsWith("--no-install-recommends libucx0");

        ucx("usr/lib/x86_64-linux-gnu");
        Files.delete(calls);
        Run test = run(List.of("/bin/bash", ROOT.resolve("scripts/setup.sh").toString(), "--test"), path);
        assertThat(test.rc).as(test.out).isZero();
        List<String> installed = Files.readAllLines(calls);
        assertThat(installed).hasSize(2);
        assertThat(installed.get(1))
                .startsWith("apt-get install -y -qq --no-install-recommends ")
                .contains(
                        " qemu-system-x86 ",
                        " slurm-wlm ",
                        " munge ",
                        " chromium ",
                        " iperf3 ",
                        " libibverbs-dev ",
                        " mmdebstrap ",
                        " libfabric-dev ",
                        " libfabric-bin ",
                        " buildah ",
                        " jq ",
                        " prometheus ")
                .endsWith(" prometheus-pushgateway");

        Files.delete(calls);
        root(false);
        Run user = run(List.of("/bin/bash", ROOT.resolve("scripts/setup.sh").toString(), "--test"), path);
        assertThat(user.rc).as(user.out).isZero();
        assertThat(user.out)
                .contains("setup: not installing the test infrastructure (not root; scripts/test.sh --install installs"
                        + " it with sudo)");
        assertThat(calls).doesNotExist();

        // The main job asks for the main job's part only; the test command for the test infrastructure.
        List<String> mainJob = Files.readAllLines(ROOT.resolve("scripts/conformance.sh")).stream()
                .filter(l -> l.startsWith("scripts/setup.sh"))
                .toList();
        assertThat(mainJob).hasSize(1).noneMatch(l -> l.contains("--test"));
        assertThat(Files.readString(ROOT.resolve("scripts/test.sh")))
                .contains("setup=(--test)", "scripts/setup.sh \"${setup[@]}\"");
    }

    // ---- helpers

    private Run prereq(String... args) throws Exception {
        return prereq(Map.of(), args);
    }

    private Run prereq(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("/bin/bash", ROOT.resolve("scripts/lib/prereq.sh").toString()));
        command.addAll(List.of(args));
        return run(command, env);
    }

    private Run findJdk25(Map<String, String> env) throws Exception {
        return run(List.of("/bin/bash", "-c", ". \"$1\" && find_jdk25 test", "jdk25", JDK25.toString()), env);
    }
}
