"""One CLI: every sub-command answers --help and --version alike, `cryptaccel help CMD`, parser messages in one style
(one line, lower case, "(see --help)"), unknown options named, and `engines` saying plainly when there is no GPU.
Exceptions ruled by compatibility: `hash` answers no -h (sha256sum does not: "invalid option -- 'h'")."""
from __future__ import annotations

import os
import subprocess

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

SUBCOMMANDS = ["enc", "dec", "hash", "pkeyutl", "crack", "speed", "rv", "engines"]


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)


def version() -> str:
    out = run("--version").stdout.decode().split()
    assert out[0] == "cryptaccel", out
    return out[-1]


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_every_subcommand_answers_version_and_help_alike(sub):
    r = run(sub, "--version")
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == f"cryptaccel {sub} (cryptaccel) {version()}\n"
    helps = [run(sub, "--help")] + ([] if sub == "hash" else [run(sub, "-h")])
    for h in helps:
        assert h.returncode == 0 and h.stderr == b"" and len(h.stdout.splitlines()) >= 2, h
    assert run("help", sub).stdout == helps[0].stdout


def test_hash_refuses_h_as_sha256sum_does():
    r = run("hash", "-h")
    assert r.returncode == 1
    assert r.stderr.decode().splitlines()[0] == "cryptaccel hash: invalid option -- 'h'"


def test_top_level_help_names_everything_and_errors_are_one_line():
    h = run("--help")
    assert h.returncode == 0
    text = h.stdout.decode()
    for sub in SUBCOMMANDS + ["help"]:
        assert f"  {sub}" in text, sub
    for word in ("AES", "SM4", "GCM", "XTS", "SHA-3", "RSA", "SHA-crypt", "RISC-V", "GPU"):
        assert word in text, word
    assert run("help").stdout == h.stdout
    none = run()
    assert none.returncode == 1 and none.stdout == b"" and b"cryptaccel help CMD" in none.stderr
    for args, message in [(["--foo"], "cryptaccel: unknown option '--foo' (see --help)"),
                          (["frob"], "cryptaccel: unknown sub-command 'frob' (see --help)"),
                          (["help", "frob"], "cryptaccel: unknown sub-command 'frob' (see --help)"),
                          (["engines", "--bogus"], "cryptaccel: the following argument was not expected: --bogus "
                                                   "(see --help)"),
                          (["speed", "--bogus"], "cryptaccel speed: the following argument was not expected: --bogus "
                                                 "(see --help)"),
                          (["crack", "--bogus"], "cryptaccel crack: the following argument was not expected: --bogus "
                                                 "(see --help)")]:
        r = run(*args)
        assert r.returncode != 0 and r.stdout == b"", args
        assert r.stderr.decode() == message + "\n", (args, r.stderr)


def test_engines_say_plainly_when_there_is_no_gpu():
    lines = run("engines").stdout.decode().splitlines()
    cuda = [line for line in lines if line.split()[0] == "cuda"]
    if not cuda:
        pytest.skip("a build without CUDA")
    fields = cuda[0].split(None, 2)
    if fields[1] == "available":
        pytest.skip("a GPU is present")
    assert fields[2].startswith("no NVIDIA GPU found ("), cuda[0]
