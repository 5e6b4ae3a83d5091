// Zknh semantics (scalar crypto spec v1.0.1 §2.7-2.9). SHA-256 and RV64 SHA-512 use the library's σ/Σ functions
// (algo/sha256.hpp, algo/sha512.hpp); the RV32 SHA-512 halves are the spec's shift formulas (the tests check them
// against the 64-bit library functions).
#include "algo/sha256.hpp"
#include "algo/sha512.hpp"
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

#define LO32 static_cast<std::uint32_t>
RV_EXEC(sha256sig0) { SET_RD(SEXT32(algo::sha256_ssig0(LO32(RS1)))); return NEXT; }
RV_EXEC(sha256sig1) { SET_RD(SEXT32(algo::sha256_ssig1(LO32(RS1)))); return NEXT; }
RV_EXEC(sha256sum0) { SET_RD(SEXT32(algo::sha256_bsig0(LO32(RS1)))); return NEXT; }
RV_EXEC(sha256sum1) { SET_RD(SEXT32(algo::sha256_bsig1(LO32(RS1)))); return NEXT; }

RV_EXEC(sha512sig0) { SET_RD(algo::sha512_ssig0(c.x[d.rs1])); return NEXT; }
RV_EXEC(sha512sig1) { SET_RD(algo::sha512_ssig1(c.x[d.rs1])); return NEXT; }
RV_EXEC(sha512sum0) { SET_RD(algo::sha512_bsig0(c.x[d.rs1])); return NEXT; }
RV_EXEC(sha512sum1) { SET_RD(algo::sha512_bsig1(c.x[d.rs1])); return NEXT; }

// RV32: each 64-bit function split into 32-bit halves; rs1/rs2 = (high, low) for *h, (low, high) for *l,
// and (this half, other half) for the rotate-only sum*r.
#define A LO32(RS1)
#define B LO32(RS2)
RV_EXEC(sha512sig0h) { SET_RD(SEXT32((A >> 1) ^ (A >> 7) ^ (A >> 8) ^ (B << 31) ^ (B << 24))); return NEXT; }
RV_EXEC(sha512sig0l) { SET_RD(SEXT32((A >> 1) ^ (A >> 7) ^ (A >> 8) ^ (B << 31) ^ (B << 25) ^ (B << 24))); return NEXT; }
RV_EXEC(sha512sig1h) { SET_RD(SEXT32((A << 3) ^ (A >> 6) ^ (A >> 19) ^ (B >> 29) ^ (B << 13))); return NEXT; }
RV_EXEC(sha512sig1l) { SET_RD(SEXT32((A << 3) ^ (A >> 6) ^ (A >> 19) ^ (B >> 29) ^ (B << 26) ^ (B << 13))); return NEXT; }
RV_EXEC(sha512sum0r) { SET_RD(SEXT32((A << 25) ^ (A << 30) ^ (A >> 28) ^ (B >> 7) ^ (B >> 2) ^ (B << 4))); return NEXT; }
RV_EXEC(sha512sum1r) { SET_RD(SEXT32((A << 23) ^ (A >> 14) ^ (A >> 18) ^ (B >> 9) ^ (B << 18) ^ (B << 14))); return NEXT; }

RV_INSTANTIATE(sha256sig0) RV_INSTANTIATE(sha256sig1) RV_INSTANTIATE(sha256sum0) RV_INSTANTIATE(sha256sum1)
RV_INSTANTIATE(sha512sig0) RV_INSTANTIATE(sha512sig1) RV_INSTANTIATE(sha512sum0) RV_INSTANTIATE(sha512sum1)
RV_INSTANTIATE(sha512sig0h) RV_INSTANTIATE(sha512sig0l) RV_INSTANTIATE(sha512sig1h) RV_INSTANTIATE(sha512sig1l)
RV_INSTANTIATE(sha512sum0r) RV_INSTANTIATE(sha512sum1r)

}  // namespace cryptaccel::rv
