#!/usr/bin/env bash
# Our verbs WRITE bandwidth and latency against perftest's ib_write_bw / ib_write_lat / ib_read_lat, on the same
# device (Soft-RoCE rxe0 inside the QEMU/TCG VM of scripts/softroce-vm.sh), same sizes, same QPs, same run.
# Prints one table with the ratios (target: ours >= 0.9 x ib_write_bw) and appends it to
# bench/history/<UTC day>.md with the command, the date, the machine and the host's load.
#
#   bench/verbs-vs-perftest.sh                 compile transfer-core (no install), boot the VM, measure
#   SIZES="4096:20000 64:20000:8" bench/verbs-vs-perftest.sh   size:transfers[:qps] for bandwidth
#   ROUNDS=3 TABLE_ONLY=1 bench/verbs-vs-perftest.sh   only the table, from the last run's results
#   LAT="8:2000" (size:iterations pairs for latency), JDK (default the first /usr/lib/jvm/*25*; it is
#   jlinked into the VM), SKIP_BUILD=1 (use transfer-core/target as built), MVN_FLAGS (e.g. -o), JIT (below)
#
# Under TCG one run of either tool swings by 2x, so the two alternate for ROUNDS rounds (default 3:
# perftest, ours, perftest, ours, ...) and the table compares their medians; each round's ratio is
# printed too. Both move SIZE-byte RDMA WRITEs over QPS RC QPs (default 1; perftest's -q) with 128 WRs
# outstanding per QP and one WR per ibv_post_send (perftest's defaults: -t 128, no --post_list);
# perftest's iteration count (-n) is per QP, so ours moves transfers x QPS over all its QPs. Small
# sizes are a message rate: the table gives Mops/s beside GB/s. Latency: every round, ib_write_lat and
# ib_read_lat against our stop-and-wait WRITE and READ (post to completion). READ is like for like
# (ib_read_lat also times post to completion, a whole round trip, rtt_factor 1); ib_write_lat is a
# ping-pong through memory polling and reports half of it, while our WRITE waits for the
# responder's ACK, so that row is printed but is not a like-for-like ratio. Under TCG averages are
# ruled by millisecond tails, so the ratio uses perftest's typical value and our p50.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
SIZES=${SIZES:-"64:50000 64:20000:8 4096:20000 4096:20000:8 65536:4000 1048576:400"}
LAT=${LAT:-"8:2000"}
ROUNDS=${ROUNDS:-3}
# Both of our JVMs run C2 only (no tiers): under multi-threaded TCG (QEMU 7.2) a tiered JVM crashed in 2 of
# 18 stress launches (SIGSEGV/SIGILL at the entry of freshly compiled code, or in the interpreter: C1 code
# replaced and patched by one vCPU while another ran its stale translation); C1 only crashed in none of 19,
# C2 only in none of 20 (bench/vm-jit-modes.sh) nor in any bench launch since. Its steady state was not
# measured faster: 8 B READ was 0.75 of ib_read_lat with C2 only, 0.76 with C1 only (same host, minutes
# apart); VerbsBenchMain's warm pass is long enough for C2. See bench/history/2026-12-05.md.
# JIT=-XX:TieredStopAtLevel=1 is the former C1-only mode; JIT="" is tiered (crashes).
JIT=${JIT--XX:-TieredCompilation}
JDK=${JDK:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1)}
work=$root/transfer-core/target/verbs-bench; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
# Ours: size:transfers x qps:qps, over all QPs (perftest's -n is per QP).
ours_bw=""
for p in $SIZES; do
  IFS=: read -r s n q <<< "$p"; q=${q:-1}
  ours_bw="${ours_bw:+$ours_bw,}$s:$((n * q)):$q"
done
# TABLE_ONLY=1: no build, no VM; render and append the table from the last run's results.txt.
if [ "${TABLE_ONLY:-}" != 1 ]; then
prepare_vm_bench "$work" "$share"
load_now > "$share/load-start.txt"

cat > "$share/bench.sh" <<GUEST
set -u
cd /mnt/share; ulimit -l unlimited
up() { cut -d' ' -f1 /proc/uptime; }
: > results.txt
perftest_bw() {
  for p in $SIZES; do
    s=\$(echo \$p | cut -d: -f1); n=\$(echo \$p | cut -d: -f2); q=\$(echo \$p | cut -d: -f3); q=\${q:-1}
    timeout 600 ib_write_bw -d rxe0 -x 1 -F -s \$s -n \$n -q \$q --report_gbits >/tmp/bw.srv 2>&1 & sleep 1
    timeout 600 ib_write_bw -d rxe0 -x 1 -F -s \$s -n \$n -q \$q --report_gbits 127.0.0.1 > /tmp/bw.cli 2>&1; wait
    awk -v s=\$s -v q=\$q '\$1==s && NF>=5 {printf "perftest-bw size=%s qps=%s iterations=%s Gbps=%s Mpps=%s\n", \$1, q, \$2, \$4, \$5}' /tmp/bw.cli | tee -a results.txt
    grep -q "^ *\$s " /tmp/bw.cli || echo "perftest-failed size=\$s qps=\$q: \$(tail -n 2 /tmp/bw.cli | tr '\n' ' ')" | tee -a results.txt
  done
}
perftest_lat() {
  for tool in write read; do
    for p in $LAT; do
      s=\${p%%:*}; n=\${p##*:}
      ib_\${tool}_lat -d rxe0 -x 1 -F -s \$s -n \$n >/tmp/lat.srv 2>&1 & sleep 1
      ib_\${tool}_lat -d rxe0 -x 1 -F -s \$s -n \$n 127.0.0.1 > /tmp/lat.cli 2>&1; wait
      awk -v s=\$s -v t=\$tool '\$1==s && NF>=7 {printf "perftest-lat op=%s size=%s iterations=%s typical_us=%s avg_us=%s p99_us=%s\n", t, \$1, \$2, \$5, \$6, \$8}' /tmp/lat.cli | tee -a results.txt
    done
  done
}
for r in \$(seq 1 $ROUNDS); do
  echo "round=\$r" >> results.txt
  perftest_bw
  perftest_lat
  # A crash or failure of ours is a result too: it is recorded, and the table says which round lost it.
  java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m --enable-native-access=ALL-UNNAMED -Dlinkproof.agent.log=/mnt/share/agent.log \
    "-Dlinkproof.agent.jvmArgs=-Xshare:off $JIT -XX:+UseSerialGC -Xmx256m" -cp "$cp_vm" \
    dev.linkproof.transfer.cli.VerbsBenchMain bw "$ours_bw" lat "${LAT// /,}" rlat "${LAT// /,}" \
    > /tmp/ours.txt 2>&1; rc=\$?
  grep -E '^linkproof-bench' /tmp/ours.txt | tee -a results.txt
  [ \$rc = 0 ] || { echo "linkproof-bench-failed round=\$r rc=\$rc: \$(grep -m1 -E 'SIGSEGV|SIGILL|SIGBUS|Exception|Error' /tmp/ours.txt)" | tee -a results.txt; cp /tmp/ours.txt ours-round\$r.txt; }
done
dmesg | grep -i -E "killed|oom" | tail -3
echo "[guest \$(up)s] bench done"
GUEST

SHARE=$share JDK=$JDK QEMU_TIMEOUT=2400 scripts/softroce-vm.sh "$share/bench.sh"
load_now > "$share/load-end.txt"
fi
r=$share/results.txt
table=$(awk -f bench/lib/median.awk -f <(echo '
  /^round=/ { split($1, q, "="); round = q[2] }
  function field(name,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  function key(   q) { q = field("qps"); q = (q == "" ? 1 : q); return field("size") " B, " q " QP" (q > 1 ? "s" : "") }
  /^perftest-bw/ { k = key(); g = field("Gbps") / 8; pbw[k] = pbw[k] " " g; pr[k, round] = g; sz[k] = field("size") }
  /^perftest-failed/ { failed = failed "\n- " $0 }
  /^perftest-lat/ { split($2,w,"="); split($3,a,"="); split($5,t,"="); split($6,v,"="); k = w[2] SUBSEP a[2]
                   ptyp[k] = ptyp[k] " " t[2]; pavg[k] = pavg[k] " " v[2] }
  /^linkproof-bench-failed/ { failed = failed "\n- " $0 }
  /^linkproof-bench mode=bw/ { k = key(); g = field("GBps"); if (!(k in obw)) bs[++nb] = k; obw[k] = obw[k] " " g; orr[k, round] = g; sz[k] = field("size") }
  /^linkproof-bench mode=r?lat/ { split($2,m,"="); split($3,a,"="); split($6,v,"="); split($7,q,"=")
                   k = (m[2] == "rlat" ? "read" : "write") SUBSEP a[2]; if (!(k in oavg)) ls[++nl] = k
                   oavg[k] = oavg[k] " " v[2]; op50[k] = op50[k] " " q[2] }
  END {
    print "| WRITE size, QPs | ib_write_bw GB/s (median) | linkproof GB/s (median) | Mops/s ib_write_bw / linkproof | ratio of medians | ratio per round |"
    print "|---|---:|---:|---:|---:|---|"
    for (i = 1; i <= nb; i++) {
      s = bs[i]; p = median(pbw[s]); o = median(obw[s]); per = ""
      for (r = 1; r <= round; r++) per = per (per == "" ? "" : ", ") (pr[s, r] > 0 && orr[s, r] > 0 ? sprintf("%.2f", orr[s, r] / pr[s, r]) : "–")
      printf "| %s | %.4f | %.4f | %.3f / %.3f | %.2f | %s |\n", s, p, o, p * 1e3 / sz[s], o * 1e3 / sz[s], (p > 0 ? o / p : 0), per
    }
    print ""
    print "Latency, medians over the rounds (µs). READ is like for like: both tools time one RDMA READ from post to"
    print "its completion. WRITE is not: ib_write_lat is a ping-pong through memory and reports half of it,"
    print "ours times one WRITE from post to its completion (the responder'"'"'s ACK), a whole round trip."
    print ""
    print "| op, size (B) | perftest typical | perftest avg | linkproof p50 | linkproof avg | ratio perftest / linkproof (typical / p50) |"
    print "|---|---:|---:|---:|---:|---:|"
    for (i = 1; i <= nl; i++) {
      k = ls[i]; split(k, kk, SUBSEP); pt = median(ptyp[k]); o = median(op50[k])
      printf "| %s %s%s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", kk[1], kk[2], (kk[1] == "write" ? " (not like for like)" : ""), pt, median(pavg[k]), o, median(oavg[k]), (o > 0 ? pt / o : 0)
    }
    if (failed != "") print "\nRuns that failed (their figures are missing above):" failed
  }') "$r")
echo "$table"
results=$(bench_history_file)
{
  echo
  echo "## verbs WRITE vs perftest on Soft-RoCE (rxe0 in a QEMU/TCG VM, 2 vCPUs) — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`JIT=\"$JIT\" ROUNDS=$ROUNDS SIZES=\"$SIZES\" LAT=\"$LAT\" bench/verbs-vs-perftest.sh\`; host $(cat "$share/load-start.txt" 2>/dev/null || echo "load not recorded") at the start, $(cat "$share/load-end.txt" 2>/dev/null || echo "not recorded") at the end; machine: $(vm_machine_line "$JDK")."
  echo "Same VM boot, same device, the two tools alternating for $ROUNDS rounds; GB = 10^9. Under TCG everything is software-emulated:"
  echo "the figures compare the two stacks on one device, they say nothing of real NICs."
  echo
  echo "$table"
  echo
  echo "Raw lines:"
  echo '```'
  cat "$r"
  echo '```'
} >> "$results"
echo "appended to $results"
