"""`cryptaccel pkeyutl` against `openssl pkeyutl` (OpenSSL 3.0), issue 23's items: -certin and the hint for a
certificate given to -pubin, -verifyrecover (byte-identical output), RSA-PSS keys (id-RSASSA-PSS, with and without
parameter restrictions), -keyform honoured (PEM or DER parser only; ENGINE, P12 refused), -pubin formats, and the
default PSS salt length when signing (openssl 3.0: the maximum). Where a result is randomised (PSS), the salt length,
hash and MGF1 hash of a signature are read back from it here (RFC 8017 9.1.2 in Python over the raw RSA value), so
that ours and openssl's are compared exactly. Keys are made once per module with openssl. $CRYPTACCEL_CLI is the
executable under test.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

import pytest

# The runners and the skips (no CLI, no openssl) of the base pkeyutl tests.
from test_cli_pkeyutl import CLI, OPENSSL, cli, ok, openssl, run

VERIFIED = b"Signature Verified Successfully\n"


def one_line_error(proc, needle):
    """An error as the CLI reports them: exit 1, nothing on stdout, one line on stderr containing `needle`."""
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b"", (proc.returncode, proc.stdout[:80], err)
    assert err.startswith("cryptaccel pkeyutl: ") and err.count("\n") == 1 and needle in err, err


@pytest.fixture(scope="module", autouse=True)
def _needs_pkeyutl():
    if run([CLI, "pkeyutl", "-help"]).returncode != 0:
        pytest.skip("this cryptaccel has no pkeyutl sub-command")


def _modulus(key_file) -> int:
    """n of a private key file (RSA or RSA-PSS), from openssl; the public exponent is checked to be 65537."""
    text = ok(run([OPENSSL, "pkey", "-in", key_file, "-noout", "-text"])).decode()
    assert "publicExponent: 65537" in text, text[:300]
    out = ok(run([OPENSSL, "rsa", "-in", key_file, "-noout", "-modulus"])).decode()
    return int(out.strip().split("=", 1)[1], 16)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("keys")
    k = {}

    def gen(name, algorithm, *opts):
        k[name] = d / f"{name}.pem"
        ok(run([OPENSSL, "genpkey", "-algorithm", algorithm, *opts, "-out", k[name]]), name)
        k[name + ".pub"] = d / f"{name}.pub.pem"
        ok(run([OPENSSL, "pkey", "-in", k[name], "-pubout", "-out", k[name + ".pub"]]))
        k[name + ".n"] = _modulus(k[name])

    for bits in (1024, 2048, 3072):
        gen(f"rsa{bits}", "RSA", "-pkeyopt", f"rsa_keygen_bits:{bits}")
    gen("pss0", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048")  # no restrictions
    gen("pss1", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048", "-pkeyopt", "rsa_pss_keygen_md:sha256",
        "-pkeyopt", "rsa_pss_keygen_mgf1_md:sha256", "-pkeyopt", "rsa_pss_keygen_saltlen:32")
    gen("pss2", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048", "-pkeyopt", "rsa_pss_keygen_md:sha384")  # MGF1 SHA-1, 20
    r = k["rsa2048"]
    k["der"] = d / "rsa2048.der"
    ok(run([OPENSSL, "pkey", "-in", r, "-outform", "DER", "-out", k["der"]]))
    k["pub.der"] = d / "rsa2048.pub.der"
    ok(run([OPENSSL, "pkey", "-in", r, "-pubout", "-outform", "DER", "-out", k["pub.der"]]))
    k["rsapub.der"] = d / "rsa2048.rsapub.der"
    ok(run([OPENSSL, "rsa", "-in", r, "-RSAPublicKey_out", "-outform", "DER", "-out", k["rsapub.der"]]))
    k["rsapub.pem"] = d / "rsa2048.rsapub.pem"
    ok(run([OPENSSL, "rsa", "-in", r, "-RSAPublicKey_out", "-out", k["rsapub.pem"]]))
    for name, key in (("cert", r), ("pss1.cert", k["pss1"])):
        k[name] = d / f"{name}.pem"
        ok(run([OPENSSL, "req", "-new", "-x509", "-key", key, "-subj", f"/CN={name}", "-days", "30", "-out", k[name]]))
        k[name + ".der"] = d / f"{name}.der"
        ok(run([OPENSSL, "x509", "-in", k[name], "-outform", "DER", "-out", k[name + ".der"]]))
    k["combo"] = d / "cert-and-key.pem"  # a certificate, then its key, in one PEM file
    k["combo"].write_bytes(k["cert"].read_bytes() + r.read_bytes())
    k["ec"] = d / "ec.pem"
    ok(run([OPENSSL, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", k["ec"]]))
    return k


@pytest.fixture
def msg(tmp_path):
    p = tmp_path / "msg.bin"
    p.write_bytes(os.urandom(1000))
    return p


# --- reading a PSS signature back ----------------------------------------------------------------------------------

def _mgf1(seed: bytes, length: int, md: str) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.new(md, seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:length]


def pss_salt(sig: bytes, n: int, message: bytes, md: str, mgf1_md: str):
    """The salt length of a valid EMSA-PSS signature of `message` with hash `md` and MGF1 `mgf1_md` (RFC 8017 9.1.2
    with any salt length), or None when it is not one. e = 65537."""
    mod_bits = n.bit_length()
    em_bits = mod_bits - 1
    em_len = (em_bits + 7) // 8
    m = pow(int.from_bytes(sig, "big"), 65537, n)
    if m.bit_length() > em_bits:
        return None
    em = m.to_bytes(em_len, "big")
    hlen = hashlib.new(md).digest_size
    if em[-1] != 0xBC or em_len < hlen + 2:
        return None
    masked_db, h = em[:em_len - hlen - 1], em[em_len - hlen - 1:-1]
    db = bytearray(a ^ b for a, b in zip(masked_db, _mgf1(h, len(masked_db), mgf1_md)))
    db[0] &= 0xFF >> (8 * em_len - em_bits)
    sep = next((i for i, b in enumerate(db) if b != 0), None)
    if sep is None or db[sep] != 0x01:
        return None
    salt = bytes(db[sep + 1:])
    m_hash = hashlib.new(md, message).digest()
    if hashlib.new(md, b"\0" * 8 + m_hash + salt).digest() != h:
        return None
    return len(salt)


def max_salt(n: int, md: str) -> int:
    return (n.bit_length() - 1 + 7) // 8 - hashlib.new(md).digest_size - 2


# --- the default PSS salt length ---------------------------------------------------------------------------------

@pytest.mark.parametrize("bits, digest", [(1024, "sha256"), (2048, "sha256"), (2048, "sha512"), (3072, "sha384")])
def test_default_pss_salt_is_openssls_maximum(keys, msg, tmp_path, bits, digest):
    k = f"rsa{bits}"
    opts = ["-rawin", "-digest", digest, "-pkeyopt", "rsa_padding_mode:pss"]
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ok(cli("-sign", "-inkey", keys[k], *opts, "-in", msg, "-out", ours))
    ok(openssl("-sign", "-inkey", keys[k], *opts, "-in", msg, "-out", theirs))
    n, data = keys[k + ".n"], msg.read_bytes()
    expected = max_salt(n, digest)
    assert pss_salt(theirs.read_bytes(), n, data, digest, digest) == expected  # what openssl 3.0 does
    assert pss_salt(ours.read_bytes(), n, data, digest, digest) == expected
    explicit = [*opts, "-pkeyopt", f"rsa_pss_saltlen:{expected}"]
    assert ok(openssl("-verify", "-pubin", "-inkey", keys[k + ".pub"], *explicit, "-in", msg, "-sigfile", ours)) == \
        VERIFIED
    digest_len = [*opts, "-pkeyopt", "rsa_pss_saltlen:digest"]
    assert openssl("-verify", "-pubin", "-inkey", keys[k + ".pub"], *digest_len, "-in", msg, "-sigfile", ours) \
        .returncode == 1


# --- -certin and -pubin ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cert", ["cert", "cert.der"])
def test_certin_verify_encrypt_and_recover(keys, msg, tmp_path, cert):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-certin", "-inkey", keys[cert]]
    assert ok(cli("-verify", *args, "-rawin", "-in", msg, "-sigfile", sig)) == \
        ok(openssl("-verify", *args, "-rawin", "-in", msg, "-sigfile", sig)) == VERIFIED
    assert ok(cli("-verifyrecover", *args, "-in", sig)) == ok(openssl("-verifyrecover", *args, "-in", sig))
    pt = tmp_path / "pt"
    pt.write_bytes(b"for the certificate's owner")
    ct = tmp_path / "ct"
    ok(cli("-encrypt", *args, "-pkeyopt", "rsa_padding_mode:oaep", "-in", pt, "-out", ct))
    assert ok(openssl("-decrypt", "-inkey", keys["rsa2048"], "-pkeyopt", "rsa_padding_mode:oaep", "-in", ct)) == \
        pt.read_bytes()


@pytest.mark.parametrize("order, key", [
    (["-pubin", "-certin"], "cert"),
    (["-certin", "-pubin"], "cert"),
    (["-certin", "-pubin"], "rsa2048.pub"),
    (["-pubin", "-certin"], "rsa2048.pub"),
])
def test_last_of_pubin_and_certin_wins_as_in_openssl(keys, msg, tmp_path, order, key):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-verify", *order, "-inkey", keys[key], "-rawin", "-in", msg, "-sigfile", sig]
    ours, theirs = cli(*args), openssl(*args)
    assert (ours.returncode == 0) == (theirs.returncode == 0), (ours.stderr, theirs.stderr)
    if theirs.returncode == 0:
        assert ours.stdout == theirs.stdout == VERIFIED


@pytest.mark.parametrize("cert", ["cert", "cert.der"])
def test_a_certificate_given_to_pubin_gets_the_hint(keys, msg, tmp_path, cert):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-verify", "-pubin", "-inkey", keys[cert], "-rawin", "-in", msg, "-sigfile", sig]
    assert openssl(*args).returncode != 0
    one_line_error(cli(*args), "(use -certin for a certificate)")
    # and to no option at all (a private key expected)
    one_line_error(cli("-sign", "-inkey", keys[cert], "-rawin", "-in", msg), "(use -certin for a certificate)")


@pytest.mark.parametrize("args, needle", [
    (["-sign", "-certin"], "needs a private key (not -certin)"),
    (["-decrypt", "-certin"], "needs a private key (not -certin)"),
    (["-verify", "-certin", "-passin", "pass:x"], "-passin is for private keys (not with -certin)"),
])
def test_certin_refusals(keys, msg, args, needle):
    full = [*args, "-inkey", keys["cert"], "-in", msg]
    if "-verify" in args:
        full += ["-sigfile", msg]
    one_line_error(cli(*full), needle)


@pytest.mark.parametrize("key", ["rsa2048.pub", "pub.der", "rsapub.der", "rsapub.pem"])
def test_pubin_formats(keys, msg, tmp_path, key):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-verify", "-pubin", "-inkey", keys[key], "-rawin", "-in", msg, "-sigfile", sig]
    assert ok(cli(*args), key) == ok(openssl(*args), key) == VERIFIED


@pytest.mark.parametrize("key", ["rsa2048", "der"])
def test_pubin_with_a_private_key_is_refused_as_in_openssl(keys, msg, tmp_path, key):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-verify", "-pubin", "-inkey", keys[key], "-rawin", "-in", msg, "-sigfile", sig]
    assert openssl(*args).returncode != 0
    one_line_error(cli(*args), "it holds a private key (leave out -pubin)")


def test_pem_with_a_certificate_and_its_key(keys, msg, tmp_path):
    expected = ok(openssl("-sign", "-inkey", keys["combo"], "-rawin", "-in", msg))
    assert ok(cli("-sign", "-inkey", keys["combo"], "-rawin", "-in", msg)) == expected
    sig = tmp_path / "sig"
    sig.write_bytes(expected)
    for tool in (cli, openssl):
        assert ok(tool("-verify", "-certin", "-inkey", keys["combo"], "-rawin", "-in", msg, "-sigfile", sig)) == VERIFIED


def test_not_an_rsa_key(keys, msg):
    one_line_error(cli("-sign", "-inkey", keys["ec"], "-rawin", "-in", msg), "not an RSA key (EC)")


# --- -keyform ----------------------------------------------------------------------------------------------------

KEYFORM_CASES = [  # (options, key, form): the parser -keyform names is the only one tried, as in openssl 3.0
    ([], "rsa2048", "PEM"), ([], "rsa2048", "DER"), ([], "der", "DER"), ([], "der", "PEM"),
    (["-pubin"], "rsa2048.pub", "PEM"), (["-pubin"], "rsa2048.pub", "DER"), (["-pubin"], "pub.der", "DER"),
    (["-pubin"], "pub.der", "PEM"), (["-pubin"], "rsapub.der", "DER"), (["-pubin"], "rsapub.pem", "PEM"),
    (["-certin"], "cert", "PEM"), (["-certin"], "cert", "DER"), (["-certin"], "cert.der", "DER"),
    (["-certin"], "cert.der", "PEM"),
]


@pytest.mark.parametrize("opts, key, form", KEYFORM_CASES)
def test_keyform_selects_the_parser(keys, msg, tmp_path, opts, key, form):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    if opts:
        args = ["-verify", *opts, "-rawin", "-in", msg, "-sigfile", sig]
    else:
        args = ["-sign", "-rawin", "-in", msg]
    args += ["-inkey", keys[key], "-keyform", form]
    ours, theirs = cli(*args), openssl(*args)
    assert (ours.returncode == 0) == (theirs.returncode == 0), (ours.stderr, theirs.stderr)
    if theirs.returncode == 0:
        assert ours.stdout == theirs.stdout  # the signature itself, or the verdict
    else:
        one_line_error(ours, f"-keyform {form} given, but the file")


@pytest.mark.parametrize("form, needle", [("ENGINE", "engines are not supported"), ("P12", "not supported"),
                                          ("foo", "is not PEM or DER")])
def test_keyform_refusals(keys, msg, form, needle):
    args = ["-sign", "-inkey", keys["rsa2048"], "-keyform", form, "-rawin", "-in", msg]
    assert openssl(*args).returncode != 0
    one_line_error(cli(*args), needle)


# --- -verifyrecover ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bits", [1024, 2048, 3072])
@pytest.mark.parametrize("digest", ["sha256", "sha1", "sha384", "sha512", "sha224"])
def test_verifyrecover_is_byte_identical_to_openssl(keys, msg, tmp_path, bits, digest):
    k = f"rsa{bits}"
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys[k], "-rawin", "-digest", digest, "-in", msg)))
    digest_info = ok(openssl("-verifyrecover", "-pubin", "-inkey", keys[k + ".pub"], "-in", sig))
    assert digest_info.endswith(hashlib.new(digest, msg.read_bytes()).digest())
    for key_args in (["-pubin", "-inkey", keys[k + ".pub"]], ["-inkey", keys[k]]):
        for opts in ([], ["-pkeyopt", f"digest:{digest}"], ["-pkeyopt", "rsa_padding_mode:none"],
                     ["-pkeyopt", "rsa_padding_mode:pkcs1"]):
            args = ["-verifyrecover", *key_args, *opts, "-in", sig]
            assert ok(cli(*args), str(opts)) == ok(openssl(*args), str(opts)), opts
    # our own signature, recovered by openssl
    ours = tmp_path / "ours"
    ok(cli("-sign", "-inkey", keys[k], "-rawin", "-digest", digest, "-in", msg, "-out", ours))
    assert ok(openssl("-verifyrecover", "-pubin", "-inkey", keys[k + ".pub"], "-in", ours)) == digest_info


def test_verifyrecover_failures_like_openssl(keys, msg, tmp_path):
    pub = ["-pubin", "-inkey", keys["rsa2048.pub"]]
    n = keys["rsa2048.n"]
    sig = tmp_path / "sig"
    good = ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg))
    cases = {
        "wrong digest": (good, ["-pkeyopt", "digest:sha384"]),
        "tampered": (bytes([good[0] ^ 0x40]) + good[1:], []),
        "not less than n": ((n + 1).to_bytes(256, "big"), ["-pkeyopt", "rsa_padding_mode:none"]),
        "longer than the key": (good + good, ["-pkeyopt", "rsa_padding_mode:none"]),
        "raw value without padding": ((2).to_bytes(256, "big"), []),
    }
    for what, (data, opts) in cases.items():
        sig.write_bytes(data)
        theirs = openssl("-verifyrecover", *pub, *opts, "-in", sig)
        assert theirs.returncode == 1, what
        one_line_error(cli("-verifyrecover", *pub, *opts, "-in", sig), "")
    # a number shorter than the key, as openssl takes it (leading zero bytes implied)
    for data in (good[1:], (2).to_bytes(1, "big"), b"\x00" * 255 + b"\x02"):
        sig.write_bytes(data)
        args = ["-verifyrecover", *pub, "-pkeyopt", "rsa_padding_mode:none", "-in", sig]
        assert ok(cli(*args)) == ok(openssl(*args))


@pytest.mark.parametrize("opts, needle", [
    (["-pkeyopt", "rsa_padding_mode:pss"], "use -verify"),
    (["-rawin"], "-rawin can only be used with -sign or -verify"),
    (["-pkeyopt", "rsa_padding_mode:none", "-pkeyopt", "digest:sha256"], "needs rsa_padding_mode:pkcs1"),
    (["-pkeyopt", "rsa_pss_saltlen:20"], "no PSS or OAEP settings"),
])
def test_verifyrecover_refusals_like_openssl(keys, msg, tmp_path, opts, needle):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    args = ["-verifyrecover", "-pubin", "-inkey", keys["rsa2048.pub"], *opts, "-in", sig]
    assert openssl(*args).returncode != 0
    one_line_error(cli(*args), needle)


def test_verifyrecover_refuses_oaep(keys, msg, tmp_path):
    # openssl 3.0 silently ignores rsa_padding_mode:oaep here and recovers with PKCS#1 v1.5: refused clearly instead
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    one_line_error(cli("-verifyrecover", "-pubin", "-inkey", keys["rsa2048.pub"], "-pkeyopt",
                       "rsa_padding_mode:oaep", "-in", sig), "is for encryption")


# --- RSA-PSS keys ------------------------------------------------------------------------------------------------

PSS_KEYS = {  # name: (hash, MGF1 hash, salt openssl signs with by default)
    "pss0": ("sha256", "sha256", None),  # unrestricted: as an RSA key with PSS padding (maximum salt)
    "pss1": ("sha256", "sha256", 32),
    "pss2": ("sha384", "sha1", 20),
}

PSS_SIGN_OPTIONS = [
    [], ["-digest", "sha384"], ["-digest", "sha256"], ["-pkeyopt", "rsa_pss_saltlen:20"],
    ["-pkeyopt", "rsa_pss_saltlen:40"], ["-pkeyopt", "rsa_pss_saltlen:max"], ["-pkeyopt", "rsa_pss_saltlen:auto"],
    ["-pkeyopt", "rsa_pss_saltlen:digest"], ["-pkeyopt", "rsa_mgf1_md:sha384"], ["-pkeyopt", "rsa_mgf1_md:sha1"],
    ["-pkeyopt", "rsa_padding_mode:pkcs1"], ["-pkeyopt", "rsa_padding_mode:pss"],
]


def _signed_with(sig: bytes, n: int, message: bytes):
    """(hash, MGF1 hash, salt length) of a PSS signature, tried over the hashes these tests use."""
    found = [(md, mgf, salt) for md in ("sha256", "sha384", "sha1") for mgf in ("sha256", "sha384", "sha1")
             if (salt := pss_salt(sig, n, message, md, mgf)) is not None]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("key", sorted(PSS_KEYS))
@pytest.mark.parametrize("opts", PSS_SIGN_OPTIONS, ids=lambda o: " ".join(o) or "defaults")
def test_rsa_pss_key_signs_as_openssl(keys, msg, tmp_path, key, opts):
    """Every setting is accepted or refused as openssl does, and a signature has openssl's hash, MGF1 hash and salt
    length; openssl verifies ours with the key, and we verify openssl's."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    args = ["-sign", "-inkey", keys[key], "-rawin", *opts, "-in", msg]
    o = cli(*args, "-out", ours)
    t = openssl(*args, "-out", theirs)
    assert (o.returncode == 0) == (t.returncode == 0), (o.stderr, t.stderr)
    if t.returncode != 0:
        one_line_error(o, "")
        return
    n, data = keys[key + ".n"], msg.read_bytes()
    assert _signed_with(ours.read_bytes(), n, data) == _signed_with(theirs.read_bytes(), n, data)
    md, mgf, salt = _signed_with(ours.read_bytes(), n, data)
    if not opts:
        default = PSS_KEYS[key]
        assert (md, mgf) == default[:2] and salt == (default[2] if default[2] is not None else max_salt(n, md))
    verify = ["-verify", "-pubin", "-inkey", keys[key + ".pub"], "-rawin", "-digest", md, "-pkeyopt",
              f"rsa_mgf1_md:{mgf}", "-pkeyopt", f"rsa_pss_saltlen:{salt}", "-in", msg]
    for tool in (cli, openssl):
        for sig in (ours, theirs):
            assert ok(tool(*verify, "-sigfile", sig), f"{tool.__name__} {sig.name}") == VERIFIED


@pytest.mark.parametrize("salt", [32, 40, 222])
@pytest.mark.parametrize("verify_opts", [[], ["-pkeyopt", "rsa_pss_saltlen:32"], ["-pkeyopt", "rsa_pss_saltlen:40"],
                                         ["-pkeyopt", "rsa_pss_saltlen:auto"], ["-pkeyopt", "rsa_pss_saltlen:max"],
                                         ["-pkeyopt", "rsa_pss_saltlen:20"]], ids=lambda o: " ".join(o) or "defaults")
def test_rsa_pss_key_restrictions_when_verifying(keys, msg, tmp_path, salt, verify_opts):
    """A restricted key verifies with its minimum salt unless told (openssl 3.0), refuses auto and smaller salts."""
    sig = tmp_path / "sig"
    ok(openssl("-sign", "-inkey", keys["pss1"], "-rawin", "-pkeyopt", f"rsa_pss_saltlen:{salt}", "-in", msg,
               "-out", sig))
    for key_args in (["-pubin", "-inkey", keys["pss1.pub"]], ["-certin", "-inkey", keys["pss1.cert"]],
                     ["-inkey", keys["pss1"]]):
        args = ["-verify", *key_args, "-rawin", *verify_opts, "-in", msg, "-sigfile", sig]
        ours, theirs = cli(*args), openssl(*args)
        assert ours.returncode == theirs.returncode, (key_args, ours.stderr, theirs.stderr)
        if theirs.stdout.startswith(b"Signature Verif"):
            assert ours.stdout == theirs.stdout
        else:  # a refused setting
            one_line_error(ours, "")


def test_rsa_pss_key_prehashed(keys, tmp_path):
    dgst = tmp_path / "dgst"
    dgst.write_bytes(hashlib.sha256(b"prehashed").digest())
    for key, opts, accepted in (("pss1", [], True), ("pss0", [], False), ("pss0", ["-pkeyopt", "digest:sha256"], True),
                                ("pss1", ["-pkeyopt", "digest:sha384"], False)):
        args = ["-sign", "-inkey", keys[key], *opts, "-in", dgst]
        ours, theirs = cli(*args), openssl(*args)
        assert (ours.returncode == 0) == (theirs.returncode == 0) == accepted, (key, opts, ours.stderr)
        if accepted:
            sig = tmp_path / "sig"
            sig.write_bytes(ours.stdout)
            assert ok(openssl("-verify", "-pubin", "-inkey", keys[key + ".pub"], "-pkeyopt", "digest:sha256",
                              "-pkeyopt", "rsa_pss_saltlen:auto" if key == "pss0" else "rsa_pss_saltlen:32",
                              "-in", dgst, "-sigfile", sig)) == VERIFIED


@pytest.mark.parametrize("key", ["pss0", "pss1"])
@pytest.mark.parametrize("op", ["-encrypt", "-decrypt", "-verifyrecover"])
def test_rsa_pss_key_refuses_encryption_and_recovery(keys, tmp_path, key, op):
    data = tmp_path / "data"
    data.write_bytes(b"x" * (256 if op != "-encrypt" else 10))
    args = [op, "-inkey", keys[key], "-in", data]
    assert openssl(*args).returncode != 0
    one_line_error(cli(*args), "RSA-PSS")


# --- --batch -----------------------------------------------------------------------------------------------------

def test_batch_certin_verifyrecover_and_rsa_pss(keys, msg, tmp_path):
    sig = tmp_path / "sig"
    sig.write_bytes(ok(openssl("-sign", "-inkey", keys["rsa2048"], "-rawin", "-in", msg)))
    lines = [
        {"op": "verify", "inkey": str(keys["cert"]), "certin": True, "in": str(msg), "rawin": True,
         "sigfile": str(sig)},
        {"op": "verifyrecover", "inkey": str(keys["rsa2048.pub"]), "pubin": True, "in": str(sig)},
        {"op": "verifyrecover", "inkey": str(keys["cert.der"]), "certin": True, "keyform": "DER", "in": str(sig),
         "pkeyopt": ["digest:sha256"]},
        {"op": "sign", "inkey": str(keys["pss1"]), "in": str(msg), "rawin": True, "out": str(tmp_path / "pss.sig")},
        {"op": "verify", "inkey": str(keys["cert"]), "pubin": True, "in": str(msg), "rawin": True,
         "sigfile": str(sig)},
    ]
    manifest = tmp_path / "m.jsonl"
    manifest.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    proc = cli("--batch", manifest)
    results = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert proc.returncode == 1  # the last line: a certificate given as a public key
    assert [r["ok"] for r in results] == [True, True, True, True, False]
    assert results[0]["verified"] is True
    assert bytes.fromhex(results[1]["out_hex"]) == ok(openssl("-verifyrecover", "-pubin", "-inkey",
                                                              keys["rsa2048.pub"], "-in", sig))
    assert bytes.fromhex(results[2]["out_hex"]) == hashlib.sha256(msg.read_bytes()).digest()
    assert pss_salt((tmp_path / "pss.sig").read_bytes(), keys["pss1.n"], msg.read_bytes(), "sha256", "sha256") == 32
    assert "(use -certin for a certificate)" in results[4]["error"]
    manifest.write_text(json.dumps({**lines[0], "pubin": True}) + "\n")
    proc = cli("--batch", manifest)
    assert proc.returncode == 1 and re.search(r'both "pubin" and "certin"', proc.stderr.decode())
