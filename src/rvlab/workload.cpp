#include "cryptaccel/rvlab/workload.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "cryptaccel/hash.hpp"
#include "cryptaccel/rvlab/reference.hpp"
#include "json.hpp"

namespace cryptaccel::rvlab {
namespace {

bytes random_bytes(std::size_t n, std::mt19937_64& rng) {
  bytes out(n);
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t v = rng();
    for (std::size_t j = i; j < std::min(n, i + 8); ++j, v >>= 8) out[j] = static_cast<std::uint8_t>(v);
  }
  return out;
}

void put_u32le(bytes& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

/// The kernel's default size from its workloads: seed000 first, then riscv-crypto; `key` is "blocks" or "length".
std::optional<std::uint64_t> workload_default(const KernelSpec& k, const char* key) {
  for (const char* w : {"seed000", "riscv-crypto"}) {
    if (const NamedWorkload* found = k.workload(w); found != nullptr && found->size(key)) return found->size(key);
  }
  return std::nullopt;
}

void check_payload(std::uint64_t n) {
  if (n > kMaxPayloadBytes) {
    throw std::invalid_argument("at most " + std::to_string(kMaxPayloadBytes >> 20) +
                                " MiB of data per run (the kernels' RAM is 16 MiB), got " + std::to_string(n) +
                                " bytes");
  }
}

KernelInput cipher_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  static constexpr const char* kModes[] = {"ecb", "cbc", "ctr"};  // the layout's mode byte: 0, 1, 2
  const auto* found = std::find(std::begin(kModes), std::end(kModes), req.mode);
  if (found == std::end(kModes)) throw std::invalid_argument("--mode must be ecb, cbc or ctr, got '" + req.mode + "'");
  const std::uint8_t mode_byte = static_cast<std::uint8_t>(found - std::begin(kModes));

  std::uint64_t blocks = workload_default(k, "blocks").value_or(64);
  if (req.bytes) {
    if (*req.bytes % 16 != 0) {
      throw std::invalid_argument("--bytes must be a multiple of 16 for " + k.kernel + " (whole blocks), got " +
                                  std::to_string(*req.bytes));
    }
    blocks = *req.bytes / 16;
  } else if (req.blocks) {
    blocks = *req.blocks;
  }
  if (blocks == 0) throw std::invalid_argument(k.kernel + " needs at least one block");
  check_payload(blocks * 16);

  KernelInput in;
  const bytes key = random_bytes(k.key_bytes, rng);
  const bytes iv = random_bytes(16, rng);
  const bytes data = random_bytes(static_cast<std::size_t>(blocks * 16), rng);
  in.stdin_bytes = {mode_byte, static_cast<std::uint8_t>(req.decrypt ? 1 : 0), 0, 0};
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(blocks));
  in.stdin_bytes.insert(in.stdin_bytes.end(), key.begin(), key.end());
  in.stdin_bytes.insert(in.stdin_bytes.end(), iv.begin(), iv.end());
  in.stdin_bytes.insert(in.stdin_bytes.end(), data.begin(), data.end());
  in.expected = reference_cipher(k.algorithm, req.mode, req.decrypt, key, iv, data);
  in.payload_bytes = blocks * 16;
  const char* dir = req.decrypt ? "decrypt" : "encrypt";
  in.description = upper(req.mode) + " " + dir + ", " + std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") +
                   " (" + std::to_string(blocks * 16) + " bytes)";
  in.fields_json = Json({{"mode", req.mode}, {"direction", dir}, {"blocks", blocks}, {"bytes", blocks * 16}}).dump();
  return in;
}

/// A hash kernel's message length: --bytes, or --blocks of the algorithm's block (rate), else `workload_length`.
std::uint64_t message_length(const KernelSpec& k, const WorkloadRequest& req, std::uint64_t workload_length) {
  if (req.bytes) return *req.bytes;
  if (!req.blocks) return workload_length;
  const std::uint64_t block = hash_info(parse_hash(k.algorithm)).block_size;
  if (*req.blocks > kMaxPayloadBytes / block) check_payload(kMaxPayloadBytes + 1);
  return *req.blocks * block;
}

KernelInput hash_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  const std::uint64_t length = message_length(k, req, workload_default(k, "length").value_or(1024));
  check_payload(length);
  KernelInput in;
  const bytes message = random_bytes(static_cast<std::size_t>(length), rng);
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(length));
  in.stdin_bytes.insert(in.stdin_bytes.end(), message.begin(), message.end());
  in.expected = reference_hash(k.algorithm, message);
  in.payload_bytes = length;
  in.description = std::to_string(length) + "-byte message";
  in.fields_json = Json({{"bytes", length}}).dump();
  return in;
}

/// aes-gcm layout: u32 aad_length, u32 length, key, iv[12], aad, plaintext -> ciphertext || tag. --bytes/--blocks set
/// the plaintext length; the AAD length comes from the kernel's workload (16 bytes by default).
KernelInput gcm_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  std::uint64_t length = 4096, aad_length = 16;
  for (const NamedWorkload& w : k.workloads) {
    length = w.size("length").value_or(length);
    aad_length = w.size("aad_length").value_or(aad_length);
  }
  if (req.bytes) length = *req.bytes;
  if (req.blocks) length = *req.blocks * 16;
  check_payload(length + aad_length);
  KernelInput in;
  const bytes key = random_bytes(k.key_bytes, rng);
  const bytes iv = random_bytes(12, rng);
  const bytes aad = random_bytes(static_cast<std::size_t>(aad_length), rng);
  const bytes plaintext = random_bytes(static_cast<std::size_t>(length), rng);
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(aad_length));
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(length));
  for (const bytes* part : {&key, &iv, &aad, &plaintext}) in.stdin_bytes.insert(in.stdin_bytes.end(), part->begin(), part->end());
  in.expected = reference_gcm(k.algorithm, key, iv, aad, plaintext);
  in.payload_bytes = length;
  in.description = "GCM encrypt, " + std::to_string(length) + " bytes + " + std::to_string(aad_length) + " bytes AAD";
  in.fields_json = Json({{"bytes", length}, {"aad_bytes", aad_length}}).dump();
  return in;
}

/// A size from the kernel's workloads (any of them, the last one naming `key` wins), else `fallback`.
std::uint64_t any_workload(const KernelSpec& k, const char* key, std::uint64_t fallback) {
  for (const NamedWorkload& w : k.workloads) fallback = w.size(key).value_or(fallback);
  return fallback;
}

/// keccak-states layout: u32 nstates, u32 rounds, nstates random states -> the states after Keccak-p[1600, rounds].
/// --states / --rounds, else the kernel's workload (6 states, 24 rounds).
KernelInput keccak_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  const std::uint64_t states = req.states.value_or(any_workload(k, "states", 6));
  const std::uint64_t rounds = req.rounds.value_or(any_workload(k, "rounds", 24));
  if (states == 0) throw std::invalid_argument("--states: at least one state");
  if (states > kMaxPayloadBytes / 200) check_payload(kMaxPayloadBytes + 1);
  if (rounds < 1 || rounds > 24) throw std::invalid_argument("--rounds must be 1..24, got " + std::to_string(rounds));
  KernelInput in;
  const bytes data = random_bytes(static_cast<std::size_t>(200 * states), rng);
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(states));
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(rounds));
  in.stdin_bytes.insert(in.stdin_bytes.end(), data.begin(), data.end());
  in.expected = reference_keccak_p(data, static_cast<unsigned>(rounds));
  in.payload_bytes = 200 * states;
  in.description = (rounds == 24 ? std::string("Keccak-f[1600]") : "Keccak-p[1600, " + std::to_string(rounds) + "]") +
                   ", " + std::to_string(states) + (states == 1 ? " state" : " states");
  in.fields_json = Json({{"states", states}, {"rounds", rounds}, {"bytes", 200 * states}}).dump();
  return in;
}

/// xof layout: u32 length, u32 outlen, message -> outlen bytes. --bytes (or --blocks of the rate) and --outlen, else
/// the kernel's workload.
KernelInput xof_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  const std::uint64_t length = message_length(k, req, any_workload(k, "length", 1024));
  const std::uint64_t outlen = req.outlen.value_or(any_workload(k, "outlen", k.digest_bytes ? k.digest_bytes : 32));
  if (outlen == 0) throw std::invalid_argument("--outlen: at least one byte");
  check_payload(length);
  check_payload(outlen);
  KernelInput in;
  const bytes message = random_bytes(static_cast<std::size_t>(length), rng);
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(length));
  put_u32le(in.stdin_bytes, static_cast<std::uint32_t>(outlen));
  in.stdin_bytes.insert(in.stdin_bytes.end(), message.begin(), message.end());
  in.expected = reference_xof(k.algorithm, message, static_cast<std::size_t>(outlen));
  in.payload_bytes = length;
  in.description = std::to_string(length) + "-byte message, " + std::to_string(outlen) + " bytes out";
  in.fields_json = Json({{"bytes", length}, {"outlen", outlen}}).dump();
  return in;
}

KernelInput keyexp_input(const KernelSpec& k, std::mt19937_64& rng) {
  KernelInput in;
  in.stdin_bytes = random_bytes(k.key_bytes, rng);
  in.expected = reference_aes_schedule(in.stdin_bytes, k.decryption_schedule());
  in.description = std::string("key expansion (") + (k.decryption_schedule() ? "decryption" : "encryption") +
                   " schedule)";
  in.fields_json = Json({{"schedule", k.decryption_schedule() ? "decrypt" : "encrypt"}}).dump();
  return in;
}

}  // namespace

KernelInput make_input(const KernelSpec& k, const WorkloadRequest& req, std::mt19937_64& rng) {
  if (req.bytes && req.blocks) throw std::invalid_argument("give --bytes or --blocks, not both");
  const bool cipher = k.layout == "aes-cipher";
  if (!cipher && (req.mode_given || req.decrypt)) {
    throw std::invalid_argument("--mode and --decrypt apply to the cipher kernels (aes128, aes256, sm4), not " + k.kernel);
  }
  const bool keccak = k.layout == "keccak-states";
  if (!keccak && (req.states || req.rounds)) {
    throw std::invalid_argument("--states and --rounds apply to the Keccak permutation kernel (keccak-f1600), not " +
                                k.kernel);
  }
  if (k.layout != "xof" && req.outlen) {
    throw std::invalid_argument("--outlen applies to the XOF kernels (shake128), not " + k.kernel);
  }
  if (keccak) {
    if (req.bytes || req.blocks) {
      throw std::invalid_argument("--bytes and --blocks do not apply to " + k.kernel + " (use --states)");
    }
    return keccak_input(k, req, rng);
  }
  if (k.layout == "xof") return xof_input(k, req, rng);
  if (cipher) return cipher_input(k, req, rng);
  if (k.layout == "hash") return hash_input(k, req, rng);
  if (k.layout == "aes-gcm") return gcm_input(k, req, rng);
  if (k.layout == "aes-keyexp") {
    if (req.bytes || req.blocks) throw std::invalid_argument("--bytes and --blocks do not apply to " + k.kernel);
    return keyexp_input(k, rng);
  }
  throw std::invalid_argument("kernel " + k.kernel + " has layout '" + k.layout +
                              "', which this version of cryptaccel rv cannot feed");
}

}  // namespace cryptaccel::rvlab
