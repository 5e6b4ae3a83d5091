"""Issue 23 ("drop-in where we claim to be"), the Python side:

* the exception hierarchy: each failure is compared with what ``cryptography`` and ``hashlib`` raise in the same
  situation (ValueError / TypeError / neither), and every exception of ours is a ``cryptaccel.Error``;
* no message shows nanobind's generated signatures: every public function (and hash object method) is called with
  each argument replaced by values of wrong types and ranges, and whatever is raised must be a ``cryptaccel.Error``
  with a one-line message that names no private binding;
* arguments a mode would silently ignore (``aad`` and a ``tag_len`` other than 16 without GCM, an IV with ECB) are
  refused by encrypt/decrypt/encrypt_many/decrypt_many/encryptor/decryptor/encrypt_file/decrypt_file alike, as
  ``cryptaccel enc`` refuses ``--aad`` and ``--taglen`` (compared with the CLI when CRYPTACCEL_CLI is set).

Random data draws from CRYPTACCEL_TEST_SEED (printed in failure messages).
"""
from __future__ import annotations

import hashlib
import io
import os
import random
import re
import subprocess
from typing import Any, Callable, Dict, List, Tuple

import pytest

import cryptaccel
from cryptaccel import rsa, shacrypt

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "20261128"))


def rng(*tag: object) -> random.Random:
    return random.Random(f"{SEED}:" + ":".join(map(str, tag)))


def raised(call: Callable[[], Any]) -> BaseException:
    """The exception ``call()`` raises (the test fails when it returns)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 - what is raised is the subject of the test
        return e
    pytest.fail("expected an exception")


def builtin_kinds(exc: BaseException) -> Tuple[str, ...]:
    """Which of the built-in exceptions Python code catches for bad input ``exc`` is an instance of."""
    return tuple(c.__name__ for c in (ValueError, TypeError, LookupError, ArithmeticError) if isinstance(exc, c))


def key_size(cipher: str) -> int:
    return cryptaccel.cipher_info(cipher)["key_size"]


# --- the hierarchy, compared with cryptography and hashlib ---------------------------------------------------------

def test_every_class_is_documented_and_exported():
    import cryptaccel._errors as errors
    for name in errors.__all__:
        cls = getattr(cryptaccel, name)
        assert cls is getattr(errors, name) and name in cryptaccel.__all__, name
        assert issubclass(cls, cryptaccel.Error) and cls.__module__ == "cryptaccel", name
        assert name in errors.__doc__, f"{name} is missing from the hierarchy in _errors.py's docstring"
    assert cryptaccel.rsa.InvalidCiphertext is cryptaccel.InvalidCiphertext


def _symmetric_cases() -> List[Tuple[str, type, Callable[[], Any], Callable[[], Any]]]:
    """(situation, our class, our call, cryptography's call): the same failure on both sides."""
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    r = rng("symmetric-cases")
    key, iv, nonce = r.randbytes(16), r.randbytes(16), r.randbytes(12)
    # One CBC block whose plaintext ends in 0x00: not PKCS#7 padding.
    block = r.randbytes(15) + b"\x00"
    bad_padding = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor().update(block)
    sealed = AESGCM(key).encrypt(nonce, r.randbytes(40), b"hdr")
    forged = sealed[:-1] + bytes([sealed[-1] ^ 1])

    def their_unpad() -> bytes:
        pt = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor().update(bad_padding)
        unpadder = padding.PKCS7(128).unpadder()
        return unpadder.update(pt) + unpadder.finalize()

    return [
        ("key of the wrong length", cryptaccel.InvalidArgument,
         lambda: cryptaccel.encrypt("aes-128-gcm", key[:15], b"x", nonce), lambda: AESGCM(key[:15])),
        ("str plaintext", cryptaccel.InvalidArgumentType,
         lambda: cryptaccel.encrypt("aes-128-gcm", key, "text", nonce), lambda: AESGCM(key).encrypt(nonce, "text", None)),
        ("str AAD", cryptaccel.InvalidArgumentType,
         lambda: cryptaccel.encrypt("aes-128-gcm", key, b"x", nonce, aad="hdr"),
         lambda: AESGCM(key).encrypt(nonce, b"x", "hdr")),
        ("bad PKCS#7 padding", cryptaccel.BadDecrypt,
         lambda: cryptaccel.decrypt("aes-128-cbc", key, bad_padding, iv), their_unpad),
        ("forged GCM message", cryptaccel.AuthenticationFailed,
         lambda: cryptaccel.decrypt("aes-128-gcm", key, forged, nonce, aad=b"hdr"),
         lambda: AESGCM(key).decrypt(nonce, forged, b"hdr")),
    ]


def test_symmetric_errors_are_the_kinds_cryptography_raises():
    for situation, cls, ours, theirs in _symmetric_cases():
        mine, other = raised(ours), raised(theirs)
        assert isinstance(mine, cls), f"{situation}: {type(mine).__name__}: {mine}"
        assert builtin_kinds(mine) == builtin_kinds(other), \
            f"{situation}: ours {type(mine).__name__} {builtin_kinds(mine)}, cryptography " \
            f"{type(other).__name__} {builtin_kinds(other)}"


def test_rsa_decryption_failure_is_the_kind_cryptography_raises():
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    from rsa_helpers import fresh_crypto_key, to_cryptaccel_private

    ck = fresh_crypto_key(1024)
    key = to_cryptaccel_private(ck)
    zero = bytes(key.size)
    mine = raised(lambda: rsa.decrypt(key, zero))
    other = raised(lambda: ck.decrypt(zero, padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA1(), None)))
    assert isinstance(mine, cryptaccel.InvalidCiphertext)
    assert builtin_kinds(mine) == builtin_kinds(other) == ("ValueError",)
    mine = raised(lambda: rsa.decrypt(key, "text"))
    other = raised(lambda: ck.decrypt("text", padding.PKCS1v15()))
    assert isinstance(mine, cryptaccel.InvalidArgumentType)
    assert builtin_kinds(mine) == builtin_kinds(other) == ("TypeError",)


@pytest.mark.parametrize("situation,ours,theirs,cls", [
    ("unknown algorithm", lambda: cryptaccel.new("sha257"), lambda: hashlib.new("sha257"), cryptaccel.InvalidArgument),
    ("str data", lambda: cryptaccel.new("sha256", "abc"), lambda: hashlib.new("sha256", "abc"),
     cryptaccel.InvalidArgumentType),
    ("update(None)", lambda: cryptaccel.sha256().update(None), lambda: hashlib.sha256().update(None),
     cryptaccel.InvalidArgumentType),
    ("update(str)", lambda: cryptaccel.sha3_256().update("abc"), lambda: hashlib.sha3_256().update("abc"),
     cryptaccel.InvalidArgumentType),
    ("SHAKE digest(str)", lambda: cryptaccel.shake_128().digest("16"), lambda: hashlib.shake_128().digest("16"),
     cryptaccel.InvalidArgumentType),
    ("SHAKE digest() without length", lambda: cryptaccel.shake_256().hexdigest(),
     lambda: hashlib.shake_256().hexdigest(), cryptaccel.InvalidArgumentType),
    ("data= and string= together", lambda: cryptaccel.sha256(b"a", string=b"b"),
     lambda: hashlib.sha256(b"a", string=b"b"), cryptaccel.InvalidArgumentType),
    # A call with too many arguments is answered by the interpreter's kind of TypeError, as any function call.
    ("digest(16) on a fixed-size hash", lambda: cryptaccel.sha256().digest(16), lambda: hashlib.sha256().digest(16),
     TypeError),
])
def test_hash_errors_are_the_kinds_hashlib_raises(situation, ours, theirs, cls):
    mine, other = raised(ours), raised(theirs)
    assert isinstance(mine, cls), f"{situation}: {type(mine).__name__}: {mine}"
    assert builtin_kinds(mine) == builtin_kinds(other), f"{situation}: ours {mine!r}, hashlib {other!r}"


# --- no nanobind signature in any message ---------------------------------------------------------------------------

# Wrong types and ranges put in place of one argument at a time.
BAD_VALUES: List[Any] = [None, object(), 1.5, "text", b"\x00\x01\x02", [b"x"], True, -1, 1 << 70]
# What nanobind's own messages contain (its signatures name the private bindings: _shacrypt_verify(...), ...).
LEAKS = re.compile(r"incompatible function arguments|Invoked with|_cryptaccel|nanobind|\b_[a-z0-9_]+\(|std::")


@pytest.fixture(scope="module")
def rsa_key() -> rsa.PrivateKey:
    return rsa.PrivateKey.generate(1024)


def _public_calls(key: rsa.PrivateKey) -> Dict[str, Tuple[Callable[..., Any], Dict[str, Any]]]:
    """Every public function with a valid keyword call of it. (encrypt_file's src and dst are left out: a non-path
    is taken as a file object there.)"""
    r = rng("public-calls")
    k16, iv, nonce = r.randbytes(16), r.randbytes(16), r.randbytes(12)
    cbc = cryptaccel.encrypt("aes-128-cbc", k16, b"abc", iv)
    pub = key.public_key()
    sig = rsa.sign(key, b"m")
    ct = rsa.encrypt(pub, b"m")
    pem = key.to_pem()
    common = dict(aad=b"", tag_len=16, padding=True, xts_unit=0, engine="auto")
    return {
        "encrypt": (cryptaccel.encrypt, dict(cipher="aes-128-gcm", key=k16, data=b"abc", iv=nonce, **common)),
        "decrypt": (cryptaccel.decrypt, dict(cipher="aes-128-cbc", key=k16, data=cbc, iv=iv, **common)),
        "encrypt_many": (cryptaccel.encrypt_many, dict(cipher="aes-128-ctr", keys=[k16], ivs=[iv], datas=[b"abc"],
                                                       aads=None, tag_len=16, padding=True, xts_unit=0,
                                                       engine="auto")),
        "decrypt_many": (cryptaccel.decrypt_many, dict(cipher="aes-128-cbc", keys=k16, ivs=iv, datas=[cbc],
                                                       aads=None, tag_len=16, padding=True, xts_unit=0,
                                                       engine="auto")),
        "encryptor": (cryptaccel.encryptor, dict(cipher="aes-128-ctr", key=k16, iv=iv, chunk_bytes=0, **common)),
        "decryptor": (cryptaccel.decryptor, dict(cipher="aes-128-cbc", key=k16, iv=iv, chunk_bytes=0, **common)),
        "encrypt_file": (lambda **kw: cryptaccel.encrypt_file(src=io.BytesIO(b"abc"), dst=io.BytesIO(), **kw),
                         dict(cipher="aes-128-ctr", key=k16, iv=iv, **common)),
        "decrypt_file": (lambda **kw: cryptaccel.decrypt_file(src=io.BytesIO(cbc), dst=io.BytesIO(), **kw),
                         dict(cipher="aes-128-cbc", key=k16, iv=iv, **common)),
        "streamable": (cryptaccel.streamable, dict(cipher="aes-128-xts", xts_unit=512, engine="auto")),
        "resolve_engine": (cryptaccel.resolve_engine, dict(engine="auto", cipher="aes-128-ctr", direction="encrypt")),
        "cipher_info": (cryptaccel.cipher_info, dict(cipher="sm4-gcm")),
        "xts_tweak": (cryptaccel.xts_tweak, dict(n=7)),
        "new": (cryptaccel.new, dict(name="sha256", data=b"abc", engine="auto", usedforsecurity=True)),
        "new(string=)": (cryptaccel.new, dict(name="sha3_256", string=b"abc")),
        "sha256": (cryptaccel.sha256, dict(data=b"abc", engine="auto")),
        "shake_128": (cryptaccel.shake_128, dict(string=b"abc", engine="auto")),
        "hash_many": (cryptaccel.hash_many, dict(name="shake_256", messages=[b"a"], length=8, engine="auto",
                                                 threads=0)),
        "keccak_f1600_batch": (cryptaccel.keccak_f1600_batch, dict(states=[[0] * 25], engine="auto")),
        "rsa.sign": (rsa.sign, dict(key=key, message=b"m", padding="pss", hash="sha256", salt_length=None,
                                    mgf_hash=None, prehashed=False, engine="auto")),
        "rsa.verify": (rsa.verify, dict(key=pub, message=b"m", signature=sig, padding="pkcs1v15", hash="sha256",
                                        salt_length=None, mgf_hash=None, engine="auto")),
        "rsa.encrypt": (rsa.encrypt, dict(key=pub, plaintext=b"m", padding="oaep", hash="sha1", mgf_hash=None,
                                          label=b"", engine="auto")),
        "rsa.decrypt": (rsa.decrypt, dict(key=key, ciphertext=ct, padding="oaep", hash="sha1", mgf_hash="sha1",
                                          label=b"", engine="auto")),
        "rsa.sign_many": (rsa.sign_many, dict(key_or_keys=key, messages=[b"m"], padding="pkcs1v15", hash="sha256",
                                              engine="auto", threads=0)),
        "rsa.verify_many": (rsa.verify_many, dict(pub_or_list_of_pubs=[pub], messages=[b"m"], signatures=[sig],
                                                  engine="auto", threads=0)),
        "rsa.decrypt_many": (rsa.decrypt_many, dict(key_or_keys=[key], ciphertexts=[ct], label=b"", engine="auto",
                                                    threads=0)),
        "rsa.modexp_many": (rsa.modexp_many, dict(bases=[2, 3], exponent=65537, modulus=pub.n, engine="auto",
                                                  threads=0)),
        "PrivateKey.from_pem": (rsa.PrivateKey.from_pem, dict(data=pem, password=None)),
        "PublicKey.from_pem": (rsa.PublicKey.from_pem, dict(data=pub.to_pem())),
        "PublicKey.from_der": (rsa.PublicKey.from_der, dict(data=b"\x30\x00")),
        "PrivateKey.from_der": (rsa.PrivateKey.from_der, dict(data=b"\x30\x00")),
        "PublicKey.from_numbers": (rsa.PublicKey.from_numbers, dict(n=pub.n, e=pub.e)),
        "PrivateKey.generate": (rsa.PrivateKey.generate, dict(bits=1024, public_exponent=65537)),
        "shacrypt.hash": (shacrypt.hash, dict(password=b"pw", salt="salt", rounds=1000, variant=256,
                                              engine="auto")),
        "shacrypt.verify": (shacrypt.verify, dict(password=b"pw", hash="$5$rounds=1000$salt$" + "A" * 43,
                                                  engine="auto")),
        "shacrypt.hash_many": (shacrypt.hash_many, dict(passwords=[b"pw"], settings="$6$rounds=1000$s",
                                                        engine="auto")),
        "shacrypt.hash_setting": (shacrypt.hash_setting, dict(password="pw", setting="$5$rounds=1000$s",
                                                              engine="auto")),
        "shacrypt.parse": (shacrypt.parse, dict(hash="$6$rounds=1000$s")),
        # Host bytes are not GPU arrays: every call is refused before a GPU is needed, with cryptaccel's errors.
        "cuda.encrypt": (cryptaccel.cuda.encrypt, dict(cipher="aes-128-ctr", key=k16, data=b"x" * 16, iv=iv,
                                                       tag_len=16, xts_unit=0, variant="bitsliced", stream=None)),
        "cuda.hash_many": (cryptaccel.cuda.hash_many, dict(algorithm="sha256", data=b"x", offsets=b"x",
                                                           digest_len=None, stream=None)),
        "cuda.keccak_f1600": (cryptaccel.cuda.keccak_f1600, dict(states=b"x" * 200, stream=None)),
    }


def _check_error(what: str, error: BaseException) -> None:
    text = str(error)
    assert isinstance(error, cryptaccel.Error), f"{what} raised {type(error).__name__} (not a cryptaccel.Error): {text}"
    assert not LEAKS.search(text), f"{what}: the message shows the binding: {text!r}"
    assert text and "\n" not in text, f"{what}: not a one-line message: {text!r}"


def test_wrong_arguments_never_show_the_binding(rsa_key):
    calls = _public_calls(rsa_key)
    checked = 0
    for name, (fn, kwargs) in calls.items():
        for param in kwargs:
            for bad in BAD_VALUES:
                what = f"{name}({param}={bad!r})"
                try:
                    fn(**dict(kwargs, **{param: bad}))
                except Exception as e:  # noqa: BLE001 - any exception must be one of ours
                    _check_error(what, e)
                    checked += 1
    assert checked > 300, checked  # the values above are refused almost everywhere


def test_wrong_method_arguments_never_show_the_binding():
    """Hash objects' methods and CipherContext.update, called with a wrong argument (not a wrong count)."""
    stream = cryptaccel.encryptor("aes-128-ctr", bytes(16), bytes(16))
    methods = {
        "Hash.update": cryptaccel.sha256().update,
        "HashXOF.update": cryptaccel.shake_256().update,
        "HashXOF.digest": cryptaccel.shake_128().digest,
        "HashXOF.hexdigest": cryptaccel.shake_128().hexdigest,
        "HashXOF.digest(length=)": lambda v: cryptaccel.shake_128().digest(length=v),
        "HashXOF.hexdigest(length=)": lambda v: cryptaccel.shake_256().hexdigest(length=v),
        "CipherContext.update": stream.update,
    }
    for name, method in methods.items():
        for bad in BAD_VALUES:
            if bad == b"\x00\x01\x02" or (bad in (True,) and "digest" in name):
                continue  # valid: bytes to absorb; a bool length (hashlib takes it too)
            _check_error(f"{name}({bad!r})", raised(lambda: method(bad)))
    _check_error("HashXOF.digest()", raised(lambda: cryptaccel.shake_128().digest()))


def test_messages_name_what_was_wrong(rsa_key):
    cases = [
        (lambda: shacrypt.verify(b"pw", 5), cryptaccel.InvalidArgumentType, "hash must be a str or bytes, not int"),
        (lambda: cryptaccel.streamable(3), cryptaccel.InvalidArgumentType, "cipher must be a str, not int"),
        (lambda: cryptaccel.sha256().update(None), cryptaccel.InvalidArgumentType,
         "data must be a bytes-like object, not 'NoneType'"),
        (lambda: cryptaccel.shake_128().digest(), cryptaccel.InvalidArgumentType,
         "HashXOF.digest() missing required argument 'length'"),
        (lambda: rsa.PrivateKey.generate("2048"), cryptaccel.InvalidArgumentType, "bits must be an integer, not str"),
        (lambda: rsa.PublicKey.from_pem(None), cryptaccel.InvalidArgumentType, "data must be a bytes-like object"),
        (lambda: rsa.sign("key", b"m"), cryptaccel.InvalidArgumentType, "key must be a cryptaccel.rsa.PrivateKey"),
        (lambda: shacrypt.hash_many([b"a"], [3]), cryptaccel.InvalidArgumentType, "settings[0] must be a str"),
        (lambda: cryptaccel.hash_many("sha256", 5), cryptaccel.InvalidArgumentType, "messages must be a sequence"),
        (lambda: cryptaccel.keccak_f1600_batch(5), cryptaccel.InvalidArgumentType, "states must be a sequence"),
        # None reaches nanobind's own check in the one-shot bindings (kept on its fast path): still named here.
        (lambda: cryptaccel.encrypt("aes-128-ctr", None, b"x", bytes(16)), cryptaccel.InvalidArgumentType,
         "key must be a bytes-like object, not 'NoneType'"),
        (lambda: cryptaccel.decrypt("aes-128-ctr", bytes(16), None, bytes(16)), cryptaccel.InvalidArgumentType,
         "data must be a bytes-like object, not 'NoneType'"),
    ]
    for call, cls, needle in cases:
        e = raised(call)
        assert isinstance(e, cls) and needle in str(e), f"{type(e).__name__}: {e}"


# --- arguments a mode would ignore ----------------------------------------------------------------------------------

# (cipher, what is given, the message): refused as `cryptaccel enc` refuses --aad and --taglen without GCM.
REFUSED = [
    ("aes-128-cbc", {"aad": b"hdr"}, "aad is only valid with GCM ciphers"),
    ("aes-256-ctr", {"aad": b"h"}, "aad is only valid with GCM ciphers"),
    ("sm4-ecb", {"aad": b"hdr"}, "aad is only valid with GCM ciphers"),
    ("aes-128-xts", {"aad": b"hdr"}, "aad is only valid with GCM ciphers"),
    ("aes-192-cbc", {"tag_len": 8}, "tag_len is only valid with GCM ciphers"),
    ("sm4-ctr", {"tag_len": 12}, "tag_len is only valid with GCM ciphers"),
    ("aes-256-xts", {"tag_len": 4}, "tag_len is only valid with GCM ciphers"),
    ("aes-128-ecb", {"iv": 16}, "aes-128-ecb takes no IV"),
    ("sm4-ecb", {"iv": 1}, "sm4-ecb takes no IV"),
]


def _material(cipher: str, tag: str) -> Tuple[bytes, bytes, bytes]:
    r = rng("mode-args", cipher, tag)
    key = r.randbytes(key_size(cipher))
    iv = b"" if cipher.endswith("-ecb") else r.randbytes(16)
    return key, iv, r.randbytes(48)


def _entry_points(tmp_path) -> Dict[str, Callable[..., Any]]:
    """Each entry point as f(cipher, key, iv, data, aad=, tag_len=): it must raise before writing anything."""
    src = tmp_path / "src"

    def file_call(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(cipher, key, iv, data, **kw):
            src.write_bytes(data)
            dst = tmp_path / "dst"
            try:
                return fn(cipher, key, src, dst, iv, **kw)
            finally:
                assert not dst.exists(), "a refused call wrote its destination"
        return call

    def object_call(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(cipher, key, iv, data, **kw):
            out = io.BytesIO()
            try:
                return fn(cipher, key, io.BytesIO(data), out, iv, **kw)
            finally:
                assert out.getvalue() == b"", "a refused call wrote to its destination"
        return call

    def many(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(cipher, key, iv, data, aad=None, **kw):
            return fn(cipher, [key, key], [iv, iv], [data, data], aads=None if aad is None else [b"", aad], **kw)
        return call

    return {
        "encrypt": lambda c, k, iv, d, **kw: cryptaccel.encrypt(c, k, d, iv, **kw),
        "decrypt": lambda c, k, iv, d, **kw: cryptaccel.decrypt(c, k, d, iv, **kw),
        "encrypt_many": many(cryptaccel.encrypt_many),
        "decrypt_many": many(cryptaccel.decrypt_many),
        "encryptor": lambda c, k, iv, d, **kw: cryptaccel.encryptor(c, k, iv, **kw),
        "decryptor": lambda c, k, iv, d, **kw: cryptaccel.decryptor(c, k, iv, **kw),
        "encrypt_file": file_call(cryptaccel.encrypt_file),
        "decrypt_file": file_call(cryptaccel.decrypt_file),
        "encrypt_file(objects)": object_call(cryptaccel.encrypt_file),
        "decrypt_file(objects)": object_call(cryptaccel.decrypt_file),
    }


@pytest.mark.parametrize("cipher,given,message", REFUSED, ids=[f"{c}-{next(iter(g))}" for c, g, _ in REFUSED])
def test_arguments_the_mode_ignores_are_refused_everywhere(tmp_path, cipher, given, message):
    key, iv, data = _material(cipher, message)
    kw = dict(given)
    if "iv" in kw:
        iv = rng("iv", cipher).randbytes(kw.pop("iv"))
    for name, call in _entry_points(tmp_path).items():
        e = raised(lambda: call(cipher, key, iv, data, **kw))
        assert isinstance(e, cryptaccel.InvalidArgument) and message in str(e), \
            f"{name}({cipher}, {given}): {type(e).__name__}: {e} (seed {SEED})"


@pytest.mark.parametrize("cipher", ["aes-128-cbc", "aes-256-ctr", "sm4-ecb", "aes-128-xts", "aes-128-ecb"])
@pytest.mark.parametrize("aad", [b"", None])
def test_what_the_mode_takes_is_still_accepted(tmp_path, cipher, aad):
    """Empty AAD (b"" or None), the default tag_len 16 and an empty or None IV for ECB mean "not given": every entry
    point accepts them and gives the bytes that encrypt() gives without them."""
    key, iv, data = _material(cipher, "accepted")
    expected = cryptaccel.encrypt(cipher, key, data, iv)
    iv = iv or None  # ECB: None, as b""
    kw = dict(aad=aad, tag_len=16)
    assert cryptaccel.encrypt(cipher, key, data, iv, **kw) == expected
    assert cryptaccel.decrypt(cipher, key, expected, iv, **kw) == data
    assert cryptaccel.encrypt_many(cipher, [key], [iv], [data], aads=None if aad is None else [aad],
                                   tag_len=16) == [expected]
    assert cryptaccel.decrypt_many(cipher, key, iv, [expected], aads=aad, tag_len=16) == [data]
    if cryptaccel.streamable(cipher):
        enc = cryptaccel.encryptor(cipher, key, iv, **kw)
        assert enc.update(data) + enc.finalize() == expected
        dec = cryptaccel.decryptor(cipher, key, iv, **kw)
        assert dec.update(expected) + dec.finalize() == data
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(data)
    cryptaccel.encrypt_file(cipher, key, src, dst, iv, **kw)
    assert dst.read_bytes() == expected
    out = io.BytesIO()
    cryptaccel.decrypt_file(cipher, key, io.BytesIO(expected), out, iv, **kw)
    assert out.getvalue() == data


def test_one_shot_matches_cryptography_without_the_refused_arguments():
    """The controls above against the real library: ECB with iv=None / aad=b"" / tag_len=16 is cryptography's
    ECB with PKCS#7, and cryptography's ECB mode takes no IV at all."""
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    key, _, data = _material("aes-128-ecb", "cryptography")
    padder = padding.PKCS7(128).padder()
    expected = Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(padder.update(data) + padder.finalize())
    assert cryptaccel.encrypt("aes-128-ecb", key, data, None, aad=b"", tag_len=16) == expected
    with pytest.raises(TypeError):
        modes.ECB(bytes(16))  # cryptography refuses an IV for ECB too
    with pytest.raises(cryptaccel.InvalidArgument, match="takes no IV"):
        cryptaccel.encrypt("aes-128-ecb", key, data, bytes(16))


def _cli() -> str:
    cli = os.environ.get("CRYPTACCEL_CLI")
    if not cli:
        pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable")
    return cli


@pytest.mark.parametrize("cipher,given,message", [x for x in REFUSED if "iv" not in x[1]],
                         ids=[f"{c}-{next(iter(g))}" for c, g, _ in REFUSED if "iv" not in g])
def test_refused_as_the_cli_refuses(tmp_path, cipher, given, message):
    """`cryptaccel enc` refuses --aad and --taglen without GCM; Python refuses aad= and tag_len= in the same cases.
    (An IV with ECB is only a warning there, as in openssl enc; Python refuses it: there is no warning channel.)"""
    cli = _cli()
    key, iv, data = _material(cipher, message)
    (tmp_path / "in").write_bytes(data)
    (tmp_path / "aad").write_bytes(given.get("aad", b""))
    args = [cli, "enc", "-" + cipher, "-K", key.hex(), "-iv", iv.hex(), "-in", str(tmp_path / "in"),
            "-out", str(tmp_path / "out")]
    args += ["--aad", str(tmp_path / "aad")] if "aad" in given else ["--taglen", str(given["tag_len"])]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "only valid with GCM ciphers" in proc.stderr, proc.stderr
    with pytest.raises(cryptaccel.InvalidArgument, match=message):
        cryptaccel.encrypt(cipher, key, data, iv, **given)
    # And both accept the same call without it.
    ok = subprocess.run(args[:-2], capture_output=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "out").read_bytes() == cryptaccel.encrypt(cipher, key, data, iv)
