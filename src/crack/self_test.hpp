// Known-answer checks of the engine an attack runs on, one (plain, hash) pair per hash mode, as hashcat's modules
// self-test each device before an attack: an engine that hashes wrongly would otherwise find nothing, silently.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "cryptaccel/crack/targets.hpp"

namespace cryptaccel::crack {

/// Whether hashing `plain` on `engine` through the attack's search path finds `hash_line` (of `mode`): "" when it
/// does, else why not.
std::string check_pair(HashMode mode, std::string_view plain, std::string_view hash_line, const std::string& engine,
                       std::size_t threads);

}  // namespace cryptaccel::crack
