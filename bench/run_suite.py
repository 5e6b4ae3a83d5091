#!/usr/bin/env python3
"""The standard benchmark suite: `cryptaccel speed` side by side with OpenSSL, through cryptaccel.bench (the same
harness, in this process).

    bench/run_suite.py [--pythonpath build/release/python] [--repeat 5] [--seconds 0.3] [--out DIR] [--python PYTHON]

Runs, REPEAT times each, interleaved (the figures reported are medians over the repetitions):
  single   AES-128/256 CTR, GCM, XTS, CBC, AES-128-ECB, SM4-CTR/GCM; SHA-256/512, SHA3-256, SHAKE128, SM3 at 16 B,
           64 B, 256 B, 1 KiB, 16 KiB, 1 MiB; one thread, `--vs openssl` (OpenSSL EVP on one thread, one message per
           operation, key and IV set per message)
  cores    CTR, GCM, XTS at 1 MiB with all cores (--threads 0), to compare with `single` (a hash is sequential:
           its cores show in the batches)
  batch    SHA-256/512, SHA3-256, SM3: batches of 4096 x 64 B messages, one thread and all cores, against OpenSSL
           hashing the same messages one by one on one thread
  rsa      RSA-2048/3072/4096 sign and verify: one at a time on one thread, and batches of 64 on one thread and on
           all cores, against OpenSSL's one at a time on one thread
  python   with --python: bench/python_vs.py (encrypt/decrypt 64 MiB vs `cryptography`, hash_many vs hashlib)

Writes into DIR (default bench/results/<date>-<machine>/): raw/<run>-<i>.json and .txt (each run's JSON report and
table, as `cryptaccel speed` would write them, the .txt after the equivalent command line), summary.json (medians), summary.md (tables and the targets of issues 4 and 24, met or not)
and speedup.png (bar chart of engine / OpenSSL single core, if matplotlib is installed). Exits 1 if a run failed its
check against the ref engine.

cryptaccel is imported from --pythonpath (the build's python/ directory, built with -DCRYPTACCEL_BUILD_PYTHON=ON;
default: $PYTHONPATH, else build/release/python).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import statistics
import subprocess
import sys
from types import ModuleType
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CIPHERS = ["aes-128-ctr", "aes-256-ctr", "aes-128-gcm", "aes-256-gcm", "aes-128-xts", "aes-256-xts", "aes-128-cbc",
           "aes-256-cbc", "aes-128-ecb", "sm4-ctr", "sm4-gcm"]
PARALLEL = ["aes-128-ctr", "aes-256-ctr", "aes-128-gcm", "aes-256-gcm", "aes-128-xts", "aes-256-xts"]
HASHES = ["sha256", "sha512", "sha3-256", "shake128", "sm3"]
BATCH_HASHES = ["sha256", "sha512", "sha3-256", "sm3"]
SIZES = ["16", "64", "256", "1k", "16k", "1M"]
RSA = ["rsa2048", "rsa3072", "rsa4096"]
RSA_BATCH = 64
BATCH = 4096
ENGINE = "cpu"

# name -> cryptaccel.bench.speed arguments besides engines, vs and seconds
RUNS = {
    "single": dict(algorithms=CIPHERS + HASHES, sizes=SIZES, threads=1),
    "cores": dict(algorithms=PARALLEL, sizes=["1M"], threads=0),  # one hash message cannot be split
    "batch1": dict(algorithms=BATCH_HASHES, sizes=["64"], batch=BATCH, threads=1),
    "batchN": dict(algorithms=BATCH_HASHES, sizes=["64"], batch=BATCH, threads=0),
    "rsa1": dict(algorithms=RSA, threads=1),
    "rsa64": dict(algorithms=RSA, batch=RSA_BATCH, threads=1),
    "rsa64N": dict(algorithms=RSA, batch=RSA_BATCH, threads=0),
}


def cli_args(run: dict) -> list[str]:
    """The `cryptaccel speed` arguments that measure what `run` does (for the record: summary.json, raw/*.txt)."""
    args = ["-a", *run["algorithms"]]
    if "sizes" in run:
        args += ["--bytes", *run["sizes"]]
    if "batch" in run:
        args += ["--batch", str(run["batch"])]
    return args + ["--threads", str(run["threads"])]


def machine_slug(machine: dict) -> str:
    model = re.sub(r"[^a-z0-9]+", "-", (machine.get("cpu_model") or "cpu").lower()).strip("-")
    return f"{model}-{machine.get('usable_cores', 0)}c"


def import_bench(pythonpath: str | None) -> ModuleType:
    """cryptaccel.bench, from `pythonpath` (else $PYTHONPATH, else build/release/python)."""
    if pythonpath:
        sys.path.insert(0, pythonpath)
    elif not os.environ.get("PYTHONPATH"):
        sys.path.insert(0, str(ROOT / "build/release/python"))
    try:
        from cryptaccel import bench
    except ImportError as e:
        sys.exit(f"run_suite: cannot import cryptaccel ({e}): build it with -DCRYPTACCEL_BUILD_PYTHON=ON and pass "
                 "its python/ directory as --pythonpath")
    return bench


def run_speed(bench: ModuleType, run: dict, seconds: float) -> tuple[dict, str, int]:
    """One speed run: returns (JSON report, the table and error lines `cryptaccel speed` would print, its exit
    status)."""
    cmd = ["speed", "--engine", ENGINE, "--vs", "openssl", "--seconds", str(seconds), *cli_args(run)]
    try:
        result = bench.speed(engines=[ENGINE], vs="openssl", seconds=seconds, **run)
    except Exception as e:  # a bad argument or an engine missing here: cryptaccel.Error
        sys.exit(f"run_suite: {' '.join(cmd)} failed: {e}")
    errors = "".join("cryptaccel speed: " + message.replace("\n", " ") + "\n" for message in result.errors)
    return result.report, "$ " + " ".join(cmd) + "\n" + result.text + errors, 0 if result.ok else 1


def medians(reports: list[dict]) -> list[dict]:
    """Median bytes/s, messages/s and engine/OpenSSL ratio per (algo, engine, batch, bytes, operation) over repeated
    runs (operation: RSA's "sign" or "verify", else None)."""
    cells = defaultdict(list)
    for report in reports:
        for r in report["results"]:
            cells[(r["algo"], r["engine"], r["batch"], r["bytes"], r.get("operation"))].append(r)
    out = []
    for (algo, engine, batch, size, operation), rows in cells.items():
        def med(key):
            values = [r[key] for r in rows if r.get(key) is not None]
            return statistics.median(values) if values else None
        out.append({"algo": algo, "engine": engine, "batch": batch, "bytes": size, "operation": operation,
                    "samples": len(rows),
                    "bytes_per_second": med("bytes_per_second"), "messages_per_second": med("messages_per_second"),
                    "vs_openssl": med("vs_openssl")})
    return out


def fmt_rate(bps):
    return "n/a" if bps is None else f"{bps / 1e6:,.1f} MB/s"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x"


def cell(summary, run, algo, engine, size, batch=None, operation=None):
    for r in summary.get(run, []):
        if (r["algo"] == algo and r["engine"] == engine and r["bytes"] == size and r["batch"] == batch
                and r.get("operation") == operation):
            return r
    return None


def size_bytes(size: str) -> int:
    return int(size[:-1]) * (1024 if size[-1] == "k" else 1 << 20) if size[-1] in "kM" else int(size)


def rsa_cell(summary, run, algo, engine, operation):
    """RSA rows: any `bytes` (speed reports RSA per operation)."""
    batch = RSA_BATCH if run != "rsa1" else None
    for r in summary.get(run, []):
        if (r["algo"] == algo and r["engine"] == engine and r["batch"] == batch
                and r.get("operation") == operation):
            return r
    return None


def ratio_row(what, ratio, target):
    return (what, fmt_ratio(ratio), None if ratio is None else ratio >= target)


def targets(summary, python_rows=()) -> list[tuple[str, str, bool | None]]:
    """The targets of issues 4 and 24, each (description, measured, met)."""
    rows = []
    # Issue 24: every cipher and hash at every size, one thread, >= 0.95x OpenSSL EVP.
    for algo in CIPHERS + HASHES:
        ratios = {size: (c or {}).get("vs_openssl")
                  for size in SIZES for c in [cell(summary, "single", algo, ENGINE, size_bytes(size))]}
        known = {s: r for s, r in ratios.items() if r is not None}
        if not known:
            continue
        low = min(known.values())
        short = [f"{s} B: {r:.2f}x" for s, r in known.items() if r < 0.95]
        rows.append((f"{algo}, one thread, every size >= 0.95x OpenSSL",
                     f"lowest {low:.2f}x" + (f" ({', '.join(short)})" if short else ""), low >= 0.95))
    for algo in PARALLEL:
        one, many = cell(summary, "single", algo, ENGINE, 1 << 20), cell(summary, "cores", algo, ENGINE, 1 << 20)
        if not (one and many and one["bytes_per_second"] and many["bytes_per_second"]):
            continue
        scale = many["bytes_per_second"] / one["bytes_per_second"]
        rows.append((f"{algo} 1 MiB, all cores >= 1.8x one thread", f"{scale:.2f}x", scale >= 1.8))
    # RSA: one at a time per core, batches of 64 per core, and all cores against one.
    for algo in RSA:
        for operation in ("sign", "verify"):
            c = rsa_cell(summary, "rsa1", algo, ENGINE, operation)
            rows.append(ratio_row(f"{algo} {operation}, one at a time, one thread >= 1.0x OpenSSL",
                                  c and c["vs_openssl"], 1.0))
        c = rsa_cell(summary, "rsa64", algo, ENGINE, "sign")
        target = 1.5 if algo == "rsa2048" else 1.0
        rows.append(ratio_row(f"{algo} sign, batches of {RSA_BATCH}, one thread >= {target}x OpenSSL",
                              c and c["vs_openssl"], target))
        one, many = rsa_cell(summary, "rsa64", algo, ENGINE, "sign"), rsa_cell(summary, "rsa64N", algo, ENGINE, "sign")
        if one and many and one["messages_per_second"] and many["messages_per_second"]:
            scale = many["messages_per_second"] / one["messages_per_second"]
            rows.append((f"{algo} sign, batches of {RSA_BATCH}, all cores >= 1.8x one thread", f"{scale:.2f}x",
                         scale >= 1.8))
    # Issue 4: hash batches.
    for run, label in (("batch1", "one thread"), ("batchN", "all cores")):
        c = cell(summary, run, "sha256", ENGINE, 64, BATCH)
        rows.append(ratio_row(f"sha256 {BATCH} x 64 B batch, {label}, >= 2x OpenSSL one by one",
                              c and c["vs_openssl"], 2.0))
    one, many = cell(summary, "batch1", "sha256", ENGINE, 64, BATCH), cell(summary, "batchN", "sha256", ENGINE, 64, BATCH)
    if one and many and one["messages_per_second"] and many["messages_per_second"]:
        scale = many["messages_per_second"] / one["messages_per_second"]
        rows.append((f"sha256 {BATCH} x 64 B batch, all cores >= 1.8x one thread", f"{scale:.2f}x", scale >= 1.8))
    # Python (bench/python_vs.py).
    for r in python_rows:
        rows.append(ratio_row(f"Python: {r['what']} >= {r['target']}x", r["ratio"], r["target"]))
    return rows


def write_markdown(path: Path, summary, machine, build, settings, python_rows=()):
    lines = [f"# cryptaccel benchmark suite — {settings['date']}", "",
             f"Machine: {machine.get('cpu_model')}, {machine.get('usable_cores')} usable cores; flags: "
             + ", ".join(k for k, v in (machine.get("cpu_flags") or {}).items() if v),
             f"Build: cryptaccel {build.get('cryptaccel_version')} ({build.get('compiler')}, {build.get('build_type')}), "
             f"{build.get('openssl')}",
             f"Each cell: median of {settings['repeat']} runs of {settings['seconds']} s; engine `{ENGINE}` against "
             "OpenSSL EVP on one thread in the same process (key and IV set per message).", ""]
    lines += ["## Single stream, one thread", "", "| algorithm | " + " | ".join(SIZES) + " |",
              "|---" * (len(SIZES) + 1) + "|"]
    for algo in CIPHERS + HASHES:
        row = []
        for size in SIZES:
            n = size_bytes(size)
            c = cell(summary, "single", algo, ENGINE, n)
            o = cell(summary, "single", algo, "openssl", n)
            row.append(f"{fmt_rate(c and c['bytes_per_second'])} / {fmt_rate(o and o['bytes_per_second'])} = "
                       f"**{fmt_ratio(c and c['vs_openssl'])}**")
        lines.append(f"| {algo} | " + " | ".join(row) + " |")
    lines += ["", f"Cells: `{ENGINE}` / OpenSSL = ratio.", "", "## Batches of 4096 x 64 B (messages per second)", "",
              "| algorithm | one thread | all cores | OpenSSL one by one | ratio 1 thread | ratio all cores |",
              "|---|---|---|---|---|---|"]
    for algo in BATCH_HASHES:
        one, many = cell(summary, "batch1", algo, ENGINE, 64, BATCH), cell(summary, "batchN", algo, ENGINE, 64, BATCH)
        o = cell(summary, "batch1", algo, "openssl", 64, BATCH)
        m = lambda c: "n/a" if not c or c["messages_per_second"] is None else f"{c['messages_per_second']:,.0f}"
        lines.append(f"| {algo} | {m(one)} | {m(many)} | {m(o)} | {fmt_ratio(one and one['vs_openssl'])} | "
                     f"{fmt_ratio(many and many['vs_openssl'])} |")
    if any(rsa_cell(summary, run, a, ENGINE, "sign") for run in ("rsa1", "rsa64", "rsa64N") for a in RSA):
        lines += ["", "## RSA (operations per second)", "",
                  f"| key | operation | one at a time | OpenSSL | batches of {RSA_BATCH}, one thread | all cores |",
                  "|---|---|---|---|---|---|"]
        for algo in RSA:
            for operation in ("sign", "verify"):
                got = [rsa_cell(summary, run, algo, engine, operation)
                       for run, engine in (("rsa1", ENGINE), ("rsa1", "openssl"), ("rsa64", ENGINE), ("rsa64N", ENGINE))]
                m = lambda c: "n/a" if not c or c["messages_per_second"] is None else f"{c['messages_per_second']:,.0f}"
                lines.append(f"| {algo} | {operation} | " + " | ".join(m(c) for c in got) + " |")
    lines += ["", "## Targets (issues 4 and 24)", "", "| target | measured | met |", "|---|---|---|"]
    for what, measured, met in targets(summary, python_rows):
        lines.append(f"| {what} | {measured} | {'n/a' if met is None else ('yes' if met else '**no**')} |")
    path.write_text("\n".join(lines) + "\n")


def draw_chart(path: Path, summary, machine) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("run_suite: matplotlib is not installed: no chart (pip install matplotlib)", file=sys.stderr)
        return False
    groups = [(f"{a}\n1 MiB", cell(summary, "single", a, ENGINE, 1 << 20),
               cell(summary, "cores", a, ENGINE, 1 << 20)) for a in CIPHERS + HASHES]  # hashes: no "cores" bar
    groups += [(f"{a}\n4096x64B", cell(summary, "batch1", a, ENGINE, 64, BATCH),
                cell(summary, "batchN", a, ENGINE, 64, BATCH)) for a in BATCH_HASHES]
    labels = [g[0] for g in groups]
    one = [(g[1] or {}).get("vs_openssl") or 0 for g in groups]
    many = [(g[2] or {}).get("vs_openssl") or 0 for g in groups]
    fig, ax = plt.subplots(figsize=(max(10, len(labels) * 0.9), 4.8))
    x = range(len(labels))
    ax.bar([i - 0.2 for i in x], one, 0.4, label=f"{ENGINE}, 1 thread", color="#4477aa")
    ax.bar([i + 0.2 for i in x], many, 0.4, label=f"{ENGINE}, all cores ({machine.get('usable_cores')})",
           color="#ee6677")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(list(x), labels, fontsize=7)
    ax.set_ylabel("speed-up vs OpenSSL EVP, 1 thread")
    ax.set_title(f"cryptaccel `{ENGINE}` engine vs OpenSSL — {machine.get('cpu_model')}")
    for i, (a, b) in enumerate(zip(one, many)):
        ax.text(i - 0.2, a, f"{a:.2f}", ha="center", va="bottom", fontsize=6)
        ax.text(i + 0.2, b, f"{b:.2f}", ha="center", va="bottom", fontsize=6)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--runs", nargs="*", default=list(RUNS), choices=list(RUNS))
    ap.add_argument("--python", help="a Python with cryptaccel's dependencies: also run bench/python_vs.py")
    ap.add_argument("--pythonpath", help="the build's python/ directory: where cryptaccel is imported from, and "
                    "PYTHONPATH for --python (default: $PYTHONPATH, else build/release/python)")
    args = ap.parse_args()
    bench = import_bench(args.pythonpath)

    raw = defaultdict(list)
    failed = False
    texts = {}
    # Interleave the repetitions (run a, run b, ..., run a, ...) so that a slow phase of the machine spreads over all.
    for i in range(args.repeat):
        for name in args.runs:
            print(f"run_suite: {name} {i + 1}/{args.repeat}", file=sys.stderr, flush=True)
            report, text, rc = run_speed(bench, RUNS[name], args.seconds)
            failed |= rc != 0
            raw[name].append(report)
            texts[(name, i)] = text
    first = raw[args.runs[0]][0]
    machine, build = first["machine"], first["build"]
    date = dt.date.today().isoformat()
    out = args.out or ROOT / "bench/results" / f"{date}-{machine_slug(machine)}"
    (out / "raw").mkdir(parents=True, exist_ok=True)
    for name, reports in raw.items():
        for i, report in enumerate(reports):
            (out / "raw" / f"{name}-{i + 1}.json").write_text(json.dumps(report, indent=1) + "\n")
            (out / "raw" / f"{name}-{i + 1}.txt").write_text(texts[(name, i)])
    summary = {name: medians(reports) for name, reports in raw.items()}
    python_rows = []
    if args.python:
        print("run_suite: python", file=sys.stderr, flush=True)
        env = dict(os.environ, **({"PYTHONPATH": args.pythonpath} if args.pythonpath else {}))
        rows_path = out / "raw" / "python.json"
        proc = subprocess.run([args.python, str(ROOT / "bench/python_vs.py"), "--json", str(rows_path)], env=env,
                              capture_output=True, text=True)
        (out / "raw" / "python.txt").write_text(proc.stdout + proc.stderr)
        if proc.returncode != 0 or not rows_path.exists():
            failed = True
            print(f"run_suite: bench/python_vs.py failed ({proc.returncode}): {proc.stderr.strip()}", file=sys.stderr)
        else:
            python_rows = json.loads(rows_path.read_text())
    settings = {"date": date, "repeat": args.repeat, "seconds": args.seconds, "engine": ENGINE,
                "runs": {n: cli_args(RUNS[n]) for n in args.runs}}
    (out / "summary.json").write_text(json.dumps({"machine": machine, "build": build, "settings": settings,
                                                  "medians": summary, "python": python_rows,
                                                  "targets": targets(summary, python_rows)}, indent=1) + "\n")
    write_markdown(out / "summary.md", summary, machine, build, settings, python_rows)
    draw_chart(out / "speedup.png", summary, machine)
    print(f"run_suite: results in {out}", file=sys.stderr)
    print((out / "summary.md").read_text())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
