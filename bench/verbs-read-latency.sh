#!/usr/bin/env bash
# Where our 8 B RDMA READ latency on Soft-RoCE parts from ib_read_lat's: perftest, a C program with
# our exact QP/MR attributes (bench/c/rlat.c), the same C program with perftest's, and ours — in the
# same VM, alternating, ROUNDS rounds. If the C program with our attributes matches perftest, the
# attributes are not the cause and the rest is our process (JVM, FFM) under TCG; if it matches
# ours, they are. Appends a table to bench/history/<UTC day>.md with the command, the date and the machine.
#
#   bench/verbs-read-latency.sh               compile transfer-core (no install) and rlat.c (gcc, libibverbs-dev), boot, measure
#   ROUNDS=4 N=8000 bench/verbs-read-latency.sh
#   TABLE_ONLY=1 bench/verbs-read-latency.sh  only the table, from the last run's results
# Env: ROUNDS (default 4), N (samples per tool and round, default 8000), PIN=1 (every tool's processes on
# the guest's CPU 0 through taskset, perftest's server and our agent too, as perftest's docs advise for
# latency; default 0: where the scheduler puts them), JIT (our JVMs' JIT options,
# default C2 only, as in bench/verbs-vs-perftest.sh, which says why), JDK, SKIP_BUILD=1 (use transfer-core as built), MVN_FLAGS (e.g. -o).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ROUNDS=${ROUNDS:-4}; N=${N:-8000}; PIN=${PIN:-0}
pin=""; [ "$PIN" = 1 ] && pin="taskset -c 0"
JIT=${JIT--XX:-TieredCompilation}
JDK=${JDK:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1)}
work=$root/transfer-core/target/verbs-read-latency; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
if [ "${TABLE_ONLY:-}" != 1 ]; then
prepare_vm_bench "$work" "$share"
load_start=$(load_now)
gcc -O2 -Wall -o "$share/rlat" bench/c/rlat.c -libverbs
cat > "$share/guest.sh" <<GUEST
set -u
cd /mnt/share; ulimit -l unlimited
: > results.txt
for r in \$(seq 1 $ROUNDS); do
  echo "round=\$r" >> results.txt
  $pin ib_read_lat -d rxe0 -x 1 -F -s 8 -n $N >/tmp/lat.srv 2>&1 & sleep 1
  $pin ib_read_lat -d rxe0 -x 1 -F -s 8 -n $N 127.0.0.1 > /tmp/lat.cli 2>&1; wait
  awk '\$1==8 && NF>=7 {printf "perftest op=read typical_us=%s avg_us=%s\n", \$5, \$6}' /tmp/lat.cli | tee -a results.txt
  $pin ./rlat -n $N | sed 's/^/ours-attrs /' | tee -a results.txt
  $pin ./rlat -n $N -c 1 -i 0 -r 12 -a | sed 's/^/perftest-attrs /' | tee -a results.txt
  $pin java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m --enable-native-access=ALL-UNNAMED -Dlinkproof.agent.log=/mnt/share/agent.log \
    "-Dlinkproof.agent.jvmArgs=-Xshare:off $JIT -XX:+UseSerialGC -Xmx256m" -cp "$cp_vm" \
    dev.linkproof.transfer.cli.VerbsBenchMain rlat 8:$N > /tmp/ours.txt 2>&1 \
    || echo "linkproof-bench-failed round=\$r: \$(grep -m1 -E 'SIGSEGV|SIGILL|SIGBUS|Exception|Error' /tmp/ours.txt)" | tee -a results.txt
  grep -E '^linkproof-bench' /tmp/ours.txt | tee -a results.txt
done
GUEST
SHARE=$share JDK=$JDK QEMU_TIMEOUT=1500 scripts/softroce-vm.sh "$share/guest.sh"
echo "host $load_start at the start, $(load_now) at the end" > "$share/load.txt"
fi
# Rows by number, labelled once in END: 1 perftest, 2 C with perftest's attributes, 3 C with ours, 4 ours.
table=$(awk -f bench/lib/median.awk -f <(echo '
  function field(name,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  /^perftest op=read/ { v[1] = v[1] " " field("typical_us") }
  /^perftest-attrs c-lat/ { v[2] = v[2] " " field("p50_us") }
  /^ours-attrs c-lat/ { v[3] = v[3] " " field("p50_us") }
  /^linkproof-bench mode=rlat/ { v[4] = v[4] " " field("p50_us") }
  /^linkproof-bench-failed/ { failed++ }
  END {
    split("ib_read_lat (typical)|C, perftest'"'"'s attributes (p50)|C, our QP/MR attributes (p50)|Linkproof verbs transport (p50)", label, "|")
    base = median(v[1])
    print "| 8 B RDMA READ, post to completion | median µs | per round µs | ib_read_lat / this |"
    print "|---|---:|---|---:|"
    for (k = 1; k <= 4; k++) { m = median(v[k]); printf "| %s | %.1f |%s | %.2f |\n", label[k], m, v[k], (m > 0 ? base / m : 0) }
    if (failed) printf "\n%d round(s) of ours failed; see transfer-core/target/verbs-read-latency/share/results.txt\n", failed
  }') "$share/results.txt")
{
  echo
  echo "## verbs READ latency: perftest, C with our attributes, ours (rxe0 in the QEMU/TCG VM) — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`JIT=\"$JIT\" ROUNDS=$ROUNDS N=$N PIN=$PIN bench/verbs-read-latency.sh\`; machine: $(vm_machine_line), 2 vCPUs; $(cat "$share/load.txt" 2>/dev/null || echo "host load not recorded")."
  echo
  echo "$table"
} | tee -a "$(bench_history_file)"
