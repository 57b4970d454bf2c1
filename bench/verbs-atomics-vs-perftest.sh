#!/usr/bin/env bash
# Our verbs atomics against perftest's ib_atomic_bw / ib_atomic_lat (issue #25, item 5), on the same device
# (Soft-RoCE rxe0 in the QEMU/TCG VM of scripts/softroce-vm.sh), same op, same QP count, same outstanding
# atomics, same iterations, in the same VM boot; bench/verbs-vs-perftest.sh's pattern. Prints one table
# with the ratios (target: ours >= 0.9 x ib_atomic_bw's ops/s) and appends it to bench/history/<UTC day>.md with the
# command, the date, the machine and the host's load.
#
# What each side does, so the columns measure the same thing:
#   rate     ib_atomic_bw -A FETCH_AND_ADD | CMP_AND_SWAP -q QPS -n ITERS [-o OUTS]: per QP a send queue of
#            128 (-t default), up to 128 atomics posted, one WR per post, a completion per 100 (-Q default),
#            all on one 8-byte remote word; its MsgRate column (Mpps: ops of all QPs over one timer).
#            Ours: VerbsBenchMain fadd | cswap 8:ITERS*QPS with LINKPROOF_BENCH_QPS=QPS (and
#            LINKPROOF_BENCH_RD_ATOMIC=OUTS): FETCH_ADD / COMPARE_SWAP points, 32 counters per QP (one
#            WR per counter per batch), 4 batches in flight = 128 atomics per QP, send queue 128, one WR
#            per post, a completion per 32; ops/s over one timer around the whole loop (final completion
#            included). Every counter validated after the timed loop (final value, fetched set, swap chain).
#   latency  ib_atomic_lat -A ... -n LAT_ITERS: one atomic at a time, each timed from post to its completion
#            (a whole round trip); its t_typical (median) column. Ours: fadd-lat | cswap-lat 8:LAT_ITERS:
#            one counter, latency mode, the same timing; its p50.
#   outstanding  OUTS unset (default): both use the device's max_qp_rd_atom (perftest's -o default, our
#            verbs.rdAtomic default); the guest's ibv_devinfo line is recorded with the results.
# Under TCG one run of either tool swings by 2x, so the two alternate for ROUNDS rounds (odd rounds
# perftest first, even rounds ours first) and the table compares their medians; each round's ratio too.
#
#   bench/verbs-atomics-vs-perftest.sh       compile transfer-core (no install), boot the VM, measure
#   ROUNDS [5]  ITERS [20000] (perftest -n, per QP)  LAT_ITERS [2000]  QPS [1]  OUTS [device max]
#   SKIP_BUILD=1 (use transfer-core/target as built)  MVN_FLAGS (e.g. -o)  TABLE_ONLY=1 (table from the last
#   results)  APPEND=0 (print the table only, nothing appended)  JDK (a JDK 25, jlinked into the VM)  JIT (default C1 only; verbs-vs-perftest.sh and verbs-read-latency.sh now run C2 only, see there)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ROUNDS=${ROUNDS:-5}
ITERS=${ITERS:-20000}
LAT_ITERS=${LAT_ITERS:-2000}
QPS=${QPS:-1}
OUTS=${OUTS:-}
# C1 only: tiered JVMs crash under multi-threaded TCG (bench/history/2026-12-04.md, "JVM crashes in the Soft-RoCE VM").
JIT=${JIT--XX:TieredStopAtLevel=1}
if [ -z "${JDK:-}" ]; then . scripts/lib/jdk25.sh; JDK=$(find_jdk25 verbs-atomics-vs-perftest.sh); fi
work=$root/transfer-core/target/verbs-atomics-bench; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
load_start=$(load_now); started=$(date -u +%Y-%m-%dT%H:%MZ)
outs_pt=${OUTS:+-o $OUTS}

if [ "${TABLE_ONLY:-}" != 1 ]; then
prepare_vm_bench "$work" "$share"
echo "$load_start" > "$share/load-start.txt"

cat > "$share/bench.sh" <<GUEST
set -u
cd /mnt/share; ulimit -l unlimited
up() { cut -d' ' -f1 /proc/uptime; }
: > results.txt
echo "device \$(ibv_devinfo -v -d rxe0 | grep -E 'atomic_cap|max_qp_rd_atom|max_qp_init_rd_atom' | tr -s ' \t' ' ' | tr '\n' ';')" | tee -a results.txt
perftest() {
  local a=\$1 tag=\$2
  timeout 300 ib_atomic_bw -d rxe0 -x 1 -F -A \$a -q $QPS -n $ITERS $outs_pt >/tmp/abw.srv 2>&1 & sleep 1
  timeout 300 ib_atomic_bw -d rxe0 -x 1 -F -A \$a -q $QPS -n $ITERS $outs_pt 127.0.0.1 > /tmp/abw.cli 2>&1; wait
  awk -v t=\$tag '\$1==8 && NF>=5 {printf "perftest-bw op=%s iterations=%s Mops=%s\n", t, \$2, \$5}' /tmp/abw.cli | tee -a results.txt
  grep -q '^ *8 ' /tmp/abw.cli || echo "perftest-failed op=\$tag bw: \$(tail -n 3 /tmp/abw.cli | tr '\n' ' ')" | tee -a results.txt
  timeout 300 ib_atomic_lat -d rxe0 -x 1 -F -A \$a -n $LAT_ITERS >/tmp/alat.srv 2>&1 & sleep 1
  timeout 300 ib_atomic_lat -d rxe0 -x 1 -F -A \$a -n $LAT_ITERS 127.0.0.1 > /tmp/alat.cli 2>&1; wait
  awk -v t=\$tag '\$1==8 && NF>=7 {printf "perftest-lat op=%s iterations=%s typical_us=%s avg_us=%s p99_us=%s\n", t, \$2, \$5, \$6, \$8}' /tmp/alat.cli | tee -a results.txt
  grep -q '^ *8 ' /tmp/alat.cli || echo "perftest-failed op=\$tag lat: \$(tail -n 3 /tmp/alat.cli | tr '\n' ' ')" | tee -a results.txt
}
ours() {
  # A crash or failure of ours is a result too: it is recorded, and the table says which round lost it.
  LINKPROOF_BENCH_QPS=$QPS LINKPROOF_BENCH_RD_ATOMIC=$OUTS timeout 900 java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m \
    --enable-native-access=ALL-UNNAMED -Dlinkproof.agent.log=/mnt/share/agent.log \
    "-Dlinkproof.agent.jvmArgs=-Xshare:off $JIT -XX:+UseSerialGC -Xmx256m" -cp "$cp_vm" \
    dev.linkproof.transfer.cli.VerbsBenchMain fadd 8:$((ITERS * QPS)) cswap 8:$((ITERS * QPS)) fadd-lat 8:$LAT_ITERS cswap-lat 8:$LAT_ITERS \
    > /tmp/ours.txt 2>&1; rc=\$?
  grep -E '^linkproof-bench' /tmp/ours.txt | tee -a results.txt
  [ \$rc = 0 ] || { echo "linkproof-bench-failed round=\$r rc=\$rc: \$(grep -m1 -E 'SIGSEGV|SIGILL|SIGBUS|Exception|Error|validation' /tmp/ours.txt)" | tee -a results.txt; cp /tmp/ours.txt ours-round\$r.txt; }
}
for r in \$(seq 1 $ROUNDS); do
  echo "round=\$r" >> results.txt
  echo "[guest \$(up)s] round \$r"
  if [ \$((r % 2)) = 1 ]; then
    perftest FETCH_AND_ADD fadd; perftest CMP_AND_SWAP cswap; ours
  else
    ours; perftest FETCH_AND_ADD fadd; perftest CMP_AND_SWAP cswap
  fi
done
dmesg | grep -i -E "killed|oom" | tail -3
echo "[guest \$(up)s] bench done"
GUEST

SHARE=$share JDK=$JDK QEMU_TIMEOUT=${QEMU_TIMEOUT:-2400} scripts/softroce-vm.sh "$share/bench.sh" \
  || echo "the VM's guest script ended with status $?"
echo "$(load_now)" > "$share/load-end.txt"
fi
r=$share/results.txt
[ -s "$r" ] || { echo "no results in $r" >&2; exit 1; }
table=$(awk -f bench/lib/median.awk -f <(echo '
  function kv(i,   a) { split($i, a, "="); return a[2] }
  /^round=/ { round = kv(1) }
  /^perftest-bw / { o = kv(2); pbw[o] = pbw[o] " " kv(4); pbwr[o, round] = kv(4) }
  /^perftest-lat / { o = kv(2); ptyp[o] = ptyp[o] " " kv(4); pavg[o] = pavg[o] " " kv(5); pp99[o] = pp99[o] " " kv(6); ptr[o, round] = kv(4) }
  /^linkproof-bench mode=(fadd|cswap) / { o = kv(2); m = kv(9) / 1e6; obw[o] = obw[o] " " m; obwr[o, round] = m }
  /^linkproof-bench mode=(fadd|cswap)-lat / { o = kv(2); sub(/-lat$/, "", o); op50[o] = op50[o] " " kv(7); oavg[o] = oavg[o] " " kv(6)
                                               op99[o] = op99[o] " " kv(8); olr[o, round] = kv(7) }
  /^(linkproof-bench|perftest)-failed/ { failed = failed "\n- " $0 }
  END {
    print "| atomic | ib_atomic_bw Mops/s (median) | linkproof Mops/s (median) | ratio of medians | ratio per round |"
    print "|---|---:|---:|---:|---|"
    n = split("fadd cswap", ops, " ")
    for (i = 1; i <= n; i++) {
      o = ops[i]; p = median(pbw[o]); q = median(obw[o]); per = ""
      for (k = 1; k <= round; k++) per = per (per == "" ? "" : ", ") (pbwr[o, k] > 0 && obwr[o, k] > 0 ? sprintf("%.2f", obwr[o, k] / pbwr[o, k]) : "–")
      printf "| %s | %.4f | %.4f | %.2f | %s |\n", (o == "fadd" ? "FETCH_AND_ADD" : "CMP_AND_SWP"), p, q, (p > 0 ? q / p : 0), per
    }
    print ""
    print "Latency, medians over the rounds (µs): both time one atomic from post to its completion (a round trip)."
    print ""
    print "| atomic | ib_atomic_lat typical | avg | p99 | linkproof p50 | avg | p99 | ratio perftest typical / linkproof p50 | per round |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---|"
    for (i = 1; i <= n; i++) {
      o = ops[i]; p = median(ptyp[o]); q = median(op50[o]); per = ""
      for (k = 1; k <= round; k++) per = per (per == "" ? "" : ", ") (ptr[o, k] > 0 && olr[o, k] > 0 ? sprintf("%.2f", ptr[o, k] / olr[o, k]) : "–")
      printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", (o == "fadd" ? "FETCH_AND_ADD" : "CMP_AND_SWP"), p, median(pavg[o]), median(pp99[o]), q, median(oavg[o]), median(op99[o]), (q > 0 ? p / q : 0), per
    }
    if (failed != "") print "\nFailures (their figures are missing above):" failed
  }') "$r")
echo "$table"
[ "${APPEND:-1}" = 1 ] || { echo "APPEND=${APPEND}: not appended; raw lines in $r"; exit 0; }
results=$(bench_history_file)
{
  echo
  echo "## verbs atomics vs ib_atomic_bw / ib_atomic_lat on Soft-RoCE (rxe0 in a QEMU/TCG VM, 2 vCPUs) — $started"
  echo
  echo "Command: \`JIT=\"$JIT\" ROUNDS=$ROUNDS ITERS=$ITERS LAT_ITERS=$LAT_ITERS QPS=$QPS OUTS=\"$OUTS\" bench/verbs-atomics-vs-perftest.sh\`; machine: $(vm_machine_line "$JDK")."
  echo "Host load: at the start $(cat "$share/load-start.txt" 2>/dev/null || echo unknown); at the end $(cat "$share/load-end.txt" 2>/dev/null || echo unknown)."
  outs_text=${OUTS:-"the device's max_qp_rd_atom"}
  echo "Same VM boot, same device, the two tools alternating for $ROUNDS rounds; $QPS QP(s), $outs_text atomics outstanding at the responder per QP, $ITERS atomics per QP per rate run, $LAT_ITERS per latency run."
  echo "Under TCG everything is software-emulated: the figures compare the two stacks on one device, they say nothing of real NICs."
  echo
  echo "$table"
  echo
  echo "Raw lines:"
  echo '```'
  cat "$r"
  echo '```'
} >> "$results"
echo "appended to $results"
