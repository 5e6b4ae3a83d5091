#!/usr/bin/env python3
"""One-shot hashing of small messages from Python: cryptaccel against hashlib, in one process (issue 24, item 4).

Times ``hashlib.sha256(m).digest()`` and ``cryptaccel.sha256(m).digest()`` for 16 B, 64 B and 1 KiB messages, and the
parts of the cryptaccel call (the constructor alone, ``digest()`` alone, ``update()``), with timeit: each figure is
the median of ``--repeats`` repeats of the best-of-3-loops time per call (the two sides' loops alternate, so that a
noisy neighbour hits both), and "paired" is the median of the per-repeat ratios. Also
``cryptaccel.hash_many("sha256", 200000 x 64 B)`` against a hashlib loop.

Usage: PYTHONPATH=build/<dir>/python python3 bench/python_hash_small.py [--repeats 9] [--seed 2026]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import statistics
import sys
import timeit

import cryptaccel


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def paired_ns(ours, theirs, number: int, loops: int = 3) -> tuple:
    """Nanoseconds per call of `ours` and of `theirs` (callables): the best of `loops` loops of `number` calls each, the
    loops of the two sides alternating (theirs, ours, theirs, ...) so that both see the same load."""
    a, b = [], []
    for _ in range(loops):
        b.append(timeit.timeit(theirs, number=number))
        a.append(timeit.timeit(ours, number=number))
    return min(a) / number * 1e9, min(b) / number * 1e9


def compare(label: str, ours, theirs, number: int, repeats: int) -> None:
    """Prints the medians over `repeats` of both sides, the ratio of the medians and the median of the per-repeat
    ratios (the paired figure: each repeat's two sides ran within a fraction of a second of each other)."""
    a, b = [], []
    for _ in range(repeats):
        x, y = paired_ns(ours, theirs, number)
        a.append(x)
        b.append(y)
    ma, mb = statistics.median(a), statistics.median(b)
    paired = statistics.median(y / x for x, y in zip(a, b))
    print(f"{label:50s} hashlib {mb:7.1f} ns  cryptaccel {ma:7.1f} ns  ratio (hashlib/cryptaccel) {mb / ma:5.2f}x"
          f"  paired {paired:5.2f}x   [cryptaccel: {' '.join(f'{x:.0f}' for x in a)}; hashlib: "
          f"{' '.join(f'{x:.0f}' for x in b)}]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--number", type=int, default=50_000, help="calls per timing loop (small messages)")
    ap.add_argument("--skip-batch", action="store_true", help="skip the hash_many comparison")
    args = ap.parse_args()
    rng = random.Random(args.seed)

    print(f"machine: {cpu_model()}; python {platform.python_version()} ({sys.executable}); "
          f"cryptaccel {getattr(cryptaccel, '__version__', '?')} from {cryptaccel.__file__}")
    h = cryptaccel.sha256()
    print(f"engine: {h.engine}; repeats {args.repeats} (medians), seed {args.seed}")

    ca_sha256, hl_sha256 = cryptaccel.sha256, hashlib.sha256
    for size in (16, 64, 1024):
        m = rng.randbytes(size)
        assert ca_sha256(m).digest() == hl_sha256(m).digest()
        n = args.number if size <= 64 else args.number // 4
        compare(f"sha256(m).digest(), {size} B", lambda: ca_sha256(m).digest(), lambda: hl_sha256(m).digest(), n,
                args.repeats)

    m = rng.randbytes(16)
    n = args.number
    compare("sha256(m) alone, 16 B", lambda: ca_sha256(m), lambda: hl_sha256(m), n, args.repeats)
    compare("sha256() alone (no data)", lambda: ca_sha256(), lambda: hl_sha256(), n, args.repeats)
    hc, hh = ca_sha256(m), hl_sha256(m)
    compare(".digest() alone, 16 B absorbed", hc.digest, hh.digest, n, args.repeats)
    compare(".update(16 B)", lambda: hc.update(m), lambda: hh.update(m), n, args.repeats)
    compare("sha256(string=m, usedforsecurity=False).digest()",
            lambda: ca_sha256(string=m, usedforsecurity=False).digest(),
            lambda: hl_sha256(string=m, usedforsecurity=False).digest(), n, args.repeats)
    compare("new('sha256', m).digest(), 16 B", lambda: cryptaccel.new("sha256", m).digest(),
            lambda: hashlib.new("sha256", m).digest(), n, args.repeats)

    if not args.skip_batch:
        msgs = [rng.randbytes(64) for _ in range(200_000)]
        expected = [hl_sha256(x).digest() for x in msgs[:100]]
        got, used = cryptaccel.hash_many("sha256", msgs, return_engine=True)
        assert got[:100] == expected
        a, b = [], []
        for _ in range(max(3, args.repeats // 2)):
            b.append(min(timeit.repeat(lambda: [hl_sha256(x).digest() for x in msgs], number=1, repeat=2)))
            a.append(min(timeit.repeat(lambda: cryptaccel.hash_many("sha256", msgs), number=1, repeat=2)))
        ma, mb = statistics.median(a), statistics.median(b)
        paired = statistics.median(y / x for x, y in zip(a, b))
        print(f"hash_many('sha256', 200000 x 64 B) [{used}] hashlib loop {mb * 1e3:7.1f} ms  hash_many "
              f"{ma * 1e3:7.1f} ms  ratio {mb / ma:5.2f}x  paired {paired:5.2f}x   [hash_many runs ms: "
              f"{' '.join(f'{x * 1e3:.1f}' for x in a)}; hashlib: {' '.join(f'{x * 1e3:.1f}' for x in b)}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
