#include "cryptaccel/rvlab/reference.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "cryptaccel/aes.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"

namespace cryptaccel::rvlab {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

bytes reference_cipher(const std::string& algorithm, const std::string& mode, bool decrypt, bytes_view key,
                       bytes_view iv, bytes_view data) {
  // "AES-256" + "ctr" -> "aes-256-ctr"; "SM4" + "ecb" -> "sm4-ecb".
  CipherSpec spec = CipherSpec::parse(lower(algorithm) + "-" + mode);
  spec.padding = false;
  CipherParams params;
  params.key = key;
  if (spec.mode != Mode::ecb) params.iv = iv;
  return decrypt ? cryptaccel::decrypt(spec, params, data, "ref") : cryptaccel::encrypt(spec, params, data, "ref");
}

bytes reference_gcm(const std::string& algorithm, bytes_view key, bytes_view iv, bytes_view aad, bytes_view plaintext) {
  const CipherSpec spec = CipherSpec::parse(lower(algorithm));  // "aes-128-gcm"
  CipherParams params;
  params.key = key;
  params.iv = iv;
  params.aad = aad;
  params.tag_len = 16;
  return cryptaccel::encrypt(spec, params, plaintext, "ref");
}

bytes reference_hash(const std::string& algorithm, bytes_view message) {
  return cryptaccel::hash(parse_hash(algorithm), message, 0, "ref");
}

bytes reference_xof(const std::string& algorithm, bytes_view message, std::size_t outlen) {
  return cryptaccel::hash(parse_hash(algorithm), message, outlen, "ref");
}

bytes reference_keccak_p(bytes_view states, unsigned rounds) {
  bytes out(states.begin(), states.end());
  try {
    keccak_p1600_bytes(out, rounds);
  } catch (const InvalidArgument& e) {
    throw std::invalid_argument(e.what());
  }
  return out;
}

bytes reference_aes_schedule(bytes_view key, bool decryption) {
  try {
    return aes_round_keys(key, decryption);
  } catch (const InvalidArgument&) {
    throw std::invalid_argument("AES key of " + std::to_string(key.size()) + " bytes");
  }
}

}  // namespace cryptaccel::rvlab
