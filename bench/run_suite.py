#!/usr/bin/env python3
"""The standard benchmark suite: `cryptaccel speed` side by side with OpenSSL, in one process per run.

    bench/run_suite.py [--cli build/release/src/cli/cryptaccel] [--repeat 5] [--seconds 0.5] [--out DIR]

Runs, REPEAT times each (the figures reported are medians over the repetitions):
  single   AES-128/256 CTR, GCM, XTS; SHA-256/512, SHA3-256, SM3 at 64 B, 1 KiB, 16 KiB, 1 MiB; one thread,
           `--vs openssl` (OpenSSL EVP on one thread, one message per operation)
  cores    the ciphers at 1 MiB with all cores (--threads 0), to compare with `single` (a hash is sequential:
           its cores show in the batches)
  batch    SHA-256/512, SHA3-256, SM3: batches of 4096 x 64 B messages, one thread and all cores, against OpenSSL
           hashing the same messages one by one on one thread

Writes into DIR (default bench/results/<date>-<machine>/): raw/<run>-<i>.json and .txt (each `cryptaccel speed`
run's JSON and table), summary.json (medians), summary.md (tables and the targets of issue 4) and speedup.png
(bar chart of engine ÷ OpenSSL single core, if matplotlib is installed). Exits 1 if a run failed its check
against the ref engine.
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
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CIPHERS = ["aes-128-ctr", "aes-256-ctr", "aes-128-gcm", "aes-256-gcm", "aes-128-xts", "aes-256-xts"]
HASHES = ["sha256", "sha512", "sha3-256", "sm3"]
SIZES = ["64", "1k", "16k", "1M"]
BATCH = 4096
ENGINE = "cpu"

# name -> extra `cryptaccel speed` arguments
RUNS = {
    "single": ["-a", *CIPHERS, *HASHES, "--bytes", *SIZES, "--threads", "1"],
    "cores": ["-a", *CIPHERS, "--bytes", "1M", "--threads", "0"],  # one hash message cannot be split
    "batch1": ["-a", *HASHES, "--bytes", "64", "--batch", str(BATCH), "--threads", "1"],
    "batchN": ["-a", *HASHES, "--bytes", "64", "--batch", str(BATCH), "--threads", "0"],
}


def machine_slug(machine: dict) -> str:
    model = re.sub(r"[^a-z0-9]+", "-", (machine.get("cpu_model") or "cpu").lower()).strip("-")
    return f"{model}-{machine.get('usable_cores', 0)}c"


def run_speed(cli: str, args: list[str], seconds: float) -> tuple[dict, str, int]:
    """One `cryptaccel speed` run: returns (JSON report, table text, exit status)."""
    json_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"cryptaccel-bench-{os.getpid()}.json"
    cmd = [cli, "speed", "--engine", ENGINE, "--vs", "openssl", "--seconds", str(seconds), "--json", str(json_path),
           *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not json_path.exists():
        sys.exit(f"run_suite: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    report = json.loads(json_path.read_text())
    json_path.unlink()
    return report, "$ " + " ".join(cmd[1:]) + "\n" + proc.stdout + proc.stderr, proc.returncode


def medians(reports: list[dict]) -> list[dict]:
    """Median bytes/s, messages/s and engine/OpenSSL ratio per (algo, engine, batch, bytes) over repeated runs."""
    cells = defaultdict(list)
    for report in reports:
        for r in report["results"]:
            cells[(r["algo"], r["engine"], r["batch"], r["bytes"])].append(r)
    out = []
    for (algo, engine, batch, size), rows in cells.items():
        def med(key):
            values = [r[key] for r in rows if r.get(key) is not None]
            return statistics.median(values) if values else None
        out.append({"algo": algo, "engine": engine, "batch": batch, "bytes": size, "samples": len(rows),
                    "bytes_per_second": med("bytes_per_second"), "messages_per_second": med("messages_per_second"),
                    "vs_openssl": med("vs_openssl")})
    return out


def fmt_rate(bps):
    return "n/a" if bps is None else f"{bps / 1e6:,.1f} MB/s"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x"


def cell(summary, run, algo, engine, size, batch=None):
    for r in summary[run]:
        if r["algo"] == algo and r["engine"] == engine and r["bytes"] == size and r["batch"] == batch:
            return r
    return None


def targets(summary) -> list[tuple[str, str, bool | None]]:
    """Issue 4's targets, each (description, measured, met)."""
    rows = []
    for algo in ("aes-128-ctr", "aes-256-ctr", "aes-128-gcm", "aes-256-gcm", "sha256"):
        c = cell(summary, "single", algo, ENGINE, 1 << 20)
        ratio = c and c["vs_openssl"]
        rows.append((f"{algo} 1 MiB, one thread >= 0.95x OpenSSL", fmt_ratio(ratio),
                     None if ratio is None else ratio >= 0.95))
    for algo in CIPHERS:
        one, many = cell(summary, "single", algo, ENGINE, 1 << 20), cell(summary, "cores", algo, ENGINE, 1 << 20)
        if not (one and many and one["bytes_per_second"] and many["bytes_per_second"]):
            continue
        scale = many["bytes_per_second"] / one["bytes_per_second"]
        rows.append((f"{algo} 1 MiB, all cores >= 1.8x one thread", f"{scale:.2f}x", scale >= 1.8))
    for run, label in (("batch1", "one thread"), ("batchN", "all cores")):
        c = cell(summary, run, "sha256", ENGINE, 64, BATCH)
        ratio = c and c["vs_openssl"]
        rows.append((f"sha256 {BATCH} x 64 B batch, {label}, >= 2x OpenSSL one by one", fmt_ratio(ratio),
                     None if ratio is None else ratio >= 2.0))
    one, many = cell(summary, "batch1", "sha256", ENGINE, 64, BATCH), cell(summary, "batchN", "sha256", ENGINE, 64, BATCH)
    if one and many and one["messages_per_second"] and many["messages_per_second"]:
        scale = many["messages_per_second"] / one["messages_per_second"]
        rows.append((f"sha256 {BATCH} x 64 B batch, all cores >= 1.8x one thread", f"{scale:.2f}x", scale >= 1.8))
    return rows


def write_markdown(path: Path, summary, machine, build, settings):
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
            n = int(size[:-1]) * (1024 if size.endswith("k") else 1 << 20) if size[-1] in "kM" else int(size)
            c = cell(summary, "single", algo, ENGINE, n)
            o = cell(summary, "single", algo, "openssl", n)
            row.append(f"{fmt_rate(c and c['bytes_per_second'])} / {fmt_rate(o and o['bytes_per_second'])} = "
                       f"**{fmt_ratio(c and c['vs_openssl'])}**")
        lines.append(f"| {algo} | " + " | ".join(row) + " |")
    lines += ["", f"Cells: `{ENGINE}` / OpenSSL = ratio.", "", "## Batches of 4096 x 64 B (messages per second)", "",
              "| algorithm | one thread | all cores | OpenSSL one by one | ratio 1 thread | ratio all cores |",
              "|---|---|---|---|---|---|"]
    for algo in HASHES:
        one, many = cell(summary, "batch1", algo, ENGINE, 64, BATCH), cell(summary, "batchN", algo, ENGINE, 64, BATCH)
        o = cell(summary, "batch1", algo, "openssl", 64, BATCH)
        m = lambda c: "n/a" if not c or c["messages_per_second"] is None else f"{c['messages_per_second']:,.0f}"
        lines.append(f"| {algo} | {m(one)} | {m(many)} | {m(o)} | {fmt_ratio(one and one['vs_openssl'])} | "
                     f"{fmt_ratio(many and many['vs_openssl'])} |")
    lines += ["", "## Targets (issue 4)", "", "| target | measured | met |", "|---|---|---|"]
    for what, measured, met in targets(summary):
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
                cell(summary, "batchN", a, ENGINE, 64, BATCH)) for a in HASHES]
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
    ap.add_argument("--cli", default=str(ROOT / "build/release/src/cli/cryptaccel"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--runs", nargs="*", default=list(RUNS), choices=list(RUNS))
    args = ap.parse_args()

    raw = defaultdict(list)
    failed = False
    texts = {}
    # Interleave the repetitions (run a, run b, ..., run a, ...) so that a slow phase of the machine spreads over all.
    for i in range(args.repeat):
        for name in args.runs:
            print(f"run_suite: {name} {i + 1}/{args.repeat}", file=sys.stderr, flush=True)
            report, text, rc = run_speed(args.cli, RUNS[name], args.seconds)
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
    settings = {"date": date, "repeat": args.repeat, "seconds": args.seconds, "engine": ENGINE,
                "runs": {n: RUNS[n] for n in args.runs}}
    (out / "summary.json").write_text(json.dumps({"machine": machine, "build": build, "settings": settings,
                                                  "medians": summary, "targets": targets(summary)}, indent=1) + "\n")
    write_markdown(out / "summary.md", summary, machine, build, settings)
    draw_chart(out / "speedup.png", summary, machine)
    print(f"run_suite: results in {out}", file=sys.stderr)
    print((out / "summary.md").read_text())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
