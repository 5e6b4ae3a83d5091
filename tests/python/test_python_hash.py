"""Differential tests of cryptaccel's hashlib-compatible hashing API against Python's hashlib (OpenSSL).

Every algorithm runs on every engine under test (the ``engine`` fixture); an engine that cannot serve an algorithm
(one that hashes it only in batches, say) skips that case visibly with the engine's reason. Messages are random, of
random lengths from 0 to 1 MiB (with block-boundary lengths mixed in), drawn from ``random.Random(seed)`` where the
seed is derived from the base seed and the test's name; every assertion message prints the seed. The base seed is
fixed unless CRYPTACCEL_TEST_SEED sets it, so a failure reproduces with the same base seed.

Expected bytes always come from hashlib (SM3: ``hashlib.new("sm3")`` when the OpenSSL under Python has it, else the
``cryptography`` package's SM3, else the SM3 cases skip with the reason). Keccak-f[1600] batches are checked against
the small pure-Python permutation below, written from FIPS 202 section 3 and itself checked against hashlib's SHA-3
and SHAKE through a sponge built on it.
"""

from __future__ import annotations

import array
import functools
import hashlib
import hmac
import io
import os
import random
import threading
import time
import zlib
from typing import Callable, List, Optional, Sequence

import pytest

from keccak_model import MASK64, RHO, ROUND_CONSTANTS, keccak_p

import cryptaccel
from conftest import skip_unless_hash_supported

BASE_SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "20250301"))
MAX_LEN = 1 << 20

FIXED = ["sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256",
         "sha3_224", "sha3_256", "sha3_384", "sha3_512", "sm3"]
XOF = ["shake_128", "shake_256"]
ALL = FIXED + XOF
XOF_LENGTHS = [0, 1, 200, 1000]


# --- seeds ----------------------------------------------------------------------------------------------------------

def seeded(*label: object) -> tuple[random.Random, str]:
    """A generator for one test case and the text that identifies its seed in assertion messages."""
    seed = BASE_SEED + zlib.crc32("/".join(map(str, label)).encode()) % 100_000
    return random.Random(seed), f"seed={seed} (CRYPTACCEL_TEST_SEED={BASE_SEED})"


def random_lengths(rng: random.Random, block: int, count: int = 4) -> List[int]:
    """0, lengths around a random block boundary, short ones, and `count` uniform in 0 .. MAX_LEN."""
    k = rng.randrange(1, 4)
    out = [0, k * block - 1, k * block, k * block + 1, rng.randrange(1, 2 * block + 2)]
    out += [rng.randrange(MAX_LEN + 1) for _ in range(count)]
    return out


def first_diff(got: bytes, expected: bytes) -> str:
    if len(got) != len(expected):
        return f"length {len(got)}, expected {len(expected)}"
    i = next(i for i in range(len(got)) if got[i] != expected[i])
    return f"first difference at byte {i}: got {got.hex()} expected {expected.hex()}"


# --- the oracle -----------------------------------------------------------------------------------------------------

class _CryptographySm3:
    """The `cryptography` package's SM3 with the part of hashlib's interface the tests use."""

    name, digest_size, block_size = "sm3", 32, 64

    def __init__(self, data: bytes = b"") -> None:
        from cryptography.hazmat.primitives import hashes
        self._h = hashes.Hash(hashes.SM3())
        self._h.update(bytes(data))

    def update(self, data: bytes) -> None:
        self._h.update(bytes(data))

    def copy(self) -> "_CryptographySm3":
        c = _CryptographySm3.__new__(_CryptographySm3)
        c._h = self._h.copy()
        return c

    def digest(self) -> bytes:
        return self._h.copy().finalize()


def _sm3_reference() -> Optional[Callable[..., object]]:
    try:
        hashlib.new("sm3", b"abc")
        return lambda data=b"": hashlib.new("sm3", data)
    except ValueError:
        pass
    try:
        from cryptography.hazmat.primitives import hashes
        hashes.Hash(hashes.SM3())
        return _CryptographySm3
    except Exception:  # noqa: BLE001 - not installed, or its OpenSSL lacks SM3
        return None


_SM3 = _sm3_reference()


def reference(name: str, data: bytes = b""):
    """A hashlib-like object for `name` fed with `data`; skips (visibly) the SM3 cases when no SM3 is at hand."""
    if name == "sm3":
        if _SM3 is None:
            pytest.skip("no SM3 reference: hashlib.new('sm3') is unsupported by Python's OpenSSL and the "
                        "cryptography package (with SM3) is not installed")
        return _SM3(data)
    return hashlib.new(name, data)


def ref_digest(h, length: Optional[int] = None) -> bytes:
    return h.digest() if length is None else h.digest(length)


def lengths_for(name: str, rng: Optional[random.Random] = None) -> List[Optional[int]]:
    """Output lengths to ask for: None (the fixed digest) or, for SHAKE, 0, 1, 200, 1000 and one random length."""
    if name not in XOF:
        return [None]
    return XOF_LENGTHS + ([rng.randrange(2, 5000)] if rng else [])


def ours_digest(h, length: Optional[int]) -> bytes:
    return h.digest() if length is None else h.digest(length)


def ours_hexdigest(h, length: Optional[int]) -> str:
    return h.hexdigest() if length is None else h.hexdigest(length)


# --- one-shot and streaming -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_one_shot(name, engine):
    """cryptaccel.new(name, data, engine=...) and the named constructor give hashlib's digest and hexdigest."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("one_shot", name)
    block = reference(name).block_size
    for n in random_lengths(rng, block):
        data = rng.randbytes(n)
        h = cryptaccel.new(name, data, engine=engine)
        assert h.engine == engine
        expected_h = reference(name, data)
        for length in lengths_for(name, rng):
            expected = ref_digest(expected_h, length)
            got = ours_digest(h, length)
            assert got == expected, f"{name} [{engine}] {seed} len={n} out={length}: {first_diff(got, expected)}"
            assert ours_hexdigest(h, length) == expected.hex(), f"{name} [{engine}] {seed} len={n} out={length}"
    data = rng.randbytes(rng.randrange(MAX_LEN + 1))
    named = getattr(cryptaccel, name)(data, engine=engine)
    length = None if name not in XOF else 64
    assert ours_digest(named, length) == ref_digest(reference(name, data), length), \
        f"cryptaccel.{name}() [{engine}] {seed} len={len(data)}"


def _chunks(rng: random.Random, data: bytes, block: int) -> List[object]:
    """`data` cut into pieces of random sizes (empty ones, less than a block, about a block, many blocks), each as
    bytes, bytearray or memoryview at random."""
    out: List[object] = []
    i = 0
    while i < len(data):
        kind = rng.randrange(5)
        size = (0, rng.randrange(1, block), rng.randrange(block - 1, block + 2),
                rng.randrange(1, 40 * block), rng.randrange(1, 1 << 18))[kind]
        piece = data[i:i + size]
        i += len(piece)
        out.append(rng.choice((bytes, bytearray, memoryview))(piece))
    return out


@pytest.mark.parametrize("name", ALL)
def test_streaming_random_chunks(name, engine):
    """update() in random chunk sizes and types; digests read along the way (digest() does not finalise)."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("streaming", name)
    block = reference(name).block_size
    for n in random_lengths(rng, block, count=3):
        data = rng.randbytes(n)
        h = cryptaccel.new(name, engine=engine)
        expected_h = reference(name)
        done = 0
        for piece in _chunks(rng, data, block):
            h.update(piece)
            expected_h.update(bytes(piece))
            done += len(piece)
            if rng.random() < 0.3:
                length = rng.choice(lengths_for(name))
                assert ours_digest(h, length) == ref_digest(expected_h, length), \
                    f"{name} [{engine}] {seed} len={n}: after {done} bytes, out={length}"
        for length in lengths_for(name, rng):
            got, expected = ours_digest(h, length), ref_digest(expected_h, length)
            assert got == expected, f"{name} [{engine}] {seed} len={n} out={length}: {first_diff(got, expected)}"


@pytest.mark.parametrize("name", ALL)
def test_byte_at_a_time(name, engine):
    """A few KB fed one byte at a time (every buffering position), checked at every block boundary and around it."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("bytewise", name)
    block = reference(name).block_size
    data = rng.randbytes(rng.randrange(3000, 5000))
    h = cryptaccel.new(name, engine=engine)
    expected_h = reference(name)
    length = None if name not in XOF else 200
    for i in range(len(data)):
        h.update(data[i:i + 1])
        expected_h.update(data[i:i + 1])
        if (i + 1) % block in (0, 1, block - 1):
            assert ours_digest(h, length) == ref_digest(expected_h, length), \
                f"{name} [{engine}] {seed}: after {i + 1} bytes fed one at a time"
    assert ours_digest(h, length) == ref_digest(reference(name, data), length), \
        f"{name} [{engine}] {seed}: {len(data)} bytes fed one at a time"


@pytest.mark.parametrize("name", ALL)
def test_copy_diverges(name, engine):
    """copy() of a state with a partial block: the original and the copies then take different updates."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("copy", name)
    block = reference(name).block_size
    prefix = rng.randbytes(rng.randrange(0, 5 * block))
    a, b, c = rng.randbytes(rng.randrange(0, 3 * block)), rng.randbytes(rng.randrange(1, MAX_LEN)), b"x"
    length = None if name not in XOF else 1000
    where = f"{name} [{engine}] {seed} prefix={len(prefix)}"

    h = cryptaccel.new(name, prefix, engine=engine)
    h1 = h.copy()
    h2 = h1.copy()
    assert type(h1) is type(h) and h1.engine == h.engine and h1.name == h.name
    h.update(a)
    h1.update(b)
    h2.update(c)
    assert ours_digest(h, length) == ref_digest(reference(name, prefix + a), length), f"{where}: original"
    assert ours_digest(h1, length) == ref_digest(reference(name, prefix + b), length), f"{where}: copy"
    assert ours_digest(h2, length) == ref_digest(reference(name, prefix + c), length), f"{where}: copy of copy"
    h3 = h.copy()  # a copy after the updates continues from there
    h3.update(c)
    assert ours_digest(h3, length) == ref_digest(reference(name, prefix + a + c), length), f"{where}: late copy"
    assert ours_digest(h, length) == ref_digest(reference(name, prefix + a), length), f"{where}: original after copy"


# --- hash_many ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_hash_many(name, engine):
    """hash_many equals hashlib message by message: mixed lengths and types, empty messages, an empty list."""
    skip_unless_hash_supported(engine, name, "batch")
    rng, seed = seeded("hash_many", name)
    block = reference(name).block_size
    lens = random_lengths(rng, block, count=3) + [0, 0] + [rng.randrange(200) for _ in range(20)]
    rng.shuffle(lens)
    msgs = [rng.randbytes(n) for n in lens]
    args = [rng.choice((bytes, bytearray, memoryview))(m) for m in msgs]
    for length in lengths_for(name, rng):
        got, used = cryptaccel.hash_many(name, args, length=length, engine=engine, return_engine=True)
        assert used == engine
        assert isinstance(got, list) and len(got) == len(msgs)
        for i, m in enumerate(msgs):
            expected = ref_digest(reference(name, m), length)
            assert got[i] == expected, \
                f"{name} [{engine}] {seed} message {i} len={len(m)} out={length}: {first_diff(got[i], expected)}"
        assert cryptaccel.hash_many(name, [], length=length, engine=engine) == []
        expected_empty = ref_digest(reference(name), length)
        assert cryptaccel.hash_many(name, [b""] * 5, length=length, engine=engine) == [expected_empty] * 5
        assert cryptaccel.hash_many(name, (b"ab", bytearray(b"c")), length=length, engine=engine) == \
            [ref_digest(reference(name, b"ab"), length), ref_digest(reference(name, b"c"), length)]  # a tuple
    # threads= spreads the batch over host threads; the result must not depend on it.
    length = lengths_for(name)[-1]
    one = cryptaccel.hash_many(name, msgs, length=length, engine=engine, threads=1)
    assert one == cryptaccel.hash_many(name, msgs, length=length, engine=engine, threads=3), \
        f"{name} [{engine}] {seed}: threads=1 and threads=3 differ"


def test_hash_many_fixed_length_argument(engine):
    """For fixed-size hashes length= may be given as the digest size; anything else is an error."""
    skip_unless_hash_supported(engine, "sha256", "batch")
    expected = hashlib.sha256(b"abc").digest()
    assert cryptaccel.hash_many("sha256", [b"abc"], length=32, engine=engine) == [expected]
    with pytest.raises(ValueError):
        cryptaccel.hash_many("sha256", [b"abc"], length=31, engine=engine)


# --- attributes and names -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_attributes_match_hashlib(name, engine):
    """name, digest_size and block_size equal hashlib's (SHAKE: digest_size 0), on new objects and copies."""
    skip_unless_hash_supported(engine, name)
    expected = reference(name)
    for h in (cryptaccel.new(name, engine=engine), getattr(cryptaccel, name)(engine=engine),
              cryptaccel.new(name, b"abc", engine=engine).copy(),
              cryptaccel.new(name, data=b"", engine=engine, usedforsecurity=False),
              getattr(cryptaccel, name)(b"", usedforsecurity=False, engine=engine)):
        assert (h.name, h.digest_size, h.block_size) == (expected.name, expected.digest_size, expected.block_size)
        assert isinstance(h, cryptaccel.Hash)
        assert isinstance(h, cryptaccel.HashXOF) == (name in XOF)
        assert h.engine == engine
        assert name in repr(h) and engine in repr(h)


@pytest.mark.parametrize("spelling,name", [
    ("SHA-256", "sha256"), ("sha512/224", "sha512_224"), ("SHA512-256", "sha512_256"), ("sha3-384", "sha3_384"),
    ("SHAKE128", "shake_128"), ("shake256", "shake_256"), ("SM3", "sm3"), ("Sha3_512", "sha3_512"),
])
def test_name_spellings(spelling, name):
    h = cryptaccel.new(spelling, b"abc")
    assert h.name == name
    length = None if name not in XOF else 32
    assert ours_digest(h, length) == ref_digest(reference(name, b"abc"), length)
    assert cryptaccel.hash_many(spelling, [b"abc"], length=length) == [ref_digest(reference(name, b"abc"), length)]


def test_algorithm_sets():
    """algorithms_guaranteed: every algorithm, spelled as hashlib spells it; algorithms_available: what new() runs."""
    assert cryptaccel.algorithms_guaranteed == frozenset(ALL)
    assert cryptaccel.algorithms_available <= cryptaccel.algorithms_guaranteed
    for name in cryptaccel.algorithms_guaranteed:
        if name in hashlib.algorithms_available:
            assert hashlib.new(name).name == name
    for name in cryptaccel.algorithms_available:
        assert cryptaccel.new(name).name == name
    for name in cryptaccel.algorithms_guaranteed - cryptaccel.algorithms_available:
        with pytest.raises(cryptaccel.EngineUnavailable):
            cryptaccel.new(name)
    # The ref engine runs everything, so every algorithm is available wherever ref is.
    if any(e["name"] == "ref" and e["available"] for e in cryptaccel.engines()):
        assert cryptaccel.algorithms_available == cryptaccel.algorithms_guaranteed


# --- use by the standard library ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FIXED)
def test_hmac_and_file_digest(name, engine):
    """Constructors work as hmac's digestmod and as hashlib.file_digest's digest (they rely on the hashlib
    interface: copy, update with memoryviews, block_size, digest_size)."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("stdlib", name)
    block = reference(name).block_size
    ours = functools.partial(cryptaccel.new, name, engine=engine)
    for key_len in (0, block - 1, block, block + 1, 3 * block):
        key, msg = rng.randbytes(key_len), rng.randbytes(rng.randrange(0, 5000))
        expected = hmac.new(key, msg, lambda d=b"": reference(name, d)).digest()
        assert hmac.new(key, msg, ours).digest() == expected, f"hmac {name} [{engine}] {seed} key={key_len}"
    if hasattr(hashlib, "file_digest"):
        data = rng.randbytes(rng.randrange(300_000, 700_000))
        got = hashlib.file_digest(io.BytesIO(data), ours).digest()
        assert got == reference(name, data).digest(), f"file_digest {name} [{engine}] {seed} len={len(data)}"


# --- bytes-like inputs ----------------------------------------------------------------------------------------------

def test_bytes_like_inputs(engine):
    """bytes, bytearray, memoryview (also a contiguous slice), array.array hash their raw bytes, as in hashlib; inputs
    are not modified."""
    skip_unless_hash_supported(engine, "sha256")
    rng, seed = seeded("bytes_like")
    raw = rng.randbytes(40_000)
    forms = [
        bytearray(raw),
        memoryview(raw),
        memoryview(bytearray(raw))[3:-5],
        array.array("I", raw[:40_000 // 4 * 4]),
        array.array("d", raw[:8 * 1000]),
        memoryview(raw).cast("Q")[2:10],
    ]
    for form in forms:
        before = memoryview(form).tobytes()  # the raw bytes, in memory order
        expected = hashlib.sha256(form).digest()
        assert expected == hashlib.sha256(before).digest()
        what = f"{type(form).__name__} [{engine}] {seed}"
        assert cryptaccel.sha256(form, engine=engine).digest() == expected, f"new: {what}"
        h = cryptaccel.new("sha256", engine=engine)
        h.update(form)
        assert h.digest() == expected, f"update: {what}"
        if not skip_batch(engine, "sha256"):
            assert cryptaccel.hash_many("sha256", [form, form], engine=engine) == [expected] * 2, f"hash_many: {what}"
        assert memoryview(form).tobytes() == before, f"{what}: the input was modified"


def skip_batch(engine: str, name: str) -> bool:
    """True when `engine` has no batch `name` (the caller leaves that part out)."""
    try:
        cryptaccel.hash_many(name, [], length=1 if name in XOF else None, engine=engine)
        return False
    except cryptaccel.EngineUnavailable:
        return True


def test_non_contiguous_buffer_is_refused():
    with pytest.raises((TypeError, BufferError)):
        hashlib.sha256(memoryview(b"abcdef")[::2])
    with pytest.raises((TypeError, BufferError)):
        cryptaccel.sha256(memoryview(b"abcdef")[::2])
    with pytest.raises((TypeError, BufferError)):
        cryptaccel.sha256().update(memoryview(b"abcdef")[::2])


# --- errors ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["md5", "sha1", "", "sha3", "shake", "sha256x", "blake2b"])
def test_unknown_algorithm(bad):
    """Unknown names raise InvalidArgument, a ValueError as hashlib's 'unsupported hash type'."""
    with pytest.raises(cryptaccel.InvalidArgument):
        cryptaccel.new(bad)
    with pytest.raises(ValueError):
        cryptaccel.new(bad, b"data")
    with pytest.raises(ValueError):
        cryptaccel.hash_many(bad, [b"data"])


@pytest.mark.parametrize("name", ALL)
def test_type_errors(name):
    """str instead of bytes is a TypeError everywhere, as in hashlib; so are None and ints."""
    h = cryptaccel.new(name)
    if name in hashlib.algorithms_available:
        with pytest.raises(TypeError):
            hashlib.new(name, "abc")
    for bad in ("abc", None, 3, ["a"], 1.5):
        with pytest.raises(TypeError):
            cryptaccel.new(name, bad)
        with pytest.raises(TypeError):
            getattr(cryptaccel, name)(bad)
        with pytest.raises(TypeError):
            h.update(bad)
    length = None if name not in XOF else 8
    with pytest.raises(TypeError):
        cryptaccel.hash_many(name, ["abc"], length=length)
    with pytest.raises(TypeError):
        cryptaccel.hash_many(name, [b"ok", "abc"], length=length)
    with pytest.raises(TypeError):
        cryptaccel.hash_many(name, "abc", length=length)
    with pytest.raises(TypeError):
        cryptaccel.hash_many(name, b"abc", length=length)
    with pytest.raises(TypeError):
        cryptaccel.new(b"sha256")
    assert ours_digest(h, length) == ref_digest(reference(name), length), "a failed update changed the state"


@pytest.mark.parametrize("name", XOF)
def test_shake_length_errors(name):
    """SHAKE: digest() and hexdigest() need a length (TypeError, as hashlib); it must be a non-negative int."""
    h = cryptaccel.new(name, b"abc")
    for method in ("digest", "hexdigest"):
        with pytest.raises(TypeError):
            getattr(hashlib.new(name), method)()
        with pytest.raises(TypeError):
            getattr(h, method)()
        with pytest.raises(TypeError):
            getattr(h, method)(2.0)
        with pytest.raises(TypeError):
            getattr(h, method)("16")
        with pytest.raises(ValueError):
            getattr(h, method)(-1)
    with pytest.raises(TypeError):
        cryptaccel.hash_many(name, [b"abc"])
    with pytest.raises(ValueError):
        cryptaccel.hash_many(name, [b"abc"], length=-1)
    assert h.digest(16) == hashlib.new(name, b"abc").digest(16)


@pytest.mark.parametrize("name", FIXED)
def test_fixed_digest_takes_no_length(name):
    if name in hashlib.algorithms_available:
        with pytest.raises(TypeError):
            hashlib.new(name).digest(16)
    with pytest.raises(TypeError):
        cryptaccel.new(name).digest(16)
    with pytest.raises(TypeError):
        cryptaccel.new(name).hexdigest(16)


@pytest.mark.parametrize("name", XOF)
def test_shake_length_by_keyword(name, engine):
    """digest(length=n) and hexdigest(length=n), as hashlib's SHAKE objects take them (issue 23)."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("shake-length-keyword", name)
    for length in [0, 1, rng.randrange(2, 600)]:
        data = rng.randbytes(rng.randrange(0, 1000))
        ours, theirs = cryptaccel.new(name, data, engine=engine), hashlib.new(name, data)
        assert ours.digest(length=length) == theirs.digest(length=length), f"{seed} length={length}"
        assert ours.hexdigest(length=length) == theirs.hexdigest(length=length), f"{seed} length={length}"
        assert ours.digest(length) == ours.digest(length=length)
    with pytest.raises(TypeError):
        hashlib.new(name).digest(size=4)
    with pytest.raises(cryptaccel.InvalidArgumentType):
        cryptaccel.new(name).digest(length="4")
    with pytest.raises(cryptaccel.InvalidArgumentType, match="missing required argument 'length'"):
        cryptaccel.new(name).hexdigest()


@pytest.mark.parametrize("name", ALL)
def test_constructor_data_and_string_keywords(name, engine):
    """The initial data as data= or as hashlib's string=, in the named constructors and new() (issue 23); both at
    once is a TypeError, as in hashlib."""
    skip_unless_hash_supported(engine, name)
    rng, seed = seeded("constructor-keywords", name)
    data = rng.randbytes(rng.randrange(0, 3000))
    length = None if name not in XOF else 64
    expected = ref_digest(reference(name, data), length)
    constructor = getattr(cryptaccel, name)
    for h in (constructor(data=data, engine=engine), constructor(string=data, engine=engine),
              cryptaccel.new(name, data=data, engine=engine), cryptaccel.new(name, string=data, engine=engine),
              constructor(string=bytearray(data), usedforsecurity=False, engine=engine)):
        assert ours_digest(h, length) == expected, seed
    if name in hashlib.algorithms_available and hasattr(hashlib, name):
        assert ref_digest(getattr(hashlib, name)(string=data), length) == expected  # hashlib's string= is the same
        with pytest.raises(TypeError):
            getattr(hashlib, name)(b"a", string=b"b")
    with pytest.raises(cryptaccel.InvalidArgumentType, match="mutually exclusive"):
        constructor(b"a", string=b"b")
    with pytest.raises(cryptaccel.InvalidArgumentType, match="mutually exclusive"):
        cryptaccel.new(name, data=b"", string=b"b")  # an explicit empty data counts as given
    with pytest.raises(TypeError):
        constructor(string="text")


@pytest.mark.parametrize("name", ALL)
def test_update_none_is_a_type_error(name):
    """update(None) raises TypeError as hashlib does (cryptaccel.InvalidArgumentType, with a message that names the
    argument, not the binding's signature), and leaves the state alone."""
    h = cryptaccel.new(name, b"abc")
    if name in hashlib.algorithms_available:
        with pytest.raises(TypeError):
            hashlib.new(name).update(None)
    with pytest.raises(cryptaccel.InvalidArgumentType, match=r"^data must be a bytes-like object, not 'NoneType'$"):
        h.update(None)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="NoneType"):
        cryptaccel.new(name, None)
    length = None if name not in XOF else 8
    assert ours_digest(h, length) == ref_digest(reference(name, b"abc"), length)


def test_engine_errors():
    with pytest.raises(cryptaccel.EngineUnavailable):
        cryptaccel.new("sha256", engine="no-such-engine")
    with pytest.raises(cryptaccel.EngineUnavailable):
        cryptaccel.hash_many("sha256", [b"a"], engine="no-such-engine")
    with pytest.raises(cryptaccel.EngineUnavailable):
        cryptaccel.keccak_f1600_batch([[0] * 25], engine="no-such-engine")
    with pytest.raises(TypeError):
        cryptaccel.new("sha256", engine=None)
    with pytest.raises(TypeError):
        cryptaccel.sha256(b"", engine=1)


# --- Keccak-f[1600] -------------------------------------------------------------------------------------------------

# The oracle: keccak_model.py (FIPS 202 alone: round constants from the LFSR, rho offsets from the walk), shared with
# the RISC-V kernel tests.
_MASK, _RC, _RHO, keccak_f1600_py = MASK64, ROUND_CONSTANTS, RHO, keccak_p


def _sponge_py(data: bytes, rate: int, suffix: int, out_len: int) -> bytes:
    """SHA-3 / SHAKE on keccak_f1600_py: pad10*1 after the domain bits `suffix` (0x06 SHA-3, 0x1F SHAKE)."""
    padded = bytearray(data) + bytes([suffix])
    padded += bytes(-len(padded) % rate)
    padded[-1] |= 0x80
    state = [0] * 25
    for off in range(0, len(padded), rate):
        for i in range(rate // 8):
            state[i] ^= int.from_bytes(padded[off + 8 * i: off + 8 * i + 8], "little")
        state = keccak_f1600_py(state)
    out = b""
    while True:
        out += b"".join(v.to_bytes(8, "little") for v in state[:rate // 8])
        if len(out) >= out_len:
            return out[:out_len]
        state = keccak_f1600_py(state)


def test_python_keccak_oracle_matches_hashlib():
    """The oracle itself: a sponge on keccak_f1600_py gives hashlib's SHA3-256, SHA3-512 and SHAKE128 (several
    blocks in and out), and its round constants start as FIPS 202's table (RC[0] = 1, RC[1] = 0x8082)."""
    assert _RC[0] == 1 and _RC[1] == 0x8082 and _RHO[1] == 1 and _RHO[0] == 0
    rng, seed = seeded("keccak_oracle")
    for n in (0, 1, 135, 136, 137, 300):
        m = rng.randbytes(n)
        assert _sponge_py(m, 136, 0x06, 32) == hashlib.sha3_256(m).digest(), f"{seed} len={n}"
        assert _sponge_py(m, 72, 0x06, 64) == hashlib.sha3_512(m).digest(), f"{seed} len={n}"
        assert _sponge_py(m, 168, 0x1F, 400) == hashlib.shake_128(m).digest(400), f"{seed} len={n}"


def test_keccak_f1600_batch(engine):
    """keccak_f1600_batch on random states equals the Python permutation, in list form and in bytes form."""
    skip_unless_hash_supported(engine, "", "keccak")
    rng, seed = seeded("keccak_batch")
    for count in (1, 2, 3, 17):
        states = [[rng.getrandbits(64) for _ in range(25)] for _ in range(count)]
        if count == 3:
            states[0] = [0] * 25
            states[1] = [_MASK] * 25
        expected = [keccak_f1600_py(s) for s in states]
        got, used = cryptaccel.keccak_f1600_batch(states, engine=engine, return_engine=True)
        assert used == engine
        assert got == expected, f"[{engine}] {seed} {count} states (lists)"
        raw = b"".join(v.to_bytes(8, "little") for s in states for v in s)
        want = b"".join(v.to_bytes(8, "little") for s in expected for v in s)
        for form in (bytes, bytearray, memoryview):
            out = cryptaccel.keccak_f1600_batch(form(raw), engine=engine)
            assert isinstance(out, bytes) and out == want, f"[{engine}] {seed} {count} states ({form.__name__})"
    # tuples of lanes, and twice in a row (the permutation is not an involution: the second result differs)
    once = cryptaccel.keccak_f1600_batch([tuple(range(25))], engine=engine)
    assert once == [keccak_f1600_py(range(25))]
    assert cryptaccel.keccak_f1600_batch(once, engine=engine) == [keccak_f1600_py(once[0])]
    assert cryptaccel.keccak_f1600_batch([], engine=engine) == []
    assert cryptaccel.keccak_f1600_batch(b"", engine=engine) == b""


def test_keccak_f1600_batch_many_states(engine):
    """A batch large enough to be split across threads or lanes (and to run without the GIL)."""
    skip_unless_hash_supported(engine, "", "keccak")
    rng, seed = seeded("keccak_many")
    states = [[rng.getrandbits(64) for _ in range(25)] for _ in range(300)]
    got = cryptaccel.keccak_f1600_batch(states, engine=engine)
    for i in rng.sample(range(len(states)), 40):
        assert got[i] == keccak_f1600_py(states[i]), f"[{engine}] {seed} state {i} of {len(states)}"


@pytest.mark.parametrize("bad,exc", [
    ([[0] * 24], ValueError),
    ([[0] * 26], ValueError),
    ([[0] * 24 + [1 << 64]], ValueError),
    ([[0] * 24 + [-1]], ValueError),
    ([[0] * 24 + [1.0]], TypeError),
    ([[0] * 24 + ["1"]], TypeError),
    ([b"\0" * 200], TypeError),
    ([0], TypeError),
    (b"\0" * 199, ValueError),
    (b"\0" * 201, ValueError),
    ("abc", TypeError),
    (None, TypeError),
])
def test_keccak_f1600_batch_errors(bad, exc):
    with pytest.raises(exc):
        cryptaccel.keccak_f1600_batch(bad)


# --- threads and the GIL --------------------------------------------------------------------------------------------

def _stream_algorithm(engine: str) -> str:
    """The slowest algorithm `engine` streams (so that a call lasts long enough to observe)."""
    for name in ("sha3_512", "sm3", "sha512", "sha256"):
        try:
            cryptaccel.new(name, engine=engine)
            return name
        except cryptaccel.EngineUnavailable:
            continue
    pytest.skip(f"engine {engine} streams none of sha3_512, sm3, sha512, sha256")


def _ticks_inside_calls(call: Callable[[], object], expected: object, repeats: int = 3) -> tuple[int, int, float]:
    """Runs `call` `repeats` times in a worker thread while a ticker thread counts its own iterations.
    Returns (ticks strictly inside calls longer than 50 ms, number of such calls, shortest call in s)."""
    ticks: List[float] = []
    windows: List[tuple[float, float]] = []
    results: List[object] = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    def worker():
        for _ in range(repeats):
            t0 = time.perf_counter()
            results.append(call())
            windows.append((t0, time.perf_counter()))

    t = threading.Thread(target=ticker)
    t.start()
    try:
        w = threading.Thread(target=worker)
        w.start()
        w.join()
    finally:
        stop.set()
        t.join()
    assert results == [expected] * repeats, "a call returned a wrong result while another thread ran"
    long_windows = [(a, b) for a, b in windows if b - a > 0.05]
    inside = sum(1 for x in ticks for a, b in long_windows if a + 0.01 < x < b - 0.01)
    return inside, len(long_windows), min(b - a for a, b in windows)


def _sized_for(fn: Callable[[int], float], start: int = 4 << 20, target: float = 0.2, cap: int = 256 << 20) -> int:
    """An input size that makes fn(size) take about `target` seconds (measured once at `start` bytes)."""
    t0 = time.perf_counter()
    fn(start)
    dt = max(time.perf_counter() - t0, 1e-4)
    return int(min(cap, max(start, start * target / dt)))


@pytest.mark.parametrize("what", ["new", "update", "hash_many", "shake_digest"])
def test_large_hash_releases_the_gil(what, engine):
    """While a large hash runs in one thread (new(data), update(data), hash_many, a long SHAKE output), another
    Python thread keeps running: ticks land strictly inside the call."""
    if what == "hash_many":
        name = "sha256"
        skip_unless_hash_supported(engine, name, "batch")
    elif what == "shake_digest":
        name = "shake_256"
        skip_unless_hash_supported(engine, name)
    else:
        name = _stream_algorithm(engine)
    if what == "shake_digest":
        h = cryptaccel.new(name, b"seed", engine=engine)
        n = _sized_for(lambda k: h.digest(k), start=1 << 20, cap=64 << 20)
        call = lambda: h.digest(n)  # noqa: E731
        expected = hashlib.new(name, b"seed").digest(n)
    else:
        if what == "hash_many":
            n = _sized_for(lambda k: cryptaccel.hash_many(name, [bytes(k // 8)] * 8, engine=engine))
            data = os.urandom(n // 8)
            call = lambda: cryptaccel.hash_many(name, [data] * 8, engine=engine)  # noqa: E731
            expected = [hashlib.new(name, data).digest()] * 8
        else:
            n = _sized_for(lambda k: cryptaccel.new(name, bytes(k), engine=engine).digest())
            data = os.urandom(n)
            expected = reference(name, data).digest()
            if what == "new":
                call = lambda: cryptaccel.new(name, data, engine=engine).digest()  # noqa: E731
            else:
                def call():
                    h = cryptaccel.new(name, engine=engine)
                    h.update(data)
                    return h.digest()
    inside, calls, shortest = _ticks_inside_calls(call, expected)
    if calls == 0:
        pytest.skip(f"{name} [{engine}] too fast to observe the GIL ({n} bytes in {shortest:.3f}s < 50 ms); "
                    "results were correct")
    assert inside, f"{what} {name} [{engine}]: no Python thread ran during {calls} calls of {shortest:.3f}s+ ({n} bytes)"


def test_shared_object_concurrent_updates(engine):
    """Threads updating one shared hash object are serialised: the result is the hash of all chunks (all equal, so
    any order gives the same digest), whether the updates run with the GIL released (large) or not (small)."""
    name = _stream_algorithm(engine)
    rng, seed = seeded("shared_object", name)
    for size in (rng.randrange(5000, 300_000), rng.randrange(1, 4000)):
        chunk = rng.randbytes(size)
        h = cryptaccel.new(name, engine=engine)
        per_thread, nthreads = 8, 4
        errors: List[BaseException] = []

        def worker():
            try:
                for _ in range(per_thread):
                    h.update(chunk)
                    h.copy()
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(nthreads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        expected = reference(name, chunk * (per_thread * nthreads)).digest()
        assert h.digest() == expected, f"{name} [{engine}] {seed} chunk={size}: concurrent updates were not serialised"


def test_shared_object_mixed_updates(engine):
    """Large updates (run without the GIL, under the object's mutex) and small ones (with the GIL, locked only once the
    object has been used without the GIL) on one shared object from several threads are serialised. The chunks are all
    zero bytes, so any order gives the hash of total-length zeros; a lost or torn update changes it."""
    name = _stream_algorithm(engine)
    rng, seed = seeded("shared_object_mixed", name)
    big, small = rng.randrange(100_000, 400_000), rng.randrange(1, 300)
    h = cryptaccel.new(name, engine=engine)
    rounds, nthreads = 6, 4
    errors: List[BaseException] = []

    def worker(i: int):
        try:
            for r in range(rounds):
                if (i + r) % 2:
                    h.update(bytes(big))
                else:
                    for _ in range(50):
                        h.update(bytes(small))
                    h.digest()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    total = sum(big if (i + r) % 2 else 50 * small for i in range(nthreads) for r in range(rounds))
    assert h.digest() == reference(name, bytes(total)).digest(), \
        f"{name} [{engine}] {seed} big={big} small={small}: mixed concurrent updates were not serialised"
