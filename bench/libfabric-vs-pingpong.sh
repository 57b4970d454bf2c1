#!/usr/bin/env bash
# Linkproof's libfabric transport next to fabtests' fi_pingpong on the same provider and sizes, and
# next to Linkproof's own ucx transport on the same host as a second reference, in the same run.
#
# What each side does, so the columns can be read:
#
#   fi_pingpong   -p PROVIDER -e rdm -S SIZE -I ITERS: two ranks on reliable-datagram endpoints send
#                 each other SIZE-byte messages in turn (fi_send, then wait for the peer's message),
#                 one message in flight. Its usec/xfer is the time of one message one way (half a round
#                 trip); its MB/sec (10^6 B) is SIZE / usec/xfer. Server on CPU_TARGET, client on
#                 CPU_INITIATOR; no data check (-c not given).
#   ours, send    linkproof-transfer --transport libfabric --set libfabric.provider=PROVIDER --op send
#                 --batch 1 --depth 1: one fi_send at a time into a receive the target posted, waited on
#                 until its send completion (delivery for shm's larger messages, transmit for tcp;ofi_rxm:
#                 the message left), so one message one way, stop-and-wait, like a ping-pong's half round
#                 trip but without the reply; GB/s = SIZE × ITERS / the timed loop, µs = loop / ITERS.
#                 Every point validated (checksums, every receive completion's length and count).
#   ours, write   the same with --op write (fi_writemsg, FI_DELIVERY_COMPLETE): the reference row for
#                 ucx, whose put has no send to compare.
#   ucx, write    linkproof-transfer --transport ucx --set UCX_TLS=TLS --op write --batch 1 --depth 1
#                 (ucp_put_nbx + flush), TLS shm for provider shm and tcp for tcp;ofi_rxm.
#
# Ratios: ours / fi_pingpong by bandwidth (the issue's target: at least 0.9 from 4 KiB); ours over
# libfabric / ours over ucx. Medians of REPS repetitions, tools alternating which goes first.
#
# Environment knobs (defaults in brackets):
#   PROVIDERS ["shm tcp;ofi_rxm"]   SIZES [8 4096 65536 1048576]   REPS [3]
#   CPU_INITIATOR [0]   CPU_TARGET [1]   LINKPROOF_JAVA [JDK 25]
#   RESULTS [bench/history/<UTC day>.md]: the record is appended there; APPEND=0 to skip
#   OUT_DIR [a fresh temporary directory]: raw outputs
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
read -r -a SIZES <<< "${SIZES:-8 4096 65536 1048576}"
IFS=' ' read -r -a PROVIDERS <<< "${PROVIDERS:-shm tcp;ofi_rxm}"
REPS=${REPS:-3}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
APPEND=${APPEND:-1}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-libfabric-bench.XXXXXX")}
mkdir -p "$OUT_DIR"

die() { echo "libfabric-vs-pingpong: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

(( $(nproc) >= 2 )) || die "needs 2 CPUs to pin the two ranks apart; nproc says $(nproc)"
[[ "$CPU_I" != "$CPU_T" ]] || die "CPU_INITIATOR and CPU_TARGET must differ"
command -v taskset >/dev/null || die "taskset (util-linux) is required"
command -v fi_pingpong >/dev/null || die "fi_pingpong missing: apt-get install libfabric-bin (scripts/setup.sh --test does)"
. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1

# Operations per point: about 256 MiB, within 2 000..50 000, the same for every tool.
iters_for() { local n=$(( (256 << 20) / $1 )); (( n < 2000 )) && n=2000; (( n > 50000 )) && n=50000; echo "$n"; }

note "building transfer-core"
(cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl transfer-core -am install -DskipTests >"$OUT_DIR/build.log" 2>&1 \
  && mvn -B -q -Dstyle.color=never -pl transfer-core dependency:build-classpath -Dmdep.outputFile="$OUT_DIR/deps.classpath" \
  >>"$OUT_DIR/build.log" 2>&1) || { cat "$OUT_DIR/build.log" >&2; die "the build failed"; }
# A frozen copy: others rebuilding the same tree cannot change the classes under a running bench.
cp "$ROOT/transfer-core/target/transfer-core-0.1.0-SNAPSHOT.jar" "$OUT_DIR/transfer-core.jar"
CP="$OUT_DIR/transfer-core.jar:$(cat "$OUT_DIR/deps.classpath")"

# One target agent for the whole run, pinned to CPU_T; the CLI connects to it once per point.
AGENT=""
PP_SERVER=""
cleanup() {
  [[ -n "$PP_SERVER" ]] && kill "$PP_SERVER" 2>/dev/null
  [[ -n "$AGENT" ]] && kill "$AGENT" 2>/dev/null
  true
}
trap cleanup EXIT
TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
JVM=("$JAVA" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$CP")
LINKPROOF_TOKEN=$TOKEN taskset -c "$CPU_T" "${JVM[@]}" dev.linkproof.transfer.agent.AgentMain --bind 127.0.0.1 --port 0 \
  > "$OUT_DIR/agent.log" 2>&1 &
AGENT=$!
for _ in $(seq 100); do
  grep -q '^linkproof-agent ready' "$OUT_DIR/agent.log" && break
  kill -0 "$AGENT" 2>/dev/null || { cat "$OUT_DIR/agent.log" >&2; die "the agent exited"; }
  sleep 0.1
done
AGENT_PORT=$(sed -n 's/^linkproof-agent ready .*port=\([0-9]*\).*/\1/p' "$OUT_DIR/agent.log")
[[ -n "$AGENT_PORT" ]] || die "the agent did not get ready; see $OUT_DIR/agent.log"

# ours REP LABEL TRANSPORT SETTING OP SIZE -> "rep label size gbps avg_us" in ours.txt
ours() {
  local rep=$1 label=$2 size=$6 iters csv
  iters=$(iters_for "$size")
  csv="$OUT_DIR/ours-$label-$size-$rep.csv"
  LINKPROOF_TOKEN=$TOKEN timeout 300 taskset -c "$CPU_I" "${JVM[@]}" dev.linkproof.transfer.cli.TransferCli \
    --peer "127.0.0.1:$AGENT_PORT" --transport "$3" --set "$4" --op "$5" --size "$size" --batch 1 --depth 1 \
    --iters "$iters" --warmup $(( iters / 4 )) --format csv > "$csv" 2> "${csv%.csv}.err" \
    || { cat "${csv%.csv}.err" >&2; die "linkproof CLI failed ($label, size $size)"; }
  # columns: op,transport,size,batch,qps,depth,iters,warmup,rep,bytes,total_ns,gbps,avg_us,...,valid(18)
  awk -F, -v r="$rep" -v l="$label" 'NR > 1 && $3 ~ /^[0-9]+$/ {
      if ($18 != "true") { print "invalid " FILENAME > "/dev/stderr"; exit 1 }
      print r, l, $3, $12, $13 }' "$csv" >> "$OUT_DIR/ours.txt" || die "a point of ours did not validate: $csv"
}

# pingpong REP PROVIDER SIZE -> "rep pp-PROVIDER size gbps usec" in pingpong.txt
pingpong() {
  local rep=$1 prov=$2 size=$3 iters line
  iters=$(iters_for "$size")
  taskset -c "$CPU_T" timeout 120 fi_pingpong -p "$prov" -e rdm -S "$size" -I "$iters" >> "$OUT_DIR/pingpong-server.log" 2>&1 &
  PP_SERVER=$!
  sleep 0.5
  line=$(taskset -c "$CPU_I" timeout 120 fi_pingpong -p "$prov" -e rdm -S "$size" -I "$iters" 127.0.0.1 2>&1 \
         | tee -a "$OUT_DIR/pingpong.raw" | awk '$1 ~ /^[0-9]/ && NF >= 8 {print $(NF-2), $(NF-1)}' | tail -n 1)
  wait "$PP_SERVER" 2>/dev/null || true
  PP_SERVER=""
  [[ -n "$line" ]] || die "fi_pingpong -p $prov -S $size gave no result; see $OUT_DIR/pingpong.raw"
  read -r mbps usec <<< "$line"
  echo "$rep pp-$prov $size $(awk -v m="$mbps" 'BEGIN {printf "%.4f", m / 1000}') $usec" >> "$OUT_DIR/pingpong.txt"
}

ucx_tls() { [[ "$1" == shm ]] && echo shm || echo tcp; }

ours_all() {
  for prov in "${PROVIDERS[@]}"; do
    for s in "${SIZES[@]}"; do
      ours "$1" "send-$prov" libfabric "libfabric.provider=$prov" send "$s"
      ours "$1" "write-$prov" libfabric "libfabric.provider=$prov" write "$s"
      ours "$1" "ucx-$(ucx_tls "$prov")" ucx "UCX_TLS=$(ucx_tls "$prov")" write "$s"
    done
  done
}
pingpong_all() {
  for prov in "${PROVIDERS[@]}"; do
    for s in "${SIZES[@]}"; do pingpong "$1" "$prov" "$s"; done
  done
}

load_now() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
LOAD_START=$(load_now)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
for rep in $(seq 1 "$REPS"); do
  note "repetition $rep of $REPS ($(load_now))"
  if (( rep % 2 )); then ours_all "$rep"; pingpong_all "$rep"; else pingpong_all "$rep"; ours_all "$rep"; fi
done
LOAD_END=$(load_now)

# median LABEL SIZE COLUMN FILE: the median over the repetitions
median() { awk -v l="$1" -v s="$2" -v c="$3" '$2 == l && $3 == s {print $c}' "$4" | sort -g \
  | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "n/a"}'; }
human() { case $1 in 8) echo "8 B";; 4096) echo "4 KiB";; 65536) echo "64 KiB";; 1048576) echo "1 MiB";; *) echo "$1 B";; esac; }
table="$OUT_DIR/table.md"
{
  echo "| provider | size | ours send GB/s (µs) | fi_pingpong GB/s (µs/xfer) | ours send / fi_pingpong | ours write GB/s | ucx write GB/s (UCX_TLS) | libfabric write / ucx write |"
  echo "|---|---|---|---|---|---|---|---|"
  for prov in "${PROVIDERS[@]}"; do
    tls=$(ucx_tls "$prov")
    for s in "${SIZES[@]}"; do
      og=$(median "send-$prov" "$s" 4 "$OUT_DIR/ours.txt"); ou=$(median "send-$prov" "$s" 5 "$OUT_DIR/ours.txt")
      pg=$(median "pp-$prov" "$s" 4 "$OUT_DIR/pingpong.txt"); pu=$(median "pp-$prov" "$s" 5 "$OUT_DIR/pingpong.txt")
      wg=$(median "write-$prov" "$s" 4 "$OUT_DIR/ours.txt"); ug=$(median "ucx-$tls" "$s" 4 "$OUT_DIR/ours.txt")
      printf "| %s | %s | %.3g (%.3g) | %.3g (%.3g) | %s | %.3g | %.3g (%s) | %s |\n" "$prov" "$(human "$s")" "$og" "$ou" "$pg" "$pu" \
        "$(ratio "$og" "$pg")" "$wg" "$ug" "$tls" "$(ratio "$wg" "$ug")"
    done
  done
} > "$table"
echo
cat "$table"
echo
echo "raw outputs in $OUT_DIR"

if [[ "$APPEND" == 1 ]]; then
  . "$ROOT/bench/lib/history.sh"
  RESULTS=${RESULTS:-$(bench_history_file "$ROOT")}
  {
    echo
    echo "# libfabric vs fi_pingpong (and ucx) — $STARTED"
    echo
    echo "Command: \`REPS=$REPS SIZES=\"${SIZES[*]}\" PROVIDERS=\"${PROVIDERS[*]}\" CPU_INITIATOR=$CPU_I CPU_TARGET=$CPU_T bench/libfabric-vs-pingpong.sh\`  "
    echo "Machine: $(hostname), $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)  "
    echo "Load: at the start $LOAD_START; at the end $LOAD_END  "
    echo "Stack: libfabric $(fi_info --version 2>/dev/null | sed -n 's/^libfabric: *//p' | head -n 1), $("$JAVA" -version 2>&1 | head -n 1), $(uname -sr)  "
    echo "Method: see the header of bench/libfabric-vs-pingpong.sh: medians of $REPS repetitions, tools alternating; one message in flight for every tool; every point of ours validated."
    echo
    cat "$table"
  } >> "$RESULTS"
  echo "appended to $RESULTS"
fi
