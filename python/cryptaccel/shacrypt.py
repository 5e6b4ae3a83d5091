"""SHA-crypt password hashing: sha512crypt (``$6$``) and sha256crypt (``$5$``), as in Ulrich Drepper's
specification and byte-identical to glibc/libxcrypt ``crypt(3)``, passlib's ``sha512_crypt``/``sha256_crypt`` and
``openssl passwd -6 / -5``::

    from cryptaccel import shacrypt

    h = shacrypt.hash("correct horse")                     # '$6$<16 random salt chars>$<86 chars>'
    shacrypt.verify("correct horse", h)                    # True
    shacrypt.hash(b"pw", salt="saltstring", rounds=10000, variant=256)
    shacrypt.hash_many([b"a", b"b", b"c"], "$6$rounds=1000$salt")   # one batch: all cores / the GPU

Passwords are ``str`` (encoded as UTF-8) or bytes-like, without NUL bytes (``crypt(3)`` reads a C string and would
stop at the first NUL; refused with InvalidArgument, as passlib refuses them). ``salt`` is at most 16 characters of
crypt(3)'s alphabet ``./0-9A-Za-z`` (others are refused, as passlib does; None: 16 random characters from the OS
random source); ``rounds`` is 1000..999999999 (5000 is the specification's default and is then not written into the
hash); ``variant`` is 512 (or 6) for sha512crypt and 256 (or 5) for sha256crypt. Hash and setting strings (``str``
or ASCII bytes) given to ``verify``, ``hash_setting``, ``hash_many`` and ``parse`` follow glibc: ``rounds=`` below
1000 or above 999999999 is clamped, salts are cut at 16 characters.

Errors: a bad value raises :class:`cryptaccel.InvalidArgument` (a ValueError), a wrong type
:class:`cryptaccel.InvalidArgumentType` (a TypeError), an unusable engine :class:`cryptaccel.EngineUnavailable`.

Every function takes ``engine=`` (``"auto"``, ``"ref"``, ``"cpu"``, ``"cuda"``; see :func:`cryptaccel.engines`);
every engine gives the same strings. The GIL is released while hashing runs.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

from . import _cryptaccel as _ext
from ._errors import InvalidArgument, InvalidArgumentType, plain_type_error

__all__ = ["hash", "verify", "hash_many", "hash_setting", "parse", "DEFAULT_ROUNDS", "MIN_ROUNDS", "MAX_ROUNDS",
           "MAX_SALT", "SALT_ALPHABET", "VARIANTS"]

#: The specification's default, minimum and maximum rounds, and its longest salt.
DEFAULT_ROUNDS = 5000
MIN_ROUNDS = 1000
MAX_ROUNDS = 999999999
MAX_SALT = 16
#: The characters a salt given to :func:`hash` may use: crypt(3)'s base-64 alphabet (passlib's ``HASH64_CHARS``).
SALT_ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: The ``variant`` values :func:`hash` accepts: 512 or 6 (sha512crypt, ``$6$``), 256 or 5 (sha256crypt, ``$5$``).
VARIANTS = (512, 6, 256, 5)

_SALT_CHARS = frozenset(SALT_ALPHABET)
_VARIANTS_TEXT = "512 or 6 for sha512crypt '$6$', 256 or 5 for sha256crypt '$5$'"

Password = Union[str, bytes, bytearray, memoryview]
HashString = Union[str, bytes]


def _password(value: Any) -> Any:
    """A str password as UTF-8; a bytes-like one as is (the extension checks its type and refuses a NUL byte)."""
    return value.encode("utf-8") if isinstance(value, str) else value


def _str_arg(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentType(f"{name} must be a str, not {type(value).__name__}")
    return value


def _hash_string(name: str, value: Any) -> str:
    """A hash or setting string: a str, or ASCII bytes (as passlib accepts); InvalidArgumentType for another type."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        try:
            return bytes(value).decode("ascii")
        except UnicodeDecodeError:
            raise InvalidArgument(f"{name} is not a SHA-crypt string (it has non-ASCII bytes)") from None
    raise InvalidArgumentType(f"{name} must be a str or bytes, not {type(value).__name__}")


def _salt(value: Any) -> Optional[str]:
    """None, or a salt of crypt(3)'s alphabet as str (str or ASCII bytes given); its length is checked by the
    extension."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value).decode("latin-1")  # every byte a character: non-ASCII ones are refused just below
    elif not isinstance(value, str):
        raise InvalidArgumentType(f"salt must be str, bytes or None, not {type(value).__name__}")
    bad = sorted(set(value) - _SALT_CHARS)
    if bad:
        raise InvalidArgument(f"salt {value!r} has characters outside crypt(3)'s alphabet ./0-9A-Za-z: "
                              + ", ".join(repr(c) for c in bad))
    return value


def _variant(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentType(f"variant must be an int ({_VARIANTS_TEXT}), not {type(value).__name__}")
    if value not in VARIANTS:
        raise InvalidArgument(f"unknown SHA-crypt variant {value} (accepted: {_VARIANTS_TEXT})")
    return value


_SINGLE = (str, bytes, bytearray, memoryview)


def _sequence(name: str, values: Any) -> List[Any]:
    """``values`` as a list; InvalidArgumentType for a single str or bytes, or a non-iterable."""
    if isinstance(values, _SINGLE):
        raise InvalidArgumentType(f"{name} must be a sequence, not a single {type(values).__name__}")
    try:
        return list(values)
    except TypeError:
        raise InvalidArgumentType(f"{name} must be a sequence, not {type(values).__name__}") from None


def _call(where: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` (a function of the extension) with a wrong argument type raised as InvalidArgumentType, never
    with nanobind's message. A hash takes milliseconds: the extra call does not show."""
    try:
        return fn(*args)
    except TypeError as e:
        raise plain_type_error(where, e) from None


def hash(password: Password, salt: Optional[Union[str, bytes]] = None, rounds: int = DEFAULT_ROUNDS,
         variant: int = 512, engine: str = "auto") -> str:
    """The SHA-crypt hash string of ``password``: ``$6$[rounds=N$]salt$...`` (``variant=512``) or ``$5$...``
    (``variant=256``). ``salt=None`` draws a fresh 16-character salt.

    Raises:
        InvalidArgument: a NUL byte in the password, a salt longer than 16 characters or with characters outside
            ``./0-9A-Za-z``, rounds outside 1000..999999999, or a variant other than 512, 6, 256 or 5 (the message
            says which are accepted).
        InvalidArgumentType: an argument has the wrong type.
    """
    if not isinstance(rounds, int) or isinstance(rounds, bool):
        raise InvalidArgumentType(f"rounds must be an int, not {type(rounds).__name__}")
    if rounds < MIN_ROUNDS or rounds > MAX_ROUNDS:
        raise InvalidArgument(f"rounds {rounds} outside SHA-crypt's {MIN_ROUNDS}..{MAX_ROUNDS}")
    return _call("cryptaccel.shacrypt.hash", _ext._shacrypt_hash, _password(password), _variant(variant), _salt(salt),
                 rounds, _str_arg("engine", engine))


def verify(password: Password, hash: HashString, engine: str = "auto") -> bool:
    """True when ``password`` hashes to ``hash`` (a ``$5$`` / ``$6$`` string with its hash part, str or ASCII
    bytes); the comparison is constant-time.

    Raises:
        InvalidArgument: ``hash`` is not such a string, or the password has a NUL byte (as passlib).
        InvalidArgumentType: an argument has the wrong type.
    """
    return _call("cryptaccel.shacrypt.verify", _ext._shacrypt_verify, _password(password), _hash_string("hash", hash),
                 _str_arg("engine", engine))


def hash_many(passwords: Sequence[Password], settings: Union[HashString, Sequence[HashString]],
              engine: str = "auto") -> List[str]:
    """Hashes every password in one batch (the shape in which the cpu engine fills its SIMD lanes and the GPU its
    threads). ``settings``: one setting or hash string for all (``"$6$rounds=1000$salt"``; a hash part is ignored),
    or one per password. Returns the hash strings in order.

    Raises:
        InvalidArgument: a setting that does not parse, a settings count that is neither 1 nor one per password, a
            password with a NUL byte (the message names its index).
        InvalidArgumentType: ``passwords`` or ``settings`` is not a sequence, or an item has the wrong type.
    """
    pw = [_password(p) for p in _sequence("passwords", passwords)]
    if isinstance(settings, _SINGLE):
        settings = [settings]
    st = [_hash_string(f"settings[{i}]", x) for i, x in enumerate(_sequence("settings", settings))]
    strings, _engine = _call("cryptaccel.shacrypt.hash_many", _ext._shacrypt_hash_many, pw, st,
                             _str_arg("engine", engine))
    return strings


def hash_setting(password: Password, setting: HashString, engine: str = "auto") -> str:
    """``crypt(password, setting)``: the hash string for a setting such as ``"$5$rounds=10$roundstoolow"`` (parsed
    as glibc does: rounds clamped, salt cut at 16 characters). Raises as :func:`verify`."""
    return _call("cryptaccel.shacrypt.hash_setting", _ext._shacrypt_hash_setting, _password(password),
                 _hash_string("setting", setting), _str_arg("engine", engine))


def parse(hash: HashString) -> dict:
    """The parts of a SHA-crypt string (str or ASCII bytes): ``variant`` (256/512), ``rounds``,
    ``rounds_explicit``, ``salt`` and ``digest`` (the raw digest bytes, None for a setting without a hash part).
    Raises InvalidArgument for anything else."""
    return _call("cryptaccel.shacrypt.parse", _ext._shacrypt_parse, _hash_string("hash", hash))
