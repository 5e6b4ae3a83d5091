"""Output files of the Python functions, all or nothing: through the library's AtomicOutput, the one the command
line writes its files with (include/cryptaccel/atomic_output.hpp)."""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar, Union

from . import _cryptaccel as _ext

T = TypeVar("T")


def to_destination(dst: Union[str, "os.PathLike[str]", Any], body: Callable[[Any], T]) -> T:
    """Runs ``body(writer)``. A binary file object ``dst`` is the writer itself. A path is written all or nothing: to
    a temporary file beside it, fsynced and renamed over it only when ``body`` succeeded, keeping an existing file's
    mode, owner and extended attributes (an existing device or FIFO, such as /dev/null, is written in place). A
    failure leaves no partial file and an existing file untouched; system errors raise OSError."""
    if not isinstance(dst, (str, os.PathLike)):
        return body(dst)
    out = _ext._AtomicOutput(os.fspath(dst))
    try:
        used = body(out)
        out.finish()
    except BaseException:
        out.abandon()  # now, not when a traceback that still holds `out` is freed
        raise
    return used
