// A extension semantics (unprivileged spec ch. 8) on a single hart: lr takes a reservation, sc succeeds (writes,
// rd = 0) only with a reservation on the same address and always clears it (rd = 1 on failure); AMOs load the old
// value into rd and store op(old, rs2). Word forms sign-extend the loaded value on RV64. aq/rl need nothing here.
#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

namespace {
template <class X, class T>
std::uint64_t lr(Core& c, const Insn& d, std::uint64_t pc) {
  const X addr = RS1;
  std::make_signed_t<T> v;
  if (!c.load(addr, v)) return c.load_fault(pc, d, addr, sizeof(T));
  c.reservation = addr;
  c.reserved = true;
  SET_RD(static_cast<X>(v));
  return NEXT;
}

template <class X, class T>
std::uint64_t sc(Core& c, const Insn& d, std::uint64_t pc) {
  const X addr = RS1;
  const bool ok = c.reserved && c.reservation == addr;
  c.reserved = false;
  if (ok && !c.store(addr, static_cast<T>(RS2))) return c.store_fault(pc, d, addr, sizeof(T));
  SET_RD(ok ? 0 : 1);
  return NEXT;
}

/// AMO: old = mem[rs1]; mem[rs1] = f(old, rs2); rd = old (sign-extended from T).
template <class X, class T, class F>
std::uint64_t amo(Core& c, const Insn& d, std::uint64_t pc, F f) {
  using S = std::make_signed_t<T>;
  const X addr = RS1;
  S old;
  if (!c.load(addr, old)) return c.store_fault(pc, d, addr, sizeof(T));  // AMOs report store/AMO faults
  const T src = static_cast<T>(RS2);
  if (!c.store(addr, static_cast<T>(f(static_cast<T>(old), src)))) return c.store_fault(pc, d, addr, sizeof(T));
  SET_RD(static_cast<X>(old));
  return NEXT;
}
}  // namespace

#define RV_AMO(name, TYPE, expr)                                                   \
  RV_EXEC(name) {                                                                 \
    using T = TYPE;                                                               \
    using S [[maybe_unused]] = std::make_signed_t<T>;                             \
    return amo<X, T>(c, d, pc, [](T a, T b) -> T { (void)a; return static_cast<T>(expr); }); \
  }
#define RV_AMO_BOTH(base, expr) RV_AMO(base##_w, std::uint32_t, expr) RV_AMO(base##_d, std::uint64_t, expr)

RV_EXEC(lr_w) { return lr<X, std::uint32_t>(c, d, pc); }
RV_EXEC(lr_d) { return lr<X, std::uint64_t>(c, d, pc); }
RV_EXEC(sc_w) { return sc<X, std::uint32_t>(c, d, pc); }
RV_EXEC(sc_d) { return sc<X, std::uint64_t>(c, d, pc); }
RV_AMO_BOTH(amoswap, b)
RV_AMO_BOTH(amoadd, a + b)
RV_AMO_BOTH(amoxor, a ^ b)
RV_AMO_BOTH(amoand, a & b)
RV_AMO_BOTH(amoor, a | b)
RV_AMO_BOTH(amomin, static_cast<S>(a) < static_cast<S>(b) ? a : b)
RV_AMO_BOTH(amomax, static_cast<S>(a) > static_cast<S>(b) ? a : b)
RV_AMO_BOTH(amominu, a < b ? a : b)
RV_AMO_BOTH(amomaxu, a > b ? a : b)

RV_INSTANTIATE(lr_w) RV_INSTANTIATE(lr_d) RV_INSTANTIATE(sc_w) RV_INSTANTIATE(sc_d)
RV_INSTANTIATE(amoswap_w) RV_INSTANTIATE(amoswap_d) RV_INSTANTIATE(amoadd_w) RV_INSTANTIATE(amoadd_d)
RV_INSTANTIATE(amoxor_w) RV_INSTANTIATE(amoxor_d) RV_INSTANTIATE(amoand_w) RV_INSTANTIATE(amoand_d)
RV_INSTANTIATE(amoor_w) RV_INSTANTIATE(amoor_d) RV_INSTANTIATE(amomin_w) RV_INSTANTIATE(amomin_d)
RV_INSTANTIATE(amomax_w) RV_INSTANTIATE(amomax_d) RV_INSTANTIATE(amominu_w) RV_INSTANTIATE(amominu_d)
RV_INSTANTIATE(amomaxu_w) RV_INSTANTIATE(amomaxu_d)

}  // namespace cryptaccel::rv
