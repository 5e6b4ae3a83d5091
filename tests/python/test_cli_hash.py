"""Tests of `cryptaccel hash` against GNU coreutils (sha224sum, sha256sum, sha384sum, sha512sum) and Python's hashlib.

stdout and the exit status must be byte-identical to coreutils'; stderr is compared after replacing the program name
("sha256sum" / "cryptaccel hash"). File contents are random: set CRYPTACCEL_TEST_SEED to replay a failure.
The executable under test is $CRYPTACCEL_CLI; also `cryptaccel speed` on hash workloads.
"""
import hashlib
import os
import random
import re
import shutil
import subprocess

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", random.SystemRandom().randrange(2**32)))
TIMEOUT = 60
PROG = "cryptaccel hash"
COREUTILS = {alg: shutil.which(f"{alg}sum") for alg in ("sha224", "sha256", "sha384", "sha512")}
BIG = (1 << 20) + 4099  # more than the 1 MiB small-file limit: streamed through Hasher

needs_coreutils = pytest.mark.skipif(not COREUTILS["sha256"], reason="coreutils sha256sum is not installed")


def rng(*tag):
    return random.Random(f"{SEED}:" + ":".join(map(str, tag)))


def run(args, cwd=None, stdin=None, env=None):
    """Runs a command; stdin is bytes or None (then /dev/null)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(a) for a in args], cwd=cwd, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True,
                          timeout=TIMEOUT, env=full_env)


def ours(*args, **kw):
    return run([CLI, "hash", *args], **kw)


def normalise(stderr, prog):
    """stderr with the program name (coreutils prints argv[0], here the full path) replaced, for comparing the
    messages of two programs."""
    text = stderr.decode("utf-8", errors="surrogateescape")
    return text.replace(f"{prog}: ", "PROG: ").replace(f"'{prog} --help'", "'PROG --help'")


def same_as_coreutils(args, alg="sha256", cwd=None, stdin=None, env=None, context=""):
    """Runs `cryptaccel hash -a ALG ARGS` and `ALGsum ARGS`; asserts identical stdout, exit status and stderr (up to
    the program name). Returns our result."""
    tool = COREUTILS[alg]
    theirs = run([tool, *args], cwd=cwd, stdin=stdin, env=env)
    mine = ours("-a", alg, *args, cwd=cwd, stdin=stdin, env=env)
    where = f"seed={SEED} {context} args={args!r}"
    assert mine.stdout == theirs.stdout, f"{where}: stdout differs:\nours   {mine.stdout!r}\ntheirs {theirs.stdout!r}"
    assert mine.returncode == theirs.returncode, f"{where}: exit {mine.returncode} vs {theirs.returncode}"
    assert normalise(mine.stderr, PROG) == normalise(theirs.stderr, tool), \
        f"{where}: stderr differs:\nours   {mine.stderr!r}\ntheirs {theirs.stderr!r}"
    return mine


AWKWARD_NAMES = [
    "plain.txt", "with space", "-leading-dash", "back\\slash", "new\nline", "carriage\rreturn",
    "mixed\\\n\r end", "unicode-é-漢字", "tab\there", "it's", "quote\"d", "star*", "empty", "big",
]


@pytest.fixture
def awkward(tmp_path):
    """A directory of files with awkward names (one empty, one > 1 MiB); returns (dir, names)."""
    r = rng("awkward")
    for name in AWKWARD_NAMES:
        size = 0 if name == "empty" else BIG if name == "big" else r.randrange(1, 3000)
        (tmp_path / name).write_bytes(r.randbytes(size))
    return tmp_path, list(AWKWARD_NAMES)


# --- printing digests -----------------------------------------------------------------------------------------------


@needs_coreutils
@pytest.mark.parametrize("mode", [[], ["--tag"], ["-b"], ["-t"], ["-z"], ["--tag", "-z"], ["--binary", "--zero"]])
@pytest.mark.parametrize("alg", ["sha224", "sha256", "sha384", "sha512"])
def test_awkward_names_match_coreutils(awkward, alg, mode):
    d, names = awkward
    stdin = rng("stdin", alg).randbytes(777)
    same_as_coreutils([*mode, "--", *names, "-"], alg=alg, cwd=d, stdin=stdin, context=f"{alg} {mode}")


@needs_coreutils
def test_many_small_files_batched_in_argument_order(tmp_path):
    r = rng("many")
    names = [f"f{i:04d}" for i in range(400)]
    r.shuffle(names)
    for i, name in enumerate(names):
        (tmp_path / name).write_bytes(r.randbytes(r.choice([0, 1, 55, 56, 64, 100, 1000, 5000])))
    (tmp_path / "big").write_bytes(r.randbytes(BIG))
    args = names[:150] + ["big"] + names[150:] + ["big", names[0]]
    same_as_coreutils(args, cwd=tmp_path)
    # Test hooks: batches of 7 files, and everything from 100 bytes on streamed; the output must not change.
    same_as_coreutils(args, cwd=tmp_path, env={"CRYPTACCEL_HASH_BATCH_FILES": "7", "CRYPTACCEL_HASH_SMALL_FILE": "100"})


@needs_coreutils
@pytest.mark.parametrize("size", [0, 1, 1000, (1 << 20) - 1, 1 << 20, BIG])
def test_stdin(size):
    data = rng("stdin", size).randbytes(size)
    same_as_coreutils([], stdin=data, context=f"size={size}")
    same_as_coreutils(["-"], stdin=data, context=f"size={size}")
    same_as_coreutils(["--tag", "-", "-"], stdin=data, context=f"size={size}")  # the second read sees end of file


@needs_coreutils
def test_errors_for_directories_and_missing_files(tmp_path):
    (tmp_path / "dir").mkdir()
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "ok").write_bytes(b"fine")
    args = ["dir", "missing", "ok", "sub dir", "no:such", "x\ny", "é-missing", "\xff-bad".encode("latin-1"), "ok"]
    args = [a.decode("latin-1") if isinstance(a, bytes) else a for a in args]
    proc = same_as_coreutils(args, cwd=tmp_path)
    assert proc.returncode == 1
    err = proc.stderr.decode("utf-8", errors="replace")
    assert f"{PROG}: dir: Is a directory\n" in err
    assert f"{PROG}: missing: No such file or directory\n" in err
    assert f"{PROG}: 'sub dir': Is a directory\n" in err
    # The quoting of names in messages follows the locale, as in coreutils.
    same_as_coreutils(args, cwd=tmp_path, env={"LC_ALL": "C"})


@needs_coreutils
@pytest.mark.parametrize("args", [
    ["--tag", "-t", "f"], ["-c", "--tag", "f"], ["-c", "-b", "f"], ["-c", "-z", "f"], ["--status", "f"],
    ["--quiet", "f"], ["--strict", "f"], ["-w", "f"], ["--ignore-missing", "f"], ["--frobnicate"], ["-x"],
    ["--s", "f"], ["-a"],
])
def test_usage_errors_like_coreutils(tmp_path, args):
    (tmp_path / "f").write_bytes(b"x")
    tool = COREUTILS["sha256"]
    if args == ["-a"]:  # sha256sum has no -a; only our side
        proc = ours(*args, cwd=tmp_path)
        assert proc.returncode == 1 and proc.stdout == b""
        assert proc.stderr.decode().startswith(f"{PROG}: option requires an argument -- 'a'\n")
        return
    theirs = run([tool, *args], cwd=tmp_path)
    mine = ours(*args, cwd=tmp_path)
    assert mine.returncode == theirs.returncode == 1
    assert mine.stdout == theirs.stdout == b""
    assert normalise(mine.stderr, PROG) == normalise(theirs.stderr, tool)


# --- --check -----------------------------------------------------------------------------------------------------------


@pytest.fixture
def checkdir(awkward):
    """The awkward files plus checksum files written by sha256sum in GNU, binary and BSD formats."""
    d, names = awkward
    tool = COREUTILS["sha256"]
    for fmt, opts in {"gnu": [], "bin": ["-b"], "bsd": ["--tag"]}.items():
        proc = run([tool, *opts, "--", *names], cwd=d)
        assert proc.returncode == 0
        (d / f"{fmt}.sum").write_bytes(proc.stdout)
    return d, names


CHECK_OPTIONS = [[], ["--quiet"], ["--status"], ["--strict"], ["-w"], ["--ignore-missing"],
                 ["--strict", "--warn"], ["--quiet", "--ignore-missing"], ["--status", "--strict"]]


@needs_coreutils
@pytest.mark.parametrize("opts", CHECK_OPTIONS)
def test_check_good_files(checkdir, opts):
    d, _ = checkdir
    for fmt in ("gnu", "bin", "bsd"):
        proc = same_as_coreutils(["-c", *opts, f"{fmt}.sum"], cwd=d, context=fmt)
        assert proc.returncode == 0


@needs_coreutils
@pytest.mark.parametrize("opts", CHECK_OPTIONS)
def test_check_bad_malformed_and_missing(checkdir, opts):
    d, names = checkdir
    gnu = (d / "gnu.sum").read_bytes().splitlines(keepends=True)
    bsd = (d / "bsd.sum").read_bytes().splitlines(keepends=True)
    h = hashlib.sha256(b"").hexdigest()
    lines = [
        gnu[0],
        b"# a comment\n",
        b"\n",
        b"this line is not a checksum\n",
        f"{h}  missing-file\n".encode(),
        f"{h.upper()}  empty\n".encode(),  # upper-case hex is accepted
        bsd[1],  # mixing BSD and GNU lines is fine
        f"{'0' * 64}  plain.txt\n".encode(),  # wrong digest
        f"{h[:-2]}  empty\n".encode(),  # too short a digest
        f"\\{h}  bad\\escape\n".encode(),  # invalid escape
        gnu[4].rstrip(b"\n") + b"\r\n",  # CRLF line end
        f"{h}  dir\n".encode(),
        f"SHA256 (empty) = {h}\n".encode(),
        f"SHA256(empty)= {h}\n".encode(),  # OpenSSL style
        f"SHA512 (empty) = {h}\n".encode(),  # another algorithm's tag: improperly formatted
        f" \t{h} *empty\n".encode(),
        b"\\" + gnu[5],  # a name that is not escaped, read as one that is
        gnu[-1].rstrip(b"\n"),  # no final newline
    ]
    (d / "dir").mkdir()
    (d / "mixed.sum").write_bytes(b"".join(lines))
    proc = same_as_coreutils(["-c", *opts, "mixed.sum"], cwd=d)
    assert proc.returncode == 1
    if not opts:
        out = proc.stdout.decode("utf-8", errors="replace")
        assert "plain.txt: FAILED\n" in out and "missing-file: FAILED open or read\n" in out
        err = proc.stderr.decode("utf-8", errors="replace")
        assert f"{PROG}: WARNING: 1 computed checksum did NOT match\n" in err
        assert re.search(rf"^{PROG}: WARNING: \d+ lines are improperly formatted$", err, re.M)
        assert f"{PROG}: WARNING: 2 listed files could not be read\n" in err


@needs_coreutils
def test_check_counts_and_plurals(checkdir):
    d, names = checkdir
    h = hashlib.sha256(b"").hexdigest()
    (d / "two.sum").write_bytes(f"{'1' * 64}  empty\n{'2' * 64}  plain.txt\nnope\nnope\n{h}  gone\n".encode())
    same_as_coreutils(["-c", "two.sum"], cwd=d)
    same_as_coreutils(["-c", "--ignore-missing", "two.sum"], cwd=d)
    (d / "only-missing.sum").write_bytes(f"{h}  gone\n".encode())
    same_as_coreutils(["-c", "--ignore-missing", "only-missing.sum"], cwd=d)
    (d / "junk.sum").write_bytes(b"junk\nmore junk\n")
    same_as_coreutils(["-c", "junk.sum"], cwd=d)
    same_as_coreutils(["-c", "--status", "junk.sum"], cwd=d)
    same_as_coreutils(["-c", "-w", "junk.sum", "gnu.sum", "no-such.sum"], cwd=d)
    (d / "adir").mkdir()
    same_as_coreutils(["-c", "adir"], cwd=d)


@needs_coreutils
def test_check_reversed_bsd_format(tmp_path):
    (tmp_path / "a").write_bytes(b"a")
    (tmp_path / "b").write_bytes(b"b")
    ha, hb = hashlib.sha256(b"a").hexdigest(), hashlib.sha256(b"b").hexdigest()
    (tmp_path / "rev.sum").write_bytes(f"{ha} a\n{hb} b\n".encode())
    assert same_as_coreutils(["-c", "rev.sum"], cwd=tmp_path).returncode == 0
    # Once one format is seen, lines of the other are improperly formatted (for the rest of the run).
    (tmp_path / "mix.sum").write_bytes(f"{ha} a\n{hb}  b\n".encode())
    same_as_coreutils(["-c", "mix.sum"], cwd=tmp_path)
    (tmp_path / "gnu.sum").write_bytes(f"{ha}  a\n".encode())
    same_as_coreutils(["-c", "gnu.sum", "rev.sum"], cwd=tmp_path)


@needs_coreutils
def test_check_from_stdin_and_of_stdin(checkdir):
    d, _ = checkdir
    gnu = (d / "gnu.sum").read_bytes()
    same_as_coreutils(["-c"], cwd=d, stdin=gnu)
    same_as_coreutils(["-c", "-"], cwd=d, stdin=gnu)
    data = b"from stdin"
    line = f"{hashlib.sha256(data).hexdigest()}  -\n".encode()
    same_as_coreutils(["-c"], cwd=d, stdin=line)  # "-" in a checksum file read from stdin: improperly formatted
    (d / "stdin.sum").write_bytes(line)
    assert same_as_coreutils(["-c", "stdin.sum"], cwd=d, stdin=data).returncode == 0


@needs_coreutils
def test_our_checksums_check_with_coreutils_and_back(checkdir):
    d, names = checkdir
    for alg in ("sha224", "sha256", "sha384", "sha512"):
        for opts in ([], ["--tag"], ["-b"]):
            proc = ours("-a", alg, *opts, "--", *names, cwd=d)
            assert proc.returncode == 0
            (d / "ours.sum").write_bytes(proc.stdout)
            theirs = run([COREUTILS[alg], "-c", "ours.sum"], cwd=d)
            assert theirs.returncode == 0, theirs.stderr
            mine = ours("-a", alg, "-c", "ours.sum", cwd=d)
            assert mine.stdout == theirs.stdout and mine.returncode == 0


# --- other algorithms, against hashlib ------------------------------------------------------------------------------


HASHLIB = {
    "sha3-224": ("sha3_224", "SHA3-224"), "sha3_256": ("sha3_256", "SHA3-256"), "SHA3-384": ("sha3_384", "SHA3-384"),
    "sha3/512": ("sha3_512", "SHA3-512"), "sha512/224": ("sha512_224", "SHA512/224"),
    "SHA-512/256": ("sha512_256", "SHA512/256"), "sm3": ("sm3", "SM3"), "sha224": ("sha224", "SHA224"),
}


def hashlib_hex(name, data, length=None):
    h = hashlib.new(name, data)
    return h.hexdigest(length) if length is not None else h.hexdigest()


@pytest.mark.parametrize("spelling", list(HASHLIB))
def test_other_algorithms_match_hashlib(tmp_path, spelling):
    name, tag = HASHLIB[spelling]
    try:
        hashlib.new(name)
    except ValueError:
        pytest.skip(f"hashlib has no {name} here")
    r = rng("hashlib", name)
    files = {f"m{n}": r.randbytes(n) for n in (0, 1, 63, 64, 65, 135, 136, 137, 1000, BIG)}
    for f, data in files.items():
        (tmp_path / f).write_bytes(data)
    proc = ours("-a", spelling, *files, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    expected = "".join(f"{hashlib_hex(name, data)}  {f}\n" for f, data in files.items())
    assert proc.stdout.decode() == expected
    tagged = ours("-a", spelling, "--tag", *files, cwd=tmp_path)
    assert tagged.stdout.decode() == "".join(f"{tag} ({f}) = {hashlib_hex(name, d)}\n" for f, d in files.items())
    # Both formats check, together in one run.
    (tmp_path / "all.sum").write_bytes(proc.stdout + tagged.stdout)
    check = ours("-a", spelling, "-c", "all.sum", cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.decode() == "".join(f"{f}: OK\n" for f in files) * 2


@pytest.mark.parametrize("alg, name", [("shake128", "shake_128"), ("SHAKE-256", "shake_256")])
@pytest.mark.parametrize("length", [None, 1, 16, 32, 100, 168, 169, 500])
def test_shake_lengths_match_hashlib(tmp_path, alg, name, length):
    default = 16 if name == "shake_128" else 32
    r = rng("shake", name, length)
    files = {f"m{n}": r.randbytes(n) for n in (0, 1, 167, 168, 169, 5000)}
    for f, data in files.items():
        (tmp_path / f).write_bytes(data)
    extra = [] if length is None else ["--length", str(length)]
    proc = ours("-a", alg, *extra, *files, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    n = default if length is None else length
    assert proc.stdout.decode() == "".join(f"{hashlib_hex(name, d, n)}  {f}\n" for f, d in files.items())
    (tmp_path / "s.sum").write_bytes(proc.stdout)
    # Without --length the checked length is each line's; with it, it must be that length.
    assert ours("-a", alg, "-c", "s.sum", cwd=tmp_path).returncode == 0
    assert ours("-a", alg, *extra, "-c", "s.sum", cwd=tmp_path).returncode == 0
    other = ours("-a", alg, "--length", str(n + 1), "-c", "s.sum", cwd=tmp_path)
    assert other.returncode == 1 and b"no properly formatted checksum lines found" in other.stderr


def test_sha256_on_stdin_matches_hashlib_without_coreutils():
    data = rng("plain").randbytes(5000)
    proc = ours(stdin=data)
    assert proc.returncode == 0 and proc.stdout.decode() == f"{hashlib.sha256(data).hexdigest()}  -\n"


# --- options and errors -------------------------------------------------------------------------------------------


def test_list_names_every_algorithm():
    proc = ours("--list")
    assert proc.returncode == 0
    first = [line.split()[0] for line in proc.stdout.decode().splitlines()]
    assert first == ["sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256", "sha3_224", "sha3_256",
                     "sha3_384", "sha3_512", "shake_128", "shake_256", "sm3"]


def test_engine_choice(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    expected = f"{hashlib.sha256(b'abc').hexdigest()}  f\n".encode()
    for engine in ("auto", "ref"):
        proc = ours("--engine", engine, "f", cwd=tmp_path)
        assert proc.returncode == 0 and proc.stdout == expected
    for engine in ("nosuch", "openssl"):
        proc = ours(f"--engine={engine}", "f", cwd=tmp_path)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and proc.stdout == b""
        assert err.count("\n") == 1 and err.startswith(f"{PROG}: ") and f"'{engine}'" in err, err


@pytest.mark.parametrize("args, message", [
    (["-a", "md5"], "unknown hash algorithm 'md5'"),
    (["--length", "8"], "--length is only supported with SHAKE"),
    (["-a", "shake128", "--length", "0"], "invalid length: '0'"),
    (["-a", "shake128", "--length", "x"], "invalid length: 'x'"),
    (["-a", "shake128", "--length", str((1 << 20) + 1)], "(a number of bytes, 1 to 1048576)"),
])
def test_bad_algorithm_and_length(args, message):
    proc = ours(*args)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b""
    assert err.startswith(f"{PROG}: ") and message in err, err
    assert err.endswith(f"Try '{PROG} --help' for more information.\n")


def test_help_and_top_level():
    proc = ours("--help")
    out = proc.stdout.decode()
    assert proc.returncode == 0
    for word in ("--algorithm", "--check", "--tag", "--length", "--engine", "--list", "--quiet", "--status",
                 "--strict", "--ignore-missing", "--zero", "sha3_256", "shake_128"):
        assert word in out, word
    assert "hash" in run([CLI, "--help"]).stdout.decode()


def test_options_after_names_and_double_dash(tmp_path):
    (tmp_path / "--tag").write_bytes(b"x")
    (tmp_path / "f").write_bytes(b"y")
    hx, hy = hashlib.sha256(b"x").hexdigest(), hashlib.sha256(b"y").hexdigest()
    assert ours("f", "--tag", cwd=tmp_path).stdout.decode() == f"SHA256 (f) = {hy}\n"
    assert ours("--", "--tag", cwd=tmp_path).stdout.decode() == f"{hx}  --tag\n"
    assert ours("--ta", "-bz", "f", cwd=tmp_path).stdout.decode() == f"SHA256 (f) = {hy}\0"


# --- cryptaccel speed on hashes -----------------------------------------------------------------------------------


ROW = re.compile(r"^(?P<algo>\S+) \[(?P<impl>[^\]]+)\](?: x(?P<batch>\d+))?\s{2,}(?P<values>.*)$", re.M)


def speed(*args, env=None):
    proc = run([CLI, "speed", *args], env={"CRYPTACCEL_SPEED_INJECT_MISMATCH": "", **(env or {})})
    return proc


def test_speed_times_hashes_vs_openssl_and_in_batches():
    proc = speed("-a", "sha256", "SHA3-256", "shake128", "sm3", "sha512/224", "--engine", "ref", "--bytes", "16",
                 "1k", "--seconds", "0.01", "--vs", "openssl", "--batch", "4", "--threads", "1")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    rows = {(m["algo"], m["impl"], m["batch"]): m["values"].split() for m in ROW.finditer(out)}
    for algo in ("sha256", "sha3-256", "shake128", "sm3", "sha512-224"):
        for impl in ("ref", "openssl"):
            assert len(rows[(algo, impl, None)]) == 2, (algo, impl, out)
            assert all(re.fullmatch(r"\d+\.\d\dk", v) and float(v[:-1]) > 0 for v in rows[(algo, impl, None)])
            assert all(float(v) > 0 for v in rows[(algo, impl, "4")])
        assert all(re.fullmatch(r"\d+\.\d+x", v) for v in rows[(algo, "ref/openssl", None)])


def test_speed_default_algorithms_include_hashes():
    proc = run([CLI, "speed", "--help"])
    assert "sha256 sha3-256" in proc.stdout.decode()
    proc = speed("--engine", "ref", "--bytes", "64", "--seconds", "0.005", "--json", "-")
    import json
    doc = json.loads(proc.stdout)
    assert doc["settings"]["algorithms"] == ["aes-128-ctr", "aes-256-ctr", "aes-256-gcm", "aes-256-cbc",
                                             "aes-256-xts", "sm4-ctr", "sha256", "sha3-256"]


@pytest.mark.parametrize("target", ["openssl", "ref"])
def test_speed_hash_mismatch_is_reported(target):
    proc = speed("-a", "sha3-512", "--engine", "ref", "--bytes", "64", "--seconds", "0.01", "--vs", "openssl",
                 env={"CRYPTACCEL_SPEED_INJECT_MISMATCH": target})
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert err.count("\n") == 1 and err.startswith(f"cryptaccel speed: sha3-512 [{target}]: output differs"), err


def test_speed_unknown_algorithm_lists_hashes():
    proc = speed("-a", "sha257", "--seconds", "0.01")
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "unknown algorithm 'sha257'" in err and "sha3-256" in err and "shake128" in err


def test_shake_length_limit_is_accepted_at_the_limit(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    proc = ours("-a", "shake256", "--length", str(1 << 20), "f", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == f"{hashlib.shake_256(b'abc').hexdigest(1 << 20)}  f\n".encode()


CKSUM = shutil.which("cksum")


def cksum_knows_tags() -> bool:
    """coreutils 9 cksum checks BSD-tagged lines with their tag's algorithm (older cksum only does CRC)."""
    return CKSUM is not None and b"--algorithm" in run([CKSUM, "--help"]).stdout


@pytest.mark.skipif(not cksum_knows_tags(), reason="no cksum that checks tagged lines (coreutils >= 9)")
def test_check_uses_each_tagged_lines_algorithm_as_cksum(tmp_path):
    """Without -a, BSD-tagged lines ("SHA512 (f) = ...", "SHA3-256 (f) = ...") are checked with their tag's algorithm,
    as `cksum -c` checks them; in line order, right and wrong digests alike. With -a only that algorithm's lines count
    (the others are improperly formatted), as `sha256sum -c` and `cksum -a sha256 -c`."""
    r = rng("tags")
    names = [f"f{i}" for i in range(6)]
    for name in names:
        (tmp_path / name).write_bytes(r.randbytes(r.randrange(0, 3000)))
    lines = []
    for i, name in enumerate(names):
        data = (tmp_path / name).read_bytes()
        alg, tag = [("sha512", "SHA512"), ("sha256", "SHA256"), ("sha384", "SHA384"), ("sha224", "SHA224")][i % 4]
        digest = hashlib.new(alg, data).hexdigest()
        if i == 3:
            digest = ("0" if digest[0] != "0" else "1") + digest[1:]  # one wrong
        lines.append(f"{tag} ({name}) = {digest}\n")
    (tmp_path / "sums").write_text("".join(lines))
    theirs = run([CKSUM, "-c", "sums"], cwd=tmp_path)
    mine = ours("-c", "sums", cwd=tmp_path)
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout), (mine, theirs)
    assert normalise(mine.stderr, PROG) == normalise(theirs.stderr, CKSUM)
    theirs = run([CKSUM, "-a", "sha256", "-c", "sums"], cwd=tmp_path)
    mine = ours("-a", "sha256", "-c", "sums", cwd=tmp_path)
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout), (mine, theirs)
    assert normalise(mine.stderr, PROG) == normalise(theirs.stderr, CKSUM)
    # Tags cksum does not know (SHA-3, SM3, SHA512/224) follow the same rule here; the longest tag wins.
    data = (tmp_path / "f0").read_bytes()
    (tmp_path / "more").write_text(f"SHA3-256 (f0) = {hashlib.sha3_256(data).hexdigest()}\n"
                                   f"SHA512/224 (f0) = {hashlib.new('sha512_224', data).hexdigest()}\n"
                                   f"{hashlib.sha256(data).hexdigest()}  f0\n")
    mine = ours("-c", "more", cwd=tmp_path)
    assert (mine.returncode, mine.stdout, mine.stderr) == (0, b"f0: OK\nf0: OK\nf0: OK\n", b"")
