"""`cryptaccel enc`/`dec` streaming (CipherStream behind the CLI): inputs that cross the 1 MiB chunks and the batches,
byte for byte against the `openssl` binary both ways; memory bounded whatever the input size; SIGINT leaves nothing
behind; the same file as input and output works through the temporary file. Data is random: CRYPTACCEL_TEST_SEED
replays (the seed is in every message).
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import pytest

from peak_rss import Measured
from test_cli_enc import CLI, OPENSSL, SEED, key_size, ok, rbytes, rng

MIB = 1 << 20
# Around one chunk, and past a batch (at most 16 chunks of 1 MiB), with odd tails.
STREAM_LENGTHS = [MIB - 1, MIB, MIB + 1, 17 * MIB + 33]
STREAM_CIPHERS = ["aes-128-ctr", "aes-256-cbc", "aes-128-ecb", "sm4-ctr"]


def run_file(args, tmp_path, data: bytes):
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    proc = subprocess.run([str(a) for a in [*args, "-in", src, "-out", dst]], capture_output=True, timeout=120)
    return proc, (dst.read_bytes() if dst.exists() else None)


@pytest.mark.parametrize("cipher", STREAM_CIPHERS)
@pytest.mark.parametrize("length", STREAM_LENGTHS)
def test_streams_match_openssl_both_ways(cipher, length, tmp_path):
    r = rng("stream", cipher, length)
    key, iv, data = rbytes(r, key_size(cipher)).hex(), rbytes(r, 16).hex(), rbytes(r, length)
    iv_args = [] if cipher.endswith("-ecb") else ["-iv", iv]
    context = f"seed={SEED} {cipher} length {length}"
    proc, ours = run_file([CLI, "enc", f"-{cipher}", "-K", key, *iv_args, "--engine", "cpu"], tmp_path, data)
    ok(proc, context)
    proc, theirs = run_file([OPENSSL, "enc", f"-{cipher}", "-K", key, *iv_args], tmp_path, data)
    assert proc.returncode == 0, proc.stderr
    assert ours == theirs, context
    proc, back = run_file([CLI, "dec", f"-{cipher}", "-K", key, *iv_args], tmp_path, theirs)
    ok(proc, context)
    assert back == data, context


def test_xts_with_data_units_streams(tmp_path):
    r = rng("xts-stream")
    key, data = rbytes(r, 64).hex(), rbytes(r, 3 * MIB + 4096)
    whole, _ = run_file([CLI, "enc", "-aes-256-xts", "-K", key, "--xts-sector", "5", "--xts-unit", "4096",
                         "--engine", "ref"], tmp_path, data)
    ok(whole)
    proc, streamed = run_file([CLI, "enc", "-aes-256-xts", "-K", key, "--xts-sector", "5", "--xts-unit", "4096",
                               "--engine", "cpu"], tmp_path, data)
    ok(proc)
    # Unit i is XTS under tweak 5 + i, whatever the chunking: compare unit 300 with a one-unit encryption of it.
    unit = data[300 * 4096:301 * 4096]
    proc, single = run_file([CLI, "enc", "-aes-256-xts", "-K", key, "--xts-sector", "305"], tmp_path, unit)
    ok(proc)
    assert streamed[300 * 4096:301 * 4096] == single
    proc, back = run_file([CLI, "dec", "-aes-256-xts", "-K", key, "--xts-sector", "5", "--xts-unit", "4096"],
                          tmp_path, streamed)
    ok(proc)
    assert back == data


def test_memory_stays_bounded_through_pipes():
    """512 MiB through stdin -> stdout: peak memory stays far below the input (a few batches in flight)."""
    key, iv = "00" * 16, "11" * 16
    total = 512 * MIB
    run = Measured([CLI, "enc", "-aes-128-ctr", "-K", key, "-iv", iv, "--engine", "cpu"],
                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc = run.proc
    received = [0]

    def drain():
        while chunk := proc.stdout.read(MIB):
            received[0] += len(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    block = b"\x5a" * MIB
    for _ in range(total // MIB):
        proc.stdin.write(block)
    proc.stdin.close()
    reader.join()
    code, peak_kib = run.result(timeout=120)
    assert code == 0, proc.stderr.read()
    assert received[0] == total
    assert peak_kib < 100 * 1024, f"peak RSS {peak_kib} KiB for a 512 MiB stream"


def test_sigint_leaves_no_output_file(tmp_path):
    """An interrupted run exits 1 with one line; the destination never appears and no temporary file is left."""
    dst = tmp_path / "out.bin"
    proc = subprocess.Popen([CLI, "enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-out", dst],
                            stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"\0" * (4 * MIB))  # the run is under way, waiting for more input
    proc.stdin.flush()
    # The temporary output file appears once the signal handlers are in place (run_streaming's order).
    deadline = time.monotonic() + 60
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [p.name.startswith(".out.bin.tmp-") for p in tmp_path.iterdir()] == [True]
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert err == b"cryptaccel enc: interrupted by SIGINT\n"
    assert list(tmp_path.iterdir()) == []


def test_in_place_streams_through_a_temporary_file(tmp_path):
    """-in F -out F: the input is read through its open descriptor while the output goes to a temporary file that
    replaces F only when complete (a stream larger than a batch, so output is written before the input is done)."""
    r = rng("in-place")
    key, iv, data = rbytes(r, 16).hex(), rbytes(r, 16).hex(), rbytes(r, 20 * MIB + 5)
    f = tmp_path / "data"
    f.write_bytes(data)
    ok(subprocess.run([CLI, "enc", "-aes-128-ctr", "-K", key, "-iv", iv, "-in", f, "-out", f], capture_output=True))
    expected = subprocess.run([OPENSSL, "enc", "-aes-128-ctr", "-K", key, "-iv", iv], input=data,
                              capture_output=True).stdout
    assert f.read_bytes() == expected
    assert os.listdir(tmp_path) == ["data"]


def test_gcm_streams_and_publishes_only_a_verified_file(tmp_path):
    """GCM streams too (`openssl enc` has no GCM: compared with the `cryptography` package); a decryption into a file
    goes to the temporary file, published only after the tag verified; a forged stream leaves no file."""
    aesgcm = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
    r = rng("gcm-stream")
    key, nonce, aad = rbytes(r, 32), rbytes(r, 12), rbytes(r, 40)
    data = rbytes(r, 17 * MIB + 3)
    (tmp_path / "aad").write_bytes(aad)
    args = ["-aes-256-gcm", "-K", key.hex(), "-iv", nonce.hex(), "--aad", tmp_path / "aad"]
    proc, sealed = run_file([CLI, "enc", *args], tmp_path, data)
    ok(proc)
    assert sealed == aesgcm.AESGCM(key).encrypt(nonce, data, aad), f"seed={SEED}"
    proc, opened = run_file([CLI, "dec", *args], tmp_path, sealed)
    ok(proc)
    assert opened == data
    forged = bytearray(sealed)
    forged[12345] ^= 4
    (tmp_path / "out.bin").unlink()
    proc, opened = run_file([CLI, "dec", *args], tmp_path, bytes(forged))
    assert proc.returncode == 1 and opened is None
    assert proc.stderr == b"cryptaccel dec: authentication failed: tag mismatch\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aad", "in.bin"]


def test_file_size_limit_leaves_no_output_file(tmp_path):
    """A write that fails part-way (here past `ulimit -f`, as a full disk would) is one line, exit 1, and neither
    the destination nor a temporary file is left."""
    import resource

    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(b"\0" * (8 * MIB))
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (2 * MIB, 2 * MIB))  # noqa: E731
    proc = subprocess.run([CLI, "enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "-in", src, "-out", dst],
                          capture_output=True, preexec_fn=limit, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(b"cryptaccel enc: cannot write") and proc.stderr.count(b"\n") == 1, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin"]


def test_xts_single_data_unit_streams_on_cpu(tmp_path):
    """XTS without --xts-unit (the whole input one data unit, ciphertext stealing at its end) streams through the
    cpu engine's kernel that starts at any block; the bytes equal ref's one-shot result."""
    r = rng("xts-one-unit")
    key = rbytes(r, 64).hex()
    for length in (16, 17, 3 * MIB + 5, 17 * MIB + 16):
        data = rbytes(r, length)
        base = ["-aes-256-xts", "-K", key, "-iv", "22" * 16]
        proc, ref = run_file([CLI, "enc", *base, "--engine", "ref"], tmp_path, data)
        ok(proc)
        proc, streamed = run_file([CLI, "enc", *base, "--engine", "cpu"], tmp_path, data)
        ok(proc)
        assert streamed == ref, f"seed={SEED} length {length}"
        proc, back = run_file([CLI, "dec", *base, "--engine", "cpu"], tmp_path, streamed)
        ok(proc)
        assert back == data


def wait_until_mapped(proc, path, timeout=60):
    """Waits until `proc` has `path` mapped (its streaming has begun); False if it ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/maps") as maps:
                if any(line.rstrip().endswith(str(path)) for line in maps):
                    return True
        except FileNotFoundError:
            return False
        time.sleep(0.005)
    return False


def test_regular_file_input_is_mapped_and_memory_stays_bounded(tmp_path):
    """A regular input file is mapped, not read (no copy on the way in); its pages are released as the stream moves
    on, so the peak stays far below the file. The output is still byte for byte openssl's."""
    r = rng("mapped")
    key, iv = rbytes(r, 16).hex(), rbytes(r, 16).hex()
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    with open(src, "wb") as f:
        for i in range(256):
            f.write(rbytes(r, MIB))
    run = Measured([CLI, "enc", "-aes-128-ctr", "-K", key, "-iv", iv, "--engine", "cpu", "-in", src, "-out", dst],
                   stderr=subprocess.PIPE)
    code, peak_kib = run.result(timeout=120)
    assert code == 0, run.proc.stderr.read()
    assert peak_kib < 100 * 1024, f"peak RSS {peak_kib} KiB for a 256 MiB file"
    expected = subprocess.run([OPENSSL, "enc", "-aes-128-ctr", "-K", key, "-iv", iv, "-in", src],
                              capture_output=True).stdout
    assert dst.read_bytes() == expected, f"seed={SEED}"


def test_input_file_shrinking_while_mapped_fails_cleanly(tmp_path):
    """The input shrinks under a running encryption (pages past its new end would raise SIGBUS): one line, exit 1,
    no output file and no temporary file (the handler reads zeros instead, and the run is failed before publishing)."""
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(b"\x01" * (64 * MIB))
    proc = subprocess.Popen([CLI, "enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "--engine", "ref",
                             "-in", src, "-out", dst], stderr=subprocess.PIPE)
    if not wait_until_mapped(proc, src):
        proc.wait()
        pytest.fail(f"the run ended (exit {proc.returncode}) before its input was seen mapped")
    os.kill(proc.pid, signal.SIGSTOP)  # hold it mid-stream (ref runs ~50 MB/s here: 64 MiB is over a second)
    os.truncate(src, MIB)
    os.kill(proc.pid, signal.SIGCONT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert err == f"cryptaccel enc: cannot read '{src}': the file shrank while it was being read\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin"]


def test_sigint_with_a_mapped_input_leaves_no_output_file(tmp_path):
    """SIGINT reaches a run whose input is mapped (nothing is read(), the processing thread sees the request)."""
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(b"\x02" * (64 * MIB))
    proc = subprocess.Popen([CLI, "enc", "-aes-128-ctr", "-K", "00" * 16, "-iv", "00" * 16, "--engine", "ref",
                             "-in", src, "-out", dst], stderr=subprocess.PIPE)
    if not wait_until_mapped(proc, src):
        proc.wait()
        pytest.fail(f"the run ended (exit {proc.returncode}) before its input was seen mapped")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert err == b"cryptaccel enc: interrupted by SIGINT\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin"]


def test_gcm_decryption_to_stdout_spools_in_bounded_memory(tmp_path):
    """A GCM decryption to stdout streams into an unnamed file in $TMPDIR and is copied out only after the tag
    verified: memory stays bounded (64 MiB here), a forged stream writes nothing to stdout, nothing is left in
    $TMPDIR, and an unusable $TMPDIR is one line."""
    aesgcm = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
    r = rng("gcm-spool")
    key, nonce = rbytes(r, 16), rbytes(r, 12)
    data = rbytes(r, 64 * MIB + 5)
    sealed = aesgcm.AESGCM(key).encrypt(nonce, data, b"")
    src = tmp_path / "sealed"
    src.write_bytes(sealed)
    spool_dir = tmp_path / "spool"
    spool_dir.mkdir()
    env = {**os.environ, "TMPDIR": str(spool_dir)}
    args = [CLI, "dec", "-aes-128-gcm", "-K", key.hex(), "-iv", nonce.hex(), "--engine", "cpu", "-in", src]
    run = Measured(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = run.proc.communicate(timeout=120)
    code, peak_kib = run.result()
    assert code == 0, err
    assert out == data, f"seed={SEED}"
    assert peak_kib < 100 * 1024, f"peak RSS {peak_kib} KiB for a 64 MiB GCM decryption to stdout"
    assert list(spool_dir.iterdir()) == []
    forged = bytearray(sealed)
    forged[len(forged) // 2] ^= 1
    src.write_bytes(forged)
    proc = subprocess.run(args, capture_output=True, env=env, timeout=120)
    assert (proc.returncode, proc.stdout) == (1, b"")
    assert proc.stderr == b"cryptaccel dec: authentication failed: tag mismatch\n"
    assert list(spool_dir.iterdir()) == []
    proc = subprocess.run(args, capture_output=True, env={**env, "TMPDIR": str(tmp_path / "missing")}, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, b"")
    assert proc.stderr.startswith(b"cryptaccel dec: cannot create a temporary file in '") and \
        proc.stderr.count(b"\n") == 1, proc.stderr
