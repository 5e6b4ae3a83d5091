"""`cryptaccel enc` options that make it a drop-in for `openssl enc`, each checked against the real `openssl`:
openssl's cipher aliases (-aes128, -aes192, -aes256, -sm4: CBC), an inline value after one dash (-K=HEX), -list /
-ciphers in openssl's layout, and the hint when a decryption given -K reads a password-encrypted ("Salted__") input.
"""
import subprocess

import pytest

from test_cli_enc import CLI, OPENSSL, SEED, TIMEOUT, _OPENSSL_LIST, cli, ok, one_line_error, rbytes, rng, run

MIB = 1 << 20
SALTED_HINT = ('the input starts with "Salted__": it looks encrypted with a password; decrypt with -pass, -k or '
               '-kfile instead of -K')

ALIASES = {"aes128": 16, "aes192": 24, "aes256": 32, "sm4": 16}  # name -> key bytes
ALIAS_PARAMS = [
    pytest.param(a, marks=pytest.mark.skipif(f"-{a}" not in _OPENSSL_LIST, reason=f"{OPENSSL} does not offer -{a}"))
    for a in ALIASES
]


def openssl(*args, stdin=None):
    return run([OPENSSL, *args], stdin)


# --- aliases -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alias", ALIAS_PARAMS)
def test_alias_matches_openssl(tmp_path, alias):
    """-aes256 is openssl's AES-256-CBC: the same bytes both ways, with a raw key and with a password, in any case."""
    r = rng("alias", alias)
    key, iv, data = rbytes(r, ALIASES[alias]).hex(), rbytes(r, 16).hex(), rbytes(r, 1000 + r.randrange(100))
    src = tmp_path / "pt"
    src.write_bytes(data)
    raw = ["-K", key, "-iv", iv]
    expected = ok(openssl("enc", f"-{alias}", *raw, "-in", src), f"openssl -{alias}")
    full = "sm4-cbc" if alias == "sm4" else f"aes-{alias[3:]}-cbc"  # openssl list -cipher-algorithms
    assert ok(openssl("enc", f"-{full}", *raw, "-in", src)) == expected  # what openssl's alias means
    for spelling in ([f"-{alias}"], [f"-{alias.upper()}"], [f"--{alias}"], ["-cipher", alias]):
        assert ok(cli("enc", *spelling, *raw, "-in", src), spelling) == expected, f"seed={SEED} {spelling}"
    (tmp_path / "ct").write_bytes(expected)
    assert ok(cli("dec", f"-{alias}", *raw, "-in", tmp_path / "ct")) == data

    salt = rbytes(r, 8).hex()
    pw = ["-pbkdf2", "-iter", "1000", "-k", "correct horse", "-S", salt]
    expected = ok(openssl("enc", f"-{alias}", *pw, "-in", src))
    assert ok(cli("enc", f"-{alias}", *pw, "-in", src)) == expected, f"seed={SEED}"


def test_alias_with_a_different_cipher_is_refused():
    """An alias is a cipher like any other: two different ones on one line are an error, the same one twice is not."""
    msg = one_line_error(cli("enc", "-aes256", "-aes-128-cbc", "-K", "00" * 16, "-iv", "00" * 16, stdin=b"x"), "enc")
    assert "more than one cipher" in msg
    ok(cli("enc", "-aes256", "-aes-256-cbc", "-K", "00" * 32, "-iv", "00" * 16, stdin=b"x"))


# --- -name=value --------------------------------------------------------------------------------------------------


def test_single_dash_inline_values_match_openssl(tmp_path):
    """OpenSSL 3.0 takes -K=HEX, -iv=HEX, -in=FILE; the value is what follows the first '=' (-pass=pass:a=b)."""
    r = rng("inline")
    key, iv, data = rbytes(r, 16).hex(), rbytes(r, 16).hex(), rbytes(r, 777)
    src = tmp_path / "pt"
    src.write_bytes(data)
    args = ["-aes-128-cbc", f"-K={key}", f"-iv={iv}", f"-in={src}"]
    expected = ok(openssl("enc", *args))
    assert expected == ok(openssl("enc", "-aes-128-cbc", "-K", key, "-iv", iv, "-in", src))
    assert ok(cli("enc", *args)) == expected, f"seed={SEED}"
    assert ok(cli("enc", "-aes-128-cbc", f"--key={key}", f"--iv={iv}", f"--in={src}")) == expected
    ok(cli("enc", *args, f"-out={tmp_path / 'ct'}"))
    assert (tmp_path / "ct").read_bytes() == expected

    pw = ["-aes-128-cbc", "-pbkdf2", f"-S={rbytes(r, 8).hex()}", "-pass=pass:a=b", f"-in={src}"]
    expected = ok(openssl("enc", *pw))
    assert ok(cli("enc", *pw)) == expected
    assert ok(cli("enc", *pw[:-2], "-pass", "pass:a=b", "-in", src)) == expected  # not "b", not "pass:a"


def test_flag_given_a_value_is_an_error_as_in_openssl():
    assert openssl("enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-nopad=1", stdin=b"x").returncode != 0
    msg = one_line_error(cli("enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-nopad=1", stdin=b"x"), "enc")
    assert msg == "cryptaccel enc: option '-nopad' takes no value"
    msg = one_line_error(cli("enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "--nopad=1", stdin=b"x"), "enc")
    assert msg == "cryptaccel enc: option '--nopad' takes no value"


# --- -list, -ciphers ----------------------------------------------------------------------------------------------


def list_layout(names):
    """`openssl enc -list`'s layout (apps/enc.c show_ciphers): "-%-25s", three to a line, then an empty line."""
    out = "Supported ciphers:\n"
    for i, name in enumerate(names):
        out += f"-{name:<25}" + ("\n" if i % 3 == 2 else " ")
    return out + "\n"


def listed_names(text):
    return [word[1:] for line in text.splitlines()[1:] for word in line.split()]


def test_list_in_openssls_layout():
    theirs = openssl("enc", "-list").stdout.decode()
    assert theirs == list_layout(listed_names(theirs))  # the layout function is openssl's
    ours = ok(cli("enc", "-list")).decode()
    names = listed_names(ours)
    assert ours == list_layout(names)
    assert names == sorted(names, key=lambda n: n.encode())  # strcmp order, as OBJ_NAME_do_all_sorted
    assert len(set(names)) == len(names)
    assert ok(cli("enc", "-ciphers")) == ours.encode() == ok(cli("dec", "--list"))
    assert openssl("enc", "-ciphers").stdout.decode() == theirs
    # As in openssl, the listing ends the parsing: what follows is not looked at.
    assert ok(cli("enc", "-list", "-no-such-option")) == ours.encode()


def cipher_accepted(name):
    """Whether `enc -NAME` takes NAME as a cipher (it then asks for a key); else it is an unknown option."""
    msg = one_line_error(cli("enc", f"-{name}", stdin=b""), "enc")
    assert ("a key is required" in msg) != ("unknown" in msg), msg
    return "a key is required" in msg


def test_list_is_what_enc_accepts():
    """Every listed name is accepted; every name openssl lists that we accept is listed (the aliases among them)."""
    ours = set(listed_names(ok(cli("enc", "-list")).decode()))
    assert all(cipher_accepted(n) for n in ours), sorted(n for n in ours if not cipher_accepted(n))
    theirs = listed_names(openssl("enc", "-list").stdout.decode())
    shared = {n for n in theirs if cipher_accepted(n)}
    assert shared <= ours, sorted(shared - ours)
    assert {a for a in ALIASES if a in theirs} <= shared


# --- the "Salted__" hint ------------------------------------------------------------------------------------------


def salted(r, length, tmp_path):
    """openssl's password-mode encryption of random data: "Salted__" || salt || ciphertext."""
    src = tmp_path / "salted-pt"
    src.write_bytes(rbytes(r, length))
    ct = ok(openssl("enc", "-aes-128-cbc", "-pbkdf2", "-k", "pw", "-in", src))
    assert ct.startswith(b"Salted__")
    return ct


def raw_dec_args(cipher, r):
    return [f"-{cipher}", "-K", rbytes(r, 16).hex(), "-iv", rbytes(r, 16).hex()]


def check_hint(proc, expected, context):
    """The run ends as openssl's (status, output) and says the hint: its own line after a success, appended to the
    one error line after a failure."""
    err = proc.stderr.decode()
    if expected.returncode == 0:
        assert ok(proc, context) == expected.stdout, context
        assert err == f"cryptaccel dec: hint: {SALTED_HINT}\n", context
    else:
        msg = one_line_error(proc, "dec", context)
        assert msg.endswith(f" (hint: {SALTED_HINT})") and len(msg) > len(f"cryptaccel dec:  (hint: {SALTED_HINT})"), msg


@pytest.mark.parametrize("cipher", ["aes-128-ctr", "aes-128-cbc"])
def test_salted_input_with_a_raw_key_gets_a_hint(tmp_path, cipher):
    """Decrypted as asked, ending as openssl's `enc -d -K` does (CTR: garbage, exit 0; CBC: almost always bad
    padding), whether the input is a file, a pipe or base64; and the same input with a password needs no hint."""
    r = rng("salted", cipher)
    for length in (0, 5, 3 * MIB + 3):  # 3 MiB: more than a batch goes through the replayed pipe
        ct = salted(r, length, tmp_path)
        args = raw_dec_args(cipher, r)
        f = tmp_path / "ct"
        f.write_bytes(ct)
        expected = openssl("enc", "-d", *args, "-in", f)
        ctx = f"seed={SEED} {cipher} length {length}"
        check_hint(cli("dec", *args, "-in", f), expected, ctx + " file")
        check_hint(cli("dec", *args, stdin=ct), expected, ctx + " pipe")
        b64 = ok(openssl("base64", "-in", f))
        check_hint(cli("dec", *args, "-a", stdin=b64), expected, ctx + " base64")
        out = tmp_path / "out"
        proc = cli("dec", *args, "-in", f, "-out", out)
        if expected.returncode == 0:
            assert ok(proc) == b"" and out.read_bytes() == expected.stdout
            assert proc.stderr.decode() == f"cryptaccel dec: hint: {SALTED_HINT}\n"
        else:
            assert SALTED_HINT in one_line_error(proc, "dec", ctx) and not out.exists()
        proc = cli("dec", "-aes-128-cbc", "-pbkdf2", "-k", "pw", "-in", f)
        assert proc.returncode == 0 and proc.stderr == b"", ctx


def test_salted_hint_looks_at_the_input_from_its_offset(tmp_path):
    """stdin opened on a file part-way: the header is looked for where the stream starts, and the bytes before are
    not decrypted (the file is not read from its start)."""
    r = rng("salted-offset")
    ct = salted(r, 100, tmp_path)
    args = raw_dec_args("aes-128-ctr", r)
    f = tmp_path / "ct"
    f.write_bytes(b"junk!" + ct)
    expected = openssl("enc", "-d", *args, stdin=ct)
    for skip, hinted in ((5, True), (0, False)):
        with open(f, "rb") as stdin:
            stdin.seek(skip)
            proc = subprocess.run([CLI, "dec", *args], stdin=stdin, capture_output=True, timeout=TIMEOUT)
        assert proc.returncode == 0, proc.stderr
        assert (SALTED_HINT in proc.stderr.decode()) == hinted, (skip, proc.stderr)
        if hinted:
            assert proc.stdout == expected.stdout


def test_no_hint_without_the_header_or_when_encrypting(tmp_path):
    r = rng("no-hint")
    args = raw_dec_args("aes-128-ctr", r)
    for data in (b"Salted_", b"salted__" + bytes(20), b"xSalted__" + bytes(20), b""):
        proc = cli("dec", *args, stdin=data)
        assert proc.returncode == 0 and proc.stderr == b"", (data, proc.stderr)
    proc = cli("enc", *args, stdin=b"Salted__" + bytes(20))
    assert proc.returncode == 0 and proc.stderr == b""
    # A failure without the header is the plain one line; with it, the same line and the hint.
    cbc = raw_dec_args("aes-128-cbc", r)
    plain = one_line_error(cli("dec", *cbc, stdin=bytes(25)), "dec")
    assert "hint" not in plain, plain
    assert one_line_error(cli("dec", *cbc, stdin=b"Salted__" + bytes(17)), "dec") == f"{plain} (hint: {SALTED_HINT})"
    gcm = ["-aes-128-gcm", "-K", rbytes(r, 16).hex(), "-iv", rbytes(r, 12).hex()]
    plain = one_line_error(cli("dec", *gcm, stdin=bytes(40)), "dec")
    assert plain == "cryptaccel dec: authentication failed: tag mismatch"
    assert one_line_error(cli("dec", *gcm, stdin=b"Salted__" + bytes(32)), "dec") == f"{plain} (hint: {SALTED_HINT})"
