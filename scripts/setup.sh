#!/usr/bin/env bash
# Installs what Linkproof needs on a fresh Debian machine of this kind, from Debian's packages only,
# and checks for the JDK 25 that maven-toolchains-plugin selects: the first /usr/lib/jvm/*25*, else
# $JAVA_HOME; whichever it is, its bin/java -version must report 25 (Maven itself may run on an older
# JDK, so a JAVA_HOME set for Maven is not taken on trust). Idempotent: a second run installs nothing.
# Packages:
#   maven, iproute2           build; network namespaces for the two-host end-to-end test
#   iperf3                    the peer tool bench/tcp-vs-iperf3.sh compares against
#   libucx0, libucx-dev       the ucx transport's library (libucp.so.0) and the headers its layout
#                             check compiles against with gcc
#   ucx-utils                 ucx_perftest, the peer tool bench/ucx-vs-perftest.sh compares against
#   chromium                  the headless browser the report test opens the Allure report in
#   gcc, libibverbs-dev       the layout check: transfer-core's VerbsAbiTest compiles a C program
#                             against <infiniband/verbs.h> and compares every offset the FFM bindings use
#   libibverbs1, ibverbs-providers  the verbs transport's library and its providers (rxe, mlx5, ...)
#   libamdhip64-dev           HIP's headers for the GPU binding's ABI check (HipAbiTest), and with them Debian's
#                             ROCm runtime (libamdhip64-5): on a machine without a GPU it reports ROCm's own
#                             "no device" error, which the GPU runtime tests check
#   qemu-system-x86, busybox-static, cpio, zstd, kmod
#                             scripts/softroce-vm.sh: a QEMU/TCG VM with Soft-RoCE (rdma_rxe), since these
#                             machines have no RDMA NIC and their kernel no RDMA; the verbs suite runs there
#   slurm-wlm, munge          the fleet suite's Slurm cluster: slurmctld and one slurmd per network namespace
#                             (scripts/lib/slurm-netns.sh); srun starts the fleet's agents in it
# scripts/setup.sh --agent (what scripts/agent.sh runs on a target host) installs only what an agent
# needs: maven to build transfer-core, and the runtime libraries of its transports (libibverbs1,
# ibverbs-providers, libucx0). A GPU host's CUDA or ROCm runtime is the vendor's, not Debian's.
set -euo pipefail

packages=(maven iproute2 iperf3 chromium gcc libibverbs-dev libibverbs1 ibverbs-providers
          qemu-system-x86 busybox-static cpio zstd kmod libucx0 libucx-dev ucx-utils libamdhip64-dev
          slurm-wlm munge)
case "${1:-}" in
  --agent) packages=(maven libibverbs1 ibverbs-providers libucx0) ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--agent]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

. scripts/lib/jdk25.sh
jdk=$(find_jdk25 setup) || exit 1
echo "setup: ready (JDK 25 at $jdk; $(mvn -v 2>/dev/null | head -n 1 | sed 's/\x1b\[[0-9;]*m//g'))"
