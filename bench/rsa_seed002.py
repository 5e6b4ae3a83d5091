#!/usr/bin/env python3
"""Seed 002's RSA table (Table 3: RSA-1024 encryption and decryption per block) reproduced on this machine, with the
seed's figures beside ours, in one run:

  ref, cpu (and cuda when a GPU is there)   cryptaccel.rsa.modexp_many (encrypt: b^e mod n; decrypt without CRT:
                                            c^d mod n, the seed's operation) and decrypt_many (CRT with blinding and
                                            the result check, PKCS#1 v1.5 padding), one block per call and in batches
                                            of BLOCKS on one core and on all cores
  GMP mpz_powm                              the seed's "opt" software (bench/rsa_gmp.c): encrypt, decrypt (non-CRT),
                                            mpz_powm_sec, CRT
  OpenSSL                                   raw RSA through EVP (bench/rsa_openssl.c): encrypt, CRT decrypt

Then `cryptaccel speed -a rsa2048 --engine cpu --batch M --vs openssl` with --threads 1 and --threads 0 (the cores
ratio), and `speed -a rsa1024,...,rsa4096 --engine ref,cpu --vs openssl`.

Usage: python3 bench/rsa_seed002.py --build build/release [--out DIR] [--seconds S]
Writes DIR/raw.json (every measurement, the machine, load averages before and after), DIR/speed_*.txt/json (the raw
`speed` output) and DIR/table.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Seed 002, Table 3 "RSA algorithm runtimes" (ms per 1024-bit block).
SEED_TABLE = [
    ("ecelinux-sw-opt (GMP, Intel server)", 0.0355, 0.627),
    ("ecelinux-sw-sim (HLS C++ on the server)", 1.6421, 112.7),
    ("zedboard-sw-opt (GMP, ARM Cortex-A9)", 0.3997, 19.478),
    ("zedboard-sw-sim", 8.1581, 576.2225),
    ("fpga-opt (ZedBoard FPGA)", 11.596, 239.96),
    ("cosim", 3.918, 234.23),
]


def median_of(repeats: int, fn) -> float:
    return statistics.median(fn() for _ in range(repeats))


def timed_per_item(fn, items: int, seconds: float) -> float:
    """Seconds per item: fn() processes `items` items; called until `seconds` have passed (at least twice)."""
    fn()  # warm-up
    done, start = 0, time.perf_counter()
    while True:
        fn()
        done += items
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and done >= 2 * items:
            return elapsed / done


def loadavg() -> list:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def compile_helper(source: str, libs: list, workdir: Path) -> Path:
    exe = workdir / Path(source).stem
    subprocess.run(["cc", "-O2", "-o", str(exe), str(HERE / source), *libs], check=True)
    return exe


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="build tree with python/ and src/cli/cryptaccel")
    ap.add_argument("--out", default=str(HERE / "results" / "2026-11-23-amd-epyc-2c" / "rsa"))
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement (each repeated 3 times)")
    ap.add_argument("--blocks", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    build = Path(args.build).resolve()
    sys.path.insert(0, str(build / "python"))
    import cryptaccel
    from cryptaccel import rsa
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa

    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    load_before = loadavg()
    t0 = time.time()

    ck = crsa.generate_private_key(65537, 1024)
    nums = ck.private_numbers()
    n, e, d, p, q = nums.public_numbers.n, nums.public_numbers.e, nums.d, nums.p, nums.q
    key = rsa.PrivateKey.from_pem(ck.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
    pub = key.public_key()
    rng = random.Random(2)
    blocks = [rng.randrange(2, n) for _ in range(args.blocks)]
    cts = [pow(b, e, n) for b in blocks]
    padded_cts = [rsa.encrypt(pub, rng.randbytes(100), padding="pkcs1v15", engine="ref") for _ in blocks]
    size = key.size

    results = {"schema": "cryptaccel-rsa-seed002/1", "bits": 1024, "e": e, "blocks": args.blocks,
               "seconds_per_measurement": args.seconds, "repeats": args.repeats, "rows": []}

    def add(impl, variant, op, seconds_per_block, note=""):
        results["rows"].append({"impl": impl, "variant": variant, "op": op, "ms_per_block": seconds_per_block * 1e3,
                                "note": note})
        print(f"{impl:8s} {variant:34s} {op:12s} {seconds_per_block * 1e3:10.4f} ms/block", flush=True)

    # --- cryptaccel engines -------------------------------------------------------------------------------------
    info = {x["name"]: x for x in cryptaccel.engines()}
    for engine in ("ref", "cpu", "cuda"):
        if engine not in info or not info[engine]["available"]:
            why = info[engine]["unavailable_reason"] if engine in info else "not built into this cryptaccel"
            results.setdefault("skipped", []).append({"impl": engine, "reason": why})
            continue
        try:
            rsa.modexp_many(blocks[:1], e, n, engine=engine)
            rsa.decrypt_many(key, padded_cts[:1], padding="pkcs1v15", engine=engine)
        except cryptaccel.EngineUnavailable as why:
            results.setdefault("skipped", []).append({"impl": engine, "reason": str(why)})
            continue
        # Checked against Python's pow and the ref engine before anything is timed.
        assert rsa.modexp_many(blocks, e, n, engine=engine) == cts
        assert rsa.modexp_many(cts, d, n, engine=engine) == blocks
        ref_pt = rsa.decrypt_many(key, padded_cts, padding="pkcs1v15", engine="ref")
        assert rsa.decrypt_many(key, padded_cts, padding="pkcs1v15", engine=engine) == ref_pt
        assert None not in ref_pt

        def one_at_a_time(exp, data):
            def run():
                for b in data:
                    rsa.modexp_many([b], exp, n, engine=engine, threads=1)
            return run

        R, S = args.repeats, args.seconds
        add(engine, "one block per call (Python loop)", "encrypt",
            median_of(R, lambda: timed_per_item(one_at_a_time(e, blocks), len(blocks), S)))
        add(engine, "one block per call (Python loop)", "decrypt",
            median_of(R, lambda: timed_per_item(one_at_a_time(d, cts), len(cts), S)), "non-CRT c^d mod n")
        for threads, label in ((1, "batch, 1 thread"), (0, "batch, all cores")):
            add(engine, f"{label}", "encrypt", median_of(R, lambda: timed_per_item(
                lambda: rsa.modexp_many(blocks, e, n, engine=engine, threads=threads), len(blocks), S)))
            add(engine, f"{label}", "decrypt", median_of(R, lambda: timed_per_item(
                lambda: rsa.modexp_many(cts, d, n, engine=engine, threads=threads), len(cts), S)), "non-CRT c^d mod n")
            add(engine, f"{label}", "decrypt_crt", median_of(R, lambda: timed_per_item(
                lambda: rsa.decrypt_many(key, padded_cts, padding="pkcs1v15", engine=engine, threads=threads),
                len(padded_cts), S)), "CRT + blinding + result check + PKCS#1 v1.5 unpadding")

    # --- GMP and OpenSSL ---------------------------------------------------------------------------------------
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        gmp = compile_helper("rsa_gmp.c", ["-lgmp"], tmpdir)
        ossl = compile_helper("rsa_openssl.c", ["-lcrypto"], tmpdir)
        hexes = [format(x, "x") for x in (n, e, d, p, q)]
        runs = [json.loads(subprocess.run([str(gmp), *hexes, str(args.seconds), *[format(b, "x") for b in blocks]],
                                          check=True, capture_output=True, text=True).stdout)
                for _ in range(args.repeats)]
        results["gmp_library"] = runs[0]["library"]
        for op, field, note in (("encrypt", "encrypt_s", "mpz_powm"), ("decrypt", "decrypt_s", "mpz_powm, non-CRT"),
                                ("decrypt_sec", "decrypt_sec_s", "mpz_powm_sec, non-CRT"),
                                ("decrypt_crt", "decrypt_crt_s", "mpz_powm mod p and q, Garner")):
            add("gmp", "one block per call", op, statistics.median(r[field] for r in runs), note)
        pem = tmpdir / "key.pem"
        pem.write_bytes(ck.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
        runs = [json.loads(subprocess.run([str(ossl), str(pem), str(args.seconds),
                                           *[b.to_bytes(size, "big").hex() for b in blocks]],
                                          check=True, capture_output=True, text=True).stdout)
                for _ in range(args.repeats)]
        results["openssl_library"] = runs[0]["library"]
        add("openssl", "one block per call", "encrypt", statistics.median(r["encrypt_s"] for r in runs),
            "EVP_PKEY_encrypt, RSA_NO_PADDING")
        add("openssl", "one block per call", "decrypt_crt", statistics.median(r["decrypt_crt_s"] for r in runs),
            "EVP_PKEY_decrypt, RSA_NO_PADDING (CRT, blinding)")

    # --- cryptaccel speed: cores ratio and --vs openssl --------------------------------------------------------
    cli = build / "src" / "cli" / "cryptaccel"
    speed_runs = {
        "speed_rsa2048_cpu_threads1": ["-a", "rsa2048", "--engine", "cpu,ref", "--threads", "1", "--batch", "32",
                                       "--vs", "openssl"],
        "speed_rsa2048_cpu_threads0": ["-a", "rsa2048", "--engine", "cpu,ref", "--threads", "0", "--batch", "32",
                                       "--vs", "openssl"],
        "speed_rsa_all_sizes": ["-a", "rsa1024,rsa2048,rsa3072,rsa4096", "--engine", "ref,cpu", "--vs", "openssl"],
    }
    results["speed"] = {}
    for name, sargs in speed_runs.items():
        json_path = out_dir / f"{name}.json"
        proc = subprocess.run([str(cli), "speed", *sargs, "--seconds", str(args.seconds), "--json", str(json_path)],
                              capture_output=True, text=True)
        (out_dir / f"{name}.txt").write_text(f"$ cryptaccel speed {' '.join(sargs)} --seconds {args.seconds}\n"
                                             + proc.stdout + proc.stderr)
        print(proc.stdout + proc.stderr, flush=True)
        results["speed"][name] = {"args": sargs, "exit": proc.returncode}

    results["machine"] = {"cpu": cpu_model(), "cores": os.cpu_count(), "platform": platform.platform(),
                          "loadavg_before": load_before, "loadavg_after": loadavg(),
                          "wall_seconds": round(time.time() - t0, 1)}
    results["cryptaccel_version"] = cryptaccel.__version__
    git = ["git", "-C", str(HERE.parent)]
    results["source"] = {
        "head": subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
        "uncommitted_in_src": subprocess.run(git + ["status", "--short", "src", "include", "python"],
                                             capture_output=True, text=True).stdout.splitlines(),
    }
    (out_dir / "raw.json").write_text(json.dumps(results, indent=2) + "\n")
    (out_dir / "table.md").write_text(render_table(results))
    print((out_dir / "table.md").read_text())
    return 0


def render_table(r: dict) -> str:
    rows = r["rows"]

    def get(impl, variant_prefix, op):
        for x in rows:
            if x["impl"] == impl and x["variant"].startswith(variant_prefix) and x["op"] == op:
                return x["ms_per_block"]
        return None

    def fmt(v):
        return "n/a" if v is None else f"{v:.4f}"

    gmp_enc, gmp_dec = get("gmp", "one block", "encrypt"), get("gmp", "one block", "decrypt")
    m = r["machine"]
    lines = [
        "# Seed 002, Table 3 reproduced: RSA-1024 per block (ms)",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores; load average before {m['loadavg_before']}, after "
        f"{m['loadavg_after']} (the machine is shared with other jobs: figures are from a loaded machine). "
        f"e = {r['e']}, {r['blocks']} random blocks, median of {r['repeats']} runs of {r['seconds_per_measurement']} s. "
        f"{r.get('gmp_library', '')}, {r.get('openssl_library', '')}.",
        "",
        "Decrypt is c^d mod n without CRT (the seed's operation) unless the row says CRT. Speed-up columns: GMP "
        "mpz_powm on this machine / the row (higher is faster), as the seed's table relates everything to one row.",
        "",
        "| implementation | how | encrypt (ms) | decrypt (ms) | CRT decrypt (ms) | GMP/row enc | GMP/row dec |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    variants = []
    for x in rows:
        key = (x["impl"], x["variant"])
        if key not in variants:
            variants.append(key)
    for impl, variant in variants:
        enc = get(impl, variant, "encrypt")
        dec = get(impl, variant, "decrypt")
        crt = get(impl, variant, "decrypt_crt")
        ratio_e = f"{gmp_enc / enc:.2f}x" if enc and gmp_enc else ""
        ratio_d = f"{gmp_dec / dec:.2f}x" if dec and gmp_dec else ""
        lines.append(f"| {impl} | {variant} | {fmt(enc)} | {fmt(dec)} | {fmt(crt)} | {ratio_e} | {ratio_d} |")
    sec = get("gmp", "one block", "decrypt_sec")
    lines += ["", f"GMP mpz_powm_sec (constant-time) non-CRT decrypt: {fmt(sec)} ms.", "",
              "## The seed's figures (2018, ms per 1024-bit block)", "",
              "| seed row | encrypt (ms) | decrypt (ms) | ours (cpu, batch 1 thread) / seed: enc | dec |",
              "|---|---:|---:|---:|---:|"]
    cpu_enc, cpu_dec = get("cpu", "batch, 1 thread", "encrypt"), get("cpu", "batch, 1 thread", "decrypt")
    for name, enc, dec in SEED_TABLE:
        se = f"{enc / cpu_enc:.1f}x faster" if cpu_enc else "n/a"
        sd = f"{dec / cpu_dec:.1f}x faster" if cpu_dec else "n/a"
        lines.append(f"| {name} | {enc} | {dec} | {se} | {sd} |")
    if r.get("skipped"):
        lines += ["", "Not measured: " + "; ".join(f"{s['impl']} ({s['reason']})" for s in r["skipped"])]
    lines += ["", "Raw data: raw.json; `cryptaccel speed` output: speed_*.txt / speed_*.json.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
