#!/usr/bin/env python3
"""Draws `cryptaccel rv table seed001 --json` as a PNG: seed 001's table (Marian) beside ours.

Usage: rv_seed001_chart.py TABLE.json OUT.png

Two panels over the nine operations (AES-128/256 and SM4 encrypt/decrypt of one block, SHA-256/512 and SM3 of 1 KiB):
left, retired instructions on a log scale — reference and zvk, ours (solid) and the paper's (hatched); right, the
speed-up of zvk over reference in instructions and in cycles, ours and the paper's. `cryptaccel rv table seed001
--chart OUT.png` runs this script. Exit status 3: matplotlib is not installed (the caller says so); 2: bad input.
"""
from __future__ import annotations

import json
import sys

NO_MATPLOTLIB = 3


def main(argv: list) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return NO_MATPLOTLIB
    try:
        with open(argv[1]) as f:
            doc = json.load(f)
        rows = doc["rows"]
    except (OSError, ValueError, KeyError) as e:
        print(f"rv_seed001_chart.py: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2

    def region(row, variant, key):
        run = row["runs"].get(variant)
        return run["region"][key] if run and run.get("ok") else float("nan")

    labels = [r["paper"]["operation"] if r.get("paper") else r["label"] for r in rows]
    x = list(range(len(rows)))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(15, 5.5))
    w = 0.2
    series = [
        ("reference (ours)", [region(r, "reference", "instret") for r in rows], "#999999", None),
        ("reference (paper)", [r["paper"]["reference_instret"] for r in rows], "#dddddd", "//"),
        ("zvk (ours)", [region(r, "zvk", "instret") for r in rows], "#ee6677", None),
        ("zvk (paper)", [r["paper"]["zvk_instret"] for r in rows], "#f5b8c0", "//"),
    ]
    for i, (name, values, color, hatch) in enumerate(series):
        ax1.bar([v + (i - 1.5) * w for v in x], values, w, label=name, color=color, hatch=hatch, edgecolor="#444444",
                linewidth=0.5)
    ax1.set_yscale("log")
    ax1.set_ylabel("retired instructions (measured region)")
    ax1.set_xticks(x)
    ax1.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax1.legend(fontsize=8)
    ax1.set_title("Instructions: reference C vs Zvk")

    speed = [
        ("instret (ours)", [r["speedup_instret"] or float("nan") for r in rows], "#4477aa", None),
        ("instret (paper)", [r["paper"]["speedup_instret"] for r in rows], "#a9c6e6", "//"),
        ("cycles (ours)", [r["speedup_cycles"] or float("nan") for r in rows], "#228833", None),
        ("cycles (paper)", [r["paper"]["speedup_cycles"] for r in rows], "#a6dba0", "//"),
    ]
    for i, (name, values, color, hatch) in enumerate(speed):
        ax2.bar([v + (i - 1.5) * w for v in x], values, w, label=name, color=color, hatch=hatch, edgecolor="#444444",
                linewidth=0.5)
    ax2.set_yscale("log")
    ax2.set_ylabel("speed-up of zvk over reference")
    ax2.set_xticks(x)
    ax2.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax2.legend(fontsize=8)
    ax2.set_title("Speed-up (ours: modelled cycles, RV64, VLEN %s)" % doc.get("vlen", "?"))
    fig.suptitle("Seed 001 (Marian, Zvk on CVA6 + Ara2, FPGA) beside cryptaccel's RISC-V simulator")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
