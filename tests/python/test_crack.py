"""cryptaccel.crack, the dictionary attack as a Python API: the same finds as ``cryptaccel crack`` on a shadow-style
file (sha512crypt made by the library itself, raw SHA-256 by hashlib), keyspace slices that cover the wordlist find
what one run finds at the same positions, stopping from a progress callback or an Event, the candidates as
``cryptaccel crack --stdout -s -l`` prints them, rules, and the errors for bad arguments. Random words come from a
seeded generator (CRYPTACCEL_TEST_SEED replays a failure)."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import threading
from pathlib import Path

import pytest

import cryptaccel
from cryptaccel import crack, shacrypt

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "2711"))
CLI = os.environ.get("CRYPTACCEL_CLI")
RULES = [":", "u", "$1", "c"]


@pytest.fixture
def words(tmp_path: Path):
    rng = random.Random(SEED)
    ws = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) + str(i)
          for i in range(80)]
    path = tmp_path / "words.txt"
    path.write_text("".join(w + "\n" for w in ws))
    return ws, path


def planted(ws, rng):
    """Raw SHA-256 hex digests of some rule outputs, and one plain outside the keyspace."""
    plains = [ws[rng.randrange(len(ws))].upper(), ws[rng.randrange(len(ws))] + "1",
              ws[rng.randrange(len(ws))].capitalize(), "not-there"]
    return plains, [hashlib.sha256(p.encode()).hexdigest() for p in plains]


def test_finds_and_status(words):
    ws, path = words
    plains, hashes = planted(ws, random.Random(SEED))
    found = []
    result = crack.run(hashes, path, rules=RULES, mode="sha256", engine="cpu", on_find=found.append)
    assert result.end == "exhausted"  # one plain is not in the keyspace
    assert {f.hash: f.plain for f in result.finds} == {h: p.encode() for h, p in zip(hashes[:3], plains[:3])}
    assert found == result.finds
    for f in result.finds:  # keyspace position: word x rules + rule
        assert crack.apply_rule(RULES[f.position % len(RULES)], ws[f.position // len(RULES)]) == f.plain
        assert f.line == f.target + 1 and f.user == ""
    s = result.status
    assert s["state"] == "exhausted" and s["progress"] == s["total"] == len(ws) * len(RULES)
    assert s["recovered"] == 3 and s["targets"] == 4 and s["engine"] == "cpu" and s["eta"] is None

    every = crack.run(hashes[:3], path, rules=RULES, mode="sha256")
    assert every.end == "cracked" and len(every.finds) == 3
    known = crack.run(hashes[:3], path, rules=RULES, mode="sha256", known=[hashes[0]])
    assert {f.hash for f in known.finds} == set(hashes[1:3]) and known.status["recovered"] == 3


def test_slices_cover_the_wordlist(words):
    ws, path = words
    _, hashes = planted(ws, random.Random(SEED + 1))
    whole = {f.hash: (f.plain, f.position) for f in crack.run(hashes, path, rules=RULES, mode="sha256").finds}
    sliced = {}
    for skip, limit in ((0, 25), (25, 30), (55, None)):
        for f in crack.run(hashes, path, rules=RULES, mode="sha256", skip=skip, limit=limit, batch=9).finds:
            assert skip * len(RULES) <= f.position < (skip + (limit or len(ws))) * len(RULES)
            sliced[f.hash] = (f.plain, f.position)
    assert sliced == whole


def test_stop_from_progress_or_event(words):
    ws, path = words
    _, hashes = planted(ws, random.Random(SEED))
    seen = []
    r = crack.run(hashes, path, rules=RULES, mode="sha256", batch=10,
                  on_progress=lambda s: seen.append(s["progress"]) or len(seen) == 3)
    assert r.end == "stopped" and seen == [10, 20, 30] and r.status["state"] == "aborted"
    event = threading.Event()
    event.set()
    r = crack.run(hashes, path, rules=RULES, mode="sha256", batch=10, stop=event)
    assert r.end == "stopped" and r.status["progress"] == 10  # checked after each batch


def test_shadow_file_same_finds_as_the_cli(tmp_path, words):
    if not CLI:
        pytest.skip("CRYPTACCEL_CLI is not set: no comparison with the command")
    ws, path = words
    shadow = tmp_path / "shadow"
    lines = [f"alice:{shacrypt.hash(ws[3].upper(), salt='s1', rounds=1000)}:19000:0:99999:7:::",
             "daemon:*:19000:0:99999:7:::",
             f"bob:{shacrypt.hash(ws[40] + '1', salt='s2', rounds=1000)}:19000:0:99999:7:::",
             f"carol:{shacrypt.hash('nope', salt='s3', rounds=1000)}:19000:0:99999:7:::"]
    shadow.write_text("\n".join(lines) + "\n")
    rule_file = tmp_path / "r.rule"
    rule_file.write_text("\n".join(RULES) + "\n")
    ours = crack.run(shadow, path, rule_files=[rule_file], engine="cpu")
    assert ours.end == "exhausted"
    assert [(f.user, f.plain) for f in ours.finds] == [("alice", ws[3].upper().encode()), ("bob", (ws[40] + "1").encode())]
    assert [(s.line, s.kind, s.user) for s in ours.skipped] == [(2, "no_password_hash", "daemon")]
    cli = subprocess.run([CLI, "crack", "--potfile-disable", "--engine", "cpu", "-q", str(shadow), str(path), "-r",
                          str(rule_file)], capture_output=True, timeout=300)
    assert cli.returncode == 1, cli.stderr
    assert cli.stdout.decode().splitlines() == [f"{f.hash}:{f.plain.decode()}" for f in ours.finds]


def test_candidates_as_the_cli(words):
    ws, path = words
    got = crack.candidates(path, rules=RULES, skip=5, limit=3)
    assert got == [crack.apply_rule(r, w) for w in ws[5:8] for r in RULES]
    if CLI:
        rule_file = path.parent / "r.rule"
        rule_file.write_text("\n".join(RULES) + "\n")
        out = subprocess.run([CLI, "crack", "--stdout", "-s", "5", "-l", "3", str(path), "-r", str(rule_file)],
                             capture_output=True, check=True).stdout
        assert out.split(b"\n")[:-1] == got
    assert crack.candidates(path, skip=len(ws)) == []
    assert crack.apply_rule("sa@", "password") == b"p@ssword"
    assert crack.apply_rule("$!", b"x" * 300) is None  # too long to mangle, as hashcat


def test_bad_arguments(words, tmp_path):
    _, path = words
    h = [hashlib.sha256(b"x").hexdigest()]
    with pytest.raises(cryptaccel.InvalidArgument, match="No such file"):
        crack.run(h, tmp_path / "missing.txt", mode="sha256")
    with pytest.raises(cryptaccel.InvalidArgument, match="No such file"):
        crack.run(tmp_path / "missing-hashes", path)
    with pytest.raises(cryptaccel.InvalidArgument, match="rule function 'Z'"):
        crack.run(h, path, rules=["Z"], mode="sha256")
    with pytest.raises(cryptaccel.InvalidArgument):
        crack.run(h, path, mode="md5")
    with pytest.raises(cryptaccel.InvalidArgument, match="limit"):
        crack.run(h, path, mode="sha256", limit=0)
    with pytest.raises(cryptaccel.InvalidArgumentType):
        crack.run(h, path, rules="u", mode="sha256")  # a str, not a list of rules
    with pytest.raises(cryptaccel.InvalidArgumentType):
        crack.run(h, path, mode="sha256", skip=-1.5)
    with pytest.raises(cryptaccel.EngineUnavailable):
        crack.run(h, path, mode="sha256", engine="no-such-engine")
    r = crack.run(["zz", ""], path)  # unusable lines are reported, not raised
    assert r.end == "exhausted" and r.finds == [] and [s.line for s in r.skipped] == [1]
