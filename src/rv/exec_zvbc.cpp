// Zvbc semantics (vector crypto spec v1.0, "Zvbc"): vclmul / vclmulh .vv/.vx, SEW = 64 only (other SEWs are
// reserved), maskable. The carry-less product is rv/clmul.hpp's, as for the scalar clmul.
#include "rv/clmul.hpp"
#include "rv/exec_v_int.hpp"

namespace cryptaccel::rv {

namespace {
using vec::Operand;
struct Clmul { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { std::uint64_t h, l; clmul_wide(a, b, h, l); return l; } };
struct Clmulh { std::uint64_t operator()(std::uint64_t a, std::uint64_t b, unsigned) const { std::uint64_t h, l; clmul_wide(a, b, h, l); return h; } };
constexpr auto kClmulUnit = Core::VUnit::crypto;
}  // namespace

RV_EXEC(vclmul_vv) { return vec::binop<X>(c, d, pc, Operand::vv, Clmul{}, kClmulUnit, 64, 64); }
RV_EXEC(vclmul_vx) { return vec::binop<X>(c, d, pc, Operand::vx, Clmul{}, kClmulUnit, 64, 64); }
RV_EXEC(vclmulh_vv) { return vec::binop<X>(c, d, pc, Operand::vv, Clmulh{}, kClmulUnit, 64, 64); }
RV_EXEC(vclmulh_vx) { return vec::binop<X>(c, d, pc, Operand::vx, Clmulh{}, kClmulUnit, 64, 64); }
RV_INSTANTIATE(vclmul_vv) RV_INSTANTIATE(vclmul_vx) RV_INSTANTIATE(vclmulh_vv) RV_INSTANTIATE(vclmulh_vx)

}  // namespace cryptaccel::rv
