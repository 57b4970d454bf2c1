#!/usr/bin/env bash
# Linkproof's ucx transport next to ucx_perftest, same machine, same run, same UCX_TLS.
#
# What each side does, so the two columns measure the same thing:
#
#   put bandwidth  ours, from 4 KiB: WRITE, batch 1 (one ucp_put_nbx per transfer), pipeline depth
#                  DEPTH: up to DEPTH transfers in flight, each completed by one ucp_worker_flush_nbx
#                  (remote completion of every transfer: the transport's definition of a finished
#                  batch).
#                  ours, below 4 KiB (8 B and 64 B): WRITE, batch SMALL_BATCH: SMALL_BATCH puts (one
#                  ucp_put_nbx each, each to its own slot of the region), then one ucp_worker_flush_nbx
#                  for the batch; up to DEPTH batches in flight. A flush per put would be a flush per
#                  8 bytes: it costs more than the put itself (about 9 CPU ns of UCX a flush on the 2-CPU VM,
#                  bench/history/2026-12-05.md), which perftest does not pay. The batch-1 figures are
#                  kept beside them (rows "ours batch 1"), against the same perftest runs.
#                  ucx_perftest -t ucp_put_bw -O DEPTH: ucp_put_nbx with a completion callback, at
#                  most DEPTH requests outstanding (only puts that return a request count), one
#                  ucp_worker_flush at the very end. Over shared memory a put completes inside
#                  ucp_put_nbx for both, so neither ever waits on the window; the difference left is
#                  our flush per batch (one per transfer from 4 KiB: 1 % of a 64 KiB put; one per
#                  SMALL_BATCH puts below), so ours does strictly more than perftest.
#   get bandwidth  ours: READ, batch 1 from 4 KiB, SMALL_BATCH below (each get to its own slot),
#                  pipeline depth DEPTH batches; a get is finished when its own request is (its data
#                  is then in local memory): no flush. Over shared memory every get completes inside
#                  ucp_get_nbx, so the batch only changes how often our loop's per-batch bookkeeping
#                  runs (pipeline accounting, the control watch's check, the ring).
#                  ucx_perftest -t ucp_get -O DEPTH: window DEPTH. (Its default window for ucp_get is
#                  1, stop-and-wait; the figures before 2026-12-03 compared that with our depth 32.)
#   sizes, counts  the same message size (-s) and the same number of operations for both: from 4 KiB
#                  -n = ours = 2 GiB / size, within 200..200000; below 4 KiB SMALL_OPS operations
#                  (perftest -n SMALL_OPS; ours SMALL_OPS / SMALL_BATCH batches; at 80 Mops/s 200000
#                  would be 2.5 ms, shorter than a scheduler tick). Perftest uses the same buffer and
#                  remote address every time; ours the same every batch (SMALL_BATCH slots of the
#                  size, adjacent: 2 KiB at 64 B, in cache like perftest's).
#                  Warmup: ours iterations/4 plus one untimed 64 B point for the JIT; perftest up
#                  to 10000 iterations or 100 ms, whichever ends first (-w default; the time bound
#                  is not an option).
#   rate           every bandwidth row's operations per second beside it (Mops/s: 10^6 operations a
#                  second; ours: transfers / the timed loop's time; perftest: its "overall" message
#                  rate column); at one size the ratio of rates is the ratio of bandwidths.
#   memory         both sides of both tools: ucp_mem_map(UCP_MEM_MAP_ALLOCATE), host memory (-m host),
#                  contiguous datatype (-D contig); neither passes the memory handle with the op (no -z).
#   transport      UCX_TLS=TLS for both ranks of both tools (ours through ucp_config_modify).
#   timing         both: one timer around the whole measured loop, final completion included;
#                  bandwidth = size × iterations / that time. perftest prints MB/s = 2^20 B/s (its
#                  "overall" column); converted here to GB/s = 10^9 B/s like ours.
#   target rank    perftest's server busy-polls (progress, then spins on the last byte of its buffer)
#                  for the whole test; ours progresses and, after 50 µs idle, sleeps in poll(2) on
#                  the worker's event fd (one-sided RMA over shm needs nothing from it). Where the
#                  two CPUs are hyperthreads of one core, perftest's spinning server slows its client.
#   latency        8 B get: ours READ latency mode (get, then its completion, stop-and-wait, p50 of
#                  per-transfer samples) vs ucx_perftest -t ucp_get -O 1 (same loop; its p50
#                  "typical" column; averages beside): like for like, except the clocks: each of our
#                  samples includes one System.nanoTime (about 20 ns on a tsc clocksource), each of
#                  perftest's one rdtsc, so the p50 of an 8 B get shows ours about 20-30 ns longer
#                  (ours also counts the loop's bookkeeping). 8 B put, reported beside it, not like for like:
#                  ours is put + ucp_worker_flush_nbx on the initiator, perftest's ucp_put_lat is half
#                  the round trip of a put ping-pong (each side puts, then polls memory).
#
# Every repetition runs both tools on every size, alternating which tool goes first, so machine
# noise hits both alike; the table has each tool's median over REPS with its min-max spread, the
# ratio of the medians, and the spread of the per-repetition ratios. Each point of ours is validated
# by checksum. The initiator (our JVM, perftest's client) runs on CPU_INITIATOR, the target (our
# agent JVM, all its threads; perftest's server) on CPU_TARGET.
#
# Environment knobs (defaults in brackets):
#   REPS [5]   DEPTH [32]   TLS [shm]   CPU_INITIATOR [0]   CPU_TARGET [1]   PORT [13500]
#   SMALL_BATCH [32]: our batch below 4 KiB   SMALL_OPS [6400000]: operations per point below 4 KiB
#   SMALL_BATCH1 [1]: also run ours at batch 1 below 4 KiB (0: skip those rows)
#   MVN_FLAGS []: extra flags for the build (e.g. -o: offline)
#   LINKPROOF_JAVA [/usr/lib/jvm/*25*/bin/java, else $JAVA_HOME/bin/java]: the java of both our ranks (25+)
#   RESULTS [bench/history/<UTC day>.md]: the section is appended there (the others are kept); APPEND=0 to skip
#   OUT_DIR [a fresh temporary directory]: raw outputs
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-5}
DEPTH=${DEPTH:-32}
TLS=${TLS:-shm}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
PORT=${PORT:-13500}
RESULTS=${RESULTS:-}
APPEND=${APPEND:-1}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-ucx-bench.XXXXXX")}
SMALL_BATCH=${SMALL_BATCH:-32}
SMALL_OPS=${SMALL_OPS:-6400000}
SMALL_BATCH1=${SMALL_BATCH1:-1}
SMALL_SIZES=(8 64)
LARGE_SIZES=(4096 65536 1048576 16777216)
SIZES=("${SMALL_SIZES[@]}" "${LARGE_SIZES[@]}")
mkdir -p "$OUT_DIR"

die() { echo "ucx-vs-perftest: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

(( SMALL_BATCH >= 1 && SMALL_OPS % SMALL_BATCH == 0 )) || die "SMALL_OPS must be a multiple of SMALL_BATCH"
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

# "load average 1m 5m 15m, CPU pressure N %" (the share of the last 10 s some task waited for a CPU)
load_now() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)$( [[ -r /proc/pressure/cpu ]] && sed -n 's/^some avg10=\([0-9.]*\).*/, CPU pressure \1 %/p' /proc/pressure/cpu)"; }
LOAD_START=$(load_now)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')

note "building transfer-core (test classes hold the bench driver)"
(cd "$ROOT" && mvn -B -q ${MVN_FLAGS:-} -pl transfer-core test-compile dependency:build-classpath \
    -Dmdep.outputFile="$OUT_DIR/cp.txt" >"$OUT_DIR/build.log" 2>&1) || { cat "$OUT_DIR/build.log" >&2; die "build failed"; }
CP="$ROOT/transfer-core/target/test-classes:$ROOT/transfer-core/target/classes:$(cat "$OUT_DIR/cp.txt")"

iters_for() {
  (( $1 < 4096 )) && { echo "$SMALL_OPS"; return; }
  local n=$(( (2 << 30) / $1 )); (( n < 200 )) && n=200; (( n > 200000 )) && n=200000; echo "$n"
}
small_csv=$(IFS=,; echo "${SMALL_SIZES[*]}")
large_csv=$(IFS=,; echo "${LARGE_SIZES[*]}")

# ours REP OP MODE SIZES [BATCH OUT ITERATIONS] -> "RESULT op mode size GBps avg_us p50_us valid ops/s"
# lines, tagged with REP, in OUT (ours.txt); ITERATIONS: batches per point (default: PointBench's own)
ours() {
  local rep=$1 batch=${5:-1} out=${6:-ours.txt}
  LINKPROOF_BENCH_ITERATIONS=${7:-} timeout 600 taskset -c "$CPU_I" "$JAVA" --enable-native-access=ALL-UNNAMED -Xmx512m -cp "$CP" \
    dev.linkproof.transfer.bench.PointBench ucx "UCX_TLS=$TLS" "$2" "$3" "$4" "$DEPTH" "$CPU_T" "$batch" \
    2>>"$OUT_DIR/ours.err" | tee -a "$OUT_DIR/ours.raw" | grep '^RESULT' | sed "s/^/$rep /" >> "$OUT_DIR/$out" \
    || die "our run ($*) failed; see $OUT_DIR/ours.err"
}

# perftest REP TEST SIZE ITERS [ARGS...] -> "rep test size Final: iters p50 avg overall bw_avg bw_overall ..." in perftest.txt;
# the line is tagged with LABEL instead of TEST where set (the 8 B get latency run is ucp_get at 8 B too)
perftest() {
  local rep=$1 test=$2 size=$3 iters=$4 port=$((PORT++)) label=${LABEL:-$2}
  shift 4
  UCX_TLS=$TLS timeout 120 taskset -c "$CPU_T" ucx_perftest -p "$port" >>"$OUT_DIR/perftest-server.log" 2>&1 &
  local server=$!
  sleep 0.5
  local line
  line=$(UCX_TLS=$TLS timeout 120 taskset -c "$CPU_I" ucx_perftest 127.0.0.1 -p "$port" -t "$test" -s "$size" \
           -n "$iters" -m host "$@" 2>&1 | tee -a "$OUT_DIR/perftest.raw" | grep '^Final:' || true)
  wait "$server" || true
  [[ -n "$line" ]] || die "ucx_perftest -t $test -s $size gave no result; see $OUT_DIR/perftest.raw"
  echo "$rep $label $size $line" >> "$OUT_DIR/perftest.txt"
}

ours_all() {
  ours "$1" write bw "$small_csv" "$SMALL_BATCH" ours.txt $((SMALL_OPS / SMALL_BATCH))
  ours "$1" read bw "$small_csv" "$SMALL_BATCH" ours.txt $((SMALL_OPS / SMALL_BATCH))
  if [[ "$SMALL_BATCH1" == 1 ]]; then
    ours "$1" write bw "$small_csv" 1 ours-batch1.txt "$SMALL_OPS"
    ours "$1" read bw "$small_csv" 1 ours-batch1.txt "$SMALL_OPS"
  fi
  ours "$1" write bw "$large_csv"
  ours "$1" read bw "$large_csv"
  ours "$1" read lat 8
  ours "$1" write lat 8
}

perftest_all() {
  for s in "${SIZES[@]}"; do
    perftest "$1" ucp_put_bw "$s" "$(iters_for "$s")" -O "$DEPTH"
    perftest "$1" ucp_get "$s" "$(iters_for "$s")" -O "$DEPTH"
  done
  LABEL=ucp_get_lat perftest "$1" ucp_get 8 100000 -O 1
  perftest "$1" ucp_put_lat 8 100000
}

for rep in $(seq 1 "$REPS"); do
  note "repetition $rep of $REPS ($(load_now))"
  if (( rep % 2 )); then ours_all "$rep"; perftest_all "$rep"; else perftest_all "$rep"; ours_all "$rep"; fi
done
LOAD_END=$(load_now)

# stats: reads "rep value" lines; prints "median min max"
stats() { sort -k2,2g | awk '{v[NR]=$2} END {if (NR==0) {print "nan nan nan"} else {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; print m, v[1], v[NR]}}'; }
# ours.txt (ours-batch1.txt alike): rep RESULT op mode size GBps avg_us p50_us valid ops/s; FILE defaults to ours.txt
ours_vals() { awk -v op="$1" -v m="$2" -v s="$3" -v c="$4" '$3==op && $4==m && $5==s {print $1, $c}' "$OUT_DIR/${5:-ours.txt}"; }
ours_mops() { awk -v op="$1" -v s="$2" '$3==op && $4=="bw" && $5==s {printf "%s %.4f\n", $1, $10 / 1e6}' "$OUT_DIR/${3:-ours.txt}"; }
# perftest.txt: rep test size Final: iters p50_us avg_us overall_us bw_avg(MB/s) bw_overall(MB/s) mr_avg mr_overall
pt_bw_vals() { awk -v t="$1" -v s="$2" '$2==t && $3==s {printf "%s %.4f\n", $1, $10 * 1048576 / 1e9}' "$OUT_DIR/perftest.txt"; }
pt_mops() { awk -v t="$1" -v s="$2" '$2==t && $3==s {printf "%s %.4f\n", $1, $12 / 1e6}' "$OUT_DIR/perftest.txt"; }
pt_vals() { awk -v t="$1" -v s="$2" -v c="$3" '$2==t && $3==s {print $1, $c}' "$OUT_DIR/perftest.txt"; }
# paired ratios per repetition: ours / perftest, "median min max"
ratios() { join <(sort -k1,1 "$1") <(sort -k1,1 "$2") | awk '$3 > 0 {print $1, $2 / $3}' | stats; }
touch "$OUT_DIR/ours-batch1.txt"
invalid=$(cat "$OUT_DIR/ours.txt" "$OUT_DIR/ours-batch1.txt" | awk '$9!="true"' | wc -l)
points=$(cat "$OUT_DIR/ours.txt" "$OUT_DIR/ours-batch1.txt" | wc -l)

human() { case $1 in 8) echo "8 B";; 4096) echo "4 KiB";; 65536) echo "64 KiB";; 1048576) echo "1 MiB";; 16777216) echo "16 MiB";; *) echo "$1 B";; esac; }
cell() { read -r m lo hi <<< "$1"; printf "%.${2}f (%.${2}f–%.${2}f)" "$m" "$lo" "$hi"; }
median() { stats < "$1" | awk '{printf "%.3g", $1}'; }
row() { # name size ours-values-file perftest-values-file decimals [ours-Mops-file perftest-Mops-file]
  local o p r om pm; o=$(stats < "$3"); p=$(stats < "$4"); r=$(ratios "$3" "$4")
  read -r om _ <<< "$o"; read -r pm _ <<< "$p"
  local rates="– | –"
  [[ -n "${6:-}" ]] && rates="$(median "$6") | $(median "$7")"
  printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$1" "$(human "$2")" "$(cell "$o" "$5")" "$(cell "$p" "$5")" \
    "$(awk -v a="$om" -v b="$pm" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "n/a"}')" "$(cell "$r" 2)" "$rates"
}
table="$OUT_DIR/table.md"
{
  echo "| test | size | linkproof ucx: median (min–max) | ucx_perftest: median (min–max) | ratio of medians | per-repetition ratios: median (min–max) | linkproof Mops/s (median) | ucx_perftest Mops/s (median) |"
  echo "|---|---|---|---|---|---|---|---|"
  for pair in "put write ucp_put_bw" "get read ucp_get"; do
    read -r name op test <<< "$pair"
    for s in "${SIZES[@]}"; do
      b=1; (( s < 4096 )) && b=$SMALL_BATCH
      ours_vals "$op" bw "$s" 6 > "$OUT_DIR/o.tmp"; pt_bw_vals "$test" "$s" > "$OUT_DIR/p.tmp"
      ours_mops "$op" "$s" > "$OUT_DIR/om.tmp"; pt_mops "$test" "$s" > "$OUT_DIR/pm.tmp"
      row "$name bandwidth (GB/s), ours batch $b" "$s" "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2 "$OUT_DIR/om.tmp" "$OUT_DIR/pm.tmp"
      if (( s < 4096 )) && [[ "$SMALL_BATCH1" == 1 ]]; then
        ours_vals "$op" bw "$s" 6 ours-batch1.txt > "$OUT_DIR/o.tmp"; ours_mops "$op" "$s" ours-batch1.txt > "$OUT_DIR/om.tmp"
        row "$name bandwidth (GB/s), ours batch 1$( [[ $op == write ]] && echo ": a flush per put")" "$s" \
          "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 2 "$OUT_DIR/om.tmp" "$OUT_DIR/pm.tmp"
      fi
    done
  done
  # ours: p50 is column 8, average column 7; perftest: p50 ("typical") column 6, average column 7
  ours_vals read lat 8 8 > "$OUT_DIR/o.tmp"; pt_vals ucp_get_lat 8 6 > "$OUT_DIR/p.tmp"
  row "get latency p50 (µs): ours READ latency mode; perftest ucp_get -O 1" 8 "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
  ours_vals read lat 8 7 > "$OUT_DIR/o.tmp"; pt_vals ucp_get_lat 8 7 > "$OUT_DIR/p.tmp"
  row "get latency average (µs): the same runs" 8 "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
  ours_vals write lat 8 8 > "$OUT_DIR/o.tmp"; pt_vals ucp_put_lat 8 6 > "$OUT_DIR/p.tmp"
  row "put latency p50 (µs), not like for like: ours put + flush; perftest ucp_put_lat half round trip" 8 \
    "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
  ours_vals write lat 8 7 > "$OUT_DIR/o.tmp"; pt_vals ucp_put_lat 8 7 > "$OUT_DIR/p.tmp"
  row "put latency average (µs), not like for like: the same runs" 8 "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" 3
} > "$table"
rm -f "$OUT_DIR/o.tmp" "$OUT_DIR/p.tmp" "$OUT_DIR/om.tmp" "$OUT_DIR/pm.tmp"

echo
cat "$table"
echo
echo "ours: $points points, $invalid not validated; raw outputs in $OUT_DIR"
(( invalid == 0 )) || die "$invalid of our points did not validate"

if [[ "$APPEND" == 1 ]]; then
  . "$ROOT/bench/lib/history.sh"
  RESULTS=${RESULTS:-$(bench_history_file "$ROOT")}
  {
    echo
    echo "# ucx vs ucx_perftest — $STARTED"
    echo
    echo "Command: \`REPS=$REPS DEPTH=$DEPTH SMALL_BATCH=$SMALL_BATCH SMALL_OPS=$SMALL_OPS SMALL_BATCH1=$SMALL_BATCH1 TLS=$TLS CPU_INITIATOR=$CPU_I CPU_TARGET=$CPU_T bench/ucx-vs-perftest.sh\`  "
    echo "Machine: $(hostname), $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1); $(lscpu | sed -n 's/^Thread(s) per core: *//p' | head -n 1) thread(s) per core), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)  "
    echo "Load: at the start $LOAD_START; at the end $LOAD_END  "
    echo "Stack: UCX $(ucx_info -v 2>/dev/null | sed -n 's/^# Version *//p' | head -n 1), $("$JAVA" -version 2>&1 | head -n 1), $(uname -sr)  "
    echo "Method: see the header of bench/ucx-vs-perftest.sh. $REPS repetitions, tools alternating which goes first; initiator on CPU $CPU_I, target on CPU $CPU_T; UCX_TLS=$TLS for both tools; both at $DEPTH in flight (ours: pipeline depth $DEPTH batches; batch 1 from 4 KiB, batch $SMALL_BATCH at 8 B and 64 B with one flush per batch for put, batch-1 rows beside; perftest: -O $DEPTH, one flush at the end); $SMALL_OPS operations per point at 8 B and 64 B for both tools; every point of ours validated."
    echo
    cat "$table"
  } >> "$RESULTS"
  echo "appended to $RESULTS"
fi
