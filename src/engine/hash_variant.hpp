// The public HashAlgorithm as the device-safe algo::HashVariant (same order; checked here at compile time).
#pragma once
#include "algo/hash_message.hpp"
#include "cryptaccel/hash.hpp"

namespace cryptaccel::engine {

constexpr algo::HashVariant to_variant(HashAlgorithm a) { return static_cast<algo::HashVariant>(a); }

static_assert(to_variant(HashAlgorithm::sha224) == algo::HashVariant::sha224);
static_assert(to_variant(HashAlgorithm::sha512_256) == algo::HashVariant::sha512_256);
static_assert(to_variant(HashAlgorithm::sha3_224) == algo::HashVariant::sha3_224);
static_assert(to_variant(HashAlgorithm::shake256) == algo::HashVariant::shake256);
static_assert(to_variant(HashAlgorithm::sm3) == algo::HashVariant::sm3);

}  // namespace cryptaccel::engine
