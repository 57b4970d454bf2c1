#!/usr/bin/env bash
# Our gpu-ipc copies beside the CUDA driver's own floor for the same shapes, on one GPU, in one run:
# what FFM, the JVM and our loop add per copy. scripts/gpu-check.sh gives the headline figure
# against PyTorch at 256 MiB; small copies are bound by per-call costs that PyTorch's Python
# dispatch would dominate, so the peer here is C making the same driver calls
# (bench/c/gpu-copy-floor.c: cuMemcpyDtoDAsync, cuEventRecord, cuEventQuery polled).
#
# On a machine with an NVIDIA GPU, after `scripts/gpu-check.sh bundle` here:
#   run(command="bash bench/gpu-copy-floor.sh", carry=["target/gpu-check.tar.gz"], timeout_s=300)
# The C runs on GPU 0, so ours is read from points that ran on GPU 0 (the default: a profile whose
# first GPU is another ordinal leaves the table's rows "missing"). Prints one table (avg µs per copy, or GB/s) and writes it with the raw outputs under $OUT
# (default target/gpu-copy-floor-out). Builds the C with the machine's cc, else takes
# target/gpu-copy-floor (`cc -O2 -o target/gpu-copy-floor bench/c/gpu-copy-floor.c -ldl` here, and carry it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-target/gpu-copy-floor-out}
mkdir -p "$out"
if command -v cc >/dev/null; then
  cc -O2 -o "$out/gpu-copy-floor" bench/c/gpu-copy-floor.c -ldl
else  # a binary built elsewhere and carried (it needs nothing but libc and libdl)
  cp target/gpu-copy-floor "$out/gpu-copy-floor"
fi
echo "[gpu-copy-floor $(date +%T)] C floor, plain and with cuCtxSetCurrent before each call (-C)"
"$out/gpu-copy-floor" > "$out/floor.tsv"
"$out/gpu-copy-floor" -C > "$out/floor-C.tsv"
echo "[gpu-copy-floor $(date +%T)] ours: the gpu-ipc classes (scripts/gpu-check.sh run)"
set +e
SUITE_TIMEOUT=${SUITE_TIMEOUT:-200} OUT=$out/suite CLASSES="dev.linkproof.conformance.gpu.GpuIpcCorrectness dev.linkproof.conformance.gpu.GpuIpcBandwidth" \
    bash scripts/gpu-check.sh run > "$out/suite.log" 2>&1
suite_rc=$?
set -e
tail -4 "$out/suite.log"
python3 - "$out" "$suite_rc" <<'EOF' | tee "$out/table.md"
import json, sys, pathlib
out, suite_rc = pathlib.Path(sys.argv[1]), int(sys.argv[2])

def floor(name):
    rows = {}
    for line in (out / name).read_text().splitlines():
        if line.startswith("#"):
            continue
        shape, n, per, iters, *figs = line.split("\t")
        rows[(shape, int(n), int(per))] = {k: float(v) for k, v in (f.split("=") for f in figs)}
    return rows

plain, with_current = floor("floor.tsv"), floor("floor-C.tsv")
ours = [json.loads(l) for l in (out / "suite" / "linkproof-results.jsonl").read_text().splitlines() if l.strip()]

def point(method, size, batch=1, depth=1):
    for p in ours:
        if (p["method"] == method and p["op"] == "write" and p["size"] == size and p["batch"] == batch
                and p["pipeline"] == depth and p["memory"] in ("gpu->gpu", "gpu:0->gpu:0") and p["status"] == "passed"):
            return p
    return None

def size_text(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B"

print(f"suite exit {suite_rc}; ours: gpu-ipc write, validated; C: same driver calls, not validated")
print()
print("| shape | figure | linkproof gpu-ipc | C floor | C floor + cuCtxSetCurrent | ours / C floor |")
print("|---|---|---|---|---|---|")
rows = [("latency", 8, 1, 1, "stop-and-wait"), ("latency", 4096, 1, 1, "stop-and-wait")]
rows += [("deviceToDevice", 4096 << (2 * i), 1, 1, "stop-and-wait") for i in range(8)]
rows += [("batches", 65536, 16, 1, "batch"), ("batches", 65536, 128, 1, "batch")]
for method, n, b, d, shape in rows:
    p = point(method, n, b, d)
    key = (shape, n, b)
    if p is None or key not in plain:
        print(f"| {method} {size_text(n)} ×{b} | — | {'missing' if p is None else ''} | | | |")
        continue
    metric = "avg_us" if shape == "stop-and-wait" else "per_copy_us"
    label = "latency mode" if method == "latency" else "stop-and-wait" if b == 1 else f"batch of {b}, one wait"
    ours_us, c_us, cc_us = p["avgLatencyUs"], plain[key][metric], with_current[key][metric]
    print(f"| {size_text(n)} {label} | µs per copy | {ours_us:.2f} | {c_us:.2f} | {cc_us:.2f} | {ours_us / c_us:.2f} |")
for d in (1, 4):
    p = point("deviceToDevice256MiB", 256 << 20, 1, d)
    key = ("depth", 256 << 20, d)
    if p is None or key not in plain:
        continue
    print(f"| 256 MiB, {d} in flight | GB/s | {p['bandwidthGBps']:.1f} | {plain[key]['gbps']:.1f} | "
          f"{with_current[key]['gbps']:.1f} | {p['bandwidthGBps'] / plain[key]['gbps']:.3f} |")
EOF
exit "$suite_rc"
