"""8 GiB through `cryptaccel enc`, stdin -> stdout, under a 512 MiB address-space limit (`ulimit -v`), on the cpu and
ref engines: the stream's memory is a constant of the pipeline, never of the input. The output's SHA-256 equals that
of `openssl enc` over the same 8 GiB. Run as its own CTest entry (enc_8gib_bounded_memory: the ref engine needs
about 3 minutes of both cores here), not in the main pytest run.
"""
from __future__ import annotations

import resource
import subprocess

import pytest

from peak_rss import Measured
from test_cli_enc import CLI, OPENSSL

GIB = 1 << 30
TOTAL = 8 * GIB
KEY, IV = "0f" * 16, "a5" * 16
ADDRESS_SPACE_LIMIT = 512 << 20


def sha256_of(command_stdout) -> bytes:
    # openssl's SHA-256 (SHA-NI where the CPU has it): coreutils' sha256sum would take longer than the encryption.
    return subprocess.run([OPENSSL, "dgst", "-sha256", "-r"], stdin=command_stdout, capture_output=True,
                          check=True).stdout.split()[0]


def zeros() -> subprocess.Popen:
    return subprocess.Popen(["head", "-c", str(TOTAL), "/dev/zero"], stdout=subprocess.PIPE)


@pytest.fixture(scope="module")
def openssl_digest():
    source = zeros()
    enc = subprocess.Popen([OPENSSL, "enc", "-aes-128-ctr", "-K", KEY, "-iv", IV], stdin=source.stdout,
                           stdout=subprocess.PIPE)
    source.stdout.close()
    digest = sha256_of(enc.stdout)
    assert enc.wait() == 0 and source.wait() == 0
    return digest


@pytest.mark.parametrize("engine", ["cpu", "ref"])
def test_eight_gib_stream_in_bounded_memory(engine, openssl_digest):
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))  # noqa: E731
    source = zeros()
    run = Measured([CLI, "enc", "-aes-128-ctr", "-K", KEY, "-iv", IV, "--engine", engine], stdin=source.stdout,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)
    source.stdout.close()
    digest = sha256_of(run.proc.stdout)
    code, peak_kib = run.result(timeout=1200)
    assert code == 0, run.proc.stderr.read()
    assert source.wait() == 0
    assert digest == openssl_digest, f"{engine}: the 8 GiB output differs from openssl enc's"
    assert peak_kib < 100 * 1024, f"{engine}: peak RSS {peak_kib} KiB for an 8 GiB stream"
