"""SHA-crypt password hashing: sha512crypt (``$6$``) and sha256crypt (``$5$``), as in Ulrich Drepper's
specification and byte-identical to glibc/libxcrypt ``crypt(3)``, passlib's ``sha512_crypt``/``sha256_crypt`` and
``openssl passwd -6 / -5``::

    from cryptaccel import shacrypt

    h = shacrypt.hash("correct horse")                     # '$6$<16 random salt chars>$<86 chars>'
    shacrypt.verify("correct horse", h)                    # True
    shacrypt.hash(b"pw", salt="saltstring", rounds=10000, variant=256)
    shacrypt.hash_many([b"a", b"b", b"c"], "$6$rounds=1000$salt")   # one batch: all cores / the GPU

Passwords are ``str`` (encoded as UTF-8) or bytes-like. ``salt`` is at most 16 characters without ``$``, ``:`` or
newlines (None: 16 random characters of the crypt alphabet from the OS random source); ``rounds`` is
1000..999999999 (5000 is the specification's default and is then not written into the hash). Hash strings given to
``verify`` follow glibc: ``rounds=`` below 1000 or above 999999999 is clamped, salts are cut at 16 characters.

Every function takes ``engine=`` (``"auto"``, ``"ref"``, ``"cpu"``, ``"cuda"``; see :func:`cryptaccel.engines`);
every engine gives the same strings. The GIL is released while hashing runs.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

from . import _cryptaccel as _ext

__all__ = ["hash", "verify", "hash_many", "hash_setting", "parse", "DEFAULT_ROUNDS", "MIN_ROUNDS", "MAX_ROUNDS", "MAX_SALT"]

#: The specification's default, minimum and maximum rounds, and its longest salt.
DEFAULT_ROUNDS = 5000
MIN_ROUNDS = 1000
MAX_ROUNDS = 999999999
MAX_SALT = 16

Password = Union[str, bytes, bytearray, memoryview]


def _password(value: Any) -> Any:
    return value.encode("utf-8") if isinstance(value, str) else value


def _salt(value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("ascii")
    if not isinstance(value, str):
        raise TypeError(f"salt must be str, bytes or None, not {type(value).__name__!r}")
    return value


def hash(password: Password, salt: Optional[Union[str, bytes]] = None, rounds: int = DEFAULT_ROUNDS,
         variant: int = 512, engine: str = "auto") -> str:
    """The SHA-crypt hash string of ``password``: ``$6$[rounds=N$]salt$...`` (``variant=512``) or ``$5$...``
    (``variant=256``). ``salt=None`` draws a fresh 16-character salt. Raises InvalidArgument for a bad salt, rounds
    or variant."""
    if not isinstance(rounds, int) or isinstance(rounds, bool):
        raise TypeError("rounds must be an int")
    if rounds < MIN_ROUNDS or rounds > MAX_ROUNDS:
        from ._errors import InvalidArgument
        raise InvalidArgument(f"rounds {rounds} outside SHA-crypt's {MIN_ROUNDS}..{MAX_ROUNDS}")
    return _ext._shacrypt_hash(_password(password), int(variant), _salt(salt), rounds, engine)


def verify(password: Password, hash: str, engine: str = "auto") -> bool:
    """True when ``password`` hashes to ``hash`` (a ``$5$`` / ``$6$`` string with its hash part); the comparison is
    constant-time. Raises InvalidArgument when ``hash`` is not such a string."""
    return _ext._shacrypt_verify(_password(password), hash, engine)


def hash_many(passwords: Sequence[Password], settings: Union[str, Sequence[str]], engine: str = "auto") -> List[str]:
    """Hashes every password in one batch (the shape in which the cpu engine fills its SIMD lanes and the GPU its
    threads). ``settings``: one setting or hash string for all (``"$6$rounds=1000$salt"``; a hash part is ignored),
    or one per password. Returns the hash strings in order."""
    if isinstance(settings, str):
        settings = [settings]
    strings, _engine = _ext._shacrypt_hash_many([_password(p) for p in passwords], list(settings), engine)
    return strings


def hash_setting(password: Password, setting: str, engine: str = "auto") -> str:
    """``crypt(password, setting)``: the hash string for a setting such as ``"$5$rounds=10$roundstoolow"`` (parsed
    as glibc does: rounds clamped, salt cut at 16 characters)."""
    return _ext._shacrypt_hash_setting(_password(password), setting, engine)


def parse(hash: str) -> dict:
    """The parts of a SHA-crypt string: ``variant`` (256/512), ``rounds``, ``rounds_explicit``, ``salt`` and
    ``digest`` (the raw digest bytes, None for a setting without a hash part)."""
    return _ext._shacrypt_parse(hash)
