#!/usr/bin/env bash
# Linkproof's atomics next to ucx_perftest's, same machine, same run, same UCX_TLS (shared memory).
#
# What each side does, so the columns measure the same thing:
#
#   fetch-add rate   ours: FETCH_ADD, batch 1 (one counter, one ucp_atomic_op_nbx ADD with a reply
#                    buffer per op), one endpoint, pipeline depth DEPTH (up to DEPTH ops in flight; a
#                    batch is complete when its op's request is, the reply then in place).
#                    ucx_perftest -t ucp_fadd -O DEPTH: ucp_atomic_op_nbx ADD with a reply buffer,
#                    at most DEPTH requests outstanding, one 8-byte remote word.
#   compare-swap     ours: COMPARE_SWAP, the same shape; each op one link of a chain (compare with the
#                    value the previous op left, swap in the next), so every one of ours succeeds.
#                    ucx_perftest -t ucp_cswap -O DEPTH: CSWAP with its own compare and swap values.
#                    (UCX 1.13's tests are ucp_add / ucp_fadd / ucp_cswap; newer UCX calls them
#                    ucp_atomic_add / ucp_atomic_fadd / ucp_atomic_cswap. ucp_add does not fetch: no op
#                    of ours is a non-fetching add, so it is not compared.)
#   stop-and-wait    ours: the same ops at pipeline depth 1 (each op's request completed before the
#                    next is posted) vs ucx_perftest -O 1; rates from the same whole-loop timer.
#   latency          ours: the same ops in latency mode (stop-and-wait, per-op samples, p50) vs
#                    ucx_perftest -O 1's "typical" (p50) column. Ours includes one System.nanoTime
#                    per sample (about 20 ns), perftest's an rdtsc; its samples are whole ops too.
#   counts           the same iteration count for both (-n = ours: ITERS); ours warms up a quarter
#                    of that plus one untimed point for the JIT, perftest its default 10000.
#   figure           operations per second over one timer around the whole loop (final completion
#                    included): ours Measurement.opsPerSecond, perftest's "overall" message rate column.
#   memory           both: ucp_mem_map(UCP_MEM_MAP_ALLOCATE) host memory on both ranks.
#   validation       every point of ours checks every counter (final value, fetched set / old values).
#   ranks            initiator (our JVM, perftest's client) on CPU_INITIATOR, target (our agent JVM,
#                    perftest's server) on CPU_TARGET.
#
# Every repetition runs both tools on every test, alternating which goes first, so machine noise
# hits both alike; the table has each tool's median over REPS with its min-max spread, the ratio of
# the medians, and the spread of the per-repetition ratios.
#
# Environment knobs (defaults in brackets):
#   REPS [5]   DEPTH [32]   ITERS [1000000]   TLS [shm]   CPU_INITIATOR [0]   CPU_TARGET [1]   PORT [13700]
#   LINKPROOF_JAVA [/usr/lib/jvm/*25*/bin/java, else $JAVA_HOME/bin/java]
#   RESULTS [bench/history/<UTC day>.md]: the section is appended there; APPEND=0 to skip
#   OUT_DIR [a fresh temporary directory]: raw outputs
#
# Verbs (ib_atomic_bw / ib_atomic_lat on rxe0 in the Soft-RoCE VM) is bench/verbs-atomics-vs-perftest.sh.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-5}
DEPTH=${DEPTH:-32}
ITERS=${ITERS:-1000000}
TLS=${TLS:-shm}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
PORT=${PORT:-13700}
RESULTS=${RESULTS:-}
APPEND=${APPEND:-1}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-atomics-bench.XXXXXX")}
mkdir -p "$OUT_DIR"

die() { echo "atomics-vs-peers: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

(( $(nproc) >= 2 )) || die "needs 2 CPUs to pin the two ranks apart; nproc says $(nproc)"
[[ "$CPU_I" != "$CPU_T" ]] || die "CPU_INITIATOR and CPU_TARGET must differ"
command -v taskset >/dev/null || die "taskset (util-linux) is required"
command -v ucx_perftest >/dev/null || die "ucx_perftest missing: apt-get install ucx-utils (scripts/setup.sh --test does)"
JAVA=${LINKPROOF_JAVA:-}
if [[ -z "$JAVA" ]]; then
  jdk=$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1 || true)
  [[ -n "$jdk" ]] && JAVA="$jdk/bin/java" || JAVA="${JAVA_HOME:-/usr}/bin/java"
fi
"$JAVA" -version 2>&1 | grep -q 'version "2[5-9]' || die "$JAVA is not a JDK 25+ (set LINKPROOF_JAVA)"

load_now() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)$( [[ -r /proc/pressure/cpu ]] && sed -n 's/^some avg10=\([0-9.]*\).*/, CPU pressure \1 %/p' /proc/pressure/cpu)"; }
LOAD_START=$(load_now)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')

note "building transfer-core (test classes hold the bench driver)"
(cd "$ROOT" && mvn -B -o -q -pl transfer-core test-compile dependency:build-classpath \
    -Dmdep.outputFile="$OUT_DIR/cp.txt" >"$OUT_DIR/build.log" 2>&1) || { cat "$OUT_DIR/build.log" >&2; die "build failed"; }
CP="$ROOT/transfer-core/target/test-classes:$ROOT/transfer-core/target/classes:$(cat "$OUT_DIR/cp.txt")"

# ours REP OP MODE DEPTH -> "rep RESULT op mode-depth size GBps avg_us p50_us valid ops" in ours.txt
ours() {
  local rep=$1 op=$2 mode=$3 depth=$4
  LINKPROOF_BENCH_ITERATIONS=$ITERS timeout 600 taskset -c "$CPU_I" "$JAVA" --enable-native-access=ALL-UNNAMED -Xmx512m -cp "$CP" \
    dev.linkproof.transfer.bench.PointBench ucx "UCX_TLS=$TLS" "$op" "$mode" 8 "$depth" "$CPU_T" \
    2>>"$OUT_DIR/ours.err" | tee -a "$OUT_DIR/ours.raw" | grep '^RESULT' \
    | awk -v rep="$rep" -v d="$depth" '{$3 = $3 "-" d; print rep, $0}' >> "$OUT_DIR/ours.txt" \
    || die "our run ($op $mode) failed; see $OUT_DIR/ours.err"
}

# perftest REP TEST OUTSTANDING -> "rep test-O Final: iters p50 avg overall bw_avg bw_overall mr_avg mr_overall" in perftest.txt
perftest() {
  local rep=$1 test=$2 outstanding=$3 port=$((PORT++))
  UCX_TLS=$TLS timeout 120 taskset -c "$CPU_T" ucx_perftest -p "$port" >>"$OUT_DIR/perftest-server.log" 2>&1 &
  local server=$!
  sleep 0.5
  local line
  line=$(UCX_TLS=$TLS timeout 120 taskset -c "$CPU_I" ucx_perftest 127.0.0.1 -p "$port" -t "$test" -s 8 \
           -n "$ITERS" -m host -O "$outstanding" 2>&1 | tee -a "$OUT_DIR/perftest.raw" | grep '^Final:' || true)
  wait "$server" || true
  [[ -n "$line" ]] || die "ucx_perftest -t $test -O $outstanding gave no result; see $OUT_DIR/perftest.raw"
  echo "$rep $test-$outstanding $line" >> "$OUT_DIR/perftest.txt"
}

ours_all() {
  ours "$1" fetch_add bw "$DEPTH"
  ours "$1" compare_swap bw "$DEPTH"
  ours "$1" fetch_add bw 1
  ours "$1" compare_swap bw 1
  ours "$1" fetch_add lat 1
  ours "$1" compare_swap lat 1
}
perftest_all() {
  perftest "$1" ucp_fadd "$DEPTH"
  perftest "$1" ucp_cswap "$DEPTH"
  perftest "$1" ucp_fadd 1
  perftest "$1" ucp_cswap 1
}

for rep in $(seq 1 "$REPS"); do
  note "repetition $rep of $REPS ($(load_now))"
  if (( rep % 2 )); then ours_all "$rep"; perftest_all "$rep"; else perftest_all "$rep"; ours_all "$rep"; fi
done
LOAD_END=$(load_now)

stats() { sort -k2,2g | awk '{v[NR]=$2} END {if (NR==0) {print "nan nan nan"} else {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; print m, v[1], v[NR]}}'; }
# ours.txt: rep RESULT op mode-depth size GBps avg_us p50_us valid ops
ours_vals() { awk -v op="$1" -v m="$2" -v c="$3" -v k="$4" '$3==op && $4==m {printf "%s %.6f\n", $1, $c / k}' "$OUT_DIR/ours.txt"; }
# perftest.txt: rep test-O Final: iters p50_us avg_us overall_us bw_avg(MB/s) bw_overall(MB/s) mr_avg mr_overall (columns 1-11)
pt_vals() { awk -v t="$1" -v c="$2" -v k="$3" '$2==t {printf "%s %.6f\n", $1, $c / k}' "$OUT_DIR/perftest.txt"; }
ratios() { join <(sort -k1,1 "$1") <(sort -k1,1 "$2") | awk '$3 > 0 {print $1, $2 / $3}' | stats; }
invalid=$(awk '$9!="true"' "$OUT_DIR/ours.txt" | wc -l)
cell() { read -r m lo hi <<< "$1"; printf "%.${2}f (%.${2}f–%.${2}f)" "$m" "$lo" "$hi"; }
row() { # name ours-file perftest-file decimals
  local o p r; o=$(stats < "$2"); p=$(stats < "$3"); r=$(ratios "$2" "$3")
  read -r om _ <<< "$o"; read -r pm _ <<< "$p"
  printf "| %s | %s | %s | %s | %s |\n" "$1" "$(cell "$o" "$4")" "$(cell "$p" "$4")" \
    "$(awk -v a="$om" -v b="$pm" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "n/a"}')" "$(cell "$r" 2)"
}
table="$OUT_DIR/table.md"
{
  echo "| test | linkproof ucx: median (min–max) | ucx_perftest: median (min–max) | ratio of medians | per-repetition ratios: median (min–max) |"
  echo "|---|---|---|---|---|"
  ours_vals fetch-add "bw-$DEPTH" 10 1e6 > "$OUT_DIR/o.tmp"; pt_vals "ucp_fadd-$DEPTH" 11 1e6 > "$OUT_DIR/p.tmp"
  row "fetch-add rate (Mops/s), $DEPTH in flight; perftest ucp_fadd -O $DEPTH" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2
  ours_vals compare-swap "bw-$DEPTH" 10 1e6 > "$OUT_DIR/o.tmp"; pt_vals "ucp_cswap-$DEPTH" 11 1e6 > "$OUT_DIR/p.tmp"
  row "compare-swap rate (Mops/s), $DEPTH in flight; perftest ucp_cswap -O $DEPTH" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2
  ours_vals fetch-add bw-1 10 1e6 > "$OUT_DIR/o.tmp"; pt_vals "ucp_fadd-1" 11 1e6 > "$OUT_DIR/p.tmp"
  row "fetch-add rate (Mops/s), stop-and-wait; perftest ucp_fadd -O 1" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2
  ours_vals compare-swap bw-1 10 1e6 > "$OUT_DIR/o.tmp"; pt_vals "ucp_cswap-1" 11 1e6 > "$OUT_DIR/p.tmp"
  row "compare-swap rate (Mops/s), stop-and-wait; perftest ucp_cswap -O 1" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2
  ours_vals fetch-add lat-1 8 1 > "$OUT_DIR/o.tmp"; pt_vals "ucp_fadd-1" 5 1 > "$OUT_DIR/p.tmp"
  row "fetch-add latency p50 (µs): ours latency mode; perftest -O 1 typical" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
  ours_vals compare-swap lat-1 8 1 > "$OUT_DIR/o.tmp"; pt_vals "ucp_cswap-1" 5 1 > "$OUT_DIR/p.tmp"
  row "compare-swap latency p50 (µs): the same" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
} > "$table"
rm -f "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp"

echo
cat "$table"
echo
echo "ours: $(wc -l < "$OUT_DIR/ours.txt") points, $invalid not validated; raw outputs in $OUT_DIR"
(( invalid == 0 )) || die "$invalid of our points did not validate"

if [[ "$APPEND" == 1 ]]; then
  . "$ROOT/bench/lib/history.sh"
  RESULTS=${RESULTS:-$(bench_history_file "$ROOT")}
  {
    echo
    echo "# ucx atomics vs ucx_perftest — $STARTED"
    echo
    echo "Command: \`REPS=$REPS DEPTH=$DEPTH ITERS=$ITERS TLS=$TLS CPU_INITIATOR=$CPU_I CPU_TARGET=$CPU_T bench/atomics-vs-peers.sh\`  "
    echo "Machine: $(hostname), $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1); $(lscpu | sed -n 's/^Thread(s) per core: *//p' | head -n 1) thread(s) per core), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)  "
    echo "Load: at the start $LOAD_START; at the end $LOAD_END  "
    echo "Stack: UCX $(ucx_info -v 2>/dev/null | sed -n 's/^# Version *//p' | head -n 1), $("$JAVA" -version 2>&1 | head -n 1), $(uname -sr)  "
    echo "Method: see the header of bench/atomics-vs-peers.sh. $REPS repetitions, tools alternating which goes first; initiator on CPU $CPU_I, target on CPU $CPU_T; UCX_TLS=$TLS for both tools; $ITERS ops per run; every point of ours validated (every counter)."
    echo
    cat "$table"
  } >> "$RESULTS"
  echo "appended to $RESULTS"
fi
