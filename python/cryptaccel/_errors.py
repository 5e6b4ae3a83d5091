"""Exception classes of cryptaccel.

The C++ library throws ``cryptaccel::Error`` and its subclasses (include/cryptaccel/error.hpp); the extension module
translates each into the Python class of the same name defined here. Messages are the library's one-line messages.
"""

__all__ = [
    "Error",
    "InvalidArgument",
    "AuthenticationFailed",
    "BadDecrypt",
    "InvalidCiphertext",
    "EngineUnavailable",
]


class Error(Exception):
    """Base class of every error cryptaccel raises."""

    __module__ = "cryptaccel"


class InvalidArgument(Error, ValueError):
    """An argument is unusable: wrong key, IV or tag length, unknown cipher name, bad data length for a mode.

    Also a :class:`ValueError`, so code that catches ``ValueError`` for bad parameters keeps working.
    """

    __module__ = "cryptaccel"


class AuthenticationFailed(Error):
    """GCM tag verification failed while decrypting; no plaintext was released."""

    __module__ = "cryptaccel"


class BadDecrypt(Error):
    """Decryption produced malformed PKCS#7 padding, or the ciphertext length is impossible for the mode."""

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
