/* Build-time variant selection shared by every kernel (one of -DVARIANT_SOFTWARE_NAIVE, -DVARIANT_SOFTWARE_TABLE,
 * -DVARIANT_HYBRID, -DVARIANT_NATIVE, -DVARIANT_REFERENCE, -DVARIANT_ZVK), and the bit operations whose
 * implementation is what the variants differ in:
 *   software-*  rotates and byte swaps from shifts and ORs; compiled for rv32imc/rv64imc, so the compiler cannot
 *               substitute rotate or crypto instructions either.
 *   hybrid      built for Zbkb: rotates (ror/rori/roriw) and byte swaps (rev8); no Zkn instructions.
 *   native      hybrid plus the Zkne/Zknd/Zknh instructions (Zkn includes Zbkb, so a native core has the rotates).
 *   reference   portable constant-time C for rv32imc/rv64imc (seed 001's role of OpenSSL's C code): no table indexed
 *               by secret data, no secret-dependent branch; rotates from shifts as in software-*.
 *   zvk         RVV 1.0 + the vector crypto extensions (Zvkned, Zvknhb, Zvkg, Zvksed, Zvksh, Zvkb) through the
 *               <riscv_vector.h> intrinsics, RV64 (rv64gcv); scalar code as in software-* (no Zbb/Zbkb).
 *   rvv         standard RVV 1.0 only (rv64gcv: no vector crypto, no custom instruction, no Zbb/Zbkb) through the
 *               <riscv_vector.h> intrinsics (the Keccak kernels' "vector extensions" variant).
 *   xkeccak*    Zve64x / Zve32x (+ Zvkb for the ablations) and seed 004's custom Keccak instructions, written as
 *               .insn in hand-written asm (keccak/keccak_x64.h, keccak_x32.h); nothing from <riscv_vector.h>. */
#ifndef CA_RV_VARIANT_H
#define CA_RV_VARIANT_H

#include <stdint.h>

#if (defined(VARIANT_SOFTWARE_NAIVE) + defined(VARIANT_SOFTWARE_TABLE) + defined(VARIANT_HYBRID) + \
     defined(VARIANT_NATIVE) + defined(VARIANT_REFERENCE) + defined(VARIANT_ZVK) + defined(VARIANT_RVV) + \
     defined(VARIANT_XKECCAK64_LMUL1) + defined(VARIANT_XKECCAK64_LMUL8) + defined(VARIANT_XKECCAK32_LMUL8)) != 1
#error "define exactly one of VARIANT_SOFTWARE_NAIVE, VARIANT_SOFTWARE_TABLE, VARIANT_HYBRID, VARIANT_NATIVE, VARIANT_REFERENCE, VARIANT_ZVK, VARIANT_RVV, VARIANT_XKECCAK*"
#endif

#if defined(VARIANT_HYBRID) || defined(VARIANT_NATIVE)
#define CA_HAVE_BITMANIP 1
#include <riscv_bitmanip.h>
#if !defined(__riscv_zbb) && !defined(__riscv_zbkb)
#error "hybrid and native kernels need Zbb or Zbkb in -march"
#endif
#else
#define CA_HAVE_BITMANIP 0
#if defined(__riscv_zbb) || defined(__riscv_zbkb) || defined(__riscv_zkne) || defined(__riscv_zknd) || \
    defined(__riscv_zknh)
#error "software kernels must be built without Zbb/Zbkb/Zkn in -march"
#endif
#endif

#if defined(VARIANT_NATIVE)
#include <riscv_crypto.h>
#endif

#if defined(VARIANT_ZVK)
#if !defined(__riscv_vector) || !defined(__riscv_zvkned) || !defined(__riscv_zvknhb) || !defined(__riscv_zvkg) || \
    !defined(__riscv_zvksed) || !defined(__riscv_zvksh) || !defined(__riscv_zvkb)
#error "zvk kernels need V, Zvkned, Zvknhb, Zvkg, Zvksed, Zvksh and Zvkb in -march"
#endif
#include <riscv_vector.h>
#elif defined(VARIANT_RVV)
#if !defined(__riscv_vector) || defined(__riscv_zvkned) || defined(__riscv_zvknhb) || defined(__riscv_zvkg) || \
    defined(__riscv_zvksed) || defined(__riscv_zvksh) || defined(__riscv_zvkb) || defined(__riscv_zvbb)
#error "rvv kernels need V and no vector crypto extension in -march"
#endif
#include <riscv_vector.h>
#elif defined(VARIANT_XKECCAK64_LMUL1) || defined(VARIANT_XKECCAK64_LMUL8) || defined(VARIANT_XKECCAK32_LMUL8)
/* seed 004's custom Keccak instructions: Zve64x/Zve32x (+ Zvkb for the ablations) and hand-written asm only
 * (rv/kernels/keccak/keccak_x64.h, keccak_x32.h); no <riscv_vector.h>. */
#if !defined(__riscv_vector)
#error "xkeccak kernels need Zve64x or Zve32x in -march"
#endif
#elif defined(__riscv_vector)
#error "only the zvk and rvv kernels are built with V"
#endif

/* Word access to buffers the kernels align themselves (may_alias: the same bytes are also read as uint8_t). */
typedef uint32_t __attribute__((may_alias, aligned(4))) ca_u32a;
typedef uint64_t __attribute__((may_alias, aligned(8))) ca_u64a;
typedef uintptr_t __attribute__((may_alias, aligned(sizeof(uintptr_t)))) ca_uxa;

/** Rotate right of a 32-bit word, 0 < n < 32 (a compile-time constant). */
static inline uint32_t ca_ror32(uint32_t x, unsigned n) {
#if CA_HAVE_BITMANIP
  return __riscv_ror_32(x, n);
#else
  return (x >> n) | (x << (32 - n));
#endif
}

/** Rotate right of a 64-bit word, 0 < n < 64 (RV32 has no 64-bit rotate: shifts on both XLENs there). */
static inline uint64_t ca_ror64(uint64_t x, unsigned n) {
#if CA_HAVE_BITMANIP && __riscv_xlen == 64
  return __riscv_ror_64(x, n);
#else
  return (x >> n) | (x << (64 - n));
#endif
}

/** Byte swap of a 32-bit word (big-endian loads in SHA, the CTR counter). */
static inline uint32_t ca_bswap32(uint32_t x) {
#if CA_HAVE_BITMANIP
  return __riscv_rev8_32(x);
#else
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x & 0xff00u) << 8) | (x << 24);
#endif
}

/** Byte swap of a 64-bit word. */
static inline uint64_t ca_bswap64(uint64_t x) {
#if CA_HAVE_BITMANIP && __riscv_xlen == 64
  return __riscv_rev8_64(x);
#else
  return (uint64_t)ca_bswap32((uint32_t)x) << 32 | ca_bswap32((uint32_t)(x >> 32));
#endif
}

#endif
