#!/usr/bin/env bash
# Every rail at once (issue #23, item 6): our two-rail verbs WRITE bandwidth against perftest's way of
# loading several NICs, two ib_write_bw pairs run at once, in the Soft-RoCE VM of scripts/softroce-vm.sh
# (QEMU/TCG, 2 vCPUs): rxe0 on dummy0, and rxe9 on dummy9 that this script adds in the guest.
#
#   ours:   TransferCli --transport verbs --rails rxe0,rxe9: one local agent, one session per rail, rail k
#           on device k on both ranks, timed loops started together; the aggregate is all bytes over the
#           first rail's start to the last one's end (not a sum of rates).
#   theirs: ib_write_bw on rxe0 and ib_write_bw on rxe9 at once, each its own server + client pair on its
#           own port; the aggregate is the sum of the two reported rates. Each process times its own
#           window, so where the windows do not fully overlap the sum is above the real aggregate: the
#           ratio errs against us.
# The same with one rail alone (--rails rxe0; one ib_write_bw pair on rxe0), so the table shows what the
# second rail adds to each tool. Under TCG the 2 vCPUs are shared by both ranks of every rail and by rxe's
# kernel work; the guest's CPU busy share over each run is recorded beside its figure.
# Both tools: SIZE-byte RDMA WRITEs over one RC QP per rail, 128 WRs outstanding (ours: batches of 32
# separate WRs, 4 in flight, a signaled completion per 32, as bench/verbs-vs-perftest.sh's VerbsBenchMain);
# perftest's -n equals our transfers per rail. Ours validates every rail's data (a failed validation is a
# failed run, recorded as such).
#
# Both ways (BIDIR=1, every round): `ib_write_bw -b` on rxe0 (both sides write to each other at once;
# it reports the two directions together) against our one rail both ways (`--rails rxe0 --both-ways`:
# this JVM writes to the agent while the agent, driving the way back, writes to an agent in this JVM;
# the aggregate is both ways' bytes over the first start to the last end).
#
#   bench/verbs-rails-vs-perftest.sh                      build transfer-core (compile, no install), boot, measure
#   SIZES="65536:4000 1048576:256" (size:transfers per rail), ROUNDS=3 (the tools alternate each round),
#   BIDIR=1 (both ways too: ib_write_bw -b against --both-ways, every round), OURS_EXTRA (more TransferCli options), SKIP_BUILD=1, TABLE_ONLY=1 (table from the last
#   results), JDK (a JDK 25, jlinked into the VM), JIT (default C1 only; verbs-vs-perftest.sh and verbs-read-latency.sh now run C2 only, see there)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
SIZES=${SIZES:-"65536:4000 1048576:256"}
ROUNDS=${ROUNDS:-3}
BIDIR=${BIDIR:-0}
# More TransferCli options for our runs (an experiment: OURS_EXTRA="--set verbs.completion=event").
OURS_EXTRA=${OURS_EXTRA:-}
# C1 only: tiered JVMs crash under multi-threaded TCG (bench/history/2026-12-04.md, "JVM crashes in the Soft-RoCE VM").
JIT=${JIT--XX:TieredStopAtLevel=1}
if [ -z "${JDK:-}" ]; then . scripts/lib/jdk25.sh; JDK=$(find_jdk25 verbs-rails-vs-perftest.sh); fi
work=$root/transfer-core/target/verbs-rails-bench; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
load_before=$(load_now)

if [ "${TABLE_ONLY:-}" != 1 ]; then
scripts/setup.sh --test >/dev/null
# transfer-core depends on no module of ours: compiling it is the whole build (never mvn install: ~/.m2 is shared).
[ "${SKIP_BUILD:-}" = 1 ] || mvn -B -o -q compile -pl transfer-core
. bench/lib/vm-classpath.sh
stage_vm_classpath "$work" "$share"

# A snapshot: "@ UPTIME", then each thread's id, name, CPU ticks (user + system) and parent pid from its /proc stat
# line (the name may hold spaces and parentheses). Input: /proc/uptime, then the stat lines.
cat > "$share/snap.awk" <<'AWK'
NR == 1 { print "@", $1; next }
{ o = index($0, "("); c = 0
  for (i = length($0); i > 0; i--) if (substr($0, i, 1) == ")") { c = i; break }
  n = split(substr($0, c + 2), f, " "); name = substr($0, o + 1, c - o - 1); gsub(/ /, "_", name)
  print $1, name, f[12] + f[13], f[2] }
AWK
# Two snapshots in: "ticks name(tid/parent)=percent of one vCPU" for every thread that ran between them (/proc counts
# 100 ticks a second; the time between is the snapshots' own uptimes, not the sleep asked for).
cat > "$share/top.awk" <<'AWK'
$1 == "@" { if (FILENAME == ARGV[1]) u0 = $2; else dt = $2 - u0; next }
FILENAME == ARGV[1] { a[$1] = $3; next }
($1 in a) && $3 > a[$1] && dt > 0 { printf "%d %s(%s/%s)=%.0f\n", $3 - a[$1], $2, $1, $4, ($3 - a[$1]) / dt }
AWK
cat > "$share/bench.sh" <<GUEST
set -u
cd /mnt/share; ulimit -l unlimited
up() { cut -d' ' -f1 /proc/uptime; }
: > results.txt
# The second device: rxe9 on dummy9, as conformance-tests' VerbsEachNic adds it; its port ACTIVE and its RoCEv2
# GID (index 1, ::ffff:10.11.19.19) in place within 10 s, else the bench stops here.
ip link add dummy9 type dummy && ip addr add 10.11.19.19/24 dev dummy9 && ip link set dummy9 up \
  && rdma link add rxe9 type rxe netdev dummy9 || { echo "bench-failed: cannot add rxe9" | tee -a results.txt; exit 1; }
for i in \$(seq 1 50); do
  grep -q ACTIVE /sys/class/infiniband/rxe9/ports/1/state 2>/dev/null \
    && grep -q 0a0b:1313 /sys/class/infiniband/rxe9/ports/1/gids/1 2>/dev/null && break
  sleep 0.2
done
grep -q 0a0b:1313 /sys/class/infiniband/rxe9/ports/1/gids/1 || { echo "bench-failed: rxe9 not ready in 10 s" | tee -a results.txt; exit 1; }
echo "[guest \$(up)s] devices: \$(ls /sys/class/infiniband | tr '\n' ' ')"
# The guest's CPU in jiffies: user (+nice), system, irq + softirq, all (idle too). busy C0 prints a run's share of
# its 2 vCPUs since the snapshot C0 (busy_pct first: the table reads it), then how it splits.
cpu() { awk '/^cpu /{print \$2+\$3, \$4, \$7+\$8, \$2+\$3+\$4+\$5+\$6+\$7+\$8}' /proc/stat; }
busy() {
  set -- \$1 \$2 \$3 \$4 \$(cpu)
  awk -v u=\$((\$5 - \$1)) -v y=\$((\$6 - \$2)) -v q=\$((\$7 - \$3)) -v t=\$((\$8 - \$4)) 'BEGIN { if (t <= 0) t = 1
    printf "busy_pct=%.0f user_pct=%.0f sys_pct=%.0f softirq_pct=%.0f", 100 * (u + y + q) / t, 100 * u / t, 100 * y / t, 100 * q / t }'
}
# While PID runs: a snapshot of every thread's CPU ticks each 2 s (one cat and one awk, so the sampling costs
# little); reports the 2 s in which the threads named like PATTERN (the rails' own) ran most, as
# "name(tid/parent pid)=% of one vCPU", the busiest ten. Round 1 only.
threads() {
  local pid="\$1" pattern="\$2" label="\$3" best=-1 v
  : > /tmp/top.best
  cat /proc/uptime /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null | awk -f snap.awk > /tmp/snap.0
  while kill -0 \$pid 2>/dev/null; do
    sleep 2; cat /proc/uptime /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null | awk -f snap.awk > /tmp/snap.1
    awk -f top.awk /tmp/snap.0 /tmp/snap.1 | sort -rn > /tmp/top.now
    v=\$(awk -v p="\$pattern" '\$2 ~ p { split(\$2, a, "="); t += a[2] } END { print t + 0 }' /tmp/top.now)
    [ "\$v" -le "\$best" ] || { best=\$v; head -n 10 /tmp/top.now | cut -d' ' -f2 | tr '\n' ' ' > /tmp/top.best; }
    mv /tmp/snap.1 /tmp/snap.0
  done
  echo "threads \$label, the 2 s its \$pattern threads ran most: \$(cat /tmp/top.best)" >> results.txt
}
# perftest on DEVICES at once (one server + client pair each, port 18515 + k), SIZE bytes, N transfers; EXTRA flags.
perftest() {
  local rails="\$1" s="\$2" n="\$3" extra="\$4" tag="\$5" k=0 d c0 b pids="" rc=0 nr t0 t1
  for d in \$rails; do
    timeout 300 ib_write_bw -d \$d -x 1 -F -p \$((18515 + k)) -s \$s -n \$n \$extra > /tmp/srv.\$d 2>&1 &
    k=\$((k + 1))
  done
  sleep 1; c0=\$(cpu); t0=\$(date +%s); k=0
  for d in \$rails; do
    timeout 300 ib_write_bw -d \$d -x 1 -F -p \$((18515 + k)) -s \$s -n \$n \$extra 127.0.0.1 > /tmp/cli.\$d 2>&1 &
    pids="\$pids \$!"; k=\$((k + 1))
  done
  [ "\$round" != 1 ] || threads \${pids##* } ib_write_bw "tool=\$tag rails=\$(echo \$rails | wc -w) size=\$s" &
  for p in \$pids; do wait \$p || rc=\$?; done
  b=\$(busy \$c0); t1=\$(date +%s); wait; nr=\$(echo \$rails | wc -w)
  [ \$rc = 0 ] || echo "perftest-failed tag=\$tag devices=\$(echo \$rails | tr ' ' +) size=\$s rc=\$rc: \$(tail -n 2 /tmp/cli.* | tr '\n' ' ')" | tee -a results.txt
  for d in \$rails; do
    awk -v s=\$s -v d=\$d -v r=\$nr -v t=\$tag '\$1==s && NF>=5 {printf "%s rails=%s rail=%s size=%s transfers=%s MiBps=%s\n", t, r, d, \$1, \$2, \$4}' /tmp/cli.\$d | tee -a results.txt
  done
  echo "cpu tool=\$tag rails=\$nr size=\$s \$b t0=\$t0 t1=\$t1" | tee -a results.txt
}
# Ours: TransferCli on RAILS (a --rails list), SIZE bytes, N transfers per rail (batches of 32); csv turned into lines
# tagged TAG (linkproof-bw; linkproof-bidir with EXTRA --both-ways, whose rails count the ways back too).
ours() {
  local rails="\$1" s="\$2" n="\$3" extra="\${4:-}" tag="\${5:-linkproof-bw}" it wu nr c0 rc b t0 t1
  nr=\$(echo \$rails | tr ',' ' ' | wc -w)
  # As VerbsBenchMain: iterations of 32 WRs; warmup max(iterations / 4, min(iterations, 156)).
  it=\$((n / 32)); [ \$it -ge 1 ] || it=1
  wu=\$it; [ \$wu -le 156 ] || wu=156; [ \$((it / 4)) -le \$wu ] || wu=\$((it / 4))
  c0=\$(cpu); t0=\$(date +%s)
  timeout 600 java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m --enable-native-access=ALL-UNNAMED -cp "$cp_vm" \
    dev.linkproof.transfer.cli.TransferCli --transport verbs --rails \$rails --op write --size \$s --batch 32 --depth 4 \
    --iters \$it --warmup \$wu --set verbs.merge=false --set verbs.signalEvery=32 --set verbs.postList=1 --set verbs.txDepth=128 \
    --progress-timeout 60s --format csv --agent-log /mnt/share/agent.log \
    --agent-jvm-arg=-Xshare:off ${JIT:+--agent-jvm-arg=$JIT} --agent-jvm-arg=-Xmx256m $OURS_EXTRA \$extra > /tmp/ours.csv 2> /tmp/ours.err &
  jp=\$!
  [ "\$round" != 1 ] || threads \$jp linkproof-rail "tool=linkproof rails=\$nr size=\$s" &
  wait \$jp; rc=\$?; b=\$(busy \$c0); t1=\$(date +%s); wait
  awk -F, -v r=\$nr -v t=\$tag 'NR>1 && \$10 != "" {l = \$(NF-2); gsub(/ /, "_", l); printf "%s rails=%s rail=%s label=%s size=%s transfers=%d GBps=%s valid=%s start_ms=%s end_ms=%s\n", t, r, \$(NF-3), l, \$3, \$7 * \$4, \$12, \$18, \$(NF-1), \$NF}' /tmp/ours.csv | tee -a results.txt
  [ "\$tag" != linkproof-bw ] || echo "cpu tool=linkproof rails=\$nr size=\$s \$b t0=\$t0 t1=\$t1" | tee -a results.txt
  grep -q ',false,' /tmp/ours.csv && echo "linkproof-failed rails=\$nr size=\$s: \$(grep ',false,' /tmp/ours.csv | head -n 1)" | tee -a results.txt
  [ \$rc = 0 ] || { echo "linkproof-failed rails=\$nr size=\$s rc=\$rc: \$(grep -m1 -E 'linkproof-transfer:|SIGSEGV|SIGILL|Exception|Error' /tmp/ours.err /tmp/ours.csv)" | tee -a results.txt; cp /tmp/ours.err ours-\$nr-\$s.err; }
  return 0
}
echo "guest-clock \$(date +%s)" >> results.txt
for round in \$(seq 1 $ROUNDS); do
  r=\$round
  echo "round=\$r" >> results.txt
  for p in $SIZES; do
    s=\${p%%:*}; n=\${p##*:}
    perftest "rxe0 rxe9" \$s \$n "" perftest-bw
    ours rxe0,rxe9 \$s \$n
    perftest rxe0 \$s \$n "" perftest-bw
    ours rxe0 \$s \$n
    if [ "$BIDIR" = 1 ]; then
      perftest rxe0 \$s \$n -b perftest-bidir
      ours rxe0 \$s \$n --both-ways linkproof-bidir
    fi
  done
done
dmesg | grep -i -E "killed|oom" | tail -3
echo "[guest \$(up)s] bench done"
GUEST

# The VM runs in its own process group, ended with this script however it ends (the VM's own
# QEMU_TIMEOUT bounds it too).
vm=; sampler=
stop_vm() { [ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true; [ -z "$vm" ] || kill -- -"$vm" 2>/dev/null || true; }
trap stop_vm EXIT
trap 'stop_vm; exit 130' INT TERM
SHARE=$share JDK=$JDK QEMU_TIMEOUT=${QEMU_TIMEOUT:-2400} setsid scripts/softroce-vm.sh "$share/bench.sh" & vm=$!
# The host's side: every 0.5 s its clock, its busy and all jiffies, and QEMU's own (the VM's vCPUs and I/O), so
# each run's window (the guest's t0, t1, from its RTC-set clock) gets how many host cores the VM had and how
# many other processes took: the host has 2, and other builds run on it.
sample_host() {
  set +e +o pipefail
  local q=
  while kill -0 "$vm" 2>/dev/null; do
    [ -n "$q" ] && [ -d "/proc/$q" ] || q=$(pgrep -s "$vm" qemu-system | head -n 1)
    echo "$(date +%s.%N) $(awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8; exit}' /proc/stat) $(sed 's/.*) //' "/proc/$q/stat" 2>/dev/null | awk '{print $12 + $13}')"
    sleep 0.5
  done
}
sample_host > "$work/host-cpu.txt" & sampler=$!
wait "$vm" || echo "the VM's guest script ended with status $?"
vm=
kill "$sampler" 2>/dev/null || true; sampler=
fi
r=$share/results.txt
[ -s "$r" ] || { echo "no results in $r" >&2; exit 1; }
# Each run's host share: "host tool=... rails=... size=... vm_cores=... others_cores=..." from the samples around it.
hz=$(getconf CLK_TCK)
awk -v hz="$hz" 'FILENAME == ARGV[1] { if (NF == 4) { n++; t[n] = $1; b[n] = $2; a[n] = $3; q[n] = $4 }; next }
  /^cpu / { t0 = t1 = ""; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "t0") t0 = kv[2]; if (kv[1] == "t1") t1 = kv[2] }
    if (t0 == "" || n == 0) next
    i0 = 0; i1 = 0; for (i = 1; i <= n; i++) { if (t[i] <= t0) i0 = i; if (t[i] >= t1 + 1 && !i1) i1 = i }
    if (!i1) i1 = n   # the last run: the VM powered off within a second of its end
    if (!i0 || t[i1] <= t[i0]) next
    dt = (t[i1] - t[i0]) * hz; vmc = (q[i1] - q[i0]) / dt; oth = (b[i1] - b[i0] - (q[i1] - q[i0])) / dt
    printf "host %s %s %s vm_cores=%.2f others_cores=%.2f\n", $2, $3, $4, vmc, (oth < 0 ? 0 : oth) }' \
  "$work/host-cpu.txt" "$r" > "$share/host.txt" 2>/dev/null || : > "$share/host.txt"
table=$(cat "$r" "$share/host.txt" | awk -f bench/lib/median.awk -f <(echo '
  /^round=/ { split($1, rq, "="); round = rq[2] }
  function kv(i,   a) { split($i, a, "="); return a[2] }
  /^perftest-bw / { n = kv(2); s = kv(4); g = kv(6) * 1048576 / 1e9; key = s SUBSEP n
                    if (!(s in seen)) { seen[s] = 1; sizes[++ns] = s }
                    psum[key, round] += g; prail[s, kv(3), n] = prail[s, kv(3), n] " " g }
  /^perftest-bidir / { s = kv(4); bidir[s] = bidir[s] " " kv(6) * 1048576 / 1e9; pbid[s, round] = kv(6) * 1048576 / 1e9 }
  /^linkproof-bidir / { if (kv(3) == "all") { s = kv(5); obid[s] = obid[s] " " kv(7); obidr[s, round] = kv(7) } }
  /^linkproof-bw / { n = kv(2); rail = kv(3); s = kv(5); g = kv(7); key = s SUBSEP n
                     if (rail == "all") { oall[key, round] = g; oallv[key] = oallv[key] " " g }
                     else orail[s, rail, n] = orail[s, rail, n] " " g }
  /^cpu / { split($2, t, "="); cpu[t[2], kv(4), kv(3)] = cpu[t[2], kv(4), kv(3)] " " kv(5) }
  /^host / { split($2, t, "="); vmc[t[2], kv(4), kv(3)] = vmc[t[2], kv(4), kv(3)] " " kv(5); oth[t[2], kv(4), kv(3)] = oth[t[2], kv(4), kv(3)] " " kv(6) }
  /^(linkproof|perftest|bench)-failed/ { failed = failed "\n- " $0 }
  END {
    print "| WRITE size (B) | rails | ib_write_bw GB/s, sum of the processes (median) | linkproof GB/s, aggregate (median) | ratio of medians | ratio per round | per rail, ib_write_bw / linkproof (medians) | guest CPU busy %, perftest / linkproof | host cores the VM had / others took, perftest; linkproof |"
    print "|---:|---:|---:|---:|---:|---|---|---|---|"
    for (i = 1; i <= ns; i++) for (n = 2; n >= 1; n--) {
      s = sizes[i]; key = s SUBSEP n; pl = ""; per = ""; rails = ""
      for (q = 1; q <= round; q++) {
        if (psum[key, q] > 0) pl = pl " " psum[key, q]
        per = per (per == "" ? "" : ", ") (psum[key, q] > 0 && oall[key, q] > 0 ? sprintf("%.2f", oall[key, q] / psum[key, q]) : "–")
      }
      p = median(pl); o = median(oallv[key])
      if (n == 2) rails = sprintf("rxe0 %.4f / %.4f, rxe9 %.4f / %.4f", median(prail[s, "rxe0", 2]), median(orail[s, 0, 2]), median(prail[s, "rxe9", 2]), median(orail[s, 1, 2]))
      else rails = sprintf("rxe0 %.4f / %.4f", median(prail[s, "rxe0", 1]), median(orail[s, 0, 1]))
      printf "| %s | %d | %.4f | %.4f | %.2f | %s | %s | %s / %s | %.2f / %.2f; %.2f / %.2f |\n", s, n, p, o, (p > 0 ? o / p : 0), per, rails, median(cpu["perftest-bw", s, n]), median(cpu["linkproof", s, n]), median(vmc["perftest-bw", s, n]), median(oth["perftest-bw", s, n]), median(vmc["linkproof", s, n]), median(oth["linkproof", s, n])
      if (n == 2) { p2[s] = p; o2[s] = o } else { p1[s] = p; o1[s] = o }
    }
    print ""
    print "What the second rail adds (aggregate of two rails / one rail alone, medians):"
    print ""
    print "| WRITE size (B) | ib_write_bw | linkproof |"
    print "|---:|---:|---:|"
    for (i = 1; i <= ns; i++) { s = sizes[i]; printf "| %s | %.2f | %.2f |\n", s, (p1[s] > 0 ? p2[s] / p1[s] : 0), (o1[s] > 0 ? o2[s] / o1[s] : 0) }
    nb = 0; for (s in bidir) nb++
    if (nb > 0) {
      print ""
      print "Both ways on rxe0: ib_write_bw -b (both directions together, its MB/sec read as MiB/s) against one rail --both-ways (both ways'"'"' bytes over the first start to the last end):"
      print ""
      print "| WRITE size (B) | ib_write_bw -b GB/s (median) | linkproof both ways GB/s (median) | ratio of medians | ratio per round |"
      print "|---:|---:|---:|---:|---|"
      for (i = 1; i <= ns; i++) if (sizes[i] in bidir) {
        s = sizes[i]; per = ""
        for (q = 1; q <= round; q++) per = per (per == "" ? "" : ", ") (pbid[s, q] > 0 && obidr[s, q] > 0 ? sprintf("%.2f", obidr[s, q] / pbid[s, q]) : "–")
        p = median(bidir[s]); o = median(obid[s])
        printf "| %s | %.4f | %.4f | %.2f | %s |\n", s, p, o, (p > 0 ? o / p : 0), per
      }
    }
    if (failed != "") print "\nFailures (their figures are missing above):" failed
  }'))
echo "$table"
results=$(bench_history_file)
{
  echo
  echo "## verbs WRITE on two rails at once vs two ib_write_bw at once on Soft-RoCE (rxe0 + rxe9 in a QEMU/TCG VM, 2 vCPUs) — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`JIT=\"$JIT\" ROUNDS=$ROUNDS SIZES=\"$SIZES\" BIDIR=$BIDIR${OURS_EXTRA:+ OURS_EXTRA=\"$OURS_EXTRA\"} bench/verbs-rails-vs-perftest.sh\`; machine: $(host_machine); host $load_before before, $(load_now) after; $(vm_guest "$JDK")."
  echo "Same VM boot; rxe0 on dummy0 and rxe9 on dummy9 (each device loops its traffic back inside rxe); the tools alternate"
  echo "for $ROUNDS rounds; GB = 10^9. Ours: one TransferCli, \`--rails rxe0,rxe9\` (aggregate = all bytes / first start to last"
  echo "end, every rail validated); theirs: one ib_write_bw server + client pair per device, run at once, their rates summed"
  echo "(perftest's MB/sec are MiB/s, 0x100000 bytes: converted to 10^9-byte GB/s here)."
  echo "Under TCG everything is software-emulated: the figures compare the two stacks here, not real NICs."
  echo
  echo "$table"
  echo
  echo "Raw lines (guest; then the host's share of each run):"
  echo '```'
  cat "$r" "$share/host.txt"
  echo '```'
} >> "$results"
echo "appended to $results"
