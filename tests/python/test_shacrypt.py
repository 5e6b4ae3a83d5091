"""cryptaccel.shacrypt against passlib (libxcrypt through its os_crypt backend, and its own pure-Python builtin
backend) and ``openssl passwd -5 / -6`` on random passwords and salts, the specification's vectors, rounds variants
and bad input, on every engine (engines this machine lacks are skipped with their reason). Without passlib only the
comparisons with passlib skip (with the reason); the specification's vectors, openssl passwd and the argument checks
still run. Issue 23: a NUL in the password and salt characters outside crypt(3)'s alphabet are refused (as passlib
refuses them), ``verify`` takes a bytes hash (as passlib's), ``variant`` errors say what is accepted."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from typing import List

import pytest

import cryptaccel
from cryptaccel import shacrypt

try:
    import passlib.hash as passlib_hash
except ImportError:  # the comparisons with passlib skip; everything else runs
    passlib_hash = None
needs_passlib = pytest.mark.skipif(passlib_hash is None, reason="passlib is not installed (pip install passlib)")

ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "7007"))


def all_engines() -> List[str]:
    return [e["name"] for e in cryptaccel.engines()]


@pytest.fixture(params=all_engines())
def any_engine(request) -> str:
    """Every engine of this build; unavailable ones (or ones without SHA-crypt) skip with the reason."""
    name = request.param
    try:
        shacrypt.hash(b"", salt="x", rounds=1000, engine=name)
    except cryptaccel.EngineUnavailable as why:
        pytest.skip(str(why))
    return name


def passlib_crypt(variant: int, password: bytes, salt: str, rounds: int, backend: str = "os_crypt") -> str:
    cls = passlib_hash.sha512_crypt if variant == 512 else passlib_hash.sha256_crypt
    handler = cls.using(salt=salt, rounds=rounds)
    if backend != "os_crypt":
        handler = type("h", (handler,), {})  # a subclass, so that set_backend leaves the shared class alone
        handler.set_backend(backend)
    return handler.hash(password)


def random_password(rng: random.Random, n: int) -> bytes:
    # No NUL (crypt(3) reads C strings) and no CR/LF (openssl passwd -stdin reads lines).
    return bytes(rng.choice([b for b in range(1, 256) if b not in (10, 13)]) for _ in range(n))


SPEC = [
    ("$5$saltstring", b"Hello world!", "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"),
    ("$5$rounds=10000$saltstringsaltstring", b"Hello world!",
     "$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA"),
    ("$5$rounds=10$roundstoolow", b"the minimum number is still observed",
     "$5$rounds=1000$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC"),
    ("$6$saltstring", b"Hello world!",
     "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"),
    ("$6$rounds=1400$anotherlongsaltstring",
     b"a very much longer text to encrypt.  This one even stretches over morethan one line.",
     "$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1"),
    ("$6$rounds=10$roundstoolow", b"the minimum number is still observed",
     "$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX."),
]


@pytest.mark.parametrize("setting,password,expected", SPEC, ids=[s for s, _, _ in SPEC])
def test_specification_vectors(any_engine, setting, password, expected):
    assert shacrypt.hash_setting(password, setting, engine=any_engine) == expected
    assert shacrypt.verify(password, expected, engine=any_engine)
    assert not shacrypt.verify(password + b"x", expected, engine=any_engine)


@needs_passlib
@pytest.mark.parametrize("variant", [256, 512])
def test_random_passwords_and_salts_equal_passlib(any_engine, variant):
    rng = random.Random(SEED + variant)
    for case in range(24):
        password = random_password(rng, rng.randrange(0, 201))
        salt = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 21)))
        rounds = rng.choice([1000, 1001, 1234, 5000])
        expected = passlib_crypt(variant, password, salt[:16], rounds)
        got = shacrypt.hash(password, salt=salt[:16], rounds=rounds, variant=variant, engine=any_engine)
        assert got == expected, f"case {case}: password {password!r}, salt {salt!r}, rounds {rounds}"
        # The full salt (up to 20 characters) through a setting string: cut at 16 as glibc does.
        prefix = f"${5 if variant == 256 else 6}$" + ("" if rounds == 5000 else f"rounds={rounds}$")
        assert shacrypt.hash_setting(password, prefix + salt, engine=any_engine) == expected
        assert shacrypt.verify(password, expected, engine=any_engine)


@needs_passlib
@pytest.mark.parametrize("variant", [256, 512])
def test_equal_passlib_builtin_backend(variant):
    """passlib's pure-Python implementation: independent of libxcrypt."""
    rng = random.Random(SEED + 1000 + variant)
    for length in (0, 1, 63, 64, 65, 127, 128, 129, 200):
        password = random_password(rng, length)
        salt = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 17)))
        expected = passlib_crypt(variant, password, salt, 1000, backend="builtin")
        assert shacrypt.hash(password, salt=salt, rounds=1000, variant=variant) == expected, (length, salt)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl command is not installed")
@pytest.mark.parametrize("variant", [256, 512])
def test_random_passwords_equal_openssl_passwd(any_engine, variant):
    rng = random.Random(SEED + 2000 + variant)
    for case in range(10):
        password = random_password(rng, rng.randrange(0, 201))
        salt = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, 21)))
        out = subprocess.run(["openssl", "passwd", "-5" if variant == 256 else "-6", "-salt", salt, "-stdin"],
                             input=password + b"\n", capture_output=True, check=True)
        expected = out.stdout.decode().strip()
        assert shacrypt.hash(password, salt=salt[:16], variant=variant, engine=any_engine) == expected, \
            f"case {case}: password {password!r}, salt {salt!r}"


@needs_passlib
def test_hash_many_mixes_settings_and_equals_one_by_one(any_engine):
    rng = random.Random(SEED + 3000)
    passwords = [random_password(rng, rng.randrange(0, 90)) for _ in range(40)]
    settings = [rng.choice(["$6$rounds=1000$aa", "$5$rounds=1000$bb", "$6$rounds=1100$cccccccccccccccc",
                            "$5$rounds=1003$"]) for _ in passwords]
    many = shacrypt.hash_many(passwords, settings, engine=any_engine)
    assert many == [shacrypt.hash_setting(p, s, engine="ref") for p, s in zip(passwords, settings)]
    one = shacrypt.hash_many(passwords[:9], "$6$rounds=1000$same", engine=any_engine)
    assert one == [passlib_crypt(512, p, "same", 1000) for p in passwords[:9]]


@needs_passlib
def test_random_salts_and_str_passwords():
    a = shacrypt.hash("correct horse", rounds=1000)
    b = shacrypt.hash("correct horse", rounds=1000)
    assert a != b
    assert a.startswith("$6$rounds=1000$") and len(shacrypt.parse(a)["salt"]) == 16
    assert shacrypt.verify("correct horse", a) and shacrypt.verify("correct horse".encode(), a)
    assert not shacrypt.verify("correct horsE", a)
    h = shacrypt.hash("pässwörd", salt="s", variant=256)
    assert h == passlib_crypt(256, "pässwörd".encode("utf-8"), "s", 5000)
    assert shacrypt.hash(bytearray(b"pw"), salt="s") == shacrypt.hash(memoryview(b"pw"), salt=b"s")


def test_parse():
    p = shacrypt.parse(SPEC[1][2])
    assert p["variant"] == 256 and p["rounds"] == 10000 and p["rounds_explicit"] and p["salt"] == "saltstringsaltst"
    assert len(p["digest"]) == 32
    p = shacrypt.parse("$6$rounds=10$x")
    assert p["rounds"] == 1000 and p["digest"] is None


@pytest.mark.parametrize("call", [
    lambda: shacrypt.hash(b"x", salt="a" * 17),
    lambda: shacrypt.hash(b"x", salt="a$b"),
    lambda: shacrypt.hash(b"x", salt="a:b"),
    lambda: shacrypt.hash(b"x", rounds=999),
    lambda: shacrypt.hash(b"x", rounds=1_000_000_000),
    lambda: shacrypt.hash(b"x", variant=384),
    lambda: shacrypt.verify(b"x", "$6$saltonly"),
    lambda: shacrypt.verify(b"x", "$1$abc$def"),
    lambda: shacrypt.verify(b"x", "$6$salt$tooshort"),
    lambda: shacrypt.hash_many([b"a", b"b"], ["$6$a", "$6$b", "$6$c"]),
], ids=["salt-17", "salt-dollar", "salt-colon", "rounds-low", "rounds-high", "variant", "no-hash", "md5crypt",
        "short-hash", "settings-count"])
def test_bad_input_raises_invalid_argument(call):
    with pytest.raises(cryptaccel.InvalidArgument) as info:
        call()
    assert "\n" not in str(info.value) and str(info.value)


# --- argument checks (issue 23) -------------------------------------------------------------------------------------

NUL_PASSWORDS = [b"\x00", b"a\x00b", "trailing\x00", bytearray(b"\x00lead"), memoryview(b"mid\x00dle")]


def test_nul_in_password_is_refused():
    """crypt(3) reads a C string: a password with a NUL byte would be hashed only up to it there, so every function
    refuses it (InvalidArgument), as passlib raises (a ValueError) rather than hash it."""
    good = shacrypt.hash(b"a", salt="salt", rounds=1000)
    for password in NUL_PASSWORDS:
        for call in (lambda: shacrypt.hash(password, salt="salt", rounds=1000),
                     lambda: shacrypt.verify(password, good),
                     lambda: shacrypt.hash_setting(password, "$5$rounds=1000$salt"),
                     lambda: shacrypt.hash_many([b"ok", password], "$6$rounds=1000$salt")):
            with pytest.raises(cryptaccel.InvalidArgument, match="NUL byte") as info:
                call()
            assert "\n" not in str(info.value)
    with pytest.raises(cryptaccel.InvalidArgument, match=r"passwords\[1\] contains a NUL"):
        shacrypt.hash_many([b"ok", b"n\x00"], "$6$rounds=1000$salt")
    assert shacrypt.hash(b"a\x01b", salt="salt", rounds=1000)  # every other byte is a password byte


@needs_passlib
def test_nul_in_password_is_refused_by_passlib_too():
    for password in NUL_PASSWORDS[:3]:
        with pytest.raises(ValueError):
            passlib_hash.sha512_crypt.using(salt="salt", rounds=1000).hash(password)


def _outside_alphabet() -> List[str]:
    """Salt characters crypt(3)'s alphabet lacks: the ones glibc treats specially and a seeded sample of the rest."""
    rng = random.Random(SEED + 4000)
    others = [chr(c) for c in range(256) if chr(c) not in ALPHABET]
    return sorted(set("$:\n\x00 !*_-+=é") | set(rng.sample(others, 12)))


def test_salt_outside_the_alphabet_is_refused():
    """Salts are crypt(3)'s alphabet ./0-9A-Za-z: any other character is refused (InvalidArgument naming it), as
    passlib refuses; every character of the alphabet is accepted, as a str or as bytes."""
    assert shacrypt.SALT_ALPHABET == ALPHABET
    for c in _outside_alphabet():
        for salt in ("ab" + c, c, c + "cd"):
            with pytest.raises(cryptaccel.InvalidArgument, match="outside crypt\\(3\\)'s alphabet") as info:
                shacrypt.hash(b"pw", salt=salt, rounds=1000)
            assert repr(c) in str(info.value) and "\n" not in str(info.value)
        with pytest.raises(cryptaccel.InvalidArgument):
            shacrypt.hash(b"pw", salt=("ab" + c).encode("latin-1"), rounds=1000)
    for i in range(0, len(ALPHABET), 16):
        salt = ALPHABET[i:i + 16]
        h = shacrypt.hash(b"pw", salt=salt, rounds=1000)
        assert h == shacrypt.hash(b"pw", salt=salt.encode("ascii"), rounds=1000)
        assert h == shacrypt.hash_setting(b"pw", "$6$rounds=1000$" + salt) and shacrypt.parse(h)["salt"] == salt


@needs_passlib
def test_salt_outside_the_alphabet_is_refused_by_passlib_too():
    for c in _outside_alphabet():
        if c in "\x00":
            continue
        with pytest.raises(ValueError):
            passlib_hash.sha256_crypt.using(salt="ab" + c, rounds=1000).hash(b"pw")
    for i in range(0, len(ALPHABET), 16):
        salt = ALPHABET[i:i + 16]
        assert shacrypt.hash(b"pw", salt=salt, rounds=1000, variant=256) == passlib_crypt(256, b"pw", salt, 1000)


def test_verify_takes_a_bytes_hash():
    """verify (and hash_setting, hash_many, parse) take a hash string as str or as ASCII bytes, as passlib does."""
    rng = random.Random(SEED + 5000)
    password = random_password(rng, rng.randrange(1, 60))
    for variant in (256, 512):
        salt = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 17)))
        h = shacrypt.hash(password, salt=salt, rounds=1000, variant=variant)
        for form in (h.encode("ascii"), bytearray(h.encode("ascii")), memoryview(h.encode("ascii"))):
            assert shacrypt.verify(password, form), (SEED, variant, salt)
            assert not shacrypt.verify(password + b"x", form)
            assert shacrypt.hash_setting(password, form) == h
            assert shacrypt.parse(form) == shacrypt.parse(h)
        assert shacrypt.hash_many([password], [h.encode("ascii")]) == [h]
        if passlib_hash is not None:
            cls = passlib_hash.sha512_crypt if variant == 512 else passlib_hash.sha256_crypt
            assert cls.verify(password, h.encode("ascii"))
    with pytest.raises(cryptaccel.InvalidArgument, match="non-ASCII"):
        shacrypt.verify(b"pw", "$6$sält$".encode("latin-1") + b"x" * 86)
    for bad in (None, 5, 1.5, ["$6$s$x"]):
        with pytest.raises(cryptaccel.InvalidArgumentType, match="str or bytes"):
            shacrypt.verify(b"pw", bad)


def test_variant_errors_say_what_is_accepted():
    accepted = "512 or 6 for sha512crypt '$6$', 256 or 5 for sha256crypt '$5$'"
    for variant, prefix in ((512, "$6$"), (6, "$6$"), (256, "$5$"), (5, "$5$")):
        assert shacrypt.hash(b"pw", salt="s", rounds=1000, variant=variant).startswith(prefix + "rounds=1000$s$")
    for bad in (384, 0, 1, 7, -512, 1 << 70):
        with pytest.raises(cryptaccel.InvalidArgument) as info:
            shacrypt.hash(b"pw", salt="s", variant=bad)
        assert str(bad) in str(info.value) and accepted in str(info.value)
    for bad in ("512", 512.0, None, True, "sha512"):
        with pytest.raises(cryptaccel.InvalidArgumentType) as info:
            shacrypt.hash(b"pw", salt="s", variant=bad)
        assert accepted in str(info.value)


def test_unknown_engine():
    with pytest.raises(cryptaccel.EngineUnavailable):
        shacrypt.hash(b"x", salt="s", engine="no-such-engine")


# --- cryptaccel speed -a sha512crypt,sha256crypt ------------------------------------------------------------------

def _speed(*args, env=None):
    cli = os.environ.get("CRYPTACCEL_CLI")
    if not cli:
        pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable")
    return subprocess.run([cli, "speed", *args], capture_output=True, text=True, env=env, timeout=300)


def test_speed_reports_hashes_per_second():
    import json
    r = _speed("-a", "sha512crypt,sha256crypt", "--engine", "ref,cpu", "--seconds", "0.05", "--batch", "4",
               "--json", "-")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    rows = {(x["algo"], x["engine"], x["batch"]) for x in doc["results"] if x["messages_per_second"]}
    for algo in ("sha512crypt", "sha256crypt"):
        for engine in ("ref", "cpu"):
            assert (algo, engine, None) in rows and (algo, engine, 4) in rows
    assert all(x["operation"] == "hash" for x in doc["results"])


def test_speed_check_catches_a_wrong_engine():
    env = dict(os.environ, CRYPTACCEL_SPEED_INJECT_MISMATCH="cpu")
    r = _speed("-a", "sha256crypt", "--engine", "cpu", "--seconds", "0.05", env=env)
    assert r.returncode != 0
    assert "sha256crypt [cpu]" in r.stderr and "differs from the ref engine" in r.stderr
    assert r.stderr.count("\n") == 1
