"""The age file format (age-encryption.org/v1): files that open with ``age``, ``rage`` and ``pyrage``::

    from cryptaccel import age

    me = age.Identity.generate()                  # AGE-SECRET-KEY-1...
    sealed = age.encrypt(b"secret", [me.recipient()])
    assert age.decrypt(sealed, [me]) == b"secret"

    age.encrypt_file("backup.tar", "backup.tar.age", [age.Recipient.parse("age1...")])
    age.decrypt_file("backup.tar.age", "backup.tar", age.Identity.read("key.txt"))
    sealed = age.encrypt(b"notes", passphrase="correct horse battery staple", armor=True)

The payload is sealed in 64 KiB ChaCha20-Poly1305 chunks, many at a time on every core (``engine=``, ``threads=``);
the GIL is released while they run. Decryption releases a chunk only after its tag verified: ``decrypt`` returns
nothing on failure; ``decrypt_io`` has handed the verified chunks to ``write`` before it raises; ``decrypt_file``
writes a temporary file next to the destination and renames it only when everything verified.

Errors: :class:`OpenFailed`, a :class:`cryptaccel.AuthenticationFailed` (no identity matches, a wrong passphrase, a
modified, truncated or reordered file; the message names the chunk and its offset); :class:`MalformedFile`, a
:class:`cryptaccel.InvalidArgument` (malformed armor or header, an scrypt work factor above ``max_work_factor``).
Both have ``failure``, the age test kit's name of the check that failed (``"no match"``, ``"HMAC failure"``,
``"payload failure"``, ``"armor failure"``, ``"header failure"``). :class:`cryptaccel.InvalidArgument` also for a
malformed key or a misuse; :class:`cryptaccel.InvalidArgumentType` for a wrong type.
"""

from __future__ import annotations

import os
from typing import Any, BinaryIO, Iterable, List, Optional, Sequence, Union

from . import _cryptaccel as _ext
from ._errors import InvalidArgumentType, MalformedFile, OpenFailed
from ._output import to_destination

__all__ = ["Identity", "Recipient", "encrypt", "decrypt", "encrypt_io", "decrypt_io", "encrypt_file", "decrypt_file",
           "MalformedFile", "OpenFailed", "DEFAULT_WORK_FACTOR", "MAX_WORK_FACTOR", "CHUNK_SIZE"]

#: scrypt work factor (log2 N) of passphrase encryption, and the largest one decryption accepts by default (as age).
DEFAULT_WORK_FACTOR = 18
MAX_WORK_FACTOR = 22
#: Plaintext bytes per payload chunk.
CHUNK_SIZE = 64 * 1024


class Recipient:
    """An X25519 recipient, ``age1...``."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = _ext._age_check_recipient(_str("recipient", text))

    @classmethod
    def parse(cls, text: str) -> "Recipient":
        """Parses ``age1...``; raises InvalidArgument when it is not a valid recipient."""
        return cls(text)

    @classmethod
    def read(cls, path: Union[str, os.PathLike]) -> List["Recipient"]:
        """The recipients of a recipients file (one ``age1...`` per line, ``#`` comments)."""
        with open(path, "r", encoding="utf-8") as f:
            return [cls(r) for r in _ext._age_parse_recipients(f.read())]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Recipient({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Recipient) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)


class Identity:
    """An X25519 identity (secret key), ``AGE-SECRET-KEY-1...``. ``str()`` gives the secret key; ``repr()`` does not."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = _str("identity", text)
        _ext._age_recipient_of(self._text)  # validates

    @classmethod
    def generate(cls) -> "Identity":
        """A new random identity (OpenSSL's CSPRNG)."""
        return cls(_ext._age_generate())

    @classmethod
    def parse(cls, text: str) -> "Identity":
        """Parses ``AGE-SECRET-KEY-1...``; raises InvalidArgument otherwise."""
        return cls(text)

    @classmethod
    def read(cls, path: Union[str, os.PathLike]) -> List["Identity"]:
        """The identities of an identity file (age-keygen's format)."""
        with open(path, "r", encoding="utf-8") as f:
            return [cls(i) for i in _ext._age_parse_identities(f.read())]

    def recipient(self) -> Recipient:
        """The public key to encrypt to."""
        return Recipient(_ext._age_recipient_of(self._text))

    def file_text(self) -> str:
        """age-keygen's file: ``# created``, ``# public key`` comments and the secret key line."""
        return _ext._age_identity_file(self._text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Identity(recipient={str(self.recipient())!r})"


def _str(what: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentType(f"{what} must be a str, not {type(value).__name__!r}")
    return value


def _recipients(recipients: Optional[Iterable[Union[Recipient, str]]]) -> List[str]:
    if recipients is None:
        return []
    if isinstance(recipients, (str, Recipient)):
        recipients = [recipients]
    return [str(r) if isinstance(r, Recipient) else str(Recipient(r)) for r in recipients]


def _identities(identities: Optional[Iterable[Union[Identity, str]]]) -> List[str]:
    if identities is None:
        return []
    if isinstance(identities, (str, Identity)):
        identities = [identities]
    return [str(i) if isinstance(i, Identity) else str(Identity(i)) for i in identities]


def encrypt(data: Any, recipients: Optional[Sequence[Union[Recipient, str]]] = None, *, passphrase: Optional[str] = None,
            armor: bool = False, work_factor: int = DEFAULT_WORK_FACTOR, engine: str = "auto", threads: int = 0) -> bytes:
    """``data`` (bytes-like) as an age file to ``recipients`` (``age1...`` strings or :class:`Recipient`), or to a
    ``passphrase`` (scrypt; not with recipients). ``armor`` writes the ASCII armor."""
    return _ext._age_encrypt(data, _recipients(recipients), passphrase, work_factor, armor, engine, threads)


def decrypt(data: Any, identities: Optional[Sequence[Union[Identity, str]]] = None, *,
            passphrase: Optional[str] = None, max_work_factor: int = MAX_WORK_FACTOR, armored: Optional[bool] = None,
            engine: str = "auto", threads: int = 0) -> bytes:
    """The plaintext of an age file, opened with ``identities`` or a ``passphrase``. ``armored``: None detects the
    ASCII armor from the first bytes (as ``age -d``), True requires it, False reads the binary format only."""
    return _ext._age_decrypt(data, _identities(identities), passphrase, max_work_factor, armored, engine, threads)


def encrypt_io(src: BinaryIO, dst: BinaryIO, recipients: Optional[Sequence[Union[Recipient, str]]] = None, *,
               passphrase: Optional[str] = None, armor: bool = False, work_factor: int = DEFAULT_WORK_FACTOR,
               engine: str = "auto", threads: int = 0) -> None:
    """Streams ``src`` (a binary file object, read to its end) to ``dst`` as an age file, in bounded memory."""
    _ext._age_encrypt_io(src.read, dst.write, _recipients(recipients), passphrase, work_factor, armor, engine, threads)


def decrypt_io(src: BinaryIO, dst: BinaryIO, identities: Optional[Sequence[Union[Identity, str]]] = None, *,
               passphrase: Optional[str] = None, max_work_factor: int = MAX_WORK_FACTOR,
               armored: Optional[bool] = None, engine: str = "auto", threads: int = 0) -> None:
    """Streams the age file ``src`` to ``dst``, each chunk written only after its tag verified; on failure the
    verified chunks have been written and the error names the first bad one. ``armored`` as in :func:`decrypt`."""
    _ext._age_decrypt_io(src.read, dst.write, _identities(identities), passphrase, max_work_factor, armored, engine,
                         threads)


def encrypt_file(src: Union[str, os.PathLike], dst: Union[str, os.PathLike],
                 recipients: Optional[Sequence[Union[Recipient, str]]] = None, **kwargs: Any) -> None:
    """:func:`encrypt_io` from the file ``src`` to the file ``dst`` (written completely or not at all)."""
    with open(src, "rb") as f:
        to_destination(dst, lambda out: encrypt_io(f, out, recipients, **kwargs))


def decrypt_file(src: Union[str, os.PathLike], dst: Union[str, os.PathLike],
                 identities: Optional[Sequence[Union[Identity, str]]] = None, **kwargs: Any) -> None:
    """:func:`decrypt_io` from the file ``src`` to the file ``dst``, which appears only when the whole file
    verified (nothing is left behind on failure)."""
    with open(src, "rb") as f:
        to_destination(dst, lambda out: decrypt_io(f, out, identities, **kwargs))
