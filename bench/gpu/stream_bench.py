#!/usr/bin/env python3
"""File encryption through the streaming pipeline on the GPU (issue 22's cuda figure), for bench/gpu/first_light.sh.

Times ``cryptaccel.encrypt_file(cipher, key, SRC, "/dev/null", engine=E)`` on a SIZE-GiB file in the page cache for
AES-128-CTR, AES-256-XTS (4 KiB data units) and AES-256-GCM on the cuda and cpu engines (best and median of
--runs), and the PCIe bound the cuda
figure is held to: host-to-device and device-to-host copies of pinned memory running at once on two CUDA streams
(CuPy; the pipeline moves every byte both ways), so "cuda / bound" says how close the pipeline comes (issue 22's
target: at least 0.8). GCM on cuda runs its counter mode on the GPU and GHASH on the host (src/stream/gcm_offload.hpp).
With --stats, the pipeline's busy time per stage after each run. Prints one line per figure and, with --json FILE,
writes them as rows. Without a GPU (or without CuPy) the cuda rows say why and the cpu rows still run.

Usage: PYTHONPATH=<dir with cryptaccel> python3 bench/gpu/stream_bench.py [--gib 4] [--runs 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import cryptaccel

GIB = 1 << 30
CHUNK = 64 << 20


def make_file(path: str, size: int) -> None:
    """`size` bytes of pseudo-random data (one 64 MiB block repeated), then read once into the page cache."""
    block = os.urandom(CHUNK)
    with open(path, "wb") as f:
        for done in range(0, size, CHUNK):
            f.write(block[: min(CHUNK, size - done)])
    with open(path, "rb") as f:
        while f.read(CHUNK):
            pass


def time_encrypt(cipher: str, engine: str, src: str, runs: int, chunk_mib: int | None = None,
                 xts_unit: int = 0) -> list[float]:
    """Seconds of each run; `chunk_mib` sets the cuda executor's chunk (CRYPTACCEL_CUDA_CHUNK_MIB, read per batch)."""
    key = bytes(range(cryptaccel.cipher_info(cipher)["key_size"]))
    iv = bytes(12) if cipher.endswith("gcm") else bytes(16)
    old = os.environ.get("CRYPTACCEL_CUDA_CHUNK_MIB")
    if chunk_mib:
        os.environ["CRYPTACCEL_CUDA_CHUNK_MIB"] = str(chunk_mib)
    try:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            cryptaccel.encrypt_file(cipher, key, src, "/dev/null", iv=iv, engine=engine, xts_unit=xts_unit)
            times.append(time.perf_counter() - start)
        return times
    finally:
        if chunk_mib:
            if old is None:
                del os.environ["CRYPTACCEL_CUDA_CHUNK_MIB"]
            else:
                os.environ["CRYPTACCEL_CUDA_CHUNK_MIB"] = old


def pcie_duplex_bound(size: int) -> tuple[float | None, str]:
    """GB/s of pinned host<->device copies in both directions at once, or (None, why)."""
    try:
        import cupy
    except ImportError:
        return None, "CuPy is not installed"
    try:
        n = 256 << 20
        host_in = cupy.cuda.alloc_pinned_memory(n)
        host_out = cupy.cuda.alloc_pinned_memory(n)
        dev_in, dev_out = cupy.cuda.alloc(n), cupy.cuda.alloc(n)
        up, down = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
        rounds = max(1, size // n)
        cupy.cuda.runtime.deviceSynchronize()
        start = time.perf_counter()
        for _ in range(rounds):
            cupy.cuda.runtime.memcpyAsync(dev_in.ptr, host_in.ptr, n, cupy.cuda.runtime.memcpyHostToDevice, up.ptr)
            cupy.cuda.runtime.memcpyAsync(host_out.ptr, dev_out.ptr, n, cupy.cuda.runtime.memcpyDeviceToHost,
                                          down.ptr)
        up.synchronize()
        down.synchronize()
        return rounds * n / (time.perf_counter() - start) / 1e9, ""
    except Exception as e:  # no device, driver mismatch: say so, the cpu rows still run
        return None, f"{type(e).__name__}: {e}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gib", type=float, default=4.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=os.environ.get("TMPDIR", "/tmp"), help="where the input file goes")
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--stats", action="store_true",
                    help="print the pipeline's busy time per stage after each run (CRYPTACCEL_STREAM_STATS)")
    args = ap.parse_args()
    size = int(args.gib * GIB)
    if args.stats:
        os.environ["CRYPTACCEL_STREAM_STATS"] = "1"
    rows = []
    engines = {e["name"] for e in cryptaccel.engines() if e["available"]}
    bound, why = pcie_duplex_bound(size)
    print(f"PCIe duplex bound (pinned, both directions at once): "
          + (f"{bound:.2f} GB/s" if bound else f"n/a ({why})"), flush=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        src = os.path.join(tmp, "in")
        make_file(src, size)
        # (cipher, engine, cuda executor chunk MiB or None for the default, runs). GCM on cuda is the one-shot path
        # (the whole file in memory, seconds per run): one run. The chunk sizes are candidates for the default.
        plan = [("aes-128-ctr", "cuda", None, args.runs), ("aes-128-ctr", "cpu", None, args.runs),
                ("aes-256-xts", "cuda", None, args.runs), ("aes-256-xts", "cpu", None, args.runs),
                ("aes-256-gcm", "cuda", None, args.runs), ("aes-256-gcm", "cpu", None, args.runs)]
        for cipher, engine, chunk_mib, runs in plan:
            label = f"{cipher} {engine}" + (f" (chunk {chunk_mib} MiB)" if chunk_mib else "")
            if engine not in engines:
                print(f"{label}: engine not available here", flush=True)
                rows.append({"cipher": cipher, "engine": engine, "error": "not available"})
                continue
            xts_unit = 4096 if cipher.endswith("xts") else 0
            times = time_encrypt(cipher, engine, src, runs, chunk_mib, xts_unit)
            best, med = min(times), statistics.median(times)
            row = {"cipher": cipher, "engine": engine, "chunk_mib": chunk_mib, "bytes": size, "best_s": best,
                   "median_s": med, "gb_per_s": size / best / 1e9, "runs": times}
            if engine == "cuda" and bound:
                row["vs_pcie_bound"] = row["gb_per_s"] / bound
            rows.append(row)
            print(f"{label}: {row['gb_per_s']:.2f} GB/s (best of {runs}, median {med:.3f} s)"
                  + (f", {row['vs_pcie_bound']:.2f}x the PCIe bound" if "vs_pcie_bound" in row else ""),
                  flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"pcie_duplex_gb_per_s": bound, "pcie_note": why, "rows": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
