#!/usr/bin/env bash
# Linkproof's ucx transport next to ucx_perftest, same machine, same run, same UCX_TLS.
#
#   put bandwidth   ours: WRITE (ucp_put_nbx), pipeline depth DEPTH, batch 1   vs  ucx_perftest -t ucp_put_bw
#   get bandwidth   ours: READ  (ucp_get_nbx), pipeline depth DEPTH, batch 1   vs  ucx_perftest -t ucp_get
#   8-byte latency  ours: WRITE, latency mode (put + flush, stop-and-wait)     vs  ucx_perftest -t ucp_put_lat
# at 4 KiB, 64 KiB, 1 MiB and 16 MiB, REPS repetitions, medians printed with the ratio ours / perftest.
# The initiator (our JVM, perftest's client) runs on CPU_INITIATOR, the target (our agent JVM, all
# its threads; perftest's server) on CPU_TARGET. GB = 10^9 bytes in every column (ucx_perftest
# reports MB = 2^20 bytes; converted). Every point of ours is also validated by checksum.
#
# Note on latency: ucx_perftest's ucp_put_lat is a ping-pong (half a round trip: each side puts
# and polls memory); ours is put + ucp_worker_flush_nbx to completion on the initiator, per
# transfer. The two are reported side by side, not as like for like.
#
# Environment knobs (defaults in brackets):
#   REPS [3]   DEPTH [32]   TLS [shm]   CPU_INITIATOR [0]   CPU_TARGET [1]   PORT [13500]
#   RESULTS [bench/RESULTS.md]: the table is appended there as a new top-level section (the other
#     sections are kept); APPEND=0 to skip
#   OUT_DIR [a fresh temporary directory]: raw outputs
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-3}
DEPTH=${DEPTH:-32}
TLS=${TLS:-shm}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
PORT=${PORT:-13500}
RESULTS=${RESULTS:-$ROOT/bench/RESULTS.md}
APPEND=${APPEND:-1}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-ucx-bench.XXXXXX")}
SIZES=(4096 65536 1048576 16777216)
mkdir -p "$OUT_DIR"

die() { echo "ucx-vs-perftest: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

(( $(nproc) >= 2 )) || die "needs 2 CPUs to pin the two ranks apart; nproc says $(nproc)"
[[ "$CPU_I" != "$CPU_T" ]] || die "CPU_INITIATOR and CPU_TARGET must differ"
command -v taskset >/dev/null || die "taskset (util-linux) is required"
command -v ucx_perftest >/dev/null || die "ucx_perftest missing: apt-get install ucx-utils (scripts/setup.sh does)"
JAVA=${LINKPROOF_JAVA:-}
if [[ -z "$JAVA" ]]; then
  jdk=$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1 || true)
  [[ -n "$jdk" ]] && JAVA="$jdk/bin/java" || JAVA="${JAVA_HOME:-/usr}/bin/java"
fi
"$JAVA" -version 2>&1 | grep -q 'version "2[5-9]' || die "$JAVA is not a JDK 25+ (set LINKPROOF_JAVA)"

note "building transfer-core (test classes hold the bench driver)"
(cd "$ROOT" && mvn -B -q -pl transfer-core test-compile dependency:build-classpath \
    -Dmdep.outputFile="$OUT_DIR/cp.txt" >"$OUT_DIR/build.log" 2>&1) || { cat "$OUT_DIR/build.log" >&2; die "build failed"; }
CP="$ROOT/transfer-core/target/test-classes:$ROOT/transfer-core/target/classes:$(cat "$OUT_DIR/cp.txt")"

iters_for() { local n=$(( (2 << 30) / $1 )); (( n < 200 )) && n=200; (( n > 200000 )) && n=200000; echo "$n"; }
sizes_csv=$(IFS=,; echo "${SIZES[*]}")

# ours OP MODE -> "RESULT op mode size GBps avg_us p50_us valid" lines appended to ours.txt
ours() {
  timeout 600 taskset -c "$CPU_I" "$JAVA" --enable-native-access=ALL-UNNAMED -Xmx512m -cp "$CP" \
    dev.linkproof.transfer.ucx.UcxBench "$1" "$2" "$3" "$DEPTH" "$CPU_T" "$TLS" \
    2>>"$OUT_DIR/ours.err" | tee -a "$OUT_DIR/ours.raw" | grep '^RESULT' >> "$OUT_DIR/ours.txt" \
    || die "our run ($*) failed; see $OUT_DIR/ours.err"
}

# perftest TEST SIZE ITERS -> the client's Final line appended to perftest.txt, tagged
perftest() {
  local test=$1 size=$2 iters=$3 port=$((PORT++))
  UCX_TLS=$TLS timeout 120 taskset -c "$CPU_T" ucx_perftest -p "$port" >>"$OUT_DIR/perftest-server.log" 2>&1 &
  local server=$!
  sleep 0.5
  local line
  line=$(UCX_TLS=$TLS timeout 120 taskset -c "$CPU_I" ucx_perftest 127.0.0.1 -p "$port" -t "$test" -s "$size" \
           -n "$iters" 2>&1 | tee -a "$OUT_DIR/perftest.raw" | grep '^Final:' || true)
  wait "$server" || true
  [[ -n "$line" ]] || die "ucx_perftest -t $test -s $size gave no result; see $OUT_DIR/perftest.raw"
  echo "$test $size $line" >> "$OUT_DIR/perftest.txt"
}

for rep in $(seq 1 "$REPS"); do
  note "repetition $rep of $REPS"
  ours write bw "$sizes_csv"
  ours read bw "$sizes_csv"
  ours write lat 8
  for s in "${SIZES[@]}"; do
    perftest ucp_put_bw "$s" "$(iters_for "$s")"
    perftest ucp_get "$s" "$(iters_for "$s")"
  done
  perftest ucp_put_lat 8 100000
done

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan"} else if (NR%2) {print v[(NR+1)/2]} else {print (v[NR/2]+v[NR/2+1])/2}}'; }
# ours: RESULT op mode size GBps avg_us p50_us valid
ours_bw() { awk -v op="$1" -v s="$2" '$2==op && $3=="bw" && $4==s {print $5}' "$OUT_DIR/ours.txt" | median; }
ours_lat() { awk -v c="$1" '$2=="write" && $3=="lat" && $4==8 {print $c}' "$OUT_DIR/ours.txt" | median; }
# perftest: test size Final: iters p50 avg overall bw_avg(MB/s) bw_overall(MB/s) ...
pt_bw() { awk -v t="$1" -v s="$2" '$1==t && $2==s {printf "%.4f\n", $9 * 1048576 / 1e9}' "$OUT_DIR/perftest.txt" | median; }
pt_lat() { awk -v c="$1" '$1=="ucp_put_lat" && $2==8 {print $c}' "$OUT_DIR/perftest.txt" | median; }
invalid=$(awk '$8!="true"' "$OUT_DIR/ours.txt" | wc -l)

human() { case $1 in 4096) echo "4 KiB";; 65536) echo "64 KiB";; 1048576) echo "1 MiB";; 16777216) echo "16 MiB";; *) echo "$1 B";; esac; }
table="$OUT_DIR/table.md"
{
  echo "| test | size | linkproof ucx | ucx_perftest | ratio |"
  echo "|---|---|---|---|---|"
  for pair in "put write ucp_put_bw" "get read ucp_get"; do
    read -r name op test <<< "$pair"
    for s in "${SIZES[@]}"; do
      o=$(ours_bw "$op" "$s"); p=$(pt_bw "$test" "$s")
      r=$(awk -v o="$o" -v p="$p" 'BEGIN {if (p > 0) printf "%.2f", o / p; else print "n/a"}')
      printf "| %s bandwidth (GB/s) | %s | %.2f | %.2f | %s |\n" "$name" "$(human "$s")" "$o" "$p" "$r"
    done
  done
  o=$(ours_lat 6); oa=$(ours_lat 7); p=$(pt_lat 6); pa=$(pt_lat 5)
  printf "| 8 B latency (µs): ours put+flush avg / p50; perftest ucp_put_lat avg / typical | 8 B | %.3f / %.3f | %.3f / %.3f | %s |\n" \
    "$o" "$oa" "$p" "$pa" "$(awk -v o="$o" -v p="$p" 'BEGIN {printf "%.2f", o / p}')"
} > "$table"

echo
cat "$table"
echo
echo "ours: $(wc -l < "$OUT_DIR/ours.txt") points, $invalid not validated; raw outputs in $OUT_DIR"
(( invalid == 0 )) || die "$invalid of our points did not validate"

if [[ "$APPEND" == 1 ]]; then
  {
    echo
    echo "# ucx vs ucx_perftest — $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "Command: \`REPS=$REPS DEPTH=$DEPTH TLS=$TLS CPU_INITIATOR=$CPU_I CPU_TARGET=$CPU_T bench/ucx-vs-perftest.sh\`  "
    echo "Machine: $(hostname), $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end  "
    echo "Stack: UCX $(ucx_info -v 2>/dev/null | sed -n 's/^# Version *//p' | head -n 1), $("$JAVA" -version 2>&1 | head -n 1), $(uname -sr)  "
    echo "Medians of $REPS; initiator on CPU $CPU_I, target on CPU $CPU_T; UCX_TLS=$TLS for both tools; ours at pipeline depth $DEPTH, every point validated."
    echo
    cat "$table"
  } >> "$RESULTS"
  echo "appended to $RESULTS"
fi
