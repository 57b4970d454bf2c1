#!/usr/bin/env bash
# Linkproof tcp WRITE bandwidth next to iperf3, on loopback, in the same run.
#
# For each repetition and each size: iperf3 (server on CPU_TARGET, client on CPU_INITIATOR), then
# the linkproof CLI (WRITE, pipelined, --duration calibrated) as initiator on CPU_INITIATOR against
# one linkproof agent started on CPU_TARGET for the whole run. The medians of the repetitions are
# printed side by side with the ratio linkproof / iperf3. GB = 10^9 bytes in both columns.
#
# Environment knobs (defaults in brackets):
#   SIZES [64KiB 1MiB 16MiB]   REPS [3]   SECONDS_PER_POINT [2]   DEPTH [auto: about 4 MiB in flight per point]
#   CPU_INITIATOR [0]   CPU_TARGET [1]   IPERF_PORT [5201]   LINKPROOF_JAVA [JDK 25]
#   OUT_DIR [a fresh temporary directory]: raw iperf3 JSON, linkproof CSV, the table
#
# Loopback only (127.0.0.1). Installs iperf3 with apt-get when it is missing; nothing else is
# downloaded. Every command runs under `timeout` within BUDGET_SECONDS [170] from the start, build
# included, and a repetition is only started when it fits, so the run stays under 3 minutes
# (about 1 minute on a quiet machine, 2-2.5 minutes on a loaded one).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
read -r -a SIZES <<< "${SIZES:-64KiB 1MiB 16MiB}"
REPS=${REPS:-3}
SECS=${SECONDS_PER_POINT:-2}
DEPTH=${DEPTH:-auto}
CPU_I=${CPU_INITIATOR:-0}
CPU_T=${CPU_TARGET:-1}
PORT=${IPERF_PORT:-5201}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-bench.XXXXXX")}
mkdir -p "$OUT_DIR"
START=$(date +%s)

# Hard bound on the whole run, build included: every timeout is clipped to it, and no repetition
# starts that the previous one's duration says would overrun it (the table then has fewer).
BUDGET=${BUDGET_SECONDS:-170}

die() { echo "tcp-vs-iperf3: $*" >&2; exit 1; }
# A timeout of at most $1 seconds that also ends before the overall budget does.
bound() {
  local left=$(( START + BUDGET - $(date +%s) ))
  (( left > 3 )) || die "time budget of $BUDGET s exhausted"
  echo $(( $1 < left ? $1 : left ))
}
note() { echo "# $*" >&2; }

# Sizes as bytes ("64KiB" -> 65536), the way linkproof's Units parses them (binary units).
bytes_of() {
  local s=${1^^}; s=${s%B}; s=${s%I}
  case "$s" in
    *K) echo $(( ${s%K} << 10 )) ;;
    *M) echo $(( ${s%M} << 20 )) ;;
    *G) echo $(( ${s%G} << 30 )) ;;
    *)  echo $(( s )) ;;
  esac
}

# ---- prerequisites ---------------------------------------------------------------------------
(( $(nproc) >= 2 )) || die "needs 2 CPUs to pin the two ranks apart; nproc says $(nproc)"
[[ "$CPU_I" != "$CPU_T" ]] || die "CPU_INITIATOR and CPU_TARGET must differ"
command -v taskset >/dev/null || die "taskset (util-linux) is required"

if ! command -v iperf3 >/dev/null; then
  note "iperf3 missing: installing it with apt-get"
  SUDO=""; (( EUID == 0 )) || SUDO="sudo"
  if [[ "$(apt-cache policy iperf3 2>/dev/null)" != *"Candidate: "[0-9]* ]]; then
    $SUDO apt-get update -q
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q iperf3 >&2
fi

# The JDK 25 to run on: LINKPROOF_JAVA, else the one the build's toolchain would pick.
. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1

# Build transfer-core when its jar is missing or older than its sources; then freeze a copy, so
# others rebuilding the same tree cannot change the classes under a running benchmark.
JAR="$ROOT/transfer-core/target/transfer-core-0.1.0-SNAPSHOT.jar"
if [[ ! -f "$JAR" ]] || [[ "$("$(dirname "$JAVA")/jar" tf "$JAR" 2>/dev/null)" != *dev/linkproof/transfer/cli/TransferCli.class* ]] \
   || [[ -n "$(find "$ROOT/transfer-core/src/main" "$ROOT/transfer-core/pom.xml" -newer "$JAR" -print -quit)" ]]; then
  note "building transfer-core"
  if ! (cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl transfer-core -am install -DskipTests) > "$OUT_DIR/build.log" 2>&1; then
    # A tree that others edit may not build at this moment; a jar that has the CLI still serves.
    [[ -f "$JAR" && "$("$(dirname "$JAVA")/jar" tf "$JAR" 2>/dev/null)" == *dev/linkproof/transfer/cli/TransferCli.class* ]] \
      || { cat "$OUT_DIR/build.log" >&2; die "the build failed"; }
    note "the build failed (see $OUT_DIR/build.log); using the existing $JAR"
  fi
fi
cp "$JAR" "$OUT_DIR/transfer-core.jar"
(cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl transfer-core dependency:build-classpath \
  -Dmdep.outputFile="$OUT_DIR/deps.classpath") > "$OUT_DIR/classpath.log" 2>&1 \
  || { cat "$OUT_DIR/classpath.log" >&2; die "cannot resolve transfer-core's class path"; }
CP="$OUT_DIR/transfer-core.jar:$(cat "$OUT_DIR/deps.classpath")"

# ---- iperf3 ----------------------------------------------------------------------------------
IPERF_SERVER=""
AGENT=""
cleanup() {
  [[ -n "$IPERF_SERVER" ]] && kill "$IPERF_SERVER" 2>/dev/null
  [[ -n "$AGENT" ]] && kill "$AGENT" 2>/dev/null
  true
}
trap cleanup EXIT

# iperf3 caps its TCP block at 1 MiB; larger sizes run with -l 1M (TCP is a stream: the block is
# the size of each write(2), not of a message).
IPERF_MAX=$((1 << 20))

iperf_gbps() { # size_bytes rep -> GB/s received
  local bytes=$1 rep=$2 len=$1 json
  (( len > IPERF_MAX )) && len=$IPERF_MAX
  json="$OUT_DIR/iperf3-$bytes-$rep.json"
  taskset -c "$CPU_T" timeout "$(bound $((SECS + 15)))" iperf3 -s -1 -B 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
  IPERF_SERVER=$!
  for _ in $(seq 50); do
    [[ -n "$(ss -Hltn "sport = :$PORT" 2>/dev/null)" ]] && break
    sleep 0.1
  done
  taskset -c "$CPU_I" timeout "$(bound $((SECS + 15)))" iperf3 -c 127.0.0.1 -p "$PORT" -l "$len" -t "$SECS" -J > "$json" \
    || die "iperf3 client failed (see $json)"
  wait "$IPERF_SERVER" 2>/dev/null || true
  IPERF_SERVER=""
  # end.sum_received.bits_per_second: what reached the receiver, as bytes/s / 1e9
  awk '/"sum_received"/ {r=1} r && /"bits_per_second"/ {gsub(/[^0-9.eE+-]/, "", $2); printf "%.4f\n", $2/8e9; exit}' "$json"
}

# ---- linkproof -------------------------------------------------------------------------------
# One target agent for the whole run, pinned to CPU_T; the CLI (the initiator, pinned to CPU_I)
# connects to it with --peer/--token once per point, so the two tools can alternate point by point.
TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
JVM=("$JAVA" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$CP")
LINKPROOF_TOKEN=$TOKEN taskset -c "$CPU_T" "${JVM[@]}" dev.linkproof.transfer.agent.AgentMain \
  --bind 127.0.0.1 --port 0 > "$OUT_DIR/agent.log" 2>&1 &
AGENT=$!
for _ in $(seq 100); do
  grep -q '^linkproof-agent ready' "$OUT_DIR/agent.log" && break
  kill -0 "$AGENT" 2>/dev/null || { cat "$OUT_DIR/agent.log" >&2; die "the agent exited"; }
  sleep 0.1
done
AGENT_PORT=$(sed -n 's/^linkproof-agent ready .*port=\([0-9]*\).*/\1/p' "$OUT_DIR/agent.log")
[[ -n "$AGENT_PORT" ]] || die "the agent did not get ready; see $OUT_DIR/agent.log"

# Warmup ~64 MiB (at least 4 iterations) so the initiator's JIT has settled before the probe
# that --duration calibrates with, and before the timed loop.
lp_cmd() { # size_bytes -> the CLI command line
  local w=$(( (64 << 20) / $1 )); (( w < 4 )) && w=4
  echo taskset -c "$CPU_I" "${JVM[@]}" dev.linkproof.transfer.cli.TransferCli --peer "127.0.0.1:$AGENT_PORT" \
    --op write --size "$1" --depth "$DEPTH" --warmup "$w" --duration "${SECS}s" --format csv
}

lp_gbps() { # size_bytes rep -> GB/s
  local csv="$OUT_DIR/linkproof-$1-$2.csv" cmd
  read -r -a cmd <<< "$(lp_cmd "$1")"
  LINKPROOF_TOKEN=$TOKEN timeout "$(bound $((SECS * 4 + 30)))" "${cmd[@]}" > "$csv" 2> "$OUT_DIR/linkproof-$1-$2.err" \
    || { cat "$OUT_DIR/linkproof-$1-$2.err" >&2; die "linkproof CLI failed (size $1, rep $2)"; }
  # columns: op,transport,size,batch,qps,depth,iters,warmup,rep,bytes,total_ns,gbps,...,valid(18)
  local size iters gbps valid
  while IFS=, read -r _ _ size _ _ _ iters _ _ _ _ gbps _ _ _ _ _ valid _; do
    [[ "$size" =~ ^[0-9]+$ ]] || continue
    [[ "$valid" == "true" ]] || die "linkproof point size $size did not validate: see $csv"
    echo "$gbps $iters"
  done < "$csv"
}

note "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
note "JDK: $("$JAVA" -version 2>&1 | head -1); $(iperf3 --version | head -1)"
note "initiator / iperf3 client on CPU $CPU_I, target agent / iperf3 server on CPU $CPU_T"
note "iperf3:    iperf3 -s -1 -B 127.0.0.1 -p $PORT  |  iperf3 -c 127.0.0.1 -p $PORT -l <size, max 1M> -t $SECS -J"
note "agent:     taskset -c $CPU_T java ... dev.linkproof.transfer.agent.AgentMain --bind 127.0.0.1 --port 0  (port $AGENT_PORT)"
c=$(lp_cmd "$(bytes_of "${SIZES[0]}")"); note "linkproof: ${c//$CP/<classpath>}"
note "raw results in $OUT_DIR"

# Alternate the two tools point by point, so a change in background load hits both alike.
declare -A IP LP RATIO
DONE=0
for rep in $(seq "$REPS"); do
  rep_start=$(date +%s)
  if (( rep > 1 )) && (( rep_start + last_rep + 10 > START + BUDGET )); then
    note "stopping after $DONE repetition(s): another would overrun the $BUDGET s budget"
    break
  fi
  for s in "${SIZES[@]}"; do
    b=$(bytes_of "$s")
    i=$(iperf_gbps "$b" "$rep")
    read -r l iters <<< "$(lp_gbps "$b" "$rep")"
    [[ -n "$l" ]] || die "no linkproof result for $s (rep $rep)"
    IP[$b]+="$i "; LP[$b]+="$l "
    RATIO[$b]+="$(awk -v i="$i" -v l="$l" 'BEGIN {printf "%.4f", (i > 0 ? l / i : 0)}') "
    note "$(printf 'rep %d  %-6s  iperf3 %7.3f GB/s  linkproof %7.3f GB/s (%d iterations)' "$rep" "$s" "$i" "$l" "$iters")"
  done
  DONE=$rep
  last_rep=$(( $(date +%s) - rep_start ))
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

{
  printf '%-8s %12s %15s %7s %14s\n' "size" "iperf3 GB/s" "linkproof GB/s" "ratio" "paired ratio"
  for s in "${SIZES[@]}"; do
    b=$(bytes_of "$s")
    i=$(median <<< "${IP[$b]}")
    l=$(median <<< "${LP[$b]}")
    p=$(median <<< "${RATIO[$b]}")
    mark=""; (( b > IPERF_MAX )) && mark="*"
    awk -v s="$s$mark" -v i="$i" -v l="$l" -v p="$p" \
      'BEGIN {printf "%-8s %12.3f %15.3f %7.2f %14.2f\n", s, i, l, (i > 0 ? l / i : 0), p}'
  done
  echo "GB = 10^9 bytes; medians of $DONE repetitions; ratio = median linkproof / median iperf3;"
  echo "paired ratio = median of the per-repetition ratios (the two tools ran back to back)."
  echo "linkproof: write, batch 1, 1 connection, pipeline depth $DEPTH, ~${SECS} s timed per point, data validated."
  if (( $(bytes_of "${SIZES[-1]}") > IPERF_MAX )); then
    echo "* iperf3 runs with -l 1M there (its maximum TCP block size)."
  fi
  echo "elapsed: $(( $(date +%s) - START )) s"
} | tee "$OUT_DIR/table.txt"
