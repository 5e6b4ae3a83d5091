// The engine registry: the only place that knows which backends exist and picks one for a request.
#include <array>

#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {
namespace {

// Names the project defines, including engines this build may lack, so a request for one gets a precise reason.
constexpr std::array<std::string_view, 3> kKnownEngines = {"cpu", "cuda", "ref"};

std::string direction_name(Direction dir) { return dir == Direction::encrypt ? "encryption" : "decryption"; }

}  // namespace

std::span<const Engine* const> registered_engines() {
  // Preference order for `auto`: accelerated engines are added ahead of `ref` as they land.
  static const std::array<const Engine*, 1> engines = {&ref_engine()};
  return engines;
}

const Engine& select_engine(std::string_view requested, const CipherSpec& spec, Direction dir) {
  if (requested.empty() || requested == "auto") {
    for (const Engine* e : registered_engines())
      if (e->unavailable_reason().empty() && e->supports(spec, dir)) return *e;
    throw EngineUnavailable("no available engine supports " + spec.name() + " " + direction_name(dir));
  }
  for (const Engine* e : registered_engines()) {
    if (e->name() != requested) continue;
    if (auto why = e->unavailable_reason(); !why.empty())
      throw EngineUnavailable("engine '" + std::string(requested) + "' is not available: " + why);
    if (!e->supports(spec, dir))
      throw EngineUnavailable("engine '" + std::string(requested) + "' does not support " + spec.name() + " " + direction_name(dir));
    return *e;
  }
  for (auto known : kKnownEngines)
    if (known == requested)
      throw EngineUnavailable("engine '" + std::string(requested) + "' is not built into this version of cryptaccel");
  throw EngineUnavailable("unknown engine '" + std::string(requested) + "' (use auto, cpu, cuda or ref)");
}

}  // namespace cryptaccel::engine

namespace cryptaccel {

std::vector<EngineInfo> engines() {
  std::vector<EngineInfo> out;
  for (const engine::Engine* e : engine::registered_engines()) {
    EngineInfo info{std::string(e->name()), std::string(e->description()), true, e->unavailable_reason()};
    info.available = info.unavailable_reason.empty();
    out.push_back(std::move(info));
  }
  return out;
}

std::string resolve_engine(std::string_view requested, const CipherSpec& spec, Direction dir) {
  return std::string(engine::select_engine(requested, spec, dir).name());
}

}  // namespace cryptaccel
