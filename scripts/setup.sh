#!/usr/bin/env bash
# What Linkproof needs on this machine, in two parts: the main job's prerequisites, and the test
# infrastructure that only the project's own tests use. Idempotent: a second run installs nothing.
#
#   scripts/setup.sh [--install] [--gpu]          the main job's (scripts/conformance.sh)
#   scripts/setup.sh --agent [--install] [--gpu]  a target agent's (scripts/agent.sh): the same set
#   scripts/setup.sh --test [--install]           the main job's, then the test infrastructure
#                                                 (scripts/test.sh, which .ci/run runs)
#
# Nothing is installed unless this runs as root or with --install (then through sudo); without
# either it says what is missing and goes on where it can.
#
# The main job's part is scripts/lib/prereq.sh, the same check the release bundle runs
# (`bin/linkproof check`); it works on Debian/Ubuntu and RHEL/Rocky, with or without MOFED/DOCA-OFED
# or HPC-X, and installs with apt-get or dnf. What it needs, and why:
#   JDK 25 or later     compiles and runs everything (maven-toolchains-plugin selects it: the first
#                       /usr/lib/jvm/* that is 25 or later, else $JAVA_HOME). Checked, not
#                       installed: Debian 12 has no such package (Temurin's is Adoptium's). Missing: error
#   maven               builds the reactor and runs the suite through Surefire. Missing: error
#   libibverbs1, ibverbs-providers (RHEL: rdma-core, libibverbs)
#                       the verbs transport's library and its providers (mlx5, bnxt_re, efa, rxe ...):
#                       what a hardware runner's verbs points run on. Missing: a warning, verbs skips
#   libucx0 (RHEL: ucx, ucx-ib)
#                       the ucx transport's libucp.so.0 and UCX's RDMA transport (Debian's libucx0
#                       has it in; RHEL packages it as ucx-ib): the loopback default runs ucx points
#                       over this host, a hardware runner's over the NIC. Missing: a warning, ucx skips
#   libfabric1 (RHEL: libfabric)
#                       the libfabric transport's libfabric.so.1 with its providers (shm, tcp, verbs,
#                       efa ...): AWS EFA's and Ultra Ethernet NICs' API; here the libfabric points run
#                       over shm and tcp;ofi_rxm. Missing: a warning, libfabric skips
#   with --gpu          the GPU runtime (NVIDIA's libcuda.so.1 or ROCm's libamdhip64): checked, never
#                       installed (the vendor's). Missing: error
# Not the main job's: iproute2 (network namespaces: only the end-to-end tests and the Slurm and
# rails test clusters make them), gcc and the -dev headers (the layout checks are tests), and
# everything below.
#
# The test infrastructure (--test; Debian packages, installed with apt-get):
#   iproute2                  network namespaces: the two-host and partition end-to-end tests, the
#                             rails and Slurm clusters of namespaces (scripts/lib/*-netns.sh)
#   gcc, libibverbs-dev, libucx-dev, libfabric-dev
#                             the layout checks: VerbsAbiTest, UcxLayoutTest and LibfabricLayoutTest
#                             compile C programs against <infiniband/verbs.h>, <ucp/api/ucp.h> and
#                             <rdma/fabric.h>
#   libamdhip64-dev           HIP's headers for HipAbiTest, and with them Debian's ROCm runtime
#                             (libamdhip64-5), whose own "no device" error GpuRuntimesTest checks
#   chromium                  the headless browser ReportTest opens the Allure report in
#   iperf3, ucx-utils, libfabric-bin
#                             the peer tools bench/tcp-vs-iperf3.sh, bench/ucx-vs-perftest.sh and
#                             bench/libfabric-vs-pingpong.sh compare against (iperf3, ucx_perftest,
#                             fi_pingpong), and fi_info, which lists libfabric's providers
#   qemu-system-x86, busybox-static, cpio, zstd, kmod
#                             scripts/softroce-vm.sh: a QEMU/TCG VM with Soft-RoCE (rdma_rxe), where the
#                             verbs suite runs (these machines have no RDMA NIC and no RDMA in their
#                             kernel); the guest's perftest is fetched as a .deb, not installed here
#   slurm-wlm, munge          the fleet suite's Slurm cluster (scripts/lib/slurm-netns.sh)
#   mmdebstrap, buildah       the container image: a Debian root file system from Debian's packages,
#                             assembled into an OCI image without a registry. As root, buildah's
#                             from/copy/config/commit need nothing more (uidmap, for rootless use,
#                             comes as its dependency); no container runtime: the image is run from
#                             its unpacked root file system
#   jq                        scripts/image.sh reads the OCI archive's index, manifest and config
#   prometheus, prometheus-pushgateway
#                             promtool (the prometheus package's) checks the run's metrics as Prometheus
#                             lints them, and a real Pushgateway takes a fleet run's push and serves it back
#                             (PrometheusExportTest starts its own on a loopback port; the packages' services
#                             are not used)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/setup.sh [--agent | --test] [--install] [--gpu]" >&2; exit 2; }
mode=main install=0 check=()
[[ ${LINKPROOF_INSTALL:-} == @(1|true|yes) ]] && install=1
for a in "$@"; do
  case $a in
    --agent) mode=agent ;;
    --test) mode=test ;;
    --install) install=1; check+=(--install) ;;
    --gpu) check+=(--gpu) ;;
    *) usage ;;
  esac
done

bash scripts/lib/prereq.sh ${check[@]+"${check[@]}"} || { echo "setup: the prerequisites above are missing" >&2; exit 1; }
[ "$mode" = test ] || exit 0

packages=(iproute2 gcc libibverbs-dev libucx-dev libfabric-dev libamdhip64-dev chromium iperf3 ucx-utils libfabric-bin
          qemu-system-x86 busybox-static cpio zstd kmod slurm-wlm munge mmdebstrap buildah jq
          prometheus prometheus-pushgateway)
if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "setup: the test infrastructure is Debian's packages, and this system has no dpkg/apt-get; the tests that need them skip: ${packages[*]}"
  exit 0
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: test infrastructure ready"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif ((install)); then
  sudo=(sudo)
else
  echo "setup: not installing the test infrastructure (not root; scripts/test.sh --install installs it with sudo); the tests that need it skip: ${missing[*]}"
  exit 0
fi
echo "setup: installing the test infrastructure: ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: test infrastructure ready"
