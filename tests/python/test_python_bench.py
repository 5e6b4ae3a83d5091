"""Tests of cryptaccel.bench: the report of a speed run in Python has the shape of `cryptaccel speed --json` for the
same arguments (settings, machine, build, the set of results and their keys, errors), the table is the one the CLI
prints, failures of the check against ref are reported, and bad arguments raise ValueError (TypeError for a wrong
type). Every run uses a tiny time budget; the numbers are never compared, only their shape.
The CLI comparison needs $CRYPTACCEL_CLI (skipped without it).
"""
import json
import os
import subprocess
import threading

import pytest

import cryptaccel
from cryptaccel import bench

CLI = os.environ.get("CRYPTACCEL_CLI")
BUDGET = 0.01
HOOK = "CRYPTACCEL_SPEED_INJECT_MISMATCH"


@pytest.fixture(autouse=True)
def no_hook(monkeypatch):
    monkeypatch.delenv(HOOK, raising=False)


def cli_json(*args):
    env = {k: v for k, v in os.environ.items() if k != HOOK}
    proc = subprocess.run([CLI, "speed", *map(str, args), "--json", "-"], capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def shape(value):
    """The structure of a JSON value: dicts by key (in order), lists element by element, numbers as their kind."""
    if isinstance(value, dict):
        return [(k, shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def result_key(r):
    return (r["algo"], r["engine"], r["engine_used"], r["batch"], r["bytes"], r.get("operation"))


@pytest.mark.skipif(not CLI, reason="CRYPTACCEL_CLI is not set")
@pytest.mark.parametrize("kwargs, args", [
    (dict(algorithms=["aes-128-ctr", "sha256"], engines=["ref"], sizes=[16, "1k"], batch=2, threads=1, vs="openssl"),
     ["-a", "aes-128-ctr,sha256", "--engine", "ref", "--bytes", "16,1k", "--batch", "2", "--threads", "1",
      "--vs", "openssl"]),
    (dict(algorithms="aes-256-cbc", engines="ref", sizes=[100, 64]),
     ["-a", "aes-256-cbc", "--engine", "ref", "--bytes", "100,64"]),
    (dict(algorithms=["rsa1024"], engines=["ref"], vs="openssl"),
     ["-a", "rsa1024", "--engine", "ref", "--vs", "openssl"]),
])
def test_report_has_the_shape_of_the_cli_json(kwargs, args):
    got = bench.speed(seconds=BUDGET, **kwargs)
    want = cli_json(*args, "--seconds", BUDGET)
    assert got.ok and got.errors == []
    report = got.report
    assert list(report) == list(want)
    assert report["schema"] == want["schema"] == "cryptaccel-speed/1"
    for same in ("machine", "build", "settings", "errors"):
        assert report[same] == want[same], same
    assert [result_key(r) for r in report["results"]] == [result_key(r) for r in want["results"]]
    for mine, theirs in zip(report["results"], want["results"]):
        assert list(mine) == list(theirs)
        assert shape(mine) == shape(theirs)


def test_text_is_the_cli_table():
    result = bench.speed("aes-128-ctr", engines="ref", sizes=16, seconds=BUDGET, vs="openssl")
    lines = result.text.splitlines()
    assert lines[0].startswith(f"cryptaccel {cryptaccel.__version__} (")
    assert lines[1].startswith("vs OpenSSL")
    assert lines[2] == "The 'numbers' are in 1000s of bytes per second processed."
    assert [line.split()[:2] for line in lines[3:]] == [["type", "16"], ["aes-128-ctr", "[ref]"],
                                                        ["aes-128-ctr", "[openssl]"], ["aes-128-ctr", "[ref/openssl]"]]


def test_defaults_are_the_cli_defaults():
    result = bench.speed("sha256", engines="ref", seconds=BUDGET)
    s = result.report["settings"]
    assert s["bytes"] == [16, 64, 256, 1024, 8192, 16384]
    assert s["threads"] == 0 and s["batch"] is None and s["vs"] is None and s["seconds"] == BUDGET


def test_a_failed_check_is_an_error_not_an_exception(monkeypatch):
    monkeypatch.setenv(HOOK, "openssl")  # the test hook: the check sees a corrupted output from OpenSSL
    result = bench.speed("aes-128-ctr", engines="ref", sizes=64, seconds=BUDGET, vs="openssl")
    assert not result.ok
    assert len(result.errors) == 1 and result.errors[0].startswith("aes-128-ctr [openssl]: output differs")
    assert [(e["algo"], e["engine"]) for e in result.report["errors"]] == [("aes-128-ctr", "openssl")]
    assert {r["engine"] for r in result.report["results"]} == {"ref"}


def test_families_list_every_algorithm():
    families = bench.families()
    assert list(families) == ["cipher", "hash", "shacrypt", "rsa"]
    assert "aes-256-gcm" in families["cipher"] and "sha3-256" in families["hash"]
    assert families["shacrypt"] == ["sha512crypt", "sha256crypt"] and "rsa2048" in families["rsa"]


def test_other_threads_run_while_it_measures():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.005)

    t = threading.Thread(target=tick)
    t.start()
    try:
        bench.speed("sha256", engines="ref", sizes=[16, 64, 256], seconds=0.05)
    finally:
        done.set()
        t.join()
    assert len(ticks) > 5  # about 0.15 s of timing plus the check: the ticker ran alongside


@pytest.mark.parametrize("kwargs, message", [
    (dict(algorithms="aes-128-foo"), "unknown algorithm 'aes-128-foo'"),
    (dict(engines="nosuch"), "unknown engine 'nosuch'"),
    (dict(sizes=0), "--bytes"),
    (dict(sizes="12q"), "--bytes"),
    (dict(sizes=[-1]), "--bytes"),
    (dict(sizes="2048M"), "--bytes"),
    (dict(seconds=0), "--seconds"),
    (dict(seconds=float("nan")), "--seconds"),
    (dict(threads=-1), "--threads"),
    (dict(threads=5000), "--threads"),
    (dict(batch=0), "--batch"),
    (dict(vs="libressl"), "--vs"),
])
def test_bad_arguments_raise_value_error(kwargs, message):
    kwargs = {"algorithms": "sha256", "engines": "ref", "seconds": BUDGET, **kwargs}
    with pytest.raises(ValueError) as info:
        bench.speed(**kwargs)
    assert isinstance(info.value, cryptaccel.InvalidArgument)
    assert message in str(info.value)


@pytest.mark.parametrize("kwargs", [dict(algorithms=[1]), dict(sizes=[1.5]), dict(threads="1"), dict(batch=True),
                                    dict(seconds="soon"), dict(vs=1)])
def test_wrong_types_raise_type_error(kwargs):
    with pytest.raises(TypeError):
        bench.speed(**{"algorithms": "sha256", "engines": "ref", "seconds": BUDGET, **kwargs})
