#!/usr/bin/env bash
# The GPU part of the conformance suite on a machine with a GPU, in one short go, with a peer's
# device-to-device copy measured in the same run beside ours.
#
#   scripts/gpu-check.sh bundle   here (Maven, JDK 25): build the suite and pack it with a jlinked
#                                 JRE into target/gpu-check.tar.gz (about 20 MB; the GPU machines
#                                 have no Java and no Maven)
#   scripts/gpu-check.sh run      on the GPU machine: unpack that bundle, run the GPU classes with
#                                 validation, run the peer (PyTorch, else CuPy) at the same size,
#                                 print both figures and their ratio; exits non-zero when a point
#                                 failed, the ratio is below $MIN_RATIO, or the peer measured a copy
#                                 and ours did not
#   scripts/gpu-check.sh          both, on this machine (without a GPU every GPU point skips with
#                                 its reason, and the peer reports that it has no GPU; with a GPU
#                                 the probe sees but no driver that loads, the gpu-ipc points fail)
#
# Results go to $OUT (default target/gpu-check-out): JUnit XML, linkproof-results.jsonl,
# allure-results, peer.json, summary.txt. With the device tool:
#   run(command="bash scripts/gpu-check.sh run", carry=["target/gpu-check.tar.gz"], timeout_s=480)
# Env: OUT, WORK (unpack dir), MIN_RATIO (default 0.9), CLASSES, SUITE_TIMEOUT (seconds, default 360),
# JAVA_HOME_25 (bundle: the JDK whose jlink makes the JRE; default the first JDK 25 under /usr/lib/jvm),
# PROFILE (linkproof.profile; default auto), OVERLAY (more linkproof.profile.overlay files, laid over
# the script's own, which requires gpu-ipc alone: transport.required), and the GPU runtime's own keys (LINKPROOF_GPU_RUNTIME,
# LINKPROOF_GPU_CUDA_LIBRARY, ...), which both ranks read. A dry run of the whole script on a machine
# without a GPU, on transfer-core's fake runtime (build it with its tests first):
#   LINKPROOF_GPU_RUNTIME=cuda LINKPROOF_GPU_CUDA_LIBRARY=$PWD/transfer-core/target/fake-gpu/libfakegpu.so \
#     PROFILE=conformance-tests/src/test/resources/profiles/validation-only.yaml scripts/gpu-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARBALL=$ROOT/target/gpu-check.tar.gz
# The size of GpuIpcBandwidth's point (its @Sweep): the peer copies the same, so there is no knob.
SIZE=268435456
MIN_RATIO=${MIN_RATIO:-0.9}
# The GPU classes: gpu-ipc (device-to-device through IPC handles) and GPU memory over the other transports.
CLASSES=${CLASSES:-dev.linkproof.conformance.gpu.GpuIpcCorrectness dev.linkproof.conformance.gpu.GpuMemoryCorrectness dev.linkproof.conformance.gpu.GpuIpcBandwidth}
# What the suite's class path needs of the JDK: java.xml for the XML reports, java.management and
# jdk.management for JUnit and the agent's process facts; nothing graphical (keeps the JRE small).
JRE_MODULES=java.base,java.logging,java.management,java.naming,java.xml,java.sql,jdk.management,jdk.net,jdk.unsupported,jdk.zipfs
ts() { echo "[gpu-check $(date +%T)] $*"; }

bundle() {
  local jdk
  jdk=${JAVA_HOME_25:-$(. scripts/lib/jdk25.sh && find_jdk25 gpu-check.sh)} || exit 1
  [ -x "$jdk/bin/jlink" ] || { echo "gpu-check: the JDK 25 at $jdk has no jlink" >&2; exit 1; }
  local stage=$ROOT/target/gpu-check
  rm -rf "$stage" && mkdir -p "$stage"
  ts "build (mvn -Pgpu-check package, tests skipped)"
  mvn -B -q -pl conformance-tests -am -Pgpu-check -DskipTests package
  cp -r conformance-tests/target/gpu-check/lib "$stage/lib"
  cp -r conformance-tests/target/test-classes "$stage/test-classes"
  cp bench/gpu-d2d-peer.py "$stage/"
  ts "jlink $JRE_MODULES"
  "$jdk/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
      --compress=zip-9 --output "$stage/jre" >/dev/null
  # Temurin's libjvm.so keeps its symbol table: 29 MB with it, 25 MB without.
  strip --strip-unneeded "$stage/jre/lib/server/libjvm.so" 2>/dev/null || true
  tar -C "$ROOT/target" -czf "$TARBALL" gpu-check
  ts "bundle: $TARBALL ($(du -h "$TARBALL" | cut -f1); unpacked $(du -sh "$stage" | cut -f1))"
}

run() {
  [ -f "$TARBALL" ] || { echo "gpu-check: $TARBALL is missing: run 'scripts/gpu-check.sh bundle' first (and carry it)" >&2; exit 2; }
  local out=${OUT:-$ROOT/target/gpu-check-out} work=${WORK:-/tmp/linkproof-gpu-check}
  rm -rf "$work" && mkdir -p "$work" "$out"
  tar -C "$work" -xzf "$TARBALL"
  local b=$work/gpu-check java=$work/gpu-check/jre/bin/java
  ts "host $(hostname); $(nproc) CPUs; $(nvidia-smi -L 2>/dev/null | head -n 4 | tr '\n' ';' || true)"
  ts "GPU classes: $CLASSES"
  local jvm="-XX:+UseSerialGC -Xmx2g --enable-native-access=ALL-UNNAMED"
  local profile=()
  [ -n "${PROFILE:-}" ] && profile=("-Dlinkproof.profile=$(readlink -f "$PROFILE" 2>/dev/null || echo "$PROFILE")")
  # This check is about the GPU paths: gpu-ipc must be there (a missing driver fails, not skips),
  # while a matched GPU profile's other required transports (verbs, ucx) may be absent from a lent
  # machine without making the GPU figure wrong. OVERLAY files go over this one.
  printf 'transport:\n  required: [gpu-ipc]\n' > "$out/required.yaml"
  profile+=("-Dlinkproof.profile.overlay=$out/required.yaml${OVERLAY:+,$OVERLAY}")
  set +e
  # shellcheck disable=SC2086
  timeout "${SUITE_TIMEOUT:-360}" "$java" $jvm "${profile[@]}" -Dlinkproof.results="$out/linkproof-results.jsonl" \
      -Dallure.results.directory="$out/allure-results" "-Dlinkproof.agent.jvmArgs=$jvm" \
      -Dlinkproof.agent.log="$out/agent.log" \
      -cp "$b/test-classes:$b/lib/*" dev.linkproof.conformance.runner.SuiteMain "$out/junit" $CLASSES \
      2>&1 | tee "$out/suite.log"
  local suite_rc=${PIPESTATUS[0]}
  ts "peer: device-to-device copy of $SIZE bytes"
  timeout 120 python3 "$b/gpu-d2d-peer.py" --bytes "$SIZE" --out "$out/peer.json" 2>&1 | tee "$out/peer.log"
  set -e
  python3 - "$out" "$SIZE" "$MIN_RATIO" "$suite_rc" <<'EOF' | tee "$out/summary.txt"
import json, sys, pathlib
out, size, min_ratio, suite_rc = pathlib.Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
points = []
results = out / "linkproof-results.jsonl"
if results.exists():
    points = [json.loads(l) for l in results.read_text().splitlines() if l.strip()]
by_status = {}
for p in points:
    by_status[p["status"]] = by_status.get(p["status"], 0) + 1
print(f"suite: exit {suite_rc}; points {by_status or 'none recorded'}")
skips = {}
for p in points:
    if p["status"] == "skipped":
        skips[p.get("message")] = skips.get(p.get("message"), 0) + 1
for reason, n in sorted(skips.items(), key=lambda kv: -kv[1]):
    print(f"  skipped: {n} x {reason}")
ours = [p for p in points if p["transport"] == "gpu-ipc" and p["op"] == "write" and p["size"] == size
        and p["status"] == "passed" and p.get("bandwidthGBps")]
peer = {}
try:
    peer = json.loads((out / "peer.json").read_text())
except Exception as e:
    peer = {"error": f"no peer result: {e}"}
ours_gbps = max((p["bandwidthGBps"] for p in ours), default=None)
print(f"device-to-device copy, {size >> 20} MiB, GB = 1e9 bytes:")
ours_text = "%.1f GB/s" % ours_gbps if ours_gbps else "not measured"
peer_text = "%.1f GB/s" % peer["gbps"] if peer.get("gbps") else peer.get("error", "not measured")
print("  linkproof gpu-ipc write : " + ours_text)
print("  peer (%s) : %s" % (peer.get("tool", "-"), peer_text))
rc = 0 if suite_rc == 0 else 1
if ours_gbps and peer.get("gbps"):
    ratio = ours_gbps / peer["gbps"]
    verdict = "meets" if ratio >= min_ratio else "BELOW"
    print(f"  ratio ours/peer        : {ratio:.3f} ({verdict} the target of {min_ratio})")
    if ratio < min_ratio:
        rc = rc or 3
elif peer.get("gbps"):
    # the peer found a GPU and copied on it, so ours should have: a missing point is a failure
    print("  ratio ours/peer        : n/a — the peer measured a GPU copy and ours has no passed point at this size")
    rc = rc or 4
else:
    print("  ratio ours/peer        : n/a (no GPU, or the peer did not measure)")
sys.exit(rc)
EOF
}

case "${1:-all}" in
  bundle) bundle ;;
  run) run ;;
  all) bundle; run ;;
  *) echo "usage: scripts/gpu-check.sh [bundle|run]" >&2; exit 2 ;;
esac
