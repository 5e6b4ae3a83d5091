// MULX/ADX Montgomery kernels (see mont_mulx.hpp): GNU inline assembly, unrolled per limb count with GAS .rept and
// .set counters, so that every limb offset is an immediate and nothing but the limb count decides the instruction
// stream (constant time by construction). The assembler accepts MULX/ADCX/ADOX without -mbmi2/-madx, so this file
// needs no ISA flags; the run-time check is mulx_adx_available().
//
// One row "t[0..L) += x * v[0..L)" (x in RDX) is, per limb j, with CF and OF clear at its start:
//     mulx v[j], lo, hi_j      lo:hi_j = x v[j]            (flags untouched)
//     adcx hi_{j-1}, lo        lo += previous high + CF    (CF chain: the product's own carries)
//     adox t[j], lo            lo += t[j] + OF             (OF chain: the sum into t)
//     mov  lo, t[j]
// and its top limb is hi_{L-1} + CF + OF, which cannot overflow: t + x v < 2^(64 L) + (2^64 - 1) 2^(64 L) fits L + 1
// limbs. The two high registers alternate (r8/r9) so that each high half lives until the next limb adds it.
#include "rsa/mont_mulx.hpp"

#include <immintrin.h>

#include "common/cpu_features.hpp"

namespace cryptaccel::rsa {
namespace {

using limb = algo::bn::limb;

// One row "t[0..N) += RDX * v[0..N)" in the form above, as assembler text on the operands %[v] and %[t] of the
// enclosing asm: leaves the top limb (hi + CF + OF) in r9 (RAX must be zero, CF = OF = 0 on entry). N is even.
// STORE_SHIFT 1 stores limb j at t[j - 1] (and drops limb 0, which the Montgomery reduction makes zero): the
// reduction row of CIOS divides by 2^64 as it goes. MPOS 0 or 1 also leaves r11 = (new t[MPOS]) n0, the next
// reduction row's multiplier m (-1: not): the limb is copied as soon as it is final and multiplied by n0 once the
// carry chains have ended (IMUL writes CF and OF), so that the next row starts without a load from t.
#define CA_MULX_ROW(v, STORE_SHIFT, MPOS)                            \
  "mulx (%[" v "]), %%r10, %%r8\n\t"                                 \
  "adox (%[t]), %%r10\n\t"                                           \
  ".if " #STORE_SHIFT " == 0\n\t"                                   \
  "mov %%r10, (%[t])\n\t"                                            \
  ".endif\n\t"                                                       \
  ".if " #MPOS " == 0\n\t"                                          \
  "mov %%r10, %%r11\n\t"                                             \
  ".endif\n\t"                                                       \
  ".set .Lca_j, 1\n\t"                                               \
  ".rept (%c[N] - 2) / 2\n\t"                                        \
  "mulx 8*.Lca_j(%[" v "]), %%r10, %%r9\n\t"                         \
  "adcx %%r8, %%r10\n\t"                                             \
  "adox 8*.Lca_j(%[t]), %%r10\n\t"                                   \
  "mov %%r10, 8*(.Lca_j-" #STORE_SHIFT ")(%[t])\n\t"                 \
  ".if " #MPOS " == 1 && .Lca_j == 1\n\t"                           \
  "mov %%r10, %%r11\n\t"                                             \
  ".endif\n\t"                                                       \
  "mulx 8*.Lca_j+8(%[" v "]), %%r10, %%r8\n\t"                       \
  "adcx %%r9, %%r10\n\t"                                             \
  "adox 8*.Lca_j+8(%[t]), %%r10\n\t"                                 \
  "mov %%r10, 8*(.Lca_j+1-" #STORE_SHIFT ")(%[t])\n\t"               \
  ".set .Lca_j, .Lca_j + 2\n\t"                                      \
  ".endr\n\t"                                                        \
  "mulx 8*%c[N]-8(%[" v "]), %%r10, %%r9\n\t"                        \
  "adcx %%r8, %%r10\n\t"                                             \
  "adox 8*%c[N]-8(%[t]), %%r10\n\t"                                  \
  "mov %%r10, 8*(%c[N]-1-" #STORE_SHIFT ")(%[t])\n\t"                \
  "adcx %%rax, %%r9\n\t"                                             \
  "adox %%rax, %%r9\n\t"                                             \
  ".if " #MPOS " >= 0\n\t"                                          \
  "imul %[n0], %%r11\n\t"                                            \
  ".endif\n\t"

/// r = t - n when t (N limbs and a top bit) >= n, else t: the subtraction with SBB, then a masked select.
template <std::size_t N>
inline void final_subtract(limb* r, const limb* t, limb top, const limb* n) {
  limb d[N];
  limb keep = top;  // becomes top - borrow: all ones exactly when t < n (t < 2n, so top = 1 always borrows)
  __asm__ volatile(
      "mov (%[t]), %%rax\n\t"
      "sub (%[n]), %%rax\n\t"
      "mov %%rax, (%[d])\n\t"
      ".set .Lca_j, 1\n\t"
      ".rept %c[N] - 1\n\t"
      "mov 8*.Lca_j(%[t]), %%rax\n\t"
      "sbb 8*.Lca_j(%[n]), %%rax\n\t"
      "mov %%rax, 8*.Lca_j(%[d])\n\t"
      ".set .Lca_j, .Lca_j + 1\n\t"
      ".endr\n\t"
      "sbb $0, %[keep]\n\t"
      : [keep] "+r"(keep)
      : [t] "r"(t), [n] "r"(n), [d] "r"(d), [N] "i"(N)
      : "rax", "cc", "memory");
  for (std::size_t i = 0; i < N; ++i) r[i] = (t[i] & keep) | (d[i] & ~keep);
}

}  // namespace

/// For i < N: m = t[i] n0, t[i..i+N) += m n, then that row's top limb and the running carry into t[i+N] with one
/// ADC (the carry lives in r12 as 0 or all ones: NEG puts it into CF, SBB takes it back); the result is t[N..2N) and
/// the carry, below 2n. The limb counts that are not a multiple of 8 (4, 12) reduce this way; the others by blocks.
template <std::size_t N>
limb redc_rows(limb* t, const limb* n, limb n0) {
  limb* tp = t;
  limb* const tend = t + N;
  limb top;
  __asm__ volatile(
      "xor %%r12d, %%r12d\n\t"
      "mov (%[t]), %%r11\n\t"
      "imul %[n0], %%r11\n\t"
      "1:\n\t"
      "mov %%r11, %%rdx\n\t"
      "xor %%eax, %%eax\n\t"
      CA_MULX_ROW("n", 0, 1)  // r11 = the next row's m
      "neg %%r12\n\t"             // CF = the carry (r12 is 0 or all ones)
      "adc %%r9, 8*%c[N](%[t])\n\t"
      "sbb %%r12, %%r12\n\t"      // r12 = all ones when this add carried
      "lea 8(%[t]), %[t]\n\t"
      "cmp %[tend], %[t]\n\t"
      "jne 1b\n\t"
      "mov %%r12, %[top]\n\t"
      "neg %[top]\n\t"
      : [t] "+r"(tp), [top] "=r"(top)
      : [n] "r"(n), [n0] "rm"(n0), [tend] "rm"(tend), [N] "i"(N)
      : "rax", "rdx", "r8", "r9", "r10", "r11", "r12", "cc", "memory");
  return top;
}

/// Limbs of the buffer blocks<N> works in: t (2N limbs), then per block of 8 rows a scratch area that moves up 8
/// limbs with the block (see blocks).
template <std::size_t N>
inline constexpr std::size_t kRedcBuffer = 3 * N + 13;

/// t += M v by blocks of 8 rows, for N a multiple of 8, with the running 8 limbs of t in registers, where M has N limbs
/// taken 8 at a time: kRedc (REDC, v = n, x = n0) the multipliers m_k = t[k] n0 that make t's low limbs zero, else
/// (the product t = a b of a zeroed t, v = a, x = the address of b) the limbs of b. Block b (t advanced by 8b limbs,
/// so that the block always works on t[0..N] and its scratch at t[2N..2N+21)) adds its 8 multipliers times v to t,
/// one chunk of 8 limbs of v at a time (below for REDC; the product loads b's 8 limbs at the block start and runs
/// chunk 0 like the others):
///   chunk 0:  window W = t[0..8) in r8..r15; for k < 8: m_k = W_0 n0 (stored at t[2N+k]), W += m_k n[0..8), the
///             zero lowest limb drops out and the row's top limb enters on top (the register names rotate by one).
///             W is then the 8-limb carry into t[8..16).
///   chunk c:  W += t[8c..8c+8) + the previous chunk's carry (a count, 0..2, at t[2N+8]); then for k < 8 (m_k
///             reloaded) W += m_k n[8c..8c+8), the lowest limb is final and stored at t[8c+k], the top enters.
///   end:      t[N..N+8) = W + t[N..N+8) + the carries (the last chunk's and the previous block's, at t[2N+9]); its
///             own carry out (0..2) goes to the next block's t[2N+9], which is this block's t[2N+17].
/// A row, with m in RDX and CF = OF = 0 on entry: for j < 8 "mulx n[j], rax, rbx; adcx rax, W_j; adox rbx, W_j+1",
/// the low halves on the CF chain, the high halves on the OF chain, except that n[7]'s high half is written straight
/// into the freed W_0 register, which becomes the top: W_0 = hi + OF + CF (rcx is zero). The 9-limb row sum
/// W + m n[..] < 2^576 fits, so both chains end with their flag clear. Scratch per block: t[2N..2N+8) the m_k,
/// t[2N+8] the chunk carry, t[2N+9] the carry in from the previous block, t[2N+10] n0, t[2N+11] the blocks left,
/// t[2N+12] the product's next limbs of b; each block copies the last four 8 limbs up for the next. Registers: rdi t,
/// rsi v, rdx m, rax/rbx the product, rcx zero, r8..r15 the window. Returns the top carry (REDC: t[N..2N) + top
/// 2^(128N) < 2n; the product: 0).
template <std::size_t N, bool kRedc>
limb blocks(limb* t, const limb* n, limb x) {
  static_assert(N % 8 == 0);
  t[2 * N + 9] = 0;
  t[2 * N + 10] = x;
  t[2 * N + 11] = N / 8;
  t[2 * N + 12] = x;
  limb* tp = t;
  __asm__ volatile(
      // One row k of chunk c on the window w0..w7 (see above).
      ".macro ca_rrow w0, w1, w2, w3, w4, w5, w6, w7, c, k\n\t"
      ".if \\c == 0 && %c[redc]\n\t"
      "mov %%rdx, 8*(2*%c[N]+\\k)(%[t])\n\t"
      ".else\n\t"
      "mov 8*(2*%c[N]+\\k)(%[t]), %%rdx\n\t"
      ".endif\n\t"
      "mulx 64*\\c(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w0\n\t"
      "adox %%rbx, \\w1\n\t"
      ".if \\c > 0 || %c[redc] == 0\n\t"
      "mov \\w0, 64*\\c+8*\\k(%[t])\n\t"
      ".endif\n\t"
      "mulx 64*\\c+8(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w1\n\t"
      "adox %%rbx, \\w2\n\t"
      "mulx 64*\\c+16(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w2\n\t"
      "adox %%rbx, \\w3\n\t"
      "mulx 64*\\c+24(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w3\n\t"
      "adox %%rbx, \\w4\n\t"
      "mulx 64*\\c+32(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w4\n\t"
      "adox %%rbx, \\w5\n\t"
      "mulx 64*\\c+40(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w5\n\t"
      "adox %%rbx, \\w6\n\t"
      "mulx 64*\\c+48(%[n]), %%rax, %%rbx\n\t"
      "adcx %%rax, \\w6\n\t"
      "adox %%rbx, \\w7\n\t"
      "mulx 64*\\c+56(%[n]), %%rax, \\w0\n\t"
      "adcx %%rax, \\w7\n\t"
      "adox %%rcx, \\w0\n\t"
      "adcx %%rcx, \\w0\n\t"
      ".if \\c == 0 && %c[redc] && \\k < 7\n\t"  // the next m from the new lowest limb; IMUL spoils the flags, XOR clears them
      "mov \\w1, %%rdx\n\t"
      "imul 8*(2*%c[N]+10)(%[t]), %%rdx\n\t"
      "xor %%ecx, %%ecx\n\t"
      ".endif\n\t"
      ".endm\n\t"
      // The 8 rows of chunk c: the window's names rotate by one per row and are back in place after 8.
      ".macro ca_rchunk c\n\t"
      "ca_rrow %%r8, %%r9, %%r10, %%r11, %%r12, %%r13, %%r14, %%r15, \\c, 0\n\t"
      "ca_rrow %%r9, %%r10, %%r11, %%r12, %%r13, %%r14, %%r15, %%r8, \\c, 1\n\t"
      "ca_rrow %%r10, %%r11, %%r12, %%r13, %%r14, %%r15, %%r8, %%r9, \\c, 2\n\t"
      "ca_rrow %%r11, %%r12, %%r13, %%r14, %%r15, %%r8, %%r9, %%r10, \\c, 3\n\t"
      "ca_rrow %%r12, %%r13, %%r14, %%r15, %%r8, %%r9, %%r10, %%r11, \\c, 4\n\t"
      "ca_rrow %%r13, %%r14, %%r15, %%r8, %%r9, %%r10, %%r11, %%r12, \\c, 5\n\t"
      "ca_rrow %%r14, %%r15, %%r8, %%r9, %%r10, %%r11, %%r12, %%r13, \\c, 6\n\t"
      "ca_rrow %%r15, %%r8, %%r9, %%r10, %%r11, %%r12, %%r13, %%r14, \\c, 7\n\t"
      ".endm\n\t"
      // W += t[8c..8c+8) + cin (a register) at limb 0: t on the CF chain, cin on the OF chain; STORE 1 writes W
      // back to t[8c..8c+8). Leaves the carry out (CF + OF, 0..2) in rdx and both flags clear.
      ".macro ca_radd c, cin, store\n\t"
      "xor %%ecx, %%ecx\n\t"
      "adcx 64*\\c+0(%[t]), %%r8\n\t"
      "adox \\cin, %%r8\n\t"
      ".if \\store\n\tmov %%r8, 64*\\c+0(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+8(%[t]), %%r9\n\t"
      "adox %%rcx, %%r9\n\t"
      ".if \\store\n\tmov %%r9, 64*\\c+8(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+16(%[t]), %%r10\n\t"
      "adox %%rcx, %%r10\n\t"
      ".if \\store\n\tmov %%r10, 64*\\c+16(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+24(%[t]), %%r11\n\t"
      "adox %%rcx, %%r11\n\t"
      ".if \\store\n\tmov %%r11, 64*\\c+24(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+32(%[t]), %%r12\n\t"
      "adox %%rcx, %%r12\n\t"
      ".if \\store\n\tmov %%r12, 64*\\c+32(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+40(%[t]), %%r13\n\t"
      "adox %%rcx, %%r13\n\t"
      ".if \\store\n\tmov %%r13, 64*\\c+40(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+48(%[t]), %%r14\n\t"
      "adox %%rcx, %%r14\n\t"
      ".if \\store\n\tmov %%r14, 64*\\c+48(%[t])\n\t.endif\n\t"
      "adcx 64*\\c+56(%[t]), %%r15\n\t"
      "adox %%rcx, %%r15\n\t"
      ".if \\store\n\tmov %%r15, 64*\\c+56(%[t])\n\t.endif\n\t"
      "mov $0, %%edx\n\t"
      "adcx %%rcx, %%rdx\n\t"
      "adox %%rcx, %%rdx\n\t"
      ".endm\n\t"
      "1:\n\t"
      "mov (%[t]), %%r8\n\t"
      "mov 8(%[t]), %%r9\n\t"
      "mov 16(%[t]), %%r10\n\t"
      "mov 24(%[t]), %%r11\n\t"
      "mov 32(%[t]), %%r12\n\t"
      "mov 40(%[t]), %%r13\n\t"
      "mov 48(%[t]), %%r14\n\t"
      "mov 56(%[t]), %%r15\n\t"
      ".if %c[redc]\n\t"
      "mov %%r8, %%rdx\n\t"
      "imul 8*(2*%c[N]+10)(%[t]), %%rdx\n\t"
      ".else\n\t"  // the product: b's next 8 limbs become the multipliers
      "mov 8*(2*%c[N]+12)(%[t]), %%rdx\n\t"
      ".set .Lca_k, 0\n\t"
      ".rept 8\n\t"
      "mov 8*.Lca_k(%%rdx), %%rax\n\t"
      "mov %%rax, 8*(2*%c[N]+.Lca_k)(%[t])\n\t"
      ".set .Lca_k, .Lca_k + 1\n\t"
      ".endr\n\t"
      "lea 64(%%rdx), %%rdx\n\t"
      "mov %%rdx, 8*(2*%c[N]+20)(%[t])\n\t"
      ".endif\n\t"
      "xor %%ecx, %%ecx\n\t"
      "ca_rchunk 0\n\t"
      ".set .Lca_c, 1\n\t"
      ".rept %c[N] / 8 - 1\n\t"
      ".if .Lca_c == 1\n\t"
      "ca_radd .Lca_c, %%rcx, 0\n\t"  // no carry from chunk 0 (rcx: zero)
      ".else\n\t"
      "mov 8*(2*%c[N]+8)(%[t]), %%rdx\n\t"
      "ca_radd .Lca_c, %%rdx, 0\n\t"
      ".endif\n\t"
      "mov %%rdx, 8*(2*%c[N]+8)(%[t])\n\t"
      "ca_rchunk .Lca_c\n\t"
      ".set .Lca_c, .Lca_c + 1\n\t"
      ".endr\n\t"
      // t[N..N+8) += W + the carries; the carry out, n0 and the blocks left move up with the block.
      "mov 8*(2*%c[N]+9)(%[t]), %%rdx\n\t"
      ".if %c[N] > 8\n\t"
      "add 8*(2*%c[N]+8)(%[t]), %%rdx\n\t"
      ".endif\n\t"
      "ca_radd (%c[N]/8), %%rdx, 1\n\t"
      "mov %%rdx, 8*(2*%c[N]+17)(%[t])\n\t"
      "mov 8*(2*%c[N]+10)(%[t]), %%rdx\n\t"
      "mov %%rdx, 8*(2*%c[N]+18)(%[t])\n\t"
      "mov 8*(2*%c[N]+11)(%[t]), %%rdx\n\t"
      "sub $1, %%rdx\n\t"
      "mov %%rdx, 8*(2*%c[N]+19)(%[t])\n\t"
      "lea 64(%[t]), %[t]\n\t"
      "jnz 1b\n\t"
      ".purgem ca_rrow\n\t"
      ".purgem ca_rchunk\n\t"
      ".purgem ca_radd\n\t"
      : [t] "+D"(tp)
      : [n] "S"(n), [N] "i"(N), [redc] "i"(kRedc ? 1 : 0)
      : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory");
  return tp[2 * N + 9];
}

/// REDC of t (2N limbs, overwritten) into r: by blocks when N is a multiple of 8 (t copied into a buffer with the
/// blocks' scratch), else by rows.
template <std::size_t N>
void MulxMont::redc(limb* r, limb* t, const limb* n, limb n0) {
  if constexpr (N % 8 == 0) {
    limb buf[kRedcBuffer<N>];
    for (std::size_t i = 0; i < 2 * N; ++i) buf[i] = t[i];
    const limb top = blocks<N, true>(buf, n, n0);
    final_subtract<N>(r, buf + N, top, n);
  } else {
    const limb top = redc_rows<N>(t, n, n0);
    final_subtract<N>(r, t + N, top, n);
  }
}

bool mulx_adx_available() {
  const CpuFeatures& f = cpu_features();
  return f.bmi2 && f.adx;
}

template <std::size_t N>
void MulxMont::mul(limb* r, const limb* a, const limb* b, const limb* n, limb n0) {
  static_assert(N >= 4 && N % 2 == 0);
  if constexpr (N % 8 == 0) {  // the product by blocks, then REDC by blocks (t never leaves registers for long)
    limb t[kRedcBuffer<N>];
    for (std::size_t i = 0; i < 2 * N; ++i) t[i] = 0;
    blocks<N, false>(t, a, reinterpret_cast<limb>(b));
    const limb top = blocks<N, true>(t, n, n0);
    final_subtract<N>(r, t + N, top, n);
    return;
  }
  // CIOS with t = t[0..N) in memory, t[N] in r12 and t[N + 1] (0 or 1 within an iteration) in r13; t < 2n between
  // iterations, so t[N] <= 1 there.
  limb t[N] = {};
  limb top;
  const limb* bp = b;
  const limb* const bend = b + N;
  __asm__ volatile(
      "xor %%r12d, %%r12d\n\t"
      "1:\n\t"
      "mov (%[b]), %%rdx\n\t"
      "xor %%eax, %%eax\n\t"
      CA_MULX_ROW("a", 0, 0)  // t += a b[i]; r11 = m = t[0] n0, so that t + m n = 0 mod 2^64
      "xor %%r13d, %%r13d\n\t"
      "add %%r9, %%r12\n\t"
      "adc $0, %%r13\n\t"
      "mov %%r11, %%rdx\n\t"
      "xor %%eax, %%eax\n\t"
      CA_MULX_ROW("n", 1, -1)  // t = (t + m n) / 2^64
      "add %%r9, %%r12\n\t"
      "mov %%r12, 8*%c[N]-8(%[t])\n\t"
      "adc $0, %%r13\n\t"
      "mov %%r13, %%r12\n\t"
      "lea 8(%[b]), %[b]\n\t"
      "cmp %[bend], %[b]\n\t"
      "jne 1b\n\t"
      "mov %%r12, %[top]\n\t"
      : [b] "+r"(bp), [top] "=r"(top)
      : [a] "r"(a), [n] "r"(n), [t] "r"(t), [n0] "rm"(n0), [bend] "rm"(bend), [N] "i"(N)
      : "rax", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "cc", "memory");
  final_subtract<N>(r, t, top, n);
}

namespace {

/// t[0..2N) = a^2 for N <= 32, unrolled: each cross product once (row i adds a[i] a[i+1..N) into t[2i+1 .. i+N) and
/// stores its top limb at t[i+N]), then t = 2 t + the squares a[i]^2 at limb 2i (doubling on the CF chain, the
/// squares on the OF chain).
template <std::size_t N>
void sqr_full_unrolled(limb* t, const limb* a) {
  static_assert(N <= 32, "the unrolled triangle grows as N^2: split larger squares (sqr_full)");
  // Row 0 stores its limbs (t[1..N]) instead of adding them, and every later row adds only into limbs an earlier
  // row stored, so only t[0] and t[2N-1] (which no row writes) need zeroing.
  t[0] = 0, t[2 * N - 1] = 0;
  __asm__ volatile(
      // Cross products: row i adds a[i] a[i+1..N) into t[2i+1 .. i+N) and stores its top limb at t[i+N].
      ".set .Lca_i, 0\n\t"
      ".rept %c[N] - 1\n\t"
      "mov 8*.Lca_i(%[a]), %%rdx\n\t"
      "xor %%eax, %%eax\n\t"
      "mulx 8*.Lca_i+8(%[a]), %%r10, %%r8\n\t"
      ".if .Lca_i > 0\n\t"
      "adox 16*.Lca_i+8(%[t]), %%r10\n\t"
      ".endif\n\t"
      "mov %%r10, 16*.Lca_i+8(%[t])\n\t"
      ".set .Lca_k, .Lca_i + 2\n\t"
      ".rept %c[N] - 2 - .Lca_i\n\t"
      ".if (.Lca_k - .Lca_i) %% 2 == 0\n\t"
      "mulx 8*.Lca_k(%[a]), %%r10, %%r9\n\t"
      "adcx %%r8, %%r10\n\t"
      ".else\n\t"
      "mulx 8*.Lca_k(%[a]), %%r10, %%r8\n\t"
      "adcx %%r9, %%r10\n\t"
      ".endif\n\t"
      ".if .Lca_i > 0\n\t"
      "adox 8*(.Lca_i+.Lca_k)(%[t]), %%r10\n\t"
      ".endif\n\t"
      "mov %%r10, 8*(.Lca_i+.Lca_k)(%[t])\n\t"
      ".set .Lca_k, .Lca_k + 1\n\t"
      ".endr\n\t"
      ".if (%c[N] - 1 - .Lca_i) %% 2 == 0\n\t"
      "adcx %%rax, %%r9\n\t"
      "adox %%rax, %%r9\n\t"
      "mov %%r9, 8*(.Lca_i+%c[N])(%[t])\n\t"
      ".else\n\t"
      "adcx %%rax, %%r8\n\t"
      "adox %%rax, %%r8\n\t"
      "mov %%r8, 8*(.Lca_i+%c[N])(%[t])\n\t"
      ".endif\n\t"
      ".set .Lca_i, .Lca_i + 1\n\t"
      ".endr\n\t"
      // t = 2 t + the squares a[i]^2 at limb 2i: doubling on the CF chain, the squares on the OF chain.
      "xor %%eax, %%eax\n\t"
      ".set .Lca_i, 0\n\t"
      ".rept %c[N]\n\t"
      "mov 8*.Lca_i(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%r10, %%r13\n\t"
      "mov 16*.Lca_i(%[t]), %%r8\n\t"
      "adcx %%r8, %%r8\n\t"
      "adox %%r10, %%r8\n\t"
      "mov %%r8, 16*.Lca_i(%[t])\n\t"
      "mov 16*.Lca_i+8(%[t]), %%r9\n\t"
      "adcx %%r9, %%r9\n\t"
      "adox %%r13, %%r9\n\t"
      "mov %%r9, 16*.Lca_i+8(%[t])\n\t"
      ".set .Lca_i, .Lca_i + 1\n\t"
      ".endr\n\t"
      :
      : [a] "r"(a), [t] "r"(t), [N] "i"(N)
      : "rax", "rdx", "r8", "r9", "r10", "r13", "cc", "memory");
}

/// t[0..2N) = a b, schoolbook: one row t[i..i+N) += a b[i] per limb of b, its top limb stored at t[i+N].
template <std::size_t N>
void mul_full(limb* t, const limb* a, const limb* b) {
  for (std::size_t i = 0; i < N; ++i) t[i] = 0;
  limb* tp = t;
  const limb* bp = b;
  const limb* const bend = b + N;
  __asm__ volatile(
      "1:\n\t"
      "mov (%[b]), %%rdx\n\t"
      "xor %%eax, %%eax\n\t"
      CA_MULX_ROW("a", 0, -1)
      "mov %%r9, 8*%c[N](%[t])\n\t"
      "lea 8(%[t]), %[t]\n\t"
      "lea 8(%[b]), %[b]\n\t"
      "cmp %[bend], %[b]\n\t"
      "jne 1b\n\t"
      : [t] "+r"(tp), [b] "+r"(bp)
      : [a] "r"(a), [bend] "rm"(bend), [N] "i"(N), [n0] "i"(0)  // n0: named by the row's unused MPOS branch
      : "rax", "rdx", "r8", "r9", "r10", "cc", "memory");
}

/// t[0..2N) = a^2. Above 32 limbs by halves, a = l + h B with B = 2^(32 N): a^2 = l^2 + h^2 B^2 + 2 l h B, which
/// keeps the unrolled code small at the same count of products (the triangle's cross products between the halves
/// are the full product l h).
template <std::size_t N>
void sqr_full(limb* t, const limb* a) {
  if constexpr (N <= 32) {
    sqr_full_unrolled<N>(t, a);
  } else {
    constexpr std::size_t H = N / 2;
    static_assert(N % 4 == 0);
    sqr_full<H>(t, a);              // l^2 at t[0..N)
    sqr_full<H>(t + N, a + H);      // h^2 at t[N..2N)
    limb p[N];
    mul_full<H>(p, a, a + H);       // l h
    for (int twice = 0; twice < 2; ++twice) {  // t += l h B, twice; the carry runs to the top (a^2 < 2^(128 N))
      unsigned __int128 acc = 0;
      for (std::size_t i = 0; i < N; ++i) {
        acc += static_cast<unsigned __int128>(t[H + i]) + p[i];
        t[H + i] = static_cast<limb>(acc);
        acc >>= 64;
      }
      for (std::size_t i = N + H; i < 2 * N; ++i) {
        acc += t[i];
        t[i] = static_cast<limb>(acc);
        acc >>= 64;
      }
    }
  }
}

}  // namespace

template <std::size_t N>
void MulxMont::sqr(limb* r, const limb* a, const limb* n, limb n0) {
  if constexpr (N % 8 == 0) {
    limb t[kRedcBuffer<N>];
    sqr_full<N>(t, a);
    const limb top = blocks<N, true>(t, n, n0);
    final_subtract<N>(r, t + N, top, n);
  } else {
    limb t[2 * N];
    sqr_full<N>(t, a);
    redc<N>(r, t, n, n0);
  }
}

namespace {

/// The lookup with SSE2 (x86-64 baseline): the mask of entry i is a 32-bit compare of i with index in all four lanes
/// (both below 2^31), so it is all ones or zero; no branch or address depends on index.
template <std::size_t N>
void lookup_sse2(limb* r, const limb* table, std::size_t count, limb index) {
  static_assert(N % 2 == 0);
  __m128i acc[N / 2];
  for (__m128i& a : acc) a = _mm_setzero_si128();
  const __m128i want = _mm_set1_epi32(static_cast<int>(index));
  const __m128i step = _mm_set1_epi32(1);
  __m128i i32 = _mm_setzero_si128();
  for (std::size_t i = 0; i < count; ++i) {
    const __m128i mask = _mm_cmpeq_epi32(i32, want);
    i32 = _mm_add_epi32(i32, step);
    const __m128i* e = reinterpret_cast<const __m128i*>(table + i * N);
    for (std::size_t j = 0; j < N / 2; ++j) acc[j] = _mm_or_si128(acc[j], _mm_and_si128(_mm_loadu_si128(e + j), mask));
  }
  for (std::size_t j = 0; j < N / 2; ++j) _mm_storeu_si128(reinterpret_cast<__m128i*>(r) + j, acc[j]);
}

/// The same with AVX2, four limbs per instruction: half the instructions of the SSE2 scan, which was front-end bound
/// on Zen 1 (~4 instructions per cycle).
template <std::size_t N>
__attribute__((target("avx2"))) void lookup_avx2(limb* r, const limb* table, std::size_t count, limb index) {
  static_assert(N % 4 == 0);
  __m256i acc[N / 4];
  for (__m256i& a : acc) a = _mm256_setzero_si256();
  const __m256i want = _mm256_set1_epi32(static_cast<int>(index));
  const __m256i step = _mm256_set1_epi32(1);
  __m256i i32 = _mm256_setzero_si256();
  for (std::size_t i = 0; i < count; ++i) {
    const __m256i mask = _mm256_cmpeq_epi32(i32, want);
    i32 = _mm256_add_epi32(i32, step);
    const __m256i* e = reinterpret_cast<const __m256i*>(table + i * N);
    for (std::size_t j = 0; j < N / 4; ++j)
      acc[j] = _mm256_or_si256(acc[j], _mm256_and_si256(_mm256_loadu_si256(e + j), mask));
  }
  for (std::size_t j = 0; j < N / 4; ++j) _mm256_storeu_si256(reinterpret_cast<__m256i*>(r) + j, acc[j]);
}

}  // namespace

/// AVX2 when the CPU has it (after CRYPTACCEL_CPU_MASK), else SSE2; the choice depends on the CPU only.
template <std::size_t N>
void MulxMont::lookup(limb* r, const limb* table, std::size_t count, limb index) {
  if (cpu_features().avx2)
    lookup_avx2<N>(r, table, count, index);
  else
    lookup_sse2<N>(r, table, count, index);
}

#define CRYPTACCEL_MULX_MONT_INSTANTIATE(N)                                                          \
  template void MulxMont::mul<N>(limb*, const limb*, const limb*, const limb*, limb);               \
  template void MulxMont::sqr<N>(limb*, const limb*, const limb*, limb);                         \
  template void MulxMont::redc<N>(limb*, limb*, const limb*, limb);                              \
  template void MulxMont::lookup<N>(limb*, const limb*, std::size_t, limb);
CRYPTACCEL_MULX_MONT_INSTANTIATE(4)
CRYPTACCEL_MULX_MONT_INSTANTIATE(8)
CRYPTACCEL_MULX_MONT_INSTANTIATE(12)
CRYPTACCEL_MULX_MONT_INSTANTIATE(16)
CRYPTACCEL_MULX_MONT_INSTANTIATE(24)
CRYPTACCEL_MULX_MONT_INSTANTIATE(32)
CRYPTACCEL_MULX_MONT_INSTANTIATE(48)
CRYPTACCEL_MULX_MONT_INSTANTIATE(64)
CRYPTACCEL_MULX_MONT_INSTANTIATE(128)

}  // namespace cryptaccel::rsa
