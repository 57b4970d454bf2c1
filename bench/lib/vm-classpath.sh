# Sourced by the Soft-RoCE VM benches (verbs-vs-perftest.sh, verbs-atomics-vs-perftest.sh, verbs-rails-vs-perftest.sh,
# verbs-read-latency.sh, vm-jit-modes.sh), from the repo root; the first four take their load and machine text from
# bench/lib/vm-bench.sh.
# stage_vm_classpath WORK SHARE: copies transfer-core's classes and runtime jars under SHARE/cp (mounted
# at /mnt/share in the VM) and sets cp_vm to the class path as the guest sees it. MVN_FLAGS (e.g. -o) go to mvn.
stage_vm_classpath() {
  local work=$1 share=$2 j
  rm -rf "$share"; mkdir -p "$share/cp"
  mvn -B -q ${MVN_FLAGS:-} -pl transfer-core dependency:build-classpath -Dmdep.outputFile="$work/cp.txt" >/dev/null
  cp -r transfer-core/target/classes "$share/cp/classes"
  cp_vm=/mnt/share/cp/classes
  for j in $(tr ':' ' ' < "$work/cp.txt"); do cp "$j" "$share/cp/"; cp_vm="$cp_vm:/mnt/share/cp/$(basename "$j")"; done
}
