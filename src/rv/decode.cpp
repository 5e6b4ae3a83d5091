// Decoding, generated from isa/encodings.def: the op table (mnemonic, MATCH/MASK, extensions, XLEN, class,
// format), the semantics tables for RV32 and RV64, candidate lists per major opcode (most specific mask first),
// field extraction, and the messages for words that do not decode.
#include <algorithm>
#include <bit>
#include <sstream>

#include "rv/exec_common.hpp"

namespace cryptaccel::rv {

const OpInfo kOpInfo[kOpCount] = {
#define RV_INSN(id, mnem, match, mask, exts, xlen, cls, fmt) \
  {mnem, match, mask, exts, xlen, InsnClass::cls, Format::fmt},
#include "rv/isa/encodings.def"
#undef RV_INSN
    {"(decode)", 0, 0, 0, 0, InsnClass::system, Format::NONE},
    {"(illegal)", 0, 0, 0, 0, InsnClass::system, Format::NONE},
};

namespace {
template <class X>
constexpr Exec kExec[kOpCount] = {
#define RV_INSN(id, ...) &exec_##id<X>,
#include "rv/isa/encodings.def"
#undef RV_INSN
    &exec_decode_stub,
    &exec_illegal,
};

/// Per major opcode (bits 6..0), every op of the list, most specific mask first.
const std::array<std::vector<std::uint16_t>, 128>& candidates() {
  static const auto table = [] {
    std::array<std::vector<std::uint16_t>, 128> t;
    for (std::size_t op = 0; op < static_cast<std::size_t>(Op::decode_stub); ++op)
      t[kOpInfo[op].match & 0x7F].push_back(static_cast<std::uint16_t>(op));
    for (auto& v : t)
      std::stable_sort(v.begin(), v.end(), [](std::uint16_t a, std::uint16_t b) {
        return std::popcount(kOpInfo[a].mask) > std::popcount(kOpInfo[b].mask);
      });
    return t;
  }();
  return table;
}

bool enabled(const OpInfo& info, unsigned xlen, std::uint64_t exts) {
  return (info.xlen == 0 || info.xlen == xlen) && (info.extensions & exts) != 0;
}

/// The op a 32-bit word decodes to on this machine, or -1.
int find_op(std::uint32_t w, unsigned xlen, std::uint64_t exts) {
  for (std::uint16_t op : candidates()[w & 0x7F]) {
    const OpInfo& info = kOpInfo[op];
    if ((w & info.mask) == info.match && enabled(info, xlen, exts)) {
      if (static_cast<Op>(op) == Op::aes64ks1i && ((w >> 20) & 0xF) > 10) return -1;  // reserved rnum
      return op;
    }
  }
  return -1;
}

std::int64_t immediate(Format f, std::uint32_t w) {
  // Signed high part (bit 31 sign-extends) combined with unsigned fields, all in 64-bit signed arithmetic.
  const std::int64_t top = static_cast<std::int32_t>(w) >> 31;  // 0 or -1
  const auto field = [w](unsigned hi, unsigned lo) { return static_cast<std::int64_t>((w >> lo) & ((1u << (hi - lo + 1)) - 1)); };
  switch (f) {
    case Format::I: return top * 2048 | field(30, 20);
    case Format::S: return top * 2048 | field(30, 25) << 5 | field(11, 7);
    case Format::B: return top * 4096 | field(7, 7) << 11 | field(30, 25) << 5 | field(11, 8) << 1;
    case Format::U: return static_cast<std::int32_t>(w & 0xFFFFF000u);
    case Format::J: return top * (1 << 20) | field(19, 12) << 12 | field(20, 20) << 11 | field(30, 21) << 1;
    case Format::SH: return field(25, 20);
    case Format::CSR: return field(31, 20);
    case Format::BS: return field(31, 30);
    case Format::RNUM: return field(23, 20);
    default: return 0;
  }
}

std::string ext_list(std::uint64_t exts) {
  std::string s;
  const auto names = extension_names();
  for (unsigned b = 0; b < names.size(); ++b)
    if ((exts >> b) & 1) s += (s.empty() ? "" : " or ") + std::string(names[b]);
  return s;
}

Insn stub_insn() { return Insn{&exec_decode_stub, 0, 0, static_cast<std::uint16_t>(Op::decode_stub), 0, 0, 0, 0}; }
}  // namespace

std::string hex(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

Insn* Core::code_page(std::uint64_t page) {
  auto& p = pages[page];
  if (!p) {
    p.reset(new Insn[kSlotsPerPage]);
    std::fill_n(p.get(), kSlotsPerPage, stub_insn());
  }
  return p.get();
}

void Core::invalidate_code(std::uint64_t off, std::uint64_t n) {
  // A 4-byte instruction starting 2 bytes before `off` also covers it.
  const std::uint64_t first = (off >= 2 ? off - 2 : 0) & ~std::uint64_t{1};
  for (std::uint64_t h = first; h < off + n && h < ram_size; h += 2) {
    auto& p = pages[h >> kPageShift];
    if (p) p[(h & (kPageSize - 1)) >> 1] = stub_insn();
  }
}

void Core::decode_into(Insn& slot, std::uint64_t at) {
  const std::uint64_t off = at - ram_base;
  Insn d{&exec_illegal, 0, 0, static_cast<std::uint16_t>(Op::illegal), 0, 0, 0, 2};
  std::uint16_t half = 0;
  std::memcpy(&half, ram + off, 2);  // the run loop checked off < ram_size; pc is even
  page_flags[off >> kPageShift] |= kPageCode;
  std::uint32_t w;
  if ((half & 3) != 3) {
    d.raw = half;
    if (!(isa.extensions & EXT(c))) { slot = d; return; }
    w = expand_compressed(half, isa.xlen);
    if (w == 0) { slot = d; return; }
  } else {
    d.len = 4;
    if (off + 4 > ram_size) { d.raw = half; slot = d; return; }
    std::memcpy(&w, ram + off, 4);
    d.raw = w;
    page_flags[(off + 3) >> kPageShift] |= kPageCode;
  }
  const int op = find_op(w, isa.xlen, isa.extensions);
  if (op < 0) { slot = d; return; }
  const OpInfo& info = kOpInfo[op];
  d.op = static_cast<std::uint16_t>(op);
  d.fn = isa.xlen == 32 ? kExec<std::uint32_t>[op] : kExec<std::uint64_t>[op];
  d.imm = immediate(info.format, w);
  const unsigned rd = (w >> 7) & 31;
  d.rd = static_cast<std::uint8_t>(rd == 0 ? 32 : rd);
  d.rs1 = static_cast<std::uint8_t>((w >> 15) & 31);
  d.rs2 = static_cast<std::uint8_t>((w >> 20) & 31);
  slot = d;
}

std::string Core::illegal_reason(const Insn& d, StopReason& why) const {
  why = StopReason::illegal_instruction;
  std::uint32_t w = d.raw;
  std::string prefix;
  if (d.len == 2 || (d.raw & 3) != 3) {
    if ((d.raw & 3) == 3) return "truncated instruction at the end of RAM";
    if (!(isa.extensions & EXT(c))) {
      why = StopReason::disabled_extension;
      return "compressed instruction requires extension c";
    }
    w = expand_compressed(static_cast<std::uint16_t>(d.raw), isa.xlen);
    if (w == 0) return "illegal or reserved compressed instruction";
    prefix = "compressed, expands to " + hex(w) + ": ";
  }
  // Known encoding that this machine does not enable?
  for (std::uint16_t op : candidates()[w & 0x7F]) {
    const OpInfo& info = kOpInfo[op];
    if ((w & info.mask) != info.match) continue;
    if (static_cast<Op>(op) == Op::aes64ks1i && enabled(info, isa.xlen, isa.extensions))
      return prefix + "aes64ks1i with reserved rnum " + std::to_string((w >> 20) & 0xF) + " (0..10 are defined)";
    if (info.xlen != 0 && info.xlen != isa.xlen) {
      if (find_op(w, info.xlen, ~std::uint64_t{0}) == op) {
        // An XLEN-specific form of an instruction this XLEN also has (slli with shamt[5] on RV32): reserved.
        for (std::size_t other = 0; other < static_cast<std::size_t>(Op::decode_stub); ++other)
          if (kOpInfo[other].xlen == isa.xlen && std::string_view(kOpInfo[other].mnemonic) == info.mnemonic)
            return prefix + "reserved encoding of " + info.mnemonic + " on RV" + std::to_string(isa.xlen);
        why = StopReason::disabled_extension;
        return prefix + "instruction " + info.mnemonic + " is RV" + std::to_string(info.xlen) + "-only (this machine is RV" +
               std::to_string(isa.xlen) + ")";
      }
      continue;
    }
    if ((info.extensions & isa.extensions) == 0) {
      why = StopReason::disabled_extension;
      return prefix + "instruction " + info.mnemonic + " requires extension " + ext_list(info.extensions) +
             " (not in the ISA string)";
    }
  }
  return prefix + "unknown instruction";
}

std::uint64_t exec_decode_stub(Core& c, const Insn& d, std::uint64_t pc) {
  Insn& slot = const_cast<Insn&>(d);  // slots are the mutable decode cache
  c.decode_into(slot, pc);
  const std::uint16_t op = slot.op;
  const std::uint64_t next = slot.fn(c, slot, pc);
  // The run loop counts this instruction under Op::decode_stub; move the count to the real op.
  ++c.op_count[op];
  --c.op_count[static_cast<std::size_t>(Op::decode_stub)];
  return next;
}

std::uint64_t exec_illegal(Core& c, const Insn& d, std::uint64_t pc) {
  StopReason why;
  const std::string what = c.illegal_reason(d, why);
  return c.fault(pc, d, why, what, kCauseIllegal, d.raw);
}

std::string decode_mnemonic(std::uint32_t word, std::string_view isa_string) {
  const IsaInfo isa = parse_isa(isa_string);
  std::uint32_t w = word;
  if ((word & 3) != 3) {
    if (!(isa.extensions & EXT(c))) return {};
    w = expand_compressed(static_cast<std::uint16_t>(word), isa.xlen);
    if (w == 0) return {};
  }
  const int op = find_op(w, isa.xlen, isa.extensions);
  return op < 0 ? std::string() : std::string(kOpInfo[op].mnemonic);
}

}  // namespace cryptaccel::rv
