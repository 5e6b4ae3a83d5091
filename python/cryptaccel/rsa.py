"""RSA on cryptaccel's engines: PKCS#1 v1.5 and PSS signatures, OAEP and PKCS#1 v1.5 encryption, one operation at a
time or batched, and raw modular exponentiation (``b**e % n`` for many ``b``).

Keys are parsed (and generated) by OpenSSL's libcrypto; the arithmetic is cryptaccel's own (constant-time Montgomery
multiplication, CRT with blinding, every private-key result checked before it is released). Keys of the
``cryptography`` package interoperate through PEM or DER::

    from cryptography.hazmat.primitives import serialization
    from cryptaccel import rsa

    key = rsa.PrivateKey.from_pem(crypto_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    sig = rsa.sign(key, b"message", padding="pss", hash="sha256")
    assert rsa.verify(key.public_key(), b"message", sig, padding="pss")
    sigs = rsa.sign_many(key, [b"a", b"b", b"c"], engine="cpu")           # one batch call

OAEP defaults to SHA-1 for both its hash and MGF1, as ``openssl pkeyutl -pkeyopt rsa_padding_mode:oaep`` and
``cryptaccel pkeyutl`` (RFC 8017's default): a message encrypted by either tool decrypts with ``rsa.decrypt(key, ct)``.
OAEP with SHA-1 remains secure (its proof does not rely on collision resistance); pass ``hash="sha256"`` (and use
``-pkeyopt rsa_oaep_md:sha256`` with the tools) for SHA-256. Digest names: ``sha1`` and the SHA-2 and SHA-3 names of
:func:`cryptaccel.new`; an unknown one raises InvalidArgument listing them.

Supported moduli: 1024, 2048, 3072, 4096 and 8192 bits. Every function takes ``engine=`` (``"auto"``, ``"ref"``,
``"cpu"``, ``"cuda"``, ... see :func:`cryptaccel.engines`); every engine gives the same bytes (PKCS#1 v1.5
signatures are deterministic; PSS and the encryptions are randomised). The GIL is released while RSA runs.
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, Tuple, Union

from . import _cryptaccel as _ext
from ._errors import InvalidArgument, InvalidArgumentType, InvalidCiphertext, plain_type_error

__all__ = [
    "PrivateKey",
    "PublicKey",
    "sign",
    "verify",
    "encrypt",
    "decrypt",
    "sign_many",
    "verify_many",
    "decrypt_many",
    "modexp_many",
    "SUPPORTED_BITS",
    "DEFAULT_OAEP_HASH",
    "InvalidCiphertext",
]

#: Modulus sizes (bits) the arithmetic is instantiated for; keys of other sizes are refused with InvalidArgument.
SUPPORTED_BITS = (1024, 2048, 3072, 4096, 8192)

#: The OAEP hash (and MGF1 hash) when none is given: SHA-1, the default of ``openssl pkeyutl`` and ``cryptaccel
#: pkeyutl`` (and RFC 8017), so that ciphertexts of either tool decrypt with the defaults.
DEFAULT_OAEP_HASH = "sha1"

BytesLike = Union[bytes, bytearray, memoryview]
_BYTES_TYPES = (bytes, bytearray, memoryview)


def _text_or_bytes(name: str, value: Any) -> Any:
    """PEM data and passwords may be given as str (encoded as UTF-8) or any bytes-like object."""
    if isinstance(value, str):
        return value.encode("utf-8")
    return value


def _int_to_bytes(name: str, value: Any) -> bytes:
    """An int (or big-endian bytes) as big-endian bytes: InvalidArgumentType for another type, InvalidArgument for a
    negative number."""
    if isinstance(value, _BYTES_TYPES):
        return bytes(value)
    if isinstance(value, bool):
        raise InvalidArgumentType(f"{name} must be an integer or bytes, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be an integer or bytes, not {type(value).__name__}") from None
    if v < 0:
        raise InvalidArgument(f"{name} must not be negative")
    return v.to_bytes(max(1, (v.bit_length() + 7) // 8), "big")


def _int(name: str, value: Any, limit: int = 1 << 64, none_ok: bool = False) -> Optional[int]:
    """A non-negative int below ``limit`` (the C++ size_t by default), or None when ``none_ok``: InvalidArgumentType
    for another type, InvalidArgument for a value out of range."""
    if value is None and none_ok:
        return None
    expected = "an integer or None" if none_ok else "an integer"
    if isinstance(value, bool):
        raise InvalidArgumentType(f"{name} must be {expected}, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be {expected}, not {type(value).__name__}") from None
    if v < 0:
        raise InvalidArgument(f"{name} must not be negative, got {v}")
    if v >= limit:
        raise InvalidArgument(f"{name} {v} is too large")
    return v


def _opt_int(name: str, value: Any) -> Optional[int]:
    """None, or a non-negative int that fits a C++ size_t."""
    return _int(name, value, none_ok=True)


#: The words ``salt_length`` takes besides a number of bytes (openssl's rsa_pss_saltlen vocabulary).
PSS_SALT_WORDS = ("digest", "max", "auto", "auto-digestmax")


def _salt(value: Any) -> Union[int, str, None]:
    """None, a non-negative int, or one of PSS_SALT_WORDS."""
    if isinstance(value, str):
        if value not in PSS_SALT_WORDS:
            raise InvalidArgument(f"salt_length {value!r} is not a number of bytes or one of {', '.join(PSS_SALT_WORDS)}")
        return value
    return _opt_int("salt_length", value)


def _threads(value: Any) -> int:
    v = _opt_int("threads", value)
    return 0 if v is None else v


def _str(name: str, value: Any) -> str:
    """``value`` when it is a str; InvalidArgumentType otherwise."""
    if not isinstance(value, str):
        raise InvalidArgumentType(f"{name} must be a str, not {type(value).__name__}")
    return value


def _opt_str(name: str, value: Any) -> Optional[str]:
    return None if value is None else _str(name, value)


class PublicKey:
    """An RSA public key (n, e). Immutable; compares equal to another key with the same n and e."""

    __slots__ = ("_k",)

    def __init__(self, _handle: Any) -> None:
        """Internal; use :meth:`from_pem`, :meth:`from_der`, :meth:`from_numbers` or :meth:`PrivateKey.public_key`."""
        if not isinstance(_handle, _ext._RsaPublicKey):
            raise InvalidArgumentType("use PublicKey.from_pem, from_der or from_numbers to make a PublicKey")
        self._k = _handle

    @classmethod
    def from_pem(cls, data: Union[str, BytesLike]) -> "PublicKey":
        """From PEM text: ``PUBLIC KEY`` (SubjectPublicKeyInfo) or ``RSA PUBLIC KEY`` (PKCS#1).

        Raises:
            InvalidArgument: not an RSA public key in PEM, or a modulus size that is not supported.
        """
        return cls(_call("PublicKey.from_pem", _ext._RsaPublicKey.from_pem, _text_or_bytes("data", data)))

    @classmethod
    def from_der(cls, data: BytesLike) -> "PublicKey":
        """From DER: SubjectPublicKeyInfo or PKCS#1 RSAPublicKey.

        Raises:
            InvalidArgument: not an RSA public key in DER, or a modulus size that is not supported.
        """
        return cls(_call("PublicKey.from_der", _ext._RsaPublicKey.from_der, data))

    @classmethod
    def from_numbers(cls, n: int, e: int) -> "PublicKey":
        """From the modulus ``n`` and public exponent ``e`` (ints or big-endian bytes)."""
        return cls(_ext._RsaPublicKey.from_numbers(_int_to_bytes("n", n), _int_to_bytes("e", e)))

    @property
    def bits(self) -> int:
        """Modulus size in bits."""
        return self._k.bits

    @property
    def size(self) -> int:
        """Modulus size in bytes: the length of every signature and ciphertext."""
        return self._k.size

    @property
    def n(self) -> int:
        """The modulus."""
        return int.from_bytes(self._k.n(), "big")

    @property
    def e(self) -> int:
        """The public exponent."""
        return int.from_bytes(self._k.e(), "big")

    def to_pem(self) -> bytes:
        """SubjectPublicKeyInfo PEM (``-----BEGIN PUBLIC KEY-----``)."""
        return self._k.to_pem().encode("ascii")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicKey):
            return NotImplemented
        return self._k.n() == other._k.n() and self._k.e() == other._k.e()

    def __hash__(self) -> int:
        return hash((self._k.n(), self._k.e()))

    def __repr__(self) -> str:
        return f"<cryptaccel.rsa.PublicKey {self.bits} bits, e={self.e}>"


class PrivateKey:
    """An RSA private key with its CRT parameters. Its secret parts live in C++ memory and are wiped when the last
    reference goes."""

    __slots__ = ("_k",)

    def __init__(self, _handle: Any) -> None:
        """Internal; use :meth:`from_pem`, :meth:`from_der` or :meth:`generate`."""
        if not isinstance(_handle, _ext._RsaPrivateKey):
            raise InvalidArgumentType("use PrivateKey.from_pem, from_der or generate to make a PrivateKey")
        self._k = _handle

    @classmethod
    def from_pem(cls, data: Union[str, BytesLike], password: Union[None, str, BytesLike] = None) -> "PrivateKey":
        """From PEM text: PKCS#1 ``RSA PRIVATE KEY``, PKCS#8 ``PRIVATE KEY`` or ``ENCRYPTED PRIVATE KEY`` (and legacy
        encrypted PKCS#1) with ``password`` (str or bytes).

        Raises:
            InvalidArgument: not an RSA private key, wrong or missing password, unsupported modulus size.
        """
        pw = None if password is None else _text_or_bytes("password", password)
        return cls(_call("PrivateKey.from_pem", _ext._RsaPrivateKey.from_pem, _text_or_bytes("data", data), pw))

    @classmethod
    def from_der(cls, data: BytesLike) -> "PrivateKey":
        """From DER: PKCS#1 RSAPrivateKey or unencrypted PKCS#8.

        Raises:
            InvalidArgument: not an RSA private key in DER, or an unsupported modulus size.
        """
        return cls(_call("PrivateKey.from_der", _ext._RsaPrivateKey.from_der, data))

    @classmethod
    def generate(cls, bits: int = 2048, public_exponent: int = 65537) -> "PrivateKey":
        """A fresh key from OpenSSL's generator (``bits`` one of :data:`SUPPORTED_BITS`)."""
        return cls(_ext._RsaPrivateKey.generate(_int("bits", bits), _int("public_exponent", public_exponent, 1 << 32)))

    @property
    def bits(self) -> int:
        """Modulus size in bits."""
        return self._k.bits

    @property
    def size(self) -> int:
        """Modulus size in bytes."""
        return self._k.size

    def public_key(self) -> PublicKey:
        """The public half (n, e)."""
        return PublicKey(self._k.public_key())

    def to_pem(self, password: Union[None, str, BytesLike] = None) -> bytes:
        """PKCS#8 PEM; encrypted (AES-256-CBC, ``ENCRYPTED PRIVATE KEY``) when ``password`` is given."""
        pw = None if password is None else _text_or_bytes("password", password)
        return self._k.to_pem(pw).encode("ascii")

    def __repr__(self) -> str:
        return f"<cryptaccel.rsa.PrivateKey {self.bits} bits>"


def _call(where: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` (a function of the extension) with a wrong argument type raised as InvalidArgumentType, never
    with nanobind's message (which shows the private binding's signature). RSA operations take microseconds at
    least, so the extra call costs nothing that shows."""
    try:
        return fn(*args)
    except TypeError as e:
        raise plain_type_error(where, e) from None


def _private(name: str, key: Any) -> Any:
    """The extension's key behind a PrivateKey (InvalidArgumentType for anything else)."""
    if isinstance(key, PrivateKey):
        return key._k
    raise InvalidArgumentType(f"{name} must be a cryptaccel.rsa.PrivateKey, not {type(key).__name__}")


def _public(name: str, key: Any) -> Any:
    """A PublicKey, or the public half of a PrivateKey."""
    if isinstance(key, PublicKey):
        return key._k
    if isinstance(key, PrivateKey):
        return key._k.public_key()
    raise InvalidArgumentType(f"{name} must be a cryptaccel.rsa.PublicKey (or PrivateKey), not {type(key).__name__}")


def _sequence(name: str, values: Any) -> List[Any]:
    """``values`` as a list (InvalidArgumentType for a single bytes or str, or a non-iterable)."""
    if isinstance(values, (str,) + _BYTES_TYPES):
        raise InvalidArgumentType(f"{name} must be a sequence of bytes-like objects, not a single "
                                  f"{type(values).__name__}")
    try:
        return list(values)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be a sequence, not {type(values).__name__}") from None


def _keys(name: str, keys: Any, n: int, convert: Any) -> List[Any]:
    """One key per job: a single key is shared by all ``n`` jobs; a sequence must have ``n`` keys."""
    if isinstance(keys, (PrivateKey, PublicKey)):
        k = convert(name, keys)
        return [k] * n
    try:
        items = list(keys)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be a key or a sequence of keys, not {type(keys).__name__}") from None
    if len(items) != n:
        raise InvalidArgument(f"{name} has {len(items)} keys but there are {n} jobs")
    return [convert(f"{name}[{i}]", k) for i, k in enumerate(items)]


# --- one operation ----------------------------------------------------------------------------------------------------


def sign(
    key: PrivateKey,
    message: BytesLike,
    padding: str = "pkcs1v15",
    hash: str = "sha256",
    salt_length: Union[int, str, None] = None,
    *,
    mgf_hash: Optional[str] = None,
    prehashed: bool = False,
    engine: str = "auto",
) -> bytes:
    """Signs ``message`` (hashed with ``hash`` first, unless ``prehashed``: then ``message`` is the digest).

    Args:
        key: the private key.
        message: the message (any bytes-like object).
        padding: ``"pkcs1v15"`` (also ``"pkcs1"``, openssl's word; deterministic: the same signature as OpenSSL and
            ``cryptography``) or ``"pss"``.
        hash: ``"sha256"`` (the default), ``"sha224"``, ``"sha384"``, ``"sha512"``, ``"sha512_224"``,
            ``"sha512_256"``, ``"sha3_224"`` ... ``"sha3_512"``, or ``"sha1"`` (legacy).
        salt_length: PSS salt bytes, or a word of ``openssl pkeyutl -pkeyopt rsa_pss_saltlen``, resolved for each key:
            ``"digest"`` (the digest length), ``"max"`` (the longest the key allows), ``"auto"`` (signs with
            ``"max"``, verifies any), ``"auto-digestmax"``; ``None``: the digest length.
        mgf_hash: PSS MGF1 hash; ``None``: ``hash``.
        prehashed: ``message`` is already the digest (as ``openssl pkeyutl -sign`` without ``-rawin``).
        engine: ``"auto"`` or an engine name.

    Returns:
        The signature, :attr:`PrivateKey.size` bytes.

    Raises:
        InvalidArgument: unknown padding or hash (the message lists the digests RSA accepts), a salt too long for the
            key, a prehashed digest of the wrong length.
        EngineUnavailable: the engine cannot run RSA here.
        InvalidArgumentType: an argument has the wrong type (``key`` not a PrivateKey, a str message, ...).
    """
    return _call(
        "cryptaccel.rsa.sign", _ext._rsa_sign,
        _private("key", key), message, _str("padding", padding), _str("hash", hash),
        _salt(salt_length), _opt_str("mgf_hash", mgf_hash), bool(prehashed), _str("engine", engine),
    )


def verify(
    key: Union[PublicKey, PrivateKey],
    message: BytesLike,
    signature: BytesLike,
    padding: str = "pkcs1v15",
    hash: str = "sha256",
    salt_length: Union[int, str, None] = None,
    *,
    mgf_hash: Optional[str] = None,
    prehashed: bool = False,
    engine: str = "auto",
) -> bool:
    """True when ``signature`` is a valid signature of ``message``; False for any wrong or malformed signature
    (never raises for those).

    Arguments are as for :func:`sign`, except ``salt_length=None``, which accepts any PSS salt length (recovered from
    the signature), as OpenSSL's ``auto``. A ``PrivateKey`` may be given; its public half is used.

    Raises:
        InvalidArgument: unknown padding or hash.
        EngineUnavailable: the engine cannot run RSA here.
    """
    return _call(
        "cryptaccel.rsa.verify", _ext._rsa_verify,
        _public("key", key), message, signature, _str("padding", padding), _str("hash", hash),
        _salt(salt_length), _opt_str("mgf_hash", mgf_hash), bool(prehashed), _str("engine", engine),
    )


def encrypt(
    key: Union[PublicKey, PrivateKey],
    plaintext: BytesLike,
    padding: str = "oaep",
    hash: str = DEFAULT_OAEP_HASH,
    mgf_hash: Optional[str] = None,
    label: BytesLike = b"",
    *,
    engine: str = "auto",
) -> bytes:
    """Encrypts ``plaintext`` (randomised padding).

    Args:
        key: the public key (or a private key: its public half is used).
        plaintext: at most ``size - 2*hLen - 2`` bytes for OAEP, ``size - 11`` for PKCS#1 v1.5.
        padding: ``"oaep"`` or ``"pkcs1v15"`` (also ``"pkcs1"``).
        hash: OAEP hash: ``"sha1"`` (the default, as ``openssl pkeyutl`` and ``cryptaccel pkeyutl``), ``"sha224"``,
            ``"sha256"``, ``"sha384"``, ``"sha512"``, ``"sha512_224"``, ``"sha512_256"``, ``"sha3_224"`` ...
            ``"sha3_512"``. Ignored by PKCS#1 v1.5.
        mgf_hash: OAEP MGF1 hash; ``None``: ``hash`` (so SHA-1 by default, as openssl's).
        label: OAEP label.
        engine: ``"auto"`` or an engine name.

    Returns:
        The ciphertext, ``size`` bytes.

    Raises:
        InvalidArgument: plaintext too long, unknown padding or hash (the message lists the digests RSA accepts).
        InvalidArgumentType: an argument has the wrong type.
    """
    return _call(
        "cryptaccel.rsa.encrypt", _ext._rsa_encrypt,
        _public("key", key), plaintext, _str("padding", padding), _str("hash", hash),
        _opt_str("mgf_hash", mgf_hash), b"" if label is None else label, _str("engine", engine),
    )


def decrypt(
    key: PrivateKey,
    ciphertext: BytesLike,
    padding: str = "oaep",
    hash: str = DEFAULT_OAEP_HASH,
    mgf_hash: Optional[str] = None,
    label: BytesLike = b"",
    *,
    engine: str = "auto",
) -> bytes:
    """Decrypts ``ciphertext``; arguments as for :func:`encrypt` (OAEP with SHA-1 and MGF1-SHA-1 by default, as
    ``openssl pkeyutl -decrypt -pkeyopt rsa_padding_mode:oaep``).

    Raises:
        InvalidCiphertext: wrong length, out of range, or bad padding. The message is the same whatever broke, and
            the padding check does not branch on where it broke.
        InvalidArgument: unknown padding or hash.
    """
    return _call(
        "cryptaccel.rsa.decrypt", _ext._rsa_decrypt,
        _private("key", key), ciphertext, _str("padding", padding), _str("hash", hash),
        _opt_str("mgf_hash", mgf_hash), b"" if label is None else label, _str("engine", engine),
    )


# --- batches ----------------------------------------------------------------------------------------------------------


def sign_many(
    key_or_keys: Union[PrivateKey, Sequence[PrivateKey]],
    messages: Sequence[BytesLike],
    padding: str = "pkcs1v15",
    hash: str = "sha256",
    salt_length: Union[int, str, None] = None,
    *,
    mgf_hash: Optional[str] = None,
    prehashed: bool = False,
    engine: str = "auto",
    threads: int = 0,
    return_engine: bool = False,
) -> Union[List[bytes], Tuple[List[bytes], str]]:
    """Signs many messages in one batch (spread over CPU cores or GPU threads by the engine).

    ``key_or_keys`` is one key for every message or one key per message (keys of different sizes may be mixed).
    Other arguments as for :func:`sign`; ``threads``: host threads for CPU engines (0: all cores).

    Returns:
        One signature per message (or ``(list, engine_name)`` with ``return_engine=True``).

    Raises:
        InvalidArgument: mismatched lengths, or a job's argument is unusable (the message starts with ``job <i>:``).
    """
    msgs = _sequence("messages", messages)
    keys = _keys("keys", key_or_keys, len(msgs), _private)
    out, used = _call(
        "cryptaccel.rsa.sign_many", _ext._rsa_sign_many,
        keys, msgs, _str("padding", padding), _str("hash", hash), _salt(salt_length),
        _opt_str("mgf_hash", mgf_hash), bool(prehashed), _str("engine", engine), _threads(threads),
    )
    return (out, used) if return_engine else out


def verify_many(
    pub_or_list_of_pubs: Union[PublicKey, Sequence[PublicKey]],
    messages: Sequence[BytesLike],
    signatures: Sequence[BytesLike],
    padding: str = "pkcs1v15",
    hash: str = "sha256",
    salt_length: Union[int, str, None] = None,
    *,
    mgf_hash: Optional[str] = None,
    prehashed: bool = False,
    engine: str = "auto",
    threads: int = 0,
    return_engine: bool = False,
) -> Union[List[bool], Tuple[List[bool], str]]:
    """Verifies many signatures in one batch; one public key for all, or one per signature.

    Returns:
        ``[True/False, ...]`` (or ``(list, engine_name)`` with ``return_engine=True``); a malformed signature is
        simply False.
    """
    msgs = _sequence("messages", messages)
    sigs = _sequence("signatures", signatures)
    if len(sigs) != len(msgs):
        raise InvalidArgument(f"signatures has {len(sigs)} items but messages has {len(msgs)}")
    keys = _keys("keys", pub_or_list_of_pubs, len(msgs), _public)
    out, used = _call(
        "cryptaccel.rsa.verify_many", _ext._rsa_verify_many,
        keys, msgs, sigs, _str("padding", padding), _str("hash", hash), _salt(salt_length),
        _opt_str("mgf_hash", mgf_hash), bool(prehashed), _str("engine", engine), _threads(threads),
    )
    return (out, used) if return_engine else out


def decrypt_many(
    key_or_keys: Union[PrivateKey, Sequence[PrivateKey]],
    ciphertexts: Sequence[BytesLike],
    padding: str = "oaep",
    hash: str = DEFAULT_OAEP_HASH,
    mgf_hash: Optional[str] = None,
    label: BytesLike = b"",
    *,
    engine: str = "auto",
    threads: int = 0,
    return_engine: bool = False,
) -> Union[List[Optional[bytes]], Tuple[List[Optional[bytes]], str]]:
    """Decrypts many ciphertexts in one batch; an invalid ciphertext gives ``None`` for its job only. Arguments as for
    :func:`decrypt` (OAEP with SHA-1 by default), plus ``threads`` and ``return_engine`` as for :func:`sign_many`.

    Returns:
        One plaintext or ``None`` per ciphertext (or ``(list, engine_name)`` with ``return_engine=True``).
    """
    cts = _sequence("ciphertexts", ciphertexts)
    keys = _keys("keys", key_or_keys, len(cts), _private)
    out, used = _call(
        "cryptaccel.rsa.decrypt_many", _ext._rsa_decrypt_many,
        keys, cts, _str("padding", padding), _str("hash", hash), _opt_str("mgf_hash", mgf_hash),
        b"" if label is None else label, _str("engine", engine), _threads(threads),
    )
    return (out, used) if return_engine else out


def modexp_many(
    bases: Sequence[Union[int, BytesLike]],
    exponent: Union[int, BytesLike],
    modulus: Union[int, BytesLike],
    *,
    engine: str = "auto",
    threads: int = 0,
) -> List[int]:
    """``[pow(b, exponent, modulus) for b in bases]``, in one batch (seed 002's operation).

    ``modulus`` must be odd and at most 8192 bits; the arithmetic runs at the smallest supported size that holds it
    (1024, 2048, 3072, 4096 or 8192 bits). Numbers are ints or big-endian bytes. The exponent is treated as secret
    (fixed window, constant-time table selection), so a private exponent may be used.

    Raises:
        InvalidArgument: an even modulus, a modulus over 8192 bits, a negative number.
    """
    bs = [_int_to_bytes(f"bases[{i}]", b) for i, b in enumerate(_sequence("bases", bases))]
    out = _call(
        "cryptaccel.rsa.modexp_many", _ext._rsa_modexp_many,
        bs, _int_to_bytes("exponent", exponent), _int_to_bytes("modulus", modulus), _str("engine", engine),
        _threads(threads),
    )
    return [int.from_bytes(r, "big") for r in out]
