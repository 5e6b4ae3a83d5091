"""Streaming encryption: :func:`encryptor` / :func:`decryptor` (incremental, the shape of ``cryptography``'s
``Cipher(...).encryptor()``) and :func:`encrypt_file` / :func:`decrypt_file`, in memory bounded by the chunk size,
whatever the length of the message (include/cryptaccel/stream.hpp)."""
from __future__ import annotations

import os
from typing import Any, BinaryIO, Union

from ._errors import InvalidArgument, InvalidArgumentType, plain_type_error
from . import _cryptaccel as _ext
from ._output import to_destination as _to_destination


def _cipher_mode(cipher: str) -> str:
    """The mode of a cipher name ("gcm", "ctr", ...)."""
    return _ext._cipher_info(cipher)["mode"]

PathOrFile = Union[str, "os.PathLike[str]", BinaryIO]

_READ_SIZE = 1 << 20  # bytes read from a source file per update


class CipherContext:
    """One encryption or decryption of a stream: :meth:`update` any number of times, then :meth:`finalize`.

    Output comes back as soon as it is ready; input is collected into batches of chunks that the engine processes in
    parallel, so ``update`` may return less than it was given (or more). A padded decryption holds its last block
    back until :meth:`finalize`, which raises :class:`BadDecrypt` on bad padding. GCM encryption appends the tag at
    :meth:`finalize`; GCM decryption takes the stream's last ``tag_len`` bytes as the tag and raises
    :class:`AuthenticationFailed` at :meth:`finalize` when it does not verify. Every decryption, GCM included, returns
    plaintext before the end of the stream: it is unverified until :meth:`finalize` returns, so write it where you can
    discard it (as :func:`decrypt_file` does with a path)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._done = False

    def update(self, data: Any) -> bytes:
        """Takes more input (bytes-like); returns the output ready so far."""
        if self._done:
            raise InvalidArgument("the stream is already finalized")
        try:
            return self._stream.update(data)
        except TypeError as e:  # update(None): nanobind's message would show the private binding
            raise plain_type_error("CipherContext.update", e) from None

    def finalize(self) -> bytes:
        """Ends the stream; returns the rest of the output."""
        if self._done:
            raise InvalidArgument("the stream is already finalized")
        self._done = True
        return self._stream.finish()

    @property
    def engine(self) -> str:
        """The engine that ran the stream's batches ("" before the first)."""
        return self._stream.engine_used


def _check_args(where: str, cipher: Any, iv: Any, aad: Any, tag_len: Any, xts_unit: Any, engine: Any,
                chunk_bytes: Any = 0) -> None:
    """The argument checks of streams and files, before anything is opened or written: types
    (InvalidArgumentType), ranges, and what the cipher's mode does not take (InvalidArgument: ``aad`` or a
    ``tag_len`` other than 16 without GCM, an IV with ECB; as :func:`cryptaccel.encrypt` and ``cryptaccel enc``).
    ``where`` is the public name for messages."""
    for name, value in (("cipher", cipher), ("engine", engine)):
        if not isinstance(value, str):
            raise InvalidArgumentType(f"{name} must be a str, not {type(value).__name__}")
    for name, value in (("tag_len", tag_len), ("xts_unit", xts_unit), ("chunk_bytes", chunk_bytes)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentType(f"{name} must be an integer, not {type(value).__name__}")
        if value < 0 or value >= 1 << 64:
            raise InvalidArgument(f"invalid {name} {value} (must be a non-negative integer)")
    try:
        _ext._check_mode_args(cipher, b"" if iv is None else iv, b"" if aad is None else aad, tag_len)
    except TypeError as e:
        raise plain_type_error(where, e) from None


def _context(direction: str, cipher: str, key: Any, iv: Any, aad: Any, tag_len: int, padding: bool, xts_unit: int,
             engine: str, chunk_bytes: int) -> CipherContext:
    where = f"cryptaccel.{direction}or"
    _check_args(where, cipher, iv, aad, tag_len, xts_unit, engine, chunk_bytes)
    try:
        stream = _ext._CipherStream(cipher, direction, key, b"" if iv is None else iv, b"" if aad is None else aad,
                                    tag_len, bool(padding), xts_unit, engine, chunk_bytes)
    except TypeError as e:
        raise plain_type_error(where, e) from None
    return CipherContext(stream)


def encryptor(cipher: str, key: Any, iv: Any = b"", *, aad: Any = b"", tag_len: int = 16, padding: bool = True,
              xts_unit: int = 0, engine: str = "auto", chunk_bytes: int = 0) -> CipherContext:
    """An incremental encryption with ``cipher`` (every mode; XTS with ``xts_unit`` > 0: see :func:`streamable`).
    Arguments as :func:`cryptaccel.encrypt`; ``chunk_bytes`` (0: 1 MiB) sets the unit of parallel work and, with the
    thread count, the memory used. GCM runs on engines that offer its building blocks (cpu, ref).

    Raises:
        InvalidArgument: unknown cipher, wrong key, IV or tag length, an argument the mode does not take (``aad`` or
            ``tag_len`` without GCM, an IV with ECB), or XTS without data units.
        EngineUnavailable: ``engine`` cannot run ``cipher`` (or cannot stream GCM).
        InvalidArgumentType: an argument has the wrong type.
    """
    return _context("encrypt", cipher, key, iv, aad, tag_len, padding, xts_unit, engine, chunk_bytes)


def decryptor(cipher: str, key: Any, iv: Any = b"", *, aad: Any = b"", tag_len: int = 16, padding: bool = True,
              xts_unit: int = 0, engine: str = "auto", chunk_bytes: int = 0) -> CipherContext:
    """An incremental decryption; see :func:`encryptor` and :class:`CipherContext`."""
    return _context("decrypt", cipher, key, iv, aad, tag_len, padding, xts_unit, engine, chunk_bytes)


def streamable(cipher: str, xts_unit: int = 0, engine: str = "auto") -> bool:
    """Whether ``cipher`` streams in bounded memory on ``engine``: every mode; XTS without data units only on an
    engine whose XTS kernel starts at any block (cpu)."""
    _check_args("cryptaccel.streamable", cipher, b"", b"", 16, xts_unit, engine)
    return _ext._streamable(cipher, xts_unit, engine)


def _crypt_file(direction: str, cipher: str, key: Any, src: PathOrFile, dst: PathOrFile, iv: Any, aad: Any,
                tag_len: int, padding: bool, xts_unit: int, engine: str) -> str:
    from . import decrypt, encrypt  # the one-shot functions, for what does not stream

    _check_args(f"cryptaccel.{direction}_file", cipher, iv, aad, tag_len, xts_unit, engine)
    for name, value, method in (("src", src, "read"), ("dst", dst, "write")):
        if not isinstance(value, (str, os.PathLike)) and not callable(getattr(value, method, None)):
            raise InvalidArgumentType(f"{name} must be a path or a binary file object with {method}(), "
                                      f"not {type(value).__name__}")
    gcm = _cipher_mode(cipher) == "gcm"
    # A GCM decryption streams only into a path (a temporary file published after the tag verifies); into a file
    # object, whose writes cannot be taken back, the whole message is decrypted and verified in memory first.
    stream = streamable(cipher, xts_unit, engine) and not (gcm and direction == "decrypt" and
                                                   not isinstance(dst, (str, os.PathLike)))

    def run(reader: BinaryIO, writer: BinaryIO, native: bool = False) -> str:
        if stream:
            ctx = _context(direction, cipher, key, iv, aad, tag_len, padding, xts_unit, engine, 0)
            if native:  # two files of our own: read, processed and written by the library, outside Python
                ctx._done = True
                ctx._stream.pipe_to(reader.fileno(), writer, repr(os.fspath(src)))
                return ctx.engine
            while chunk := reader.read(_READ_SIZE):
                writer.write(ctx.update(chunk))
            writer.write(ctx.finalize())
            return ctx.engine
        # Single-unit XTS, and GCM decryption into a file object: the whole message in memory.
        fn = encrypt if direction == "encrypt" else decrypt
        out, used = fn(cipher, key, reader.read(), iv, aad=aad, tag_len=tag_len, padding=padding, xts_unit=xts_unit,
                       engine=engine, return_engine=True)
        writer.write(out)
        return used

    if isinstance(src, (str, os.PathLike)):
        native = isinstance(dst, (str, os.PathLike))
        with open(src, "rb", buffering=0 if native else -1) as reader:
            return _to_destination(dst, lambda writer: run(reader, writer, native))
    return _to_destination(dst, lambda writer: run(src, writer))


def encrypt_file(cipher: str, key: Any, src: PathOrFile, dst: PathOrFile, iv: Any = b"", *, aad: Any = b"",
                 tag_len: int = 16, padding: bool = True, xts_unit: int = 0, engine: str = "auto") -> str:
    """Encrypts ``src`` into ``dst`` (paths, or binary file objects) and returns the engine that ran.

    Streamable ciphers (:func:`streamable`) run in bounded memory, chunks in parallel; from a path to a path the
    library reads, encrypts and writes on three threads with the GIL released (as ``cryptaccel enc`` does). XTS
    without data units off the cpu engine, and a GCM decryption into a file object, read the whole input first. A path ``dst`` is written to a temporary file and
    replaced only when everything succeeded (a GCM decryption: only after its tag verified). Other arguments as
    :func:`cryptaccel.encrypt`."""
    return _crypt_file("encrypt", cipher, key, src, dst, iv, aad, tag_len, padding, xts_unit, engine)


def decrypt_file(cipher: str, key: Any, src: PathOrFile, dst: PathOrFile, iv: Any = b"", *, aad: Any = b"",
                 tag_len: int = 16, padding: bool = True, xts_unit: int = 0, engine: str = "auto") -> str:
    """Decrypts ``src`` into ``dst``; see :func:`encrypt_file`. Raises BadDecrypt (padding) or AuthenticationFailed
    (GCM tag) with nothing written to a path ``dst``; to a file object, a failed CBC/ECB padding check comes after the
    earlier plaintext was written."""
    return _crypt_file("decrypt", cipher, key, src, dst, iv, aad, tag_len, padding, xts_unit, engine)
