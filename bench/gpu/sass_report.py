#!/usr/bin/env python3
"""Static SASS report of the cuda engine's kernels for sm_90 (H100), from compiled objects, without a GPU.

For every kernel in the given objects (default: the cryptaccel CUDA objects of build/gpu):

  * resources from `cuobjdump -res-usage` (registers, stack, shared, local);
  * local-memory traffic in the SASS (STL/LDL: spills or local arrays; SASS cannot tell them apart);
  * theoretical occupancy on an H100 at the block size the launchers use (LAUNCH below);
  * the loops of the SASS (natural loops of the control-flow graph), the hot loop (the costliest loop of the
    kernel's unit model, else the largest innermost loop that makes no call) and its instruction mix by class;
  * a throughput bound from that mix: per-SM rates of compute capability 9.0 (RATES), 132 SMs, 1.98 GHz, converted
    to units of work (AES block, hash block, Montgomery product, ...) where UNIT_MODELS knows the mapping.

The bound assumes perfect overlap of the pipes and no stalls (latency, memory, divergence): a ceiling, not a forecast.

  python3 bench/gpu/sass_report.py                       # Markdown to stdout
  python3 bench/gpu/sass_report.py --out r.md --json r.json
  python3 bench/gpu/sass_report.py --check --baseline bench/gpu/sass_baseline.json
  python3 bench/gpu/sass_report.py --write-baseline bench/gpu/sass_baseline.json

Python 3.9+, standard library only. Needs cuobjdump (and nvdisasm for --disasm nvdisasm): found through the
CUOBJDUMP / NVDISASM environment variables, PATH, CUDA_HOME/bin, or the pip packages nvidia-cuda-cuobjdump /
nvidia-cuda-nvdisasm (nvidia/cu13/bin under the `nvidia` package).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ARCH = "sm_90"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/gpu/ -> the repository
DEFAULT_BUILD = os.path.relpath(os.path.join(REPO, "build", "gpu"))
OBJECT_GLOB = "src/CMakeFiles/cryptaccel.dir/cuda/**/*.cu.o"  # under the build tree; src/cuda has subfolders

# ---- H100 (compute capability 9.0) limits: CUDA C++ Programming Guide, "Technical Specifications per Compute
# Capability", column 9.0, and the CUDA occupancy calculator's allocation rules. ----------------------------------
REGS_PER_SM = 65536
MAX_WARPS_PER_SM = 64            # 2048 threads
MAX_BLOCKS_PER_SM = 32
SMEM_PER_SM = 228 * 1024         # shared memory per SM (the largest carveout)
SMEM_PER_BLOCK_MAX = 227 * 1024  # usable by one block
SMEM_RESERVED_PER_BLOCK = 1024   # cudaDevAttrReservedSharedMemoryPerBlock on sm_80+ (system use, per block)
REG_ALLOC_UNIT = 256             # registers are allocated per warp in units of 256
WARP = 32

DEFAULT_SMS = 132        # H100 SXM5
DEFAULT_CLOCK_GHZ = 1.98  # H100 SXM5 maximum boost clock

# ---- Throughput per SM per clock, in thread-operations (a warp instruction is 32), by pipe. ---------------------
# Source: CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput of Native Arithmetic Instructions
# (Operations per Clock Cycle per Multiprocessor)", column 9.0:
#   32-bit integer add / extended-precision add / subtract: 64;  32-bit bitwise AND/OR/XOR (LOP3): 64;
#   32-bit integer shift (SHF): 64;  compare / min / max: 64;  32-bit integer multiply / multiply-add (IMAD): 64;
#   64-bit floating-point add / multiply / fma: 64;  32-bit floating-point add / multiply / fma: 128;
#   warp shuffle: 32;  population count, count of leading zeros, bit reverse, bit-field extract/insert, conversions
#   from/to 64-bit types and "all other type conversions": 16.
# Not in that table:
#   lsu   shared memory delivers 32 banks x 4 bytes per clock per SM, i.e. 32 lanes of 32-bit LDS/STS per clock;
#         local (LDL/STL) and global (LDG/STG) accesses go through the same L1/LSU path, counted at the same rate
#         (a 64-/128-bit access counts 2/4 lanes' worth). Memory bandwidth and latency are not modelled.
#   issue 4 schedulers (SMSPs) per SM, each dispatching one warp instruction per clock: 128 thread-instructions per
#         clock, whatever the pipe (branches, uniform-datapath and constant loads only cost issue slots here).
# PRMT and IADD3 / VIADD are counted as 32-bit integer add/logic (64). IMAD.WIDE and IMAD.HI produce a 64-bit / high
# result and take two issue slots of the integer multiply pipe; fp32 (FFMA, FADD, FMUL, HFMA2) takes half a slot.
RATES = {
    "alu": 64.0,
    "fma": 64.0,
    "fp64": 64.0,
    "lsu": 32.0,
    "shfl": 32.0,
    "xu": 16.0,
    "issue": 128.0,
}

# Opcode (first dot-separated part) -> pipe. Anything not listed costs an issue slot only.
PIPE_OF = {}
for _op in ("LOP3 LOP IADD3 IADD VIADD IADD32I LOP32I SHF SHL SHR PRMT ISETP ICMP SEL FSEL LEA MOV PLOP3 P2R R2P "
            "IABS IMNMX VIMNMX ISCADD BMSK SGXT FSETP FMNMX CSET CSETP").split():
    PIPE_OF[_op] = "alu"
for _op in "IMAD IMUL IMAD32I IMUL32I FFMA FADD FMUL FFMA32I FADD32I FMUL32I HFMA2 HADD2 HMUL2".split():
    PIPE_OF[_op] = "fma"
for _op in "DFMA DADD DMUL DSETP DMNMX".split():
    PIPE_OF[_op] = "fp64"
for _op in "LDL STL LDS STS LDG STG LD ST ATOM ATOMS ATOMG RED LDSM LDGSTS".split():
    PIPE_OF[_op] = "lsu"
PIPE_OF["SHFL"] = "shfl"
for _op in "MUFU POPC FLO BREV I2F F2I F2F I2I BFE BFI I2FP F2IP".split():
    PIPE_OF[_op] = "xu"
FMA_HALF_SLOT = {"FFMA", "FADD", "FMUL", "FFMA32I", "FADD32I", "FMUL32I", "HFMA2", "HADD2", "HMUL2"}

# Instruction classes of the reported mix (the first match wins; everything else is "other").
MIX_CLASSES = ["LOP3", "IMAD", "IADD3", "SHF", "PRMT", "LDL/STL", "LDS/STS", "LDG/STG", "other"]
CLASS_OF = {"LOP3": "LOP3", "LOP": "LOP3", "LOP32I": "LOP3",
            "IMAD": "IMAD", "IMUL": "IMAD", "IMAD32I": "IMAD",
            "IADD3": "IADD3", "IADD": "IADD3", "VIADD": "IADD3", "IADD32I": "IADD3",
            "SHF": "SHF", "SHL": "SHF", "SHR": "SHF", "PRMT": "PRMT",
            "LDL": "LDL/STL", "STL": "LDL/STL", "LDS": "LDS/STS", "STS": "LDS/STS", "LDG": "LDG/STG", "STG": "LDG/STG"}

# ---- Source knowledge -------------------------------------------------------------------------------------------
# Enum values in template arguments, as the demangler prints them ("(cryptaccel::cuda::CipherOp)2").
ENUMS = {
    "CipherImpl": ["bitsliced", "ttable", "sm4"],  # src/cuda/host/layout.hpp: aes_bitsliced, aes_ttable, sm4
    "CipherOp": ["expand_keys", "ecb", "ctr", "cbc_gather", "cbc_decrypt", "cbc_encrypt", "xts", "gcm_setup",
                 "gcm_ctr", "ghash_segments", "ghash_combine", "ghash_collect", "gcm_finalize",
                 "gcm_wipe_failed"],  # src/cuda/host/device.hpp
    "RsaExpKind": ["secret", "public_e"],  # src/cuda/rsa/rsa_ops.hpp
    "HashVariant": ["sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256", "sha3_224", "sha3_256",
                    "sha3_384", "sha3_512", "shake128", "shake256", "sm3"],  # src/algo/hash_message.hpp
}

# Launch block size of each kernel family (short-name regex, threads per block, where the launcher sets it).
LAUNCH: List[Tuple[str, int, str]] = [
    (r"^cipher_kernel<", 256, "src/cuda/kernels/kernels.cu: kThreads = 256 (launch_one)"),
    (r"^(hash|keccak)_kernel$", 256, "src/cuda/kernels/kernels.cu: kThreads = 256 (launch_hash / launch_keccak)"),
    (r"^rsa_modexp_kernel<", 128, "src/cuda/rsa/rsa_kernels.cuh: kRsaThreads = 128 (launch_rsa_modexp_words)"),
    (r"^rsa_fp64_kernel<", 128, "src/cuda/rsa/rsa_kernels_fp64.cu: kRsaThreads = 128 (launch_rsa_modexp_fp64)"),
    (r"^rsa_modexp_group_kernel<", 128, "src/cuda/rsa/rsa_kernels_group.cu: kRsaGroupThreads = 128"),
    (r"^shacrypt_\w+_kernel<", 128, "src/cuda/shacrypt/shacrypt_kernels.cu: kThreads = 128"),
]

# Dynamic shared memory of the T-table cipher kernels (src/cuda/kernels/kernels.cu, launch_one): 32 KiB of encryption tables
# (kTableWords = 256 x 32 copies of 4 bytes) for every op that runs the cipher, 96 KiB (+ decryption table and
# inverse S-box) when it runs the inverse cipher. ecb and xts decrypt only when a.decrypt: the worst case is taken.
TTABLE_TABLE_BYTES = 256 * 32 * 4
TTABLE_CIPHER_OPS = {"ecb", "ctr", "cbc_decrypt", "cbc_encrypt", "xts", "gcm_setup", "gcm_ctr", "gcm_finalize"}
TTABLE_INVERSE_OPS = {"ecb", "cbc_decrypt", "xts"}
# Ops that stream data through the cipher (the others run it once per key, parent or job, or not at all).
BULK_CIPHER_OPS = {"ecb", "ctr", "cbc_decrypt", "cbc_encrypt", "xts", "gcm_ctr"}

# Kernels whose hot loop --check watches (short-name regexes).
HOT_KERNELS = [r"^cipher_kernel<", r"^hash_kernel$", r"^keccak_kernel$", r"^shacrypt_loop_kernel<",
               r"^rsa_modexp_kernel<", r"^rsa_fp64_kernel<", r"^rsa_modexp_group_kernel<"]

AES_ROUNDS = 10          # AES-128 (the key length is a run-time value; 12 / 14 rounds for AES-192 / 256)
AES_BITSLICED_LANES = 2  # Impl<aes_bitsliced>::kLanes: 32-bit planes hold 2 blocks (src/cuda/kernels/cipher_impl.hpp)
SM4_LANES = 8            # Impl<sm4>::kLanes (src/cuda/kernels/cipher_impl.hpp)
SM4_ROUNDS = 32
FP64_MAX_LIMB_BITS = 50  # algo::bn::fp64::kMaxBits (src/algo/montgomery_fp64.hpp)
UNROLLED_LIMIT = 64      # CA_LIMB_LOOP (src/algo/hd.hpp): limb loops unroll fully up to 64 limbs, by 8 beyond


def group_lanes(words: int) -> int:
    """Lanes per exponentiation of the group RSA kernel: rsa_group_lanes (src/cuda/rsa/rsa_group_ops.hpp)."""
    return {16: 8, 32: 8, 48: 16, 64: 16}.get(words, 0)


# ---- Data ---------------------------------------------------------------------------------------------------------
@dataclass
class Instr:
    """One SASS instruction."""
    addr: int
    guard: str      # "@P0", "@!P1", "" ...
    opcode: str     # with modifiers: "IMAD.WIDE.U32"
    operands: str
    target: Optional[int] = None  # BRA / CALL target address
    base: str = ""                # the opcode without modifiers ("IMAD")

    def __post_init__(self) -> None:
        self.base = self.opcode.split(".")[0]


@dataclass
class Loop:
    """A natural loop of the control-flow graph."""
    header: int
    blocks: List[int]            # block start addresses
    instrs: List[Instr]
    depth: int = 1               # 1: outermost
    innermost: bool = True
    calls: bool = False          # contains a CALL
    in_callee: bool = False      # inside a function the kernel CALLs (not in the kernel's own body)
    trip: Optional[int] = None   # static trip count, when the latch compares a counter with a constant

    @property
    def start(self) -> int:
        """Lowest instruction address of the body."""
        return min(i.addr for i in self.instrs)

    @property
    def end(self) -> int:
        """Highest instruction address of the body."""
        return max(i.addr for i in self.instrs)


@dataclass
class Kernel:
    """What the report knows about one kernel."""
    mangled: str
    name: str
    obj: str
    res: Dict[str, int]
    instrs: List[Instr]
    loops: List[Loop] = field(default_factory=list)
    units: List["Unit"] = field(default_factory=list)
    hot: Optional[Loop] = None


# ---- Tools --------------------------------------------------------------------------------------------------------
def find_tool(name: str, env: str) -> Optional[str]:
    """Path of a CUDA tool: $ENV, PATH, $CUDA_HOME/bin, or the pip-installed `nvidia` package's cu*/bin."""
    if os.environ.get(env):
        return os.environ[env] if os.path.exists(os.environ[env]) else None
    found = shutil.which(name)
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and os.path.exists(os.path.join(home, "bin", name)):
            return os.path.join(home, "bin", name)
    try:
        import nvidia  # type: ignore  # namespace package of the nvidia-cuda-* wheels
        roots = list(getattr(nvidia, "__path__", []))
    except ImportError:
        roots = []
    for root in roots:
        for bindir in [os.path.join(root, "cu13", "bin")] + sorted(glob.glob(os.path.join(root, "*", "bin"))):
            if os.path.exists(os.path.join(bindir, name)):
                return os.path.join(bindir, name)
    return None


def tool_missing(name: str, env: str, wheel: str) -> str:
    """The one-line message for a tool that find_tool did not find."""
    if os.environ.get(env):
        return f"sass_report: {name} not found: {env}={os.environ[env]} does not exist"
    return (f"sass_report: {name} not found (set {env}, put it on PATH or CUDA_HOME/bin, or pip install {wheel})")


def run_tool(cmd: Sequence[str], cwd: Optional[str] = None) -> str:
    """Runs a tool and returns its stdout; raises RuntimeError with its stderr on failure."""
    p = subprocess.run(list(cmd), capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {p.stderr.strip()}")
    return p.stdout


def demangle(names: Sequence[str]) -> Dict[str, str]:
    """Mangled -> demangled names through c++filt (one call); names unchanged when c++filt is missing."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    p = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True)
    out = p.stdout.split("\n")
    return {n: (out[i] if i < len(out) and out[i] else n) for i, n in enumerate(names)}


def short_name(demangled: str) -> str:
    """`void ns::(anonymous namespace)::cipher_kernel<(ns::CipherImpl)0, (ns::CipherOp)2>(args)` ->
    `cipher_kernel<bitsliced, ctr>`."""
    s = demangled
    if s.startswith("void "):
        s = s[5:]
    if s.endswith(")"):  # drop the parameter list: the last top-level parenthesised group
        depth = 0
        for k in range(len(s) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(s[k], 0)
            if depth == 0:
                s = s[:k]
                break

    def enum(m: "re.Match[str]") -> str:
        values = ENUMS.get(m.group(1))
        v = int(m.group(2))
        return values[v] if values and v < len(values) else f"{m.group(1)}{v}"

    s = re.sub(r"\((?:[\w:]+::)?(\w+)\)(-?\d+)", enum, s)
    s = re.sub(r"\b(\d+)u?l{0,2}\b", r"\1", s)
    s = s.replace("(anonymous namespace)::", "")
    s = re.sub(r"\b\w+::", "", s)
    return s


# ---- Parsing ------------------------------------------------------------------------------------------------------
RES_FN = re.compile(r"^\s*Function (\S+):")
RES_KV = re.compile(r"(\w+(?:\[\d+\])?):(\d+)")
SASS_FN = re.compile(r"^\s*Function : (\S+)")                 # cuobjdump -sass
NVD_FN = re.compile(r"^\s*\.text\.(\S+):")                     # nvdisasm
NVD_LABEL = re.compile(r"^\s*([.$\w]+):\s*$")                 # nvdisasm: .L_x_12:, $__internal_0_$__cuda_...:
INSTR = re.compile(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s*(.*?)\s*;")
GUARD = re.compile(r"^(@!?U?P(?:T|\d+))\s+")
HEX_TARGET = re.compile(r"(0x[0-9a-fA-F]+)\s*$")
LABEL_TARGET = re.compile(r"`\(([^)]+)\)")


def parse_res_usage(text: str) -> Dict[str, Dict[str, int]]:
    """`cuobjdump -res-usage` -> {mangled: {"REG": .., "STACK": .., "SHARED": .., "LOCAL": .., ...}}."""
    res: Dict[str, Dict[str, int]] = {}
    current = None
    for line in text.splitlines():
        m = RES_FN.match(line)
        if m:
            current = m.group(1)
            continue
        if current and "REG:" in line:
            res[current] = {k: int(v) for k, v in RES_KV.findall(line)}
            current = None
    return res


def make_instr(addr: int, text: str, pending: List[Tuple[Instr, str]]) -> Instr:
    """One instruction from its text ("@!P0 BRA 0x1a0", "IMAD.WIDE.U32 R2, R3, UR4, R6"); a branch or call to a
    label (nvdisasm) goes to `pending` until the label's address is known."""
    guard = ""
    m = GUARD.match(text)
    if m:
        guard, text = m.group(1), text[m.end():]
    opcode, _, operands = text.partition(" ")
    ins = Instr(addr, guard, opcode, operands.strip())
    if ins.base in ("BRA", "CALL"):
        h = HEX_TARGET.search(ins.operands)
        lab = LABEL_TARGET.search(ins.operands)
        if h:
            ins.target = int(h.group(1), 16)
        elif lab:
            pending.append((ins, lab.group(1)))
    return ins


def parse_sass(text: str) -> Dict[str, List[Instr]]:
    """Disassembly (cuobjdump -sass or nvdisasm) -> {mangled kernel name: instructions in address order}. Labels
    (nvdisasm) are resolved within their function."""
    fns: Dict[str, List[Instr]] = {}
    current: Optional[List[Instr]] = None
    labels: Dict[str, int] = {}
    pending: List[Tuple[Instr, str]] = []
    label_here: List[str] = []

    def resolve() -> None:
        for ins, lab in pending:
            ins.target = labels.get(lab)
        labels.clear()
        pending.clear()

    for line in text.splitlines():
        m = SASS_FN.match(line) or NVD_FN.match(line)
        if m:
            resolve()
            current = fns.setdefault(m.group(1), [])
            continue
        lm = NVD_LABEL.match(line)
        if lm:
            label_here.append(lm.group(1))
            continue
        im = INSTR.match(line)
        if im and current is not None:
            addr = int(im.group(1), 16)
            for lab in label_here:
                labels[lab] = addr
            label_here = []
            current.append(make_instr(addr, im.group(2), pending))
    resolve()
    return fns


# ---- Control flow and loops ---------------------------------------------------------------------------------------
# BRA.DIV branches to an out-of-line copy of warp-synchronous code (shuffles, votes) for warps that are not
# converged there; the kernels keep their warps (or lane groups) converged, so the report follows the fall-through
# only. Otherwise those copies would join the loops' bodies and double their counts.
ASSUME_CONVERGED = True


def is_conditional(ins: Instr) -> bool:
    """Whether a branch may fall through: guarded (not @PT), or with a predicate operand."""
    if ins.guard and ins.guard not in ("@PT", "@UPT"):
        return True
    return bool(re.match(r"!?U?P(\d|T)", ins.operands))


def build_cfg(instrs: List[Instr]) -> Tuple[Dict[int, List[Instr]], Dict[int, List[int]], List[int]]:
    """Basic blocks {start: instrs}, successors {start: [start]}, entries (address 0 and every CALL target)."""
    if not instrs:
        return {}, {}, []
    addrs = {i.addr for i in instrs}
    leaders = {instrs[0].addr}
    entries = [instrs[0].addr]
    for k, ins in enumerate(instrs):
        if ins.base == "CALL" and ins.target in addrs:
            leaders.add(ins.target)
            entries.append(ins.target)
        if ins.base in ("BRA", "EXIT", "RET", "BRX", "JMX", "JMP"):
            if ins.target in addrs:
                leaders.add(ins.target)
            if k + 1 < len(instrs):
                leaders.add(instrs[k + 1].addr)
    blocks: Dict[int, List[Instr]] = {}
    order: List[int] = []
    for ins in instrs:
        if ins.addr in leaders:
            order.append(ins.addr)
            blocks[ins.addr] = []
        blocks[order[-1]].append(ins)
    succ: Dict[int, List[int]] = {}
    for n, start in enumerate(order):
        last = blocks[start][-1]
        nxt = order[n + 1] if n + 1 < len(order) else None
        out: List[int] = []
        if last.base == "BRA" and ".DIV" in last.opcode and ASSUME_CONVERGED:
            if nxt is not None:
                out.append(nxt)
        elif last.base == "BRA":
            if last.target in blocks:
                out.append(last.target)
            if is_conditional(last) and nxt is not None:
                out.append(nxt)
        elif last.base in ("EXIT", "RET"):
            if last.guard and nxt is not None:
                out.append(nxt)
        elif nxt is not None:
            out.append(nxt)
        succ[start] = out
    return blocks, succ, sorted(set(entries))


def dominators(succ: Dict[int, List[int]], entries: List[int]) -> Dict[int, Optional[int]]:
    """Immediate dominators (Cooper, Harvey, Kennedy) under a virtual root (None) above all entries."""
    order: List[int] = []  # post-order
    seen = set()
    for e in entries:
        if e in seen:
            continue
        stack = [(e, iter(succ.get(e, [])))]
        seen.add(e)
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                order.append(node)
                stack.pop()
            elif child not in seen:
                seen.add(child)
                stack.append((child, iter(succ.get(child, []))))
    rpo = list(reversed(order))
    index = {b: k for k, b in enumerate(rpo)}
    preds: Dict[int, List[int]] = {b: [] for b in rpo}
    for b in rpo:
        for s in succ.get(b, []):
            if s in preds:
                preds[s].append(b)
    root = -1
    idom: Dict[int, int] = {e: root for e in entries}
    index[root] = -1

    def intersect(a: int, b: int) -> int:
        while a != b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in rpo:
            if b in entries:
                continue
            new = None
            for p in preds[b]:
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(b) != new:
                idom[b] = new
                changed = True
    return {b: (None if d == root else d) for b, d in idom.items()}


def dominates(idom: Dict[int, Optional[int]], a: int, b: Optional[int]) -> bool:
    """Whether block a dominates block b."""
    while b is not None:
        if a == b:
            return True
        b = idom.get(b)
    return False


def operands(ins: Instr) -> List[str]:
    """The comma-separated operands of an instruction."""
    return [o.strip() for o in ins.operands.split(",")] if ins.operands else []


def counter_compare(latch: List[Instr]) -> Optional[Tuple[str, int, int]]:
    """(counter register, bound, address of the compare) when the latch ends in `@P BRA` and P comes from
    `[U]ISETP.NE P, Rc, K` (directly or through `PLOP3 P, .., UPn, ..` for a uniform counter); None otherwise."""
    br = latch[-1]
    if br.base != "BRA" or not re.fullmatch(r"@U?P\d", br.guard):
        return None
    pred = br.guard[1:]
    for ins in reversed(latch[:-1]):
        ops = operands(ins)
        if not ops or ops[0] != pred:
            continue
        if ins.base == "PLOP3":
            uniform = [o for o in ops[1:] if re.fullmatch(r"UP\d", o)]
            if len(uniform) != 1:
                return None
            pred = uniform[0]
            continue
        if ins.base not in ("ISETP", "UISETP") or ".NE." not in ins.opcode + "." or ".EX" in ins.opcode:
            return None
        if len(ops) < 4:
            return None
        bound = ops[3]
        if bound in ("RZ", "URZ"):
            return ops[2], 0, ins.addr
        return (ops[2], int(bound, 16), ins.addr) if re.fullmatch(r"0x[0-9a-f]+", bound) else None
    return None


def static_trip(body: List[Instr], latch: List[Instr], pre: List[Instr]) -> Optional[int]:
    """Trip count when the latch compares a counter with a constant (counter_compare), the body steps the counter by
    one constant ([U]IADD3 / VIADD) and the code before the loop sets it to a constant; None otherwise."""
    found = counter_compare(latch)
    if found is None:
        return None
    reg, bound, compare_at = found
    step = None
    late = False  # the step follows the compare in the latch: the compare sees the value before the step
    for ins in body:
        ops = operands(ins)
        if ins.base in ("IADD3", "UIADD3", "VIADD") and ops and ops[0] == reg and reg in ops[1:]:
            imm = [o for o in ops[1:] if re.fullmatch(r"-?0x[0-9a-f]+", o)]
            if step is not None or len(imm) != 1 or ins.guard:
                return None
            step = int(imm[0], 16)
            late = ins in latch and ins.addr > compare_at
    # A uniform counter may be re-read each iteration from the register that carries it (R2UR URc, Rx).
    carried = {reg} | {operands(i)[1] for i in body if i.base == "R2UR" and operands(i)[0] == reg}
    init = None
    for ins in reversed(pre):
        ops = operands(ins)
        if ops and ops[0] in carried:
            if ins.opcode in ("IMAD.MOV.U32", "MOV", "UMOV") and re.fullmatch(r"U?RZ|-?0x[0-9a-f]+", ops[-1]):
                init = 0 if ops[-1].endswith("RZ") else int(ops[-1], 16)
            break
    if not step or init is None or (bound - init) % step or (bound - init) // step <= 0:
        return None
    return (bound - init) // step + (1 if late else 0)


def find_loops(instrs: List[Instr]) -> List[Loop]:
    """Natural loops (back edges to a dominating header, same-header back edges merged), with nesting."""
    blocks, succ, entries = build_cfg(instrs)
    idom = dominators(succ, entries)
    preds: Dict[int, List[int]] = {b: [] for b in blocks}
    for b, ss in succ.items():
        for s in ss:
            preds[s].append(b)
    latches: Dict[int, List[int]] = {}
    for b, ss in succ.items():
        for h in ss:
            if b in idom and dominates(idom, h, b):
                latches.setdefault(h, []).append(b)
    loops: List[Loop] = []
    for h, ls in sorted(latches.items()):
        body = {h}
        work = [b for b in ls if b != h]
        body.update(work)
        while work:
            b = work.pop()
            for p in preds[b]:
                if p not in body and p in idom:  # reachable blocks only (not the BRA.DIV copies)
                    body.add(p)
                    work.append(p)
        ordered = sorted(body)
        loop = Loop(h, ordered, [i for b in ordered for i in blocks[b]])
        loop.calls = any(i.base == "CALL" for i in loop.instrs)
        root = h
        while idom.get(root) is not None:
            root = idom[root]
        loop.in_callee = root != instrs[0].addr
        if len(ls) == 1:
            pre = [i for p in preds[h] if p not in body for i in blocks[p]]
            loop.trip = static_trip(loop.instrs, blocks[ls[0]], pre)
        loops.append(loop)
    bodies = [set(l.blocks) for l in loops]
    for k, loop in enumerate(loops):
        loop.depth = sum(1 for j, b in enumerate(bodies) if loop.header in b)
        loop.innermost = not any(j != k and loops[j].header in bodies[k] for j in range(len(loops)))
    return loops


# ---- Mix and throughput -------------------------------------------------------------------------------------------
def mix(instrs: Sequence[Instr]) -> Dict[str, int]:
    """Counts by class (MIX_CLASSES) plus IMAD.WIDE, LDL, STL, DFMA-class fp64 and SHFL on their own."""
    c: Counter = Counter()
    for ins in instrs:
        c[CLASS_OF.get(ins.base, "other")] += 1
        if ins.opcode.startswith("IMAD.WIDE"):
            c["IMAD.WIDE"] += 1
        if ins.base in ("LDL", "STL", "SHFL"):
            c[ins.base] += 1
        if PIPE_OF.get(ins.base) == "fp64":
            c["FP64"] += 1
    return {k: c.get(k, 0) for k in MIX_CLASSES + ["IMAD.WIDE", "LDL", "STL", "FP64", "SHFL"]}


def lsu_lanes(ins: Instr) -> float:
    """32-bit lanes' worth of one memory instruction: 2 for .64, 4 for .128."""
    if ".128" in ins.opcode:
        return 4.0
    if ".64" in ins.opcode:
        return 2.0
    return 1.0


def cycles_per_iteration(instrs: Sequence[Instr]) -> Tuple[float, str, Dict[str, float]]:
    """SM clocks per thread-iteration (the busiest pipe or the issue limit), that pipe, and each pipe's clocks."""
    slots: Counter = Counter()
    for ins in instrs:
        pipe = PIPE_OF.get(ins.base)
        slots["issue"] += 1
        if pipe == "fma":
            wide = ins.opcode.startswith(("IMAD.WIDE", "IMAD.HI"))
            slots[pipe] += 2.0 if wide else 0.5 if ins.base in FMA_HALF_SLOT else 1.0
        elif pipe == "lsu":
            slots[pipe] += lsu_lanes(ins)
        elif pipe:
            slots[pipe] += 1
    per_pipe = {p: slots[p] / RATES[p] for p in RATES if slots[p]}
    bound = max(per_pipe, key=per_pipe.get) if per_pipe else "issue"
    return per_pipe.get(bound, 0.0), bound, per_pipe


# ---- Units of work ------------------------------------------------------------------------------------------------
@dataclass
class Unit:
    """A unit of work and the loop iterations (per thread-iteration of each loop) it costs."""
    name: str
    parts: List[Tuple[Loop, float]]  # (loop, thread-iterations of it per unit)
    note: str
    bytes_per_unit: int = 0          # for a GB/s figure (cipher blocks)


def largest(loops: List[Loop], pred: Callable[[Loop, Dict[str, int]], bool]) -> Optional[Loop]:
    """The innermost call-free loop satisfying pred(loop, mix), preferring loops in called functions (the non-inlined
    Montgomery operations, which the exponentiation runs, over copies inlined for one-off conversions), then the
    largest."""
    cands = [l for l in loops if l.innermost and not l.calls and pred(l, mix(l.instrs))]
    return max(cands, key=lambda l: (l.in_callee, len(l.instrs), l.header)) if cands else None


def template_args(name: str) -> List[str]:
    """`rsa_modexp_kernel<32, secret>` -> ["32", "secret"]."""
    m = re.search(r"<(.*)>", name)
    return [a.strip() for a in m.group(1).split(",")] if m else []


def count(loop: Loop, opcode: str) -> int:
    """Instructions of the loop whose base opcode is `opcode`."""
    return sum(1 for i in loop.instrs if i.base == opcode)


def units_cipher(k: Kernel) -> List[Unit]:
    """Blocks of the bulk cipher ops. Per call of Impl::encrypt/decrypt (src/cuda/kernels/cipher_impl.hpp) a work unit
    processes kLanes blocks (cbc_encrypt: 1, a serial chain); the round loop runs once per round of the call."""
    impl, op = (template_args(k.name) + ["", ""])[:2]
    if op not in BULK_CIPHER_OPS:
        return []
    if impl == "bitsliced":
        # aes_encrypt/decrypt_blocks_bitsliced (src/algo/aes_bitsliced.hpp): rounds - 1 iterations of the round loop
        # (S-box circuit on 8 planes: mostly LOP3) per call; the last round is outside the loop.
        loop = largest(k.loops, lambda l, m: len(l.instrs) >= 300 and m["LOP3"] >= 0.4 * len(l.instrs))
        blocks = 1 if op == "cbc_encrypt" else AES_BITSLICED_LANES
        return [Unit("AES-128 block", [(loop, (AES_ROUNDS - 1) / blocks)],
                     f"{AES_ROUNDS - 1} round-loop iterations per call of {blocks} block(s) (aes_bitsliced.hpp); "
                     "last round excluded", 16)] if loop else []
    if impl == "ttable":
        # ttable_encrypt/decrypt_block (src/cuda/kernels/aes_ttable.hpp): one round of one block (16 table reads from shared
        # memory) per iteration, rounds - 1 per block; the last round is outside the loop.
        loop = largest(k.loops, lambda l, m: m["LDS/STS"] == 16)
        return [Unit("AES-128 block", [(loop, AES_ROUNDS - 1)], f"{AES_ROUNDS - 1} iterations (one round, 16 LDS) "
                     "per block (aes_ttable.hpp); last round excluded", 16)] if loop else []
    if impl == "sm4":
        # sm4_crypt_lanes (src/algo/sm4.hpp): four rounds of the call's lanes per iteration (bitsliced S-boxes:
        # mostly LOP3), 8 iterations; kLanes lanes for the parallel ops, one for cbc_encrypt (Impl<sm4> takes the
        # one-lane path for a single block). The counter is folded into the round-key address, so no static trip.
        loop = largest(k.loops, lambda l, m: len(l.instrs) >= 1000 and m["LOP3"] >= 0.4 * len(l.instrs))
        blocks = 1 if op == "cbc_encrypt" else SM4_LANES
        return [Unit("SM4 block", [(loop, SM4_ROUNDS / 4 / blocks)], f"{SM4_ROUNDS // 4} iterations of four rounds "
                     f"per call of {blocks} block(s) (sm4.hpp)", 16)] if loop else []
    return []


def units_hash(k: Kernel) -> List[Unit]:
    """Hash blocks: sha256_blocks / sha512_blocks / keccak_absorb_blocks (src/algo) run one whole block function,
    fully unrolled, per iteration of their block loop (shacrypt_op_rounds calls hash_blocks on a template's blocks);
    keccak_kernel runs one Keccak-f[1600] per grid-stride iteration. hash_kernel holds every family: the largest
    such loop stands for it. A rolled loop (SM3's, a byte loop) is not a block function: none under 1000 instrs."""
    loop = largest(k.loops, lambda l, m: len(l.instrs) >= 1000)
    if loop is None:
        return []
    if k.name == "keccak_kernel":
        return [Unit("Keccak-f[1600] permutation", [(loop, 1.0)], "one permutation per grid-stride iteration "
                     "(keccak_f1600 fully unrolled, keccak.hpp)")]
    return [Unit("hash block", [(loop, 1.0)], "one block (compression) per iteration of the unrolled block function"
                 + ("; hash_kernel: the largest family's loop" if k.name == "hash_kernel" else ""))]


def units_rsa_thread(k: Kernel) -> List[Unit]:
    """Montgomery operations of rsa_modexp_kernel<N> (src/algo/montgomery.hpp, src/algo/bignum.hpp) for N <= 64, where
    the limb loops are fully unrolled: mont_sqr is sqr_full (N - 1 rows of the triangular product, N - 1 IMAD.WIDE in
    the largest) plus REDC (N rows of N IMAD.WIDE); mont_mul is N CIOS rows of 2N - 1 IMAD.WIDE (a_j b_i, m n_j).
    Squares are 5 of the 6 products of a fixed window and 16 of the 17 of e = 65537, so they come first."""
    n = int(template_args(k.name)[0])
    if n > UNROLLED_LIMIT:
        return []
    units = []
    sqr = largest(k.loops, lambda l, m: m["IMAD.WIDE"] == n - 1)
    redc = largest(k.loops, lambda l, m: m["IMAD.WIDE"] == n)
    if sqr and redc:
        units.append(Unit("Montgomery square", [(sqr, n - 1), (redc, n)],
                          f"mont_sqr: {n - 1} sqr_full rows + {n} REDC rows"))
    mul = largest(k.loops, lambda l, m: m["IMAD.WIDE"] == 2 * n - 1)
    if mul:
        units.append(Unit("Montgomery product", [(mul, n)], f"mont_mul: {n} CIOS rows"))
    return units


def units_rsa_fp64(k: Kernel) -> List[Unit]:
    """Montgomery product of rsa_fp64_kernel<N> (src/algo/montgomery_fp64.hpp): M = ceil(32N / 50) limbs, M rows per
    product (the square is the same product), each row 2M mul_acc of 2 DFMA: 4M DFMA per row."""
    n = int(template_args(k.name)[0])
    limbs = -(-32 * n // FP64_MAX_LIMB_BITS)
    row = largest(k.loops, lambda l, m: count(l, "DFMA") > 0 and count(l, "DFMA") % (4 * limbs) == 0)
    if row is None:
        return []
    rows = count(row, "DFMA") // (4 * limbs)
    return [Unit("Montgomery product", [(row, limbs / rows)],
                 f"fp64 mont_mul: {limbs} rows of {4 * limbs} DFMA, {rows} row(s) per iteration")]


def units_rsa_group(k: Kernel) -> List[Unit]:
    """Montgomery product of rsa_modexp_group_kernel<N> (src/cuda/rsa/rsa_group_ops.hpp): T lanes per product, L = N / T
    words per lane; a row (one word b_i) costs each lane 2L IMAD.WIDE (a_l b_i and m n_l); N rows per product, so
    T N / rows thread-iterations."""
    n = int(template_args(k.name)[0])
    t = group_lanes(n)
    if not t:
        return []
    per_lane = n // t
    row = largest(k.loops, lambda l, m: m["SHFL"] > 0 and m["IMAD.WIDE"] > 0 and m["IMAD.WIDE"] % (2 * per_lane) == 0)
    if row is None:
        return []
    rows = mix(row.instrs)["IMAD.WIDE"] // (2 * per_lane)
    return [Unit("Montgomery product", [(row, t * n / rows)],
                 f"group_mont_mul: {n} rows on {t} lanes, {rows} row(s) per iteration")]


# Kernel family (short-name regex) -> unit model. Families not listed are reported per loop iteration only.
UNIT_MODELS: List[Tuple[str, Callable[[Kernel], List[Unit]]]] = [
    (r"^cipher_kernel<", units_cipher),
    (r"^(hash_kernel|keccak_kernel|shacrypt_loop_kernel<.*)$", units_hash),
    (r"^rsa_modexp_kernel<", units_rsa_thread),
    (r"^rsa_fp64_kernel<", units_rsa_fp64),
    (r"^rsa_modexp_group_kernel<", units_rsa_group),
]


def units_of(k: Kernel) -> List[Unit]:
    """The unit models that apply to a kernel (may be empty)."""
    for pattern, model in UNIT_MODELS:
        if re.search(pattern, k.name):
            return model(k)
    return []


def pick_hot(k: Kernel) -> Optional[Loop]:
    """The hot loop: the costliest loop of the kernel's first unit model (iterations x bound), when a model applies;
    else the largest innermost loop without calls (else the largest innermost loop, else none)."""
    if k.units:
        return max(k.units[0].parts, key=lambda p: p[1] * cycles_per_iteration(p[0].instrs)[0])[0]
    inner = [l for l in k.loops if l.innermost]
    pool = [l for l in inner if not l.calls] or inner
    return max(pool, key=lambda l: (len(l.instrs), -l.header)) if pool else None


# ---- Occupancy ----------------------------------------------------------------------------------------------------
def launch_of(name: str) -> Tuple[Optional[int], str]:
    """Threads per block the launcher uses, and where that comes from."""
    for pattern, threads, source in LAUNCH:
        if re.search(pattern, name):
            return threads, source
    return None, "unknown launcher"


def dynamic_smem(name: str) -> int:
    """Dynamic shared memory bytes per block (only the T-table cipher kernels use it)."""
    args = template_args(name)
    if name.startswith("cipher_kernel<") and len(args) == 2 and args[0] == "ttable" and args[1] in TTABLE_CIPHER_OPS:
        return (3 if args[1] in TTABLE_INVERSE_OPS else 1) * TTABLE_TABLE_BYTES
    return 0


def occupancy(regs: int, smem_static: int, smem_dynamic: int, threads: int) -> Dict[str, object]:
    """Resident blocks / warps per SM and the limiting resource (CUDA occupancy calculator rules for sm_90). The
    per-block shared memory adds the 1 KiB system reservation to static + dynamic (conservative: sm_90 objects may
    already count it in their static size)."""
    warps = -(-threads // WARP)
    regs_per_warp = -(-max(regs, 1) * WARP // REG_ALLOC_UNIT) * REG_ALLOC_UNIT
    smem = smem_static + smem_dynamic + SMEM_RESERVED_PER_BLOCK
    limits = {
        "warps": MAX_WARPS_PER_SM // warps,
        "blocks": MAX_BLOCKS_PER_SM,
        "registers": (REGS_PER_SM // regs_per_warp) // warps,
        "shared": SMEM_PER_SM // smem if smem_static + smem_dynamic <= SMEM_PER_BLOCK_MAX else 0,
    }
    blocks = min(limits.values())
    limiter = next(k for k in ("warps", "blocks", "registers", "shared") if limits[k] == blocks)
    return {"blocks_per_sm": blocks, "warps_per_sm": blocks * warps,
            "occupancy": blocks * warps / MAX_WARPS_PER_SM, "limiter": limiter,
            "smem_per_block": smem, "limits": limits}


# ---- Analysis -----------------------------------------------------------------------------------------------------
def disassemble(path: str, cuobjdump: str, nvdisasm: Optional[str]) -> str:
    """SASS text of the ARCH cubins in `path`: cuobjdump -sass, or cubins extracted and run through nvdisasm."""
    if not nvdisasm:
        return run_tool([cuobjdump, "-arch", ARCH, "-sass", path])
    with tempfile.TemporaryDirectory() as tmp:
        run_tool([cuobjdump, "-arch", ARCH, "-xelf", "all", os.path.abspath(path)], cwd=tmp)
        return "\n".join(run_tool([nvdisasm, "-c", os.path.join(tmp, f)])
                         for f in sorted(os.listdir(tmp)) if f.endswith(".cubin"))


def analyse_object(path: str, cuobjdump: str, nvdisasm: Optional[str]) -> List[Kernel]:
    """Every kernel of one object file or binary."""
    res = parse_res_usage(run_tool([cuobjdump, "-arch", ARCH, "-res-usage", path]))
    code = parse_sass(disassemble(path, cuobjdump, nvdisasm))
    names = demangle(sorted(set(res) | set(code)))
    kernels = []
    for mangled in sorted(set(res) | set(code)):
        k = Kernel(mangled, short_name(names[mangled]), os.path.basename(path), res.get(mangled, {}),
                   code.get(mangled, []))
        k.loops = find_loops(k.instrs)
        k.units = units_of(k)
        k.hot = pick_hot(k)
        kernels.append(k)
    return kernels


def is_hot_kernel(name: str) -> bool:
    """Whether --check watches this kernel."""
    return any(re.search(p, name) for p in HOT_KERNELS)


def loop_json(loop: Loop, sms: int, ghz: float) -> Dict[str, object]:
    """A loop's range, size, nesting, mix and issue bound."""
    cyc, bound, per_pipe = cycles_per_iteration(loop.instrs)
    return {"start": f"{loop.start:#x}", "end": f"{loop.end:#x}", "instructions": len(loop.instrs),
            "depth": loop.depth, "innermost": loop.innermost, "calls": loop.calls, "in_callee": loop.in_callee,
            "static_trip": loop.trip,
            "mix": mix(loop.instrs), "cycles_per_thread_iteration": round(cyc, 3), "bound": bound,
            "pipe_cycles": {p: round(v, 3) for p, v in per_pipe.items()},
            "iterations_per_s": sms * ghz * 1e9 / cyc if cyc else None}


def kernel_json(k: Kernel, sms: int, ghz: float) -> Dict[str, object]:
    """Everything the report says about one kernel, as JSON-ready data."""
    threads, source = launch_of(k.name)
    dyn = dynamic_smem(k.name)
    whole = mix(k.instrs)
    out: Dict[str, object] = {
        "kernel": k.name, "mangled": k.mangled, "object": k.obj, "hot_kernel": is_hot_kernel(k.name),
        "registers": k.res.get("REG"), "stack": k.res.get("STACK"), "shared": k.res.get("SHARED"),
        "local": k.res.get("LOCAL"), "instructions": len(k.instrs),
        "stl_total": whole["STL"], "ldl_total": whole["LDL"],
        "threads_per_block": threads, "launch_source": source, "dynamic_smem": dyn,
        "loops": [loop_json(l, sms, ghz) for l in k.loops],
    }
    if threads and k.res:
        out["occupancy"] = occupancy(k.res.get("REG", 0), k.res.get("SHARED", 0), dyn, threads)
    if k.hot:
        hot = loop_json(k.hot, sms, ghz)
        hot["local_ops"] = hot["mix"]["LDL/STL"]
        out["hot_loop"] = hot
    units = []
    for u in k.units:
        cyc = sum(cycles_per_iteration(l.instrs)[0] * its for l, its in u.parts)
        rate = sms * ghz * 1e9 / cyc if cyc else None
        units.append({"unit": u.name, "note": u.note, "cycles_per_unit_per_sm": round(cyc, 2), "units_per_s": rate,
                      "bytes_per_s": rate * u.bytes_per_unit if rate and u.bytes_per_unit else None,
                      "loops": [{"start": f"{l.start:#x}", "end": f"{l.end:#x}", "iterations_per_unit": its,
                                 "static_trip": l.trip} for l, its in u.parts]})
    out["units"] = units
    return out


# ---- Output -------------------------------------------------------------------------------------------------------
def si(x: Optional[float], unit: str = "") -> str:
    """1.23e9 -> '1.23 G' (+ unit)."""
    if x is None:
        return "—"
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g} {prefix}{unit}"
    return f"{x:.3g} {unit}".rstrip()


def mix_text(m: Dict[str, int]) -> str:
    """Compact mix: 'LOP3 574, SHF 48, IMAD 49 (W 0), ...' (non-zero classes only)."""
    parts = []
    for c in MIX_CLASSES:
        if not m.get(c):
            continue
        if c == "IMAD" and m.get("IMAD.WIDE"):
            parts.append(f"IMAD {m[c]} (W {m['IMAD.WIDE']})")
        elif c == "LDL/STL":
            parts.append(f"LDL/STL {m['LDL']}/{m['STL']}")
        else:
            parts.append(f"{c} {m[c]}")
    if m.get("FP64"):
        parts.append(f"[fp64 {m['FP64']}]")
    if m.get("SHFL"):
        parts.append(f"[SHFL {m['SHFL']}]")
    return ", ".join(parts)


def predicted_text(r: Dict[str, object]) -> str:
    """The headline bound of a kernel: its first unit's rate, else its hot loop's iterations per second."""
    if r["units"]:
        u = r["units"][0]
        gbs = f" ({u['bytes_per_s'] / 1e9:.0f} GB/s)" if u["bytes_per_s"] else ""
        return f"{si(u['units_per_s'])} {u['unit']}/s{gbs}"
    h = r.get("hot_loop")
    return f"{si(h['iterations_per_s'])} iterations/s (no unit model)" if h else "—"


def markdown(reports: List[Dict[str, object]], header: str, sms: int, ghz: float) -> str:
    """The Markdown report: summary of the hot kernels, resources and occupancy, hot loops and bounds, units."""
    lines = [header, ""]
    lines += ["## Summary: hot kernels", "",
              "The kernels `--check` watches. Hot-loop mix in SASS instructions per iteration (W: IMAD.WIDE; "
              "LDL/STL: local loads/stores); predicted: the ceiling of the last section (pipes fully overlapped, "
              "no stalls; AES-128 assumed).", "",
              "| kernel | regs | stack B | occupancy | hot loop: instrs, mix | LDL/STL in loop | bound | predicted |",
              "|---|---|---|---|---|---|---|---|"]
    for r in reports:
        if not r["hot_kernel"]:
            continue
        h = r.get("hot_loop")
        occ = r.get("occupancy") or {}
        loop = f"{h['instructions']}: {mix_text(h['mix'])}" if h else "(no loop)"
        lines.append(f"| `{r['kernel']}` | {r['registers']} | {r['stack']} | {occ.get('occupancy', 0):.0%} | {loop} | "
                     f"{h['local_ops'] if h else ''} | {h['bound'] if h else ''} | {predicted_text(r)} |")
    lines += ["", "## Resources and occupancy", "",
              "Registers, stack, shared (static) and local bytes from `cuobjdump -res-usage`; LDL/STL: local loads "
              "and stores anywhere in the kernel's SASS (spills or local arrays). Occupancy: blocks per SM at the "
              "launch block size, H100 limits (65536 registers, 64 warps, 32 blocks, 228 KiB shared per SM; "
              "+1 KiB reserved per block).", "",
              "| kernel | object | threads | regs | stack B | local B | smem B (static+dyn) | LDL / STL | blocks/SM | "
              "occupancy | limiter |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in reports:
        occ = r.get("occupancy") or {}
        smem = f"{r['shared']}+{r['dynamic_smem']}" if r["dynamic_smem"] else f"{r['shared']}"
        lines.append(f"| `{r['kernel']}` | {r['object']} | {r['threads_per_block'] or '?'} | {r['registers']} | "
                     f"{r['stack']} | {r['local']} | {smem} | {r['ldl_total']} / {r['stl_total']} | "
                     f"{occ.get('blocks_per_sm', '?')} | {occ.get('occupancy', 0):.0%} | {occ.get('limiter', '?')} |")
    lines += ["", "## Hot loops", "",
              f"Hot loop: the costliest loop of the kernel's unit model (next section) when one applies, else the "
              f"largest innermost natural loop without calls. Bound: clocks per thread-iteration of the "
              f"busiest pipe (per-SM rates of compute capability 9.0, or the issue limit of 128 thread-instructions "
              f"per clock), {sms} SMs x {ghz} GHz, no stalls: a ceiling. Trip: static trip count when the latch "
              f"compares a counter with a constant.", "",
              "| kernel | loop | instrs | trip | mix | local ops | bound | clk/iter | iterations/s |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in reports:
        h = r.get("hot_loop")
        if not h:
            lines.append(f"| `{r['kernel']}` | (no loop) | | | | | | | |")
            continue
        lines.append(f"| `{r['kernel']}` | {h['start']}–{h['end']} | {h['instructions']} | "
                     f"{h['static_trip'] or ''} | {mix_text(h['mix'])} | {h['local_ops']} | {h['bound']} | "
                     f"{h['cycles_per_thread_iteration']} | {si(h['iterations_per_s'])} |")
    lines += ["", "## Units of work", "",
              "Per unit: the loops that make up one unit (UNIT_MODELS in the script: iterations per unit from the "
              "source) at their bounds; everything outside those loops is left out, so these are ceilings.", "",
              "| kernel | unit | loops (iterations per unit) | clk/unit/SM | units/s | GB/s | how |",
              "|---|---|---|---|---|---|---|"]
    for r in reports:
        for u in r["units"]:
            loops = "; ".join(f"{l['start']}–{l['end']} × {l['iterations_per_unit']:g}"
                              + (f" (trip {l['static_trip']})" if l["static_trip"] else "") for l in u["loops"])
            gbs = f"{u['bytes_per_s'] / 1e9:.0f}" if u["bytes_per_s"] else ""
            lines.append(f"| `{r['kernel']}` | {u['unit']} | {loops} | {u['cycles_per_unit_per_sm']} | "
                         f"{si(u['units_per_s'])} | {gbs} | {u['note']} |")
    missing = [r["kernel"] for r in reports if r["hot_kernel"] and not r["units"]]
    if missing:
        lines += ["", "Hot kernels reported per loop iteration only (no unit model applies): " +
                  ", ".join(f"`{m}`" for m in missing) + "."]
    return "\n".join(lines) + "\n"


# ---- Check --------------------------------------------------------------------------------------------------------
def baseline_of(reports: List[Dict[str, object]]) -> Dict[str, object]:
    """The figures --check compares, for the hot kernels: stack, hot-loop local ops, STL anywhere."""
    out = {}
    for r in reports:
        if r["hot_kernel"]:
            hot = r.get("hot_loop") or {}
            out[r["kernel"]] = {"stack": r["stack"], "hot_loop_local_ops": hot.get("local_ops", 0),
                                "stl_total": r["stl_total"], "registers": r["registers"]}
    return {"arch": ARCH, "kernels": out}


def check(reports: List[Dict[str, object]], baseline: Optional[Dict[str, object]]) -> List[str]:
    """One line per hot kernel that is worse than the baseline (or, without one, has local ops in its hot loop or
    any STL): more hot-loop LDL/STL, more stack or more STL than recorded."""
    known = (baseline or {}).get("kernels", {})
    now = baseline_of(reports)["kernels"]
    problems = []
    for name, cur in now.items():
        base = known.get(name) if baseline else None
        if base is None:
            why = []
            if cur["hot_loop_local_ops"]:
                why.append(f"{cur['hot_loop_local_ops']} LDL/STL in the hot loop")
            if cur["stl_total"]:
                why.append(f"{cur['stl_total']} STL (spill stores or local arrays), stack {cur['stack']} B")
            if why:
                suffix = " (not in the baseline)" if baseline else ""
                problems.append(f"{name}: " + "; ".join(why) + suffix)
            continue
        worse = [f"{label} {cur[key]} > baseline {base[key]}"
                 for key, label in (("hot_loop_local_ops", "hot-loop LDL/STL"), ("stack", "stack B"),
                                    ("stl_total", "STL"))
                 if (cur[key] or 0) > (base.get(key) or 0)]
        if worse:
            problems.append(f"{name}: " + "; ".join(worse))
    return problems


# ---- Main ---------------------------------------------------------------------------------------------------------
def natural_key(name: str) -> List[object]:
    """Sort key that orders embedded numbers by value (rsa_modexp_kernel<96> before <128>)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def inputs(args: argparse.Namespace) -> List[str]:
    """The objects to read: the arguments, else the CUDA objects of the build tree."""
    if args.objects:
        return args.objects
    return sorted(glob.glob(os.path.join(args.build, OBJECT_GLOB), recursive=True))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("objects", nargs="*", help=f"objects or binaries with {ARCH} cubins "
                    f"(default: BUILD/{OBJECT_GLOB})")
    ap.add_argument("--build", default=DEFAULT_BUILD,
                    help="build tree for the default objects (default: build/gpu of this repository)")
    ap.add_argument("--out", help="write the Markdown here instead of stdout")
    ap.add_argument("--json", help="also write the full report as JSON")
    ap.add_argument("--sms", type=int, default=DEFAULT_SMS, help=f"SMs (default {DEFAULT_SMS}, H100 SXM)")
    ap.add_argument("--clock-ghz", type=float, default=DEFAULT_CLOCK_GHZ,
                    help=f"SM clock in GHz (default {DEFAULT_CLOCK_GHZ}, H100 SXM boost)")
    ap.add_argument("--disasm", choices=("cuobjdump", "nvdisasm"), default="cuobjdump",
                    help="disassembler for the SASS (resources always come from cuobjdump)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a hot kernel is worse than --baseline "
                    "(without one: when it has LDL/STL in its hot loop or STL anywhere)")
    ap.add_argument("--baseline", help="baseline JSON for --check (written by --write-baseline)")
    ap.add_argument("--write-baseline", metavar="FILE", help="write today's figures of the hot kernels as a baseline")
    args = ap.parse_args(argv)

    cuobjdump = find_tool("cuobjdump", "CUOBJDUMP")
    if not cuobjdump:
        print(tool_missing("cuobjdump", "CUOBJDUMP", "nvidia-cuda-cuobjdump"), file=sys.stderr)
        return 2
    nvdisasm = None
    if args.disasm == "nvdisasm":
        nvdisasm = find_tool("nvdisasm", "NVDISASM")
        if not nvdisasm:
            print(tool_missing("nvdisasm", "NVDISASM", "nvidia-cuda-nvdisasm"), file=sys.stderr)
            return 2
    paths = inputs(args)
    if not paths:
        print(f"sass_report: no objects given and none match {os.path.join(args.build, OBJECT_GLOB)}", file=sys.stderr)
        return 2

    kernels: List[Kernel] = []
    for path in paths:
        try:
            found = analyse_object(path, cuobjdump, nvdisasm)
        except RuntimeError as e:
            print(f"sass_report: {e}", file=sys.stderr)
            return 2
        if not found and args.objects:  # the default glob also matches host-only objects (rsa_kernels.cu.o)
            print(f"sass_report: no {ARCH} kernels in {path}", file=sys.stderr)
        kernels += found
    seen = Counter(k.name for k in kernels)
    for k in kernels:  # the same short name in two objects: keep them apart
        if seen[k.name] > 1:
            k.name = f"{k.name} @{k.obj}"
    kernels.sort(key=lambda k: (k.obj, natural_key(k.name)))
    reports = [kernel_json(k, args.sms, args.clock_ghz) for k in kernels]

    version = re.findall(r"release [\d.]+, V[\d.]+", run_tool([cuobjdump, "--version"]))
    command = " ".join(["python3", "bench/gpu/sass_report.py"] + list(argv if argv is not None else sys.argv[1:]))
    header = (f"# SASS report, {ARCH} (H100: {args.sms} SMs, {args.clock_ghz} GHz)\n\n"
              f"Generated by `{command}` from {len(paths)} object(s) "
              f"({', '.join(sorted({os.path.basename(p) for p in paths}))}): {len(reports)} kernels. "
              f"Disassembler: {args.disasm}; cuobjdump {version[0] if version else '(version unknown)'}. "
              "Static analysis only: nothing here was measured.")
    text = markdown(reports, header, args.sms, args.clock_ghz)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    elif not args.check:
        sys.stdout.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"arch": ARCH, "sms": args.sms, "clock_ghz": args.clock_ghz, "rates": RATES,
                       "objects": paths, "kernels": reports}, f, indent=1)
    if args.write_baseline:
        with open(args.write_baseline, "w") as f:
            json.dump(baseline_of(reports), f, indent=1, sort_keys=True)
            f.write("\n")
    if args.check:
        baseline = None
        if args.baseline:
            with open(args.baseline) as f:
                baseline = json.load(f)
        problems = check(reports, baseline)
        for p in problems:
            print(f"sass_report check: {p}")
        if not problems:
            what = "none worse than the baseline" if baseline else "none with hot-loop LDL/STL or STL"
            print(f"sass_report check: {sum(r['hot_kernel'] for r in reports)} hot kernels, {what}")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
