"""The Python API itself: exception types and messages, engine reporting, argument handling, the GIL-release path."""

from __future__ import annotations

import array
import importlib.metadata
import os
import pickle
import random
import re
import threading
import time
from pathlib import Path

import pytest

import cryptaccel
from conftest import skip_unless_supported

RNG = random.Random(1234)


def rb(n: int) -> bytes:
    return RNG.randbytes(n)


# --- exceptions -----------------------------------------------------------------------------------------------------

def test_exception_hierarchy():
    """One hierarchy under cryptaccel.Error; ValueError for bad values and bad padding (BadDecrypt: changed by issue
    23, it was not one), TypeError for wrong types, neither for a forged GCM message (as cryptography's InvalidTag).
    test_python_errors.py compares each with what hashlib and cryptography raise."""
    assert issubclass(cryptaccel.Error, Exception)
    for cls in (cryptaccel.InvalidArgument, cryptaccel.InvalidArgumentType, cryptaccel.AuthenticationFailed,
                cryptaccel.BadDecrypt, cryptaccel.InvalidCiphertext, cryptaccel.EngineUnavailable):
        assert issubclass(cls, cryptaccel.Error)
    assert issubclass(cryptaccel.InvalidArgument, ValueError)
    assert not issubclass(cryptaccel.InvalidArgument, TypeError)
    assert issubclass(cryptaccel.InvalidArgumentType, TypeError)
    assert not issubclass(cryptaccel.InvalidArgumentType, ValueError)
    assert issubclass(cryptaccel.BadDecrypt, ValueError)
    assert not issubclass(cryptaccel.AuthenticationFailed, ValueError)
    for cls in (cryptaccel.Error, cryptaccel.InvalidArgument, cryptaccel.InvalidArgumentType,
                cryptaccel.AuthenticationFailed):
        assert cls.__doc__
        assert pickle.loads(pickle.dumps(cls("x"))).args == ("x",)


@pytest.mark.parametrize("cipher,key_len,expected", [
    ("aes-128-cbc", 15, 16), ("aes-192-ctr", 16, 24), ("aes-256-gcm", 16, 32), ("sm4-ecb", 32, 16),
    ("aes-128-xts", 16, 32), ("aes-256-xts", 32, 64),
])
def test_wrong_key_size(cipher, key_len, expected, engine):
    skip_unless_supported(engine, cipher)
    iv = b"" if cipher.endswith("ecb") else rb(12 if cipher.endswith("gcm") else 16)
    for fn in (cryptaccel.encrypt, cryptaccel.decrypt):
        with pytest.raises(cryptaccel.InvalidArgument) as ei:
            fn(cipher, rb(key_len), rb(32), iv, engine=engine)
        msg = str(ei.value)
        assert "key" in msg and str(key_len) in msg and str(expected) in msg, msg
        assert "\n" not in msg


@pytest.mark.parametrize("cipher,iv_len", [("aes-128-cbc", 15), ("aes-128-cbc", 0), ("aes-256-ctr", 17),
                                           ("sm4-cbc", 12), ("aes-128-xts", 8)])
def test_wrong_iv_size(cipher, iv_len, engine):
    skip_unless_supported(engine, cipher)
    key = rb(cryptaccel.cipher_info(cipher)["key_size"])
    with pytest.raises(cryptaccel.InvalidArgument, match=rf"IV.*\b{iv_len}\b.*16"):
        cryptaccel.encrypt(cipher, key, rb(32), rb(iv_len), engine=engine)


def test_gcm_empty_nonce_and_tag_lengths(engine):
    key = rb(16)
    with pytest.raises(cryptaccel.InvalidArgument, match="nonce"):
        cryptaccel.encrypt("aes-128-gcm", key, b"data", b"", engine=engine)
    for bad in (0, 3, 17, 32):
        with pytest.raises(cryptaccel.InvalidArgument, match="tag length"):
            cryptaccel.encrypt("aes-128-gcm", key, b"data", rb(12), tag_len=bad, engine=engine)
    with pytest.raises(cryptaccel.InvalidArgument):
        cryptaccel.encrypt("aes-128-gcm", key, b"data", rb(12), tag_len=-1, engine=engine)
    # A wrong type is an InvalidArgumentType (a TypeError; it was an InvalidArgument before issue 23).
    with pytest.raises(cryptaccel.InvalidArgumentType, match="tag_len must be an integer, not str"):
        cryptaccel.encrypt("aes-128-gcm", key, b"data", rb(12), tag_len="16", engine=engine)


def test_gcm_authentication_failed(engine):
    key, iv = rb(32), rb(12)
    sealed = cryptaccel.encrypt("aes-256-gcm", key, b"attack at dawn", iv, aad=b"hdr", engine=engine)
    assert len(sealed) == len(b"attack at dawn") + 16
    for tampered in (sealed[:-1] + bytes([sealed[-1] ^ 1]), bytes([sealed[0] ^ 1]) + sealed[1:]):
        with pytest.raises(cryptaccel.AuthenticationFailed, match="authentication failed"):
            cryptaccel.decrypt("aes-256-gcm", key, tampered, iv, aad=b"hdr", engine=engine)
    with pytest.raises(cryptaccel.AuthenticationFailed):
        cryptaccel.decrypt("aes-256-gcm", key, sealed, iv, aad=b"hdR", engine=engine)
    with pytest.raises(cryptaccel.BadDecrypt, match="shorter than the 16-byte tag"):
        cryptaccel.decrypt("aes-256-gcm", key, sealed[:15], iv, engine=engine)
    # A shorter tag is a different (truncated) tag of the same computation.
    short = cryptaccel.encrypt("aes-256-gcm", key, b"attack at dawn", iv, aad=b"hdr", tag_len=8, engine=engine)
    assert short == sealed[:-8]
    assert cryptaccel.decrypt("aes-256-gcm", key, short, iv, aad=b"hdr", tag_len=8, engine=engine) == b"attack at dawn"


def test_padding_errors(engine):
    key, iv = rb(16), rb(16)
    with pytest.raises(cryptaccel.InvalidArgument, match="multiple of the block size"):
        cryptaccel.encrypt("aes-128-cbc", key, rb(15), iv, padding=False, engine=engine)
    with pytest.raises(cryptaccel.BadDecrypt):
        cryptaccel.decrypt("aes-128-cbc", key, rb(15), iv, engine=engine)
    with pytest.raises(cryptaccel.BadDecrypt):
        cryptaccel.decrypt("aes-128-cbc", key, b"", iv, engine=engine)
    ct = cryptaccel.encrypt("aes-128-ecb", key, rb(20), engine=engine)
    assert len(ct) == 32
    assert len(cryptaccel.encrypt("aes-128-ecb", key, rb(32), engine=engine)) == 48  # full padding block
    assert cryptaccel.encrypt("aes-128-ecb", key, b"", padding=False, engine=engine) == b""


def test_xts_argument_errors(engine):
    half = rb(16)
    with pytest.raises(cryptaccel.InvalidArgument, match="halves"):
        cryptaccel.encrypt("aes-128-xts", half + half, rb(32), rb(16), engine=engine)
    with pytest.raises(cryptaccel.InvalidArgument, match="16 bytes"):
        cryptaccel.encrypt("aes-128-xts", rb(32), rb(15), rb(16), engine=engine)
    with pytest.raises(cryptaccel.InvalidArgument, match="data unit"):
        cryptaccel.encrypt("aes-128-xts", rb(32), rb(70), rb(16), xts_unit=32, engine=engine)  # 6-byte last unit
    with pytest.raises(cryptaccel.InvalidArgument):
        cryptaccel.encrypt("aes-128-xts", rb(32), rb(64), rb(16), xts_unit=-1, engine=engine)


@pytest.mark.parametrize("name", ["aes-129-cbc", "aes-128-ofb", "sm4-xts", "aes-192-xts", "", "aes128cbc", "des-cbc"])
def test_unknown_cipher(name):
    with pytest.raises(cryptaccel.InvalidArgument) as ei:
        cryptaccel.encrypt(name, rb(16), rb(16), rb(16))
    assert "cipher" in str(ei.value) and repr(name)[1:-1] in str(ei.value)
    with pytest.raises(cryptaccel.InvalidArgument):
        cryptaccel.cipher_info(name)
    with pytest.raises(cryptaccel.InvalidArgument):
        cryptaccel.resolve_engine("auto", name)


def test_cipher_name_forms():
    key, iv, data = rb(16), rb(16), rb(40)
    want = cryptaccel.encrypt("aes-128-cbc", key, data, iv)
    assert cryptaccel.encrypt("AES-128-CBC", key, data, iv) == want
    assert cryptaccel.encrypt("-aes-128-cbc", key, data, iv) == want
    with pytest.raises(cryptaccel.InvalidArgumentType, match="cipher must be a str, not bytes"):
        cryptaccel.encrypt(b"aes-128-cbc", key, data, iv)  # bytes is not a name


def test_unknown_and_unavailable_engines():
    key, iv = rb(16), rb(16)
    with pytest.raises(cryptaccel.EngineUnavailable, match="unknown engine 'warp-drive'"):
        cryptaccel.encrypt("aes-128-ctr", key, b"x", iv, engine="warp-drive")
    with pytest.raises(cryptaccel.EngineUnavailable, match="warp-drive"):
        cryptaccel.resolve_engine("warp-drive", "aes-128-ctr")
    with pytest.raises(cryptaccel.EngineUnavailable):
        cryptaccel.encrypt_many("aes-128-ctr", [key], [iv], [b"x"], engine="warp-drive")
    names = {e["name"]: e for e in cryptaccel.engines()}
    for known in ("cpu", "cuda"):
        if known not in names or not names[known]["available"]:
            with pytest.raises(cryptaccel.EngineUnavailable, match=known):
                cryptaccel.encrypt("aes-128-ctr", key, b"x", iv, engine=known)
    with pytest.raises(cryptaccel.InvalidArgument, match="direction"):
        cryptaccel.resolve_engine("auto", "aes-128-ctr", "sideways")


# --- engines --------------------------------------------------------------------------------------------------------

def test_engines_lists_ref():
    engines = cryptaccel.engines()
    assert isinstance(engines, list) and engines
    for e in engines:
        assert set(e) == {"name", "description", "available", "unavailable_reason"}
        assert isinstance(e["name"], str) and e["name"]
        assert isinstance(e["description"], str) and e["description"]
        assert isinstance(e["available"], bool)
        assert (e["unavailable_reason"] == "") == e["available"], e
    ref = [e for e in engines if e["name"] == "ref"]
    assert len(ref) == 1 and ref[0]["available"]
    assert len({e["name"] for e in engines}) == len(engines)


def test_return_engine_shows_ref():
    key, iv = rb(16), rb(16)
    ct, used = cryptaccel.encrypt("aes-128-cbc", key, b"hello", iv, engine="ref", return_engine=True)
    assert used == "ref"
    pt, used = cryptaccel.decrypt("aes-128-cbc", key, ct, iv, engine="ref", return_engine=True)
    assert (pt, used) == (b"hello", "ref")
    out, used = cryptaccel.encrypt_many("sm4-ctr", key, iv, [b"a", b"b"], engine="ref", return_engine=True)
    assert used == "ref" and len(out) == 2
    assert cryptaccel.resolve_engine("ref", "aes-256-gcm", "decrypt") == "ref"


def test_auto_picks_the_resolved_engine():
    key, iv = rb(32), rb(12)
    for cipher in cryptaccel.cipher_names():
        for direction in ("encrypt", "decrypt"):
            want = cryptaccel.resolve_engine("auto", cipher, direction)
            assert want in {e["name"] for e in cryptaccel.engines() if e["available"]}
        info = cryptaccel.cipher_info(cipher)
        k = rb(info["key_size"])
        v = rb(info["iv_size"])
        _, used = cryptaccel.encrypt(cipher, k, rb(32), v, return_engine=True)
        assert used == cryptaccel.resolve_engine("auto", cipher, "encrypt")
    assert cryptaccel.resolve_engine("auto", "aes-128-ctr") == cryptaccel.resolve_engine("auto", "aes-128-ctr",
                                                                                         "encrypt")


# --- introspection --------------------------------------------------------------------------------------------------

def test_cipher_names_and_info():
    names = cryptaccel.cipher_names()
    assert names == sorted(set(names), key=names.index)  # no duplicates, stable
    assert {"aes-128-gcm", "aes-256-xts", "sm4-ctr", "aes-192-ecb"} <= set(names)
    assert "chacha20-poly1305" in names
    for name in names:
        info = cryptaccel.cipher_info(name)
        assert info["name"] == name
        if name == "chacha20-poly1305":  # RFC 8439's AEAD: 256-bit key, 96-bit nonce, 64-byte keystream blocks
            assert (info["block_cipher"], info["mode"], info["key_size"], info["iv_size"], info["aead"],
                    info["block_size"]) == ("chacha20", "poly1305", 32, 12, True, 64)
            continue
        bc, mode = ("sm4", name[4:]) if name.startswith("sm4") else ("aes", name[8:])
        assert (info["block_cipher"], info["mode"]) == (bc, mode)
        bits = 128 if bc == "sm4" else int(name[4:7])
        assert info["key_size"] == bits // 8 * (2 if mode == "xts" else 1)
        assert info["iv_size"] == {"ecb": 0, "gcm": 12}.get(mode, 16)
        assert info["aead"] == (mode == "gcm") and info["block_size"] == 16


def test_xts_tweak():
    for n in (0, 1, 255, 256, 0x0123456789ABCDEF, 2**64 - 1):
        assert cryptaccel.xts_tweak(n) == n.to_bytes(16, "little")
    for bad in (-1, 2**64):
        with pytest.raises(cryptaccel.InvalidArgument):
            cryptaccel.xts_tweak(bad)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="float"):
        cryptaccel.xts_tweak(1.5)


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", cryptaccel.__version__)
    # When the imported package is a pip-installed one, its metadata must carry the same version.
    try:
        dist = importlib.metadata.distribution("cryptaccel")
    except importlib.metadata.PackageNotFoundError:
        return
    loaded = Path(cryptaccel.__file__).resolve()
    if loaded in {Path(dist.locate_file(f)).resolve() for f in (dist.files or [])}:
        assert dist.version == cryptaccel.__version__


def test_docstrings():
    for name in cryptaccel.__all__:
        obj = getattr(cryptaccel, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name


# --- argument handling ----------------------------------------------------------------------------------------------

def test_bytes_like_arguments(engine):
    key, iv, aad, data = rb(16), rb(12), rb(7), rb(100)
    want = cryptaccel.encrypt("aes-128-gcm", key, data, iv, aad=aad, engine=engine)
    forms = [bytearray, memoryview, lambda b: memoryview(bytearray(b)), lambda b: array.array("B", b)]
    for f in forms:
        assert cryptaccel.encrypt("aes-128-gcm", f(key), f(data), f(iv), aad=f(aad), engine=engine) == want
        assert cryptaccel.decrypt("aes-128-gcm", f(key), f(want), f(iv), aad=f(aad), engine=engine) == data
    # A multi-byte item format is still a byte buffer.
    words = array.array("I", range(8))
    assert cryptaccel.encrypt("aes-128-ecb", key, words, padding=False, engine=engine) == \
        cryptaccel.encrypt("aes-128-ecb", key, words.tobytes(), padding=False, engine=engine)
    # iv=None / aad=None mean empty.
    assert cryptaccel.encrypt("aes-128-ecb", key, data, None, engine=engine) == \
        cryptaccel.encrypt("aes-128-ecb", key, data, engine=engine)
    assert isinstance(want, bytes)


def test_non_bytes_arguments_are_type_errors():
    """TypeErrors, and cryptaccel's own (InvalidArgumentType), whether Python or the extension finds them."""
    key, iv = rb(16), rb(16)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="data"):
        cryptaccel.encrypt("aes-128-cbc", key, "text", iv)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="key"):
        cryptaccel.encrypt("aes-128-cbc", 12345, b"x", iv)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="contiguous"):
        cryptaccel.encrypt("aes-128-cbc", key, memoryview(bytearray(64))[::2], iv)
    with pytest.raises(cryptaccel.InvalidArgumentType, match="datas"):
        cryptaccel.encrypt_many("aes-128-cbc", key, iv, b"not a list")
    with pytest.raises(cryptaccel.InvalidArgumentType, match="datas"):
        cryptaccel.encrypt_many("aes-128-cbc", key, iv, 12345)
    with pytest.raises(cryptaccel.InvalidArgumentType, match=r"datas\[1\]"):
        cryptaccel.encrypt_many("aes-128-cbc", key, iv, [b"ok", 3])
    with pytest.raises(cryptaccel.InvalidArgumentType, match="ivs"):
        cryptaccel.encrypt_many("aes-128-cbc", key, 16, [b"ok"])


def test_inputs_are_not_modified(engine):
    key, iv = bytearray(rb(16)), bytearray(rb(16))
    data = bytearray(rb(10000))
    snapshot = (bytes(key), bytes(iv), bytes(data))
    ct = cryptaccel.encrypt("aes-128-ctr", key, data, iv, engine=engine)
    assert (bytes(key), bytes(iv), bytes(data)) == snapshot
    assert cryptaccel.decrypt("aes-128-ctr", key, ct, iv, engine=engine) == data


def test_many_argument_forms(engine):
    key, iv = rb(16), rb(16)
    datas = [rb(n) for n in (0, 5, 16, 33)]
    shared = cryptaccel.encrypt_many("aes-128-cbc", key, iv, datas, engine=engine)
    assert shared == cryptaccel.encrypt_many("aes-128-cbc", [key] * 4, (iv,) * 4, datas, engine=engine)
    assert shared == [cryptaccel.encrypt("aes-128-cbc", key, d, iv, engine=engine) for d in datas]
    assert cryptaccel.encrypt_many("aes-128-ecb", key, None, datas, engine=engine) == \
        [cryptaccel.encrypt("aes-128-ecb", key, d, engine=engine) for d in datas]
    assert cryptaccel.encrypt_many("aes-128-cbc", key, iv, [], engine=engine) == []
    with pytest.raises(cryptaccel.InvalidArgument, match="keys has 3 items"):
        cryptaccel.encrypt_many("aes-128-cbc", [key] * 3, iv, datas, engine=engine)
    with pytest.raises(cryptaccel.InvalidArgument, match=r"^job 2: .*key length"):
        cryptaccel.encrypt_many("aes-128-cbc", [key, key, key[:8], key], iv, datas, engine=engine)
    # decrypt_many: None for bad padding / impossible length, values for the rest.
    cts = list(shared)
    cts[1] = cts[1][:-1]
    cts[2] = rb(16)  # random block: almost surely bad padding (checked against decrypt below)
    out = cryptaccel.decrypt_many("aes-128-cbc", key, iv, cts, engine=engine)
    assert out[0] == datas[0] and out[3] == datas[3] and out[1] is None
    try:
        expect2 = cryptaccel.decrypt("aes-128-cbc", key, cts[2], iv, engine=engine)
    except cryptaccel.BadDecrypt:
        expect2 = None
    assert out[2] == expect2
    # GCM: items shorter than the tag give None rather than an exception.
    gcm = cryptaccel.encrypt_many("aes-128-gcm", key, rb(12), [b"abc", b""], tag_len=12, engine=engine)
    assert [len(x) for x in gcm] == [15, 12]
    with pytest.raises(cryptaccel.InvalidArgument, match="tag length"):
        cryptaccel.decrypt_many("aes-128-gcm", key, rb(12), gcm, tag_len=3, engine=engine)


def test_decrypt_many_gcm(engine):
    key, nonce = rb(16), rb(12)
    sealed = cryptaccel.encrypt_many("aes-128-gcm", key, nonce, [b"abc", b""], aads=[b"1", b"2"], tag_len=12,
                                     engine=engine)
    assert sealed == [cryptaccel.encrypt("aes-128-gcm", key, d, nonce, aad=a, tag_len=12, engine=engine)
                      for d, a in ((b"abc", b"1"), (b"", b"2"))]
    out = cryptaccel.decrypt_many("aes-128-gcm", key, nonce, sealed + [b"short"], aads=[b"1", b"2", b""], tag_len=12,
                                  engine=engine)
    assert out == [b"abc", b"", None]
    out = cryptaccel.decrypt_many("aes-128-gcm", key, nonce, sealed, aads=b"1", tag_len=12, engine=engine)
    assert out == [b"abc", None]


# --- GIL ------------------------------------------------------------------------------------------------------------

def test_large_input_releases_the_gil(engine):
    """A 1 MiB call runs with the GIL released: another Python thread keeps running during the call, and concurrent
    calls from several threads all return correct results."""
    key, iv = rb(32), rb(12)
    data = os.urandom(1 << 20)
    expected = cryptaccel.encrypt("aes-256-gcm", key, data, iv, engine=engine)
    assert cryptaccel.decrypt("aes-256-gcm", key, expected, iv, engine=engine) == data

    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    windows, results = [], []

    def worker():
        for _ in range(3):
            t0 = time.perf_counter()
            results.append(cryptaccel.encrypt("aes-256-gcm", key, data, iv, engine=engine))
            windows.append((t0, time.perf_counter()))

    t = threading.Thread(target=ticker)
    t.start()
    try:
        workers = [threading.Thread(target=worker) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        stop.set()
        t.join()
    assert results == [expected] * 6
    long_windows = [(a, b) for a, b in windows if b - a > 0.05]
    if not long_windows:
        pytest.skip("engine too fast for a 1 MiB call to show GIL release (calls < 50 ms); results were correct")
    # Ticks strictly inside a call (away from its edges) can only happen if the call released the GIL.
    inside = [x for x in ticks for a, b in long_windows if a + 0.01 < x < b - 0.01]
    assert inside, f"no Python thread ran during {len(long_windows)} calls of {min(b - a for a, b in long_windows):.3f}s+"


def test_small_inputs_keep_working_across_threads(engine):
    key, iv = rb(16), rb(16)
    datas = [rb(n) for n in range(0, 4200, 97)]
    expected = [cryptaccel.encrypt("aes-128-cbc", key, d, iv, engine=engine) for d in datas]
    errors = []

    def worker():
        try:
            for d, e in zip(datas, expected):
                assert cryptaccel.encrypt("aes-128-cbc", key, d, iv, engine=engine) == e
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
