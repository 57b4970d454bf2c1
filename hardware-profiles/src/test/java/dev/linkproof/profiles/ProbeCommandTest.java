package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProbeCommandTest {
    record Run(int status, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new ProbeCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int status = cl.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void printsTheProbeAndWhichProfileMatches() {
        Run r = run("--root", FakeHosts.root("cx7-host").toString(), "--no-baseline");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .contains("hca_id: mlx5_0  ConnectX-7 (15b3:1021) @0000:0c:00.0")
                .contains("fw_ver:     28.39.1002")
                .contains("port 1:     ACTIVE (LinkUp), 400 Gb/sec (4X NDR), Ethernet")
                .contains("GID[  3]: 0000:0000:0000:0000:0000:ffff:c0a8:0101, RoCE v2, ens1f0np0")
                .containsPattern("eno1 +igb +0000:03:00.0")
                .contains("""
                      selected  cx7-400g
                                nic: mlx5_0, mlx5_1 (ConnectX-7, mlx5_core, fw 28.39.1002, 400 Gb/s ACTIVE)
                      no match  thor2-400g
                                nic: no RDMA device matches
                                  mlx5_0 (ConnectX-7 15b3:1021): PCI vendor 0x15b3, not 0x14e4, driver mlx5_core, not bnxt_en
                                  mlx5_1 (ConnectX-7 15b3:1021): PCI vendor 0x15b3, not 0x14e4, driver mlx5_core, not bnxt_en
                    """)
                .contains("""
                      fits      loopback
                                fallback profile, chosen when no hardware-specific profile matches
                                not needed: cx7-400g matches
                    """)
                .contains("Profile in use: cx7-400g (auto; built-in cx7-400g)")
                .containsPattern(
                        "write-large +write · host, hugepage · sizes 8 MiB..64 MiB · batch 1 +≥ 0.90 × link = 45.0"
                                + " GB/s")
                .doesNotContain("Memory-copy baseline");
    }

    @Test
    void measuresTheBaselineAndResolvesMemcpyFractions() {
        Run r = run("--root", FakeHosts.root("rxe-host").toString(), "--profile", "loopback");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .containsPattern("Memory-copy baseline: [0-9.]+ GB/s \\(best of 5 × 64 MiB MemorySegment.copy")
                .contains("  selected  softroce\n            nic: rxe0")
                .contains("Profile in use: loopback (built-in loopback; built-in loopback)")
                .containsPattern(
                        "tcp-bulk +write, read · host · sizes 1 MiB.. · batch any · transport tcp +≥ 0.03 × memcpy ="
                                + " [0-9.]+ GB/s")
                .containsPattern("ucx-tcp-bulk +write, read · host · sizes 1 MiB.. · batch any · transport ucx ·"
                        + " UCX_TLS≠shm\\|sm\\|posix\\|sysv\\|cma\\|shm,self\\|sm,self +≥ 0.005 × memcpy = [0-9.]+"
                        + " GB/s");
    }

    @Test
    void aProfileErrorExitsWithTwoAndTheLocation(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(
                bad,
                "id: bad\n"
                        + "vendor: x\n"
                        + "match: {fallback: true}\n"
                        + "criteria:\n"
                        + "  - name: a\n"
                        + "    sizes: 2KiB..1KiB\n"
                        + "    max-drop: 5%\n");
        Run r = run("--root", FakeHosts.root("thor2-host").toString(), "--no-baseline", "--profile", bad.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo("profile error: " + bad + ":6:12: empty range '2KiB..1KiB': nothing is at least 2 KiB "
                        + "and at most 1 KiB" + System.lineSeparator());
        assertThat(r.out()).contains("  selected  thor2-400g");
    }

    @Test
    void printsTheProfilesBaselineTolerance(@TempDir Path dir) throws Exception {
        Path lab = dir.resolve("lab.yaml");
        Files.writeString(lab, "extends: thor2-400g\nid: lab\nbaseline:\n  tolerance: 0.075\n");
        Run r = run("--root", FakeHosts.root("thor2-host").toString(), "--no-baseline", "--profile", lab.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("  baseline tolerance 7.5% (-Dlinkproof.baseline.tolerance overrides it)");
    }

    @Test
    void propertiesPassThrough() {
        Run r = run(
                "--root",
                FakeHosts.root("cx7-host").toString(),
                "--no-baseline",
                "-Dlinkproof.criteria.write-large.min-bandwidth=40 GB/s");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .contains("← property linkproof.criteria.write-large.min-bandwidth)")
                .containsPattern("write-large +write · host, hugepage · sizes 8 MiB..64 MiB · batch 1 +≥ 40.0 GB/s");
    }

    @Test
    void printsRailsCriteria() {
        Run r = run(
                "--root",
                FakeHosts.root("cx7-host").toString(),
                "--no-baseline",
                "--profile",
                "h100-cx7-gpu",
                "-Dlinkproof.criteria.gpu-node-1mib.rails=8");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .containsPattern("gpu-1mib-latency +write, read · gpu · sizes 1 MiB · batch 1 · rails 1 +avg ≤ 75.0 µs")
                .containsPattern(
                        "gpu-node-large +write, read · gpu · sizes 64 MiB.. · batch 1 · rails 2.. +aggregate ≥ "
                                + "0.88 × links \\(44.0 GB/s a rail\\)")
                .containsPattern("gpu-node-1mib .* · rails 8 +aggregate ≥ 0.29 × links = 116.0 GB/s, avg ≤ 87.0 µs")
                .containsPattern("gpu-node-balance .* · rails 2.. +slowest rail ≥ 0.90 × median rail");
    }
}
