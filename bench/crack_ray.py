#!/usr/bin/env python3
"""`cryptaccel crack --ray` on one node against the plain local run of the same attack, and Ray's cost per work unit.

    PYTHONPATH=build/release/python bench/crack_ray.py --cli build/release/src/cli/cryptaccel [--repeat 3] [--words N]
        [--parts overhead,per-unit] [--out DIR]

1. Overhead: sha512crypt hashes (rounds 5000, one plain outside the keyspace, so every run is exhausted) against a
   seeded wordlist through a rule file, run alternately as `cryptaccel crack` and `cryptaccel crack --ray auto` on a
   one-node Ray cluster started here (`ray start --head`, as a cluster user has one running), whole process timed.
2. Cost per work unit: raw SHA-256 (fast, so the per-unit cost shows) through crack.run(cluster="auto") on one
   connection, once in units of ~2 ms and once in units of ~5 s: (seconds small - large) / (units small - large).
Raw output (every command, its stderr status lines) goes to DIR/raw.txt, the figures to DIR/results.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def log(raw, text: str) -> None:
    raw.write(text + "\n")
    raw.flush()
    print(text, flush=True)


def make_workload(d: Path, words: int, crypt: bool, seed: int) -> tuple[Path, Path]:
    import cryptaccel.shacrypt as shacrypt

    rng = random.Random(seed)
    ws = [f"{''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rng.randint(4, 9)))}{i}"
          for i in range(words)]
    (d / "words.txt").write_text("".join(w + "\n" for w in ws))
    plants = [ws[words // 7].upper(), ws[words // 2] + "1", ws[-3], "not-in-the-keyspace"]
    if crypt:
        lines = [f"u{i}:{shacrypt.hash(p, salt=f'salt{i}')}:19000:0:99999:7:::" for i, p in enumerate(plants)]
    else:
        lines = [hashlib.sha256(p.encode()).hexdigest() for p in plants]
    (d / "hashes.txt").write_text("".join(line + "\n" for line in lines))
    return d / "hashes.txt", d / "words.txt"


def timed_cli(raw, cli: str, args: list[str]) -> dict:
    env = {**os.environ, "CRYPTACCEL_PYTHON": sys.executable}
    began = time.perf_counter()
    proc = subprocess.run([cli, "crack", *args, "--status-json", "--status-timer", "5"], capture_output=True,
                          text=True, env=env)
    wall = time.perf_counter() - began
    log(raw, f"$ cryptaccel crack {' '.join(args)}\n# exit {proc.returncode}, {wall:.3f} s\n{proc.stdout}{proc.stderr}")
    statuses = [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]
    last = statuses[-1]
    return {"wall_s": wall, "attack_s": last["elapsed_s"], "progress": last["progress"][0], "exit": proc.returncode,
            "units": sum(w["units"] for w in last.get("workers", []))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=str(ROOT / "build/release/src/cli/cryptaccel"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--words", type=int, default=300, help="words of the sha512crypt run (x rules in the file)")
    ap.add_argument("--rules", default=str(ROOT / "rules/cryptaccel-small.rule"))
    ap.add_argument("--unit-words", type=int, default=400000, help="words of the per-unit-cost run (raw SHA-256)")
    ap.add_argument("--parts", default="overhead,per-unit", help="which measurements: overhead, per-unit")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = Path(args.out or ROOT / "bench/results" / time.strftime("%Y-%m-%d-crack-ray"))
    out.mkdir(parents=True, exist_ok=True)
    from cryptaccel import crack

    results: dict = {"machine": os.uname().nodename, "cpus": os.cpu_count(), "python": sys.version.split()[0]}
    with open(out / "raw.txt", "w") as raw, tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ray_bin = shutil.which("ray") or str(Path(sys.executable).parent / "ray")
        log(raw, f"$ {ray_bin} start --head --include-dashboard=false --disable-usage-stats")
        start = subprocess.run([ray_bin, "start", "--head", "--include-dashboard=false", "--disable-usage-stats"],
                               capture_output=True, text=True)
        log(raw, start.stdout[-400:] + start.stderr[-400:])
        try:
            parts = set(args.parts.split(","))
            # 1. whole-process overhead of --ray on one node, alternating runs
            hashes, words = make_workload(d, args.words, crypt=True, seed=1)
            runs = {"local": [], "ray": []}
            common = [str(hashes), str(words), "-r", args.rules, "--potfile-disable", "--outfile-format", "2"]
            for _ in range(args.repeat if "overhead" in parts else 0):
                runs["local"].append(timed_cli(raw, args.cli, common))
                runs["ray"].append(timed_cli(raw, args.cli, common + ["--ray", "auto", "--restore-file-path",
                                                                      str(d / "s.restore")]))
            if "overhead" in parts:
                record_overhead(raw, results, runs)

            # 2. cost per work unit: the same attack in units of ~2 ms and of ~5 s, with one connection to the
            # cluster for both (the fixed costs left: starting the worker); the difference over the difference in
            # units is what a unit costs
            hashes, words = make_workload(d, args.unit_words, crypt=False, seed=2)
            per = []
            if "per-unit" in parts:
                import ray

                ray.init(address="auto", logging_level="ERROR", log_to_driver=False)
            for _ in range(args.repeat if "per-unit" in parts else 0):
                timings = {}
                for name, seconds in (("small", 0.002), ("large", 5.0)):
                    t = time.perf_counter()
                    r = crack.run(hashes, words, mode="sha256", rules=[":", "u", "$1"], cluster="auto",
                                  unit_seconds=seconds)
                    timings[name] = (time.perf_counter() - t, sum(w["units"] for w in r.status["workers"]))
                (t_small, u_small), (t_large, u_large) = timings["small"], timings["large"]
                per.append({"small_units_s": t_small, "small_units": u_small, "large_units_s": t_large,
                            "large_units": u_large, "per_unit_ms": 1000 * (t_small - t_large) / (u_small - u_large)})
                log(raw, f"# per unit: {u_small} units {t_small:.3f} s, {u_large} units {t_large:.3f} s: "
                         f"{per[-1]['per_unit_ms']:.2f} ms per unit")
            if per:
                results["per_unit"] = {"runs": per, "median_ms": statistics.median(p["per_unit_ms"] for p in per)}
        finally:
            subprocess.run([ray_bin, "stop", "--force"], capture_output=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results.get("per_unit", {}), indent=1))
    print(json.dumps({k: v for k, v in results.get("overhead", {}).items() if k != "runs"}, indent=1))
    return 0


def record_overhead(raw, results: dict, runs: dict) -> None:
    """Medians of the alternating runs, and the ratios --ray / local."""
    med = {k: statistics.median(r["wall_s"] for r in v) for k, v in runs.items()}
    att = {k: statistics.median(r["attack_s"] for r in v) for k, v in runs.items()}
    results["overhead"] = {"runs": runs, "median_wall_s": med, "median_attack_s": att,
                           "wall_ratio_ray_over_local": med["ray"] / med["local"],
                           "attack_ratio_ray_over_local": att["ray"] / att["local"]}
    log(raw, f"# overhead: whole process local {med['local']:.2f} s, --ray {med['ray']:.2f} s "
             f"(x{med['ray'] / med['local']:.3f}); attack local {att['local']:.2f} s, --ray {att['ray']:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
