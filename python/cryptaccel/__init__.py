"""cryptaccel: accelerated symmetric cryptography (AES-128/192/256 and SM4 in ECB, CBC, CTR, GCM and XTS;
ChaCha20-Poly1305; the age file format in cryptaccel.age) and hashing
(SHA-224/256/384/512, SHA-512/224, SHA-512/256, SHA3-224/256/384/512, SHAKE128/256, SM3).

One algorithm suite, several engines: every engine (``cpu``: x86 AES-NI/SHA-NI; ``ref``: portable; ``cuda`` as it
lands) produces the same bytes, and ``engine="auto"`` picks the most preferred engine that is available and
supports the request.

Quick start::

    import os, cryptaccel
    key, nonce = os.urandom(32), os.urandom(12)
    sealed = cryptaccel.encrypt("aes-256-gcm", key, b"attack at dawn", nonce, aad=b"header")
    assert cryptaccel.decrypt("aes-256-gcm", key, sealed, nonce, aad=b"header") == b"attack at dawn"

Conventions (identical on every engine, see docs/python.md):

* ECB/CBC: PKCS#7 padding unless ``padding=False`` (then the length must be a multiple of 16).
* CTR: the IV is the initial 128-bit counter block, incremented as one big-endian 128-bit integer.
* GCM: any non-empty nonce length; ``encrypt`` returns ``ciphertext || tag`` (``tag_len`` bytes, 4..16) and
  ``decrypt`` takes ``ciphertext || tag`` and raises :class:`AuthenticationFailed` on a bad tag. ``aad`` and a
  ``tag_len`` other than 16 are refused (:class:`InvalidArgument`) by the other modes, and an IV by ECB, as
  ``cryptaccel enc`` refuses them, rather than silently ignored.
* XTS (AES-128/256): key = key1 || key2, IV = the 16-byte tweak of the first data unit (see :func:`xts_tweak`);
  ``xts_unit`` splits the data into data units of that many bytes with consecutive tweaks.

Hashing has :mod:`hashlib`'s interface (see cryptaccel._hash)::

    h = cryptaccel.sha256(b"abc")            # or cryptaccel.new("sha3_256", data, engine="auto")
    h.update(b"more"); h.hexdigest()
    cryptaccel.shake_128(b"seed").digest(64)
    cryptaccel.hash_many("sm3", [b"a", b"b", b""])   # one batch call

Every function accepts any bytes-like object (``bytes``, ``bytearray``, ``memoryview``, ...) for keys, IVs, data and
AAD, and releases the GIL while the C++ code runs on inputs larger than 4 KiB.

Errors (cryptaccel._errors): everything cryptaccel raises is a :class:`Error`; a bad value is an
:class:`InvalidArgument` (a ValueError), a wrong type an :class:`InvalidArgumentType` (a TypeError), bad padding a
:class:`BadDecrypt` (a ValueError), a forged GCM message an :class:`AuthenticationFailed`.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import (
    AuthenticationFailed,
    BadDecrypt,
    EngineUnavailable,
    Error,
    InvalidArgument,
    InvalidArgumentType,
    InvalidCiphertext,
    plain_type_error,
)
from . import _cryptaccel as _ext
from ._stream import CipherContext, decrypt_file, decryptor, encrypt_file, encryptor, streamable
from ._hash import (
    Hash,
    HashXOF,
    algorithms_available,
    algorithms_guaranteed,
    hash_many,
    keccak_f1600_batch,
    new,
    sha3_224,
    sha3_256,
    sha3_384,
    sha3_512,
    sha224,
    sha256,
    sha384,
    sha512,
    sha512_224,
    sha512_256,
    shake_128,
    shake_256,
    sm3,
)

__version__: str = _ext.__version__

# Submodules imported on first use (PEP 562), so that `import cryptaccel` stays quick for a short-lived process:
#   cryptaccel.cuda      GPU arrays through DLPack (python/cryptaccel/cuda.py)
#   cryptaccel.rsa       RSA signatures, encryption and modexp (python/cryptaccel/rsa.py)
#   cryptaccel.shacrypt  sha512crypt / sha256crypt password hashing (python/cryptaccel/shacrypt.py)
#   cryptaccel.crack     hashcat-style dictionary attacks (python/cryptaccel/crack.py)
#   cryptaccel.age       the age file format (python/cryptaccel/age.py)
#   cryptaccel.bench     speed measurements, as `cryptaccel speed` (python/cryptaccel/bench.py)
_LAZY_SUBMODULES = ("age", "bench", "crack", "cuda", "rsa", "shacrypt")


def __getattr__(name: str) -> Any:
    if name in _LAZY_SUBMODULES:
        import importlib

        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))

__all__ = [
    "encrypt",
    "decrypt",
    "encryptor",
    "decryptor",
    "encrypt_file",
    "decrypt_file",
    "streamable",
    "CipherContext",
    "encrypt_many",
    "decrypt_many",
    "engines",
    "resolve_engine",
    "cipher_names",
    "cipher_info",
    "xts_tweak",
    # hashing (cryptaccel._hash)
    "new",
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
    "hash_many",
    "keccak_f1600_batch",
    "algorithms_guaranteed",
    "algorithms_available",
    "Hash",
    "HashXOF",
    "Error",
    "InvalidArgument",
    "InvalidArgumentType",
    "AuthenticationFailed",
    "BadDecrypt",
    "InvalidCiphertext",
    "EngineUnavailable",
    "age",
    "bench",
    "crack",
    "cuda",
    "rsa",
    "shacrypt",
    "__version__",
]

BytesLike = Union[bytes, bytearray, memoryview]

_SIZE_MAX = (1 << 64) - 1
_BYTES_TYPES = (bytes, bytearray, memoryview)


def _size_arg(name: str, value: Any) -> int:
    """Checks that ``value`` is a non-negative integer that fits a C++ size_t: InvalidArgumentType for another type,
    InvalidArgument for a value out of range."""
    if isinstance(value, bool):
        raise InvalidArgumentType(f"{name} must be an integer, not bool")
    try:
        n = operator.index(value)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be an integer, not {type(value).__name__}") from None
    if n < 0 or n > _SIZE_MAX:
        raise InvalidArgument(f"invalid {name} {n} (must be a non-negative integer)")
    return n


def _str_arg(name: str, value: Any) -> str:
    """``value`` when it is a str; InvalidArgumentType otherwise."""
    if not isinstance(value, str):
        raise InvalidArgumentType(f"{name} must be a str, not {type(value).__name__}")
    return value


def _opt_bytes(value: Any) -> Any:
    return b"" if value is None else value


def _one_shot(run: Any, where: str, cipher: str, key: BytesLike, data: BytesLike, iv: BytesLike, aad: BytesLike,
              tag_len: int, padding: bool, xts_unit: int, engine: str, return_engine: bool) -> Any:
    """encrypt() and decrypt(): the arguments checked and passed to the extension's `run`; type errors from it
    reported as `where`'s, without the binding's signature."""
    try:
        out, used = run(
            _str_arg("cipher", cipher),
            key,
            data,
            _opt_bytes(iv),
            _opt_bytes(aad),
            _size_arg("tag_len", tag_len),
            bool(padding),
            _size_arg("xts_unit", xts_unit),
            _str_arg("engine", engine),
        )
    except TypeError as e:
        raise plain_type_error(where, e, key=key, data=data) from None
    return (out, used) if return_engine else out


def encrypt(
    cipher: str,
    key: BytesLike,
    data: BytesLike,
    iv: BytesLike = b"",
    *,
    aad: BytesLike = b"",
    tag_len: int = 16,
    padding: bool = True,
    xts_unit: int = 0,
    engine: str = "auto",
    return_engine: bool = False,
) -> Union[bytes, Tuple[bytes, str]]:
    """Encrypts ``data`` with ``cipher`` and returns the ciphertext.

    Args:
        cipher: a cipher name such as ``"aes-256-gcm"``, ``"aes-128-cbc"``, ``"sm4-ctr"`` (case-insensitive; see
            :func:`cipher_names`).
        key: the key; 16, 24 or 32 bytes for AES, 16 for SM4, twice that for XTS (key1 || key2).
        data: the plaintext (any length; a multiple of 16 for ECB/CBC with ``padding=False``, at least 16 for XTS).
        iv: the IV (CBC), initial counter block (CTR), nonce (GCM, any non-empty length, 12 recommended) or tweak of
            the first data unit (XTS); empty (the default) for ECB, which refuses an IV. ``None`` is the same as
            ``b""``.
        aad: additional authenticated data (GCM only: other modes refuse a non-empty ``aad``).
        tag_len: GCM tag length in bytes, 4..16; other modes refuse any value but the default 16.
        padding: PKCS#7 padding for ECB and CBC (as ``openssl enc``); ignored by other modes.
        xts_unit: XTS data-unit size in bytes; 0 (the default) makes the whole message one data unit.
        engine: ``"auto"`` or an engine name from :func:`engines` (``"ref"``, ...).
        return_engine: when true, return ``(ciphertext, engine_name)`` to show which engine ran.

    Returns:
        The ciphertext (GCM: ``ciphertext || tag``), or ``(ciphertext, engine_name)`` with ``return_engine=True``.

    Raises:
        InvalidArgument: unknown cipher, wrong key/IV/tag length, a data length the mode cannot take, or an argument
            the mode does not take (``aad`` or ``tag_len`` without GCM, an IV with ECB).
        EngineUnavailable: ``engine`` is unknown, unavailable here, or does not support this cipher.
        InvalidArgumentType: an argument has the wrong type (a ``str`` for bytes, a float for an int); a TypeError.
    """
    return _one_shot(_ext._encrypt, "cryptaccel.encrypt", cipher, key, data, iv, aad, tag_len, padding, xts_unit,
                     engine, return_engine)


def decrypt(
    cipher: str,
    key: BytesLike,
    data: BytesLike,
    iv: BytesLike = b"",
    *,
    aad: BytesLike = b"",
    tag_len: int = 16,
    padding: bool = True,
    xts_unit: int = 0,
    engine: str = "auto",
    return_engine: bool = False,
) -> Union[bytes, Tuple[bytes, str]]:
    """Decrypts ``data`` with ``cipher`` and returns the plaintext.

    Takes the same arguments as :func:`encrypt`; for GCM ``data`` is ``ciphertext || tag`` with a ``tag_len``-byte
    tag, and the tag is verified (in constant time) before anything is decrypted.

    Returns:
        The plaintext, or ``(plaintext, engine_name)`` with ``return_engine=True``.

    Raises:
        AuthenticationFailed: the GCM tag does not match (nothing is returned).
        BadDecrypt: malformed PKCS#7 padding, a ciphertext length that is not a block multiple (ECB/CBC), or a GCM
            input shorter than the tag.
        InvalidArgument: as for :func:`encrypt`.
        EngineUnavailable: ``engine`` is unknown, unavailable here, or does not support this cipher.
        InvalidArgumentType: an argument has the wrong type; a TypeError.
    """
    return _one_shot(_ext._decrypt, "cryptaccel.decrypt", cipher, key, data, iv, aad, tag_len, padding, xts_unit,
                     engine, return_engine)


def _per_job(name: str, values: Any, n: int) -> List[Any]:
    """A list of ``n`` per-job values: ``None`` means ``b""`` for every job, one bytes-like object is shared by all."""
    if values is None:
        return [b""] * n
    if isinstance(values, _BYTES_TYPES):
        return [values] * n
    if isinstance(values, str):
        raise InvalidArgumentType(f"{name} must be a sequence of bytes-like objects, not str")
    try:
        items = [_opt_bytes(v) for v in values]
    except TypeError:  # not iterable
        raise InvalidArgumentType(f"{name} must be a bytes-like object or a sequence of them, not "
                                  f"{type(values).__name__}") from None
    if len(items) != n:
        raise InvalidArgument(f"{name} has {len(items)} items but datas has {n}")
    return items


def _run_many(
    direction: str,
    cipher: str,
    keys: Any,
    ivs: Any,
    datas: Sequence[BytesLike],
    aads: Any,
    tag_len: int,
    padding: bool,
    xts_unit: int,
    engine: str,
    return_engine: bool,
) -> Any:
    if isinstance(datas, (str,) + _BYTES_TYPES):
        raise InvalidArgumentType(f"datas must be a sequence of bytes-like objects, not a single "
                                  f"{type(datas).__name__}")
    try:
        datas = list(datas)
    except TypeError:  # not iterable
        raise InvalidArgumentType(f"datas must be a sequence of bytes-like objects, not "
                                  f"{type(datas).__name__}") from None
    n = len(datas)
    try:
        out, used = _ext._run_many(
            _str_arg("cipher", cipher),
            direction,
            _per_job("keys", keys, n),
            _per_job("ivs", ivs, n),
            datas,
            _per_job("aads", aads, n),
            _size_arg("tag_len", tag_len),
            bool(padding),
            _size_arg("xts_unit", xts_unit),
            _str_arg("engine", engine),
        )
    except TypeError as e:
        raise plain_type_error(f"cryptaccel.{direction}_many", e) from None
    return (out, used) if return_engine else out


def encrypt_many(
    cipher: str,
    keys: Union[BytesLike, Sequence[BytesLike]],
    ivs: Union[None, BytesLike, Sequence[BytesLike]],
    datas: Sequence[BytesLike],
    *,
    aads: Union[None, BytesLike, Sequence[BytesLike]] = None,
    tag_len: int = 16,
    padding: bool = True,
    xts_unit: int = 0,
    engine: str = "auto",
    return_engine: bool = False,
) -> Union[List[bytes], Tuple[List[bytes], str]]:
    """Encrypts many independent messages in one batch (one call into the engine, which may run jobs in parallel).

    Job ``i`` encrypts ``datas[i]`` with ``keys[i]``, ``ivs[i]`` and (GCM) ``aads[i]``, exactly as
    ``encrypt(cipher, keys[i], datas[i], ivs[i], aad=aads[i], ...)`` would.

    Args:
        cipher: a cipher name, as for :func:`encrypt`; one cipher for the whole batch.
        keys: one key per job, or a single bytes-like key shared by every job.
        ivs: one IV per job, a single IV shared by every job, or ``None`` (empty IVs, for ECB).
        datas: the plaintexts.
        aads: GCM additional data: one per job, one shared, or ``None`` (no AAD; the only choice for other modes).
        tag_len, padding, xts_unit, engine: as for :func:`encrypt`, for every job.
        return_engine: when true, return ``(results, engine_name)``.

    Returns:
        A list with one ciphertext per job (GCM: ``ciphertext || tag``), or ``(list, engine_name)``.

    Raises:
        InvalidArgument: unknown cipher, mismatched list lengths, or a job with a wrong key/IV/tag/data length or an
            IV/AAD its mode does not take (the message starts with ``job <i>:``).
        EngineUnavailable: as for :func:`encrypt`.
        InvalidArgumentType: ``datas`` is not a sequence, or an item has the wrong type.
    """
    return _run_many("encrypt", cipher, keys, ivs, datas, aads, tag_len, padding, xts_unit, engine, return_engine)


def decrypt_many(
    cipher: str,
    keys: Union[BytesLike, Sequence[BytesLike]],
    ivs: Union[None, BytesLike, Sequence[BytesLike]],
    datas: Sequence[BytesLike],
    *,
    aads: Union[None, BytesLike, Sequence[BytesLike]] = None,
    tag_len: int = 16,
    padding: bool = True,
    xts_unit: int = 0,
    engine: str = "auto",
    return_engine: bool = False,
) -> Union[List[Optional[bytes]], Tuple[List[Optional[bytes]], str]]:
    """Decrypts many independent messages in one batch; a failed tag or padding check fails only its own job.

    Arguments are as for :func:`encrypt_many`; for GCM each ``datas[i]`` is ``ciphertext || tag``.

    Returns:
        A list with one plaintext per job, ``None`` for a job whose GCM tag did not verify, whose PKCS#7 padding was
        malformed, or whose ciphertext length was impossible (not a block multiple, shorter than the tag); or
        ``(list, engine_name)`` with ``return_engine=True``.

    Raises:
        InvalidArgument: unknown cipher, mismatched list lengths, or a job with a wrong key/IV/tag length or an IV/AAD
            its mode does not take (the message starts with ``job <i>:``).
        EngineUnavailable: as for :func:`encrypt`.
        InvalidArgumentType: as for :func:`encrypt_many`.
    """
    return _run_many("decrypt", cipher, keys, ivs, datas, aads, tag_len, padding, xts_unit, engine, return_engine)


def engines() -> List[Dict[str, Any]]:
    """Lists the engines compiled into this build, most preferred first (the order ``"auto"`` tries them in).

    Returns:
        One dict per engine: ``name`` (str), ``description`` (str), ``available`` (bool: usable on this machine)
        and ``unavailable_reason`` (str, empty when available).
    """
    return _ext._engines()


def resolve_engine(engine: str, cipher: str, direction: str = "encrypt") -> str:
    """Names the engine that would run a request, without running it.

    Args:
        engine: ``"auto"`` or an engine name.
        cipher: a cipher name such as ``"aes-128-ctr"``.
        direction: ``"encrypt"`` or ``"decrypt"``.

    Returns:
        The engine name, e.g. ``"ref"``.

    Raises:
        EngineUnavailable: the engine is unknown, unavailable, or does not support the cipher in that direction.
        InvalidArgument: unknown cipher or direction.
    """
    return _ext._resolve_engine(_str_arg("engine", engine), _str_arg("cipher", cipher), _str_arg("direction", direction))


def cipher_names() -> List[str]:
    """Every cipher name cryptaccel supports, in canonical lower-case form and a stable order (``"aes-128-ecb"``, ...)."""
    return _ext._cipher_names()


def cipher_info(cipher: str) -> Dict[str, Any]:
    """Describes a cipher name.

    Returns:
        A dict with ``name`` (canonical), ``block_cipher`` (``"aes"`` or ``"sm4"``), ``mode`` (``"ecb"``, ``"cbc"``,
        ``"ctr"``, ``"gcm"``, ``"xts"``), ``key_size`` (bytes; XTS counts both keys), ``iv_size`` (default IV/nonce
        length in bytes: 0 for ECB, 12 for GCM, 16 otherwise), ``block_size`` (16) and ``aead`` (bool).

    Raises:
        InvalidArgument: unknown or unsupported cipher name.
    """
    return _ext._cipher_info(_str_arg("cipher", cipher))


def xts_tweak(n: int) -> bytes:
    """The 16-byte XTS tweak for data-unit sequence number ``n`` (little-endian, IEEE 1619 section 5.1).

    Raises:
        InvalidArgument: ``n`` is negative or does not fit in 64 bits.
        InvalidArgumentType: ``n`` is not an integer.
    """
    if isinstance(n, bool):
        raise InvalidArgumentType("n must be an integer, not bool")
    try:
        value = operator.index(n)
    except TypeError:
        raise InvalidArgumentType(f"n must be an integer, not {type(n).__name__}") from None
    if value < 0 or value >= 1 << 64:
        raise InvalidArgument(f"XTS data-unit sequence number {value} is out of range (0 .. 2**64-1)")
    return _ext._xts_tweak(value)
