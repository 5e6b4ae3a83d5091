"""Hash functions with Python's :mod:`hashlib` interface: SHA-2, SHA-3, SHAKE and SM3 on cryptaccel's engines.

``cryptaccel.new(name, data)`` and the named constructors (``cryptaccel.sha256()``, ...) return objects that behave
as hashlib's: ``update``, ``digest``, ``hexdigest``, ``copy``, ``name``, ``digest_size`` and ``block_size`` are the
same, with the same values (SHAKE objects have ``digest_size`` 0 and take the output length in ``digest(length)``).
They add ``engine``, the name of the engine whose block function runs.

The constructors take the initial data by position or as ``data=`` or ``string=`` (hashlib's older name), and SHAKE's
``digest`` takes ``length`` by position or keyword, as hashlib's. Errors are hashlib's kinds: a wrong type raises
:class:`InvalidArgumentType` (a TypeError: ``update(None)``, ``update("text")``), an unknown name
:class:`InvalidArgument` (a ValueError).

``hash_many`` hashes many messages in one batch call (where accelerators are fast), and ``keccak_f1600_batch``
applies the bare Keccak-f[1600] permutation to many states.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, FrozenSet, List, Optional, Sequence, Tuple, Union

from . import _cryptaccel as _ext
from ._errors import InvalidArgument, InvalidArgumentType, plain_type_error

__all__ = [
    "Hash",
    "HashXOF",
    "new",
    "hash_many",
    "keccak_f1600_batch",
    "algorithms_guaranteed",
    "algorithms_available",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512_224",
    "sha512_256",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "shake_128",
    "shake_256",
    "sm3",
]

BytesLike = Union[bytes, bytearray, memoryview]


def _name_arg(name: Any) -> str:
    """``name`` when it is a str (InvalidArgumentType otherwise)."""
    if not isinstance(name, str):
        raise InvalidArgumentType(f"name must be a str, not {type(name).__name__}")
    return name


def _engine_arg(engine: Any) -> str:
    """``engine`` when it is a str (InvalidArgumentType otherwise)."""
    if not isinstance(engine, str):
        raise InvalidArgumentType(f"engine must be a str, not {type(engine).__name__}")
    return engine


def _int_arg(name: str, value: Any) -> int:
    """``value`` as an int: an int or an object with ``__index__`` (InvalidArgumentType otherwise: floats, str, None,
    bool)."""
    if isinstance(value, bool):
        raise InvalidArgumentType(f"{name} must be an int, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be an int, not {type(value).__name__}") from None


def _length_arg(length: Any) -> int:
    """An output length: an int (InvalidArgumentType otherwise), 0 .. 2**63-1 (InvalidArgument otherwise)."""
    n = _int_arg("length", length)
    if n < 0:
        raise InvalidArgument(f"invalid output length {n} (must be non-negative)")
    if n >= 1 << 63:
        raise InvalidArgument(f"output length {n} is too large")
    return n


@functools.lru_cache(maxsize=64)
def _info(name: str) -> Any:
    """Facts about a hash name (cached: hash_many is called in loops). Raises InvalidArgument for unknown names."""
    info = _ext._hash_info(name)
    return info["name"], info["digest_size"], bool(info["xof"])


#: The hash object class (defined by the extension): ``update``, ``digest``, ``hexdigest``, ``copy``, ``name``,
#: ``digest_size``, ``block_size`` as hashlib's objects, plus ``engine``. Thread-safe; cannot be pickled.
Hash = _ext.Hash
#: The SHAKE object class, a subclass of :class:`Hash` whose ``digest(length)`` and ``hexdigest(length)`` take the
#: output length in bytes; ``digest_size`` is 0, as in hashlib.
HashXOF = _ext.HashXOF
for _cls in (Hash, HashXOF):
    try:
        _cls.__module__ = "cryptaccel"
    except (AttributeError, TypeError):  # pragma: no cover - depends on the nanobind version
        pass
del _cls


class _NoData(bytes):
    """The type of the constructors' default ``data``: an empty bytes object (so the signature reads ``data=b''``)
    that is not the caller's, so that ``data`` and ``string`` given together can be told from ``string`` alone."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "b''"


_NO_DATA = _NoData()


def _initial_data(data: Any, string: Any) -> Any:
    """The initial data of a constructor: ``data``, or hashlib's older keyword ``string`` (not both)."""
    if string is None:
        return data
    if data is not _NO_DATA:
        raise InvalidArgumentType("'data' and 'string' are mutually exclusive (string= is hashlib's older name of "
                                  "data=)")
    return string


def new(name: str, data: BytesLike = _NO_DATA, *, engine: str = "auto", usedforsecurity: bool = True,
        string: Optional[BytesLike] = None) -> Hash:
    """Returns a new hash object for algorithm ``name``, optionally fed with ``data``, as :func:`hashlib.new`.

    Args:
        name: ``"sha224"``, ``"sha256"``, ``"sha384"``, ``"sha512"``, ``"sha512_224"``, ``"sha512_256"``,
            ``"sha3_224"``, ``"sha3_256"``, ``"sha3_384"``, ``"sha3_512"``, ``"shake_128"``, ``"shake_256"`` or
            ``"sm3"``; case-insensitive, and ``-``, ``_`` and ``/`` are ignored (``"SHA-256"``, ``"sha512/224"``).
        data: initial input, any bytes-like object (as a first :meth:`Hash.update`); by position or keyword.
        engine: ``"auto"`` or an engine name from :func:`cryptaccel.engines`.
        usedforsecurity: accepted for compatibility with hashlib; has no effect.
        string: hashlib's older name of ``data`` (give one or the other).

    Raises:
        InvalidArgument: unknown algorithm (also a ValueError, as hashlib's "unsupported hash type").
        EngineUnavailable: ``engine`` is unknown, unavailable here, or cannot stream this algorithm.
        InvalidArgumentType: ``name`` or ``engine`` is not a str, ``data`` is not bytes-like, or both ``data`` and
            ``string`` are given (a TypeError, as hashlib's).
    """
    if string is not None:
        data = _initial_data(data, string)
    try:
        return _ext._new(_name_arg(name), data, _engine_arg(engine))
    except TypeError as e:  # a wrong data type: InvalidArgumentType already, or nanobind's (never shown)
        raise plain_type_error("cryptaccel.new", e) from None


# The named constructors: sha256(data=b'', *, engine='auto', usedforsecurity=True, string=None) and the others, as
# hashlib's. They are the extension's own C functions (hash_bindings.cpp): a Python function in between cost more than
# hashing a 16-byte message. They check their arguments as new() does, in the same order and with the same error
# classes and messages (data and string together, the engine's type, the data's type, then the engine itself); their
# docstrings carry the signature for help() and inspect.signature().
_constructors = _ext._constructors
sha224 = _constructors["sha224"]
sha256 = _constructors["sha256"]
sha384 = _constructors["sha384"]
sha512 = _constructors["sha512"]
sha512_224 = _constructors["sha512_224"]
sha512_256 = _constructors["sha512_256"]
sha3_224 = _constructors["sha3_224"]
sha3_256 = _constructors["sha3_256"]
sha3_384 = _constructors["sha3_384"]
sha3_512 = _constructors["sha3_512"]
shake_128 = _constructors["shake_128"]
shake_256 = _constructors["shake_256"]
sm3 = _constructors["sm3"]
del _constructors

#: Names of every algorithm this build of cryptaccel implements (all of them, on every platform: the ``ref`` engine
#: runs every algorithm). Unlike hashlib's, a frozenset.
algorithms_guaranteed: FrozenSet[str] = frozenset(_ext._hash_names())
#: Names of the algorithms :func:`new` can run here with ``engine="auto"``.
algorithms_available: FrozenSet[str] = frozenset(n for n in _ext._hash_names() if _ext._hash_available(n))


def hash_many(
    name: str,
    messages: Sequence[BytesLike],
    *,
    length: Optional[int] = None,
    engine: str = "auto",
    threads: int = 0,
    return_engine: bool = False,
) -> Union[List[bytes], Tuple[List[bytes], str]]:
    """Hashes every message of ``messages`` in one batch (one call into the engine, which may run them in parallel).

    ``hash_many(name, msgs)[i] == new(name, msgs[i]).digest()`` (for SHAKE: ``.digest(length)``).

    Args:
        name: an algorithm name, as for :func:`new`.
        messages: a sequence of bytes-like objects (empty messages allowed).
        length: output length in bytes; required for SHAKE (0 gives ``b""``), and for other algorithms ``None`` or
            the digest size.
        engine: ``"auto"`` or an engine name.
        threads: host threads for engines that run on CPU cores (0: all cores).
        return_engine: when true, return ``(digests, engine_name)``.

    Returns:
        One digest (bytes) per message, in order; or ``(list, engine_name)`` with ``return_engine=True``.

    Raises:
        InvalidArgument: unknown algorithm, a negative length, or a length other than the digest size for a
            fixed-size hash.
        EngineUnavailable: ``engine`` is unknown, unavailable here, or does not support the algorithm.
        InvalidArgumentType: ``messages`` is not a sequence of bytes-like objects, a SHAKE ``length`` is missing, or
            another argument has the wrong type (a TypeError).
    """
    canonical, digest_size, xof = _info(_name_arg(name))
    if isinstance(messages, (str, bytes, bytearray, memoryview)):
        raise InvalidArgumentType("messages must be a sequence of bytes-like objects, not a single "
                                  f"{type(messages).__name__}")
    if length is None:
        if xof:
            raise InvalidArgumentType(f"hash_many() needs length= for {canonical} (an extendable-output function)")
        n = digest_size
    else:
        n = _length_arg(length)
    t = _int_arg("threads", threads)
    if t < 0 or t >= 1 << 64:
        raise InvalidArgument(f"invalid threads {t} (must be non-negative; 0: all cores)")
    try:
        out, used = _ext._hash_many(canonical, messages, n, _engine_arg(engine), t)
    except TypeError as e:
        raise plain_type_error("cryptaccel.hash_many", e) from None
    return (out, used) if return_engine else out


def keccak_f1600_batch(states: Any, engine: str = "auto", *, return_engine: bool = False) -> Any:
    """Applies the Keccak-f[1600] permutation (FIPS 202, 24 rounds) to every state.

    Args:
        states: either a sequence of states, each a sequence of 25 ints (lane ``(x, y)`` at index ``x + 5*y``,
            0 <= lane < 2**64); or a bytes-like object of ``n * 200`` bytes (n states of 25 little-endian 64-bit
            lanes, in the same lane order).
        engine: ``"auto"`` or an engine name.
        return_engine: when true, return ``(result, engine_name)``.

    Returns:
        The permuted states in the form they came in: a list of lists of 25 ints, or ``bytes`` of the same length.

    Raises:
        InvalidArgument: a state without 25 lanes, a lane outside 0 .. 2**64-1, or bytes not a multiple of 200.
        EngineUnavailable: ``engine`` is unknown, unavailable here, or does not run Keccak batches.
        InvalidArgumentType: ``states`` or a lane has the wrong type (a TypeError).
    """
    try:
        out, used = _ext._keccak_f1600_batch(states, _engine_arg(engine))
    except TypeError as e:
        raise plain_type_error("cryptaccel.keccak_f1600_batch", e) from None
    return (out, used) if return_engine else out
