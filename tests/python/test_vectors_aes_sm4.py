"""Known-answer tests from the PyPI package cryptography_vectors (NIST CAVP and RFC/draft vectors).

Every expected output comes from a vector file. Each test runs one whole file on one engine, checks every record in
both directions (encrypt(PT) == CT and decrypt(CT) == PT; GCM FAIL records must raise AuthenticationFailed), and
reports all mismatches at once.

Files covered (paths under cryptography_vectors/ciphers/):
  AES/ECB, AES/CBC   {GFSbox,KeySbox,VarKey,VarTxt,MMT}{128,192,256}.rsp   ENCRYPT and DECRYPT, padding=False
  AES/GCM            gcmEncryptExtIV{128,192,256}.rsp, gcmDecrypt{128,192,256}.rsp (incl. FAIL records)
  AES/XTS            tweak-128hexstr/ and tweak-dataunitseqno/ XTSGenAES{128,256}.rsp
  AES/CTR            aes-{128,192,256}-ctr.txt (RFC 3686)
  SM4                draft-ribose-cfrg-sm4-10-{ecb,cbc,ctr}.txt, rfc8998.txt (SM4-GCM)
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, List

import pytest

import cryptaccel
from conftest import cryptography_vectors_ciphers_dir, skip_or_fail, skip_unless_supported
from nist_rsp import Record, parse_file

MAX_REPORTED = 12


ECB_CBC_FILES = [
    f"AES/{mode}/{mode}{kind}{bits}.rsp"
    for mode in ("ECB", "CBC")
    for kind in ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")
    for bits in (128, 192, 256)
]
GCM_FILES = [f"AES/GCM/gcm{kind}{bits}.rsp" for kind in ("EncryptExtIV", "Decrypt") for bits in (128, 192, 256)]
XTS_FILES = [f"AES/XTS/{d}/XTSGenAES{bits}.rsp" for d in ("tweak-128hexstr", "tweak-dataunitseqno") for bits in (128, 256)]
CTR_FILES = [f"AES/CTR/aes-{bits}-ctr.txt" for bits in (128, 192, 256)]
SM4_FILES = [f"SM4/draft-ribose-cfrg-sm4-10-{m}.txt" for m in ("ecb", "cbc", "ctr")] + ["SM4/rfc8998.txt"]


def _load(nist_ciphers_dir: Path, rel: str) -> List[Record]:
    path = nist_ciphers_dir / rel
    assert path.is_file(), f"vector file {rel} is missing from cryptography_vectors ({path})"
    records = parse_file(path)
    assert records, f"no test vectors parsed from {path}"
    return records


class Mismatches:
    """Collects failures of one file so that a test reports all of them, not just the first."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.items: List[str] = []
        self.checked = 0

    def add(self, rec: Record, what: str) -> None:
        self.items.append(f"{rec.where}: {what}")

    def run(self, rec: Record, label: str, fn: Callable[[], bytes], expected: bytes) -> None:
        """Calls fn() and compares with expected; exceptions count as mismatches."""
        try:
            got = fn()
        except Exception as exc:  # noqa: BLE001 - any exception is a failure to report
            self.add(rec, f"{label}: raised {type(exc).__name__}: {exc}")
            return
        if got != expected:
            self.add(rec, f"{label}: expected {expected.hex()} got {got.hex()}")

    def expect_raises(self, rec: Record, label: str, exc_type: type, fn: Callable[[], object]) -> None:
        try:
            got = fn()
        except exc_type:
            return
        except Exception as exc:  # noqa: BLE001
            self.add(rec, f"{label}: expected {exc_type.__name__}, raised {type(exc).__name__}: {exc}")
            return
        shown = got.hex() if isinstance(got, bytes) else repr(got)
        self.add(rec, f"{label}: expected {exc_type.__name__}, returned {shown}")

    def assert_none(self) -> None:
        if self.items:
            shown = "\n  ".join(self.items[:MAX_REPORTED])
            more = f"\n  ... and {len(self.items) - MAX_REPORTED} more" if len(self.items) > MAX_REPORTED else ""
            pytest.fail(f"{len(self.items)} mismatches in {self.rel} ({self.checked} records checked):\n  {shown}{more}",
                        pytrace=False)


def _check_both_ways(m: Mismatches, rec: Record, cipher: str, key: bytes, iv: bytes, pt: bytes, ct: bytes,
                     engine: str, **kw) -> None:
    m.run(rec, f"{cipher} encrypt", lambda: cryptaccel.encrypt(cipher, key, pt, iv, engine=engine, **kw), ct)
    m.run(rec, f"{cipher} decrypt", lambda: cryptaccel.decrypt(cipher, key, ct, iv, engine=engine, **kw), pt)
    m.checked += 1


def _aes(key: bytes, mode: str) -> str:
    return f"aes-{len(key) * 8}-{mode}"


# --- ECB / CBC ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", ECB_CBC_FILES)
def test_aes_ecb_cbc_kat(nist_ciphers_dir, rel, engine, vector_report):
    mode = rel.split("/")[1].lower()
    m = Mismatches(rel)
    sections = set()
    for rec in _load(nist_ciphers_dir, rel):
        sections.add(rec.section)
        key = rec.data("key")
        iv = rec.data("iv") if mode == "cbc" else b""
        _check_both_ways(m, rec, _aes(key, mode), key, iv, rec.data("plaintext"), rec.data("ciphertext"), engine,
                         padding=False)
    assert sections == {"ENCRYPT", "DECRYPT"}, f"{rel}: expected ENCRYPT and DECRYPT sections, found {sections}"
    vector_report.checked(f"AES {mode.upper()} CAVP records [{engine}]", m.checked)
    m.assert_none()


# --- GCM ------------------------------------------------------------------------------------------------------------

def _check_gcm(m: Mismatches, rec: Record, cipher: str, engine: str, decrypt_file: bool) -> None:
    key, iv, aad = rec.data("key"), rec.data("iv"), rec.data("aad")
    ct, tag = rec.data("ct"), rec.data("tag")
    tag_bits = int(rec.params["taglen"])
    if len(tag) * 8 != tag_bits:
        m.add(rec, f"vector file inconsistency: Taglen {tag_bits} but tag has {len(tag)} bytes")
        return
    if int(rec.params["ivlen"]) != len(iv) * 8:
        m.add(rec, f"vector file inconsistency: IVlen {rec.params['ivlen']} but IV has {len(iv)} bytes")
        return
    tag_len = len(tag)
    kw = dict(aad=aad, tag_len=tag_len, engine=engine)
    if rec.fail:
        if not decrypt_file:
            m.add(rec, "FAIL record in an encryption file")
            return
        m.expect_raises(rec, f"{cipher} decrypt of a FAIL record", cryptaccel.AuthenticationFailed,
                        lambda: cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw))
    else:
        pt = rec.data("pt")
        m.run(rec, f"{cipher} encrypt", lambda: cryptaccel.encrypt(cipher, key, pt, iv, **kw), ct + tag)
        m.run(rec, f"{cipher} decrypt", lambda: cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw), pt)
    m.checked += 1


@pytest.mark.parametrize("rel", GCM_FILES)
def test_aes_gcm_cavp(nist_ciphers_dir, rel, engine, vector_report):
    decrypt_file = "Decrypt" in rel
    m = Mismatches(rel)
    fails = 0
    iv_lens, tag_lens = set(), set()
    for rec in _load(nist_ciphers_dir, rel):
        key = rec.data("key")
        fails += rec.fail
        iv_lens.add(len(rec.data("iv")))
        tag_lens.add(int(rec.params["taglen"]) // 8)
        _check_gcm(m, rec, _aes(key, "gcm"), engine, decrypt_file)
    if decrypt_file:
        assert fails > 0, f"{rel}: no FAIL records parsed (parser problem?)"
    # The files exercise non-96-bit IVs and truncated tags; make sure the parser saw them.
    assert len(iv_lens) > 1 and len(tag_lens) > 1, f"{rel}: IV lengths {iv_lens}, tag lengths {tag_lens}"
    vector_report.checked(f"AES GCM CAVP records [{engine}]", m.checked)
    vector_report.checked(f"AES GCM CAVP FAIL records (must raise AuthenticationFailed) [{engine}]", fails)
    m.assert_none()


# --- XTS ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", XTS_FILES)
def test_aes_xts_cavp(nist_ciphers_dir, rel, engine, vector_report):
    seqno = "dataunitseqno" in rel
    m = Mismatches(rel)
    skipped = 0
    for rec in _load(nist_ciphers_dir, rel):
        bits = int(rec["dataunitlen"])
        if bits % 8:
            # cryptaccel works on whole bytes; these records encrypt a data unit with a partial last byte.
            skipped += 1
            continue
        key, pt, ct = rec.data("key"), rec.data("pt"), rec.data("ct")
        if len(pt) * 8 != bits or len(ct) != len(pt):
            m.add(rec, f"vector file inconsistency: DataUnitLen {bits} but PT/CT have {len(pt)}/{len(ct)} bytes")
            continue
        tweak = cryptaccel.xts_tweak(int(rec["dataunitseqnumber"])) if seqno else rec.data("i")
        cipher = f"aes-{len(key) * 4}-xts"
        _check_both_ways(m, rec, cipher, key, tweak, pt, ct, engine)
    vector_report.checked(f"AES XTS CAVP records [{engine}]", m.checked)
    vector_report.skipped(f"AES XTS CAVP records with DataUnitLen not a multiple of 8 bits [{engine}]", skipped)
    assert m.checked > 0, f"{rel}: every record was skipped"
    m.assert_none()


# --- CTR ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", CTR_FILES)
def test_aes_ctr_rfc3686(nist_ciphers_dir, rel, engine, vector_report):
    m = Mismatches(rel)
    for rec in _load(nist_ciphers_dir, rel):
        key = rec.data("key")
        _check_both_ways(m, rec, _aes(key, "ctr"), key, rec.data("iv"), rec.data("plaintext"), rec.data("ciphertext"),
                         engine)
    vector_report.checked(f"AES CTR records [{engine}]", m.checked)
    m.assert_none()


# --- SM4 ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", SM4_FILES)
def test_sm4_vectors(nist_ciphers_dir, rel, engine, vector_report):
    mode = "gcm" if rel.endswith("rfc8998.txt") else rel.rsplit("-", 1)[1].split(".")[0]
    skip_unless_supported(engine, f"sm4-{mode}")
    m = Mismatches(rel)
    for rec in _load(nist_ciphers_dir, rel):
        key, pt, ct = rec.data("key"), rec.data("plaintext"), rec.data("ciphertext")
        if rec.has("tag"):  # rfc8998.txt: SM4-GCM
            iv, aad, tag = rec.data("iv"), rec.data("aad") if rec.has("aad") else b"", rec.data("tag")
            _check_both_ways(m, rec, "sm4-gcm", key, iv, pt, ct + tag, engine, aad=aad, tag_len=len(tag))
            # A flipped tag bit must be rejected.
            bad = ct + tag[:-1] + bytes([tag[-1] ^ 1])
            m.expect_raises(rec, "sm4-gcm decrypt with a modified tag", cryptaccel.AuthenticationFailed,
                            lambda: cryptaccel.decrypt("sm4-gcm", key, bad, iv, aad=aad, engine=engine))
            continue
        mode = rel.rsplit("-", 1)[1].split(".")[0]
        iv = rec.data("iv") if rec.has("iv") else b""
        _check_both_ways(m, rec, f"sm4-{mode}", key, iv, pt, ct, engine, padding=False)
    vector_report.checked(f"SM4 records [{engine}]", m.checked)
    m.assert_none()


def test_vector_package_present():
    """Makes a missing cryptography_vectors visible as one clear skip rather than only as many skipped cases."""
    if cryptography_vectors_ciphers_dir() is None:
        skip_or_fail("cryptography_vectors is not installed (pip install cryptography_vectors): NIST vectors not run")
