#!/usr/bin/env bash
# A soak of both ranks (issue #22, item 3): one engine run of 10,000 points on one pair (SoakPoints),
# or with SOAK=duration a run of four points for DURATION in all (linkproof.duration, a quarter each,
# SoakDuration), while a sampler reads, every INTERVAL seconds, for the engine's JVM and for its
# local agent: open descriptors, threads, resident memory, native memory committed (NMT, both JVMs
# started with -XX:NativeMemoryTracking=summary) and /dev/shm entries. It prints the first, middle
# and last samples and what grew, and exits non-zero when a descriptor or thread count of either
# rank grew by more than FD_SLACK / THREAD_SLACK between the middle and the end (after start-up).
#
#   bench/soak.sh                         # 10,000 points
#   SOAK=duration DURATION=600 bench/soak.sh   # a 10-minute timed soak
# Knobs: SKIP_BUILD=1 (use this tree's built classes), MVN_FLAGS=-o, OUT_DIR, INTERVAL (5).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SOAK=${SOAK:-points}
DURATION=${DURATION:-600}
INTERVAL=${INTERVAL:-5}
# A point in flight holds its data connection and listener (2-3 descriptors on each side); a sample
# lands anywhere in a point, so counts move by that much without anything leaking.
FD_SLACK=${FD_SLACK:-4}
THREAD_SLACK=${THREAD_SLACK:-4}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-soak.XXXXXX")}
mkdir -p "$OUT_DIR"

die() { echo "soak: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

# The JDK 25 to run on: LINKPROOF_JAVA, else the one the build's toolchain would pick.
. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1
JCMD=$(dirname "$JAVA")/jcmd

read -r -a MVN <<< "mvn -B -q -Dstyle.color=never ${MVN_FLAGS:-}"
note "resolving${SKIP_BUILD:+ (built already)} conformance-tests' class path"
. "$ROOT/bench/lib/suite-classpath.sh"
suite_classpath "$ROOT" "$OUT_DIR" 0

PROFILE="$ROOT/conformance-tests/src/test/resources/profiles/validation-only.yaml"
NMT=-XX:NativeMemoryTracking=summary
ARGS=(-Dlinkproof.profile="$PROFILE" -Dallure.results.directory="$OUT_DIR/allure-results"
      -Dlinkproof.results="$OUT_DIR/results.jsonl" -Dlinkproof.agent.log="$OUT_DIR/agent.log"
      "-Dlinkproof.agent.jvmArgs=-Xmx256m $NMT")
if [[ "$SOAK" == duration ]]; then
  FIXTURE=dev.linkproof.conformance.bench.fixtures.SoakDuration
  ARGS+=(-Dlinkproof.duration="$((DURATION / 4))s")
else
  FIXTURE=dev.linkproof.conformance.bench.fixtures.SoakPoints
fi

note "machine: $(nproc) CPUs, kernel $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
note "soak: $SOAK ($FIXTURE), raw results in $OUT_DIR"
"$JAVA" $NMT --enable-native-access=ALL-UNNAMED -cp "$CP" "${ARGS[@]}" dev.linkproof.conformance.bench.EngineOverhead \
    engine "$FIXTURE" "$OUT_DIR/allure-results" "$OUT_DIR/engine.tsv" > "$OUT_DIR/engine.log" 2>&1 &
ENGINE=$!

# One sample: seconds, then for the engine and the agent: fds threads rss_kib nmt_committed_kib; then /dev/shm entries.
sample() { # pid -> "fds threads rss nmt" (dashes when gone)
  local p=$1
  [[ -n "$p" && -d /proc/$p ]] || { echo "- - - -"; return; }
  local fds threads rss nmt
  fds=$(ls /proc/"$p"/fd 2>/dev/null | wc -l)
  threads=$(ls /proc/"$p"/task 2>/dev/null | wc -l)
  rss=$(awk '/^VmRSS:/ {print $2}' /proc/"$p"/status 2>/dev/null)
  nmt=$("$JCMD" "$p" VM.native_memory summary 2>/dev/null | sed -n 's/^Total: reserved=[0-9]*KB, committed=\([0-9]*\)KB.*/\1/p' | head -1)
  echo "$fds $threads ${rss:--} ${nmt:--}"
}
T0=$(date +%s)
echo "s engine_fds engine_threads engine_rss_kib engine_nmt_kib agent_fds agent_threads agent_rss_kib agent_nmt_kib shm_entries" \
  > "$OUT_DIR/samples.txt"
while kill -0 "$ENGINE" 2>/dev/null; do
  agent=$(pgrep -P "$ENGINE" -f AgentMain | head -1 || true)
  echo "$(( $(date +%s) - T0 )) $(sample "$ENGINE") $(sample "$agent") $(ls /dev/shm | wc -l)" >> "$OUT_DIR/samples.txt"
  sleep "$INTERVAL"
done
wait "$ENGINE" || { tail -20 "$OUT_DIR/engine.log" >&2; die "the engine run failed (see $OUT_DIR/engine.log)"; }
note "$(grep '^\[linkproof\] .* point(s) in' "$OUT_DIR/engine.log" | tail -1)"

# Samples where both JVMs were up; first, middle, last; growth from the middle (start-up done) to the end.
awk -v fd_slack="$FD_SLACK" -v thread_slack="$THREAD_SLACK" '
NR == 1 { header = $0; next }
$2 != "-" && $6 != "-" { rows[++n] = $0 }
END {
  if (n < 3) { print "soak: fewer than 3 samples with both ranks up; lower INTERVAL" > "/dev/stderr"; exit 2 }
  split("start middle end", names, " ")
  idx[1] = 1; idx[2] = int((n + 1) / 2); idx[3] = n
  printf "%-7s %6s %8s %8s %8s %8s %8s %8s %8s %8s %6s\n", "sample", "s", "eng fds", "eng thr", "eng RSS", "eng NMT", \
         "agt fds", "agt thr", "agt RSS", "agt NMT", "shm"
  for (i = 1; i <= 3; i++) {
    split(rows[idx[i]], f, " ")
    printf "%-7s %6s %8s %8s %7.1fM %7.1fM %8s %8s %7.1fM %7.1fM %6s\n", names[i], f[1], f[2], f[3], f[4] / 1024, f[5] / 1024, \
           f[6], f[7], f[8] / 1024, f[9] / 1024, f[10]
  }
  split(rows[idx[2]], m, " "); split(rows[idx[3]], e, " ")
  bad = 0
  if (e[2] - m[2] > fd_slack) { print "grew: engine fds " m[2] " -> " e[2]; bad = 1 }
  if (e[3] - m[3] > thread_slack) { print "grew: engine threads " m[3] " -> " e[3]; bad = 1 }
  if (e[6] - m[6] > fd_slack) { print "grew: agent fds " m[6] " -> " e[6]; bad = 1 }
  if (e[7] - m[7] > thread_slack) { print "grew: agent threads " m[7] " -> " e[7]; bad = 1 }
  if (e[10] - m[10] > 0) { print "grew: /dev/shm entries " m[10] " -> " e[10]; bad = 1 }
  printf "middle -> end: engine RSS %+.1f MiB, NMT %+.1f MiB; agent RSS %+.1f MiB, NMT %+.1f MiB (%d samples)\n", \
         (e[4] - m[4]) / 1024, (e[5] - m[5]) / 1024, (e[8] - m[8]) / 1024, (e[9] - m[9]) / 1024, n
  print bad ? "soak: FAIL (a count grew)" : "soak: flat"
  exit bad
}' "$OUT_DIR/samples.txt"
