#!/usr/bin/env python3
"""Draws `cryptaccel rv table seed000 --json` as a PNG in the shape of seed 000's Figures 2-4.

Usage: rv_seed000_chart.py TABLE.json OUT.png

Three panels: Figure 2 (SHA-256), Figure 3 (AES-256 key expansion), Figure 4 (AES-256 modes): speed-up in modelled
cycles over software (software-naive for SHA, software-table for AES) per variant, RV32 and RV64 side by side, with
the paper's published speed-ups (Table 1's cycle ratios) as black diamonds over the RV32 bars of the same variant.
`cryptaccel rv table seed000 --chart OUT.png` runs this script. Exit status 3: matplotlib is not installed (the
caller says so); 2: bad input.
"""
from __future__ import annotations

import json
import sys

NO_MATPLOTLIB = 3

PANELS = [
    ("Figure 2: SHA-256, 2 KiB", ["sha256"]),
    ("Figure 3: AES-256 key expansion", ["aes-keyexp-encrypt", "aes-keyexp-decrypt"]),
    ("Figure 4: AES-256, 512 blocks", ["aes-ecb-encrypt", "aes-ecb-decrypt", "aes-cbc-encrypt", "aes-cbc-decrypt",
                                       "aes-ctr-encrypt", "aes-ctr-decrypt"]),
]
SHORT = {"sha256": "SHA-256", "aes-keyexp-encrypt": "enc", "aes-keyexp-decrypt": "dec",
         "aes-ecb-encrypt": "ECB enc", "aes-ecb-decrypt": "ECB dec", "aes-cbc-encrypt": "CBC enc",
         "aes-cbc-decrypt": "CBC dec", "aes-ctr-encrypt": "CTR enc", "aes-ctr-decrypt": "CTR dec"}
COLORS = {"software-naive": "#bbbbbb", "software-table": "#999999", "hybrid": "#4477aa", "native": "#ee6677"}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return NO_MATPLOTLIB
    with open(argv[1]) as f:
        doc = json.load(f)
    rows = doc.get("rows")
    if doc.get("table") != "seed000" or not isinstance(rows, list):
        print(f"rv_seed000_chart: {argv[1]} is not `cryptaccel rv table seed000 --json` output", file=sys.stderr)
        return 2
    cell = {(r["workload_id"], r["variant"], r["xlen"]): r for r in rows}

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), gridspec_kw={"width_ratios": [1.2, 1.8, 5]})
    for ax, (title, workloads) in zip(axes, PANELS):
        present = [w for w in workloads if any(k[0] == w for k in cell)]
        if not present:
            ax.set_visible(False)
            continue
        baseline = next(r["baseline_variant"] for r in rows if r["workload_id"] == present[0])
        variants = [v for v in ("software-naive", "software-table", "hybrid", "native")
                    if v != baseline and any((w, v, 32) in cell or (w, v, 64) in cell for w in present)]
        bars = [(v, x) for v in variants for x in (32, 64)]
        width = 0.8 / len(bars)
        for i, (variant, xlen) in enumerate(bars):
            xs, ys = [], []
            for g, w in enumerate(present):
                r = cell.get((w, variant, xlen))
                if r and r.get("speedup_cycles"):
                    xs.append(g - 0.4 + width * (i + 0.5))
                    ys.append(r["speedup_cycles"])
            ax.bar(xs, ys, width, color=COLORS.get(variant, "#66ccee"), hatch="//" if xlen == 64 else None,
                   edgecolor="white", label=f"{variant} RV{xlen}")
            for x, y in zip(xs, ys):
                ax.text(x, y, f"{y:.1f}", ha="center", va="bottom", fontsize=6)
            if xlen == 32:
                px, py = [], []
                for g, w in enumerate(present):
                    r = cell.get((w, variant, 32))
                    if r and r.get("paper_speedup_cycles"):
                        px.append(g - 0.4 + width * (i + 0.5))
                        py.append(r["paper_speedup_cycles"])
                if px:
                    ax.plot(px, py, "D", color="black", markersize=5,
                            label="paper (Vortex, Table 1)" if variant == "native" else None)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.4)  # room for the legend above the bars
        ax.set_xticks(range(len(present)), [SHORT.get(w, w) for w in present], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(f"speed-up in cycles over {baseline}", fontsize=8)
        ax.legend(fontsize=6, loc="upper left")
    cfg = doc.get("simt_config", {})
    fig.suptitle("Seed 000 on cryptaccel's RISC-V simulator (one hart, modelled cycles; "
                 f"cycle model {'default' if doc.get('cycle_model_default') else 'custom'}); "
                 f"SIMT estimate in the JSON ({cfg.get('cores')}x{cfg.get('warps')}x{cfg.get('threads')})",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
