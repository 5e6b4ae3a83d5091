"""cryptaccel.rsa: key handling, interoperability with the ``cryptography`` package (which wraps OpenSSL), the batch
forms, modexp_many, and differential tests against ``cryptography`` on fresh keys of every supported size.

Differential tests: for every size (1024, 2048, 3072, 4096; 8192 with a single operation of each kind, to keep CI
short) on every engine:
  * PKCS#1 v1.5 signatures are byte-identical to cryptography's, and each side verifies the other's;
  * PSS signatures (digest-length, zero and maximum salts) made here verify in cryptography and vice versa;
  * OAEP (SHA-256 and SHA-1, with and without a label) and PKCS#1 v1.5 ciphertexts decrypt both ways;
  * modexp_many equals Python's pow() for random bases, the private exponent (non-CRT decryption) and e.

Issue 23: OAEP defaults to SHA-1 (hash and MGF1) as openssl pkeyutl and cryptaccel pkeyutl do, checked against
cryptography's OAEP(MGF1(SHA1), SHA1) and both tools; an unknown digest's message lists the digests RSA accepts, each
of which signs as cryptography signs with it. Random data of the new tests draws from CRYPTACCEL_TEST_SEED.
"""

from __future__ import annotations

import inspect
import os
import random
import re
import shutil
import subprocess
import threading

import pytest

import cryptaccel
from cryptaccel import rsa
from rsa_helpers import crypto_hash, fresh_crypto_key, skip_unless_rsa, to_cryptaccel_private, to_cryptaccel_public

SIZES = [1024, 2048, 3072, 4096, 8192]
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "20261128"))


@pytest.fixture(autouse=True)
def _rsa_built():
    skip_unless_rsa("ref")


def _crypto():
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding
    return hashes, serialization, padding


# --- keys --------------------------------------------------------------------------------------------------------

def test_key_formats_round_trip():
    """PKCS#1, PKCS#8 (plain and encrypted) and SPKI / PKCS#1 public keys, PEM and DER, from cryptography."""
    hashes, ser, _ = _crypto()
    ck = fresh_crypto_key(2048)
    pub_n = ck.public_key().public_numbers().n
    forms = {
        "pkcs1-pem": (ser.Encoding.PEM, ser.PrivateFormat.TraditionalOpenSSL),
        "pkcs8-pem": (ser.Encoding.PEM, ser.PrivateFormat.PKCS8),
        "pkcs1-der": (ser.Encoding.DER, ser.PrivateFormat.TraditionalOpenSSL),
        "pkcs8-der": (ser.Encoding.DER, ser.PrivateFormat.PKCS8),
    }
    for name, (enc, fmt) in forms.items():
        data = ck.private_bytes(enc, fmt, ser.NoEncryption())
        key = rsa.PrivateKey.from_pem(data) if enc == ser.Encoding.PEM else rsa.PrivateKey.from_der(data)
        assert key.bits == 2048 and key.size == 256, name
        assert key.public_key().n == pub_n and key.public_key().e == 65537, name
    encrypted = ck.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"s3cret"))
    assert rsa.PrivateKey.from_pem(encrypted, password=b"s3cret").public_key().n == pub_n
    assert rsa.PrivateKey.from_pem(encrypted.decode(), password="s3cret").public_key().n == pub_n
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PrivateKey.from_pem(encrypted, password=b"wrong")
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PrivateKey.from_pem(encrypted)
    for enc, fmt in ((ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo), (ser.Encoding.PEM, ser.PublicFormat.PKCS1),
                     (ser.Encoding.DER, ser.PublicFormat.SubjectPublicKeyInfo), (ser.Encoding.DER, ser.PublicFormat.PKCS1)):
        data = ck.public_key().public_bytes(enc, fmt)
        pub = rsa.PublicKey.from_pem(data) if enc == ser.Encoding.PEM else rsa.PublicKey.from_der(data)
        assert pub.n == pub_n and pub.bits == 2048, (enc, fmt)


def test_key_export_is_read_by_cryptography():
    _, ser, _ = _crypto()
    key = rsa.PrivateKey.generate(2048)
    assert key.bits == 2048
    ck = ser.load_pem_private_key(key.to_pem(), password=None)
    assert ck.public_key().public_numbers().n == key.public_key().n
    ck2 = ser.load_pem_private_key(key.to_pem(password=b"pw"), password=b"pw")
    assert ck2.private_numbers() == ck.private_numbers()
    assert b"ENCRYPTED PRIVATE KEY" in key.to_pem(password="pw")
    cpub = ser.load_pem_public_key(key.public_key().to_pem())
    assert cpub.public_numbers().n == key.public_key().n
    assert rsa.PublicKey.from_numbers(key.public_key().n, 65537) == key.public_key()
    assert "2048 bits" in repr(key) and "e=65537" in repr(key.public_key())


@pytest.mark.parametrize("bad", [b"", b"not a key", b"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"])
def test_bad_keys_are_invalid_argument(bad):
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PublicKey.from_pem(bad)
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PrivateKey.from_pem(bad)
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PublicKey.from_der(bad)


def test_non_rsa_and_unsupported_sizes_are_refused():
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import ec
    eck = ec.generate_private_key(ec.SECP256R1())
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PrivateKey.from_pem(eck.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
    if shutil.which("openssl"):  # cryptography refuses to make keys under 1024 bits; openssl still does
        small = subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:512"],
                               capture_output=True, check=True).stdout
        with pytest.raises(cryptaccel.InvalidArgument):
            rsa.PrivateKey.from_pem(small)
        pub = crsa_public_pem(small)
        with pytest.raises(cryptaccel.InvalidArgument):
            rsa.PublicKey.from_pem(pub)
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.PrivateKey.generate(512)


def crsa_public_pem(private_pem: bytes) -> bytes:
    from cryptography.hazmat.primitives import serialization as ser
    key = ser.load_pem_private_key(private_pem, password=None)
    return key.public_key().public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo)


def test_key_objects_are_only_made_by_the_constructors():
    with pytest.raises(cryptaccel.InvalidArgumentType):
        rsa.PrivateKey(object())
    with pytest.raises(cryptaccel.InvalidArgumentType):
        rsa.sign(b"not a key", b"m")
    with pytest.raises(cryptaccel.InvalidArgumentType):
        rsa.verify(b"not a key", b"m", b"s")


# --- differential vs cryptography ----------------------------------------------------------------------------------

def _pss(padding, hashes, h, salt):
    return padding.PSS(mgf=padding.MGF1(crypto_hash(h)), salt_length=salt)


@pytest.mark.parametrize("bits", SIZES)
def test_differential_signatures(bits, engine, vector_report):
    skip_unless_rsa(engine)
    hashes, _, padding = _crypto()
    ck = fresh_crypto_key(bits)
    key = to_cryptaccel_private(ck)
    pub = to_cryptaccel_public(ck.public_key())
    assert key.public_key() == pub
    rng = random.Random(bits)
    count = 1 if bits == 8192 else 3
    hash_names = ["sha256"] if bits == 8192 else ["sha256", "sha384", "sha512", "sha224", "sha1"]
    for i in range(count):
        h = hash_names[(i + bits // 1024) % len(hash_names)]
        msg = rng.randbytes(rng.randrange(0, 300))
        ours = rsa.sign(key, msg, hash=h, engine=engine)
        theirs = ck.sign(msg, padding.PKCS1v15(), crypto_hash(h))
        assert ours == theirs, f"PKCS#1 v1.5 {h} differs"
        assert rsa.verify(pub, msg, theirs, hash=h, engine=engine)
        assert not rsa.verify(pub, msg + b"x", theirs, hash=h, engine=engine)

        for salt in ([32] if bits == 8192 else [None, 0, "max"]):
            hlen = crypto_hash(h).digest_size
            salt_len = hlen if salt is None else (bits + 6) // 8 - hlen - 2 if salt == "max" else salt
            if salt_len > (bits + 6) // 8 - hlen - 2:  # SHA-512 with a 64-byte salt does not fit 1024 bits
                with pytest.raises(cryptaccel.InvalidArgument):
                    rsa.sign(key, msg, padding="pss", hash=h, engine=engine)
                continue
            sig = rsa.sign(key, msg, padding="pss", hash=h, salt_length=salt_len, engine=engine)
            ck.public_key().verify(sig, msg, _pss(padding, hashes, h, salt_len), crypto_hash(h))  # raises if bad
            theirs = ck.sign(msg, _pss(padding, hashes, h, salt_len), crypto_hash(h))
            assert rsa.verify(pub, msg, theirs, padding="pss", hash=h, salt_length=salt_len, engine=engine)
            assert rsa.verify(pub, msg, theirs, padding="pss", hash=h, engine=engine)  # salt recovered
            if salt_len != hlen:
                assert not rsa.verify(pub, msg, theirs, padding="pss", hash=h, salt_length=hlen, engine=engine)
    vector_report.checked(f"RSA differential signatures vs cryptography [{engine}]", count)


@pytest.mark.parametrize("bits", SIZES)
def test_differential_encryption(bits, engine, vector_report):
    skip_unless_rsa(engine)
    hashes, _, padding = _crypto()
    ck = fresh_crypto_key(bits)
    key = to_cryptaccel_private(ck)
    pub = key.public_key()
    rng = random.Random(bits + 1)
    settings = [("sha256", None, b""), ("sha1", None, b""), ("sha512", "sha256", b"label"), ("sha384", "sha1", b"")]
    if bits == 8192:
        settings = settings[:1]
    for h, mgf, label in settings:
        hlen = crypto_hash(h).digest_size
        if bits // 8 - 2 * hlen - 2 < 0:  # OAEP with SHA-512 does not fit a 1024-bit key
            with pytest.raises(cryptaccel.InvalidArgument):
                rsa.encrypt(pub, b"", hash=h, mgf_hash=mgf, label=label, engine=engine)
            continue
        msg = rng.randbytes(rng.randrange(0, bits // 8 - 2 * hlen - 2 + 1))
        oaep = padding.OAEP(mgf=padding.MGF1(crypto_hash(mgf or h)), algorithm=crypto_hash(h), label=label or None)
        ct = rsa.encrypt(pub, msg, hash=h, mgf_hash=mgf, label=label, engine=engine)
        assert len(ct) == bits // 8
        assert ck.decrypt(ct, oaep) == msg
        theirs = ck.public_key().encrypt(msg, oaep)
        assert rsa.decrypt(key, theirs, hash=h, mgf_hash=mgf, label=label, engine=engine) == msg
        with pytest.raises(cryptaccel.InvalidCiphertext):
            rsa.decrypt(key, theirs, hash=h, mgf_hash=mgf, label=label + b"!", engine=engine)
    msg = rng.randbytes(bits // 8 - 11)
    ct = rsa.encrypt(pub, msg, padding="pkcs1v15", engine=engine)
    assert ck.decrypt(ct, padding.PKCS1v15()) == msg
    assert rsa.decrypt(key, ck.public_key().encrypt(msg, padding.PKCS1v15()), padding="pkcs1v15", engine=engine) == msg
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.encrypt(pub, msg + b"x", padding="pkcs1v15", engine=engine)
    vector_report.checked(f"RSA differential encryption vs cryptography [{engine}]", len(settings) + 1)


@pytest.mark.parametrize("bits", [1024, 2048])
def test_modexp_many_matches_pow(bits, engine):
    skip_unless_rsa(engine)
    ck = fresh_crypto_key(bits)
    nums = ck.private_numbers()
    n, e, d = nums.public_numbers.n, nums.public_numbers.e, nums.d
    rng = random.Random(bits)
    bases = [0, 1, 2, n - 1, n, n + 5, rng.randrange(n), rng.randrange(n)]
    assert rsa.modexp_many(bases, e, n, engine=engine) == [pow(b, e, n) for b in bases]
    assert rsa.modexp_many(bases, d, n, engine=engine) == [pow(b, d, n) for b in bases]  # non-CRT decryption
    assert rsa.modexp_many(bases[:3], 0, n, engine=engine) == [1, 1, 1]
    odd = rng.randrange(1 << (bits - 200), 1 << (bits - 100)) | 1  # any odd modulus, not a key size
    assert rsa.modexp_many([b % odd for b in bases], d, odd, engine=engine) == [pow(b, d, odd) for b in bases]
    as_bytes = rsa.modexp_many([b.to_bytes(bits // 8, "big") for b in bases[:3]], e.to_bytes(3, "big"),
                               n.to_bytes(bits // 8, "big"), engine=engine)
    assert as_bytes == [pow(b, e, n) for b in bases[:3]]
    assert rsa.modexp_many([], e, n, engine=engine) == []


def test_modexp_many_refuses_bad_moduli():
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.modexp_many([2], 3, (1 << 1024) + 2)  # even
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.modexp_many([2], 3, (1 << 8193) + 1)  # too large
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.modexp_many([-2], 3, 7)


# --- OAEP's default hash and digest names (issue 23) ----------------------------------------------------------------

def test_oaep_defaults_to_sha1_as_openssl(engine):
    """rsa.encrypt / decrypt / decrypt_many default to OAEP with SHA-1 and MGF1-SHA-1, the default of openssl pkeyutl
    and cryptaccel pkeyutl: ciphertexts cross both ways between the defaults and cryptography's
    OAEP(MGF1(SHA1), SHA1); SHA-256 is still there by name, and is not what the default decrypts."""
    skip_unless_rsa(engine)
    hashes, _, padding = _crypto()
    for fn in (rsa.encrypt, rsa.decrypt, rsa.decrypt_many):
        assert inspect.signature(fn).parameters["hash"].default == rsa.DEFAULT_OAEP_HASH == "sha1", fn.__name__
        assert inspect.signature(fn).parameters["mgf_hash"].default is None, fn.__name__
        assert "SHA-1" in fn.__doc__, fn.__name__
    ck = fresh_crypto_key(2048)
    key = to_cryptaccel_private(ck)
    pub = key.public_key()
    oaep_sha1 = padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA1(), label=None)
    oaep_sha256 = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    r = random.Random(f"{SEED}:oaep-default:{engine}")
    msgs = [r.randbytes(n) for n in (0, 1, r.randrange(2, 200), 256 - 2 * 20 - 2)]
    for m in msgs:
        assert ck.decrypt(rsa.encrypt(pub, m, engine=engine), oaep_sha1) == m, f"seed {SEED}"
        assert rsa.decrypt(key, ck.public_key().encrypt(m, oaep_sha1), engine=engine) == m, f"seed {SEED}"
    theirs = [ck.public_key().encrypt(m, oaep_sha1) for m in msgs]
    assert rsa.decrypt_many(key, theirs, engine=engine) == msgs
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.encrypt(pub, bytes(256 - 2 * 20 - 1), engine=engine)  # one byte over SHA-1 OAEP's capacity
    ct256 = ck.public_key().encrypt(msgs[2], oaep_sha256)
    with pytest.raises(cryptaccel.InvalidCiphertext):
        rsa.decrypt(key, ct256, engine=engine)
    assert rsa.decrypt(key, ct256, hash="sha256", engine=engine) == msgs[2]
    assert rsa.decrypt_many(key, [ct256], engine=engine) == [None]


def test_oaep_default_interoperates_with_pkeyutl(tmp_path):
    """The bug of issue 23: a message encrypted by `cryptaccel pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep` (or
    openssl's) failed rsa.decrypt(key, ct). Now it decrypts with the defaults, and rsa.encrypt(pub, m) decrypts with
    both tools' defaults."""
    tools = []
    if os.environ.get("CRYPTACCEL_CLI"):
        tools.append([os.environ["CRYPTACCEL_CLI"], "pkeyutl"])
    if shutil.which("openssl"):
        tools.append(["openssl", "pkeyutl"])
    if not tools:
        pytest.skip("neither CRYPTACCEL_CLI nor the openssl command is available")
    key = to_cryptaccel_private(fresh_crypto_key(2048))
    priv, pub = tmp_path / "key.pem", tmp_path / "pub.pem"
    priv.write_bytes(key.to_pem())
    pub.write_bytes(key.public_key().to_pem())
    r = random.Random(f"{SEED}:pkeyutl-oaep")
    for tool in tools:
        msg = r.randbytes(r.randrange(1, 200))
        (tmp_path / "pt").write_bytes(msg)
        proc = subprocess.run(tool + ["-encrypt", "-pubin", "-inkey", str(pub), "-pkeyopt", "rsa_padding_mode:oaep",
                                      "-in", str(tmp_path / "pt"), "-out", str(tmp_path / "ct")],
                              capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert rsa.decrypt(key, (tmp_path / "ct").read_bytes()) == msg, f"{tool[0]}, seed {SEED}"
        (tmp_path / "ours").write_bytes(rsa.encrypt(key.public_key(), msg))
        proc = subprocess.run(tool + ["-decrypt", "-inkey", str(priv), "-pkeyopt", "rsa_padding_mode:oaep",
                                      "-in", str(tmp_path / "ours"), "-out", str(tmp_path / "back")],
                              capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / "back").read_bytes() == msg, f"{tool[0]}, seed {SEED}"


def test_unknown_digest_lists_what_rsa_accepts():
    """'unknown hash' names the digests RSA takes (SHA-1, SHA-2, SHA-3; not SHAKE or SM3, which cryptaccel.new
    knows), and each of them is accepted: its PKCS#1 v1.5 signature equals cryptography's."""
    _, _, padding = _crypto()
    ck = fresh_crypto_key(1024)
    key = to_cryptaccel_private(ck)
    pub = key.public_key()
    lists = set()
    for bad in ("md5", "shake_128", "sm3", "sha257"):
        for what, call in (("hash", lambda: rsa.sign(key, b"m", hash=bad)),
                           ("hash", lambda: rsa.encrypt(pub, b"m", hash=bad)),
                           ("mgf_hash", lambda: rsa.decrypt(key, bytes(key.size), mgf_hash=bad)),
                           ("mgf_hash", lambda: rsa.verify(pub, b"m", b"s", padding="pss", mgf_hash=bad))):
            with pytest.raises(cryptaccel.InvalidArgument) as info:
                call()
            text = str(info.value)
            assert f"RSA {what} '{bad}'" in text, text
            lists.add(re.search(r"RSA accepts: ([a-z0-9_, ]+)\)", text).group(1))
    assert len(lists) == 1, lists
    listed = lists.pop().split(", ")
    assert set(listed) == {"sha1"} | (cryptaccel.algorithms_guaranteed - {"shake_128", "shake_256", "sm3"})
    for name in listed:
        assert rsa.sign(key, b"message", hash=name) == ck.sign(b"message", padding.PKCS1v15(), crypto_hash(name)), name


# --- batches -------------------------------------------------------------------------------------------------------

def test_batches_with_mixed_keys(engine):
    skip_unless_rsa(engine)
    keys = [to_cryptaccel_private(fresh_crypto_key(b)) for b in (1024, 2048, 3072)]
    msgs = [os.urandom(i * 7) for i in range(9)]
    per_job = [keys[i % 3] for i in range(9)]
    sigs, used = rsa.sign_many(per_job, msgs, engine=engine, return_engine=True)
    assert isinstance(used, str) and used
    assert sigs == [rsa.sign(k, m, engine="ref") for k, m in zip(per_job, msgs)]
    pubs = [k.public_key() for k in per_job]
    assert rsa.verify_many(pubs, msgs, sigs, engine=engine) == [True] * 9
    bad = list(sigs)
    bad[4] = bad[4][:-1] + bytes([bad[4][-1] ^ 1])
    bad[5] = b""
    bad[6] = sigs[7]  # right length for a different key: wrong
    assert rsa.verify_many(pubs, msgs, bad, engine=engine) == [True] * 4 + [False] * 3 + [True] * 2
    # PSS, one key for all
    pss = rsa.sign_many(keys[1], msgs, padding="pss", hash="sha384", engine=engine)
    assert rsa.verify_many(keys[1].public_key(), msgs, pss, padding="pss", hash="sha384", engine=engine) == [True] * 9
    # decrypt_many: invalid ciphertexts give None for their own job only
    cts = [rsa.encrypt(k.public_key(), m[:40], engine=engine) for k, m in zip(per_job, msgs)]
    cts[2] = b"\x00" * per_job[2].size
    cts[3] = cts[3][:-1]
    out = rsa.decrypt_many(per_job, cts, engine=engine)
    assert out == [m[:40] if i not in (2, 3) else None for i, m in enumerate(msgs)]
    assert rsa.sign_many(keys[0], [], engine=engine) == []


def test_batch_argument_errors():
    key = to_cryptaccel_private(fresh_crypto_key(1024))
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.sign_many([key, key], [b"a"])
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.verify_many(key.public_key(), [b"a"], [b"b", b"c"])
    with pytest.raises(TypeError):
        rsa.sign_many(key, b"not a list")
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.sign(key, b"m", padding="oaep")
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.sign(key, b"m", hash="md5")
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.encrypt(key.public_key(), b"m", padding="pss")
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.sign(key, b"m", padding="pss", salt_length=1000)
    with pytest.raises(cryptaccel.InvalidArgument):
        rsa.sign(key, b"short digest", prehashed=True)
    with pytest.raises(cryptaccel.EngineUnavailable):
        rsa.sign(key, b"m", engine="no-such-engine")


def test_prehashed_equals_hashing():
    import hashlib
    key = to_cryptaccel_private(fresh_crypto_key(2048))
    msg = b"prehashed message"
    assert rsa.sign(key, hashlib.sha256(msg).digest(), prehashed=True) == rsa.sign(key, msg)
    assert rsa.verify(key.public_key(), hashlib.sha384(msg).digest(), rsa.sign(key, msg, hash="sha384"),
                      hash="sha384", prehashed=True)


def _raw_encrypt(crypto_key, block: bytes) -> bytes:
    """Textbook RSA of `block` (no padding) under `crypto_key`'s public key."""
    pub = crypto_key.public_key().public_numbers()
    return pow(int.from_bytes(block, "big"), pub.e, pub.n).to_bytes(len(block), "big")


def test_invalid_ciphertext_is_one_error():
    crypto_key = fresh_crypto_key(2048)
    key = to_cryptaccel_private(crypto_key)
    assert issubclass(cryptaccel.InvalidCiphertext, cryptaccel.Error)
    assert issubclass(cryptaccel.InvalidCiphertext, ValueError)
    # Ciphertexts that neither padding accepts under any key: wrong lengths, not below n, and blocks chosen invalid
    # (a random 256-byte ciphertext decrypts to a valid PKCS#1 v1.5 block about once in 50 000: never used here).
    no_separator = b"\x00\x02" + b"\x5a" * 254  # v1.5 without its zero separator; OAEP needs more than a zero byte
    leading_one = b"\x01" + b"\x00" * 255      # below n (its top byte is >= 0x80); both paddings need a zero first
    messages = set()
    for ct in (b"", b"\x00" * 256, b"\xff" * 256, os.urandom(255), os.urandom(257),
               _raw_encrypt(crypto_key, no_separator), _raw_encrypt(crypto_key, leading_one)):
        for pad in ("oaep", "pkcs1v15"):
            with pytest.raises(cryptaccel.InvalidCiphertext) as info:
                rsa.decrypt(key, ct, padding=pad)
            messages.add(str(info.value))
    assert len(messages) == 1, messages


def test_gil_is_released_during_batches():
    """Two threads signing at once finish; a third thread keeps running Python code meanwhile."""
    key = to_cryptaccel_private(fresh_crypto_key(2048))
    msgs = [os.urandom(32) for _ in range(16)]
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        results = []
        workers = [threading.Thread(target=lambda: results.append(rsa.sign_many(key, msgs, engine="ref", threads=1)))
                   for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        done.set()
        t.join()
    assert len(results) == 2 and results[0] == results[1]
    assert len(ticks) > 3


def test_module_exports():
    assert cryptaccel.rsa is rsa
    for name in rsa.__all__:
        assert hasattr(rsa, name), name
    assert rsa.SUPPORTED_BITS == (1024, 2048, 3072, 4096, 8192)


def test_cuda_engine_equals_ref_on_a_mixed_batch():
    """The cuda engine by name (the ``engine`` fixture lists available engines only, so this is where a machine
    without a GPU shows the cuda RSA tests as skipped, with the reason): PKCS#1 v1.5 signatures byte-identical to
    ref's on a batch mixing two keys, verification both ways, modexp_many equal to pow()."""
    skip_unless_rsa("cuda")
    keys = [to_cryptaccel_private(fresh_crypto_key(1024)), to_cryptaccel_private(fresh_crypto_key(2048))]
    rng = random.Random(9)
    messages = [rng.randbytes(rng.randrange(0, 200)) for _ in range(40)]
    batch_keys = [keys[i % 2] for i in range(len(messages))]
    pubs = [k.public_key() for k in batch_keys]
    sigs = rsa.sign_many(batch_keys, messages, engine="cuda")
    assert sigs == rsa.sign_many(batch_keys, messages, engine="ref")
    assert all(rsa.verify_many(pubs, messages, sigs, engine="cuda"))
    bad = [s[:-1] + bytes([s[-1] ^ 1]) for s in sigs]
    assert not any(rsa.verify_many(pubs, messages, bad, engine="cuda"))
    n = keys[1].public_key().n
    bases = [rng.randrange(n) for _ in range(20)]
    exponent = rng.getrandbits(2048)
    assert rsa.modexp_many(bases, exponent, n, engine="cuda") == [pow(b, exponent, n) for b in bases]


def test_pss_salt_words_resolved_per_key():
    """salt_length takes openssl's rsa_pss_saltlen words, resolved for each key of a batch (mixed sizes): "max"
    signs with the longest salt each key allows, "digest" with the digest length, "auto" signs with "max" and
    verifies any; checked against cryptography's PSS.MAX_LENGTH / DIGEST_LENGTH / AUTO. "pkcs1" names PKCS#1 v1.5."""
    hashes, _, padding = _crypto()
    cks = [fresh_crypto_key(1024), fresh_crypto_key(2048)]
    keys = [to_cryptaccel_private(ck) for ck in cks]
    pubs = [k.public_key() for k in keys]
    msgs = [b"first", b"second"]
    mgf = padding.MGF1(hashes.SHA256())
    for word, theirs in (("max", padding.PSS.MAX_LENGTH), ("auto", padding.PSS.MAX_LENGTH),
                         ("digest", padding.PSS.DIGEST_LENGTH)):
        sigs = rsa.sign_many(keys, msgs, padding="pss", salt_length=word)
        for ck, msg, sig in zip(cks, msgs, sigs):
            ck.public_key().verify(sig, msg, padding.PSS(mgf=mgf, salt_length=theirs), hashes.SHA256())
        assert rsa.verify_many(pubs, msgs, sigs, padding="pss", salt_length=word) == [True, True]
    short = [ck.sign(m, padding.PSS(mgf=mgf, salt_length=5), hashes.SHA256()) for ck, m in zip(cks, msgs)]
    assert rsa.verify_many(pubs, msgs, short, padding="pss", salt_length="auto") == [True, True]  # any length
    assert rsa.verify_many(pubs, msgs, short, padding="pss", salt_length="max") == [False, False]
    assert rsa.sign(keys[0], b"m", padding="pkcs1") == rsa.sign(keys[0], b"m", padding="pkcs1v15")
    assert rsa.decrypt(keys[0], rsa.encrypt(pubs[0], b"m", padding="pkcs1"), padding="pkcs1v15") == b"m"
    with pytest.raises(cryptaccel.InvalidArgument, match="auto-digestmax"):
        rsa.sign(keys[0], b"m", padding="pss", salt_length="most")
