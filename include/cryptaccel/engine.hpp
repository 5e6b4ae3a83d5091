// cryptaccel — engines: which backends exist, which are usable here, and which one a request would run on.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "cryptaccel/cipher.hpp"

namespace cryptaccel {

/// Public description of one engine.
struct EngineInfo {
  std::string name;                ///< "ref", "cpu", "cuda", ...
  std::string description;         ///< one line
  bool available = false;          ///< usable on this machine and build
  std::string unavailable_reason;  ///< why not, when !available
};

/// Every engine compiled into this build, in order of preference for "auto" (most preferred first).
std::vector<EngineInfo> engines();

/// Names the engine that would serve a cipher request: `requested` is "auto" or an engine name. Throws
/// EngineUnavailable with a one-line reason when the named engine is unknown, unavailable, or does not support it.
std::string resolve_engine(std::string_view requested, const CipherSpec& spec, Direction dir);

}  // namespace cryptaccel
