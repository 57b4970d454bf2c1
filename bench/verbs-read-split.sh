#!/usr/bin/env bash
# Where an 8 B RDMA READ's time goes on Soft-RoCE, C against ours, in the same VM (rxe0 under QEMU/TCG):
# bench/c/rlat.c (our QP/MR attributes, stop and wait) and VerbsBenchMain's rlat point each run a long
# stop-and-wait READ loop, and over windows of that loop the guest counts, per READ:
#   - wall µs: the window over the READs in it (rxe0's sent_pkts counter: a request and a response a READ);
#   - the loop thread's user and system CPU µs (/proc/PID/task/TID/stat, in USER_HZ ticks; the loop
#     thread is the tool's thread whose CPU grew most over the window);
#   - how often the kernel ran each traced function (ftrace's function tracer, in a second run of each
#     tool, 0.1 s windows, the one with the most READs kept):
#     the rxe path, the write(2) that rings the doorbell, the softirq and tasklet, wake-ups, context
#     switches, FPU save and restore, TLB flushes, page faults and every system call; per
#     ib_uverbs_post_send, the write(2) of one READ.
# A tool's window that counted the most READs is its steady state (the others caught a JVM starting,
# interpreting or compiling). The counting runs are untraced. If the kernel runs the same functions as
# often for both while ours costs more system time per READ, the difference is not work our process asks
# for but how fast the same work runs under TCG in its context. Appends a table to bench/history/<UTC day>.md with the command, date and machine.
#
#   bench/verbs-read-split.sh            compile transfer-core (no install) and rlat.c, boot, measure
#   ROUNDS=3 WINDOW=2 bench/verbs-read-split.sh
#   TABLE_ONLY=1 bench/verbs-read-split.sh   only the table, from the last run's results
# Env: ROUNDS (default 2), WINDOW (seconds a window counts, default 2), JIT (our JVMs' JIT options, default
# C2 only as in bench/verbs-vs-perftest.sh), JDK, SKIP_BUILD=1 (use transfer-core as built), MVN_FLAGS (e.g. -o).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ROUNDS=${ROUNDS:-2}; WINDOW=${WINDOW:-2}
JIT=${JIT--XX:-TieredCompilation}
JDK=${JDK:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1)}
work=$root/transfer-core/target/verbs-read-split; share=$work/share
. bench/lib/vm-bench.sh
. bench/lib/history.sh
if [ "${TABLE_ONLY:-}" != 1 ]; then
prepare_vm_bench "$work" "$share"
load_start=$(load_now)
gcc -O2 -Wall -o "$share/rlat" bench/c/rlat.c -libverbs
cat > "$share/guest.sh" <<GUEST
set -u; set -f   # -f: the function globs below go to ftrace as they are
cd /mnt/share; ulimit -l unlimited
: > results.txt
T=/sys/kernel/tracing
mount -t tracefs nodev \$T
echo 65536 > \$T/buffer_size_kb; echo 0 > \$T/tracing_on
# The functions counted per READ (globs). The function tracer is switched on and off only between two
# tools' runs: doing so while a READ loop runs re-patches the kernel's text under load, which under TCG
# stalled the VM for a minute (soft lockups); and the counting runs are untraced.
for f in ib_uverbs_post_send 'rxe_*' '__x64_sys_*' __do_softirq tasklet_action run_ksoftirqd try_to_wake_up check_preempt_wakeup \\
    switch_mm_irqs_off save_fpregs_to_fpstate switch_fpu_return __rseq_handle_notify_resume '*flush_tlb*' exc_page_fault \\
    handle_mm_fault __sysvec_apic_timer_interrupt '*call_function_single*'; do
  echo "\$f" >> \$T/set_ftrace_filter 2>/dev/null || true
done
# READs are counted by rxe's own packet counter: a READ is a request and a response, both sent by rxe0.
PKTS=/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
# ticks PID: "TID UTIME STIME" of every thread of PID (stat's fields 14 and 15, the name taken out)
ticks() { set +f; for s in /proc/\$1/task/*/stat; do sed 's/^\([0-9]*\) (.*) /\1 /' "\$s" 2>/dev/null | awk '{print \$1, \$13, \$14}'; done; set -f; }
# count TOOL ROUND PID: a counting window of PID's loop (untraced)
count() {
  ticks \$3 > /tmp/t0; p0=\$(cat \$PKTS); t0=\$(cut -d' ' -f1 /proc/uptime)
  sleep $WINDOW
  t1=\$(cut -d' ' -f1 /proc/uptime); p1=\$(cat \$PKTS); ticks \$3 > /tmp/t1
  n=\$(( (p1 - p0) / 2 ))
  [ "\$n" -gt 0 ] || return 0
  # The loop thread: the one whose CPU grew most; USER_HZ is 100 (a tick is 10 ms).
  awk -v r=\$n -v t0=\$t0 -v t1=\$t1 -v tool=\$1 -v round=\$2 'NR == FNR { u[\$1] = \$2; s[\$1] = \$3; next }
    (\$1 in u) { d = \$2 - u[\$1] + \$3 - s[\$1]; if (d > best) { best = d; du = \$2 - u[\$1]; ds = \$3 - s[\$1] } }
    END { printf "split tool=%s round=%d reads=%d window_s=%.2f wall_us=%.2f user_us=%.2f sys_us=%.2f\n", tool, round, r, t1 - t0,
          (t1 - t0) * 1e6 / r, du * 1e4 / r, ds * 1e4 / r }' /tmp/t0 /tmp/t1 >> windows.txt
}
# trace TOOL ROUND PID: a 0.1 s tracing window; every traced function's calls per ib_uverbs_post_send
trace() {
  echo > \$T/trace; echo 1 > \$T/tracing_on; sleep 0.1; echo 0 > \$T/tracing_on
  awk '!/^#/ { for (i = 1; i <= NF; i++) if (\$i ~ /^<-/) { n[\$(i-1)]++; break } }
    END { for (f in n) printf "%s %d\n", f, n[f] }' \$T/trace > /tmp/fn.txt
  awk -v tool=\$1 -v round=\$2 'NR == FNR { if (\$1 == "ib_uverbs_post_send") p = \$2; next }
    p > 0 { printf "fn tool=%s round=%d posts=%d func=%s per_read=%.3f\n", tool, round, p, \$1, \$2 / p }' /tmp/fn.txt /tmp/fn.txt >> windows.txt
}
# steady HOW TOOL ROUND PID: HOW (count or trace) windows while PID runs; the window that saw the most
# READs (the tool's steady state) goes to results.txt
steady() {
  : > windows.txt
  how=\$1; shift
  while kill -0 \$3 2>/dev/null; do \$how "\$@"; sleep 1; done
  if [ \$how = count ]; then
    best=\$(awk '/^split/ { split(\$4, kv, "="); if (kv[2] + 0 > max) { max = kv[2] + 0; line = \$0 } } END { print line }' windows.txt)
    [ -n "\$best" ] && echo "\$best" | tee -a results.txt || echo "split-failed tool=\$1 round=\$2" | tee -a results.txt
  else
    most=\$(awk '/^fn/ { split(\$4, kv, "="); if (kv[2] + 0 > max) max = kv[2] + 0 } END { print max + 0 }' windows.txt)
    grep " posts=\$most " windows.txt >> results.txt || echo "split-failed tool=\$1 round=\$2 (trace)" | tee -a results.txt
  fi
}
ours() { # exec: the background job's pid is then the initiator JVM's, whose threads count() reads
  exec java -Xshare:off $JIT -XX:+UseSerialGC -Xmx384m --enable-native-access=ALL-UNNAMED -Dlinkproof.agent.log=/mnt/share/agent.log \\
    "-Dlinkproof.agent.jvmArgs=-Xshare:off $JIT -XX:+UseSerialGC -Xmx256m" -cp "$cp_vm" \\
    dev.linkproof.transfer.cli.VerbsBenchMain rlat 8:\$1 > /tmp/ours.txt 2>&1
}
for round in \$(seq 1 $ROUNDS); do
  echo nop > \$T/current_tracer
  ./rlat -n 600000 > /tmp/c.txt & steady count c \$round \$!; wait
  ours 400000 & steady count ours \$round \$!; wait
  echo function > \$T/current_tracer
  ./rlat -n 200000 > /tmp/c.txt & steady trace c \$round \$!; wait
  ours 200000 & steady trace ours \$round \$!; wait
done
echo nop > \$T/current_tracer
GUEST
SHARE=$share JDK=$JDK QEMU_TIMEOUT=1800 scripts/softroce-vm.sh "$share/guest.sh"
echo "host $load_start at the start, $(load_now) at the end" > "$share/load.txt"
fi
r=$share/results.txt
split=$(awk -f bench/lib/median.awk -f <(echo '
  function field(name,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  /^split / { t = field("tool"); w[t] = w[t] " " field("wall_us"); u[t] = u[t] " " field("user_us"); s[t] = s[t] " " field("sys_us") }
  /^split-failed/ { failed++ }
  END {
    print "| per 8 B READ, steady window (median over rounds) | C, our attributes | Linkproof verbs | ours − C |"
    print "|---|---:|---:|---:|"
    printf "| wall µs (window / READs) | %.1f | %.1f | %+.1f |\n", median(w["c"]), median(w["ours"]), median(w["ours"]) - median(w["c"])
    printf "| loop thread, user µs | %.2f | %.2f | %+.2f |\n", median(u["c"]), median(u["ours"]), median(u["ours"]) - median(u["c"])
    printf "| loop thread, system µs | %.1f | %.1f | %+.1f |\n", median(s["c"]), median(s["ours"]), median(s["ours"]) - median(s["c"])
    printf "| per round, wall µs C / ours | %s | %s | |\n", w["c"], w["ours"]
    if (failed) printf "\n%d tool round(s) gave no steady window; see %s\n", failed, FILENAME
  }') "$r")
fns=$(awk -f bench/lib/median.awk -f <(echo '
  function field(name,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  /^fn / { f = field("func"); v[field("tool"), f] = v[field("tool"), f] " " field("per_read"); seen[f] = 1 }
  END { for (f in seen) { c = median(v["c", f]); o = median(v["ours", f]); if (c >= 0.02 || o >= 0.02) printf "| %s | %.2f | %.2f |\n", f, c, o } }') "$r" \
  | sort -t'|' -k3,3gr -k2,2)
{
  echo
  echo "## verbs READ on rxe: where the time goes, C against ours (QEMU/TCG VM) — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`JIT=\"$JIT\" ROUNDS=$ROUNDS WINDOW=$WINDOW bench/verbs-read-split.sh\`; machine: $(vm_machine_line), 2 vCPUs; $(cat "$share/load.txt" 2>/dev/null || echo "host load not recorded")."
  echo
  echo "$split"
  echo
  echo "| kernel function (ftrace), calls | C, per READ | ours, per READ |"
  echo "|---|---:|---:|"
  echo "$fns"
} | tee -a "$(bench_history_file)"
