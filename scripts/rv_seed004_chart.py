#!/usr/bin/env python3
"""Draws `cryptaccel rv table seed004 --json` as a PNG: seed 004's Tables II and III beside ours.

Usage: rv_seed004_chart.py TABLE.json OUT.png

Three panels: left, throughput (bits/cycle, log scale) against SN, the number of Keccak states processed side by side,
for every configuration — ours solid, the paper's dashed (64-bit LMUL 1 and 8, 32-bit LMUL 8, and the vector-extension
reference [15] at SN 1); middle, cycles per round, ours beside the paper's; right, the ablations: cycles per round of
the 64-bit LMUL 8 custom kernel with one custom instruction replaced, at SN 1, 3 and 6, beside the full kernel's.
`cryptaccel rv table seed004 --png OUT.png` runs this script. Exit status 3: matplotlib is not installed (the caller
says so); 2: bad input.
"""
from __future__ import annotations

import json
import math
import sys

NO_MATPLOTLIB = 3
NAN = float("nan")
# Our configuration groups and the paper's rows they correspond to (by SN), with a colour each.
GROUPS = [
    ("scalar-rv64", "scalar RV64I", "#999999"),
    ("zbb-rv64", "RV64 Zbb/Zbkb", "#555555"),
    ("scalar-rv32", "RV32 bit-interleaved", "#ccbb44"),
    ("zbb-rv32", "RV32 Zbb/Zbkb bit-int.", "#aa9922"),
    ("rvv", "standard RVV", "#66ccee"),
    ("custom64-lmul1", "custom 64-bit LMUL 1", "#4477aa"),
    ("custom64-lmul8", "custom 64-bit LMUL 8", "#ee6677"),
    ("custom32-lmul8", "custom 32-bit LMUL 8", "#228833"),
]


def value(row, key):
    v = row.get(key) if row else None
    return NAN if v is None else v


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
        paper = {p["id"]: p for p in doc["paper"]["rows"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"rv_seed004_chart.py: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2

    by_group = {}
    for r in rows:
        by_group.setdefault(r["group"], []).append(r)
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(18, 6), gridspec_kw={"width_ratios": [1.1, 1.2, 1.1]})

    # Left: throughput against SN.
    for group, label, color in GROUPS:
        members = sorted(by_group.get(group, []), key=lambda r: r["sn"])
        if not members:
            continue
        sns = [r["sn"] for r in members]
        ax1.plot(sns, [value(r, "bits_per_cycle") for r in members], "o-", color=color, label=label + " (ours)")
        published = [paper.get(r["paper_id"]) if r.get("paper_id") else None for r in members]
        if group.startswith("custom") and any(published):
            ax1.plot(sns, [p["bits_per_cycle"] if p else NAN for p in published], "s--", color=color, alpha=0.7,
                     label=label + " (paper)")
    if "vector-ext-15" in paper:
        ax1.plot([1], [paper["vector-ext-15"]["bits_per_cycle"]], "D", color="#66ccee", markeredgecolor="#000000",
                 label="vector extensions [15] (paper)")
    ax1.set_xlabel("SN (Keccak states in parallel)")
    ax1.set_xticks([1, 3, 6])
    ax1.set_yscale("log")
    ax1.set_ylabel("bits/cycle = SN x 1600 / cycles of one pass")
    ax1.set_title("Throughput against SN")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=7, loc="lower right")

    # Middle: cycles per round at SN 1 (ours) beside the paper's.
    main_rows = [r for r in rows if not r.get("replaced") and r["sn"] == 1]
    x = list(range(len(main_rows)))
    ours = [value(r, "cycles_per_round") for r in main_rows]
    theirs = [paper[r["paper_id"]]["cycles_per_round"] if r.get("paper_id") else NAN for r in main_rows]
    ax2.bar([i - 0.2 for i in x], ours, 0.4, label="ours (SN 1)", color="#4477aa")
    ax2.bar([i + 0.2 for i in x], [NAN if t is None else t for t in theirs], 0.4, label="paper", color="#a9c6e6",
            hatch="//", edgecolor="#444444", linewidth=0.5)
    ax2.set_xticks(x)
    ax2.set_xticklabels([f"{r['label']}\n({r['variant']})" for r in main_rows], rotation=35, ha="right", fontsize=7)
    ax2.set_yscale("log")
    ax2.set_ylabel("cycles per round")
    ax2.set_title("Cycles per round: (cycles(24) - cycles(12)) / 12")
    ax2.legend(fontsize=8)

    # Right: ablations.
    groups = []
    for r in rows:
        if r.get("replaced") and r["group"] not in groups:
            groups.append(r["group"])
    full = {r["sn"]: r for r in by_group.get("custom64-lmul8", [])}
    names = ["full custom"] + [g.replace("ablation-", "") for g in groups]
    xs = list(range(len(names)))
    w = 0.27
    tallest = 0.0
    for k, (sn, color) in enumerate([(1, "#ee6677"), (3, "#ccbb44"), (6, "#228833")]):
        vals = [value(full.get(sn), "cycles_per_round")]
        for g in groups:
            member = next((r for r in by_group[g] if r["sn"] == sn), None)
            vals.append(value(member, "cycles_per_round"))
        ax3.bar([i + (k - 1) * w for i in xs], vals, w, label=f"SN {sn}", color=color)
        tallest = max([tallest] + [v for v in vals if not math.isnan(v)])
        if sn == 1:
            for i, v in enumerate(vals[1:], start=1):
                base = vals[0]
                if not math.isnan(v) and not math.isnan(base) and base > 0:
                    ax3.annotate(f"{v / base:.2f}x", (i, v), textcoords="offset points", xytext=(0, 3), ha="center",
                                 fontsize=7)
    if "custom64-lmul8-sn1" in paper:
        ax3.axhline(paper["custom64-lmul8-sn1"]["cycles_per_round"], color="#444444", linestyle="--", linewidth=0.8,
                    label="paper, full (75)")
    ax3.set_ylim(0, 1.35 * max(tallest, 75.0))  # room for the legend above the bars
    ax3.set_xticks(xs)
    ax3.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax3.set_ylabel("cycles per round")
    ax3.set_title("What each custom instruction buys (64-bit, LMUL 8)")
    ax3.legend(fontsize=8, loc="upper left", ncol=2)

    fig.suptitle("Seed 004 (custom Keccak vector instructions, DATE 2023) beside cryptaccel's RISC-V simulator "
                 "(vector rows: seed004 timing preset)")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
