"""`cryptaccel enc`/`dec` password mode against the `openssl` binary (OpenSSL 3.0 `enc`): every derivation (legacy
EVP_BytesToKey, -pbkdf2, -iter/-md) and salt choice (random with the "Salted__" header, -S, -nosalt), encrypted with
one tool and decrypted with the other, byte for byte where the salt is fixed, -P printouts identical; the password
sources (pass:, env:, file:, fd:, stdin, -k, -kfile); bad input leaves nothing behind. CRYPTACCEL_TEST_SEED replays.
"""
from __future__ import annotations

import os
import subprocess

import pytest

from test_cli_enc import CLI, OPENSSL, SEED, rbytes, rng

KDFS = [[], ["-pbkdf2"], ["-iter", "1000", "-md", "sha512"], ["-md", "sha1"]]
SALTS = [[], ["-nosalt"], ["-S", "0a0b0c0d0e0f1011"]]
CIPHERS = ["aes-128-cbc", "aes-256-ctr", "aes-192-ecb", "sm4-cbc"]


def tool(*args, stdin=None, **kw):
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, timeout=60, **kw)


@pytest.mark.parametrize("cipher", CIPHERS)
@pytest.mark.parametrize("kdf", KDFS, ids=lambda k: "_".join(k) or "legacy")
@pytest.mark.parametrize("salt", SALTS, ids=lambda s: s[0] if s else "random")
def test_both_ways_with_openssl(cipher, kdf, salt):
    r = rng("password", cipher, *kdf, *salt)
    data = rbytes(r, r.choice([0, 17, 100003]))
    password = ["-pass", "pass:" + r.randbytes(6).hex()]
    context = f"seed={SEED} {cipher} {kdf} {salt} {len(data)} bytes"
    ours = tool(CLI, "enc", f"-{cipher}", *password, *kdf, *salt, stdin=data)
    theirs = tool(OPENSSL, "enc", f"-{cipher}", *password, *kdf, *salt, stdin=data)
    assert ours.returncode == 0 and theirs.returncode == 0, (context, ours.stderr, theirs.stderr)
    back = tool(OPENSSL, "enc", "-d", f"-{cipher}", *password, *kdf, *salt, stdin=ours.stdout)
    assert back.returncode == 0 and back.stdout == data, (context, back.stderr)
    back = tool(CLI, "dec", f"-{cipher}", *password, *kdf, *salt, stdin=theirs.stdout)
    assert back.returncode == 0 and back.stdout == data, (context, back.stderr)
    if salt:  # a fixed salt (or none): the same bytes, and the same -P printout
        assert ours.stdout == theirs.stdout, context
        assert tool(CLI, "enc", f"-{cipher}", *password, *kdf, *salt, "-P").stdout == \
            tool(OPENSSL, "enc", f"-{cipher}", *password, *kdf, *salt, "-P").stdout, context
    else:
        assert ours.stdout[:8] == b"Salted__" and ours.stdout[8:16] != theirs.stdout[8:16]
    legacy = not kdf or kdf == ["-md", "sha1"]
    assert (b"deprecated key derivation" in ours.stderr) == legacy


def test_password_sources(tmp_path):
    data = b"attack at dawn" * 100
    ct = tool(OPENSSL, "enc", "-aes-256-cbc", "-pbkdf2", "-pass", "pass:right", stdin=data).stdout
    (tmp_path / "pw").write_text("right\nsecond line ignored\n")
    env = dict(os.environ, CA_TEST_PW="right")
    for args, extra in ((["-pass", "pass:right"], {}), (["-k", "right"], {}), (["-kfile", tmp_path / "pw"], {}),
                        (["-pass", f"file:{tmp_path / 'pw'}"], {}), (["-pass", "env:CA_TEST_PW"], {"env": env})):
        out = tool(CLI, "dec", "-aes-256-cbc", "-pbkdf2", *args, stdin=ct, **extra)
        assert out.returncode == 0 and out.stdout == data, (args, out.stderr)
    # stdin: the password is the first line, the ciphertext follows on the same stream.
    out = tool(CLI, "dec", "-aes-256-cbc", "-pbkdf2", "-pass", "stdin", stdin=b"right\n" + ct)
    assert out.returncode == 0 and out.stdout == data, out.stderr
    with open(tmp_path / "pw", "rb") as f:
        out = subprocess.run([CLI, "dec", "-aes-256-cbc", "-pbkdf2", "-pass", f"fd:{f.fileno()}"], input=ct,
                             capture_output=True, pass_fds=(f.fileno(),), timeout=60)
    assert out.returncode == 0 and out.stdout == data, out.stderr


@pytest.mark.parametrize("case", ["wrong password", "no header", "short", "unset env", "-K too"])
def test_bad_input_is_one_line_and_no_file(case, tmp_path):
    # Fixed data and salt: a wrong key yields valid padding about once in 256 keys, so nothing here may be random.
    data = b"fixed plaintext " * 64
    salt = ["-S", "0102030405060708"]
    ct = tool(OPENSSL, "enc", "-aes-128-cbc", "-pbkdf2", *salt, "-pass", "pass:right", stdin=data).stdout
    src, dst = tmp_path / "in", tmp_path / "out"
    args = ["-aes-128-cbc", "-pbkdf2", "-pass", "pass:right", "-in", src, "-out", dst]
    if case in ("wrong password", "unset env", "-K too"):
        args += salt
    src.write_bytes(ct)
    if case == "wrong password":
        args[3] = "pass:wrong"
        expected = b"bad decrypt"
    elif case == "no header":
        src.write_bytes(b"not salted" * 10)
        expected = b"bad magic number"
    elif case == "short":
        src.write_bytes(b"Salted__12")
        expected = b"no salt header"
    elif case == "unset env":
        args[3] = "env:CA_TEST_SURELY_UNSET"
        expected = b"-pass env:CA_TEST_SURELY_UNSET: the variable is not set"
    else:
        args += ["-K", "00" * 16]
        expected = b"mutually exclusive"
    out = tool(CLI, "dec", *args)
    assert out.returncode == 1, case
    assert expected in out.stderr and out.stderr.count(b"\n") == 1, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"], case


def test_gcm_takes_no_password():
    out = tool(CLI, "enc", "-aes-128-gcm", "-pass", "pass:x", stdin=b"")
    assert out.returncode == 1 and b"takes no password" in out.stderr


@pytest.mark.parametrize("flags", [["-a"], ["-base64"], ["-a", "-A"]], ids=["a", "base64", "A"])
@pytest.mark.parametrize("length", [0, 1, 47, 48, 49, 100003, 2 * 1024 * 1024 + 5])
def test_base64_like_openssl(flags, length):
    """-a / -base64 (64-character lines) and -A (one line, no newline), byte for byte with openssl both ways, with
    a raw key and with a password (the Salted__ header is inside the base64)."""
    r = rng("base64", length, *flags)
    data = rbytes(r, length)
    for mode in (["-K", "00" * 16, "-iv", "11" * 16], ["-pass", "pass:pw", "-pbkdf2", "-S", "0102030405060708"]):
        ours = tool(CLI, "enc", "-aes-128-cbc", *mode, *flags, stdin=data)
        theirs = tool(OPENSSL, "enc", "-aes-128-cbc", *mode, *flags, stdin=data)
        assert ours.returncode == 0 and ours.stdout == theirs.stdout, (f"seed={SEED}", mode, ours.stderr)
        back = tool(CLI, "dec", "-aes-128-cbc", *mode, *flags, stdin=theirs.stdout)
        assert back.returncode == 0 and back.stdout == data, (f"seed={SEED}", mode, back.stderr)


def test_bad_base64_is_one_line():
    out = tool(CLI, "dec", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-a", stdin=b"@@@@\n")
    assert out.returncode == 1 and out.stderr.startswith(b"cryptaccel dec: bad base64 input")
    assert out.stderr.count(b"\n") == 1
    out = tool(CLI, "dec", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-a", stdin=b"QUJD\nQQ")
    assert out.returncode == 1 and b"inside a 4-character group" in out.stderr
    for misplaced in (b"====\n", b"Q===\n", b"QU=E\n", b"=QUJ\n"):  # "====" once crashed the decoder (fuzzing)
        out = tool(CLI, "dec", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-a", stdin=misplaced)
        assert out.returncode == 1 and out.stderr.startswith(b"cryptaccel dec: bad base64 input"), (misplaced, out.stderr)
        assert out.stderr.count(b"\n") == 1
