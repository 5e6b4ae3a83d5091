"""cryptaccel.cuda: GPU arrays through DLPack (python/cryptaccel/cuda.py, python/src/cuda_bindings.cpp).

Everywhere: argument checks (host arrays, dtypes, non-contiguous arrays, stream arguments), a CUDA array reaching the
C++ API without a GPU (a stand-in DLPack producer built with ctypes), and that importing cryptaccel imports neither
PyTorch nor CuPy. With a GPU and PyTorch and/or CuPy (skipped visibly otherwise): every cipher both ways against the
host ref engine, in place and on a side stream, GCM tag failures (raised, or flagged asynchronously with the output
zeroed), the T-table kernel, hash_many against hashlib and keccak_f1600 against the host ref engine.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import random
import subprocess
import sys

import pytest

import cryptaccel
from cryptaccel import AuthenticationFailed, EngineUnavailable, InvalidArgument
from cryptaccel import cuda

np = None  # numpy, imported by the GPU tests only (the GPU machine has it; CI need not)


# --- a stand-in DLPack producer (no GPU library needed) -----------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class FakeArray:
    """A DLPack producer of ``n`` items (uint8 by default, optionally with a stride) at a host address. With
    ``device_type`` 2 (kDLCUDA) it claims to be a CUDA array: what a GPU library hands over, without a GPU; with 1
    (kDLCPU) it is a host array. Never dereferenced when the checks work."""

    def __init__(self, n: int, stride: int = 1, bits: int = 8, code: int = 1, device_type: int = 2):
        self._buf = ctypes.create_string_buffer(max(n * stride * bits // 8, 1))
        self._shape = (ctypes.c_int64 * 1)(n)
        self._strides = (ctypes.c_int64 * 1)(stride)
        self._managed = _DLManagedTensor()
        t = self._managed.dl_tensor
        t.data = ctypes.cast(self._buf, ctypes.c_void_p)
        self._device = (device_type, 0)
        t.device = _DLDevice(device_type, 0)
        t.ndim = 1
        t.dtype = _DLDataType(code, bits, 1)
        t.shape = self._shape
        t.strides = self._strides
        t.byte_offset = 0

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, **kwargs):
        new_capsule = ctypes.pythonapi.PyCapsule_New
        new_capsule.restype = ctypes.py_object
        new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new_capsule(ctypes.addressof(self._managed), b"dltensor", None)


# --- everywhere -------------------------------------------------------------------------------------------------

def test_availability_is_reported_with_a_reason():
    assert isinstance(cuda.available(), bool)
    if not cuda.available():
        assert cuda.unavailable_reason()
    else:
        assert cuda.unavailable_reason() == ""


def test_import_does_not_pull_in_gpu_libraries():
    code = "import sys, cryptaccel, cryptaccel.cuda; print(sorted(m for m in ('torch', 'cupy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=os.environ)
    assert out.stdout.strip() == "[]"


def test_host_arrays_are_rejected_clearly():
    host = FakeArray(32, device_type=1)
    with pytest.raises(InvalidArgument, match="CUDA device memory"):
        cuda.encrypt("aes-128-ctr", bytes(16), host, bytes(16), out=FakeArray(32, device_type=1))
    with pytest.raises(InvalidArgument, match="CUDA device memory"):
        cuda.hash_many("sha256", host, FakeArray(2, bits=64, device_type=1), out=FakeArray(32, device_type=1))
    with pytest.raises(InvalidArgument, match="CUDA device memory, not in host memory"):
        cuda.encrypt("aes-128-ctr", bytes(16), host, bytes(16))  # said before any output is allocated
    with pytest.raises(InvalidArgument, match="CUDA device memory, not in host memory"):
        cuda.decrypt("aes-128-ctr", bytes(16), FakeArray(32, device_type=3), bytes(16))  # pinned host memory
    with pytest.raises(InvalidArgument, match="keccak_f1600_batch"):
        cuda.keccak_f1600(FakeArray(25, bits=64, device_type=1))
    with pytest.raises(InvalidArgument, match="out"):
        cuda.encrypt("aes-128-ctr", bytes(16), FakeArray(32), bytes(16), out=FakeArray(32, device_type=1))
    with pytest.raises(TypeError, match="DLPack"):
        cuda.keccak_f1600(b"not an array" * 25)
    with pytest.raises(TypeError, match="DLPack"):
        cuda.hash_many("sha256", [1, 2, 3], FakeArray(2, bits=64))
    with pytest.raises(InvalidArgument, match="pass out="):
        cuda.encrypt("aes-128-ctr", bytes(16), FakeArray(32), bytes(16))  # an unknown library: no allocation here


def test_numpy_arrays_are_rejected_clearly():
    numpy = pytest.importorskip("numpy", reason="numpy is not installed: host-array case skipped")
    a = numpy.zeros(32, numpy.uint8)
    for call in (lambda: cuda.encrypt("aes-128-ctr", bytes(16), a, bytes(16)),
                 lambda: cuda.encrypt("aes-128-gcm", bytes(16), a, bytes(12), out=a),
                 lambda: cuda.hash_many("sha256", a, numpy.zeros(2, numpy.int64)),
                 lambda: cuda.keccak_f1600(numpy.zeros(25, numpy.uint64))):
        with pytest.raises(InvalidArgument, match="CUDA device memory, not in host memory"):
            call()


def test_cuda_array_checks_before_the_gpu_is_needed():
    with pytest.raises(InvalidArgument, match="C-contiguous"):
        cuda.encrypt("aes-128-ctr", bytes(16), FakeArray(32, stride=2), bytes(16), out=FakeArray(32))
    with pytest.raises(InvalidArgument, match="int64 or uint64"):
        cuda.keccak_f1600(FakeArray(25, bits=32))
    with pytest.raises(InvalidArgument, match="out has 16 bytes"):
        cuda.encrypt("aes-128-ctr", bytes(16), FakeArray(32), bytes(16), out=FakeArray(16))
    # An empty array is contiguous whatever its strides say (CuPy's (0, n) arrays): it reaches the device API.
    empty = FakeArray(0, stride=3, bits=64)
    if cuda.available():
        assert cuda.keccak_f1600(empty, stream=0) is empty
    else:
        with pytest.raises(EngineUnavailable):
            cuda.keccak_f1600(empty, stream=0)


def test_a_cuda_array_reaches_the_device_api():
    # Without a GPU the device API says why; with one, it sees that the address is not device memory.
    expected = InvalidArgument if cuda.available() else EngineUnavailable
    with pytest.raises(expected):
        cuda.encrypt("aes-128-ctr", bytes(16), FakeArray(32), bytes(16), out=FakeArray(32), stream=0)
    with pytest.raises(expected):
        cuda.keccak_f1600(FakeArray(50, bits=64, code=1), stream=0)


def test_stream_arguments():
    class CudaStreamProtocol:
        def __cuda_stream__(self):
            return (0, 1234)

    class TorchLike:
        cuda_stream = 77

    class CupyLike:
        ptr = 99

    assert cuda.stream_handle(None) == 0
    assert cuda.stream_handle(None, like=FakeArray(3)) == 0  # not torch/cupy: the legacy default stream
    assert cuda.stream_handle(5) == 5
    assert cuda.stream_handle(CudaStreamProtocol()) == 1234
    assert cuda.stream_handle(TorchLike()) == 77
    assert cuda.stream_handle(CupyLike()) == 99
    with pytest.raises(TypeError):
        cuda.stream_handle(True)
    with pytest.raises(TypeError):
        cuda.stream_handle("default")
    with pytest.raises(InvalidArgument):
        cuda.stream_handle(-1)


# --- with a GPU ---------------------------------------------------------------------------------------------------

def _libraries():
    libs = []
    for name in ("torch", "cupy"):
        try:
            __import__(name)
            libs.append(name)
        except ImportError:
            pass
    return libs


@pytest.fixture(params=["torch", "cupy"])
def gpu(request):
    """Array helpers of one GPU library; skips visibly without a GPU or without the library."""
    if not cuda.available():
        pytest.skip(f"no CUDA device: GPU test skipped ({cuda.unavailable_reason()})")
    if request.param not in _libraries():
        pytest.skip(f"{request.param} is not installed: GPU test skipped")
    return _Gpu(request.param)


class _Gpu:
    def __init__(self, name):
        self.name = name
        self.lib = __import__(name)
        global np
        import numpy as np

    def to_device(self, data: bytes, dtype="uint8"):
        host = np.frombuffer(data, dtype=dtype).copy()
        if self.name == "torch":
            return self.lib.from_numpy(host).cuda()
        return self.lib.asarray(host)

    def to_host(self, array) -> bytes:
        if self.name == "torch":
            return array.cpu().numpy().tobytes()
        return self.lib.asnumpy(array).tobytes()

    def empty(self, n: int, dtype="uint8"):
        if self.name == "torch":
            return self.lib.empty(n, dtype=getattr(self.lib, dtype), device="cuda")
        return self.lib.empty(n, dtype=dtype)

    def current_stream(self):
        if self.name == "torch":
            return self.lib.cuda.current_stream()
        return self.lib.cuda.get_current_stream()

    def side_stream(self):
        """A new non-blocking stream, ordered after the work queued so far on the current stream."""
        if self.name == "torch":
            s = self.lib.cuda.Stream()
            s.wait_stream(self.current_stream())
            return s
        s = self.lib.cuda.Stream(non_blocking=True)
        s.wait_event(self.current_stream().record())
        return s

    def use_stream(self, stream):
        """A context manager that makes ``stream`` the library's current stream."""
        return self.lib.cuda.stream(stream) if self.name == "torch" else stream

    def synchronize(self, stream=None):
        if stream is not None:
            stream.synchronize()
        elif self.name == "torch":
            self.lib.cuda.synchronize()
        else:
            self.lib.cuda.Device().synchronize()


def _length(cipher: str, rng: random.Random) -> int:
    mode = cryptaccel.cipher_info(cipher)["mode"]
    n = rng.choice([16, 32, 48, 1000, 4096, 65536 + 32, rng.randrange(16, 200000)])
    if mode in ("ecb", "cbc"):
        n = n // 16 * 16
    return max(n, 16)


@pytest.mark.parametrize("cipher", cryptaccel.cipher_names())
def test_every_cipher_matches_ref(gpu, cipher):
    rng = random.Random(cipher)
    info = cryptaccel.cipher_info(cipher)
    for trial in range(3):
        key = rng.randbytes(info["key_size"])
        iv = rng.randbytes(info["iv_size"])
        plain = rng.randbytes(_length(cipher, rng))
        # Only GCM takes additional authenticated data; the other modes reject a non-empty aad.
        aad = rng.randbytes(trial * 7) if info["mode"] == "gcm" else b""
        want = cryptaccel.encrypt(cipher, key, plain, iv, aad=aad, padding=False, engine="ref")
        data = gpu.to_device(plain)
        if info["mode"] == "gcm":
            ct, tag = cuda.encrypt(cipher, key, data, iv, aad=aad)
            assert gpu.to_host(ct) + gpu.to_host(tag) == want
            back = cuda.decrypt(cipher, key, ct, iv, aad=aad, tag=tag)
        else:
            ct = cuda.encrypt(cipher, key, data, iv)
            assert gpu.to_host(ct) == want
            back = cuda.decrypt(cipher, key, ct, iv)
        assert gpu.to_host(back) == plain


def test_in_place_on_a_side_stream_and_ttable(gpu):
    rng = random.Random(7)
    key, iv, plain = rng.randbytes(32), rng.randbytes(16), rng.randbytes(1 << 20)
    want = cryptaccel.encrypt("aes-256-ctr", key, plain, iv, engine="ref")
    for variant in ("bitsliced", "ttable"):
        data = gpu.to_device(plain)
        s = gpu.side_stream()
        assert cuda.encrypt("aes-256-ctr", key, data, iv, out=data, variant=variant, stream=s) is data
        gpu.synchronize(s)
        assert gpu.to_host(data) == want, variant
    with pytest.raises(InvalidArgument):
        cuda.encrypt("aes-256-ctr", key, gpu.to_device(plain), iv, variant="fast")


def test_legacy_stream_named_while_a_side_stream_is_current(gpu):
    # Output allocated on the side stream, work queued on stream 0: torch tensors get record_stream(stream 0).
    rng = random.Random(11)
    key, iv, plain = rng.randbytes(16), rng.randbytes(16), rng.randbytes(300000)
    want = cryptaccel.encrypt("aes-128-cbc", key, plain, iv, padding=False, engine="ref")
    data = gpu.to_device(plain)
    gpu.synchronize()
    s = gpu.side_stream()
    with gpu.use_stream(s):
        assert cuda.stream_handle(None, like=data) == cuda.stream_handle(s) != 0
        ct = cuda.encrypt("aes-128-cbc", key, data, iv, stream=0)
    gpu.synchronize()
    assert gpu.to_host(ct) == want


def test_bytes_of_any_dtype_are_processed(gpu):
    rng = random.Random(12)
    key, iv, plain = rng.randbytes(16), rng.randbytes(16), rng.randbytes(4096)
    want = cryptaccel.encrypt("aes-128-ctr", key, plain, iv, engine="ref")
    out = gpu.to_device(bytes(4096), "float64")
    assert cuda.encrypt("aes-128-ctr", key, gpu.to_device(plain, "int32"), iv, out=out) is out
    assert gpu.to_host(out) == want


def test_wrong_memory_and_layout_are_rejected(gpu):
    key, iv = bytes(16), bytes(16)
    x = gpu.to_device(bytes(range(256)) * 4)
    host = np.zeros(1024, np.uint8)
    with pytest.raises(InvalidArgument, match="CUDA device memory"):
        cuda.encrypt("aes-128-ctr", key, host, iv)
    with pytest.raises(InvalidArgument, match="CUDA device memory"):
        cuda.encrypt("aes-128-ctr", key, x, iv, out=host)
    if gpu.name == "torch":
        with pytest.raises(InvalidArgument, match="CUDA device memory"):
            cuda.encrypt("aes-128-ctr", key, gpu.lib.zeros(1024, dtype=gpu.lib.uint8), iv)  # a CPU tensor
    with pytest.raises(InvalidArgument, match="C-contiguous"):
        cuda.encrypt("aes-128-ctr", key, x[::2], iv)
    with pytest.raises(InvalidArgument, match="C-contiguous"):
        cuda.encrypt("aes-128-ctr", key, x.reshape(32, 32).T, iv, out=gpu.empty(1024))
    with pytest.raises(InvalidArgument, match="C-contiguous"):
        cuda.keccak_f1600(gpu.to_device(bytes(400), "uint64")[::2])
    with pytest.raises(InvalidArgument, match="out has"):
        cuda.encrypt("aes-128-ctr", key, x, iv, out=gpu.empty(1000))
    with pytest.raises(InvalidArgument, match="int64 or uint64"):
        cuda.hash_many("sha256", x, gpu.to_device(bytes(8), "int32"))
    with pytest.raises(InvalidArgument, match="multiple of the block size"):
        cuda.encrypt("aes-128-cbc", key, gpu.to_device(bytes(40)), iv)


def test_gcm_tag_failure_releases_nothing(gpu):
    rng = random.Random(8)
    key, nonce, plain = rng.randbytes(16), rng.randbytes(12), rng.randbytes(5000)
    ct, tag = cuda.encrypt("aes-128-gcm", key, gpu.to_device(plain), nonce)
    bad = bytearray(gpu.to_host(tag))
    bad[0] ^= 1
    with pytest.raises(AuthenticationFailed):
        cuda.decrypt("aes-128-gcm", key, ct, nonce, tag=gpu.to_device(bytes(bad)))
    out = gpu.to_device(b"\x55" * len(plain))
    with pytest.raises(AuthenticationFailed):
        cuda.decrypt("aes-128-gcm", key, ct, nonce, tag=tag, aad=b"not the aad", out=out)
    assert gpu.to_host(out) == bytes(len(plain))  # the plaintext never reached out
    assert gpu.to_host(cuda.decrypt("aes-128-gcm", key, ct, nonce, tag=tag, out=out)) == plain
    # Asynchronous form: the flag says 0 and the output is zeroed.
    ok = gpu.to_device(b"\xff\xff\xff\xff", dtype="int32")
    out = cuda.decrypt("aes-128-gcm", key, ct, nonce, tag=gpu.to_device(bytes(bad)), ok=ok)
    assert np.frombuffer(gpu.to_host(ok), dtype=np.int32).tolist() == [0]
    assert gpu.to_host(out) == bytes(len(plain))
    with pytest.raises(InvalidArgument, match="tag="):
        cuda.decrypt("aes-128-gcm", key, ct, nonce)


@pytest.mark.parametrize("algorithm", ["sha256", "sha512", "sha3_256", "sm3", "shake_128", "shake_256"])
def test_hash_many_matches_hashlib(gpu, algorithm):
    rng = random.Random(algorithm)
    msgs = [rng.randbytes(rng.choice([0, 1, 55, 64, 200, rng.randrange(0, 10000)])) for _ in range(500)]
    offsets = np.cumsum([0] + [len(m) for m in msgs]).astype(np.int64)
    digest_len = rng.choice([1, 40, 300]) if algorithm.startswith("shake") else None
    out = cuda.hash_many(algorithm, gpu.to_device(b"".join(msgs) or b"\0"), gpu.to_device(offsets.tobytes(), "int64"),
                         digest_len=digest_len)
    n = digest_len or hashlib.new(algorithm).digest_size
    assert tuple(out.shape) == (len(msgs), n)
    got = gpu.to_host(out)
    for i, m in enumerate(msgs):
        h = hashlib.new(algorithm, m)
        want = h.digest(n) if algorithm.startswith("shake") else h.digest()
        assert got[i * n:(i + 1) * n] == want, i


def test_hash_many_into_out_with_uint64_offsets(gpu):
    msgs = [b"abc", b"", b"x" * 1000]
    offsets = np.cumsum([0] + [len(m) for m in msgs]).astype(np.uint64)
    out = gpu.empty(3 * 32)
    assert cuda.hash_many("sha256", gpu.to_device(b"".join(msgs)), gpu.to_device(offsets.tobytes(), "uint64"),
                          out=out) is out
    assert gpu.to_host(out) == b"".join(hashlib.sha256(m).digest() for m in msgs)
    empty = cuda.hash_many("sha256", gpu.to_device(b"\0"), gpu.to_device(bytes(8), "int64"))  # no messages
    assert tuple(empty.shape) == (0, 32)
    with pytest.raises(InvalidArgument, match="digest_len"):
        cuda.hash_many("shake_128", gpu.to_device(b"\0"), gpu.to_device(bytes(16), "int64"))


@pytest.mark.parametrize("dtype", ["uint64", "int64"])
def test_keccak_matches_ref(gpu, dtype):
    rng = random.Random(9)
    raw = rng.randbytes(200 * 300)
    want = cryptaccel.keccak_f1600_batch(raw, engine="ref")
    states = gpu.to_device(raw, dtype)
    assert cuda.keccak_f1600(states) is states
    assert gpu.to_host(states) == want


def test_arrays_on_another_device(gpu):
    if gpu.name == "torch":
        count = gpu.lib.cuda.device_count()
    else:
        count = gpu.lib.cuda.runtime.getDeviceCount()
    if count < 2:
        pytest.skip(f"{count} CUDA device: the second-device case needs two")
    rng = random.Random(13)
    key, iv, plain = rng.randbytes(16), rng.randbytes(16), rng.randbytes(5000)
    if gpu.name == "torch":
        on1 = gpu.lib.from_numpy(np.frombuffer(plain, np.uint8).copy()).to("cuda:1")
        current = gpu.lib.cuda.current_device
    else:
        with gpu.lib.cuda.Device(1):
            on1 = gpu.lib.asarray(np.frombuffer(plain, np.uint8))
        current = lambda: gpu.lib.cuda.Device().id  # noqa: E731
    before = current()
    assert before == 0
    ct = cuda.encrypt("aes-128-ctr", key, on1, iv)
    assert current() == before  # the call ran on device 1 and left device 0 current
    assert gpu.to_host(ct) == cryptaccel.encrypt("aes-128-ctr", key, plain, iv, engine="ref")
    with pytest.raises(InvalidArgument, match="another device"):
        cuda.encrypt("aes-128-ctr", key, on1, iv, out=gpu.to_device(plain))
