"""cryptaccel.encryptor / decryptor and encrypt_file / decrypt_file (include/cryptaccel/stream.hpp through the
extension) against the one-shot functions, on every engine under test: streams that cross chunks and batches, fed in
random pieces; file paths and file objects; failures that leave no file behind. Random data draws from
CRYPTACCEL_TEST_SEED (printed in every failure message)."""
from __future__ import annotations

import io
import os
import random

import pytest

import cryptaccel
from conftest import skip_unless_supported

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "20261127"))
STREAM_CIPHERS = ["aes-128-ctr", "aes-256-cbc", "aes-192-ecb", "sm4-cbc", "sm4-ctr"]


def rng(*tag) -> random.Random:
    return random.Random(f"{SEED}:" + ":".join(map(str, tag)))


def iv_for(cipher: str, r: random.Random) -> bytes:
    return b"" if cipher.endswith("-ecb") else r.randbytes(16)


def key_size(cipher: str) -> int:
    return cryptaccel.cipher_info(cipher)["key_size"]


@pytest.mark.parametrize("cipher", STREAM_CIPHERS)
@pytest.mark.parametrize("padding", [True, False])
def test_incremental_matches_one_shot(engine, cipher, padding):
    skip_unless_supported(engine, cipher)
    if not padding and cipher.split("-")[-1] not in ("cbc", "ecb"):
        pytest.skip("padding applies to ECB and CBC only")
    r = rng("incremental", engine, cipher, padding)
    for case in range(12):
        key, iv = r.randbytes(key_size(cipher)), iv_for(cipher, r)
        length = r.randrange(0, 5000)
        if not padding:
            length -= length % 16
        data = r.randbytes(length)
        chunk = 16 * r.randrange(1, 8)
        context = f"seed={SEED} case {case}: {cipher} length {length} chunk {chunk}"
        expected = cryptaccel.encrypt(cipher, key, data, iv, padding=padding, engine="ref")
        enc = cryptaccel.encryptor(cipher, key, iv, padding=padding, engine=engine, chunk_bytes=chunk)
        out, at = b"", 0
        while at < length:
            n = r.randrange(1, 700)
            out += enc.update(data[at:at + n])
            at += n
        out += enc.finalize()
        assert out == expected, context
        dec = cryptaccel.decryptor(cipher, key, iv, padding=padding, engine=engine, chunk_bytes=chunk)
        assert dec.update(bytearray(expected)) + dec.finalize() == data, context


def test_files_by_path_and_by_object(tmp_path):
    r = rng("files")
    key, iv = r.randbytes(32), r.randbytes(16)
    data = r.randbytes(3 * (1 << 20) + 7)
    src, enc_path, dec_path = tmp_path / "src", tmp_path / "enc", tmp_path / "dec"
    src.write_bytes(data)
    used = cryptaccel.encrypt_file("aes-256-cbc", key, src, enc_path, iv, engine="cpu")
    assert used == "cpu"
    assert enc_path.read_bytes() == cryptaccel.encrypt("aes-256-cbc", key, data, iv)
    cryptaccel.decrypt_file("aes-256-cbc", key, str(enc_path), str(dec_path), iv)
    assert dec_path.read_bytes() == data
    out = io.BytesIO()
    cryptaccel.decrypt_file("aes-256-cbc", key, io.BytesIO(enc_path.read_bytes()), out, iv)
    assert out.getvalue() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dec", "enc", "src"]


@pytest.mark.parametrize("cipher", ["aes-128-gcm", "aes-256-gcm", "sm4-gcm"])
def test_gcm_streams_and_verifies_at_the_end(engine, cipher):
    skip_unless_supported(engine, cipher)
    if engine.startswith("cuda"):
        pytest.skip("GCM streams on engines with GCM building blocks (cpu, ref)")
    r = rng("gcm-stream", engine, cipher)
    for case in range(6):
        key, nonce, aad = r.randbytes(key_size(cipher)), r.randbytes(r.choice([12, 1, 16, 40])), r.randbytes(30)
        data, tag_len = r.randbytes(r.randrange(0, 3000)), r.randrange(4, 17)
        context = f"seed={SEED} case {case}"
        expected = cryptaccel.encrypt(cipher, key, data, nonce, aad=aad, tag_len=tag_len, engine="ref")
        enc = cryptaccel.encryptor(cipher, key, nonce, aad=aad, tag_len=tag_len, engine=engine, chunk_bytes=64)
        out = b"".join(enc.update(data[i:i + 100]) for i in range(0, len(data), 100)) + enc.finalize()
        assert out == expected, context
        dec = cryptaccel.decryptor(cipher, key, nonce, aad=aad, tag_len=tag_len, engine=engine, chunk_bytes=64)
        assert dec.update(expected) + dec.finalize() == data, context
        forged = bytearray(expected)
        forged[r.randrange(len(forged))] ^= 1 << r.randrange(8)
        dec = cryptaccel.decryptor(cipher, key, nonce, aad=aad, tag_len=tag_len, engine=engine, chunk_bytes=64)
        dec.update(bytes(forged))
        with pytest.raises(cryptaccel.AuthenticationFailed):
            dec.finalize()


def test_gcm_files_publish_nothing_unverified(tmp_path):
    r = rng("gcm-file")
    key, nonce, aad, data = r.randbytes(16), r.randbytes(12), b"header", r.randbytes(3 * (1 << 20) + 5)
    assert cryptaccel.streamable("aes-128-gcm") and not cryptaccel.streamable("aes-128-xts", engine="ref")
    assert cryptaccel.streamable("aes-128-xts", 4096, engine="ref")
    src, enc_path = tmp_path / "src", tmp_path / "enc"
    src.write_bytes(data)
    cryptaccel.encrypt_file("aes-128-gcm", key, src, enc_path, nonce, aad=aad, engine="cpu")
    assert enc_path.read_bytes() == cryptaccel.encrypt("aes-128-gcm", key, data, nonce, aad=aad)
    tampered = bytearray(enc_path.read_bytes())
    tampered[5] ^= 1
    enc_path.write_bytes(bytes(tampered))
    dst = tmp_path / "plain"
    dst.write_bytes(b"old")
    with pytest.raises(cryptaccel.AuthenticationFailed):  # streamed into a temporary file, never published
        cryptaccel.decrypt_file("aes-128-gcm", key, enc_path, dst, nonce, aad=aad)
    assert dst.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc", "plain", "src"]
    sink = io.BytesIO()
    with pytest.raises(cryptaccel.AuthenticationFailed):  # a file object: verified in memory before any write
        cryptaccel.decrypt_file("aes-128-gcm", key, io.BytesIO(bytes(tampered)), sink, nonce, aad=aad)
    assert sink.getvalue() == b""
    xkey = r.randbytes(64)
    out = io.BytesIO()
    for engine in ("ref", "auto"):  # one data unit: in memory on ref, streamed where cpu has its XTS kernel
        out = io.BytesIO()
        cryptaccel.encrypt_file("aes-256-xts", xkey, io.BytesIO(data), out, bytes(16), engine=engine)
        assert out.getvalue() == cryptaccel.encrypt("aes-256-xts", xkey, data, bytes(16), engine="ref"), engine


def test_bad_padding_leaves_no_file(tmp_path):
    key, iv = bytes(16), bytes(16)
    ct = bytearray(cryptaccel.encrypt("aes-128-cbc", key, b"x" * 100, iv))
    ct[-1] ^= 1
    src, dst = tmp_path / "ct", tmp_path / "pt"
    src.write_bytes(bytes(ct))
    with pytest.raises(cryptaccel.BadDecrypt):
        cryptaccel.decrypt_file("aes-128-cbc", key, src, dst, iv)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ct"]


def test_misuse_is_a_clear_error():
    with pytest.raises(cryptaccel.EngineUnavailable, match="without data units"):
        cryptaccel.encryptor("aes-128-xts", bytes(range(32)), bytes(16), engine="ref")
    with pytest.raises(cryptaccel.InvalidArgument, match="key length"):
        cryptaccel.encryptor("aes-128-ctr", bytes(15), bytes(16))
    with pytest.raises(cryptaccel.InvalidArgument, match="aad"):
        cryptaccel.encrypt_file("aes-128-ctr", bytes(16), io.BytesIO(b"x"), io.BytesIO(), bytes(16), aad=b"a")
    enc = cryptaccel.encryptor("aes-128-ctr", bytes(16), bytes(16))
    assert enc.update(b"abc") + enc.finalize() == cryptaccel.encrypt("aes-128-ctr", bytes(16), b"abc", bytes(16))
    with pytest.raises(cryptaccel.InvalidArgument, match="finalized"):
        enc.update(b"more")
    with pytest.raises(TypeError):
        cryptaccel.encryptor("aes-128-ctr", "not bytes", bytes(16))


@pytest.mark.parametrize("cipher,xts_unit", [("aes-128-ctr", 0), ("aes-256-cbc", 0), ("aes-256-gcm", 0),
                                             ("aes-128-xts", 4096), ("sm4-ctr", 0)])
def test_path_to_path_runs_in_the_library_and_matches_one_shot(tmp_path, cipher, xts_unit):
    """Path to path: read, processed and written by CipherStream::pipe with the GIL released, across batches."""
    r = rng("native-files", cipher)
    key = r.randbytes(key_size(cipher))
    iv = r.randbytes(12 if cipher.endswith("gcm") else 16)
    data = r.randbytes(9 * (1 << 20) + (0 if xts_unit else 5))
    src, enc_path, dec_path = tmp_path / "src", tmp_path / "enc", tmp_path / "dec"
    src.write_bytes(data)
    cryptaccel.encrypt_file(cipher, key, src, enc_path, iv, xts_unit=xts_unit, engine="cpu")
    expected = cryptaccel.encrypt(cipher, key, data, iv, xts_unit=xts_unit, engine="ref")
    assert enc_path.read_bytes() == expected, f"seed={SEED} {cipher}"
    cryptaccel.decrypt_file(cipher, key, enc_path, dec_path, iv, xts_unit=xts_unit, engine="cpu")
    assert dec_path.read_bytes() == data, f"seed={SEED} {cipher}"


def test_path_to_path_write_error_is_oserror_and_leaves_no_file(tmp_path):
    """A write that fails in the library (past RLIMIT_FSIZE, as on a full disk) raises OSError; no file is left."""
    import subprocess
    import sys

    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(bytes(8 << 20))
    code = f"""
import resource, cryptaccel
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
try:
    cryptaccel.encrypt_file("aes-128-ctr", bytes(16), {str(src)!r}, {str(dst)!r}, bytes(16), engine="cpu")
except OSError as e:
    print("OSError", e.errno)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ})
    assert proc.stdout.strip() == "OSError 27", proc.stdout + proc.stderr  # EFBIG
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


def test_a_replaced_file_keeps_its_mode_and_errors_are_oserror(tmp_path):
    """Path destinations go through the library's AtomicOutput, as the command line's: a replaced file keeps its
    mode, a symbolic link is written through, a missing directory is FileNotFoundError, and a failed decryption
    leaves the old content and no temporary file."""
    key, iv = bytes(range(16)), bytes(16)
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(b"x" * 100000)
    dst.write_bytes(b"old")
    dst.chmod(0o640)
    cryptaccel.encrypt_file("aes-128-ctr", key, src, dst, iv)
    assert dst.stat().st_mode & 0o7777 == 0o640
    link = tmp_path / "link"
    link.symlink_to(dst.name)
    cryptaccel.decrypt_file("aes-128-ctr", key, dst, link, iv)
    assert link.is_symlink() and dst.read_bytes() == src.read_bytes()
    with pytest.raises(FileNotFoundError):
        cryptaccel.encrypt_file("aes-128-ctr", key, src, tmp_path / "no-such-dir" / "out", iv)
    sealed = tmp_path / "sealed"
    cryptaccel.encrypt_file("aes-128-gcm", key, src, sealed, iv[:12])
    sealed.write_bytes(sealed.read_bytes()[:-1] + bytes([sealed.read_bytes()[-1] ^ 1]))
    with pytest.raises(cryptaccel.AuthenticationFailed):
        cryptaccel.decrypt_file("aes-128-gcm", key, sealed, dst, iv[:12])
    assert dst.read_bytes() == src.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dst", "link", "sealed", "src"]


def test_a_special_destination_is_written_in_place(tmp_path):
    """A FIFO (or a device such as /dev/null) is written into, never replaced by a regular file."""
    import stat
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = rng("fifo").randbytes(3 << 20)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    cryptaccel.encrypt_file("aes-128-ctr", bytes(16), io.BytesIO(data), fifo, bytes(16), engine="cpu")
    reader.join(timeout=60)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received == [cryptaccel.encrypt("aes-128-ctr", bytes(16), data, bytes(16))]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_files_of_the_wrong_type_are_a_type_error(tmp_path):
    src = tmp_path / "src"
    src.write_bytes(b"x" * 100)
    for bad_src, bad_dst in ((123, tmp_path / "d"), (src, 4.5), (None, tmp_path / "d"), (src, b"not a file object")):
        with pytest.raises(cryptaccel.InvalidArgumentType, match=r"(src|dst) must be a path or a binary file object"):
            cryptaccel.encrypt_file("aes-128-ctr", bytes(16), bad_src, bad_dst, bytes(16))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]
