#!/usr/bin/env bash
# Linkproof's libfabric transport next to libfabric's own fi_pingpong, same machine, same run, same
# provider; and, as a second reference, ours over libfabric next to ours over UCX on the same host.
#
# What each side does, so the columns measure the same thing:
#
#   fi_pingpong   -e rdm -p PROVIDER -S SIZE -I ITERS: the client sends SIZE bytes, the server
#                 receives them and sends SIZE back, ITERS times; its "usec/xfer" is the time of one
#                 message (half a round trip) and its "MB/sec" SIZE over that time (10^6 B/s).
#   ours (WRITE)  PointBench libfabric libfabric.provider=PROVIDER write lat: one fi_writemsg with
#                 FI_DELIVERY_COMPLETE, then its completion, stop and wait, ITERS times behind one
#                 whole-loop timer. Delivery complete means the data is in the target's memory, which
#                 the provider learns from the target: SIZE one way and a short acknowledgement back.
#                 Ratio = fi_pingpong's time / ours (= ours' bandwidth over fi_pingpong's; >= 1: ours
#                 as fast; the issue's target is >= 0.9 from 4 KiB). From 64 KiB the payload's way
#                 dominates both; at 4 KiB the acknowledgement still costs about a seventh of the time
#                 (the C floor is 0.86 of fi_pingpong there, 2026-12-06). Each point is validated
#                 (checksums) after its timed loop.
#   C floor       bench/c/lf-write-floor.c (built here with cc -O2 -Wall): ours WRITE's libfabric calls
#                 and attributes in C, one process per rank, the target spinning on fi_cq_read as our
#                 agent does, the same sizes, ITERS and timer. fi_pingpong's one-way message is not our
#                 operation (with shm's inject protocol the acknowledgement is on the critical path), so a
#                 gap to it cannot say whether the operation or our Java path costs it: C floor / ours says
#                 the latter (>= 1: ours as fast as C making the same calls), fi_pingpong / C floor what the
#                 operation itself allows against fi_pingpong's figure. Ours − C floor is the cost of one
#                 of our operations beyond libfabric's ("per-op overhead"): the JVM's FFM downcalls
#                 through the ops tables (fi_writemsg, fi_cq_read), the loop's bookkeeping, the
#                 completion's context lookup, and the one clock read and histogram record per
#                 transfer that give ours its percentiles (the floor and fi_pingpong time whole loops).
#   ours (SEND)   the same with fi_send into the target's posted fi_recv, shown beside: its
#                 completion is the provider's transmit completion (the data has left, not arrived:
#                 over tcp;ofi_rxm that is a socket write), so it is not a round trip.
#   UCX reference ours over libfabric and ours over UCX (UCX_TLS=shm for shm, tcp for tcp;ofi_rxm),
#                 WRITE latency mode, the same sizes and ITERS: the same engine loop on two native
#                 libraries.
#
# Every repetition runs every tool on every size: ours, the C floor, fi_pingpong in odd repetitions,
# the reverse in even ones; the tables give each side's median over REPS with its min-max, and the
# ratio of the medians. The initiator (our JVM, the floor's and fi_pingpong's client) runs on
# CPU_INITIATOR, the target (our agent JVM, the floor's and fi_pingpong's server) on CPU_TARGET.
#
# Environment knobs (defaults in brackets):
#   REPS [3]   PROVIDERS ["shm tcp;ofi_rxm"]   SIZES ["64 4096 65536 1048576"]   ITERS [10000]
#   CPU_INITIATOR [0]   CPU_TARGET [1]   MVN_FLAGS [none; e.g. -o]
#   PORT [27700]: the first of the control ports fi_pingpong and the C floor listen on, one more per
#   run; below Linux's ephemeral range (32768-60999), where an outgoing connection of the run (the
#   agents', tcp;ofi_rxm's) once held 47738 and the floor's target could not listen there.
#   JIT [-XX:-TieredCompilation]: our JVMs' (initiator and agent) JIT mode, as the verbs benches.
#   FAST_NS [150]: the host's mode. Runs here are bimodal (a 4 KiB shm write 0.7-0.8 µs or 2.7-3.1 µs
#   for a whole run): the C floor and fi_pingpong show the same slow mode at the same times, with a
#   cache-line round trip between the two vCPUs 5 x slower (64-74 ns against 340-365), so it is the
#   host's placement of the vCPUs, not the JIT (2026-12-06, bench/history). bench/c/cacheline-rtt.c
#   times that round trip before and after every tool's run; a run is in the fast mode when both
#   are under FAST_NS. The second table takes each tool's medians over its fast runs only (n of
#   REPS beside each): the like-for-like figures. The first keeps every run.
#   LINKPROOF_JAVA [/usr/lib/jvm/*25*/bin/java]   OUT_DIR [a fresh temporary directory]
#   RESULTS [bench/history/<UTC day>.md]: the section is appended there; APPEND=0 to skip
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-3}
read -r -a PROVIDERS_A <<< "${PROVIDERS:-shm tcp;ofi_rxm}"
read -r -a SIZES_A <<< "${SIZES:-64 4096 65536 1048576}"
ITERS=${ITERS:-10000}
JIT=${JIT--XX:-TieredCompilation}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
PORT=${PORT:-27700}
APPEND=${APPEND:-1}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-libfabric-bench.XXXXXX")}
mkdir -p "$OUT_DIR"
die() { echo "libfabric-vs-pingpong: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

(( $(nproc) >= 2 )) || die "needs 2 CPUs to pin the two ranks apart; nproc says $(nproc)"
command -v taskset >/dev/null || die "taskset (util-linux) is required"
command -v fi_pingpong >/dev/null || die "fi_pingpong missing: apt-get install libfabric-bin (scripts/setup.sh --test does)"
command -v cc >/dev/null || die "cc missing: the C floor (bench/c/lf-write-floor.c) is built here"
JAVA=${LINKPROOF_JAVA:-}
if [[ -z "$JAVA" ]]; then
  jdk=$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n 1 || true)
  [[ -n "$jdk" ]] && JAVA="$jdk/bin/java" || JAVA="${JAVA_HOME:-/usr}/bin/java"
fi
"$JAVA" -version 2>&1 | grep -q 'version "2[5-9]' || die "$JAVA is not a JDK 25+ (set LINKPROOF_JAVA)"
load_now() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
LOAD_START=$(load_now)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')

note "building transfer-core (test classes hold the bench driver)"
(cd "$ROOT" && mvn -B -q ${MVN_FLAGS:-} -pl transfer-core test-compile dependency:build-classpath \
    -Dmdep.outputFile="$OUT_DIR/cp.txt" >"$OUT_DIR/build.log" 2>&1) || { cat "$OUT_DIR/build.log" >&2; die "build failed"; }
CP="$ROOT/transfer-core/target/test-classes:$ROOT/transfer-core/target/classes:$(cat "$OUT_DIR/cp.txt")"
FLOOR=$OUT_DIR/lf-write-floor
cc -O2 -Wall -o "$FLOOR" "$ROOT/bench/c/lf-write-floor.c" -lfabric 2>"$OUT_DIR/floor-build.log" \
  || { cat "$OUT_DIR/floor-build.log" >&2; die "building the C floor failed (libfabric-dev installed?)"; }
PROBE=$OUT_DIR/cacheline-rtt
cc -O2 -Wall -pthread -o "$PROBE" "$ROOT/bench/c/cacheline-rtt.c" 2>"$OUT_DIR/probe-build.log" \
  || { cat "$OUT_DIR/probe-build.log" >&2; die "building the cache-line probe failed"; }
FAST_NS=${FAST_NS:-150}
sizes_csv=$(IFS=,; echo "${SIZES_A[*]}")

# probed REP KEY COMMAND...: COMMAND between two cache-line probes -> "rep key before_ns after_ns" in probe.txt
probed() {
  local rep=$1 key=$2 before after
  shift 2
  before=$(timeout 60 "$PROBE" "$CPU_I" "$CPU_T") || die "the cache-line probe failed"
  "$@"
  after=$(timeout 60 "$PROBE" "$CPU_I" "$CPU_T") || die "the cache-line probe failed"
  echo "$rep $key $before $after" >> "$OUT_DIR/probe.txt"
}

# ours REP LABEL TRANSPORT SETTINGS OP -> "rep label RESULT op mode size GBps avg_us p50_us valid ops/s" in ours.txt
ours() {
  JAVA_TOOL_OPTIONS="$JIT" LINKPROOF_BENCH_ITERATIONS=$ITERS timeout 900 taskset -c "$CPU_I" "$JAVA" --enable-native-access=ALL-UNNAMED -Xmx512m -cp "$CP" \
    dev.linkproof.transfer.bench.PointBench "$3" "$4" "$5" lat "$sizes_csv" 1 "$CPU_T" \
    2>>"$OUT_DIR/ours.err" | tee -a "$OUT_DIR/ours.raw" | grep '^RESULT' | sed "s/^/$1 $2 /" >> "$OUT_DIR/ours.txt" \
    || die "our run ($2 $5) failed; see $OUT_DIR/ours.err"
}

# pingpong REP PROVIDER SIZE -> "rep provider size usec_per_xfer MBps" in pingpong.txt
pingpong() {
  local port=$((PORT++)) line
  timeout 300 taskset -c "$CPU_T" fi_pingpong -e rdm -p "$2" -S "$3" -I "$ITERS" -B "$port" >>"$OUT_DIR/pingpong-server.log" 2>&1 &
  local server=$!
  sleep 0.5
  line=$(timeout 300 taskset -c "$CPU_I" fi_pingpong -e rdm -p "$2" -S "$3" -I "$ITERS" -P "$port" 127.0.0.1 2>&1 \
           | tee -a "$OUT_DIR/pingpong.raw" | awk '$1 ~ /^[0-9]/ && NF >= 8 {print $(NF-1), $(NF-2)}' | tail -n 1)
  wait "$server" || true
  [[ -n "$line" ]] || die "fi_pingpong -p '$2' -S $3 gave no result; see $OUT_DIR/pingpong.raw"
  echo "$1 $2 $3 $line" >> "$OUT_DIR/pingpong.txt"
}

# floor REP PROVIDER -> "rep provider size avg_us" in floor.txt, one line per size (one process pair, all sizes, as ours)
floor() {
  local port=$((PORT++)) server
  timeout 300 taskset -c "$CPU_T" "$FLOOR" -p "$2" -B "$port" -T 290 >>"$OUT_DIR/floor-server.log" 2>&1 &
  server=$!
  if ! timeout 300 taskset -c "$CPU_I" "$FLOOR" -p "$2" -S "$sizes_csv" -I "$ITERS" -P "$port" 127.0.0.1 2>>"$OUT_DIR/floor.err" \
       | tee -a "$OUT_DIR/floor.raw" | awk -v r="$1" -v p="$2" '$1 == "FLOOR" && NF == 5 {print r, p, $3, $4}' >> "$OUT_DIR/floor.txt"; then
    wait "$server" || true
    die "the C floor ($2) failed; see $OUT_DIR/floor.err and floor-server.log"
  fi
  wait "$server" || die "the C floor's target ($2) failed; see $OUT_DIR/floor-server.log"
}
floor_all() { for p in "${PROVIDERS_A[@]}"; do probed "$1" "floor-$p" floor "$1" "$p"; done; }

ucx_tls() { case $1 in shm) echo shm;; *) echo tcp;; esac; }
ours_all() {
  for p in "${PROVIDERS_A[@]}"; do
    probed "$1" "lf-send-$p" ours "$1" "lf-send-$p" libfabric "libfabric.provider=$p" send
    probed "$1" "lf-write-$p" ours "$1" "lf-write-$p" libfabric "libfabric.provider=$p" write
    probed "$1" "ucx-write-$p" ours "$1" "ucx-write-$p" ucx "UCX_TLS=$(ucx_tls "$p")" write
  done
}
pingpong_all() {
  for p in "${PROVIDERS_A[@]}"; do for s in "${SIZES_A[@]}"; do probed "$1" "pp-$p-$s" pingpong "$1" "$p" "$s"; done; done
}

for rep in $(seq 1 "$REPS"); do
  note "repetition $rep of $REPS ($(load_now))"
  if (( rep % 2 )); then ours_all "$rep"; floor_all "$rep"; pingpong_all "$rep"
  else pingpong_all "$rep"; floor_all "$rep"; ours_all "$rep"; fi
done
LOAD_END=$(load_now)

# stats: "median min max count" of the numbers on stdin ("nan nan nan 0" for none)
stats() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan nan nan 0"} else {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; print m, v[1], v[NR], NR}}'; }
# fast_reps KEY: the repetitions whose run KEY both probes called fast, one per line
fast_reps() { awk -v k="$1" -v f="$FAST_NS" '$2==k && $3 < f && $4 < f {print $1}' "$OUT_DIR/probe.txt"; }
# only_reps "R1 R2 ...": the lines of stdin whose first field is one of the repetitions
only_reps() { awk -v r=" $1 " 'index(r, " " $1 " ")'; }
# X_us ... [FAST]: the figures of every repetition, or with FAST=1 of the fast-mode ones only
ours_us() { awk -v l="$1" -v s="$2" '$2==l && $6==s {print $1, $8}' "$OUT_DIR/ours.txt" | pick "$1" "${3:-}"; }
pp_us() { awk -v p="$1" -v s="$2" '$2==p && $3==s {print $1, $4}' "$OUT_DIR/pingpong.txt" | pick "pp-$1-$2" "${3:-}"; }
floor_us() { awk -v p="$1" -v s="$2" '$2==p && $3==s {print $1, $4}' "$OUT_DIR/floor.txt" | pick "floor-$1" "${3:-}"; }
pick() { if [[ "$2" == 1 ]]; then only_reps "$(fast_reps "$1" | tr '\n' ' ')"; else cat; fi | awk '{print $2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }
cell() { read -r m lo hi _ <<< "$1"; [[ "$m" == nan ]] && { printf "–"; return; }; printf "%.2f (%.2f–%.2f)" "$m" "$lo" "$hi"; }
# ratio_or_dash A B: A / B, or – where either is missing (no fast-mode run)
ratio_or_dash() { [[ "$1" == nan || "$2" == nan ]] && echo – || ratio "$1" "$2"; }
diff_or_dash() { [[ "$1" == nan || "$2" == nan ]] && echo – || awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.2f", a - b}'; }
# count FAST STATS: " n=N" after a fast-mode cell (how many runs its median takes), nothing otherwise
count() { [[ -n "$1" ]] && echo " n=${2##* }" || true; }
# table FAST: the WRITE table, over every repetition (FAST empty) or over the fast-mode runs (FAST=1)
table() {
  local fast=${1:-} p s pp o f snd pm om fm
  echo "| provider | size | fi_pingpong µs | ours WRITE µs | ratio fi_pingpong / ours WRITE | C floor WRITE µs | C floor / ours WRITE | fi_pingpong / C floor | ours SEND µs | per-op overhead (ours WRITE − C floor), µs |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for p in "${PROVIDERS_A[@]}"; do
    for s in "${SIZES_A[@]}"; do
      pp=$(pp_us "$p" "$s" "$fast" | stats); o=$(ours_us "lf-write-$p" "$s" "$fast" | stats)
      snd=$(ours_us "lf-send-$p" "$s" "$fast" | stats); f=$(floor_us "$p" "$s" "$fast" | stats)
      read -r pm _ <<< "$pp"; read -r om _ <<< "$o"; read -r fm _ <<< "$f"
      printf "| %s | %s | %s%s | %s%s | **%s** | %s%s | **%s** | %s | %s%s | %s |\n" "$p" "$(human "$s")" \
        "$(cell "$pp")" "$(count "$fast" "$pp")" "$(cell "$o")" "$(count "$fast" "$o")" "$(ratio_or_dash "$pm" "$om")" \
        "$(cell "$f")" "$(count "$fast" "$f")" "$(ratio_or_dash "$fm" "$om")" "$(ratio_or_dash "$pm" "$fm")" \
        "$(cell "$snd")" "$(count "$fast" "$snd")" "$(diff_or_dash "$om" "$fm")"
    done
  done
}
human() { case $1 in 64) echo "64 B";; 4096) echo "4 KiB";; 65536) echo "64 KiB";; 1048576) echo "1 MiB";; *) echo "$1 B";; esac; }
invalid=$(awk '$10!="true"' "$OUT_DIR/ours.txt" | wc -l)
points=$(wc -l < "$OUT_DIR/ours.txt")

{
  echo "## libfabric vs fi_pingpong ($STARTED)"
  echo
  echo "Command: \`JIT=\"$JIT\" REPS=$REPS ITERS=$ITERS PROVIDERS=\"${PROVIDERS_A[*]}\" SIZES=\"${SIZES_A[*]}\" FAST_NS=$FAST_NS bench/libfabric-vs-pingpong.sh\` (commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo '+changes')). $(nproc) CPUs, $(uname -r), libfabric $(fi_info --version 2>/dev/null | awk '/libfabric:/ {print $2}'); $LOAD_START at the start, $LOAD_END at the end. Initiator on CPU $CPU_I, target on CPU $CPU_T. C floor: \`bench/c/lf-write-floor.c\`, $(cc --version | head -n 1). Medians over $REPS repetitions (min–max). $points points of ours, $invalid not valid."
  echo
  echo "One transfer's time, µs (fi_pingpong: one message, half a round trip; ours WRITE: delivery complete, stop and wait; C floor: the same WRITE's libfabric calls in C; ours SEND: transmit complete):"
  echo
  table
  echo
  echo "The same over the fast-mode runs only (both cache-line probes under $FAST_NS ns; n: how many of the $REPS repetitions each median takes; – where none ran fast):"
  echo
  table 1
  echo
  echo "The host's mode, cache-line round trip CPU $CPU_I ↔ CPU $CPU_T before / after each run, ns: $(awk -v f="$FAST_NS" '{t++; if ($3 < f && $4 < f) n++; if ($3 >= f || $4 >= f) slow = slow " " $1 ":" $2} END {printf "%d of %d runs fast; slow:%s", n, t, (slow == "" ? " none" : slow)}' "$OUT_DIR/probe.txt") (all figures in probe.txt)."
  echo
  echo "Ours over libfabric next to ours over UCX (WRITE, latency mode, µs per transfer; UCX_TLS=shm beside shm, tcp beside tcp;ofi_rxm):"
  echo
  echo "| provider | size | ours libfabric WRITE µs | ours UCX WRITE µs | libfabric / UCX time |"
  echo "|---|---|---|---|---|"
  for p in "${PROVIDERS_A[@]}"; do
    for s in "${SIZES_A[@]}"; do
      l=$(ours_us "lf-write-$p" "$s" | stats); u=$(ours_us "ucx-write-$p" "$s" | stats)
      read -r lm _ <<< "$l"; read -r um _ <<< "$u"
      printf "| %s | %s | %s | %s | %.2f |\n" "$p" "$(human "$s")" "$(cell "$l")" "$(cell "$u")" \
        "$(awk -v a="$lm" -v b="$um" 'BEGIN {print (b > 0) ? a / b : 0}')"
    done
  done
  echo
  echo "Raw outputs: $OUT_DIR"
} > "$OUT_DIR/section.md"
cat "$OUT_DIR/section.md"
if [[ "$APPEND" == 1 ]]; then
  RESULTS=${RESULTS:-$ROOT/bench/history/$(date -u +%F).md}
  { echo; cat "$OUT_DIR/section.md"; } >> "$RESULTS"
  note "appended to $RESULTS"
fi
(( invalid == 0 )) || die "$invalid of our points did not validate"
