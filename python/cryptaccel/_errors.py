"""Exception classes of cryptaccel.

Every exception cryptaccel raises for a bad argument or a failed operation is a :class:`Error`; each class also
derives from the built-in exception that Python code (and users of ``cryptography`` and ``hashlib``) expect for that
situation, so ``except ValueError`` / ``except TypeError`` keep working::

    Error (Exception)
    +-- InvalidArgument (also ValueError)        an unusable value: key/IV/tag length, unknown name, bad length
    +-- InvalidArgumentType (also TypeError)     an argument of the wrong type (str for bytes, float for int, ...)
    +-- BadDecrypt (also ValueError)             malformed PKCS#7 padding / impossible ciphertext length
    +-- InvalidCiphertext (also ValueError)      RSA decryption failed
    +-- AuthenticationFailed                     GCM tag mismatch (not a ValueError: cryptography's InvalidTag)
    +-- EngineUnavailable                        the engine cannot serve the request

The C++ library throws ``cryptaccel::Error`` and its subclasses (include/cryptaccel/error.hpp); the extension module
translates each into the Python class of the same name defined here (a wrong type found by the extension becomes
:class:`InvalidArgumentType`). Messages are the library's one-line messages.
"""

from typing import Any

__all__ = [
    "Error",
    "InvalidArgument",
    "InvalidArgumentType",
    "AuthenticationFailed",
    "BadDecrypt",
    "InvalidCiphertext",
    "EngineUnavailable",
]


class Error(Exception):
    """Base class of every error cryptaccel raises."""

    __module__ = "cryptaccel"


class InvalidArgument(Error, ValueError):
    """An argument value is unusable: wrong key, IV or tag length, unknown cipher or hash name, bad data length for a
    mode, an argument the mode does not take (AAD or a tag length outside GCM, an IV with ECB).

    Also a :class:`ValueError`, as Python and ``hashlib`` raise for a bad value (``unsupported hash type``).
    """

    __module__ = "cryptaccel"


class InvalidArgumentType(Error, TypeError):
    """An argument has the wrong type: ``str`` where bytes are needed, a float where an int is, a non-key object.

    Also a :class:`TypeError`, as Python and ``hashlib`` raise (``hashlib.sha256("text")``). Not an
    :class:`InvalidArgument`: ``except ValueError`` does not catch it.
    """

    __module__ = "cryptaccel"


class AuthenticationFailed(Error):
    """GCM tag verification failed while decrypting; no plaintext was released.

    Not a :class:`ValueError`, as ``cryptography``'s ``InvalidTag`` is not: a forged message is not a bad parameter,
    and code that catches ``ValueError`` for bad input must not swallow it by accident.
    """

    __module__ = "cryptaccel"


class BadDecrypt(Error, ValueError):
    """Decryption produced malformed PKCS#7 padding, or the ciphertext length is impossible for the mode.

    Also a :class:`ValueError`, as ``cryptography``'s PKCS7 unpadder raises for bad padding.
    """

    __module__ = "cryptaccel"


class InvalidCiphertext(Error, ValueError):
    """RSA decryption failed: bad PKCS#1 v1.5 or OAEP padding, or a ciphertext of the wrong length or out of range.

    One message for every cause (it never says where the padding broke). Also a :class:`ValueError`, as the
    ``cryptography`` package raises for a failed RSA decryption.
    """

    __module__ = "cryptaccel"


class EngineUnavailable(Error):
    """The requested engine is unknown, not built in, unavailable on this machine, or cannot serve the request."""

    __module__ = "cryptaccel"


class MalformedFile(InvalidArgument):
    """An age file whose ASCII armor or header does not parse (``cryptaccel.age.MalformedFile``).

    ``failure`` says which, as the age test kit names it: ``"armor failure"`` or ``"header failure"``.
    """

    __module__ = "cryptaccel.age"
    failure: str = "header failure"


class OpenFailed(AuthenticationFailed):
    """A well-formed age file that does not open (``cryptaccel.age.OpenFailed``).

    ``failure``: ``"no match"`` (no identity or passphrase opens a stanza), ``"HMAC failure"`` (the header MAC) or
    ``"payload failure"`` (a chunk is modified, truncated, reordered or appended to).
    """

    __module__ = "cryptaccel.age"
    failure: str = "payload failure"


# nanobind's own message for arguments its generated signature does not accept starts with "<name>(): incompatible
# function arguments" and lists the private signature; it must not reach users.
_NANOBIND_MARKER = "incompatible function arguments"


def plain_type_error(where: str, error: TypeError, **objects: Any) -> BaseException:
    """The exception to raise for a TypeError that came out of a call into the extension on behalf of ``where``
    (a public name such as ``"cryptaccel.encrypt"``): our own errors unchanged, nanobind's argument-mismatch error as
    an :class:`InvalidArgumentType` with a plain message (never the extension's private signature), and any other
    TypeError (from a user object's ``__index__``, say) as an :class:`InvalidArgumentType` with its message.

    ``objects``: the bytes-like arguments passed as they came (``key=key, data=data``). Bindings that take them
    without ``.none()`` (to stay on nanobind's fast call path) let only None through to nanobind's error: the first
    None among them is named in the message.

    Use as ``except TypeError as e: raise plain_type_error("cryptaccel.encrypt", e) from None``.
    """
    if isinstance(error, Error):
        return error
    text = str(error)
    if _NANOBIND_MARKER in text:
        for name, value in objects.items():
            if value is None:
                return InvalidArgumentType(f"{name} must be a bytes-like object, not 'NoneType'")
        return InvalidArgumentType(f"{where}(): an argument has the wrong type (see help({where}))")
    return InvalidArgumentType(text)


def type_name(value: Any) -> str:
    """The type name used in messages: ``int``, ``NoneType``, ``bytes``."""
    return type(value).__name__
