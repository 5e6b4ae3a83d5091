"""Differential tests: cryptaccel against pyca/cryptography (which bundles OpenSSL) on random inputs.

Each parametrised case draws its keys, IVs, AAD, tag lengths and a handful of message lengths (0 .. 100000 bytes) from
``random.Random(seed)``; the seed is part of the test id (``...-seed<N>``), so a failure reproduces with the same id.
CRYPTACCEL_TEST_SEED changes the base seed. Nothing is compared with hard-coded outputs: the expected bytes always come
from cryptography (or, for the GCM nonce lengths cryptography refuses, from a small GCM written here on top of
cryptography's raw block cipher).
"""

from __future__ import annotations

import os
import random
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import pytest

import cryptaccel

crypto = pytest.importorskip("cryptography", reason="pyca/cryptography is needed for the differential tests")
from cryptography.exceptions import InvalidTag  # noqa: E402
from cryptography.hazmat.primitives import padding as sym_padding  # noqa: E402
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305  # noqa: E402

from conftest import skip_unless_supported  # noqa: E402

BASE_SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "20250101"))
MAX_LEN = 100_000


# --- the oracle -----------------------------------------------------------------------------------------------------

def _block_cipher(name: str, key: bytes):
    return algorithms.SM4(key) if name.startswith("sm4") else algorithms.AES(key)


def _pkcs7_pad(data: bytes) -> bytes:
    p = sym_padding.PKCS7(128).padder()
    return p.update(data) + p.finalize()


def _pkcs7_unpad(data: bytes) -> Optional[bytes]:
    """cryptography's unpadding; None when it rejects the padding."""
    u = sym_padding.PKCS7(128).unpadder()
    try:
        return u.update(data) + u.finalize()
    except ValueError:
        return None


def _raw(name: str, key: bytes, mode, data: bytes, decrypt: bool = False) -> bytes:
    c = Cipher(_block_cipher(name, key), mode)
    ctx = c.decryptor() if decrypt else c.encryptor()
    return ctx.update(data) + ctx.finalize()


def _xts_tweak_add(iv: bytes, i: int) -> bytes:
    return ((int.from_bytes(iv, "little") + i) % (1 << 128)).to_bytes(16, "little")


def oracle_encrypt(name: str, key: bytes, iv: bytes, pt: bytes, *, aad: bytes = b"", tag_len: int = 16,
                   padding: bool = True, xts_unit: int = 0) -> bytes:
    """What cryptaccel.encrypt must return, computed with cryptography."""
    mode = name.rsplit("-", 1)[1]
    if mode == "poly1305":
        return ChaCha20Poly1305(key).encrypt(iv, pt, aad)
    if mode == "ecb":
        return _raw(name, key, modes.ECB(), _pkcs7_pad(pt) if padding else pt)
    if mode == "cbc":
        return _raw(name, key, modes.CBC(iv), _pkcs7_pad(pt) if padding else pt)
    if mode == "ctr":
        return _raw(name, key, modes.CTR(iv), pt)
    if mode == "gcm":
        if not 8 <= len(iv) <= 128:
            return PyGcm(name, key).encrypt(iv, pt, aad, tag_len)
        enc = Cipher(_block_cipher(name, key), modes.GCM(iv)).encryptor()
        enc.authenticate_additional_data(aad)
        ct = enc.update(pt) + enc.finalize()
        return ct + enc.tag[:tag_len]
    if mode == "xts":
        unit = xts_unit or len(pt)
        chunks = [pt[i:i + unit] for i in range(0, len(pt), unit)]
        return b"".join(_raw(name, key, modes.XTS(_xts_tweak_add(iv, i)), c) for i, c in enumerate(chunks))
    raise AssertionError(f"no oracle for {name}")


class PyGcm:
    """GCM (NIST SP 800-38D) in Python over cryptography's raw block cipher, for the nonce lengths 1..7 that
    cryptography refuses. Slow; used on short messages only."""

    R = 0xE1 << 120

    def __init__(self, name: str, key: bytes) -> None:
        self._ecb = Cipher(_block_cipher(name, key), modes.ECB())
        self._h = int.from_bytes(self._block(bytes(16)), "big")

    def _block(self, b: bytes) -> bytes:
        e = self._ecb.encryptor()
        return e.update(b) + e.finalize()

    def _mul(self, x: int) -> int:  # x * H in GF(2^128), bit-reflected convention of GCM
        z, v = 0, self._h
        for i in range(127, -1, -1):
            if (x >> i) & 1:
                z ^= v
            v = (v >> 1) ^ self.R if v & 1 else v >> 1
        return z

    def _ghash(self, data: bytes) -> int:
        y = 0
        for i in range(0, len(data), 16):
            y = self._mul(y ^ int.from_bytes(data[i:i + 16], "big"))
        return y

    @staticmethod
    def _pad16(b: bytes) -> bytes:
        return b + bytes(-len(b) % 16)

    def encrypt(self, iv: bytes, pt: bytes, aad: bytes, tag_len: int) -> bytes:
        if len(iv) == 12:
            j0 = iv + b"\x00\x00\x00\x01"
        else:
            j0 = self._ghash(self._pad16(iv) + bytes(8) + (len(iv) * 8).to_bytes(8, "big")).to_bytes(16, "big")
        prefix, ctr = j0[:12], int.from_bytes(j0[12:], "big")
        stream = b"".join(self._block(prefix + ((ctr + 1 + i) % (1 << 32)).to_bytes(4, "big"))
                          for i in range((len(pt) + 15) // 16))
        ct = bytes(a ^ b for a, b in zip(pt, stream))
        s = self._ghash(self._pad16(aad) + self._pad16(ct) + (len(aad) * 8).to_bytes(8, "big")
                        + (len(ct) * 8).to_bytes(8, "big"))
        tag = (s ^ int.from_bytes(self._block(j0), "big")).to_bytes(16, "big")
        return ct + tag[:tag_len]


# --- cases ----------------------------------------------------------------------------------------------------------

@dataclass
class Case:
    cipher: str
    padding: bool = True
    seed: int = 0
    id: str = ""


def _make_cases() -> List[Case]:
    names = []
    for bc in ("aes-128", "aes-192", "aes-256", "sm4"):
        for mode in ("ecb", "cbc", "ctr", "gcm"):
            names.append(f"{bc}-{mode}")
    names += ["aes-128-xts", "aes-256-xts", "chacha20-poly1305"]
    cases = []
    for name in names:
        variants = [True, False] if name.endswith(("-ecb", "-cbc")) else [True]
        for pad in variants:
            label = name + ("" if name.endswith(("-ctr", "-gcm", "-xts", "-poly1305")) else ("-pad" if pad else "-nopad"))
            seed = BASE_SEED + zlib.crc32(label.encode()) % 100_000
            cases.append(Case(name, pad, seed, f"{label}-seed{seed}"))
    return cases


CASES = _make_cases()
COVERED = {c.cipher for c in CASES}


def test_every_cipher_is_covered():
    """A cipher added to the library must get differential coverage here."""
    assert set(cryptaccel.cipher_names()) == COVERED


def _key_size(name: str) -> int:
    if name.startswith("sm4"):
        return 16
    if name.startswith("chacha20"):
        return 32
    n = int(name.split("-")[1]) // 8
    return 2 * n if name.endswith("xts") else n


@dataclass
class Job:
    key: bytes
    iv: bytes
    pt: bytes
    aad: bytes = b""
    tag_len: int = 16
    kw: Dict[str, object] = field(default_factory=dict)

    def describe(self) -> str:
        return (f"len={len(self.pt)} key={self.key.hex()} iv={self.iv.hex()} aad_len={len(self.aad)} "
                f"tag_len={self.tag_len}")


def _lengths(case: Case, rng: random.Random) -> List[int]:
    mode = case.cipher.rsplit("-", 1)[1]
    lens = [0, 1, 15, 16, 17, 64, rng.randrange(1, 512), rng.randrange(512, 8192), rng.randrange(8192, MAX_LEN + 1)]
    if mode in ("gcm", "poly1305"):
        lens = lens[:6] + [rng.randrange(1, 512), rng.randrange(512, 8192), rng.randrange(8192, MAX_LEN // 2)]
    if mode in ("ecb", "cbc") and not case.padding:
        lens = [n - n % 16 for n in lens]
    if mode == "xts":
        lens = [max(n, 16) for n in lens] + [MAX_LEN]
    return sorted(set(lens))


def _iv(case: Case, rng: random.Random, i: int) -> bytes:
    mode = case.cipher.rsplit("-", 1)[1]
    if mode == "ecb":
        return b""
    if mode == "poly1305":
        return rng.randbytes(12)
    if mode == "gcm":
        # 12 bytes (the common case) on every other job; otherwise a random length that cryptography accepts.
        return rng.randbytes(12 if i % 2 == 0 else rng.randrange(8, 65))
    if mode == "ctr" and i % 3 == 1:
        # Counter blocks about to carry out of the low 64 bits, or to wrap around 2^128.
        return rng.randbytes(8) + b"\xff" * 7 + bytes([rng.randrange(0xF0, 0x100)]) if i % 2 else b"\xff" * 16
    return rng.randbytes(16)


def _jobs(case: Case) -> List[Job]:
    rng = random.Random(case.seed)
    mode = case.cipher.rsplit("-", 1)[1]
    jobs = []
    for i, n in enumerate(_lengths(case, rng)):
        key = rng.randbytes(_key_size(case.cipher))
        if mode == "xts" and key[: len(key) // 2] == key[len(key) // 2:]:
            key = key[:-1] + bytes([key[-1] ^ 1])
        job = Job(key, _iv(case, rng, i), rng.randbytes(n))
        if mode in ("gcm", "poly1305"):
            job.aad = rng.randbytes(rng.choice([0, rng.randrange(1, 64), rng.randrange(64, 2048)]))
            job.tag_len = 16 if i % 2 == 0 or mode == "poly1305" else rng.randrange(4, 17)
        jobs.append(job)
    return jobs


def _kw(case: Case, job: Job) -> dict:
    return dict(aad=job.aad, tag_len=job.tag_len, padding=case.padding)


def _first_diff(a: bytes, b: bytes) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at byte {i} (of {len(a)} / {len(b)})"
    return f"lengths differ: {len(a)} vs {len(b)}"


# --- tests ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_matches_cryptography(case: Case, engine: str):
    """encrypt == cryptography's encryption, decrypt inverts it, and (GCM) any flipped bit is rejected."""
    skip_unless_supported(engine, case.cipher)
    rng = random.Random(case.seed ^ 0x5EED)
    for job in _jobs(case):
        expected = oracle_encrypt(case.cipher, job.key, job.iv, job.pt, **_kw(case, job))
        got = cryptaccel.encrypt(case.cipher, job.key, job.pt, job.iv, engine=engine, **_kw(case, job))
        assert got == expected, f"{case.id} encrypt {job.describe()}: {_first_diff(got, expected)}"
        back = cryptaccel.decrypt(case.cipher, job.key, got, job.iv, engine=engine, **_kw(case, job))
        assert back == job.pt, f"{case.id} decrypt {job.describe()}: {_first_diff(back, job.pt)}"
        if case.cipher.endswith(("gcm", "poly1305")):
            bad = bytearray(got)
            pos = rng.randrange(len(bad))
            bad[pos] ^= 1 << rng.randrange(8)
            with pytest.raises(cryptaccel.AuthenticationFailed):
                cryptaccel.decrypt(case.cipher, job.key, bad, job.iv, engine=engine, **_kw(case, job))
            if job.aad:
                with pytest.raises(cryptaccel.AuthenticationFailed):
                    cryptaccel.decrypt(case.cipher, job.key, got, job.iv, engine=engine,
                                       **dict(_kw(case, job), aad=job.aad[:-1]))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_batch_equals_one_by_one(case: Case, engine: str):
    """encrypt_many / decrypt_many give exactly what encrypt / decrypt give, job by job."""
    skip_unless_supported(engine, case.cipher)
    jobs = _jobs(case)
    if case.cipher.endswith("gcm"):
        # One tag length per batch; AAD per job.
        tag_len = jobs[-1].tag_len
        for j in jobs:
            j.tag_len = tag_len
    kw = dict(tag_len=jobs[0].tag_len, padding=case.padding, engine=engine)
    aads = [j.aad for j in jobs]
    one_by_one = [cryptaccel.encrypt(case.cipher, j.key, j.pt, j.iv, aad=j.aad, **kw) for j in jobs]
    many, used = cryptaccel.encrypt_many(case.cipher, [j.key for j in jobs], [j.iv for j in jobs],
                                         [j.pt for j in jobs], aads=aads, return_engine=True, **kw)
    assert used == engine
    for i, (a, b) in enumerate(zip(many, one_by_one)):
        assert a == b, f"{case.id} job {i} ({jobs[i].describe()}): {_first_diff(a, b)}"
    assert len(many) == len(jobs)
    back = cryptaccel.decrypt_many(case.cipher, [j.key for j in jobs], [j.iv for j in jobs], many, aads=aads, **kw)
    assert back == [j.pt for j in jobs]
    if case.cipher.endswith(("gcm", "poly1305")) and len(jobs) > 2:
        # One forged job fails alone: None for it, plaintext for the others.
        forged = list(many)
        forged[1] = forged[1][:-1] + bytes([forged[1][-1] ^ 0x80])
        back = cryptaccel.decrypt_many(case.cipher, [j.key for j in jobs], [j.iv for j in jobs], forged, aads=aads,
                                       **kw)
        assert back[1] is None
        assert back[:1] + back[2:] == [j.pt for j in jobs][:1] + [j.pt for j in jobs][2:]


GCM_SHORT_IV_CIPHERS = ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "sm4-gcm"]


@pytest.mark.parametrize("cipher", GCM_SHORT_IV_CIPHERS)
def test_gcm_short_nonces(cipher: str, engine: str):
    """Nonces of 1..7 bytes (GHASHed into J0), which cryptography refuses: compared with the Python GCM above,
    itself first checked against cryptography on an 8-byte nonce so that the oracle is known to be right."""
    skip_unless_supported(engine, cipher)
    seed = BASE_SEED + zlib.crc32(cipher.encode()) % 100_000
    rng = random.Random(seed)
    key = rng.randbytes(_key_size(cipher))
    py = PyGcm(cipher, key)
    iv8, pt, aad = rng.randbytes(8), rng.randbytes(100), rng.randbytes(20)
    assert py.encrypt(iv8, pt, aad, 16) == oracle_encrypt(cipher, key, iv8, pt, aad=aad), "PyGcm oracle is wrong"
    for n in range(1, 8):
        iv, pt, aad = rng.randbytes(n), rng.randbytes(rng.randrange(0, 300)), rng.randbytes(rng.randrange(0, 40))
        tag_len = rng.randrange(4, 17)
        expected = py.encrypt(iv, pt, aad, tag_len)
        got = cryptaccel.encrypt(cipher, key, pt, iv, aad=aad, tag_len=tag_len, engine=engine)
        assert got == expected, f"{cipher} seed={seed} iv={iv.hex()}: {_first_diff(got, expected)}"
        assert cryptaccel.decrypt(cipher, key, got, iv, aad=aad, tag_len=tag_len, engine=engine) == pt


@pytest.mark.parametrize("cipher", GCM_SHORT_IV_CIPHERS)
def test_gcm_output_verifies_in_cryptography(cipher: str, engine: str):
    """cryptaccel's truncated GCM tags are accepted by OpenSSL's decryption (min_tag_length=4)."""
    skip_unless_supported(engine, cipher)
    rng = random.Random(BASE_SEED + 7 + zlib.crc32(cipher.encode()) % 100_000)
    key = rng.randbytes(_key_size(cipher))
    for tag_len in (4, 8, 12, 13, 16):
        iv, pt, aad = rng.randbytes(12), rng.randbytes(rng.randrange(0, 2000)), rng.randbytes(13)
        sealed = cryptaccel.encrypt(cipher, key, pt, iv, aad=aad, tag_len=tag_len, engine=engine)
        ct, tag = sealed[:-tag_len], sealed[-tag_len:]
        dec = Cipher(_block_cipher(cipher, key), modes.GCM(iv, tag, min_tag_length=4)).decryptor()
        dec.authenticate_additional_data(aad)
        try:
            assert dec.update(ct) + dec.finalize() == pt
        except InvalidTag:
            pytest.fail(f"{cipher} tag_len={tag_len}: cryptography rejected cryptaccel's tag")


XTS_UNIT_CASES = [("aes-128-xts", 16), ("aes-128-xts", 512), ("aes-256-xts", 32), ("aes-256-xts", 4096)]


@pytest.mark.parametrize("cipher,unit", XTS_UNIT_CASES, ids=[f"{c}-unit{u}" for c, u in XTS_UNIT_CASES])
def test_xts_data_units(cipher: str, unit: int, engine: str):
    """xts_unit splits the message into data units with consecutive tweaks (iv + i mod 2^128, little-endian); the
    expected bytes are cryptography's XTS on each unit. Includes a tweak that wraps around 2^128."""
    skip_unless_supported(engine, cipher)
    seed = BASE_SEED + zlib.crc32(f"{cipher}/{unit}".encode()) % 100_000
    rng = random.Random(seed)
    key = rng.randbytes(_key_size(cipher))
    tweaks = [rng.randbytes(16), b"\xfe" + b"\xff" * 15, bytes(16)]
    tails = [0, 16, unit - 1 if unit > 32 else 0, rng.randrange(16, unit) if unit > 16 else 0]
    for tweak in tweaks:
        for tail in tails:
            n_units = rng.randrange(1, min(64, max(2, 40000 // unit)))
            pt = rng.randbytes(n_units * unit + tail)
            expected = oracle_encrypt(cipher, key, tweak, pt, xts_unit=unit)
            got = cryptaccel.encrypt(cipher, key, pt, tweak, xts_unit=unit, engine=engine)
            what = f"{cipher} seed={seed} unit={unit} len={len(pt)} tweak={tweak.hex()}"
            assert got == expected, f"{what}: {_first_diff(got, expected)}"
            assert cryptaccel.decrypt(cipher, key, got, tweak, xts_unit=unit, engine=engine) == pt, what


PAD_CIPHERS = ["aes-128-cbc", "aes-256-ecb", "sm4-cbc", "sm4-ecb"]


def _pad_probe_blocks(rng: random.Random) -> List[Tuple[str, bytes]]:
    """Last plaintext blocks with valid and invalid PKCS#7 padding."""
    out = []
    for k in (1, 2, 7, 15, 16):
        out.append((f"valid pad {k}", rng.randbytes(16 - k) + bytes([k]) * k))
    out.append(("pad byte 0", rng.randbytes(15) + b"\x00"))
    out.append(("pad byte 17", rng.randbytes(15) + b"\x11"))
    out.append(("pad byte 0xff", rng.randbytes(15) + b"\xff"))
    out.append(("inconsistent pad 4", rng.randbytes(12) + b"\x04\x05\x04\x04"))
    out.append(("inconsistent pad 16", b"\x0f" + b"\x10" * 15))
    return out


@pytest.mark.parametrize("cipher", PAD_CIPHERS)
def test_padding_check_matches_cryptography(cipher: str, engine: str):
    """Decrypting with padding=True accepts exactly what cryptography's PKCS7 unpadder accepts (BadDecrypt otherwise),
    and returns the same bytes."""
    skip_unless_supported(engine, cipher)
    seed = BASE_SEED + zlib.crc32(cipher.encode()) % 100_000
    rng = random.Random(seed)
    key = rng.randbytes(_key_size(cipher))
    iv = b"" if cipher.endswith("ecb") else rng.randbytes(16)
    for label, last in _pad_probe_blocks(rng):
        for nblocks_before in (0, 3):
            raw_pt = rng.randbytes(16 * nblocks_before) + last
            ct = oracle_encrypt(cipher, key, iv, raw_pt, padding=False)
            want = _pkcs7_unpad(raw_pt)
            if want is None:
                with pytest.raises(cryptaccel.BadDecrypt):
                    cryptaccel.decrypt(cipher, key, ct, iv, engine=engine)
            else:
                assert cryptaccel.decrypt(cipher, key, ct, iv, engine=engine) == want, f"{cipher} {label}"
    # Ciphertext lengths that are not a block multiple, or empty, cannot be padded data.
    for n in (0, 15, 17):
        with pytest.raises(cryptaccel.BadDecrypt):
            cryptaccel.decrypt(cipher, key, rng.randbytes(n), iv, engine=engine)
