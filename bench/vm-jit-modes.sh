#!/usr/bin/env bash
# Is a JIT mode safe in the Soft-RoCE VM (QEMU/TCG), and is it fast? One VM boot per call:
#   1. crash rate: LAUNCHES launches of TransferCli -t tcp -s 1,4KiB,64KiB,1MiB -n 300 -w 50 (an initiator
#      JVM and a local agent JVM, both with JIT's options; no verbs), each one's exit status and, for a
#      crash, its first SIGSEGV/SIGILL/SIGBUS line — the recipe of bench/history/2026-12-04.md's "JVM crashes in the
#      Soft-RoCE VM" section, now a script;
#   2. speed: ROUNDS rounds of ib_read_lat -s 8 and ib_write_bw -s 64 (1 QP) against ours (VerbsBenchMain
#      rlat 8:LAT_N and bw 64:BW_N), alternating, our JVMs with JIT's options.
# Appends a table to bench/history/<UTC day>.md (APPEND=0: print it only) with the command, date, machine and load.
#
#   JIT="-XX:-TieredCompilation" bench/vm-jit-modes.sh                   C2 only, multi-threaded TCG
#   JIT="" ACCEL=tcg,thread=single bench/vm-jit-modes.sh                 tiered, single-threaded TCG
# Env: JIT (our JVMs' JIT options; default C2 only), ACCEL (default tcg,thread=multi, as scripts/softroce-vm.sh),
# LAUNCHES [20], ROUNDS [2], LAT_N [4000], BW_N [20000], SKIP_BUILD=1, MVN_FLAGS, JDK, APPEND [1],
# TABLE_ONLY=1 (the table from the last run's results; no VM).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
JIT=${JIT--XX:-TieredCompilation}
ACCEL=${ACCEL:-tcg,thread=multi}
LAUNCHES=${LAUNCHES:-20}; ROUNDS=${ROUNDS:-2}; LAT_N=${LAT_N:-4000}; BW_N=${BW_N:-20000}
if [ -z "${JDK:-}" ]; then . scripts/lib/jdk25.sh; JDK=$(find_jdk25 vm-jit-modes.sh); fi
work=$root/transfer-core/target/vm-jit-modes; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
load_start=$(load_now); started=$(date -u +%Y-%m-%dT%H:%MZ)
if [ "${TABLE_ONLY:-}" != 1 ]; then
prepare_vm_bench "$work" "$share"
agent_jit=""
for o in $JIT; do agent_jit="$agent_jit --agent-jvm-arg=$o"; done

cat > "$share/guest.sh" <<GUEST
set -u
cd /mnt/share; ulimit -l unlimited
up() { cut -d' ' -f1 /proc/uptime; }
: > results.txt
for i in \$(seq 1 $LAUNCHES); do
  t0=\$(up)
  timeout 600 java -Xshare:off $JIT -XX:+UseSerialGC -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$cp_vm" \
    dev.linkproof.transfer.cli.TransferCli -t tcp -s 1,4KiB,64KiB,1MiB -n 300 -w 50 $agent_jit --agent-log=/tmp/agent.log \
    > /tmp/cli.txt 2>&1; rc=\$?
  crash=\$(cat /tmp/cli.txt /tmp/agent.log 2>/dev/null | grep -m1 -E 'SIGSEGV|SIGILL|SIGBUS|Internal Error' | tr -s ' ')
  # A failure that is no crash (a start deadline missed) is told apart: its last line says which.
  err=""; [ \$rc = 0 ] || [ -n "\$crash" ] || err=" error=\$(tail -n 1 /tmp/cli.txt | cut -c1-100 | tr ' =' '_:')"
  echo "launch=\$i rc=\$rc seconds=\$(echo "\$(up) \$t0" | awk '{print \$1 - \$2}') crash=\${crash:-none}\$err" | tee -a results.txt
  [ -z "\$crash" ] && [ \$rc = 0 ] || { cp /tmp/cli.txt launch-\$i.txt; cp /tmp/agent.log launch-\$i-agent.log 2>/dev/null; }
done
for r in \$(seq 1 $ROUNDS); do
  echo "round=\$r" >> results.txt
  ib_read_lat -d rxe0 -x 1 -F -s 8 -n $LAT_N >/tmp/lat.srv 2>&1 & sleep 1
  ib_read_lat -d rxe0 -x 1 -F -s 8 -n $LAT_N 127.0.0.1 > /tmp/lat.cli 2>&1; wait
  awk '\$1==8 && NF>=7 {printf "perftest op=rlat typical_us=%s\n", \$5}' /tmp/lat.cli | tee -a results.txt
  ib_write_bw -d rxe0 -x 1 -F -s 64 -n $BW_N --report_gbits >/tmp/bw.srv 2>&1 & sleep 1
  ib_write_bw -d rxe0 -x 1 -F -s 64 -n $BW_N --report_gbits 127.0.0.1 > /tmp/bw.cli 2>&1; wait
  awk '\$1==64 && NF>=5 {printf "perftest op=bw Gbps=%s\n", \$4}' /tmp/bw.cli | tee -a results.txt
  java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m --enable-native-access=ALL-UNNAMED -Dlinkproof.agent.log=/mnt/share/agent.log \
    "-Dlinkproof.agent.jvmArgs=-Xshare:off $JIT -XX:+UseSerialGC -Xmx256m" -cp "$cp_vm" \
    dev.linkproof.transfer.cli.VerbsBenchMain rlat 8:$LAT_N bw 64:$BW_N > /tmp/ours.txt 2>&1 \
    || echo "linkproof-bench-failed round=\$r: \$(grep -m1 -E 'SIGSEGV|SIGILL|SIGBUS|Exception|Error' /tmp/ours.txt)" | tee -a results.txt
  grep -E '^linkproof-bench' /tmp/ours.txt | tee -a results.txt
done
echo "[guest \$(up)s] done"
GUEST
SHARE=$share JDK=$JDK ACCEL=$ACCEL QEMU_TIMEOUT=3000 scripts/softroce-vm.sh "$share/guest.sh"
fi
load_end=$(load_now)
table=$(awk -f bench/lib/median.awk -f <(echo '
  function field(name,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  /^launch=/ { n++; s = s " " field("seconds")
              if ($0 !~ /crash=none/) { crashed++; w = $0; sub(/^.*crash=/, "", w); why = why "; " w }
              else if (field("rc") != 0) { other++ } }
  /^perftest op=rlat/ { prl = prl " " field("typical_us") }
  /^perftest op=bw/ { pbw = pbw " " field("Gbps") / 8 }
  /^linkproof-bench mode=rlat/ { orl = orl " " field("p50_us") }
  /^linkproof-bench mode=bw/ { obw = obw " " field("GBps") }
  /^linkproof-bench-failed/ { failed++ }
  END {
    printf "| launches | crashed (SIGSEGV, SIGILL, SIGBUS, internal error) | failed otherwise (rc != 0, no crash) | median s per launch | 8 B READ ib_read_lat typical / ours p50 µs (ratio) | 64 B WRITE ib_write_bw / ours GB/s (ratio) | our bench runs failed |\n"
    printf "|---:|---:|---:|---:|---|---|---:|\n"
    a = median(prl); b = median(orl); c = median(pbw); d = median(obw)
    printf "| %d | %d%s | %d | %.0f | %.1f / %.1f (%.2f) | %.4f / %.4f (%.2f) | %d |\n", n, crashed, (crashed ? " (" substr(why, 3) ")" : ""), other, median(s), a, b, (b > 0 ? a / b : 0), c, d, (c > 0 ? d / c : 0), failed
  }') "$share/results.txt")
{
  echo
  echo "## JIT mode in the Soft-RoCE VM: JIT=\"$JIT\", ACCEL=$ACCEL — $started"
  echo
  echo "Command: \`JIT=\"$JIT\" ACCEL=$ACCEL LAUNCHES=$LAUNCHES ROUNDS=$ROUNDS LAT_N=$LAT_N BW_N=$BW_N bench/vm-jit-modes.sh\`; machine: $(vm_machine_line "$JDK"), 2 vCPUs; host $load_start at the start, $load_end at the end."
  echo
  echo "$table"
  echo
  echo "Raw lines:"
  echo '```'
  cat "$share/results.txt"
  echo '```'
} > "$work/table.md"
cat "$work/table.md"
[ "${APPEND:-1}" = 0 ] || cat "$work/table.md" >> "$(bench_history_file)"
