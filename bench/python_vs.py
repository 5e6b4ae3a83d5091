#!/usr/bin/env python3
"""cryptaccel's Python API against the Python tools it replaces, in one process (issue 24's Python targets).

  encrypt / decrypt of 64 MiB, AES-256-GCM and AES-128-CTR  vs  cryptography (AESGCM, Cipher(AES, CTR)), one thread
  hash_many("sha256", 200 000 x 64 B)                       vs  a hashlib loop

Each figure is the median of --repeats timings (the two sides interleaved, repeat by repeat, so that a noisy
neighbour hits both); outputs are checked equal first. Prints a table; with --json FILE also writes the rows
({"what", "ours_s", "theirs_s", "ratio", "target", "met"}) for bench/run_suite.py. The one-shot sha256 of 16-byte
messages is bench/python_hash_small.py's.

Usage: PYTHONPATH=build/<dir>/python python3 bench/python_vs.py [--repeats 7] [--seed 2026] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time

import cryptaccel

try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:  # pragma: no cover - the comparison needs it
    sys.exit("python_vs: the `cryptography` package is not installed (pip install cryptography)")

MIB = 1 << 20


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def compare(what: str, ours, theirs, repeats: int, target: float) -> dict:
    """Median seconds of each side over `repeats` interleaved runs; ratio = theirs / ours (higher: we are faster)."""
    a, b = [], []
    for _ in range(repeats):
        b.append(timed(theirs))
        a.append(timed(ours))
    ours_s, theirs_s = statistics.median(a), statistics.median(b)
    ratio = theirs_s / ours_s
    row = {"what": what, "ours_s": ours_s, "theirs_s": theirs_s, "ratio": ratio, "target": target,
           "met": ratio >= target, "ours_runs": a, "theirs_runs": b}
    print(f"{what:58s} cryptaccel {ours_s * 1e3:8.2f} ms  theirs {theirs_s * 1e3:8.2f} ms  "
          f"{ratio:5.2f}x (target {target}x: {'met' if row['met'] else 'NOT met'})", flush=True)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = []

    data = rng.randbytes(64 * MIB)
    key256, key128, nonce, ctr_iv = rng.randbytes(32), rng.randbytes(16), rng.randbytes(12), rng.randbytes(16)

    gcm = AESGCM(key256)
    sealed = gcm.encrypt(nonce, data, None)
    assert cryptaccel.encrypt("aes-256-gcm", key256, data, nonce) == sealed
    rows.append(compare("encrypt aes-256-gcm 64 MiB vs AESGCM.encrypt",
                        lambda: cryptaccel.encrypt("aes-256-gcm", key256, data, nonce),
                        lambda: gcm.encrypt(nonce, data, None), args.repeats, 1.8))
    rows.append(compare("decrypt aes-256-gcm 64 MiB vs AESGCM.decrypt",
                        lambda: cryptaccel.decrypt("aes-256-gcm", key256, sealed, nonce),
                        lambda: gcm.decrypt(nonce, sealed, None), args.repeats, 1.8))

    def ctr_theirs(buf):
        enc = Cipher(algorithms.AES(key128), modes.CTR(ctr_iv)).encryptor()
        return enc.update(buf) + enc.finalize()

    ctr_ct = ctr_theirs(data)
    assert cryptaccel.encrypt("aes-128-ctr", key128, data, ctr_iv) == ctr_ct
    rows.append(compare("encrypt aes-128-ctr 64 MiB vs Cipher(AES, CTR)",
                        lambda: cryptaccel.encrypt("aes-128-ctr", key128, data, ctr_iv),
                        lambda: ctr_theirs(data), args.repeats, 1.8))
    rows.append(compare("decrypt aes-128-ctr 64 MiB vs Cipher(AES, CTR)",
                        lambda: cryptaccel.decrypt("aes-128-ctr", key128, ctr_ct, ctr_iv),
                        lambda: ctr_theirs(ctr_ct), args.repeats, 1.8))
    del data, sealed, ctr_ct

    messages = [rng.randbytes(64) for _ in range(200_000)]
    sha256 = hashlib.sha256
    assert cryptaccel.hash_many("sha256", messages) == [sha256(m).digest() for m in messages]
    rows.append(compare("hash_many sha256 200000 x 64 B vs a hashlib loop",
                        lambda: cryptaccel.hash_many("sha256", messages),
                        lambda: [sha256(m).digest() for m in messages], args.repeats, 3.0))

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
