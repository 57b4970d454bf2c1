#!/usr/bin/env bash
# The engine's own cost per point, beside a floor of the same transfers through transfer-core alone.
#
# Issue #21, item 5. Three measurements, in one run:
#   engine    1,000 trivial points (the fixture TinyPoints: tcp WRITE of 1..1000 B, batch 1, one
#             connection, iterations 1, warmup 0) run on the JUnit Platform by the linkproof engine
#             with the validation-only profile, with Allure's listener on the class path as a user's run
#             has it (and the engine's progress lines, results file and local agent). Each point is
#             timed by a launcher listener; its transfer phases (provision, register and connect,
#             warmup, timed loop, verify) come from its Allure result's measurement.json.
#   floor     the same 1,000 points through transfer-core alone: a local agent, one Session, and
#             Session.run in a bare loop. The same control requests (for a tcp WRITE: PREPARE,
#             CHECKSUM, RELEASE), data connection and verification; no engine, no JUnit, no reports.
#   discover  100,000 points (the fixture HundredThousandPoints: ten sweeps of 10,000) discovered,
#             not run, in a JVM with -Xmx1g: the time and the heap it took.
# The engine and the floor alternate REPS times. Each of their JVMs runs its 1,000 points twice:
# "cold", as a user's mvn test meets them, with the JIT compiling the code while it runs (on two
# CPUs it takes most of one for the first thousand points), then "warm", the same points again (a
# new local agent for each pass, on both sides alike). Two tables, one per pass, give per-phase
# medians over all points but each run's first, with the ratio engine / floor. Definitions:
#   wall        a point's start to its end, as the launcher reports them
#   cadence     the previous point's end to this one's: everything the run spends per point
#   transfer    the sum of the point's phases
#   own         cadence - transfer: what the engine (or the floor's loop) spends per point beyond the
#               phases: releasing the point (RELEASE), judging, reporting, and the gaps between points;
#               Allure's JUnit Platform listener (registered by the launcher, timed by a proxy) is in it,
#               and shown on its own line: it is Allure's code, not the engine's
#   CPU         CPU time of the thread that runs the points, over the cadence: the engine's thread does
#               the initiator's side of the transfer too, as the floor's loop does, so the difference
#               is the engine's own CPU per point (less sensitive to other load than wall time)
#   by thread   per pass and JVM (the engine's, the floor's, and each one's agent), the CPU per point of
#               each group of threads (JIT compilers, GC, the points' thread "java", Allure's attachment
#               writer, the host meter, the agent's control and data threads), from /proc/PID/task/*/stat
#               between the pass's first point's end and its last's, with the kernel's share (sys) where
#               it shows, threads started and ended meanwhile, and this JVM's allocation and GCs a point
#               (per rep, and at the end one table of each group's median over the reps)
# Each engine pass writes its Allure results into a folder of its own (allure-results-REP/cold, /warm):
# files created on ext4 right after thousands were deleted nearby cost the kernel's inode allocator a
# scan each (recently_deleted), which once made the warm pass look twice as costly as the cold one.
#
# Environment knobs (defaults in brackets):
#   REPS [1]   LINKPROOF_JAVA [JDK 25]
#   SKIP_BUILD [0: build conformance-tests and what it needs first]   MVN_FLAGS [none; e.g. -o]
#   OUT_DIR [a fresh temporary directory]: per-point TSVs, logs, Allure results, the table
#
# Build: `mvn package -DskipTests -pl conformance-tests -am` in this tree (nothing is installed into
# ~/.m2), then the classes and jars are copied into OUT_DIR, so others rebuilding the tree cannot
# change them under a running benchmark. Loopback only; nothing is downloaded.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-1}
POINTS=1000  # TinyPoints' sweep; the floor runs as many
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/linkproof-overhead.XXXXXX")}
mkdir -p "$OUT_DIR"
START=$(date +%s)

die() { echo "engine-overhead: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

# The JDK 25 to run on: LINKPROOF_JAVA, else the one the build's toolchain would pick.
. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1

# ---- build and freeze --------------------------------------------------------------------------
read -r -a MVN <<< "mvn -B -q -Dstyle.color=never ${MVN_FLAGS:-}"
note "building${SKIP_BUILD:+ (built already: resolving only)} conformance-tests and the modules it needs"
. "$ROOT/bench/lib/suite-classpath.sh"
suite_classpath "$ROOT" "$OUT_DIR" 1
PROFILE="$ROOT/conformance-tests/src/test/resources/profiles/validation-only.yaml"
JVM=("$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CP")
MAIN=dev.linkproof.conformance.bench.EngineOverhead
FIXTURES=dev.linkproof.conformance.bench.fixtures

note "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
note "JDK: $("$JAVA" -version 2>&1 | head -1)"
note "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
note "raw results in $OUT_DIR"

# ---- engine and floor, alternating ---------------------------------------------------------------
# A reused OUT_DIR's Allure results are moved aside now and deleted at the end: deleted now, the
# files the run creates would meet ext4's recently-deleted inodes (see the header).
OLD="$OUT_DIR/old-allure-results.$$"
for d in "$OUT_DIR"/allure-results-*; do
  [[ -e "$d" ]] && { mkdir -p "$OLD"; mv "$d" "$OLD/"; }
done
for rep in $(seq "$REPS"); do
  note "rep $rep: floor ($POINTS points through transfer-core)"
  timeout 600 "${JVM[@]}" "$MAIN" floor "$POINTS" "$OUT_DIR/floor-$rep" > "$OUT_DIR/floor-$rep.log" 2>&1 \
    || { tail -20 "$OUT_DIR/floor-$rep.log" >&2; die "the floor run failed"; }
  note "$(grep '^floor, ' "$OUT_DIR/floor-$rep.log" | tr '\n' ' ')"
  note "rep $rep: engine (the TinyPoints fixture through the JUnit Platform)"
  timeout 900 "${JVM[@]}" -Dlinkproof.profile="$PROFILE" -Dallure.results.directory="$OUT_DIR/allure-results-$rep" \
      -Dlinkproof.results="$OUT_DIR/results-$rep.jsonl" -Dlinkproof.agent.log="$OUT_DIR/agent-$rep.log" \
      "$MAIN" engine "$FIXTURES.TinyPoints" "$OUT_DIR/allure-results-$rep" "$OUT_DIR/engine-$rep" \
      > "$OUT_DIR/engine-$rep.log" 2>&1 \
    || { tail -20 "$OUT_DIR/engine-$rep.log" >&2; die "the engine run failed"; }
  note "$(grep '^\[linkproof\] .* point(s) in' "$OUT_DIR/engine-$rep.log" | tail -1)"
  note "$(grep '^engine, ' "$OUT_DIR/engine-$rep.log" | tr '\n' ' ')"
done

# ---- discovery of 100,000 points -----------------------------------------------------------------
note "discover: 100,000 points, -Xmx1g"
d0=$(date +%s%N)
timeout 300 "$JAVA" -Xmx1g --enable-native-access=ALL-UNNAMED -cp "$CP" -Dlinkproof.profile="$PROFILE" \
    "$MAIN" discover "$FIXTURES.HundredThousandPoints" > "$OUT_DIR/discover.log" 2>&1 \
  || { tail -20 "$OUT_DIR/discover.log" >&2; die "the discovery run failed"; }
d1=$(date +%s%N)

# ---- the table -----------------------------------------------------------------------------------
check() { # tsv -> dies unless every point passed
  local bad
  bad=$(awk -F'\t' 'NR > 1 && $2 != "successful" {n++} END {print n + 0}' "$1")
  (( bad == 0 )) || die "$bad point(s) in $1 did not pass"
}
for f in "$OUT_DIR"/engine-*.tsv "$OUT_DIR"/floor-*.tsv; do check "$f"; done

table() { # title, then the TSV files of one pass
  echo "$1"; shift
  # One column per TSV field, over every run's points but its first; own = cadence - transfer.
  awk -f "$ROOT/bench/lib/median.awk" -f <(cat <<'EOF'
BEGIN { FS = "\t" }
FNR == 1 { side = FILENAME ~ /engine-[0-9]+-[a-z]+\.tsv$/ ? "engine" : "floor"; next }
FNR == 2 { next }  # a run's first point: a cold JVM
{
  n[side]++
  for (i = 5; i <= 10; i++) v[side, i] = v[side, i] " " $i
  v[side, "wall"] = v[side, "wall"] " " $3
  v[side, "cadence"] = v[side, "cadence"] " " $4
  v[side, "outside"] = v[side, "outside"] " " ($3 - $10)
  v[side, "own"] = v[side, "own"] " " ($4 - $10)
  v[side, "allure"] = v[side, "allure"] " " ($11 > 0 ? $11 : 0)
  v[side, "bare"] = v[side, "bare"] " " ($4 - $10 - ($11 > 0 ? $11 : 0))
  v[side, "cpu"] = v[side, "cpu"] " " $12
}
function row(label, key,   e, f) {
  e = median(v["engine", key]) / 1e6; f = median(v["floor", key]) / 1e6
  printf "%-38s %10.3f %10.3f %7s\n", label, e, f, (f > 0 ? sprintf("%.2f", e / f) : "-")
}
END {
  printf "%-38s %10s %10s %7s\n", "median per point, ms", "engine", "floor", "ratio"
  row("provision", 5); row("register and connect", 6); row("warmup", 7); row("timed loop", 8); row("verify", 9)
  row("transfer (sum of the phases)", 10)
  row("wall (point start to end)", "wall")
  row("  wall - transfer", "outside")
  row("cadence (previous point's end to end)", "cadence")
  row("own = cadence - transfer", "own")
  row("  of which Allure's listener", "allure")
  row("  own without Allure's listener", "bare")
  row("CPU of the points' thread, per cadence", "cpu")
  printf "points: engine %d, floor %d (each run's first left out)\n", n["engine"], n["floor"]
}
EOF
  ) "$@"
}

threads_table() { # every rep's per-thread lines -> one table: median CPU ms a point of each thread group
  awk -f "$ROOT/bench/lib/median.awk" -f <(cat <<'EOF'
# "engine, warm, this JVM: CPU per point, ms, by thread (999 points): total 4.03; CN CompilerThre (2) 1.88 (sys 0.06); ..."
/^(engine|floor), (cold|warm), (this JVM|its agent): CPU per point/ {
  key = substr($0, 1, index($0, ":") - 1)
  if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
  reps[key]++
  n = split(substr($0, index($0, "): ") + 3), part, "; ")
  for (i = 1; i <= n; i++) {
    p = part[i]
    if (p ~ /^(threads gone|allocated|GCs)/) continue
    sub(/ \(sys [0-9.]+\)$/, "", p)
    if (!match(p, / [0-9.]+$/)) continue
    g = substr(p, 1, RSTART - 1); v = substr(p, RSTART + 1)
    sub(/ \([0-9]+\)$/, "", g)
    if (!((key, g) in vals)) groups[key] = groups[key] SUBSEP g
    vals[key, g] = vals[key, g] " " v
  }
}
END {
  print "CPU per point by thread, ms, median over the reps (the points' thread is \"java\"; a group under 0.05 ms in a rep counts 0 there)"
  for (k = 1; k <= nk; k++) {
    key = keys[k]; line = sprintf("  %-25s", key ":"); sep = ""
    m = split(substr(groups[key], 2), gs, SUBSEP)
    for (j = 1; j <= m; j++) {
      c = split(vals[key, gs[j]], xs, " "); list = vals[key, gs[j]]  # a rep without the group: 0 there
      for (r = c; r < reps[key]; r++) list = list " 0"
      line = line sep sprintf(" %s %.2f", gs[j], median(list)); sep = ";"
    }
    print line
  }
}
EOF
  ) "$@"
}

{
  table "COLD: each JVM's first pass over the points, as a user's mvn test meets them (the JIT compiling as it runs)" \
    "$OUT_DIR"/engine-*-cold.tsv "$OUT_DIR"/floor-*-cold.tsv
  echo
  table "WARM: the same points again in the same JVMs (a new local agent for each pass, on both sides)" \
    "$OUT_DIR"/engine-*-warm.tsv "$OUT_DIR"/floor-*-warm.tsv
  echo
  for rep in $(seq "$REPS"); do
    grep -h '^engine, \|^floor, ' "$OUT_DIR/engine-$rep.log" "$OUT_DIR/floor-$rep.log" | sed "s/^/rep $rep: /"
  done
  echo
  threads_table "$OUT_DIR"/engine-*.log "$OUT_DIR"/floor-*.log
  echo "$(grep '^discover:' "$OUT_DIR/discover.log"); the whole JVM $(( (d1 - d0) / 1000000 )) ms"
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; elapsed $(( $(date +%s) - START )) s"
} | tee "$OUT_DIR/table.txt"
rm -rf "$OLD"
