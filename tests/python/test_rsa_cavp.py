"""NIST CAVP and RSA Laboratories RSA vectors from the PyPI package cryptography_vectors (asymmetric/RSA), on every
engine. One test per file and engine; every failing record is listed in the assertion.

  FIPS_186-2/SigGen15_186-2.txt   PKCS#1 v1.5 signing with (n, e, d): byte-identical signatures; they verify
  FIPS_186-2/SigGen15_186-3.rsp   PKCS#1 v1.5: the published signatures verify (no private key in the file)
  FIPS_186-2/SigVer15_186-3.rsp   PKCS#1 v1.5 verification: Result P -> True, F -> False
  FIPS_186-2/SigGenPSS_186-2.txt  PSS: the published signatures verify with len(SaltVal) and with the salt recovered;
                                  our own PSS signatures with that salt length verify too
  FIPS_186-2/SigGenPSS_186-{2,3}.rsp  PSS: the published signatures verify (salt length recovered)
  FIPS_186-2/SigVerPSS_186-3.rsp  PSS verification with len(SaltVal): P -> True, F -> False
  pkcs-1v2-1d2-vec/oaep-vect.txt  RSAES-OAEP (SHA-1) decryption of every example, keys of 1024..2048 bits
  pkcs-1v2-1d2-vec/pss-vect.txt   RSASSA-PSS verification of every example
  oaep-custom/oaep-*-*.txt        OAEP with SHA-2 (and SHA-1) hash / MGF1 pairs: decryption
  oaep-label.txt                  OAEP with a label (PKCS#8 key): decryption
  pkcs1v15sign-vectors.txt        PKCS#1 v1.5 (SHA-1) signing: byte-identical
  pkcs1v15crypt-vectors.txt       PKCS#1 v1.5 decryption
Private keys given as (n, e, d) are completed (p, q from n, e, d) by the ``cryptography`` package and handed over
as PEM; keys given by their components the same way.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import cryptaccel
from cryptaccel import rsa
from nist_rsp import parse_file
from rsa_helpers import rsa_vectors_dir, skip_unless_rsa


def _h(text: str) -> int:
    return int(text, 16)


def _private_from_ned(n: int, e: int, d: int) -> rsa.PrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa
    p, q = crsa.rsa_recover_prime_factors(n, e, d)
    return _private_from_parts(n, e, d, p, q)


def _private_from_parts(n: int, e: int, d: int, p: int, q: int) -> rsa.PrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa
    numbers = crsa.RSAPrivateNumbers(p, q, d, crsa.rsa_crt_dmp1(d, p), crsa.rsa_crt_dmq1(d, q),
                                     crsa.rsa_crt_iqmp(p, q), crsa.RSAPublicNumbers(e, n))
    pem = numbers.private_key(unsafe_skip_rsa_key_validation=True).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
    return rsa.PrivateKey.from_pem(pem)


def _digest(sha_alg: str) -> str:
    return sha_alg.strip().lower().replace("-", "")


def _finish(failures: List[str], what: str, vector_report, engine: str, n: int) -> None:
    vector_report.checked(f"CAVP/RSA Labs {what} [{engine}]", n)
    assert n > 0, f"{what}: no vectors found"
    assert not failures, f"{len(failures)} failures in {what}: " + "; ".join(failures[:20])


# --- CAVP .rsp / .txt ---------------------------------------------------------------------------------------------

def _sig_records(path: Path) -> Iterator[Tuple[Any, Dict[str, str]]]:
    """(record, key fields in effect) for every record with a signature; n, e, d carry over between records."""
    key: Dict[str, str] = {}
    for r in parse_file(path):
        for name in ("n", "e", "d"):
            if r.has(name):
                key[name] = r[name]
        if r.has("s"):
            yield r, dict(key)


@pytest.mark.parametrize("name", ["SigGen15_186-2.txt", "SigGen15_186-3.rsp", "SigVer15_186-3.rsp"])
def test_cavp_pkcs1v15(name, engine, vector_report):
    skip_unless_rsa(engine)
    path = rsa_vectors_dir() / "FIPS_186-2" / name
    failures: List[str] = []
    keys: Dict[Tuple[str, str, str], rsa.PrivateKey] = {}
    n_checked = 0
    for r, k in _sig_records(path):
        n, e = _h(k["n"]), _h(r.get("e") or k["e"])
        pub = rsa.PublicKey.from_numbers(n, e)
        msg, sig, h = r.data("msg"), r.data("s"), _digest(r["shaalg"])
        expected = not r.has("result") or r["result"].strip().startswith("P")
        n_checked += 1
        got = rsa.verify(pub, msg, sig, hash=h, engine=engine)
        if got != expected:
            failures.append(f"{r.where}: verify {got}, expected {expected}")
        if name.startswith("SigGen") and "d" in k:
            ident = (k["n"], k["e"], k["d"])
            if ident not in keys:
                keys[ident] = _private_from_ned(n, e, _h(k["d"]))
            if rsa.sign(keys[ident], msg, hash=h, engine=engine) != sig:
                failures.append(f"{r.where}: signature differs")
    _finish(failures, f"PKCS#1 v1.5 {name}", vector_report, engine, n_checked)


@pytest.mark.parametrize("name", ["SigGenPSS_186-2.txt", "SigGenPSS_186-2.rsp", "SigGenPSS_186-3.rsp",
                                  "SigVerPSS_186-3.rsp"])
def test_cavp_pss(name, engine, vector_report):
    skip_unless_rsa(engine)
    path = rsa_vectors_dir() / "FIPS_186-2" / name
    failures: List[str] = []
    keys: Dict[Tuple[str, str, str], rsa.PrivateKey] = {}
    n_checked = 0
    for r, k in _sig_records(path):
        n, e = _h(k["n"]), _h(r.get("e") or k["e"])
        pub = rsa.PublicKey.from_numbers(n, e)
        msg, sig, h = r.data("msg"), r.data("s"), _digest(r["shaalg"])
        salt = len(r.data("saltval")) if r.has("saltval") else None
        expected = not r.has("result") or r["result"].strip().startswith("P")
        n_checked += 1
        got = rsa.verify(pub, msg, sig, padding="pss", hash=h, salt_length=salt, engine=engine)
        if got != expected:
            failures.append(f"{r.where}: verify {got}, expected {expected} (salt {salt})")
        if expected and salt is not None and not rsa.verify(pub, msg, sig, padding="pss", hash=h, engine=engine):
            failures.append(f"{r.where}: rejected with the salt length recovered")
        if name == "SigGenPSS_186-2.txt" and "d" in k:
            ident = (k["n"], k["e"], k["d"])
            if ident not in keys:
                keys[ident] = _private_from_ned(n, e, _h(k["d"]))
            ours = rsa.sign(keys[ident], msg, padding="pss", hash=h, salt_length=salt, engine=engine)
            if not rsa.verify(pub, msg, ours, padding="pss", hash=h, salt_length=salt, engine="ref"):
                failures.append(f"{r.where}: our PSS signature does not verify")
    _finish(failures, f"PSS {name}", vector_report, engine, n_checked)


# --- RSA Laboratories "# Label:" files ----------------------------------------------------------------------------

_CASE_FIELDS = {"message", "message to be signed"}


def _labs_examples(path: Path) -> Iterator[Tuple[Dict[str, int], Dict[str, bytes], str]]:
    """(key components, case fields, case title) of every example of a pkcs-1v2-1d2-vec style file.

    Key blocks start at "# Example" lines, cases at "# ... Example N.M" lines; "# Label:" lines name a field whose
    value is the hex on the following lines."""
    key: Dict[str, int] = {}
    in_private = False
    case: Optional[Dict[str, bytes]] = None
    title = ""
    field: Optional[str] = None
    buf: List[str] = []

    def flush() -> None:
        nonlocal field, buf
        if field is not None:
            text = "".join(buf)
            if case is not None:
                case[field] = bytes.fromhex(text)
            else:  # key components: integers, in odd-length hex in the oaep-custom files ("10001")
                key[("private " if in_private else "public ") + field] = int(text, 16)
        field, buf = None, []

    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            if re.match(r"^Example\b", text):  # a new key
                flush()
                if case is not None:
                    yield key, case, title
                key, case, in_private = {}, None, False
            elif re.search(r"Example \d", text):  # a new case of the current key
                flush()
                if case is not None:
                    yield key, case, title
                case, title = {}, text
            elif text == "Private key":
                flush()
                in_private = True
            elif text.endswith(":"):
                flush()
                field = text[:-1].strip().lower()
                if case is None and field in _CASE_FIELDS and in_private:  # pkcs1v15crypt's untitled first case
                    case, title = {}, "first example of the key"
            else:  # separators and remarks
                flush()
        elif field is not None and re.fullmatch(r"[0-9a-fA-F ]+", line):
            buf.append(line.replace(" ", ""))
        elif line:
            flush()
    flush()
    if case is not None:
        yield key, case, title


_KEYS: Dict[Tuple[int, int], rsa.PrivateKey] = {}


def _labs_key(key: Dict[str, int]) -> rsa.PrivateKey:
    n, e = key["private modulus"], key["private public exponent"]
    if (n, e) not in _KEYS:
        _KEYS[(n, e)] = _private_from_parts(n, e, key["private exponent"], key["private prime 1"],
                                            key["private prime 2"])
    k = _KEYS[(n, e)]
    assert k.public_key().n == n == key["public modulus"]
    return k


LABS_DECRYPT = ["pkcs-1v2-1d2-vec/oaep-vect.txt", "pkcs1v15crypt-vectors.txt"] + [
    f"oaep-custom/oaep-{h}-{m}.txt" for h in ("sha1", "sha224", "sha256", "sha384", "sha512")
    for m in ("sha1", "sha224", "sha256", "sha384", "sha512") if (h, m) != ("sha1", "sha1")]


@pytest.mark.parametrize("name", LABS_DECRYPT)
def test_labs_decrypt(name, engine, vector_report):
    skip_unless_rsa(engine)
    path = rsa_vectors_dir() / name
    failures: List[str] = []
    n_checked = 0
    groups: Dict[Tuple[int, Tuple[Tuple[str, str], ...]], List[Tuple[rsa.PrivateKey, Dict[str, str], bytes, bytes, str]]] = {}
    for key, case, title in _labs_examples(path):
        k = _labs_key(key)
        if name.startswith("pkcs1v15"):
            kw = dict(padding="pkcs1v15")
        else:
            m = re.search(r"alg=(\w+) mgf1=(\w+)", title)
            kw = dict(padding="oaep", hash=m.group(1) if m else "sha1", mgf_hash=m.group(2) if m else "sha1")
        ct, msg = case["encryption"], case["message"]
        n_checked += 1
        try:
            got = rsa.decrypt(k, ct, engine=engine, **kw)
        except cryptaccel.Error as e:
            got = f"error {e}"
        if got != msg:
            failures.append(f"{title}: {got!r:.60}")
        groups.setdefault((id(k), tuple(sorted(kw.items()))), []).append((k, kw, ct, msg, title))
    for items in groups.values():  # the batch form: one batch per key and settings
        k, kw = items[0][0], items[0][1]
        outs = rsa.decrypt_many(k, [it[2] for it in items], engine=engine, **kw)
        failures += [f"{it[4]}: decrypt_many gave {out!r:.60}" for it, out in zip(items, outs) if out != it[3]]
    _finish(failures, f"decrypt {name}", vector_report, engine, n_checked)


def test_labs_pss_verify(engine, vector_report):
    skip_unless_rsa(engine)
    path = rsa_vectors_dir() / "pkcs-1v2-1d2-vec" / "pss-vect.txt"
    failures: List[str] = []
    n_checked = 0
    for key, case, title in _labs_examples(path):
        k = _labs_key(key)
        msg, sig, salt = case["message to be signed"], case["signature"], case["salt"]
        n_checked += 1
        pub = k.public_key()
        if not rsa.verify(pub, msg, sig, padding="pss", hash="sha1", salt_length=len(salt), engine=engine):
            failures.append(f"{title}: rejected")
        bad = bytearray(sig)
        bad[-1] ^= 1
        if rsa.verify(pub, msg, bytes(bad), padding="pss", hash="sha1", engine=engine):
            failures.append(f"{title}: a corrupted signature was accepted")
    _finish(failures, "PSS pss-vect.txt", vector_report, engine, n_checked)


def test_labs_pkcs1v15_sign(engine, vector_report):
    skip_unless_rsa(engine)
    path = rsa_vectors_dir() / "pkcs1v15sign-vectors.txt"
    failures: List[str] = []
    n_checked = 0
    cases: List[Tuple[rsa.PrivateKey, bytes, bytes, str]] = []
    for key, case, title in _labs_examples(path):
        k = _labs_key(key)
        msg, sig = case["message to be signed"], case["signature"]
        n_checked += 1
        cases.append((k, msg, sig, title))
        if rsa.sign(k, msg, hash="sha1", engine=engine) != sig:
            failures.append(f"{title}: signature differs")
    # All in one batch with mixed keys (15 keys of several sizes).
    sigs = rsa.sign_many([c[0] for c in cases], [c[1] for c in cases], hash="sha1", engine=engine)
    failures += [f"{c[3]}: sign_many differs" for c, s in zip(cases, sigs) if s != c[2]]
    ok = rsa.verify_many([c[0].public_key() for c in cases], [c[1] for c in cases], [c[2] for c in cases],
                         hash="sha1", engine=engine)
    failures += [f"{c[3]}: verify_many rejected" for c, v in zip(cases, ok) if not v]
    _finish(failures, "PKCS#1 v1.5 pkcs1v15sign-vectors.txt", vector_report, engine, n_checked)


def test_oaep_label_file(engine, vector_report):
    skip_unless_rsa(engine)
    failures: List[str] = []
    n_checked = 0
    for r in parse_file(rsa_vectors_dir() / "oaep-label.txt"):
        if not r.has("key"):
            continue
        k = rsa.PrivateKey.from_der(r.data("key"))
        h = _digest(r["oaepdigest"])
        out = r["output"].strip()
        expected = out[1:-1].encode() if out.startswith('"') else bytes.fromhex(out)
        n_checked += 1
        got = rsa.decrypt(k, r.data("input"), padding="oaep", hash=h, label=r.data("oaeplabel"), engine=engine)
        if got != expected:
            failures.append(f"{r.where}: {got!r}")
        with pytest.raises(cryptaccel.InvalidCiphertext):
            rsa.decrypt(k, r.data("input"), padding="oaep", hash=h, label=b"wrong", engine=engine)
    _finish(failures, "OAEP oaep-label.txt", vector_report, engine, n_checked)
