"""`cryptaccel seal` / `open` / `keygen` against the real age tools: the `age` and `age-keygen` binaries (Debian
`age`) and `pyrage` (rage's bindings, for passphrase files without a terminal).

Files made by age open with cryptaccel and the other way round, for X25519 recipients, several recipients, the armor,
passphrases (scrypt), the empty file and lengths around the 64 KiB chunk; damaged files are refused with one error
line, a non-zero status, nothing written to a file, and only verified chunks written to stdout. Random data comes from
CRYPTACCEL_TEST_SEED (printed in failures). The executable under test is $CRYPTACCEL_CLI.
"""
import os
import pty
import random
import select
import shutil
import stat
import subprocess
import time

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

AGE, AGE_KEYGEN = shutil.which("age"), shutil.which("age-keygen")
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", random.SystemRandom().randrange(2**32)))
CHUNK = 64 * 1024
LENGTHS = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5]
needs_age = pytest.mark.skipif(AGE is None or AGE_KEYGEN is None, reason="the `age` tools are not installed "
                               "(apt-get install age)")


def rng(*tag):
    return random.Random(f"{SEED}:" + ":".join(map(str, tag)))


def run(*args, stdin=None):
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, timeout=120)


def ok(proc):
    assert proc.returncode == 0, f"seed {SEED}: {proc.args} failed: {proc.stderr.decode(errors='replace')}"
    return proc.stdout


def one_line_error(proc, command):
    assert proc.returncode != 0, f"seed {SEED}: {proc.args} should have failed"
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cryptaccel {command}: "), lines
    return lines[0]


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """An identity of each tool and their recipients."""
    d = tmp_path_factory.mktemp("age-keys")
    ours, theirs = d / "ours.txt", d / "theirs.txt"
    ok(run(CLI, "keygen", "-o", ours))
    r_ours = ok(run(CLI, "keygen", "-y", ours)).decode().strip()
    r_theirs = None
    if AGE_KEYGEN:
        ok(run(AGE_KEYGEN, "-o", theirs))
        r_theirs = ok(run(AGE_KEYGEN, "-y", theirs)).decode().strip()
    return dict(ours=ours, theirs=theirs, r_ours=r_ours, r_theirs=r_theirs)


def test_keygen_file_and_conversion(keys, tmp_path):
    mode = stat.S_IMODE(os.stat(keys["ours"]).st_mode)
    assert mode == 0o600, oct(mode)
    text = keys["ours"].read_text().splitlines()
    assert text[0].startswith("# created: ") and text[1] == f"# public key: {keys['r_ours']}"
    assert text[2].startswith("AGE-SECRET-KEY-1") and len(text) == 3
    assert "exists" in one_line_error(run(CLI, "keygen", "-o", keys["ours"]), "keygen")
    if AGE_KEYGEN:
        assert ok(run(AGE_KEYGEN, "-y", keys["ours"])).decode().strip() == keys["r_ours"]
        assert ok(run(CLI, "keygen", "-y", keys["theirs"])).decode().strip() == keys["r_theirs"]


@needs_age
@pytest.mark.parametrize("armor", [False, True], ids=["binary", "armored"])
@pytest.mark.parametrize("n", LENGTHS)
def test_both_ways_with_age(keys, tmp_path, n, armor):
    pt = rng("x25519", n, armor).randbytes(n)
    src = tmp_path / "pt"
    src.write_bytes(pt)
    a = ["-a"] if armor else []
    # Ours, to both tools' recipients: age opens it.
    ok(run(CLI, "seal", *a, "-r", keys["r_theirs"], "-r", keys["r_ours"], "-o", tmp_path / "ours.age", src))
    assert ok(run(AGE, "-d", "-i", keys["theirs"], tmp_path / "ours.age")) == pt
    assert ok(run(CLI, "open", "-i", keys["ours"], tmp_path / "ours.age")) == pt
    # Theirs: we open it.
    ok(run(AGE, *a, "-r", keys["r_ours"], "-o", tmp_path / "theirs.age", src))
    assert ok(run(CLI, "open", "-i", keys["ours"], "-o", tmp_path / "out", tmp_path / "theirs.age")) == b""
    assert (tmp_path / "out").read_bytes() == pt
    # Stdin to stdout.
    sealed = ok(run(CLI, "seal", *a, "-r", keys["r_theirs"], stdin=pt))
    assert ok(run(AGE, "-d", "-i", keys["theirs"], stdin=sealed)) == pt


@pytest.mark.parametrize("n", [0, CHUNK, 2 * CHUNK + 3])
def test_passphrase_files_with_pyrage(tmp_path, n):
    pyrage = pytest.importorskip("pyrage", reason="pyrage is not installed (pip install pyrage)")
    pt = rng("scrypt", n).randbytes(n)
    words = "correct horse battery staple"
    theirs = tmp_path / "theirs.age"
    theirs.write_bytes(pyrage.passphrase.encrypt(pt, words))
    assert ok(run(CLI, "open", "--pass", f"pass:{words}", theirs)) == pt
    assert "passphrase" in one_line_error(run(CLI, "open", "--pass", "pass:wrong", theirs), "open")
    ours = ok(run(CLI, "seal", "-p", "--pass", f"pass:{words}", "--work-factor", "12", stdin=pt))
    assert pyrage.passphrase.decrypt(ours, words) == pt
    # Above the work-factor limit: refused before any scrypt work.
    assert "work factor" in one_line_error(run(CLI, "open", "--pass", f"pass:{words}", "--max-work-factor", "11",
                                               stdin=ours), "open")


def run_on_a_terminal(argv, passphrase):
    """Runs `argv` on a pseudo-terminal, answering each passphrase prompt (age reads passphrases from /dev/tty only);
    returns the exit status."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal is its controlling tty
        try:
            os.execvp(argv[0], [str(a) for a in argv])
        finally:
            os._exit(127)
    pending, deadline = b"", time.time() + 120
    while time.time() < deadline:
        if fd not in select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        pending += chunk
        if b"passphrase" in pending.lower() and pending.rstrip().endswith(b":"):
            os.write(fd, passphrase.encode() + b"\n")
            pending = b""
    os.close(fd)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@needs_age
def test_passphrase_files_with_age_on_a_terminal(tmp_path):
    pt = rng("age-p").randbytes(CHUNK + 9)
    src, theirs = tmp_path / "pt", tmp_path / "theirs.age"
    src.write_bytes(pt)
    assert run_on_a_terminal([AGE, "-p", "-o", theirs, src], "hunter2") == 0
    assert ok(run(CLI, "open", "--pass", "pass:hunter2", theirs)) == pt
    ours = tmp_path / "ours.age"
    ok(run(CLI, "seal", "-p", "--pass", "pass:hunter2", "--work-factor", "14", "-o", ours, src))
    out = tmp_path / "out"
    assert run_on_a_terminal([AGE, "-d", "-o", out, ours], "hunter2") == 0
    assert out.read_bytes() == pt


def test_x25519_with_pyrage(keys):
    pyrage = pytest.importorskip("pyrage", reason="pyrage is not installed (pip install pyrage)")
    pt = rng("pyrage-x25519").randbytes(3 * CHUNK)
    recipient = pyrage.x25519.Recipient.from_str(keys["r_ours"])
    assert ok(run(CLI, "open", "-i", keys["ours"], stdin=pyrage.encrypt(pt, [recipient]))) == pt
    identity = pyrage.x25519.Identity.from_str(keys["ours"].read_text().splitlines()[2])
    assert pyrage.decrypt(ok(run(CLI, "seal", "-r", keys["r_ours"], stdin=pt)), [identity]) == pt


def payload_start(file: bytes) -> int:
    """Offset of the first payload chunk: after the MAC line and the 16-byte nonce."""
    mac = file.index(b"\n--- ")
    return file.index(b"\n", mac + 1) + 1 + 16


def test_damage_is_refused_and_nothing_unverified_is_released(keys, tmp_path):
    pt = rng("damage").randbytes(5 * CHUNK + 10)
    good = ok(run(CLI, "seal", "-r", keys["r_ours"], stdin=pt))
    p = payload_start(good)
    sealed = CHUNK + 16
    cases = {
        "header": (bytearray(good), 30, None),
        "mac": (bytearray(good), p - 20, None),
        "chunk 2": (bytearray(good), p + 2 * sealed + 5, 2),
        "last chunk": (bytearray(good), len(good) - 3, 5),
    }
    for name, (data, at, good_chunks) in cases.items():
        data[at] ^= 0x01
        out = tmp_path / f"out-{name}"
        one_line_error(run(CLI, "open", "-i", keys["ours"], "-o", out, stdin=bytes(data)), "open")
        assert not out.exists(), f"{name}: a file was left behind"
        proc = run(CLI, "open", "-i", keys["ours"], stdin=bytes(data))
        msg = one_line_error(proc, "open")
        released = good_chunks or 0
        assert proc.stdout == pt[: released * CHUNK], f"{name}: released {len(proc.stdout)} bytes"
        if good_chunks is not None:
            assert f"chunk {good_chunks} " in msg and str(good_chunks * CHUNK) in msg, msg
    for name, data in {"truncated at a chunk": good[: p + 3 * sealed], "truncated in a chunk": good[: p + 100],
                       "dropped last chunk": good[: p + 5 * sealed], "appended": good + b"x" * 20,
                       "swapped": good[:p] + good[p + sealed: p + 2 * sealed] + good[p: p + sealed] + good[p + 2 * sealed:],
                       "no payload": good[:p]}.items():
        out = tmp_path / "out"
        one_line_error(run(CLI, "open", "-i", keys["ours"], "-o", out, stdin=data), "open")
        assert not out.exists(), name
    # A wrong identity, and a file for other recipients.
    other = tmp_path / "other.txt"
    ok(run(CLI, "keygen", "-o", other))
    assert "no identity matched" in one_line_error(run(CLI, "open", "-i", other, stdin=good), "open")


def test_usage_errors(keys, tmp_path):
    assert "no recipient" in one_line_error(run(CLI, "seal", stdin=b"x"), "seal")
    assert "not an age recipient" in one_line_error(run(CLI, "seal", "-r", "age1nope", stdin=b"x"), "seal")
    assert "cannot be combined" in one_line_error(
        run(CLI, "seal", "-p", "--pass", "pass:x", "-r", keys["r_ours"], stdin=b"x"), "seal")
    assert "unknown option" in one_line_error(run(CLI, "open", "--bogus"), "open")
    missing = tmp_path / "missing.age"
    assert "missing.age" in one_line_error(run(CLI, "open", "-i", keys["ours"], missing), "open")
    garbage = tmp_path / "garbage"
    garbage.write_text("hello\n")
    assert "not an age file" in one_line_error(run(CLI, "open", "-i", keys["ours"], garbage), "open")
    for cmd in ("seal", "open", "keygen"):
        assert b"Usage: cryptaccel " + cmd.encode() in ok(run(CLI, cmd, "--help"))
