"""Tests of the Keccak kernels with seed 004's custom vector instructions (variants xkeccak*, issue 11).

Spike and QEMU cannot run the custom instructions, so these kernels are checked on cryptaccel's simulator only:
- `rv run keccak-f1600 --check` (output = the ref engine's batch Keccak-p) for every custom and ablation variant at
  SN = 1, 3 and 6 (VLEN 320/960/1920 for 64-bit lanes, 160/480/960 for 32-bit ones) and at one power-of-two VLEN
  (rows with padding elements), with 2*SN + 1 states (a last pass with one state) and 1 or 24 rounds;
- the sponge kernels (sha3-256, shake128) of the three custom variants through `rv exec`, against hashlib;
- the instructions per round, by mnemonic, from the region counts of 24 and 12 rounds on one pass, against the hand
  counts below, which are also the ones written in the kernels' header comments (rv/kernels/keccak/keccak_x64.h,
  keccak_x32.h: checked here too, so the comment cannot go stale).

Skips, visibly: no CRYPTACCEL_CLI; no manifest or no xkeccak kernels; a simulator that cannot run xkeccak yet (the
skip message is the simulator's stop message).
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import struct
import subprocess
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from rv_cli_env import MANIFEST_PATH, SEED, load_manifest, require_cli

CLI = require_cli()

TIMEOUT = 300
MANIFEST: Optional[dict] = load_manifest()
VARIANTS: Dict[str, dict] = MANIFEST["variants"] if MANIFEST else {}
KERNEL_DIR = Path(__file__).resolve().parents[2] / "rv" / "kernels" / "keccak"


def _custom(e: dict) -> bool:
    return "xkeccak" in VARIANTS.get(e["variant"], {}).get("sim_extensions", [])


XK: List[dict] = [e for e in MANIFEST["entries"] if _custom(e) and Path(e["elf"]).is_file()] if MANIFEST else []
PERMUTATIONS = [e for e in XK if e["kernel"] == "keccak-f1600"]
SPONGES = [e for e in XK if e["kernel"] in ("sha3-256", "shake128")]

# VLENs giving SN = 1, 3, 6 (EleNum = 5*SN, the seed's configurations), then a power of two with padding elements.
VLENS = {64: (320, 960, 1920, 1024), 32: (160, 480, 960, 512)}


def states_per_pass(xlen: int, vlen: int) -> int:
    return vlen // xlen // 5  # ELEN = XLEN in these variants: zve64x on RV64, zve32x on RV32


def entry_id(e: dict) -> str:
    return f"{e['kernel']}-{e['variant']}-rv{e['xlen']}"


def cli(*args) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if MANIFEST_PATH:
        env["CRYPTACCEL_RV_MANIFEST"] = MANIFEST_PATH
    return subprocess.run([CLI, "rv", *map(str, args)], capture_output=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, env=env)


def run_json(e: dict, vlen: int, *args) -> dict:
    proc = cli("run", e["kernel"], "--variant", e["variant"], "--xlen", e["xlen"], "--vlen", vlen, *args,
               "--check", "--json", "--seed", SEED)
    try:
        run = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"{entry_id(e)} VLEN {vlen} {args}: exit {proc.returncode}, "
                             f"{proc.stderr.decode(errors='replace')[-400:]}")
    return run


@pytest.fixture(scope="module")
def xkeccak_sim() -> None:
    """Skips (with the simulator's message) while the simulator cannot run the custom instructions."""
    if not PERMUTATIONS:
        pytest.skip("no xkeccak kernels built (CRYPTACCEL_RV_MANIFEST unset, or clang-19/ld.lld-19 missing)")
    e = next(x for x in PERMUTATIONS if x["variant"] == "xkeccak64-lmul8")
    proc = cli("run", e["kernel"], "--variant", e["variant"], "--xlen", 64, "--vlen", 320, "--states", 1,
               "--rounds", 1, "--json", "--seed", 1)
    if proc.returncode != 0:
        try:
            run = json.loads(proc.stdout)
            why = "; ".join(run.get("problems") or []) or run.get("stop", "")
        except json.JSONDecodeError:
            why = proc.stderr.decode(errors="replace").strip()
        if "xkeccak" in why or "illegal" in why or "unsupported" in why or "vlen" in why.lower():
            pytest.skip(f"the simulator cannot run xkeccak kernels yet: {why}")


# --- output = ref engine's Keccak-p -------------------------------------------------------------------------------

def _permutation_cases() -> List:
    cases = []
    for e in PERMUTATIONS:
        for vlen in VLENS[e["xlen"]]:
            sn = states_per_pass(e["xlen"], vlen)
            for rounds in (1, 24):
                cases.append(pytest.param(e, vlen, 2 * sn + 1, rounds,
                                          id=f"{entry_id(e)}-vlen{vlen}-states{2 * sn + 1}-rounds{rounds}"))
    return cases


@pytest.mark.parametrize("entry,vlen,states,rounds", _permutation_cases())
def test_permutation_equals_ref(xkeccak_sim, entry, vlen, states, rounds):
    run = run_json(entry, vlen, "--states", states, "--rounds", rounds)
    assert run["ok"] and run["check"] == "equal", (run["check"], run["problems"])
    assert run["vlen"] == vlen and run["kernel_instret"] == run["region"]["instret"]
    custom = {m for m in run["region"]["by_mnemonic"] if m in CUSTOM}
    assert custom, f"{entry_id(entry)} ran no custom instruction: {sorted(run['region']['by_mnemonic'])}"


# --- sponges against hashlib ----------------------------------------------------------------------------------------

def _sponge_cases() -> List:
    cases = []
    for e in SPONGES:
        vlen = VLENS[e["xlen"]][1]  # SN = 3: the sponge uses state 0 of a pass
        if e["kernel"] == "sha3-256":
            runs = [(n, 32) for n in (0, 135, 136, 137, 300)]
        else:
            runs = [(0, 32), (167, 200), (168, 32), (500, 337)]
        for n, outlen in runs:
            cases.append(pytest.param(e, vlen, n, outlen, id=f"{entry_id(e)}-vlen{vlen}-{n}-{outlen}"))
    return cases


@pytest.mark.parametrize("entry,vlen,length,outlen", _sponge_cases())
def test_sponge_equals_hashlib(xkeccak_sim, tmp_path, entry, vlen, length, outlen):
    msg = random.Random(SEED ^ length).randbytes(length)
    if entry["kernel"] == "sha3-256":
        data, want = struct.pack("<I", length) + msg, hashlib.sha3_256(msg).digest()
    else:
        data, want = struct.pack("<II", length, outlen) + msg, hashlib.shake_128(msg).digest(outlen)
    stdin = tmp_path / "in.bin"
    stdin.write_bytes(data)
    proc = cli("exec", entry["elf"], "--isa", entry["isa"], "--vlen", vlen, "--stdin", stdin)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-400:]
    assert proc.stdout == want, f"{entry_id(entry)} VLEN {vlen}, {length} bytes (seed {SEED})"
    assert re.search(rb"instret \d+\n", proc.stderr)


# --- instructions per round: hand counts ----------------------------------------------------------------------------

CUSTOM = {"vslidedownm.vi", "vslideupm.vi", "vrotup.vi", "v64rho.vi", "vpi.vi", "viota.vx", "v32lrotup.vi",
          "v32hrotup.vi", "v32lrho.vi", "v32hrho.vi"}

# xkeccak64-lmul1, all at LMUL 1 (one instruction per row where a step works row by row):
#   theta: 4 vxor.vv for the column parity B, vslideupm(B,1), vslidedownm(B,1), vrotup(.,1), 1 vxor.vv for C,
#          5 vxor.vv for A_y ^= C                                        -> vxor.vv 10, vslide*m 2, vrotup 1
#   rho: 5 v64rho.vi (simm = y); pi: 5 vpi.vi (simm = y)
#   chi, per row: vslidedownm 1 and 2, vnot.v (= vxor.vi -1), vand.vv, vxor.vv -> x5
#   iota: viota.vx on row 0; loop: addi (round number), bne
LMUL1 = {"vxor.vv": 10 + 5, "vslidedownm.vi": 1 + 2 * 5, "vslideupm.vi": 1, "vrotup.vi": 1, "v64rho.vi": 5,
         "vpi.vi": 5, "vxor.vi": 5, "vand.vv": 5, "viota.vx": 1, "addi": 1, "bne": 1}
# xkeccak64-lmul8: theta as above at LMUL 1; vsetvli to LMUL 8 (vl = 5*EleNum); v64rho.vi -1 and vpi.vi -1 on the
# group (lmul_cnt); chi once on the group (2 vslidedownm, vnot, vand, vxor); vsetvli back to LMUL 1; viota; addi, bne.
LMUL8 = {"vxor.vv": 10 + 1, "vslidedownm.vi": 1 + 2, "vslideupm.vi": 1, "vrotup.vi": 1, "v64rho.vi": 1,
         "vpi.vi": 1, "vxor.vi": 1, "vand.vv": 1, "viota.vx": 1, "vsetvli": 2, "addi": 1, "bne": 1}
# xkeccak32-lmul8, E and O halves: theta 8 vxor.vv (two parities), 2 vslideupm + 2 vslidedownm, v32lrotup +
# v32hrotup, 2 vxor.vv (CE, CO), 10 vxor.vv (ten rows); vsetvli; v32lrho -1, v32hrho -1; vpi -1 per half; chi per
# half (2 vslidedownm, vnot, vand, vxor); vsetvli; viota per half; addi x2 (round, round + 32), bne.
X32 = {"vxor.vv": 8 + 2 + 10 + 2, "vslidedownm.vi": 2 + 4, "vslideupm.vi": 2, "v32lrotup.vi": 1, "v32hrotup.vi": 1,
       "v32lrho.vi": 1, "v32hrho.vi": 1, "vpi.vi": 2, "vxor.vi": 2, "vand.vv": 2, "viota.vx": 2, "vsetvli": 2,
       "addi": 2, "bne": 1}


def swap(base: Dict[str, int], gone: List[str], new: Dict[str, int]) -> Dict[str, int]:
    """The base count with the mnemonics `gone` removed and `new` added (an ablation's one-for-one replacement)."""
    out = {k: v for k, v in base.items() if k not in gone}
    for k, v in new.items():
        out[k] = out.get(k, 0) + v
    return out


def ablations(base: Dict[str, int]) -> Dict[str, Dict[str, int]]:
    return {
        "no-vrotup": swap(base, ["vrotup.vi"], {"vror.vi": 1}),  # vror.vi by 63 (Zvkb)
        "no-v64rho": swap(base, ["v64rho.vi"], {"vror.vv": base["v64rho.vi"]}),  # amounts prepared per VLEN
        "no-vslidem": swap(base, ["vslidedownm.vi", "vslideupm.vi"],  # index vectors prepared per VLEN
                           {"vrgatherei16.vv": base["vslidedownm.vi"] + base["vslideupm.vi"]}),
        "no-vpi": swap(base, ["vpi.vi"], {"vrgatherei16.vv": 1}),  # one gather across the group (LMUL 8 only)
        "no-viota": swap(base, ["viota.vx"], {"vxor.vx": 1, "ld": 1}),  # ld RC[r]; vxor.vx masked by x = 0 lanes
        "vandn": swap(base, ["vxor.vi", "vand.vv"], {"vandn.vv": base["vand.vv"]}),  # chi's ~a & b in one (Zvkb)
    }


EXPECTED: Dict[str, Dict[str, int]] = {"xkeccak64-lmul1": LMUL1, "xkeccak64-lmul8": LMUL8, "xkeccak32-lmul8": X32}
for _base, _counts in (("xkeccak64-lmul1", LMUL1), ("xkeccak64-lmul8", LMUL8)):
    for _name, _c in ablations(_counts).items():
        EXPECTED[f"{_base}-{_name}"] = _c
del EXPECTED["xkeccak64-lmul1-no-vpi"]


def test_hand_counts_match_the_kernel_comments():
    """The header comments state the counts per round ("count per round (VARIANT): mnemonic N, ..."): they must be
    the ones this test checks the simulator's counts against."""
    text = (KERNEL_DIR / "keccak_x64.h").read_text() + (KERNEL_DIR / "keccak_x32.h").read_text()
    stated = {}
    for m in re.finditer(r"count per round \(([\w-]+)\): ((?:[\w.]+ \d+,?\s*(?:\*\s*)?)+)", text):
        stated[m.group(1)] = {k: int(v) for k, v in re.findall(r"([\w.]+) (\d+)", m.group(2))}
    assert set(stated) == {"xkeccak64-lmul1", "xkeccak64-lmul8", "xkeccak32-lmul8"}, sorted(stated)
    for variant, counts in stated.items():
        assert counts == EXPECTED[variant], variant


def test_every_custom_variant_has_a_hand_count():
    assert {e["variant"] for e in PERMUTATIONS} <= set(EXPECTED)


def _round_cases() -> List:
    return [pytest.param(e, id=entry_id(e)) for e in PERMUTATIONS]


@pytest.mark.parametrize("entry", _round_cases())
def test_instructions_per_round(xkeccak_sim, entry):
    """(count at 24 rounds - count at 12 rounds) / 12, on one pass of SN states, by mnemonic, equals the hand count;
    the difference is exactly 12 rounds (no per-round cost outside the loop)."""
    vlen = VLENS[entry["xlen"]][1]
    sn = states_per_pass(entry["xlen"], vlen)
    runs = {r: run_json(entry, vlen, "--states", sn, "--rounds", r) for r in (12, 24)}
    for r, run in runs.items():
        assert run["ok"] and run["check"] == "equal", (r, run["problems"])
    m24, m12 = (runs[r]["region"]["by_mnemonic"] for r in (24, 12))
    diff = {k: m24.get(k, 0) - m12.get(k, 0) for k in set(m24) | set(m12)}
    per_round = {k: v // 12 for k, v in diff.items() if v}
    assert all(v % 12 == 0 for v in diff.values()), diff
    assert per_round == EXPECTED[entry["variant"]], entry["variant"]
    total = sum(EXPECTED[entry["variant"]].values())
    assert runs[24]["region"]["instret"] - runs[12]["region"]["instret"] == 12 * total


@pytest.mark.parametrize("xlen,vlen", [(64, 256), (32, 128)])
def test_vlen_without_a_whole_state_is_refused(xkeccak_sim, xlen, vlen):
    """A VLEN below 5*SEW holds no state: the kernel exits with status 6 and says why (no wrong output)."""
    e = next(x for x in PERMUTATIONS if x["xlen"] == xlen and x["variant"].endswith("lmul8"))
    proc = cli("run", e["kernel"], "--variant", e["variant"], "--xlen", xlen, "--vlen", vlen, "--states", 1, "--check")
    assert proc.returncode != 0
    assert b"status 6" in proc.stderr and b"VLEN too small" in proc.stderr, proc.stderr
