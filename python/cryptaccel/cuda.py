"""cryptaccel.cuda: encrypt, decrypt and hash arrays that already live in GPU memory, with no copy through the host.

Arrays come in through DLPack: PyTorch tensors, CuPy arrays, or any object with ``__dlpack__`` whose memory is CUDA
device (or managed) memory. They must be C-contiguous; their bytes are what is processed, whatever the dtype. Results
are device arrays of the input's library (``torch.empty_like`` / ``cupy.empty_like``); for other libraries pass
``out=``. Work is queued on a CUDA stream and the functions return without waiting, except GCM decryption, which
waits for its tag check unless it is given an ``ok=`` flag array (see :func:`decrypt`).

Streams (``stream=``): ``None`` means the current stream of the input's library (PyTorch: ``torch.cuda.current_stream``
of the tensor's device; CuPy: ``cupy.cuda.get_current_stream()``; otherwise the legacy default stream), so the work is
ordered after what that library queued before. Also accepted: an integer ``cudaStream_t`` handle (0: the legacy
default stream), a ``torch.cuda.Stream``, a ``cupy.cuda.Stream`` or any object with ``__cuda_stream__``.

Lifetimes: inputs must stay alive until the queued work has run. On the library's current stream that is automatic
(the caching allocators reuse memory in stream order); on another stream, PyTorch tensors are marked with
``record_stream`` here, and CuPy arrays must be kept alive by the caller until the stream is synchronised.

See docs/python.md ("GPU arrays") for examples. Nothing here imports PyTorch or CuPy unless you pass their arrays.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from . import _cryptaccel as _ext
from ._errors import AuthenticationFailed, InvalidArgument, InvalidArgumentType, plain_type_error

__all__ = ["available", "unavailable_reason", "encrypt", "decrypt", "hash_many", "keccak_f1600", "stream_handle"]

_BYTES_TYPES = (bytes, bytearray, memoryview)


def available() -> bool:
    """True when this build has the cuda engine and a CUDA device is usable."""
    return bool(_ext._cuda_available())


def unavailable_reason() -> str:
    """Empty when :func:`available`; otherwise why not (e.g. ``"no NVIDIA GPU found (cudaGetDeviceCount: ...)"``)."""
    return str(_ext._cuda_unavailable_reason())


def _library(array: Any) -> str:
    """``"torch"``, ``"cupy"`` or ``""`` (another DLPack producer), from the array's type alone (no import)."""
    root = type(array).__module__.split(".")[0]
    return root if root in ("torch", "cupy") else ""


# DLPack device types (dlpack.h DLDeviceType) that this module accepts, and those that are host memory.
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
_KDL_HOST = (1, 3)  # kDLCPU, kDLCUDAHost (pinned host memory)


def _require_cuda_array(array: Any, what: str, host_api: str) -> None:
    """Raises unless ``array`` is a DLPack producer in CUDA device (or managed) memory, from ``__dlpack_device__``
    alone (nothing is exported or imported here; the extension checks the layout). ``host_api`` names what to use for
    host data in the message."""
    if not hasattr(array, "__dlpack__"):
        if type(array).__name__ == "PyCapsule":
            return  # a bare DLPack capsule (torch.utils.dlpack.to_dlpack): the extension checks it
        raise InvalidArgumentType(f"{what} must be a CUDA array with DLPack support (torch.Tensor, cupy.ndarray, "
                                  f"...), not {type(array).__name__}")
    device = getattr(array, "__dlpack_device__", None)
    if device is None:
        return
    kind = int(device()[0])
    if kind not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        where = "host" if kind in _KDL_HOST else f"DLPack device type {kind}"
        raise InvalidArgument(f"{what} must be an array in CUDA device memory, not in {where} memory "
                              f"(for host data use {host_api})")


def stream_handle(stream: Any = None, like: Any = None) -> int:
    """The ``cudaStream_t`` handle (an int) that ``stream=`` names, for work on the array ``like``.

    ``None``: the current stream of ``like``'s library (0, the legacy default stream, for other libraries or no array).
    An int is taken as the handle; objects are asked for ``__cuda_stream__`` (a ``(version, handle)`` pair),
    ``cuda_stream`` (``torch.cuda.Stream``) or ``ptr`` (``cupy.cuda.Stream``), in that order.

    Raises:
        InvalidArgumentType: ``stream`` is none of these (a TypeError).
        InvalidArgument: a negative handle.
    """
    if stream is None:
        lib = _library(like)
        if lib == "torch":
            import torch

            return int(torch.cuda.current_stream(like.device).cuda_stream)
        if lib == "cupy":
            import cupy

            with cupy.cuda.Device(like.device.id):
                return int(cupy.cuda.get_current_stream().ptr)
        return 0
    if isinstance(stream, bool):
        raise InvalidArgumentType("stream must be a CUDA stream or an int handle, not bool")
    if isinstance(stream, int):
        handle = stream
    elif hasattr(stream, "__cuda_stream__"):
        protocol = stream.__cuda_stream__()
        handle = int(protocol[1])
    elif hasattr(stream, "cuda_stream"):
        handle = int(stream.cuda_stream)
    elif hasattr(stream, "ptr"):
        handle = int(stream.ptr)
    else:
        raise InvalidArgumentType("stream must be a CUDA stream (torch, cupy, __cuda_stream__) or an int handle, "
                                  f"not {type(stream).__name__}")
    if handle < 0:
        raise InvalidArgument(f"invalid stream handle {handle}")
    return handle


def _keep_alive(stream: Any, handle: int, *arrays: Any) -> None:
    """Tells PyTorch's caching allocator that ``arrays`` are used on stream ``handle`` (when it is not their current
    one), so that their memory is not handed out again before the work queued there has run. ``stream`` is the
    caller's ``stream=`` value, used as is when it is a ``torch.cuda.Stream``."""
    for a in arrays:
        if a is None or _library(a) != "torch":
            continue
        import torch

        if handle != int(torch.cuda.current_stream(a.device).cuda_stream):
            s = stream if isinstance(stream, torch.cuda.Stream) else torch.cuda.ExternalStream(handle, device=a.device)
            a.record_stream(s)


def _empty_like(array: Any) -> Any:
    lib = _library(array)
    if lib == "torch":
        import torch

        return torch.empty_like(array)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(array.device.id):
            return cupy.empty_like(array)
    raise InvalidArgument(f"pass out= for arrays of type {type(array).__name__} (only torch and cupy outputs are allocated here)")


def _empty_bytes(like: Any, shape: Union[int, Tuple[int, ...]], dtype: str = "uint8") -> Any:
    """A new device array of ``shape`` on ``like``'s device, from ``like``'s library."""
    lib = _library(like)
    if lib == "torch":
        import torch

        return torch.empty(shape, dtype=getattr(torch, dtype), device=like.device)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(like.device.id):
            return cupy.empty(shape, dtype=dtype)
    raise InvalidArgument(f"pass out= (and tag= for GCM) for arrays of type {type(like).__name__}")


def _mode(cipher: str) -> str:
    return str(_ext._cipher_info(cipher)["mode"])


def _check_types(**values: Any) -> None:
    """Type checks before anything is queued (InvalidArgumentType, a TypeError): str names, non-negative ints."""
    for name, value in values.items():
        if name in ("cipher", "algorithm", "variant"):
            if not isinstance(value, str):
                raise InvalidArgumentType(f"{name} must be a str, not {type(value).__name__}")
        elif value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidArgumentType(f"{name} must be an int, not {type(value).__name__}")
        elif value is not None and not 0 <= value < 1 << 64:
            raise InvalidArgument(f"invalid {name} {value} (must be a non-negative integer)")


def encrypt(
    cipher: str,
    key: Union[bytes, bytearray, memoryview],
    data: Any,
    iv: Union[bytes, bytearray, memoryview, None] = b"",
    *,
    out: Any = None,
    tag: Any = None,
    aad: Union[bytes, bytearray, memoryview, None] = b"",
    tag_len: int = 16,
    xts_unit: int = 0,
    variant: str = "bitsliced",
    stream: Any = None,
) -> Any:
    """Encrypts the device array ``data`` (one message) on the GPU and returns the ciphertext as a device array.

    Args:
        cipher: a cipher name as for :func:`cryptaccel.encrypt` (no padding here: ECB/CBC need whole 16-byte blocks).
        key, iv, aad: host bytes-like values, as for :func:`cryptaccel.encrypt`.
        data: the plaintext, a C-contiguous CUDA array (its bytes, whatever its dtype).
        out: where the ciphertext goes (same byte size; ``out=data`` encrypts in place); ``None`` allocates one like
            ``data``.
        tag: GCM: a device array of ``tag_len`` bytes for the tag; ``None`` allocates a uint8 array.
        tag_len: GCM tag length, 4..16.
        xts_unit: XTS data-unit size (0: the whole message is one data unit).
        variant: ``"bitsliced"`` (constant time, the default) or ``"ttable"`` (faster, NOT constant time).
        stream: see the module documentation.

    Returns:
        The ciphertext array, or for GCM ``(ciphertext, tag)``. Both are ready once ``stream``'s work has run.

    Raises:
        InvalidArgument: bad key/IV/lengths, a host array, a non-contiguous array, arrays on different devices.
        EngineUnavailable: no CUDA device or a build without CUDA.
    """
    return _crypt("encrypt", cipher, key, data, iv, out, tag, aad, tag_len, None, xts_unit, variant, stream)


def decrypt(
    cipher: str,
    key: Union[bytes, bytearray, memoryview],
    data: Any,
    iv: Union[bytes, bytearray, memoryview, None] = b"",
    *,
    out: Any = None,
    tag: Any = None,
    ok: Any = None,
    aad: Union[bytes, bytearray, memoryview, None] = b"",
    tag_len: int = 16,
    xts_unit: int = 0,
    variant: str = "bitsliced",
    stream: Any = None,
) -> Any:
    """Decrypts the device array ``data`` on the GPU and returns the plaintext as a device array.

    Arguments are as for :func:`encrypt`. GCM needs ``tag`` (the expected tag, a device array of ``tag_len``
    bytes). By default GCM decryption then waits for the stream and raises :class:`AuthenticationFailed` when the tag
    does not match; the output has been zeroed on the device by then, so no unverified plaintext is ever returned.
    To stay asynchronous, pass ``ok``: a device int32 array of one item that is set to 1 when the tag matched and 0
    when it did not (and the output was zeroed); nothing waits then.

    Returns:
        The plaintext array.

    Raises:
        AuthenticationFailed: GCM without ``ok``: the tag did not match.
        InvalidArgument, EngineUnavailable: as for :func:`encrypt`.
    """
    return _crypt("decrypt", cipher, key, data, iv, out, tag, aad, tag_len, ok, xts_unit, variant, stream)


def _crypt(direction: str, cipher: str, key: Any, data: Any, iv: Any, out: Any, tag: Any, aad: Any, tag_len: int,
           ok: Any, xts_unit: int, variant: str, stream: Any) -> Any:
    _check_types(cipher=cipher, variant=variant, tag_len=tag_len, xts_unit=xts_unit)
    gcm = _mode(cipher) == "gcm"
    host_api = f"cryptaccel.{direction}"
    for array, what in ((data, "data"), (out, "out"), (tag, "tag"), (ok, "ok")):
        if array is not None:
            _require_cuda_array(array, what, host_api)
    handle = stream_handle(stream, data)
    if out is None:
        out = _empty_like(data)
    wait_for_tag = False
    if gcm:
        if tag is None:
            if direction == "decrypt":
                raise InvalidArgument("GCM decryption needs tag= (the expected tag, a device array of tag_len bytes)")
            tag = _empty_bytes(data, tag_len)
        if direction == "decrypt" and ok is None:
            ok = _empty_bytes(data, 1, "int32")
            wait_for_tag = True
    try:
        _ext._cuda_crypt(cipher, direction, key, b"" if iv is None else iv, data, out, b"" if aad is None else aad,
                         tag if gcm else None, tag_len, ok if gcm and direction == "decrypt" else None, xts_unit,
                         variant, handle)
    except TypeError as e:
        raise plain_type_error(f"cryptaccel.cuda.{direction}", e) from None
    _keep_alive(stream, handle, data, out, tag, ok)
    if wait_for_tag and _ext._cuda_read_flags(ok, handle) != [1]:
        raise AuthenticationFailed("GCM tag mismatch: the message or its tag was altered (output zeroed)")
    if gcm and direction == "encrypt":
        return out, tag
    return out


def hash_many(algorithm: str, data: Any, offsets: Any, *, digest_len: Optional[int] = None, out: Any = None,
              stream: Any = None) -> Any:
    """Hashes packed messages in device memory, one GPU thread per message, and returns the digests on the device.

    Args:
        algorithm: a hash name as for :func:`cryptaccel.new` (``"sha256"``, ``"sha3_256"``, ``"shake_128"``, ``"sm3"``).
        data: a device byte array holding every message back to back.
        offsets: a device int64/uint64 array of ``count + 1`` entries: message ``i`` is ``data[offsets[i]:offsets[i+1]]``.
        digest_len: digest bytes (the algorithm's size by default; SHAKE: required, any length >= 1).
        out: a device array of ``count * digest_len`` bytes; ``None`` allocates a uint8 ``(count, digest_len)`` array.
        stream: see the module documentation.

    Returns:
        The digests array (ready once the stream's work has run).
    """
    _check_types(algorithm=algorithm, digest_len=digest_len)
    for array, what in ((data, "data"), (offsets, "offsets"), (out, "out")):
        if array is not None:
            _require_cuda_array(array, what, "cryptaccel.hash_many")
    info = _ext._hash_info(algorithm)
    if digest_len is None:
        if info["xof"]:
            raise InvalidArgument(f"{algorithm} is an XOF: pass digest_len")
        digest_len = int(info["digest_size"])
    handle = stream_handle(stream, data)
    if out is None:
        shape = tuple(getattr(offsets, "shape", ()))
        if len(shape) != 1 or shape[0] < 1:
            raise InvalidArgument("offsets must be a 1-D array of count + 1 entries")
        out = _empty_bytes(data, (int(shape[0]) - 1, digest_len))
    try:
        _ext._cuda_hash(algorithm, data, offsets, out, digest_len, handle)
    except TypeError as e:
        raise plain_type_error("cryptaccel.cuda.hash_many", e) from None
    _keep_alive(stream, handle, data, offsets, out)
    return out


def keccak_f1600(states: Any, *, stream: Any = None) -> Any:
    """Applies Keccak-f[1600] in place to device states (a 64-bit integer array of ``25 * n`` lanes, lane ``(x, y)``
    of each state at ``x + 5*y``) and returns ``states``."""
    _require_cuda_array(states, "states", "cryptaccel.keccak_f1600_batch")
    handle = stream_handle(stream, states)
    try:
        _ext._cuda_keccak(states, handle)
    except TypeError as e:
        raise plain_type_error("cryptaccel.cuda.keccak_f1600", e) from None
    _keep_alive(stream, handle, states)
    return states
