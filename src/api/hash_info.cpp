// Names and sizes of the hash algorithms.
#include <algorithm>
#include <array>
#include <cctype>

#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "engine/hash_variant.hpp"

namespace cryptaccel {
namespace {

using HA = HashAlgorithm;

HashInfo make(HashAlgorithm a, std::string_view name, std::string_view display) {
  const auto v = engine::to_variant(a);
  const bool xof = a == HA::shake128 || a == HA::shake256;
  return HashInfo{a, name, display, algo::hash_digest_size(v), algo::hash_block_size(v), xof};
}

const std::array<HashInfo, 13>& table() {
  static const std::array<HashInfo, 13> t = {
      make(HA::sha224, "sha224", "SHA224"),         make(HA::sha256, "sha256", "SHA256"),
      make(HA::sha384, "sha384", "SHA384"),         make(HA::sha512, "sha512", "SHA512"),
      make(HA::sha512_224, "sha512_224", "SHA512/224"), make(HA::sha512_256, "sha512_256", "SHA512/256"),
      make(HA::sha3_224, "sha3_224", "SHA3-224"),   make(HA::sha3_256, "sha3_256", "SHA3-256"),
      make(HA::sha3_384, "sha3_384", "SHA3-384"),   make(HA::sha3_512, "sha3_512", "SHA3-512"),
      make(HA::shake128, "shake_128", "SHAKE128"),  make(HA::shake256, "shake_256", "SHAKE256"),
      make(HA::sm3, "sm3", "SM3"),
  };
  return t;
}

/// Lower case without '-', '_' and '/': "SHA-512/224" and "sha512_224" both become "sha512224".
std::string squash(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '-' && c != '_' && c != '/') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

HashAlgorithm parse_hash(std::string_view name) {
  for (const HashInfo& info : table())  // the canonical spelling, as every caller in this tree passes: no allocation
    if (info.name == name) return info.algorithm;
  const std::string key = squash(name);
  for (const HashInfo& info : table())
    if (squash(info.name) == key) return info.algorithm;
  std::string known;
  for (const HashInfo& info : table()) known += (known.empty() ? "" : ", ") + std::string(info.name);
  throw InvalidArgument("unknown hash algorithm '" + std::string(name) + "' (known: " + known + ")");
}

const HashInfo& hash_info(HashAlgorithm algorithm) { return table().at(static_cast<std::size_t>(algorithm)); }

std::vector<std::string> hash_names() {
  std::vector<std::string> out;
  for (const HashInfo& info : table()) out.emplace_back(info.name);
  return out;
}

}  // namespace cryptaccel
