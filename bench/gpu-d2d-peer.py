#!/usr/bin/env python3
"""The peer figure scripts/gpu-check.sh puts beside Linkproof's gpu-ipc write: a device-to-device
copy of the same size on GPU 0, timed the way our loop times it (warmup, then one timer around
many copies, GB = 1e9 bytes, bytes counted once per copy). PyTorch first, CuPy if there is no
PyTorch; both are on the GPU machines. Writes {"tool", "gbps", "bytes", "iterations", "gpu"} or
{"error"} to --out and prints it."""
import argparse
import json
import sys


def with_torch(n, iters, warmup):
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("torch: no CUDA/ROCm device")
    a = torch.empty(n, dtype=torch.uint8, device="cuda:0")
    b = torch.empty_like(a)
    a.fill_(0x5A)
    for _ in range(warmup):
        b.copy_(a)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(iters):
        b.copy_(a)
    stop.record()
    torch.cuda.synchronize()
    seconds = start.elapsed_time(stop) / 1e3
    if not torch.equal(a, b):
        raise RuntimeError("torch: the copy does not match its source")
    return {"tool": "torch %s" % torch.__version__, "gpu": torch.cuda.get_device_name(0),
            "gbps": n * iters / seconds / 1e9}


def with_cupy(n, iters, warmup):
    import cupy
    a = cupy.full(n, 0x5A, dtype=cupy.uint8)
    b = cupy.empty_like(a)
    for _ in range(warmup):
        cupy.copyto(b, a)
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    cupy.cuda.Device(0).synchronize()
    start.record()
    for _ in range(iters):
        cupy.copyto(b, a)
    stop.record()
    stop.synchronize()
    seconds = cupy.cuda.get_elapsed_time(start, stop) / 1e3
    if not bool((a == b).all()):
        raise RuntimeError("cupy: the copy does not match its source")
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    return {"tool": "cupy %s" % cupy.__version__, "gpu": name.decode() if isinstance(name, bytes) else name,
            "gbps": n * iters / seconds / 1e9}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bytes", type=int, default=256 << 20)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--out")
    args = ap.parse_args()
    errors = []
    result = None
    for peer in (with_torch, with_cupy):
        try:
            result = peer(args.bytes, args.iterations, args.warmup)
            break
        except Exception as e:  # ImportError, no device, a driver error: try the next peer
            errors.append("%s: %s" % (peer.__name__, e))
    if result is None:
        result = {"error": "; ".join(errors)}
    result.update({"bytes": args.bytes, "iterations": args.iterations})
    text = json.dumps(result)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0 if "gbps" in result else 1


if __name__ == "__main__":
    sys.exit(main())
