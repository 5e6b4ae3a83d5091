// Shared vocabulary of the semantics files (exec_*.cpp): every instruction is
//   template <class X> uint64_t exec_<id>(Core& c, const Insn& d, uint64_t pc)
// with X = uint32_t on RV32 and uint64_t on RV64. Registers are stored zero-extended in 64 bits and read back as X,
// so one definition serves both XLENs; each family file instantiates its definitions for both.
#pragma once
#include <bit>
#include <cstdint>
#include <type_traits>

#include "rv/core.hpp"

namespace cryptaccel::rv {

#define RV_INSN(id, ...) template <class X> std::uint64_t exec_##id(Core& c, const Insn& d, std::uint64_t pc);
#include "rv/isa/encodings.def"
#undef RV_INSN

#define RV_EXEC(name) \
  template <class X>  \
  std::uint64_t exec_##name([[maybe_unused]] Core& c, [[maybe_unused]] const Insn& d, [[maybe_unused]] std::uint64_t pc)
#define RV_INSTANTIATE(name)                                                               \
  template std::uint64_t exec_##name<std::uint32_t>(Core&, const Insn&, std::uint64_t); \
  template std::uint64_t exec_##name<std::uint64_t>(Core&, const Insn&, std::uint64_t);

/// XLEN in bits.
#define XLEN (sizeof(X) * 8)
/// Source registers and immediate as XLEN-bit unsigned values.
#define RS1 static_cast<X>(c.x[d.rs1])
#define RS2 static_cast<X>(c.x[d.rs2])
#define IMM static_cast<X>(d.imm)
/// Signed view of an XLEN value.
#define SGN(v) static_cast<std::make_signed_t<X>>(v)
/// Writes rd (truncated to XLEN, stored zero-extended).
#define SET_RD(v) (c.x[d.rd] = static_cast<std::uint64_t>(static_cast<X>(v)))
/// Sign-extends a 32-bit result to XLEN (the *W forms and the 32-bit crypto results on RV64).
#define SEXT32(v) static_cast<X>(static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))))
/// The pc of the next instruction.
#define NEXT (pc + d.len)

}  // namespace cryptaccel::rv
