"""Random RISC-V instruction streams for differential testing against Spike (riscv-dv's idea, our generator).

`generate(seed, xlen, vector)` returns the assembly of `random_body(uint8_t *out)`: it loads every integer register
(but sp and the two it reserves) with random values and the vector registers with random bytes, runs a random but
valid stream of instructions over the extensions the simulator has (RV32/RV64 I, M, Zba, Zbb, Zbs, Zbkb, Zbkc,
Zbkx, Zknh, Zkne/Zknd, Zksed, Zksh, aligned loads and stores to a scratch area, forward branches; with `vector`:
vsetvli with random SEW/LMUL/AVL, integer vector arithmetic, Zvbb, Zvbc, and the vector crypto instructions of
Zvkned, Zvknhb, Zvkg, Zvksed and Zvksh under the vtype each needs), then writes every register, vl and vtype to
`out`. tests/rv/random_main.c prints `out` in hex, so that the program's output on Spike and on our simulator must
be equal. The same seed always gives the same program.

    python3 tests/rv/random_stream.py SEED XLEN [--vector] > body.S
"""
from __future__ import annotations

import random
import sys
from typing import Callable, List

# Registers: x0 is zero, x2 is the stack pointer, x31 holds the scratch area's address (loads and stores use it),
# x30 holds `out` until the end. Every other register is a source and a destination.
SCRATCH, OUT = 31, 30
FREE = [r for r in range(1, 30) if r != 2]
SCRATCH_BYTES = 512

R_ALL = "add sub sll slt sltu xor srl sra or and mul mulh mulhsu mulhu div divu rem remu " \
        "sh1add sh2add sh3add andn orn xnor max maxu min minu rol ror bclr bext binv bset " \
        "pack packh clmul clmulh clmulr xperm4 xperm8"
R_64 = "addw subw sllw srlw sraw mulw divw divuw remw remuw add.uw sh1add.uw sh2add.uw sh3add.uw rolw rorw packw " \
       "aes64es aes64esm aes64ds aes64dsm aes64ks2"
R_32 = "sha512sig0h sha512sig0l sha512sig1h sha512sig1l sha512sum0r sha512sum1r"
UNARY_ALL = "clz ctz cpop sext.b sext.h zext.h orc.b rev8 brev8 sha256sig0 sha256sig1 sha256sum0 sha256sum1 sm3p0 sm3p1"
UNARY_64 = "clzw ctzw cpopw aes64im sha512sig0 sha512sig1 sha512sum0 sha512sum1"
UNARY_32 = "zip unzip"
IMM12 = "addi slti sltiu xori ori andi"
SHIFT_ALL = "slli srli srai rori bclri bexti binvi bseti"
SHIFT_64 = "slli.uw"
IMM5_64 = "addiw slliw srliw sraiw roriw"


def _regs(rng: random.Random, n: int) -> List[int]:
    return [rng.choice(FREE) for _ in range(n)]


class Program:
    """Builds one random program."""

    def __init__(self, seed: int, xlen: int, vector: bool) -> None:
        self.rng = random.Random(f"rv-random-stream:{seed}:{xlen}:{vector}")
        self.xlen, self.vector = xlen, vector
        self.lines: List[str] = []
        self.labels = 0
        self.sew, self.lmul = 8, 8  # the vtype the stream is in: the prologue's e8, m8
        self.elen = 64 if xlen == 64 else 32

    def emit(self, text: str) -> None:
        self.lines.append("  " + text)

    # --- scalar ---------------------------------------------------------------------------------------------------

    def scalar(self) -> None:
        rng, x = self.rng, self.xlen
        rd, a, b = _regs(rng, 3)
        kind = rng.random()
        if kind < 0.35:
            ops = R_ALL.split() + (R_64 if x == 64 else R_32).split()
            op = rng.choice(ops)
            self.emit(f"{op} x{rd}, x{a}, x{b}")
        elif kind < 0.5:
            op = rng.choice(UNARY_ALL.split() + (UNARY_64 if x == 64 else UNARY_32).split())
            self.emit(f"{op} x{rd}, x{a}")
        elif kind < 0.62:
            self.emit(f"{rng.choice(IMM12.split())} x{rd}, x{a}, {rng.randint(-2048, 2047)}")
        elif kind < 0.72:
            ops = SHIFT_ALL.split() + (SHIFT_64.split() if x == 64 else [])
            self.emit(f"{rng.choice(ops)} x{rd}, x{a}, {rng.randrange(x)}")
        elif kind < 0.76 and x == 64:
            self.emit(f"{rng.choice(IMM5_64.split())} x{rd}, x{a}, {rng.randrange(32)}")
        elif kind < 0.8:
            if x == 64 and rng.random() < 0.4:
                self.emit(f"aes64ks1i x{rd}, x{a}, {rng.randint(0, 10)}")
            else:
                ops = "sm4ed sm4ks".split() + ("aes32esi aes32esmi aes32dsi aes32dsmi".split() if x == 32 else [])
                self.emit(f"{rng.choice(ops)} x{rd}, x{a}, x{b}, {rng.randrange(4)}")
        elif kind < 0.84:
            self.emit(f"lui x{rd}, {rng.randrange(1 << 20)}")
        elif kind < 0.93:
            self.memory(rd)
        else:
            self.branch()

    def memory(self, reg: int) -> None:
        rng = self.rng
        sizes = {"b": 1, "h": 2, "w": 4, "d": 8} if self.xlen == 64 else {"b": 1, "h": 2, "w": 4}
        suffix = rng.choice(list(sizes))
        offset = rng.randrange(0, SCRATCH_BYTES // sizes[suffix]) * sizes[suffix]
        if rng.random() < 0.5:
            loads = [f"l{suffix}"] + ([f"l{suffix}u"] if suffix != "d" and not (suffix == "w" and self.xlen == 32) else [])
            self.emit(f"{rng.choice(loads)} x{reg}, {offset}(x{SCRATCH})")
        else:
            self.emit(f"s{suffix} x{reg}, {offset}(x{SCRATCH})")

    def branch(self) -> None:
        rng = self.rng
        a, b = _regs(rng, 2)
        self.labels += 1
        label = f".Lskip{self.labels}"
        self.emit(f"{rng.choice('beq bne blt bge bltu bgeu'.split())} x{a}, x{b}, {label}")
        for _ in range(rng.randint(1, 3)):
            rd, c, d = _regs(rng, 3)
            self.emit(f"{rng.choice(R_ALL.split()[:10])} x{rd}, x{c}, x{d}")
        self.lines.append(f"{label}:")

    # --- vector ---------------------------------------------------------------------------------------------------

    def vreg(self, group: int = 0) -> int:
        """A register aligned to `group` (the current LMUL by default)."""
        g = group or self.lmul
        return self.rng.randrange(0, 32, g)

    def vsetvli(self) -> None:
        rng = self.rng
        sews = [8, 16, 32] + ([64] if self.elen == 64 else [])
        self.sew = rng.choice(sews)
        self.lmul = rng.choice([1, 2, 4, 8])
        rd, avl = _regs(rng, 2)
        # tu/mu: tail and masked-off elements undisturbed (agnostic ones may be filled with ones or kept: either is
        # allowed, and Spike and the simulator need not choose alike).
        if rng.random() < 0.3:
            self.emit(f"vsetivli x{rd}, {rng.randrange(32)}, e{self.sew}, m{self.lmul}, tu, mu")
        else:
            self.emit(f"vsetvli x{rd}, x{avl}, e{self.sew}, m{self.lmul}, tu, mu")

    def vector_op(self) -> None:
        rng = self.rng
        vd, vs1, vs2 = self.vreg(), self.vreg(), self.vreg()
        rs = rng.choice(FREE)
        kind = rng.random()
        if kind < 0.12:
            self.vsetvli()
        elif kind < 0.45:
            op = rng.choice("vadd vsub vand vor vxor vsll vsrl vsra vminu vmaxu vmin vmax vmul vmulhu vandn vrol vror".split())
            form = rng.choice(["vv", "vx"])
            self.emit(f"{op}.{form} v{vd}, v{vs2}, {'v' + str(vs1) if form == 'vv' else 'x' + str(rs)}")
        elif kind < 0.55:
            op = rng.choice("vadd vand vor vxor vsll vsrl vsra vror".split())
            imm = rng.randrange(32) if op in ("vsll", "vsrl", "vsra", "vror") else rng.randint(-16, 15)
            self.emit(f"{op}.vi v{vd}, v{vs2}, {imm}")
        elif kind < 0.65:
            op = rng.choice("vbrev8.v vrev8.v vbrev.v vclz.v vctz.v vcpop.v".split())
            self.emit(f"{op} v{vd}, v{vs2}")
        elif kind < 0.72:
            self.emit(rng.choice([f"vmv.v.v v{vd}, v{vs1}", f"vmv.v.x v{vd}, x{rs}", f"vmv.v.i v{vd}, {rng.randint(-16, 15)}"]))
        elif kind < 0.77 and self.sew == 64:
            op = rng.choice(["vclmul", "vclmulh"])
            if rng.random() < 0.5:
                self.emit(f"{op}.vv v{vd}, v{vs2}, v{vs1}")
            else:
                self.emit(f"{op}.vx v{vd}, v{vs2}, x{rs}")
        else:
            self.vector_crypto()

    def vector_crypto(self) -> None:
        """One vector crypto instruction under a vtype it is defined for (SEW, vl a multiple of the element group,
        LMUL x VLEN at least the group width), in registers that do not overlap where the spec forbids it."""
        rng = self.rng
        choice = rng.choice(["aes", "aes_vs", "aeskf1", "aeskf2", "sha256", "sha512", "ghash", "sm4k", "sm4r",
                             "sm3me", "sm3c"])
        if choice == "sha512" and self.elen < 64:
            choice = "sha256"
        egs, sew = (8, 32) if choice.startswith("sm3") else (4, 64 if choice == "sha512" else 32)
        lmul = 2 if choice.startswith("sm3") or choice == "sha512" else rng.choice([1, 2])
        groups = rng.randint(1, 2)
        # vl = groups x EGS elements; with VLEN >= 128 and the LMUL above that always fits (VLMAX >= 8 at e32 m2,
        # >= 4 at e64 m2).
        self.emit(f"vsetivli x0, {groups * egs}, e{sew}, m{lmul}, tu, mu")
        self.sew, self.lmul = sew, lmul
        regs = rng.sample(range(0, 32, lmul), 3)  # three distinct, aligned, non-overlapping groups
        vd, vs1, vs2 = regs
        if choice in ("aeskf1", "aeskf2") and vd == 0:  # LLVM 19's assembler refuses vd = v0 there (a mask check
            vd = vs1                                      # it should not make: the instructions are unmasked)
        if choice == "aes":
            self.emit(f"{rng.choice('vaesef vaesem vaesdf vaesdm'.split())}.vv v{vd}, v{vs2}")
        elif choice == "aes_vs":
            op = rng.choice("vaesef.vs vaesem.vs vaesdf.vs vaesdm.vs vaesz.vs".split())
            self.emit(f"{op} v{vd}, v{vs2}")
        elif choice == "aeskf1":
            self.emit(f"vaeskf1.vi v{vd}, v{vs2}, {rng.randint(0, 15)}")
        elif choice == "aeskf2":
            self.emit(f"vaeskf2.vi v{vd}, v{vs2}, {rng.randint(0, 15)}")
        elif choice in ("sha256", "sha512"):
            self.emit(f"{rng.choice('vsha2ms vsha2ch vsha2cl'.split())}.vv v{vd}, v{vs2}, v{vs1}")
        elif choice == "ghash":
            self.emit(rng.choice([f"vghsh.vv v{vd}, v{vs2}, v{vs1}", f"vgmul.vv v{vd}, v{vs2}"]))
        elif choice == "sm4k":
            self.emit(f"vsm4k.vi v{vd}, v{vs2}, {rng.randrange(8)}")
        elif choice == "sm4r":
            self.emit(f"{rng.choice(['vsm4r.vv', 'vsm4r.vs'])} v{vd}, v{vs2}")
        elif choice == "sm3me":
            self.emit(f"vsm3me.vv v{vd}, v{vs2}, v{vs1}")
        else:
            self.emit(f"vsm3c.vi v{vd}, v{vs2}, {rng.randrange(32)}")

    # --- the whole function ---------------------------------------------------------------------------------------

    def build(self, length: int) -> str:
        rng, x = self.rng, self.xlen
        word = 8 if x == 64 else 4
        ld, sd = ("ld", "sd") if x == 64 else ("lw", "sw")
        saved = [1, 3, 4, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]  # ra, gp, tp, s0-s11
        frame = (len(saved) + 1) * word
        frame = (frame + 15) // 16 * 16
        head = [f"# random_stream.py seed program: xlen {x}, vector {self.vector}",
                "  .text", "  .globl random_body", "  .p2align 2", "random_body:",
                f"  addi sp, sp, -{frame}"]
        head += [f"  {sd} x{r}, {i * word}(sp)" for i, r in enumerate(saved)]
        head += [f"  mv x{OUT}, a0", f"  la x{SCRATCH}, random_scratch"]
        # An exception (an instruction one side finds illegal) exits with status 100 + mcause on both Spike and the
        # simulator instead of spinning.
        head += ["  la t0, random_trap", "  csrw mtvec, t0"]
        if self.vector:
            head += ["  li t0, 0x200", "  csrs mstatus, t0"]  # mstatus.VS = Initial: vector instructions allowed
            head += ["  li t0, -1", "  vsetvli t0, t0, e8, m8, tu, mu", "  la t1, random_vinit"]
            for v in (0, 8, 16, 24):
                head += [f"  vle8.v v{v}, (t1)", "  add t1, t1, t0"]
        for r in FREE:
            head.append(f"  li x{r}, {rng.getrandbits(x)}")
        self.lines = []
        for _ in range(length):
            if self.vector and rng.random() < 0.4:
                self.vector_op()
            else:
                self.scalar()
        tail = []
        for r in range(32):
            if r not in (2, OUT):
                tail.append(f"  {sd} x{r}, {r * word}(x{OUT})")
        at = 32 * word
        if self.vector:
            tail += ["  csrr t0, vl", f"  {sd} t0, {at}(x{OUT})", "  csrr t0, vtype", f"  {sd} t0, {at + word}(x{OUT})"]
            tail += [f"  addi x{OUT}, x{OUT}, {at + 2 * word}", "  li t0, -1", "  vsetvli t0, t0, e8, m8, tu, mu"]
            for v in (0, 8, 16, 24):
                tail += [f"  vse8.v v{v}, (x{OUT})", f"  add x{OUT}, x{OUT}, t0"]
        tail += [f"  {ld} x{r}, {i * word}(sp)" for i, r in enumerate(saved)]
        tail += [f"  addi sp, sp, {frame}", "  ret"]
        tail += ["  .p2align 2", "random_trap:", "  csrr a0, mcause", "  addi a0, a0, 100", "  slli a0, a0, 1",
                 "  ori a0, a0, 1", "  la t0, tohost", f"  {sd} a0, 0(t0)" if x == 64 else "  sw a0, 0(t0)",
                 "1:", "  j 1b"]
        data = ["  .data", "  .p2align 4", "random_scratch:"]
        data += [f"  .byte {', '.join(str(rng.randrange(256)) for _ in range(16))}" for _ in range(SCRATCH_BYTES // 16)]
        if self.vector:
            data += ["  .p2align 4", "random_vinit:"]
            data += [f"  .byte {', '.join(str(rng.randrange(256)) for _ in range(16))}" for _ in range(4 * 1024 // 16)]
        return "\n".join(head + self.lines + tail + data) + "\n"


def generate(seed: int, xlen: int, vector: bool, length: int = 300) -> str:
    """The assembly of one random program (see the module docstring). Vector streams are RV64 only (the RV64
    configuration has ELEN 64, which SEW 64, Zvbc and Zvknhb need)."""
    if vector and xlen != 64:
        raise ValueError("vector streams are generated for RV64 only")
    return Program(seed, xlen, vector).build(length)


if __name__ == "__main__":
    seed, xlen = int(sys.argv[1]), int(sys.argv[2])
    sys.stdout.write(generate(seed, xlen, "--vector" in sys.argv[3:]))
