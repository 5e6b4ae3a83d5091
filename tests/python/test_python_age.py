"""cryptaccel.age: keys, in-memory, stream and file forms, against pyrage (rage's bindings) where it is installed.
Random data from CRYPTACCEL_TEST_SEED."""
import io
import os
import random

import pytest

import cryptaccel
from cryptaccel import age

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", random.SystemRandom().randrange(2**32)))
CHUNK = age.CHUNK_SIZE


def rbytes(n, *tag):
    return random.Random(f"{SEED}:{n}:" + ":".join(map(str, tag))).randbytes(n)


def test_keys():
    me = age.Identity.generate()
    assert str(me).startswith("AGE-SECRET-KEY-1") and str(me.recipient()).startswith("age1")
    assert str(me) not in repr(me)
    assert age.Identity.parse(str(me)).recipient() == me.recipient()
    assert age.Recipient.parse(str(me.recipient())) == me.recipient()
    with pytest.raises(cryptaccel.InvalidArgument):
        age.Recipient.parse("age1notakey")
    with pytest.raises(cryptaccel.InvalidArgument):
        age.Identity.parse(str(me.recipient()))
    with pytest.raises(cryptaccel.InvalidArgumentType):
        age.Recipient.parse(b"age1...")
    text = me.file_text()
    assert f"# public key: {me.recipient()}" in text and text.rstrip().endswith(str(me))


@pytest.mark.parametrize("n", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 4 * CHUNK + 3])
@pytest.mark.parametrize("engine", ["auto", "ref"])
def test_round_trips(n, engine):
    a, b = age.Identity.generate(), age.Identity.generate()
    pt = rbytes(n, engine)
    sealed = age.encrypt(pt, [a.recipient(), str(b.recipient())], engine=engine)
    assert age.decrypt(sealed, [b], engine=engine) == pt
    armored = age.encrypt(bytearray(pt), a.recipient(), armor=True, engine=engine)
    assert armored.startswith(b"-----BEGIN AGE ENCRYPTED FILE-----\n")
    assert age.decrypt(memoryview(armored), str(a), engine=engine) == pt
    with pytest.raises(cryptaccel.AuthenticationFailed, match="no identity matched"):
        age.decrypt(sealed, [age.Identity.generate()])


def test_passphrase():
    pt = rbytes(1000, "pass")
    sealed = age.encrypt(pt, passphrase="hunter2", work_factor=10)
    assert age.decrypt(sealed, passphrase="hunter2") == pt
    with pytest.raises(cryptaccel.AuthenticationFailed, match="passphrase"):
        age.decrypt(sealed, passphrase="hunter3")
    with pytest.raises(cryptaccel.InvalidArgument, match="work factor"):
        age.decrypt(sealed, passphrase="hunter2", max_work_factor=9)
    with pytest.raises(cryptaccel.InvalidArgument):
        age.encrypt(pt, [age.Identity.generate().recipient()], passphrase="x")


def test_streams_release_only_verified_chunks():
    me = age.Identity.generate()
    pt = rbytes(5 * CHUNK + 9, "io")
    dst = io.BytesIO()
    age.encrypt_io(io.BytesIO(pt), dst, [me.recipient()])
    sealed = bytearray(dst.getvalue())
    assert age.decrypt(bytes(sealed), [me]) == pt
    out = io.BytesIO()
    age.decrypt_io(io.BytesIO(bytes(sealed)), out, [me])
    assert out.getvalue() == pt
    sealed[-CHUNK] ^= 1  # inside chunk 4 (the last one, 5, is 9 bytes and its tag)
    out = io.BytesIO()
    with pytest.raises(cryptaccel.AuthenticationFailed, match="chunk 4"):
        age.decrypt_io(io.BytesIO(bytes(sealed)), out, [me])
    assert out.getvalue() == pt[: 4 * CHUNK]


def test_files_are_all_or_nothing(tmp_path):
    me = age.Identity.generate()
    src, enc, dec = tmp_path / "pt", tmp_path / "pt.age", tmp_path / "pt.out"
    pt = rbytes(3 * CHUNK, "file")
    src.write_bytes(pt)
    age.encrypt_file(src, enc, [me.recipient()])
    age.decrypt_file(enc, dec, [me])
    assert dec.read_bytes() == pt
    damaged = bytearray(enc.read_bytes())
    damaged[-5] ^= 1
    enc.write_bytes(bytes(damaged))
    with pytest.raises(cryptaccel.AuthenticationFailed):
        age.decrypt_file(enc, tmp_path / "never", [me])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pt", "pt.age", "pt.out"]
    keyfile = tmp_path / "key.txt"
    keyfile.write_text(me.file_text())
    assert [str(i) for i in age.Identity.read(keyfile)] == [str(me)]


def test_pyrage_interoperates():
    pyrage = pytest.importorskip("pyrage", reason="pyrage is not installed (pip install pyrage)")
    me = age.Identity.generate()
    pt = rbytes(2 * CHUNK + 17, "pyrage")
    theirs = pyrage.encrypt(pt, [pyrage.x25519.Recipient.from_str(str(me.recipient()))])
    assert age.decrypt(theirs, [me]) == pt
    ours = age.encrypt(pt, [me.recipient()])
    assert pyrage.decrypt(ours, [pyrage.x25519.Identity.from_str(str(me))]) == pt
    assert age.decrypt(pyrage.passphrase.encrypt(pt, "pw"), passphrase="pw") == pt
    assert pyrage.passphrase.decrypt(age.encrypt(pt, passphrase="pw", work_factor=10), "pw") == pt
