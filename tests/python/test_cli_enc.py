"""Tests of `cryptaccel enc` / `cryptaccel dec` against independent implementations.

Non-AEAD, non-XTS ciphers are compared byte for byte with `openssl enc`; GCM and XTS with the Python `cryptography`
package. Keys, IVs and data are random: set CRYPTACCEL_TEST_SEED to replay a failure (the seed is in every message).
The executable under test is $CRYPTACCEL_CLI.
"""
import os
import random
import re
import shutil
import stat
import subprocess

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", random.SystemRandom().randrange(2**32)))
TIMEOUT = 60

LENGTHS = [0, 1, 15, 16, 17, 4096, 100003]


def rng(*tag):
    """A reproducible random source per test case."""
    return random.Random(f"{SEED}:" + ":".join(map(str, tag)))


def rbytes(r, n):
    return r.randbytes(n)


def key_size(cipher):
    family, *rest = cipher.split("-")
    if family == "sm4":
        return 16
    size = int(rest[0]) // 8
    return 2 * size if cipher.endswith("-xts") else size


def run(args, stdin=None):
    """Runs a command; stdin is bytes or None (then /dev/null)."""
    return subprocess.run(
        [str(a) for a in args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=TIMEOUT,
    )


def cli(*args, stdin=None):
    return run([CLI, *args], stdin)


def ok(proc, context=""):
    """Asserts success and returns stdout."""
    assert proc.returncode == 0, f"seed={SEED} {context}: exit {proc.returncode}, stderr: {proc.stderr!r}"
    return proc.stdout


def openssl_enc(*args, stdin=None):
    proc = run([OPENSSL, "enc", *args], stdin)
    assert proc.returncode == 0, f"openssl enc {args} failed: {proc.stderr!r}"
    return proc.stdout


def openssl_ciphers():
    listing = run([OPENSSL, "enc", "-list"]).stdout.decode()
    return set(listing.split())


_OPENSSL_LIST = openssl_ciphers()
OPENSSL_CIPHERS = [
    pytest.param(
        c,
        marks=pytest.mark.skipif(f"-{c}" not in _OPENSSL_LIST, reason=f"{OPENSSL} does not offer -{c}"),
    )
    for c in [f"aes-{b}-{m}" for b in (128, 192, 256) for m in ("ecb", "cbc", "ctr")] + ["sm4-ecb", "sm4-cbc", "sm4-ctr"]
]


def one_line_error(proc, command, context=""):
    """Asserts the failure contract: exit 1, nothing on stdout, exactly one stderr line naming the command."""
    err = proc.stderr.decode(errors="replace")
    where = f"seed={SEED} {context}"
    assert proc.returncode == 1, f"{where}: exit {proc.returncode}, stderr {err!r}"
    assert proc.stdout == b"", f"{where}: stdout not empty ({len(proc.stdout)} bytes)"
    assert err.endswith("\n") and err.count("\n") == 1, f"{where}: not exactly one stderr line: {err!r}"
    assert err.startswith(f"cryptaccel {command}: "), f"{where}: {err!r}"
    return err.rstrip("\n")


def iv_args(cipher, iv):
    return [] if cipher.endswith("-ecb") else ["-iv", iv.hex()]


# --- byte-identical to openssl enc --------------------------------------------------------------------------------


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("cipher", OPENSSL_CIPHERS)
def test_matches_openssl(tmp_path, cipher, length):
    r = rng("openssl", cipher, length)
    key, iv, pt = rbytes(r, key_size(cipher)), rbytes(r, 16), rbytes(r, length)
    ctx = f"{cipher} len={length} key={key.hex()} iv={iv.hex()}"
    common = [f"-{cipher}", "-K", key.hex(), *iv_args(cipher, iv)]
    pt_file, ct_file, out_file = tmp_path / "pt", tmp_path / "ct", tmp_path / "out"
    pt_file.write_bytes(pt)

    pad_modes = [[]]
    if length % 16 == 0 or cipher.endswith("-ctr"):
        pad_modes.append(["-nopad"])
    for pad in pad_modes:
        c = f"{ctx} {pad}"
        expected_ct = openssl_enc(*common, *pad, "-in", pt_file)
        ct_file.write_bytes(expected_ct)

        ok(cli("enc", *common, *pad, "-in", pt_file, "-out", out_file), c)
        assert out_file.read_bytes() == expected_ct, f"seed={SEED} {c}: enc via files differs from openssl"
        assert ok(cli("enc", *common, *pad, stdin=pt), c) == expected_ct, f"seed={SEED} {c}: enc via stdio differs"

        ok(cli("dec", *common, *pad, "-in", ct_file, "-out", out_file), c)
        assert out_file.read_bytes() == pt, f"seed={SEED} {c}: dec via files is not the plaintext"
        assert ok(cli("enc", "-d", *common, *pad, stdin=expected_ct), c) == pt, f"seed={SEED} {c}: dec via stdio"


def test_option_spellings_match_openssl(tmp_path):
    r = rng("spellings")
    key, iv, pt = rbytes(r, 32), rbytes(r, 16), rbytes(r, 1000)
    (tmp_path / "pt").write_bytes(pt)
    expected = openssl_enc("-aes-256-cbc", "-K", key.hex(), "-iv", iv.hex(), stdin=pt)
    spellings = [
        ["-cipher", "aes-256-cbc", "-K", key.hex(), "-iv", iv.hex()],
        ["--cipher=AES-256-CBC", "--key", key.hex(), "--iv", iv.hex()],
        ["--aes-256-cbc", f"--key={key.hex().upper()}", f"--iv={iv.hex()}", "-nosalt", "-e"],
    ]
    for i, args in enumerate(spellings):
        out = tmp_path / f"out{i}"
        ok(cli("enc", *args, "--in", tmp_path / "pt", "--out", out), args)
        assert out.read_bytes() == expected, f"seed={SEED} {args}"
        ok(cli("enc", *args, "-in", "-", "-out", "-", stdin=pt), args)
    assert ok(cli("dec", "-aes-256-cbc", "-K", key.hex(), "-iv", iv.hex(), "-e", stdin=pt)) == expected  # last wins


def test_ecb_ignores_iv_with_warning():
    r = rng("ecb-iv")
    key, iv, pt = rbytes(r, 16), rbytes(r, 16), rbytes(r, 40)
    proc = cli("enc", "-aes-128-ecb", "-K", key.hex(), "-iv", iv.hex(), stdin=pt)
    assert ok(proc) == openssl_enc("-aes-128-ecb", "-K", key.hex(), stdin=pt)
    assert proc.stderr.decode() == "cryptaccel enc: warning: iv not used by this cipher\n"


def test_replaces_existing_output_and_keeps_its_mode(tmp_path):
    r = rng("replace")
    key, iv, pt = rbytes(r, 16), rbytes(r, 16), rbytes(r, 333)
    src, out = tmp_path / "pt", tmp_path / "out"
    src.write_bytes(pt)
    out.write_bytes(b"old contents that are longer than nothing" * 100)
    os.chmod(out, 0o640)
    ok(cli("enc", "-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), "-in", src, "-out", out))
    assert out.read_bytes() == openssl_enc("-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), stdin=pt)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    # In place: the input is read completely before the output replaces it.
    ok(cli("dec", "-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), "-in", out, "-out", out))
    assert out.read_bytes() == pt
    assert sorted(os.listdir(tmp_path)) == ["out", "pt"]


def test_output_to_device_is_written_not_replaced():
    ok(cli("enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-out", os.devnull, stdin=b"abc"))
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# --- GCM ----------------------------------------------------------------------------------------------------------

try:
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
except ImportError:  # pragma: no cover
    Cipher = None

needs_cryptography = pytest.mark.skipif(Cipher is None, reason="the Python package `cryptography` is not installed")


def reference_gcm_encrypt(cipher, key, iv, pt, aad, tag_len):
    """ciphertext || tag from `cryptography`, or None when it lacks the algorithm or the IV length."""
    algorithm = algorithms.SM4(key) if cipher.startswith("sm4") else algorithms.AES(key)
    try:
        enc = Cipher(algorithm, modes.GCM(iv)).encryptor()
    except (UnsupportedAlgorithm, ValueError):
        return None
    if aad:
        enc.authenticate_additional_data(aad)
    ct = enc.update(pt) + enc.finalize()
    return ct + enc.tag[:tag_len]


GCM_CASES = [  # (plaintext length, IV length, AAD length, tag length)
    (0, 12, 0, 16),
    (1, 12, 20, 16),
    (16, 12, 0, 12),
    (17, 16, 1, 16),
    (4096, 12, 1000, 4),
    (100003, 60, 33, 13),
    (31, 8, 16, 8),
]


@needs_cryptography
@pytest.mark.parametrize("case", GCM_CASES, ids=lambda c: "pt{}-iv{}-aad{}-tag{}".format(*c))
@pytest.mark.parametrize("cipher", ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "sm4-gcm"])
def test_gcm_matches_cryptography(tmp_path, cipher, case):
    length, iv_len, aad_len, tag_len = case
    r = rng("gcm", cipher, *case)
    key, iv, pt, aad = rbytes(r, key_size(cipher)), rbytes(r, iv_len), rbytes(r, length), rbytes(r, aad_len)
    ctx = f"{cipher} {case} key={key.hex()} iv={iv.hex()}"
    aad_file, ct_file = tmp_path / "aad", tmp_path / "ct"
    aad_file.write_bytes(aad)
    args = [f"-{cipher}", "-K", key.hex(), "-iv", iv.hex(), "--aad", aad_file]
    if tag_len != 16:
        args += ["--taglen", str(tag_len)]

    ct = ok(cli("enc", *args, stdin=pt), ctx)
    assert len(ct) == length + tag_len, f"seed={SEED} {ctx}"
    expected = reference_gcm_encrypt(cipher, key, iv, pt, aad, tag_len)
    if expected is not None:
        assert ct == expected, f"seed={SEED} {ctx}: ciphertext||tag differs from cryptography"
    ct_file.write_bytes(ct)
    ok(cli("dec", *args, "-in", ct_file, "-out", tmp_path / "pt"), ctx)
    assert (tmp_path / "pt").read_bytes() == pt, f"seed={SEED} {ctx}"


def test_gcm_short_iv_round_trip_and_empty_iv_rejected(tmp_path):
    r = rng("gcm-short-iv")
    key, iv, pt = rbytes(r, 16), rbytes(r, 1), rbytes(r, 50)
    ct = ok(cli("enc", "-aes-128-gcm", "-K", key.hex(), "-iv", iv.hex(), stdin=pt))
    assert ok(cli("dec", "-aes-128-gcm", "-K", key.hex(), "-iv", iv.hex(), stdin=ct)) == pt
    one_line_error(cli("enc", "-aes-128-gcm", "-K", key.hex(), "-iv", "", stdin=pt), "enc")
    one_line_error(cli("enc", "-aes-128-gcm", "-K", key.hex(), stdin=pt), "enc")


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "sm4-gcm"])
@pytest.mark.parametrize("what", ["tag", "ciphertext", "aad", "taglen", "iv"])
def test_gcm_tampering_releases_nothing(tmp_path, cipher, what):
    r = rng("gcm-tamper", cipher, what)
    key, iv, pt, aad = rbytes(r, key_size(cipher)), rbytes(r, 12), rbytes(r, 1000), rbytes(r, 64)
    work = tmp_path / "work"
    work.mkdir()
    (work / "aad").write_bytes(aad)
    args = [f"-{cipher}", "-K", key.hex(), "-iv", iv.hex(), "--aad", work / "aad"]
    ct = bytearray(ok(cli("enc", *args, stdin=pt)))

    dec_args = list(args)  # decryption arguments, then one thing changed
    if what == "tag":
        ct[-1 - r.randrange(16)] ^= 1 << r.randrange(8)
    elif what == "ciphertext":
        ct[r.randrange(len(pt))] ^= 1 << r.randrange(8)
    elif what == "aad":
        bad = bytearray(aad)
        bad[r.randrange(len(bad))] ^= 1 << r.randrange(8)
        (work / "aad").write_bytes(bad)
    elif what == "taglen":
        dec_args += ["--taglen", "12"]
    elif what == "iv":
        dec_args[dec_args.index(iv.hex())] = bytes(b ^ 0x80 for b in iv).hex()
    (work / "ct").write_bytes(ct)
    (work / "out").write_bytes(b"existing")
    before = sorted(os.listdir(work))

    msg = one_line_error(cli("dec", *dec_args, "-in", work / "ct", "-out", work / "out"), "dec", what)
    if what != "taglen":
        assert msg == "cryptaccel dec: authentication failed: tag mismatch"
    assert sorted(os.listdir(work)) == before, f"seed={SEED}: files left behind"
    assert (work / "out").read_bytes() == b"existing"
    # To stdout: nothing at all is written (one_line_error checks stdout is empty).
    one_line_error(cli("dec", *dec_args, stdin=bytes(ct)), "dec", what)


def test_gcm_truncated_input_fails(tmp_path):
    ct = ok(cli("enc", "-aes-128-gcm", "-K", "11" * 16, "-iv", "22" * 12, stdin=b""))
    one_line_error(cli("dec", "-aes-128-gcm", "-K", "11" * 16, "-iv", "22" * 12, stdin=ct[:10]), "dec")


# --- ChaCha20-Poly1305 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [0, 1, 63, 64, 255, 256, 100003])
def test_chacha20_poly1305_matches_cryptography(tmp_path, length):
    aead = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
    r = rng("chacha", length)
    key, nonce, pt, aad = rbytes(r, 32), rbytes(r, 12), rbytes(r, length), rbytes(r, length % 50)
    (tmp_path / "aad").write_bytes(aad)
    args = ["-chacha20-poly1305", "-K", key.hex(), "-iv", nonce.hex(), "--aad", tmp_path / "aad"]
    ct = ok(cli("enc", *args, stdin=pt))
    assert ct == aead.ChaCha20Poly1305(key).encrypt(nonce, pt, aad), f"seed={SEED} length={length}"
    assert ok(cli("dec", *args, stdin=ct)) == pt
    bad = bytearray(ct)
    bad[r.randrange(len(bad))] ^= 1
    (tmp_path / "out").write_bytes(b"existing")
    msg = one_line_error(cli("dec", *args, "-out", tmp_path / "out", stdin=bytes(bad)), "dec")
    assert msg == "cryptaccel dec: authentication failed: tag mismatch"
    assert (tmp_path / "out").read_bytes() == b"existing"
    assert "expected 16" in one_line_error(cli("enc", *args, "--taglen", "12", stdin=pt), "enc")
    assert "12" in one_line_error(cli("enc", "-chacha20-poly1305", "-K", key.hex(), "-iv", "00" * 16, stdin=pt), "enc")


# --- XTS ----------------------------------------------------------------------------------------------------------


def xts_key(r, cipher):
    while True:
        key = rbytes(r, key_size(cipher))
        if key[: len(key) // 2] != key[len(key) // 2 :]:
            return key


def reference_xts(key, tweak, data, encrypt=True):
    c = Cipher(algorithms.AES(key), modes.XTS(tweak))
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(data) + op.finalize()


@needs_cryptography
@pytest.mark.parametrize("length", [16, 17, 31, 32, 100, 4096, 100003])
@pytest.mark.parametrize("cipher", ["aes-128-xts", "aes-256-xts"])
def test_xts_matches_cryptography(tmp_path, cipher, length):
    r = rng("xts", cipher, length)
    key, tweak, pt = xts_key(r, cipher), rbytes(r, 16), rbytes(r, length)
    ctx = f"{cipher} len={length} key={key.hex()} tweak={tweak.hex()}"
    ct = ok(cli("enc", f"-{cipher}", "-K", key.hex(), "-iv", tweak.hex(), stdin=pt), ctx)
    assert ct == reference_xts(key, tweak, pt), f"seed={SEED} {ctx}"
    (tmp_path / "ct").write_bytes(ct)
    ok(cli("dec", f"-{cipher}", "-K", key.hex(), "-iv", tweak.hex(), "-in", tmp_path / "ct", "-out", tmp_path / "pt"))
    assert (tmp_path / "pt").read_bytes() == pt, f"seed={SEED} {ctx}"


@needs_cryptography
@pytest.mark.parametrize("cipher", ["aes-128-xts", "aes-256-xts"])
def test_xts_sector_and_data_units(cipher):
    r = rng("xts-units", cipher)
    key = xts_key(r, cipher)
    sector = r.randrange(2**64)
    unit = 512
    pt = rbytes(r, 8 * unit + 100)  # the last unit is short (100 bytes: ciphertext stealing)
    ctx = f"{cipher} key={key.hex()} sector={sector}"

    ct = ok(cli("enc", f"-{cipher}", "-K", key.hex(), "--xts-sector", sector, "--xts-unit", unit, stdin=pt), ctx)
    expected = b""
    for i, start in enumerate(range(0, len(pt), unit)):
        tweak = ((sector + i) % 2**128).to_bytes(16, "little")
        expected += reference_xts(key, tweak, pt[start : start + unit])
    assert ct == expected, f"seed={SEED} {ctx}"
    same = ok(cli("enc", f"-{cipher}", "-K", key.hex(), "-iv", sector.to_bytes(16, "little").hex(),
                  f"--xts-unit={unit}", stdin=pt), ctx)
    assert same == ct
    assert ok(cli("dec", f"-{cipher}", "-K", key.hex(), "--xts-sector", sector, "--xts-unit", unit, stdin=ct)) == pt

    # A tweak near 2^128 - 1 wraps around when incremented per unit.
    top = (2**128 - 3).to_bytes(16, "little")
    ct = ok(cli("enc", f"-{cipher}", "-K", key.hex(), "-iv", top.hex(), "--xts-unit", unit, stdin=pt), ctx)
    expected = b"".join(
        reference_xts(key, ((2**128 - 3 + i) % 2**128).to_bytes(16, "little"), pt[s : s + unit])
        for i, s in enumerate(range(0, len(pt), unit))
    )
    assert ct == expected, f"seed={SEED} {ctx}: tweak wrap-around"


def test_xts_errors(tmp_path):
    key = bytes(range(64))
    args = ["-aes-256-xts", "-K", key.hex()]
    one_line_error(cli("enc", *args, "-iv", "00" * 16, "--xts-sector", "1", stdin=b"x" * 32), "enc")
    one_line_error(cli("enc", *args, stdin=b"x" * 32), "enc")  # no tweak at all
    one_line_error(cli("enc", *args, "-iv", "00" * 16, stdin=b"x" * 15), "enc")  # shorter than a block
    same_halves = (bytes(range(32)) * 2).hex()
    one_line_error(cli("enc", "-aes-256-xts", "-K", same_halves, "-iv", "00" * 16, stdin=b"x" * 32), "enc")
    one_line_error(cli("enc", "-aes-128-cbc", "-K", "00" * 16, "-iv", "00" * 16, "--xts-unit", "16", stdin=b""), "enc")


# --- bad input: one line, exit 1, nothing left behind -------------------------------------------------------------

K16, IV16 = "000102030405060708090a0b0c0d0e0f", "f0e0d0c0b0a090807060504030201000"


def _guaranteed_bad_padding(work, cipher):
    """Ciphertext (made by openssl -nopad, independently of the tool) whose plaintext ends in 0x00: invalid PKCS#7."""
    block = bytes(range(1, 16)) + b"\x00"
    ct = openssl_enc(f"-{cipher}", "-K", K16, *([] if cipher.endswith("ecb") else ["-iv", IV16]), "-nopad",
                     stdin=b"\x42" * 32 + block)
    (work / "in").write_bytes(ct)


def _bad_padding_too_large(work):
    ct = openssl_enc("-aes-128-cbc", "-K", K16, "-iv", IV16, "-nopad", stdin=b"\x42" * 15 + b"\x11")
    (work / "in").write_bytes(ct)


BAD_CASES = {
    # name: (command, args, prepare(work) or None, expected message or None)
    "key-too-short": ("enc", ["-aes-128-cbc", "-K", K16[:-2], "-iv", IV16], None, None),
    "key-too-long": ("enc", ["-aes-256-ctr", "-K", K16 * 2 + "00", "-iv", IV16], None, None),
    "key-for-aes128-given-to-aes192": ("enc", ["-aes-192-ecb", "-K", K16], None, None),
    "iv-too-short": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16[:-2]], None, None),
    "iv-too-long": ("dec", ["-sm4-ctr", "-K", K16, "-iv", IV16 + "00"], None, None),
    "key-odd-hex": ("enc", ["-aes-128-cbc", "-K", K16[:-1], "-iv", IV16], None, None),
    "key-non-hex": ("enc", ["-aes-128-cbc", "-K", "zz" + K16[2:], "-iv", IV16], None, None),
    "key-0x-prefix": ("enc", ["-aes-128-cbc", "-K", "0x" + K16[2:], "-iv", IV16], None, None),
    "key-space": ("enc", ["-aes-128-cbc", "-K", K16[:16] + " " + K16[17:], "-iv", IV16], None, None),
    "iv-non-hex": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", "g" + IV16[1:]], None, None),
    "unknown-cipher-flag": ("enc", ["-aes-999-cbc", "-K", K16, "-iv", IV16], None, None),
    "unknown-cipher-name": ("enc", ["-cipher", "nosuch", "-K", K16, "-iv", IV16], None, None),
    "aes-192-xts": ("enc", ["-aes-192-xts", "-K", K16 * 3, "-iv", IV16], None, None),
    "no-cipher": ("enc", ["-K", K16, "-iv", IV16], None, None),
    "two-ciphers": ("enc", ["-aes-128-cbc", "-sm4-cbc", "-K", K16, "-iv", IV16], None, None),
    "no-key": ("enc", ["-aes-128-cbc", "-iv", IV16], None,
               "cryptaccel enc: a key is required: -K HEX, or a password (-pass, -k, -kfile)"),
    "password-gcm": ("enc", ["-aes-128-gcm", "-k", "secret"], None, None),
    "password-and-key": ("enc", ["-aes-128-cbc", "-k", "secret", "-K", K16], None, None),
    "no-iv-cbc": ("enc", ["-aes-128-cbc", "-K", K16], None, None),
    "no-iv-ctr": ("dec", ["-sm4-ctr", "-K", K16], None, None),
    "unknown-option": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16, "-frobnicate"], None, None),
    "stray-argument": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16, "stray"], None, None),
    "missing-value": ("enc", ["-aes-128-cbc", "-K", K16, "-iv"], None, None),
    "cbc-truncated": ("dec", ["-aes-128-cbc", "-K", K16, "-iv", IV16], lambda w: (w / "in").write_bytes(bytes(17)),
                      None),
    "ecb-truncated-nopad": ("dec", ["-sm4-ecb", "-K", K16, "-nopad"], lambda w: (w / "in").write_bytes(bytes(31)),
                            None),
    "cbc-bad-padding-zero": ("dec", ["-aes-128-cbc", "-K", K16, "-iv", IV16],
                             lambda w: _guaranteed_bad_padding(w, "aes-128-cbc"), None),
    "ecb-bad-padding-zero": ("dec", ["-aes-256-ecb", "-K", K16 * 2],
                             lambda w: _guaranteed_bad_padding(w, "aes-256-ecb"), None),
    "sm4-bad-padding-zero": ("dec", ["-sm4-cbc", "-K", K16, "-iv", IV16],
                             lambda w: _guaranteed_bad_padding(w, "sm4-cbc"), None),
    "cbc-bad-padding-17": ("dec", ["-aes-128-cbc", "-K", K16, "-iv", IV16], _bad_padding_too_large, None),
    "nopad-partial-block": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16, "-nopad"],
                            lambda w: (w / "in").write_bytes(bytes(20)), None),
    "taglen-too-small": ("enc", ["-aes-128-gcm", "-K", K16, "-iv", IV16[:24], "--taglen", "3"], None, None),
    "taglen-too-large": ("enc", ["-aes-128-gcm", "-K", K16, "-iv", IV16[:24], "--taglen", "17"], None, None),
    "taglen-not-a-number": ("enc", ["-aes-128-gcm", "-K", K16, "-iv", IV16[:24], "--taglen", "12x"], None, None),
    "aad-with-cbc": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16, "--aad", "in"], None, None),
    "aad-missing": ("enc", ["-aes-128-gcm", "-K", K16, "-iv", IV16[:24], "--aad", "no-such-aad"], None, None),
    "engine-unknown": ("enc", ["-aes-128-cbc", "-K", K16, "-iv", IV16, "--engine", "nosuch"], None, None),
}


@pytest.mark.parametrize("existing_output", [False, True], ids=["no-out", "existing-out"])
@pytest.mark.parametrize("name", list(BAD_CASES))
def test_bad_input(tmp_path, name, existing_output):
    command, args, prepare, message = BAD_CASES[name]
    work = tmp_path / "work"
    work.mkdir()
    (work / "in").write_bytes(bytes(range(48)))
    if prepare:
        prepare(work)
    if existing_output:
        (work / "out").write_bytes(b"must survive")
    before = sorted(os.listdir(work))

    proc = subprocess.run([CLI, command, *args, "-in", "in", "-out", "out"], cwd=work, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=TIMEOUT)
    line = one_line_error(proc, command, name)
    if message:
        assert line == message
    assert sorted(os.listdir(work)) == before, f"{name}: directory changed"
    if existing_output:
        assert (work / "out").read_bytes() == b"must survive"


def test_missing_input_file(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    missing = work / "x"
    proc = cli("enc", "-aes-128-cbc", "-K", K16, "-iv", IV16, "-in", missing, "-out", work / "out")
    assert one_line_error(proc, "enc") == f"cryptaccel enc: cannot open '{missing}': No such file or directory"
    assert os.listdir(work) == []


def test_output_directory_missing(tmp_path):
    proc = cli("enc", "-aes-128-ctr", "-K", K16, "-iv", IV16, "-out", tmp_path / "nodir" / "out", stdin=b"abc")
    one_line_error(proc, "enc")
    assert os.listdir(tmp_path) == []


# --- engines ------------------------------------------------------------------------------------------------------


def engine_table():
    """{name: available} from `cryptaccel engines`."""
    out = ok(cli("engines")).decode()
    table = {}
    for line in out.splitlines():
        name, state, *_ = line.split()
        assert state in ("available", "unavailable"), line
        table[name] = state == "available"
    return table


def test_engines_lists_ref():
    assert engine_table().get("ref") is True


def test_every_available_engine_matches_openssl():
    r = rng("engines")
    key, iv = rbytes(r, 16), rbytes(r, 16)
    engines = engine_table()
    for length in (0, 100, 65536 + 5):
        pt = rbytes(r, length)
        expected = openssl_enc("-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), stdin=pt)
        for engine, available in engines.items():
            if not available:
                continue
            proc = cli("enc", "-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), "--engine", engine, "-v", stdin=pt)
            assert ok(proc, engine) == expected, f"seed={SEED} engine={engine} len={length}"
            assert proc.stderr.decode() == f"engine: {engine}\n"
            assert ok(cli("dec", "-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), f"--engine={engine}",
                          stdin=expected)) == pt


def test_engine_auto_reports_an_available_engine():
    proc = cli("enc", "-aes-128-ctr", "-K", K16, "-iv", IV16, "--verbose", stdin=b"hello")
    ok(proc)
    match = re.fullmatch(r"engine: (\S+)\n", proc.stderr.decode())
    assert match and engine_table().get(match.group(1)) is True, proc.stderr


def test_engine_cuda_without_cuda_fails():
    if engine_table().get("cuda"):
        pytest.skip("the cuda engine is available here")
    one_line_error(cli("enc", "-aes-128-ctr", "-K", K16, "-iv", IV16, "--engine", "cuda", stdin=b"abc"), "enc")


# --- top level ----------------------------------------------------------------------------------------------------


def test_version_and_help():
    assert re.fullmatch(r"cryptaccel \d+\.\d+\.\d+\n", ok(cli("--version")).decode())
    assert b"enc" in ok(cli("--help"))
    help_text = ok(cli("enc", "--help")).decode()
    for name in ("aes-128-cbc", "sm4-gcm", "aes-256-xts"):
        assert name in help_text


def test_unknown_subcommand_fails_with_one_line():
    proc = cli("frobnicate")
    assert proc.returncode == 1 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("cryptaccel: "), err
