"""`cryptaccel pkeyutl` against `openssl pkeyutl`: byte-identical PKCS#1 v1.5 signatures, cross-verification both
ways for PSS, cross-decryption both ways for OAEP and PKCS#1 v1.5, openssl's verify messages and exit codes, key
formats (PKCS#1, PKCS#8, encrypted PKCS#8 with -passin, DER, -pubin SPKI and PKCS#1), one-line errors with nothing
written, and --batch manifests. Keys are fresh (openssl genpkey), one per size for the module; 4096 only for a few
operations. The executable under test is $CRYPTACCEL_CLI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)
OPENSSL = shutil.which("openssl")
if not OPENSSL:
    pytest.skip("openssl is not installed", allow_module_level=True)
TIMEOUT = 120


def run(args, stdin=None):
    return subprocess.run([str(a) for a in args], input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                          capture_output=True, timeout=TIMEOUT)


def ok(proc, what=""):
    assert proc.returncode == 0, f"{what}: exit {proc.returncode}, stderr {proc.stderr.decode(errors='replace')!r}"
    return proc.stdout


def cli(*args, stdin=None):
    return run([CLI, "pkeyutl", *args], stdin)


def openssl(*args, stdin=None):
    return run([OPENSSL, "pkeyutl", *args], stdin)


def has_rsa_cli() -> bool:
    proc = run([CLI, "pkeyutl", "-help"])
    return proc.returncode == 0


@pytest.fixture(scope="module", autouse=True)
def _needs_pkeyutl():
    if not has_rsa_cli():
        pytest.skip("this cryptaccel has no pkeyutl sub-command")


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """{bits: dict(priv=PKCS#8 PEM, pub=SPKI PEM, ...)} for 1024, 2048, 3072 and 4096 bits."""
    d = tmp_path_factory.mktemp("keys")
    out = {}
    for bits in (1024, 2048, 3072, 4096):
        k = {"priv": d / f"k{bits}.pem", "pub": d / f"k{bits}.pub.pem"}
        ok(run([OPENSSL, "genpkey", "-algorithm", "RSA", "-pkeyopt", f"rsa_keygen_bits:{bits}", "-out", k["priv"]]))
        ok(run([OPENSSL, "pkey", "-in", k["priv"], "-pubout", "-out", k["pub"]]))
        out[bits] = k
    k = out[2048]
    k["pkcs1"] = d / "k2048.pkcs1.pem"
    ok(run([OPENSSL, "rsa", "-in", k["priv"], "-traditional", "-out", k["pkcs1"]]))
    k["der"] = d / "k2048.der"
    ok(run([OPENSSL, "pkey", "-in", k["priv"], "-outform", "DER", "-out", k["der"]]))
    k["enc"] = d / "k2048.enc.pem"
    ok(run([OPENSSL, "pkcs8", "-topk8", "-in", k["priv"], "-v2", "aes-256-cbc", "-passout", "pass:hunter2",
            "-out", k["enc"]]))
    k["pub_pkcs1"] = d / "k2048.rsapub.pem"
    ok(run([OPENSSL, "rsa", "-in", k["priv"], "-RSAPublicKey_out", "-out", k["pub_pkcs1"]]))
    k["pub_der"] = d / "k2048.pub.der"
    ok(run([OPENSSL, "pkey", "-in", k["priv"], "-pubout", "-outform", "DER", "-out", k["pub_der"]]))
    return out


@pytest.fixture
def msg(tmp_path):
    p = tmp_path / "msg.bin"
    p.write_bytes(os.urandom(1000))
    return p


ENGINES = ["auto", "ref", "cpu"]


def _engine(engine):
    """--engine ENGINE, or a skip when `cryptaccel engines` does not list it as available here (asked of the CLI under
    test, not of the Python extension, which this test does not need)."""
    if engine != "auto":
        listing = ok(run([CLI, "engines"]), "cryptaccel engines").decode()
        if not re.search(rf"^{re.escape(engine)}\s+available\b", listing, re.M):
            pytest.skip(f"engine {engine} is not available here: {listing!r}")
    return ["--engine", engine]


# --- PKCS#1 v1.5 signatures: byte-identical ------------------------------------------------------------------------

@pytest.mark.parametrize("bits", [1024, 2048, 3072, 4096])
@pytest.mark.parametrize("digest", ["sha256", "sha384", "sha512", "sha224", "sha1"])
def test_pkcs1_sign_is_byte_identical_to_openssl(keys, msg, tmp_path, bits, digest):
    if bits == 4096 and digest != "sha256":
        pytest.skip("4096-bit keys: sha256 only (CI time)")
    k = keys[bits]
    ours = ok(cli("-sign", "-inkey", k["priv"], "-rawin", "-digest", digest, "-in", msg), "cryptaccel sign")
    theirs = ok(openssl("-sign", "-inkey", k["priv"], "-rawin", "-digest", digest, "-in", msg), "openssl sign")
    assert ours == theirs
    sig = tmp_path / "sig"
    sig.write_bytes(ours)
    out = ok(cli("-verify", "-pubin", "-inkey", k["pub"], "-rawin", "-digest", digest, "-in", msg, "-sigfile", sig))
    assert out == b"Signature Verified Successfully\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_prehashed_sign_and_every_engine(keys, tmp_path, engine):
    import hashlib
    k = keys[2048]
    dgst = tmp_path / "dgst"
    dgst.write_bytes(hashlib.sha256(b"hello").digest())
    ours = ok(cli("-sign", "-inkey", k["priv"], "-pkeyopt", "digest:sha256", "-in", dgst, *_engine(engine)))
    theirs = ok(openssl("-sign", "-inkey", k["priv"], "-pkeyopt", "digest:sha256", "-in", dgst))
    assert ours == theirs
    proc = cli("-sign", "-inkey", k["priv"], "-in", dgst)
    assert proc.returncode == 1 and b"digest" in proc.stderr and proc.stdout == b""


# --- PSS: mutually verifiable -------------------------------------------------------------------------------------

@pytest.mark.parametrize("saltlen", [None, "digest", "max", "auto", "0", "17"])
def test_pss_cross_verification(keys, msg, tmp_path, saltlen):
    k = keys[2048]
    opts = ["-rawin", "-digest", "sha256", "-pkeyopt", "rsa_padding_mode:pss"]
    sign_opts = opts + ([] if saltlen is None else ["-pkeyopt", f"rsa_pss_saltlen:{saltlen}"])
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ok(cli("-sign", "-inkey", k["priv"], *sign_opts, "-in", msg, "-out", ours))
    ok(openssl("-sign", "-inkey", k["priv"], *sign_opts, "-in", msg, "-out", theirs))
    assert ours.read_bytes() != theirs.read_bytes() or saltlen == "0"
    for tool in (cli, openssl):
        for sig in (ours, theirs):
            verify_opts = sign_opts if saltlen not in (None, "auto") else opts  # openssl verifies auto by default
            out = ok(tool("-verify", "-pubin", "-inkey", k["pub"], *verify_opts, "-in", msg, "-sigfile", sig),
                     f"{tool.__name__} verify {sig.name}")
            assert out == b"Signature Verified Successfully\n"


def test_pss_with_other_mgf1_digest(keys, msg, tmp_path):
    k = keys[3072]
    opts = ["-rawin", "-digest", "sha384", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_mgf1_md:sha256",
            "-pkeyopt", "rsa_pss_saltlen:20"]
    sig = tmp_path / "sig"
    ok(cli("-sign", "-inkey", k["priv"], *opts, "-in", msg, "-out", sig))
    assert ok(openssl("-verify", "-pubin", "-inkey", k["pub"], *opts, "-in", msg, "-sigfile", sig)) == \
        b"Signature Verified Successfully\n"


def test_verify_failure_is_exit_1_like_openssl(keys, msg, tmp_path):
    k = keys[2048]
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", k["priv"], "-rawin", "-in", msg)))
    bad = bytearray(sig.read_bytes())
    bad[10] ^= 1
    sig.write_bytes(bytes(bad))
    ours = cli("-verify", "-pubin", "-inkey", k["pub"], "-rawin", "-in", msg, "-sigfile", sig)
    theirs = openssl("-verify", "-pubin", "-inkey", k["pub"], "-rawin", "-in", msg, "-sigfile", sig)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stdout == theirs.stdout == b"Signature Verification Failure\n"
    # a private key serves for verification too, as in openssl
    sig.write_bytes(ok(cli("-sign", "-inkey", k["priv"], "-rawin", "-in", msg)))
    assert ok(cli("-verify", "-inkey", k["priv"], "-rawin", "-in", msg, "-sigfile", sig)) == \
        b"Signature Verified Successfully\n"


# --- encryption: cross-decryption ----------------------------------------------------------------------------------

ENC_SETTINGS = [
    ["-pkeyopt", "rsa_padding_mode:pkcs1"],
    ["-pkeyopt", "rsa_padding_mode:oaep"],  # SHA-1, openssl's default
    ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256"],
    ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha512", "-pkeyopt", "rsa_mgf1_md:sha256",
     "-pkeyopt", "rsa_oaep_label:0011223344"],
]


@pytest.mark.parametrize("setting", range(len(ENC_SETTINGS)))
def test_encryption_both_ways(keys, tmp_path, setting):
    k = keys[2048]
    opts = ENC_SETTINGS[setting]
    pt = tmp_path / "pt"
    pt.write_bytes(os.urandom(60))
    ours, theirs = tmp_path / "ours.ct", tmp_path / "theirs.ct"
    ok(cli("-encrypt", "-pubin", "-inkey", k["pub"], *opts, "-in", pt, "-out", ours))
    ok(openssl("-encrypt", "-pubin", "-inkey", k["pub"], *opts, "-in", pt, "-out", theirs))
    assert len(ours.read_bytes()) == 256
    assert ok(openssl("-decrypt", "-inkey", k["priv"], *opts, "-in", ours)) == pt.read_bytes()
    assert ok(cli("-decrypt", "-inkey", k["priv"], *opts, "-in", theirs)) == pt.read_bytes()


def test_decrypt_failure_writes_nothing(keys, tmp_path):
    k = keys[2048]
    ct = tmp_path / "ct"
    ct.write_bytes(os.urandom(256))
    out = tmp_path / "out"
    out.write_bytes(b"old content")
    proc = cli("-decrypt", "-inkey", k["priv"], "-pkeyopt", "rsa_padding_mode:oaep", "-in", ct, "-out", out)
    assert proc.returncode == 1
    assert proc.stderr == b"cryptaccel pkeyutl: decryption failed: invalid ciphertext\n"
    assert out.read_bytes() == b"old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ct", "out"]  # no temporary file left


# --- keys --------------------------------------------------------------------------------------------------------

def test_key_formats(keys, msg, tmp_path, monkeypatch):
    k = keys[2048]
    expected = ok(openssl("-sign", "-inkey", k["priv"], "-rawin", "-in", msg))
    for form in ("priv", "pkcs1", "der"):
        assert ok(cli("-sign", "-inkey", k[form], "-rawin", "-in", msg), form) == expected
    assert ok(cli("-sign", "-inkey", k["enc"], "-passin", "pass:hunter2", "-rawin", "-in", msg)) == expected
    monkeypatch.setenv("CRYPTACCEL_TEST_KEYPASS", "hunter2")
    assert ok(cli("-sign", "-inkey", k["enc"], "-passin", "env:CRYPTACCEL_TEST_KEYPASS", "-rawin", "-in", msg)) == expected
    pw = tmp_path / "pw"
    pw.write_text("hunter2\n")
    assert ok(cli("-sign", "-inkey", k["enc"], "-passin", f"file:{pw}", "-rawin", "-in", msg)) == expected
    sig = tmp_path / "sig"
    sig.write_bytes(expected)
    for form in ("pub", "pub_pkcs1", "pub_der"):
        assert ok(cli("-verify", "-pubin", "-inkey", k[form], "-rawin", "-in", msg, "-sigfile", sig), form) == \
            b"Signature Verified Successfully\n"
    for args, needle in (
        (["-inkey", k["enc"], "-passin", "pass:wrong"], b"cannot load private key"),
        (["-inkey", k["enc"]], b"-passin"),
        (["-inkey", k["pub"]], b"-pubin"),
        (["-inkey", tmp_path / "missing.pem"], b"missing.pem"),
    ):
        proc = cli("-sign", *args, "-rawin", "-in", msg)
        assert proc.returncode == 1 and proc.stdout == b"", proc.stderr
        assert proc.stderr.count(b"\n") == 1 and needle in proc.stderr, proc.stderr


# --- usage errors --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["-sign", "-verify"], "only one of"),
    (["-frobnicate"], "unknown option"),
    (["-derive"], "not supported"),
    (["-sign", "-digest", "sha256"], "-rawin"),
    (["-sign", "-rawin", "-digest", "md5"], "md5"),
    (["-sign", "-pkeyopt", "rsa_padding_mode:x931"], "x931"),
    (["-sign", "-pkeyopt", "nonsense"], "NAME:VALUE"),
    (["-verify", "-rawin"], "-sigfile"),
    (["-sign", "-rawin"], "-inkey"),
    (["-in"], "needs a value"),
])
def test_usage_errors_are_one_line(args, needle):
    proc = cli(*args)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b""
    assert err.startswith("cryptaccel pkeyutl: ") and err.count("\n") == 1 and needle in err, err


def test_bad_settings_for_the_key(keys, msg):
    proc = cli("-sign", "-inkey", keys[1024]["priv"], "-rawin", "-digest", "sha512", "-pkeyopt",
               "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:100", "-in", msg)
    assert proc.returncode == 1 and b"too long" in proc.stderr and proc.stderr.count(b"\n") == 1
    proc = cli("-encrypt", "-pubin", "-inkey", keys[1024]["pub"], "-in", msg)  # 1000 bytes into a 1024-bit key
    assert proc.returncode == 1 and proc.stdout == b"" and proc.stderr.count(b"\n") == 1


def test_help():
    out = ok(cli("-help")).decode()
    for word in ("-sign", "-verify", "-encrypt", "-decrypt", "-pkeyopt", "rsa_pss_saltlen", "--batch"):
        assert word in out


# --- --batch -------------------------------------------------------------------------------------------------------

def test_batch_pss_salt_words_per_line_and_key(keys, tmp_path):
    """PSS lines with different rsa_pss_saltlen words and keys of two sizes in one manifest: each line signs with its
    own word, resolved for its own key (lines with one word but different key sizes share a batch call), and openssl
    verifies each signature with exactly that salt length."""
    m = tmp_path / "m"
    m.write_bytes(os.urandom(100))
    words = ["max", "digest", "20", "auto", "max", "digest"]
    lines = []
    for i, word in enumerate(words):
        k = keys[2048] if i < 3 else keys[3072]
        lines.append({"op": "sign", "inkey": str(k["priv"]), "in": str(m), "rawin": True,
                      "pkeyopt": ["rsa_padding_mode:pss", f"rsa_pss_saltlen:{word}"], "out": str(tmp_path / f"s{i}")})
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("\n".join(json.dumps(l) for l in lines) + "\n")
    proc = cli("--batch", manifest)
    assert proc.returncode == 0, proc.stderr
    for i, word in enumerate(words):
        bits = 2048 if i < 3 else 3072
        exact = {"max": str(bits // 8 - 32 - 2), "auto": str(bits // 8 - 32 - 2), "digest": "32"}.get(word, word)
        k = keys[bits]
        verified = openssl("-verify", "-pubin", "-inkey", k["pub"], "-rawin", "-in", m, "-sigfile", tmp_path / f"s{i}",
                           "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", f"rsa_pss_saltlen:{exact}")
        assert verified.returncode == 0 and verified.stdout == b"Signature Verified Successfully\n", (word, bits)


def test_batch_manifest(keys, tmp_path):
    k2, k3 = keys[2048], keys[3072]
    msgs = []
    for i in range(6):
        p = tmp_path / f"m{i}"
        p.write_bytes(os.urandom(50 + i))
        msgs.append(p)
    lines = []
    for i, m in enumerate(msgs):  # PKCS#1 signatures with two keys, mixed in one manifest
        k = k2 if i % 2 == 0 else k3
        lines.append({"op": "sign", "inkey": str(k["priv"]), "in": str(m), "rawin": True, "out": str(m) + ".sig"})
    lines.append({"op": "sign", "inkey": str(k2["priv"]), "in_hex": "00ff", "rawin": True, "digest": "sha384"})
    lines.append({"op": "sign", "inkey": str(k2["priv"]), "in": str(msgs[0]), "rawin": True,
                  "pkeyopt": ["rsa_padding_mode:pss"], "out": str(tmp_path / "pss.sig")})
    pt = tmp_path / "pt"
    pt.write_bytes(b"secret message")
    ct = tmp_path / "ct"
    ok(openssl("-encrypt", "-pubin", "-inkey", k2["pub"], "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt",
               "rsa_oaep_md:sha256", "-in", pt, "-out", ct))
    oaep = ["rsa_padding_mode:oaep", "rsa_oaep_md:sha256"]
    lines.append({"op": "decrypt", "inkey": str(k2["priv"]), "in": str(ct), "pkeyopt": oaep, "out": str(tmp_path / "pt2")})
    lines.append({"op": "decrypt", "inkey": str(k2["priv"]), "in_hex": "00" * 256, "pkeyopt": oaep,
                  "out": str(tmp_path / "never")})
    lines.append({"op": "encrypt", "inkey": str(k2["pub"]), "pubin": True, "in": str(pt), "pkeyopt": oaep,
                  "out": str(tmp_path / "ct2")})
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("# a comment\n\n" + "\n".join(json.dumps(l) for l in lines) + "\n")

    proc = cli("--batch", manifest, "--engine", "auto")
    results = [json.loads(l) for l in proc.stdout.decode().splitlines()]
    assert proc.returncode == 1, proc.stderr  # one decryption fails
    assert [r["line"] for r in results] == list(range(3, 3 + len(lines)))
    assert [r["ok"] for r in results] == [True] * 9 + [False, True]
    assert results[9]["error"] == "decryption failed: invalid ciphertext"
    assert not (tmp_path / "never").exists()
    for i, m in enumerate(msgs):
        k = k2 if i % 2 == 0 else k3
        assert Path(str(m) + ".sig").read_bytes() == ok(openssl("-sign", "-inkey", k["priv"], "-rawin", "-in", m))
    h = tmp_path / "h"
    h.write_bytes(b"\x00\xff")
    assert bytes.fromhex(results[6]["out_hex"]) == ok(openssl("-sign", "-inkey", k2["priv"], "-rawin", "-digest",
                                                              "sha384", "-in", h))
    assert ok(openssl("-verify", "-pubin", "-inkey", k2["pub"], "-rawin", "-pkeyopt", "rsa_padding_mode:pss",
                      "-in", msgs[0], "-sigfile", tmp_path / "pss.sig")) == b"Signature Verified Successfully\n"
    assert (tmp_path / "pt2").read_bytes() == b"secret message"
    assert ok(openssl("-decrypt", "-inkey", k2["priv"], "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt",
                      "rsa_oaep_md:sha256", "-in", tmp_path / "ct2")) == b"secret message"

    # verification lines, one with a wrong signature: exit 1, verified false for that line only
    vlines = [{"op": "verify", "inkey": str(k2["pub"]), "pubin": True, "in": str(msgs[0]), "rawin": True,
               "sigfile": str(msgs[0]) + ".sig"},
              {"op": "verify", "inkey": str(k3["pub"]), "pubin": True, "in": str(msgs[1]), "rawin": True,
               "sigfile": str(msgs[1]) + ".sig"},
              {"op": "verify", "inkey": str(k3["pub"]), "pubin": True, "in": str(msgs[0]), "rawin": True,
               "sigfile": str(msgs[1]) + ".sig"}]
    manifest.write_text("\n".join(json.dumps(l) for l in vlines) + "\n")
    proc = cli("--batch", manifest)
    results = [json.loads(l) for l in proc.stdout.decode().splitlines()]
    assert proc.returncode == 1
    assert [(r["ok"], r["verified"]) for r in results] == [(True, True), (True, True), (True, False)]
    manifest.write_text("\n".join(json.dumps(l) for l in vlines[:2]) + "\n")
    assert cli("--batch", manifest).returncode == 0


@pytest.mark.parametrize("line, needle", [
    ("not json", "not JSON"),
    ('{"op": "sign", "frob": 1}', "unknown field"),
    ('{"op": "sign"}', 'no "in"'),
    ('{"op": "verify", "in_hex": "00"}', "sigfile"),
    ('[1, 2]', "not a JSON object"),
    ('{"op": "sign", "in_hex": "00", "x": 1e999}', "not JSON"),  # a number beyond a double (found by fuzzing)
])
def test_malformed_manifest_runs_nothing(tmp_path, line, needle):
    manifest = tmp_path / "m.jsonl"
    manifest.write_text(line + "\n")
    proc = cli("--batch", manifest)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b""
    assert err.startswith("cryptaccel pkeyutl: manifest line 1: ") and err.count("\n") == 1, err
