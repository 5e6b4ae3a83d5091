"""Known-answer tests of the hash functions: NIST CAVP files and SM3 vectors from the PyPI package cryptography_vectors.

Every expected output comes from a vector file. Each test runs one whole file on one engine and reports every
mismatch of the file at once.

Files covered (paths under cryptography_vectors/hashes/):
  SHA2/   SHA{224,256,384,512,512_224,512_256}{ShortMsg,LongMsg}.rsp   streaming (new), split streaming, hash_many
          SHA{...}Monte.rsp                                            SHAVS §6.4 Monte Carlo (MD0 = MD1 = MD2 = Seed)
  SHA3/   SHA3_{224,256,384,512}{ShortMsg,LongMsg}.rsp                 as SHA2
          SHA3_{...}Monte.rsp                                          SHA3VS §6.2.3 Monte Carlo (MD = SHA3(MD))
  SHAKE/  SHAKE{128,256}{ShortMsg,LongMsg,VariableOut}.rsp             as SHA2, output length from the file
          SHAKE{128,256}Monte.rsp                                      SHAKEVS §6.3.3 Monte Carlo (variable output)
  SM3/    oscca.txt (GB/T 32905 examples, via the Linux kernel's testmgr.h)

Engines may hash some algorithms only in batches (an OpenSSL- or GPU-backed engine need not stream): for those the
streaming checks are counted as not run, the KAT files run through hash_many only, and the Monte Carlo chains (which
are sequential) run through one-message hash_many calls for their first MONTE_BATCH_CHECKPOINTS checkpoints (all 100
with CRYPTACCEL_FULL_MONTE=1). An engine that cannot hash an algorithm at all skips that algorithm's files.
Records whose message is not a whole number of bytes (none in these byte-oriented files) would be counted and
reported as not run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

import cryptaccel
from conftest import skip_or_fail
from nist_rsp import Record, parse_file

MAX_REPORTED = 12
MONTE_BATCH_CHECKPOINTS = 100 if os.environ.get("CRYPTACCEL_FULL_MONTE") == "1" else 10

SHA2 = {"224": "sha224", "256": "sha256", "384": "sha384", "512": "sha512", "512_224": "sha512_224",
        "512_256": "sha512_256"}
SHA3 = {"224": "sha3_224", "256": "sha3_256", "384": "sha3_384", "512": "sha3_512"}
SHAKE = {"128": "shake_128", "256": "shake_256"}

# (relative path, algorithm name)
KAT_FILES: List[Tuple[str, str]] = (
    [(f"SHA2/SHA{k}{kind}.rsp", a) for k, a in SHA2.items() for kind in ("ShortMsg", "LongMsg")]
    + [(f"SHA3/SHA3_{k}{kind}.rsp", a) for k, a in SHA3.items() for kind in ("ShortMsg", "LongMsg")]
    + [(f"SHAKE/SHAKE{k}{kind}.rsp", a) for k, a in SHAKE.items() for kind in ("ShortMsg", "LongMsg", "VariableOut")]
    + [("SM3/oscca.txt", "sm3")]
)
SHA2_MONTE = [(f"SHA2/SHA{k}Monte.rsp", a) for k, a in SHA2.items()]
SHA3_MONTE = [(f"SHA3/SHA3_{k}Monte.rsp", a) for k, a in SHA3.items()]
SHAKE_MONTE = [(f"SHAKE/SHAKE{k}Monte.rsp", a) for k, a in SHAKE.items()]


def hashes_dir() -> Optional[Path]:
    """``.../cryptography_vectors/hashes`` from the PyPI package cryptography_vectors, or None if missing."""
    try:
        import cryptography_vectors
    except ImportError:
        return None
    d = Path(cryptography_vectors.__file__).resolve().parent / "hashes"
    return d if d.is_dir() else None


@pytest.fixture(scope="session")
def nist_hashes_dir() -> Path:
    d = hashes_dir()
    if d is None:
        skip_or_fail("cryptography_vectors is not installed (pip install cryptography_vectors)")
    return d


def _load(base: Path, rel: str) -> List[Record]:
    path = base / rel
    assert path.is_file(), f"vector file {rel} is missing from cryptography_vectors ({path})"
    records = parse_file(path)
    assert records, f"no test vectors parsed from {path}"
    return records


class Mismatches:
    """Collects the failures of one file so that a test reports all of them, not just the first."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.items: List[str] = []
        self.checked = 0

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")

    def run(self, where: str, label: str, fn: Callable[[], bytes], expected: bytes) -> Optional[bytes]:
        """Calls fn() and compares with expected; exceptions count as mismatches. Returns what fn() returned."""
        try:
            got = fn()
        except Exception as exc:  # noqa: BLE001 - any exception is a failure to report
            self.add(where, f"{label}: raised {type(exc).__name__}: {exc}")
            return None
        if got != expected:
            self.add(where, f"{label}: expected {expected.hex()} got {got.hex() if isinstance(got, bytes) else got!r}")
        return got

    def assert_none(self) -> None:
        if self.items:
            shown = "\n  ".join(self.items[:MAX_REPORTED])
            more = f"\n  ... and {len(self.items) - MAX_REPORTED} more" if len(self.items) > MAX_REPORTED else ""
            pytest.fail(f"{len(self.items)} mismatches in {self.rel} ({self.checked} records checked):\n  {shown}{more}",
                        pytrace=False)


def _support(name: str, engine: str) -> Tuple[bool, bool]:
    """(streams, batches): whether ``engine`` runs ``name`` through cryptaccel.new() and through hash_many()."""
    streams = batches = True
    try:
        cryptaccel.new(name, engine=engine)
    except cryptaccel.EngineUnavailable:
        streams = False
    try:
        cryptaccel.hash_many(name, [], length=1 if name.startswith("shake") else None, engine=engine)
    except cryptaccel.EngineUnavailable:
        batches = False
    if not streams and not batches:
        pytest.skip(f"engine {engine} does not hash {name}")
    return streams, batches


def _digest(name: str, data: bytes, engine: str, length: Optional[int]) -> bytes:
    h = cryptaccel.new(name, data, engine=engine)
    return h.digest() if length is None else h.digest(length)


def _split_digest(name: str, data: bytes, engine: str, length: Optional[int]) -> bytes:
    """The digest of ``data`` fed in three pieces of uneven sizes (one of them a bytearray)."""
    a, b = len(data) // 3, (2 * len(data)) // 3 + 1
    h = cryptaccel.new(name, engine=engine)
    h.update(data[:a])
    h.update(bytearray(data[a:b]))
    h.update(memoryview(data)[b:])
    return h.digest() if length is None else h.digest(length)


# --- ShortMsg / LongMsg / VariableOut / SM3 -------------------------------------------------------------------------

@pytest.mark.parametrize("rel,name", KAT_FILES, ids=[rel for rel, _ in KAT_FILES])
def test_hash_kat(nist_hashes_dir, rel, name, engine, vector_report):
    xof = name.startswith("shake")
    streams, batches_ok = _support(name, engine)
    m = Mismatches(rel)
    not_bytes = 0
    batches: Dict[Optional[int], List[Tuple[Record, bytes, bytes]]] = {}  # output length -> (record, msg, expected)
    for rec in _load(nist_hashes_dir, rel):
        # VariableOut files give the message length once, as [Input Length = 128].
        bits = int(rec["len"]) if rec.has("len") else int(rec.params["input length"])
        raw = rec.data("msg")
        if bits % 8:
            not_bytes += 1
            continue
        msg = raw[: bits // 8]
        if len(msg) * 8 != bits or (bits and len(raw) != len(msg)) or (not bits and raw not in (b"", b"\x00")):
            m.add(rec.where, f"vector file inconsistency: Len {bits} but Msg has {len(raw)} bytes")
            continue
        expected = rec.data("output" if xof else "md")
        length: Optional[int] = None
        if xof:
            out_bits = int(rec["outputlen"]) if rec.has("outputlen") else int(rec.params["outputlen"])
            if out_bits != 8 * len(expected):
                m.add(rec.where, f"vector file inconsistency: Outputlen {out_bits} but Output has {len(expected)} bytes")
                continue
            length = len(expected)
        elif len(expected) != cryptaccel.new(name).digest_size:
            m.add(rec.where, f"vector file inconsistency: MD has {len(expected)} bytes")
            continue
        if streams:
            m.run(rec.where, f"{name} new().digest()", lambda: _digest(name, msg, engine, length), expected)
            m.run(rec.where, f"{name} split update", lambda: _split_digest(name, msg, engine, length), expected)
        batches.setdefault(length, []).append((rec, msg, expected))
        m.checked += 1

    # hash_many: one batch per output length (VariableOut files have many lengths), every message of the file.
    for length, items in (batches.items() if batches_ok else ()):
        try:
            got = cryptaccel.hash_many(name, [msg for _, msg, _ in items], length=length, engine=engine)
        except Exception as exc:  # noqa: BLE001
            m.add(rel, f"hash_many of {len(items)} messages raised {type(exc).__name__}: {exc}")
            continue
        for (rec, _, expected), digest in zip(items, got):
            if digest != expected:
                m.add(rec.where, f"{name} hash_many: expected {expected.hex()} got {digest.hex()}")

    if rel.endswith("VariableOut.rsp"):
        assert len(batches) > 10, f"{rel}: only {len(batches)} output lengths parsed (parser problem?)"
    how = ", ".join(w for w, ok in (("new", streams), ("split update", streams), ("hash_many", batches_ok)) if ok)
    vector_report.checked(f"{name} KAT records ({how}) [{engine}]", m.checked)
    if not streams:
        vector_report.skipped(f"{name} KAT records not run through new(): engine {engine} does not stream it",
                              m.checked)
    if not batches_ok:
        vector_report.skipped(f"{name} KAT records not run through hash_many(): engine {engine} has no batch {name}",
                              m.checked)
    if not_bytes:
        vector_report.skipped(f"{name} KAT records with a message not a whole number of bytes [{engine}]", not_bytes)
    assert m.checked > 0, f"{rel}: no record was checked"
    m.assert_none()


# --- Monte Carlo ----------------------------------------------------------------------------------------------------

def _checkpoints(records: List[Record], first_field: str) -> Tuple[bytes, List[Record]]:
    """(the seed/initial message, the COUNT records in order) of a Monte file."""
    assert records[0].has(first_field), f"{records[0].where}: expected {first_field} first"
    seed = records[0].data(first_field)
    counts = [r for r in records[1:] if r.has("count")]
    assert [int(r["count"]) for r in counts] == list(range(100)), "expected COUNT = 0 .. 99"
    return seed, counts


def _monte_hasher(name: str, engine: str, counts: List[Record], vector_report) -> Tuple[Callable[..., bytes], List[Record], str]:
    """(hash function f(data, length=None), the checkpoints to check, how) for a Monte Carlo chain on ``engine``:
    streaming new() where the engine streams ``name``, else one-message hash_many calls for the first
    MONTE_BATCH_CHECKPOINTS checkpoints (the rest are reported as not run)."""
    streams, _ = _support(name, engine)
    if streams:
        def f(data: bytes, length: Optional[int] = None) -> bytes:
            h = cryptaccel.new(name, data, engine=engine)
            return h.digest() if length is None else h.digest(length)
        return f, counts, "new"

    def g(data: bytes, length: Optional[int] = None) -> bytes:
        return cryptaccel.hash_many(name, (data,), length=length, engine=engine)[0]
    if len(counts) > MONTE_BATCH_CHECKPOINTS:
        vector_report.skipped(f"{name} Monte Carlo checkpoints after the first {MONTE_BATCH_CHECKPOINTS}: engine "
                              f"{engine} does not stream {name} (CRYPTACCEL_FULL_MONTE=1 runs them) [{engine}]",
                              len(counts) - MONTE_BATCH_CHECKPOINTS)
    return g, counts[:MONTE_BATCH_CHECKPOINTS], "hash_many"


@pytest.mark.parametrize("rel,name", SHA2_MONTE, ids=[rel for rel, _ in SHA2_MONTE])
def test_sha2_monte(nist_hashes_dir, rel, name, engine, vector_report):
    """SHAVS §6.4: for j in 0..99 { MD0 = MD1 = MD2 = Seed; for i in 3..1002 { Mi = MDi-3 || MDi-2 || MDi-1;
    MDi = SHA(Mi) }; MDj = Seed = MD1002 }."""
    seed, counts = _checkpoints(_load(nist_hashes_dir, rel), "seed")
    sha, counts, how = _monte_hasher(name, engine, counts, vector_report)
    m = Mismatches(rel)
    for rec in counts:
        expected = rec.data("md")
        md0 = md1 = md2 = seed
        try:
            for _ in range(3, 1003):
                md0, md1, md2 = md1, md2, sha(md0 + md1 + md2)
        except Exception as exc:  # noqa: BLE001
            m.add(rec.where, f"raised {type(exc).__name__}: {exc}")
            md2 = b""
        if md2 != expected:
            m.add(rec.where, f"expected {expected.hex()} got {md2.hex()}")
        seed = expected  # continue from the published checkpoint, so that every checkpoint is checked on its own
        m.checked += 1
    vector_report.checked(f"{name} Monte Carlo checkpoints (1000 chained hashes each, {how}) [{engine}]", m.checked)
    m.assert_none()


@pytest.mark.parametrize("rel,name", SHA3_MONTE, ids=[rel for rel, _ in SHA3_MONTE])
def test_sha3_monte(nist_hashes_dir, rel, name, engine, vector_report):
    """SHA3VS §6.2.3: MD0 = Seed; for j in 0..99 { for i in 1..1000 { MDi = SHA3(MDi-1) }; MD0 = MD1000; output }."""
    md, counts = _checkpoints(_load(nist_hashes_dir, rel), "seed")
    sha, counts, how = _monte_hasher(name, engine, counts, vector_report)
    m = Mismatches(rel)
    for rec in counts:
        expected = rec.data("md")
        try:
            for _ in range(1000):
                md = sha(md)
        except Exception as exc:  # noqa: BLE001
            m.add(rec.where, f"raised {type(exc).__name__}: {exc}")
        if md != expected:
            m.add(rec.where, f"expected {expected.hex()} got {md.hex()}")
        md = expected
        m.checked += 1
    vector_report.checked(f"{name} Monte Carlo checkpoints (1000 chained hashes each, {how}) [{engine}]", m.checked)
    m.assert_none()


@pytest.mark.parametrize("rel,name", SHAKE_MONTE, ids=[rel for rel, _ in SHAKE_MONTE])
def test_shake_monte(nist_hashes_dir, rel, name, engine, vector_report):
    """SHAKEVS §6.3.3, in bytes (minoutbytes = floor(Minimum Output Length / 8), maxoutbytes likewise):

    Outputlen = maxoutbytes; Range = maxoutbytes - minoutbytes + 1; Output0 = Msg
    for j in 0..99:
        for i in 1..1000:
            Msgi = leftmost 128 bits of Outputi-1 (zero-padded on the right when shorter)
            Outputi = SHAKE(Msgi, Outputlen)
            if i == 1000: Outputlenj = Outputlen
            Outputlen = minoutbytes + (rightmost 16 bits of Outputi, big-endian) mod Range
        output Outputlenj, Outputj = Output1000; Output0 = Output1000
    """
    records = _load(nist_hashes_dir, rel)
    msg, counts = _checkpoints(records, "msg")
    assert len(msg) == 16, f"{rel}: initial Msg has {len(msg)} bytes (expected 128 bits)"
    params = counts[0].params
    min_bytes = int(params["minimum output length (bits)"]) // 8
    max_bytes = int(params["maximum output length (bits)"]) // 8
    span = max_bytes - min_bytes + 1
    shake, counts, how = _monte_hasher(name, engine, counts, vector_report)
    m = Mismatches(rel)
    out, out_len = msg, max_bytes
    for rec in counts:
        expected, expected_len = rec.data("output"), int(rec["outputlen"])
        if expected_len != 8 * len(expected):
            m.add(rec.where, f"vector file inconsistency: Outputlen {expected_len} but Output has {len(expected)} bytes")
        try:
            for i in range(1, 1001):
                block = out[:16].ljust(16, b"\x00")
                out = shake(block, out_len)
                if i == 1000:
                    got_len = out_len
                out_len = min_bytes + int.from_bytes(out[-2:], "big") % span
        except Exception as exc:  # noqa: BLE001
            m.add(rec.where, f"raised {type(exc).__name__}: {exc}")
            got_len = -1
        if got_len * 8 != expected_len or out != expected:
            m.add(rec.where, f"expected Outputlen {expected_len} {expected.hex()}, got {got_len * 8} {out.hex()}")
            # Continue from the published checkpoint so that later checkpoints are checked on their own.
            out = expected
            out_len = min_bytes + int.from_bytes(expected[-2:], "big") % span
        m.checked += 1
    vector_report.checked(f"{name} Monte Carlo checkpoints (1000 chained outputs each, {how}) [{engine}]", m.checked)
    m.assert_none()


def test_vector_package_present():
    """Makes a missing cryptography_vectors visible as one clear skip rather than only as many skipped cases."""
    if hashes_dir() is None:
        skip_or_fail("cryptography_vectors is not installed (pip install cryptography_vectors): hash vectors not run")
