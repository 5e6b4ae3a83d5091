"""`cryptaccel crack`: hashcat-style dictionary attack on SHA-crypt and raw hex digests.

Hashes come from passlib (sha512_crypt / sha256_crypt, rounds=1000 to keep the suite fast) and hashlib; rules are
checked against the examples of hashcat's rule documentation and, when Debian's `hashcat` is installed, against
`hashcat --stdout -r` on every supported function (skipped visibly without it). The executable is $CRYPTACCEL_CLI.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

passlib_hash = pytest.importorskip("passlib.hash", reason="passlib is not installed (pip install passlib)")

REPO = Path(__file__).resolve().parents[2]
SMALL_RULES = REPO / "rules" / "cryptaccel-small.rule"
DICT = Path("/usr/share/dict/american-english")  # Debian wamerican
HASHCAT = shutil.which("hashcat")
EXIT_CRACKED, EXIT_EXHAUSTED, EXIT_ABORTED, EXIT_ERROR = 0, 1, 2, 255


def run(*args, env=None, timeout=300, **kw):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([CLI, "crack", *map(str, args)], capture_output=True, env=full_env, timeout=timeout, **kw)


def sha512crypt(password: str | bytes, salt: str, rounds: int = 1000) -> str:
    return passlib_hash.sha512_crypt.using(rounds=rounds, salt=salt).hash(password)


def sha256crypt(password: str | bytes, salt: str, rounds: int = 1000) -> str:
    return passlib_hash.sha256_crypt.using(rounds=rounds, salt=salt).hash(password)


def found_lines(stdout: bytes) -> dict[str, str]:
    """hash -> plain from the `hash:plain` lines a run prints."""
    out = {}
    for line in stdout.decode("utf-8", "surrogateescape").splitlines():
        h, _, plain = line.partition(":")
        out[h] = plain
    return out


def available_engines() -> set[str]:
    listing = subprocess.run([CLI, "engines"], capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in listing.splitlines() if line.split()[1:2] == ["available"]}


def dictionary_words(n: int, start: int = 1000, step: int = 997) -> list[str]:
    """n lower-case ASCII words of the Debian wordlist, spread over it (deterministic)."""
    if not DICT.is_file():
        pytest.fail(f"{DICT} is missing: apt-get install wamerican (listed in the Makefile)", pytrace=False)
    words = [w for w in DICT.read_text(encoding="utf-8", errors="replace").splitlines()
             if w.isascii() and w.isalpha() and w.islower() and 4 <= len(w) <= 9]
    return [words[(start + i * step) % len(words)] for i in range(n)]


# --- rules -------------------------------------------------------------------------------------------------------

# Examples of hashcat's rule documentation (hashcat.net/wiki/doku.php?id=rule_based_attack): rule, input, output.
WIKI_EXAMPLES = [
    (":", "p@ssW0rd", "p@ssW0rd"), ("l", "p@ssW0rd", "p@ssw0rd"), ("u", "p@ssW0rd", "P@SSW0RD"),
    ("c", "p@ssW0rd", "P@ssw0rd"), ("C", "p@ssW0rd", "p@SSW0RD"), ("t", "p@ssW0rd", "P@SSw0RD"),
    ("T3", "p@ssW0rd", "p@sSW0rd"), ("r", "p@ssW0rd", "dr0Wss@p"), ("d", "p@ssW0rd", "p@ssW0rdp@ssW0rd"),
    ("p2", "p@ssW0rd", "p@ssW0rdp@ssW0rdp@ssW0rd"), ("f", "p@ssW0rd", "p@ssW0rddr0Wss@p"),
    ("{", "p@ssW0rd", "@ssW0rdp"), ("}", "p@ssW0rd", "dp@ssW0r"), ("$1", "p@ssW0rd", "p@ssW0rd1"),
    ("^1", "p@ssW0rd", "1p@ssW0rd"), ("[", "p@ssW0rd", "@ssW0rd"), ("]", "p@ssW0rd", "p@ssW0r"),
    ("D3", "p@ssW0rd", "p@sW0rd"), ("x04", "p@ssW0rd", "p@ss"), ("O12", "p@ssW0rd", "psW0rd"),
    ("i4!", "p@ssW0rd", "p@ss!W0rd"), ("o3$", "p@ssW0rd", "p@s$W0rd"), ("'6", "p@ssW0rd", "p@ssW0"),
    ("ss$", "p@ssW0rd", "p@$$W0rd"), ("@s", "p@ssW0rd", "p@W0rd"), ("z2", "p@ssW0rd", "ppp@ssW0rd"),
    ("Z2", "p@ssW0rd", "p@ssW0rddd"), ("q", "p@ssW0rd", "pp@@ssssWW00rrdd"), ("k", "p@ssW0rd", "@pssW0rd"),
    ("K", "p@ssW0rd", "p@ssW0dr"), ("*34", "p@ssW0rd", "p@sWs0rd"), ("R2", "p@ssW0rd", "p@9sW0rd"),
    ("+2", "p@ssW0rd", "p@tsW0rd"), ("-1", "p@ssW0rd", "p?ssW0rd"), (".1", "p@ssW0rd", "psssW0rd"),
    (",1", "p@ssW0rd", "ppssW0rd"), ("y2", "p@ssW0rd", "p@p@ssW0rd"), ("Y2", "p@ssW0rd", "p@ssW0rdrd"),
    ("E", "p@ssW0rd w0rld", "P@ssw0rd W0rld"), ("e-", "p@ssW0rd-w0rld", "P@ssw0rd-W0rld"),
    ("sa@ $1", "password", "p@ssword1"), ("c $2 $0 $2 $4", "dragon", "Dragon2024"),
]


def stdout_candidates(tmp_path: Path, words: list[bytes], rules: list[str]) -> list[bytes]:
    wl = tmp_path / "words.txt"
    wl.write_bytes(b"".join(w + b"\n" for w in words))
    rf = tmp_path / "test.rule"
    rf.write_text("\n".join(rules) + "\n")
    r = run("--stdout", wl, "-r", rf)
    assert r.returncode == 0, r.stderr
    return r.stdout.split(b"\n")[:-1]


def test_rules_documented_examples(tmp_path):
    for rule, word, expected in WIKI_EXAMPLES:
        got = stdout_candidates(tmp_path, [word.encode()], [rule])
        assert got == [expected.encode()], f"rule {rule!r} on {word!r}"


def test_rules_words_times_rules_order_and_line_ends(tmp_path):
    # Every rule on the first word, then on the second; "\r\n" and a last line without newline; empty lines count.
    wl = tmp_path / "w.txt"
    wl.write_bytes(b"abc\r\n\nxyz")
    rf = tmp_path / "r.rule"
    rf.write_text("# comment\n\n:\r\nu\n$1 $2\n")
    r = run("--stdout", wl, "-r", rf)
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"abc\nABC\nabc12\n\n\n12\nxyz\nXYZ\nxyz12\n"
    r = run("--stdout", wl)  # no rules: each line as it is
    assert r.stdout == b"abc\n\nxyz\n"


@pytest.mark.parametrize("text,message", [
    ("M", "unsupported rule function 'M' at column 1"),
    ("$1 <5", "unsupported rule function '<' at column 4"),
    ("T", "rule function 'T' at column 1 needs a position"),
    ("Tz", "'z' is not a position"),
    ("s1", "needs a character"),
])
def test_bad_rules_are_skipped_with_a_warning_naming_the_line(tmp_path, text, message):
    """As hashcat: a rule it cannot run is skipped with a warning ("skipping invalid or unsupported rule in FILE on
    line N: RULE (reason)") and the other rules run; a file with no usable rule at all is an error."""
    rf = tmp_path / "bad.rule"
    rf.write_text(f"# first\n:\n{text}\nu\n")
    wl = tmp_path / "w.txt"
    wl.write_text("x\n")
    r = run("--stdout", wl, "-r", rf)
    assert r.returncode == 0 and r.stdout == b"x\nX\n"
    err = r.stderr.decode()
    assert err.count("\n") == 1 and err.startswith(
        f"cryptaccel crack: skipping invalid or unsupported rule in {rf} on line 3: {text} (") and message in err, err
    assert run("--stdout", wl, "-r", rf, "-q").stderr == b""
    rf.write_text(f"{text}\n")
    r = run("--stdout", wl, "-r", rf)
    assert r.returncode == EXIT_ERROR and r.stdout == b""
    assert r.stderr.decode().splitlines()[-1] == f"cryptaccel crack: {rf}: no usable rules in the file"


def all_function_rules() -> list[str]:
    """Every supported function with many arguments, plus random chains of them."""
    positions = "0125ABZ"
    rules = [":", "l", "u", "c", "C", "t", "r", "d", "f", "{", "}", "[", "]", "q", "E", "k", "K"]
    rules += [code + p for code in "TpDzZLR+-.,yY'" for p in "0123456789ABC"]
    rules += [code + a + b for code in "xO*" for a in positions for b in "0137B"]
    rules += [code + a + c for code in "io3" for a in "01259" for c in "!as "]
    rules += [code + c for code in "$^@e" for c in "a1 s-:"]
    rules += ["s" + x + y for x in "as :" for y in "4$ A"]
    rng = random.Random(7)
    singles = list(rules)
    rules += [" ".join(rng.choice(singles) for _ in range(rng.randint(2, 5))) for _ in range(300)]
    return rules


def hashcat_stdout_per_word(tmp_path: Path, rule_file: Path, words: list[bytes]) -> list[list[bytes]]:
    """`hashcat --stdout -r rule_file` on each word alone, two hashcats at a time (each spends seconds starting).
    One word per run because hashcat 6.2.6 orders a multi-word run in blocks of rules across words, and garbles
    `d` and `f` on some words there (seen: "although" + d -> "althougha||moww{")."""
    def start(i: int, word: bytes) -> subprocess.Popen:
        wl = tmp_path / f"hc-word-{i}.txt"
        wl.write_bytes(word + b"\n")
        home = tmp_path / f"hc-home-{i}"  # hashcat runs one instance per session and profile directory
        home.mkdir(exist_ok=True)
        return subprocess.Popen([HASHCAT, "--stdout", "--session", f"cryptaccel-test-{i}", "-r", str(rule_file),
                                 str(wl)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                env=dict(os.environ, HOME=str(home)))

    outputs = []
    for at in range(0, len(words), 2):
        procs = [start(i, w) for i, w in enumerate(words[at:at + 2], at)]
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            assert b"Skipping" not in err, err  # every rule is one hashcat accepts
            outputs.append(out.split(b"\n")[:-1])
    return outputs


@pytest.mark.skipif(HASHCAT is None, reason="hashcat is not installed (apt-get install hashcat): no comparison")
def test_rules_identical_to_hashcat_stdout(tmp_path):
    rules = all_function_rules()
    rf = tmp_path / "all.rule"
    rf.write_text("\n".join(rules) + "\n")
    # No byte that a rule could turn into '\n' (0x85 << 1, 0x0b - 1, ...): outputs are split at newlines.
    words = [b"", b"ab", b"p@ssW0rd", b"Hello World-wide web", b"sassy as ass", b"y" * 127, b"u" * 255, b"t" * 256,
             b"s" * 257, bytes([0x80, 0x81, 0xc3, 0xa9, 0xfe, 0xff, 0x7f, 0x20])]
    theirs = hashcat_stdout_per_word(tmp_path, rf, words)
    for word, hc in zip(words, theirs):
        ours = stdout_candidates(tmp_path, [word], rules)
        assert len(ours) == len(hc), f"word {word[:20]!r}: {len(ours)} vs hashcat's {len(hc)} candidates"
        for rule, a, b in zip(rules, ours, hc):
            assert a == b, f"rule {rule!r} on {word[:20]!r}: {a[:40]!r} vs hashcat {b[:40]!r}"
    assert sum(map(len, theirs)) == (len(words) - 1) * len(rules)  # all but the 257-byte word


@pytest.mark.skipif(HASHCAT is None, reason="hashcat is not installed (apt-get install hashcat): no comparison")
def test_shipped_rules_identical_to_hashcat(tmp_path):
    words = [w.encode() for w in dictionary_words(2)] + [b"", b"a:b"]
    theirs = hashcat_stdout_per_word(tmp_path, SMALL_RULES, words)
    wl = tmp_path / "w.txt"
    wl.write_bytes(b"".join(w + b"\n" for w in words))
    ours = run("--stdout", wl, "-r", SMALL_RULES)
    assert ours.returncode == 0
    assert ours.stdout.split(b"\n")[:-1] == [c for per_word in theirs for c in per_word]
    assert sum(map(len, theirs)) == 61 * len(words)


HASHCAT_RULE_DIR = Path("/usr/share/hashcat/rules")
HASHCAT_SKIP_PREFIXES = (b"Skipping invalid or unsupported rule in file ", b"Cannot convert rule for use on OpenCL device")


def hashcat_stdout_with_skips(tmp_path: Path, rule_file: Path, word: bytes, tag: str):
    """`hashcat --stdout -r rule_file` on one word: (candidates, line numbers hashcat skipped). hashcat 6.2.6 prints
    its skip warnings on stdout, between the candidates."""
    wl = tmp_path / f"hc-{tag}.txt"
    wl.write_bytes(word + b"\n")
    home = tmp_path / f"hc-home-{tag}"
    home.mkdir(exist_ok=True)
    proc = subprocess.run([HASHCAT, "--stdout", "--session", f"cryptaccel-{tag}", "-r", str(rule_file), str(wl)],
                          capture_output=True, stdin=subprocess.DEVNULL, env=dict(os.environ, HOME=str(home)),
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    candidates, skipped = [], set()
    for line in proc.stdout.split(b"\n")[:-1]:
        if line.startswith(HASHCAT_SKIP_PREFIXES):
            skipped.add(int(line.split(b" on line ")[1].split(b":")[0]))
        else:
            candidates.append(line)
    return candidates, skipped


@pytest.mark.skipif(HASHCAT is None, reason="hashcat is not installed (apt-get install hashcat): no comparison")
@pytest.mark.parametrize("rule_file", sorted(HASHCAT_RULE_DIR.glob("*.rule")), ids=lambda p: p.name)
def test_every_shipped_hashcat_rule_file_as_hashcat(tmp_path, rule_file):
    """Every rule file Debian's hashcat ships runs whole: the rules hashcat skips (unsupported functions, malformed
    lines, and the memory and reject functions it cannot convert for its devices) are skipped here too, each with a
    warning naming the file and line, and every other rule gives hashcat's candidate, in hashcat's order."""
    word = b"p@ssW0rd1"
    theirs, hashcat_skipped = hashcat_stdout_with_skips(tmp_path, rule_file, word, rule_file.stem)
    wl = tmp_path / "w.txt"
    wl.write_bytes(word + b"\n")
    ours = run("--stdout", wl, "-r", rule_file)
    assert ours.returncode == 0, ours.stderr
    our_skipped = set()
    for line in ours.stderr.decode("utf-8", "surrogateescape").splitlines():
        assert line.startswith(f"cryptaccel crack: skipping invalid or unsupported rule in {rule_file} on line "), line
        our_skipped.add(int(line.split(" on line ")[1].split(":")[0]))
    assert our_skipped == hashcat_skipped
    assert ours.stdout.split(b"\n")[:-1] == theirs


def test_stacked_rule_files_combine_as_hashcat(tmp_path):
    """-r A -r B: every pair, A's rule then B's, A varying fastest (checked against hashcat where installed)."""
    a, b = tmp_path / "a.rule", tmp_path / "b.rule"
    a.write_text("l\nu\n")
    b.write_text("$1\n$2\n^x\n")
    wl = tmp_path / "w.txt"
    wl.write_text("Word\nTwo\n")
    r = run("--stdout", wl, "-r", a, "-r", b)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [b"word1", b"WORD1", b"word2", b"WORD2", b"xword", b"xWORD",
                                b"two1", b"TWO1", b"two2", b"TWO2", b"xtwo", b"xTWO"]
    if HASHCAT:
        stacked = tmp_path / "ab.rule"  # hashcat's own stacking, one word per run, against ours
        for word in (b"Word", b"Two"):
            one = tmp_path / "one.txt"
            one.write_bytes(word + b"\n")
            home = tmp_path / "hc-home-stack"
            home.mkdir(exist_ok=True)
            hc = subprocess.run([HASHCAT, "--stdout", "--session", "cryptaccel-stack", "-r", str(a), "-r", str(b),
                                 str(one)], capture_output=True, env=dict(os.environ, HOME=str(home)), timeout=300)
            ours = run("--stdout", one, "-r", a, "-r", b)
            assert ours.stdout == hc.stdout, (word, ours.stdout, hc.stdout)
        del stacked


def test_wordlist_from_stdin(tmp_path):
    """No WORDLIST, or '-': candidates from stdin (`crunch ... | cryptaccel crack hashes`), for --stdout and an attack."""
    words = b"alpha\nbravo\ncharlie\n"
    r = run("--stdout", "-r", SMALL_RULES, input=words)
    wl = tmp_path / "w.txt"
    wl.write_bytes(words)
    assert r.returncode == 0 and r.stdout == run("--stdout", wl, "-r", SMALL_RULES).stdout
    hashes = tmp_path / "h.txt"
    hashes.write_text(hashlib.sha256(b"Bravo1").hexdigest() + "\n")
    for wordlist in ([], ["-"]):
        r = run("-m", "sha256", "--potfile-disable", "--engine", "cpu", hashes, *wordlist, "-r", SMALL_RULES,
                input=words)
        assert r.returncode == EXIT_CRACKED, r.stderr
        assert found_lines(r.stdout) == {hashlib.sha256(b"Bravo1").hexdigest(): "Bravo1"}
        assert b"words from stdin" in r.stderr


def test_skip_and_limit_slice_the_wordlist(tmp_path):
    """-s/--skip and -l/--limit take words [skip, skip + limit), each with every rule, as hashcat's -s and -l: for
    --stdout and for an attack, where slices that cover the wordlist find what one run finds and nothing outside."""
    words = [f"word{i}".encode() for i in range(10)]
    wl = tmp_path / "w.txt"
    wl.write_bytes(b"".join(w + b"\n" for w in words))
    rf = tmp_path / "r.rule"
    rf.write_text(":\nu\n$1\n")
    full = run("--stdout", wl, "-r", rf).stdout.split(b"\n")[:-1]
    assert len(full) == 30
    assert run("--stdout", wl, "-r", rf, "-s", 2, "-l", 3).stdout.split(b"\n")[:-1] == full[6:15]
    assert run("--stdout", wl, "-r", rf, "--skip", 8).stdout.split(b"\n")[:-1] == full[24:]
    assert run("--stdout", wl, "-r", rf, "-s", 12).stdout == b""
    assert run("--stdout", wl, "-l", 0).returncode == EXIT_ERROR  # a limit is at least one word

    plains = [b"WORD1", b"word41", b"word7", b"WORD9", b"word10"]  # word10: not in the keyspace
    hashes = tmp_path / "h.txt"
    hashes.write_text("".join(hashlib.sha256(p).hexdigest() + "\n" for p in plains))
    found = {}
    for skip, limit in ((0, 4), (4, 4), (8, None)):
        args = ["-s", skip] + (["-l", limit] if limit else [])
        r = run("-m", "sha256", "--potfile-disable", "--engine", "cpu", hashes, wl, "-r", rf, *args)
        assert r.returncode == EXIT_EXHAUSTED, r.stderr
        part = found_lines(r.stdout)
        for plain in part.values():
            assert int(plain.lower().strip("word")[:1]) in range(skip, skip + (limit or 10)), (skip, plain)
        found.update(part)
    whole = run("-m", "sha256", "--potfile-disable", "--engine", "cpu", hashes, wl, "-r", rf)
    assert found == found_lines(whole.stdout) and len(found) == 4


@pytest.mark.skipif(HASHCAT is None, reason="hashcat is not installed (apt-get install hashcat): no comparison")
def test_skip_and_limit_as_hashcat(tmp_path):
    wl = tmp_path / "w.txt"
    wl.write_text("alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\n")
    # Rules without d and f, which hashcat 6.2.6 garbles in multi-word runs (see hashcat_stdout_per_word).
    rf = tmp_path / "r.rule"
    rf.write_text(":\nu\n$1\nc\nr\nT0\n")
    home = tmp_path / "hc-home"
    home.mkdir()
    theirs = subprocess.run([HASHCAT, "--stdout", "-s", "2", "-l", "3", "-r", str(rf), str(wl)],
                            capture_output=True, env=dict(os.environ, HOME=str(home)), timeout=300)
    assert theirs.returncode == 0, theirs.stderr
    ours = run("--stdout", "-s", 2, "-l", 3, "-r", rf, wl)
    assert ours.returncode == 0
    assert ours.stdout == theirs.stdout and len(ours.stdout.split(b"\n")[:-1]) == 3 * 6


def test_hashcat_command_line_options(tmp_path):
    """hashcat's -a 0, -O, -w N, --force, --username port (noted as changing nothing); other attack modes are
    refused in one line; --outfile-format picks and orders the fields of a find's line."""
    plain = b"Bravo1"
    digest = hashlib.sha256(plain).hexdigest()
    hashes = tmp_path / "h.txt"
    hashes.write_text(f"bob:{digest}\n")
    wl = tmp_path / "w.txt"
    wl.write_bytes(b"alpha\n" + plain + b"\n")
    base = ["-m", "1400", "--potfile-disable", "--engine", "cpu"]
    r = run("-a", "0", "-O", "-w", "3", "--force", "--username", *base, hashes, wl)
    assert r.returncode == EXIT_CRACKED, r.stderr
    assert found_lines(r.stdout) == {digest: "Bravo1"}
    for option in ("-O", "-w", "--force", "--username"):
        assert f"cryptaccel crack: {option} is accepted for hashcat command lines and changes nothing here".encode() \
            in r.stderr
    r = run("-a", "3", *base, hashes, "?d?d?d")
    assert r.returncode == EXIT_ERROR and r.stdout == b""
    assert r.stderr.count(b"\n") == 1 and b"attack mode 3 is not supported: only -a 0" in r.stderr
    r = run(*base, "--outfile-format", "2,3,1,4", hashes, wl)
    assert r.returncode == EXIT_CRACKED, r.stderr
    assert r.stdout == f"Bravo1:{plain.hex()}:{digest}:1\n".encode()
    r = run(*base, "--outfile-format", "2,7", hashes, wl)
    assert r.returncode == EXIT_ERROR and b"'7' is not one of 1-6" in r.stderr


def test_shadow_accounts_without_hash_are_one_note_and_empty_password_a_finding(tmp_path):
    """A real /etc/shadow has many locked and system accounts ('*', '!', '!!', '!$6$...'): normal, one note (none
    with -q). An account whose password field is empty needs no password: its own line, even with -q."""
    digest_line = f"alice:{sha512crypt('alpha', 'saltsaltA')}:19700:0:99999:7:::"
    shadow = tmp_path / "shadow"
    shadow.write_text("\n".join(["root:*:19700:0:99999:7:::", "daemon:*:19700:0:99999:7:::", "bin:!:19700::::::",
                                 "carol:!!:19700::::::", f"dave:!{sha512crypt('x', 'saltsaltB')}:19700::::::",
                                 digest_line, "guest::19700:0:99999:7:::", "broken:$1$abc$def:19700::::::"]) + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("alpha\n")
    r = run("--potfile-disable", "--engine", "cpu", shadow, wl)
    assert r.returncode == EXIT_CRACKED, r.stderr
    err = r.stderr.decode()
    assert "5 accounts have no password hash (locked, disabled or shadowed): skipped" in err
    assert f"cryptaccel crack: {shadow}:7: account 'guest' has an empty password field: it needs no password" in err
    assert f"{shadow}:8: unsupported hash type" in err  # an error in the input is always said
    r = run("-q", "--potfile-disable", "--engine", "cpu", shadow, wl)
    assert r.returncode == EXIT_CRACKED
    assert sorted(r.stderr.decode().splitlines()) == sorted([
        f"cryptaccel crack: {shadow}:7: account 'guest' has an empty password field: it needs no password",
        f"{shadow}:8: unsupported hash type (only $5$ and $6$ SHA-crypt)"])


# --- cracking SHA-crypt ------------------------------------------------------------------------------------------

def shadow_case(tmp_path: Path, include_uncrackable: bool):
    """A shadow file whose answers are known: dictionary words, some through the shipped rules' transformations."""
    words = dictionary_words(12)
    plains = {
        "alice": words[2],                                    # rule ':'
        "bob": words[5].capitalize() + "1",                   # rule 'c $1'
        "carol": words[7] + "2024",                           # rule '$2 $0 $2 $4'
        "dave": words[9].replace("a", "@").replace("e", "3").replace("i", "1").replace("o", "0"),  # leetspeak
        "erin": words[3].upper(),                             # rule 'u' (sha256crypt)
    }
    lines = [
        f"alice:{sha512crypt(plains['alice'], 'saltsaltA')}:19700:0:99999:7:::",
        f"bob:{sha512crypt(plains['bob'], 'saltsaltA')}:19700:0:99999:7:::",
        f"carol:{sha512crypt(plains['carol'], 'saltsaltA')}:19700:0:99999:7:::",
        f"dave:{sha512crypt(plains['dave'], 'perUserSalt16chr')}:19700:0:99999:7:::",
        f"erin:{sha256crypt(plains['erin'], 'shortsalt')}:19700:0:99999:7:::",
        "daemon:*:19700:0:99999:7:::",
    ]
    if include_uncrackable:
        lines.append(f"mallory:{sha512crypt('Zq' + words[1] + '!x9', 'saltsaltA')}:19700:0:99999:7:::")
    shadow = tmp_path / "shadow"
    shadow.write_text("\n".join(lines) + "\n")
    wl = tmp_path / "words.txt"
    wl.write_text("\n".join(words) + "\n")
    hashes = {user: line.split(":")[1] for user, line in zip(["alice", "bob", "carol", "dave", "erin"], lines)}
    expected = {hashes[u]: plains[u] for u in plains}
    return shadow, wl, expected, lines


@pytest.mark.parametrize("engine", ["ref", "cpu", "cuda"])
def test_crack_shadow_file_every_engine(tmp_path, engine):
    if engine not in available_engines():
        pytest.skip(f"engine {engine} is not available here")
    shadow, wl, expected, lines = shadow_case(tmp_path, include_uncrackable=True)
    pot = tmp_path / "pot"
    r = run(shadow, wl, "--rules", SMALL_RULES, "--engine", engine, "--potfile-path", pot)
    assert r.returncode == EXIT_EXHAUSTED, r.stderr
    assert found_lines(r.stdout) == expected
    err = r.stderr.decode()
    assert "cryptaccel crack: 1 account has no password hash (locked, disabled or shadowed): skipped" in err
    # The potfile holds exactly the finds, in hashcat's format.
    assert dict(line.split(":", 1) for line in pot.read_text().splitlines()) == expected

    # --show: user:hash:plain in file order (hashcat --username); --left: the rest.
    show = run(shadow, "--show", "--potfile-path", pot)
    assert show.returncode == 0
    want = [f"{l.split(':')[0]}:{l.split(':')[1]}:{expected[l.split(':')[1]]}" for l in lines
            if l.split(":")[1] in expected]
    assert show.stdout.decode().splitlines() == want
    left = run(shadow, "--left", "--potfile-path", pot)
    assert left.stdout.decode().splitlines() == [":".join(lines[-1].split(":")[:2])]

    # A second run skips what the potfile holds: only mallory is searched for.
    again = run(shadow, wl, "--rules", SMALL_RULES, "--engine", engine, "--potfile-path", pot)
    assert again.returncode == EXIT_EXHAUSTED and again.stdout == b""
    assert "5 already in the potfile" in again.stderr.decode()


def test_crack_all_cracked_exit_0_sha512crypt_cpu(tmp_path):
    if "cpu" not in available_engines():
        pytest.skip("engine cpu is not available here")
    shadow, wl, expected, lines = shadow_case(tmp_path, include_uncrackable=False)
    sha512_only = [l for l in lines if "$6$" in l]
    shadow.write_text("\n".join(sha512_only) + "\n")
    out = tmp_path / "found.txt"
    r = run("-m", "sha512crypt", shadow, wl, "-r", SMALL_RULES, "--engine", "cpu", "--potfile-disable", "-o", out)
    assert r.returncode == EXIT_CRACKED, r.stderr
    assert r.stdout == b""  # finds go to -o
    want = {l.split(":")[1]: expected[l.split(":")[1]] for l in sha512_only}
    assert found_lines(out.read_bytes()) == want
    # -o appends, as hashcat's outfile
    r = run("-m", "sha512crypt", shadow, wl, "-r", SMALL_RULES, "--engine", "cpu", "--potfile-disable", "-o", out)
    assert r.returncode == EXIT_CRACKED
    assert len(out.read_text().splitlines()) == 2 * len(want)


def test_crack_mode_mismatch_lines_are_reported(tmp_path):
    lines = [sha256crypt("x", "s1"), "not a hash", "$1$abc$def", "u:" + "ab" * 32, sha512crypt("y", "s2")]
    hf = tmp_path / "h.txt"
    hf.write_text("\n".join(lines) + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("y\n")
    r = run("-m", "sha512crypt", hf, wl, "--potfile-disable")
    assert r.returncode == EXIT_CRACKED
    err = r.stderr.decode().splitlines()
    assert f"{hf}:1: a sha256crypt hash, but -m is sha512crypt" in err
    assert f"{hf}:2: not a SHA-crypt hash or a hex digest" in err
    assert f"{hf}:3: unsupported hash type (only $5$ and $6$ SHA-crypt)" in err
    assert f"{hf}:4: a hex digest, but -m is sha512crypt" in err
    assert found_lines(r.stdout) == {lines[4]: "y"}


# --- raw hex digests ---------------------------------------------------------------------------------------------

def sm3_hex(data: bytes) -> str:
    try:
        return hashlib.new("sm3", data).hexdigest()
    except ValueError:
        from cryptography.hazmat.primitives import hashes
        h = hashes.Hash(hashes.SM3())
        h.update(data)
        return h.finalize().hex()


RAW = {
    "sha256": lambda b: hashlib.sha256(b).hexdigest(),
    "sha512": lambda b: hashlib.sha512(b).hexdigest(),
    "sha3-256": lambda b: hashlib.sha3_256(b).hexdigest(),
    "sm3": sm3_hex,
}


@pytest.mark.parametrize("mode", sorted(RAW))
@pytest.mark.parametrize("engine", ["ref", "cpu"])
def test_raw_digests(tmp_path, mode, engine):
    if engine not in available_engines():
        pytest.skip(f"engine {engine} is not available here")
    words = dictionary_words(300, start=5)
    plains = [words[10], words[200].capitalize() + "7", words[299] + "1999", words[0][::-1]]
    digest = RAW[mode]
    hf = tmp_path / "h.txt"
    hf.write_text("".join(f"u{i}:{digest(p.encode()).upper()}\n" for i, p in enumerate(plains)) +
                  digest(b"definitely not in the list") + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words) + "\n")
    r = run("-m", mode, hf, wl, "-r", SMALL_RULES, "--engine", engine, "--potfile-disable")
    assert r.returncode == EXIT_EXHAUSTED, r.stderr
    assert found_lines(r.stdout) == {digest(p.encode()): p for p in plains}


def test_raw_mode_detection(tmp_path):
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha512(b"abc").hexdigest() + "\n" + hashlib.sha256(b"abc").hexdigest() + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("abc\n")
    r = run(hf, wl, "--potfile-disable")  # 128 digits: sha512; 64 digits is ambiguous without -m
    assert r.returncode == EXIT_CRACKED
    assert found_lines(r.stdout) == {hashlib.sha512(b"abc").hexdigest(): "abc"}
    assert f"{hf}:2: 64 hex digits could be sha256, sha3-256 or sm3: choose one with -m" in r.stderr.decode()
    hf.write_text(hashlib.sha256(b"abc").hexdigest() + "\n")
    r = run(hf, wl, "--potfile-disable")
    assert r.returncode == EXIT_ERROR
    assert r.stderr.decode().splitlines()[-1] == f"cryptaccel crack: {hf}: no usable hashes"


# --- potfile -----------------------------------------------------------------------------------------------------

AWKWARD = [b"pass:word", "p\u00e4ssw\u00f6rd".encode("latin-1"), b" lead", b"trail ", b"tab\there",
           b"$HEX[4142]", "caf\u00e9".encode("utf-8"), b"plain"]


def hashcat_hex(plain: bytes) -> str:
    return "$HEX[" + plain.hex() + "]"


def test_potfile_round_trip_awkward_plains(tmp_path):
    hf = tmp_path / "h.txt"
    hf.write_text("".join(hashlib.sha256(p).hexdigest() + "\n" for p in AWKWARD))
    wl = tmp_path / "w.txt"
    wl.write_bytes(b"".join(p + b"\n" for p in AWKWARD))
    pot = tmp_path / "sub" / "dir" / "pot"  # created on the first find
    r = run("-m", "sha256", hf, wl, "--potfile-path", pot)
    assert r.returncode == EXIT_CRACKED, r.stderr
    # hashcat's rule: $HEX[] for ':' (the separator), bytes below 0x20, invalid UTF-8 and "$HEX[...]" itself;
    # cryptaccel adds leading/trailing spaces. Valid UTF-8 ("café") and plain ASCII stay as they are.
    want = {hashlib.sha256(p).hexdigest(): (hashcat_hex(p) if p not in (b"plain", "caf\u00e9".encode()) else
                                            p.decode()) for p in AWKWARD}
    lines = pot.read_bytes().decode("utf-8").splitlines()
    assert dict(l.split(":", 1) for l in lines) == want
    assert found_lines(r.stdout) == want
    assert oct(pot.stat().st_mode & 0o777) == "0o600"
    show = run("-m", "sha256", hf, "--show", "--potfile-path", pot)
    assert found_lines(show.stdout) == want
    # everything cracked already: exit 0 without hashing
    again = run("-m", "sha256", hf, wl, "--potfile-path", pot)
    assert again.returncode == EXIT_CRACKED and again.stdout == b""
    assert "already" in again.stderr.decode()


def test_potfile_hashcat_written_entries_are_read(tmp_path):
    # Lines as hashcat writes them (a $HEX[] plain, upper-case hex too) and a torn last line are handled.
    p1, p2 = b"a:b", b"qwerty"
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha256(p1).hexdigest() + "\n" + hashlib.sha256(p2).hexdigest() + "\n")
    pot = tmp_path / "pot"
    pot.write_text(f"{hashlib.sha256(p1).hexdigest()}:$HEX[{p1.hex().upper()}]\n"
                   f"{hashlib.sha256(p2).hexdigest()}:qwer")  # interrupted write: no newline
    show = run("-m", "sha256", hf, "--show", "--potfile-path", pot)
    assert show.stdout.decode().splitlines() == [f"{hashlib.sha256(p1).hexdigest()}:$HEX[613a62]"]
    wl = tmp_path / "w.txt"
    wl.write_text("qwerty\n")
    r = run("-m", "sha256", hf, wl, "--potfile-path", pot)
    assert r.returncode == EXIT_CRACKED
    lines = pot.read_text().split("\n")
    assert lines[-1] == "" and lines[-2] == f"{hashlib.sha256(p2).hexdigest()}:qwerty"  # after a fresh '\n'


def test_default_potfile_under_xdg_data_home(tmp_path):
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha256(b"abc").hexdigest() + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("abc\n")
    xdg = tmp_path / "xdg"
    r = run("-m", "sha256", hf, wl, env={"XDG_DATA_HOME": str(xdg)})
    assert r.returncode == EXIT_CRACKED
    assert (xdg / "cryptaccel" / "cryptaccel.potfile").read_text() == f"{hashlib.sha256(b'abc').hexdigest()}:abc\n"
    home = tmp_path / "home"
    r = run("-m", "sha256", hf, wl, env={"XDG_DATA_HOME": "", "HOME": str(home)})
    assert r.returncode == EXIT_CRACKED
    assert (home / ".local" / "share" / "cryptaccel" / "cryptaccel.potfile").is_file()


# --- errors, status, signals -------------------------------------------------------------------------------------

def test_unreadable_inputs_are_one_line_errors(tmp_path):
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha512(b"abc").hexdigest() + "\n")
    cases = [
        ([hf, tmp_path / "missing.txt"], f"{tmp_path / 'missing.txt'}: No such file or directory"),
        ([hf, tmp_path], f"{tmp_path}: Is a directory"),
        ([tmp_path / "nohash", hf], f"{tmp_path / 'nohash'}: No such file or directory"),
        ([hf, hf, "-r", tmp_path / "none.rule"], f"{tmp_path / 'none.rule'}: No such file or directory"),
        ([hf, hf, "-a", "1"], "attack mode 1 is not supported"),
        ([hf, hf, "-m", "md5"], "unknown hash mode 'md5'"),
        ([hf, "--show", "--potfile-disable"], "--show and --left read the potfile"),
    ]
    for args, message in cases:
        r = run(*args, "--potfile-disable" if "--show" not in args else "--quiet")
        err = r.stderr.decode()
        assert r.returncode == EXIT_ERROR, (args, err)
        assert err.count("\n") == 1 and message in err and err.startswith("cryptaccel crack: "), (args, err)
        assert r.stdout == b""


def test_status_json_lines(tmp_path):
    words = dictionary_words(300, start=3)
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha256(words[-1].encode() + b"1").hexdigest() + "\n" + hashlib.sha256(b"nope").hexdigest()
                  + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words) + "\n")
    r = run("-m", "sha256", hf, wl, "-r", SMALL_RULES, "--potfile-disable", "--status-json", "--status-timer",
            "0.001", "--batch", "500")
    assert r.returncode == EXIT_EXHAUSTED
    objs = [json.loads(l) for l in r.stderr.decode().splitlines() if l.startswith("{")]
    assert len(objs) >= 2
    total = 300 * 61
    for o in objs:
        assert set(o) == {"status", "progress", "progress_percent", "speed_hs", "elapsed_s", "eta_s",
                          "recovered_hashes", "recovered_settings", "engine", "time_start", "estimated_stop"}
        assert o["progress"][1] == total and o["recovered_hashes"][1] == 2
    assert [o["progress"][0] for o in objs] == sorted(o["progress"][0] for o in objs)
    assert objs[0]["status"] == "running" and objs[-1]["status"] == "exhausted"
    assert objs[-1]["progress"] == [total, total] and objs[-1]["recovered_hashes"] == [1, 2]
    assert objs[-1]["recovered_settings"] == [0, 1] and objs[-1]["eta_s"] is None


def test_status_line_text(tmp_path):
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha256(b"nope").hexdigest() + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("a\nb\n")
    r = run("-m", "sha256", hf, wl, "--potfile-disable", "--status")
    assert r.returncode == EXIT_EXHAUSTED
    last = r.stderr.decode().splitlines()[-1]
    assert last.startswith("Status: Exhausted | Progress: 2/2 (100.00%) | Speed: ")
    assert "| Recovered: 0/1 (0.00%) |" in last and "| Engine: " in last
    quiet = run("-m", "sha256", hf, wl, "--potfile-disable", "--status", "--quiet")
    assert quiet.returncode == EXIT_EXHAUSTED and quiet.stderr == b""


def test_sigint_keeps_potfile_valid_and_exits_2(tmp_path):
    if "cpu" not in available_engines():
        pytest.skip("engine cpu is not available here")
    words = dictionary_words(20000, start=0, step=1)  # long run: 20 000 words x 61 rules of sha512crypt
    early = words[3]
    hf = tmp_path / "h.txt"
    hf.write_text(sha512crypt(early, "earlysalt") + "\n" + sha512crypt("!never-in-list!", "othersalt") + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words) + "\n")
    pot = tmp_path / "pot"
    proc = subprocess.Popen([CLI, "crack", str(hf), str(wl), "-r", str(SMALL_RULES), "--engine", "cpu",
                             "--potfile-path", str(pot), "--status"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (pot.exists() and pot.read_text().endswith("\n")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pot.exists(), "the early word was not found in time"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_ABORTED, err
    text = pot.read_text()
    assert text.endswith("\n")
    entries = dict(line.split(":", 1) for line in text.splitlines())
    assert entries == {sha512crypt(early, "earlysalt"): early}
    for h, plain in entries.items():
        assert passlib_hash.sha512_crypt.verify(plain, h)
    assert "Status: Aborted" in err.decode()
    assert found_lines(out) == entries


def test_live_status_line_fits_the_terminal(tmp_path):
    """On a terminal the status is one line rewritten in place: it must never wrap, so it is cut to the terminal's
    width (here a 60-column pseudo-terminal) and says the essentials in a short form."""
    import fcntl
    import pty
    import struct
    import termios

    words = dictionary_words(400, start=3)
    hf = tmp_path / "h.txt"
    hf.write_text(hashlib.sha256(b"never-in-the-list").hexdigest() + "\n")
    wl = tmp_path / "w.txt"
    wl.write_text("\n".join(words) + "\n")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    proc = subprocess.Popen([CLI, "crack", "-m", "sha256", "--potfile-disable", "--engine", "ref", "--batch", "50",
                             "--status-timer", "0.001", "-r", str(SMALL_RULES), str(hf), str(wl)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the other end closed
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    assert proc.returncode == EXIT_EXHAUSTED
    text = b"".join(chunks).decode("utf-8", "replace")
    lines = [part.replace("\x1b[K", "") for line in text.split("\n") for part in line.split("\r")]
    status = [line for line in lines if line.startswith(("Running", "Exhausted"))]
    assert len(status) >= 2, text[-500:]
    assert all(len(line) <= 59 for line in status), max(status, key=len)
    assert status[-1].startswith("Exhausted 100.00% | ")  # the full line is longer than 59: cut, not wrapped
