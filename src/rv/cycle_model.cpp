// The cycle model's defaults and its key=value / JSON overrides. The defaults describe an in-order,
// single-issue core with full bypassing (one instruction per cycle), the costs below being the cycles an
// instruction of each class occupies the pipeline on average; docs/isa-lab.md ("Simulator") explains each.
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "cryptaccel/rv.hpp"

namespace cryptaccel::rv {

namespace {
constexpr std::string_view kClassNames[kClassCount] = {
    "alu", "mul", "div", "load", "store", "branch", "jump", "csr", "system",
    "bitmanip", "clmul", "crypto-aes", "crypto-sha", "crypto-sm", "atomic",
    "vector-config", "vector-alu", "vector-mem", "vector-permute", "vector-crypto-aes", "vector-crypto-sha",
    "vector-crypto-sm", "vector-clmul", "vector-keccak"};
}

std::string_view class_name(InsnClass c) {
  const auto i = static_cast<std::size_t>(c);
  return i < kClassCount ? kClassNames[i] : std::string_view("?");
}

CycleModel CycleModel::defaults() {
  CycleModel m;
  auto set = [&m](InsnClass c, std::uint32_t v) { m.latency[static_cast<std::size_t>(c)] = v; };
  set(InsnClass::alu, 1);
  set(InsnClass::mul, 3);         // pipelined multiplier, result latency 3 (Rocket/CVA6-class cores: 2-3)
  set(InsnClass::div, 20);        // iterative divider, mean of an early-out radix-2 unit on 32/64-bit operands
  set(InsnClass::load, 2);        // 1 + one load-use bubble on average (L1 hit)
  set(InsnClass::store, 1);
  set(InsnClass::branch, 1);      // plus taken_branch_penalty when taken (no branch predictor)
  set(InsnClass::jump, 2);        // always redirects fetch: 1 + 1 bubble
  set(InsnClass::csr, 1);
  set(InsnClass::system, 1);
  set(InsnClass::bitmanip, 1);
  set(InsnClass::clmul, 2);       // carry-less multiplier, 2 stages
  set(InsnClass::crypto_aes, 2);  // seed 000: S-box pipelined into 2 stages
  set(InsnClass::crypto_sha, 1);  // XORs of rotations: one ALU cycle
  set(InsnClass::crypto_sm, 2);   // SM4 S-box like AES's; sm3p0/p1 could be 1 but share the class
  set(InsnClass::atomic, 3);      // read-modify-write in the L1: load latency + one cycle
  // Vector instructions: the scalar core's cost of issuing one to the vector unit. The vector unit's own
  // occupancy and latency come from VectorTiming (src/rv/vector_timing.cpp, docs/isa-lab.md "Vector timing model").
  for (InsnClass c : {InsnClass::vector_config, InsnClass::vector_alu, InsnClass::vector_mem, InsnClass::vector_permute,
                      InsnClass::vector_crypto_aes, InsnClass::vector_crypto_sha, InsnClass::vector_crypto_sm,
                      InsnClass::vector_clmul, InsnClass::vector_keccak})
    set(c, 1);
  m.taken_branch_penalty = 2;
  return m;
}

void CycleModel::set(std::string_view key, std::uint32_t value) {
  if (key == "taken-branch-penalty" || key == "taken_branch_penalty") {
    taken_branch_penalty = value;
    return;
  }
  if (key.substr(0, 7) == "vector-" || key.substr(0, 7) == "vector_") {
    std::string field(key.substr(7));
    for (auto& ch : field) ch = ch == '-' ? '_' : ch;
    const std::pair<const char*, std::uint32_t*> fields[] = {
        {"lanes", &vector.lanes},
        {"alu_latency", &vector.alu_latency},
        {"mem_latency", &vector.mem_latency},
        {"permute_latency", &vector.permute_latency},
        {"crypto_stages", &vector.crypto_stages},
        {"crypto_lanes_per_eg", &vector.crypto_lanes_per_eg},
        {"queue_depth", &vector.queue_depth},
        {"keccak_latency", &vector.keccak_latency},
        {"keccak_pi_latency", &vector.keccak_pi_latency},
        {"blocking", &vector.blocking}};
    for (const auto& [name, ptr] : fields)
      if (field == name) {
        if (value == 0 && field == "crypto_lanes_per_eg")
          throw std::invalid_argument("cycle model: '" + std::string(key) + "' must be at least 1");
        if (value > 1 && field == "blocking")
          throw std::invalid_argument("cycle model: '" + std::string(key) + "' must be 0 or 1");
        *ptr = value;
        return;
      }
  }
  for (std::size_t i = 0; i < kClassCount; ++i) {
    std::string alt(kClassNames[i]);
    for (auto& ch : alt) ch = ch == '-' ? '_' : ch;
    if (key == kClassNames[i] || key == alt) {
      latency[i] = value;
      return;
    }
  }
  throw std::invalid_argument("cycle model: unknown key '" + std::string(key) + "'");
}

void CycleModel::parse(std::string_view text) {
  // Flatten both syntaxes to "key value" tokens: JSON punctuation and '=' / ':' become spaces.
  std::string flat;
  bool comment = false;
  for (char ch : text) {
    if (ch == '#') comment = true;
    if (ch == '\n') comment = false;
    if (comment) continue;
    flat += (ch == '{' || ch == '}' || ch == '"' || ch == ',' || ch == '=' || ch == ':') ? ' ' : ch;
  }
  std::istringstream in(flat);
  std::string key, value;
  while (in >> key) {
    if (!(in >> value)) throw std::invalid_argument("cycle model: no value for '" + key + "'");
    std::size_t used = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size()) throw std::invalid_argument("cycle model: '" + value + "' is not a number (key '" + key + "')");
    set(key, static_cast<std::uint32_t>(v));
  }
}

void CycleModel::load_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read cycle model file " + path);
  std::ostringstream s;
  s << f.rdbuf();
  parse(s.str());
}

}  // namespace cryptaccel::rv
