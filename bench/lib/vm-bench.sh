# Sourced by the Soft-RoCE VM benches (verbs-vs-perftest.sh, verbs-atomics-vs-perftest.sh,
# verbs-rails-vs-perftest.sh, verbs-read-latency.sh, vm-jit-modes.sh), from the repo root: the host's load and
# the machine text each of them writes beside its figures in bench/history/, so that all say them the same way.

# load_now prints "load average 1MIN 5MIN 15MIN" and, where the kernel has PSI (/proc/pressure/cpu readable),
# ", CPU pressure P %": the share of the last 10 s in which a runnable task waited for a CPU. The load
# average trails by minutes; the pressure says whether the 2-core host, whose cores the VM's 2 vCPUs need,
# was contended just now.
load_now() {
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg)$( [[ -r /proc/pressure/cpu ]] && sed -n 's/^some avg10=\([0-9.]*\).*/, CPU pressure \1 %/p' /proc/pressure/cpu)"
}

# host_machine prints the host that runs the VM: "N cores, X GiB, CPU model".
host_machine() {
  echo "$(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
}

# vm_guest [JDK] prints the guest of scripts/softroce-vm.sh (Debian 12's kernel 6.1, rdma_rxe); given the JDK
# that is jlinked into the VM, also the perftest and JDK versions: ", perftest VERSION, JDK VERSION". The
# guest's perftest is the .deb that softroce-vm.sh fetches once with apt-get download from the host's
# sources (its apt candidate then); the host's installed perftest, else its candidate now, stands for it.
vm_guest() {
  local jdk=${1:-}
  if [ -z "$jdk" ]; then echo "guest kernel Debian 6.1 with rdma_rxe"; return; fi
  echo "guest kernel Debian 6.1 with rdma_rxe, perftest $(dpkg-query -W -f='${Version}' perftest 2>/dev/null || apt-cache policy perftest | awk '/Candidate/{print $2}'), JDK $("$jdk/bin/java" -version 2>&1 | head -1 | cut -d'"' -f2)"
}

# vm_machine_line [JDK] prints both, "HOST; GUEST", the text after "machine: " in the benches' Command: lines.
vm_machine_line() {
  echo "$(host_machine); $(vm_guest "$@")"
}

# prepare_vm_bench WORK SHARE: what a VM bench does before it boots: the host's packages (scripts/setup.sh --test),
# transfer-core compiled (unless SKIP_BUILD=1; never mvn install: ~/.m2 is shared, and transfer-core
# depends on no module of ours, so compiling it is the whole build), and its classes and jars staged
# under SHARE (bench/lib/vm-classpath.sh, which sets cp_vm). MVN_FLAGS (e.g. -o) go to mvn.
prepare_vm_bench() {
  scripts/setup.sh --test >/dev/null
  [ "${SKIP_BUILD:-}" = 1 ] || mvn -B -q ${MVN_FLAGS:-} compile -pl transfer-core
  . bench/lib/vm-classpath.sh
  stage_vm_classpath "$1" "$2"
}
