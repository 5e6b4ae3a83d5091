// Engine selection: the one rule that picks an engine for a request, over registered_engines() (which backends exist
// is src/api/backends.cpp's business: this layer includes none of them).
#include <array>

#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "engine/engine.hpp"

namespace cryptaccel::engine {
namespace {

// Names the project defines, including engines this build may lack, so a request for one gets a precise reason.
constexpr std::array<std::string_view, 4> kKnownEngines = {"cpu", "cuda", "cuda-ttable", "ref"};

std::string direction_name(Direction dir) { return dir == Direction::encrypt ? "encryption" : "decryption"; }

}  // namespace


namespace {

/// Whether `e` can run here. An engine's availability is fixed for the life of the process (the CPU's features, the
/// GPUs present), so each engine's reason is asked once: selection runs per call (a hash object, a batch), and a
/// reason is a string (an allocation per call for an unavailable GPU).
bool available(const Engine& e) {
  static const std::vector<std::pair<const Engine*, bool>> known = [] {
    std::vector<std::pair<const Engine*, bool>> out;
    for (const Engine* r : registered_engines()) out.emplace_back(r, r->unavailable_reason().empty());
    return out;
  }();
  for (const auto& [engine, ok] : known)
    if (engine == &e) return ok;
  return e.unavailable_reason().empty();
}

/// The one selection rule, for any request: `auto` takes the first available engine that can serve it and finds
/// the request's `work` worth its fixed cost per call (Engine::worth_auto; the host engines always do); a named
/// engine must exist, be available and serve it. `what()` names the request in error messages; it is only called
/// on an error, so that a successful selection (once per batch call) builds no strings.
template <class CanServe, class What>
const Engine& select(std::string_view requested, What what, const Work& work, CanServe can_serve) {
  if (requested.empty() || requested == "auto") {
    const Engine* first_able = nullptr;
    for (const Engine* e : registered_engines()) {
      if (!available(*e) || !can_serve(*e)) continue;
      if (e->worth_auto(work)) return *e;
      if (!first_able) first_able = e;
    }
    if (first_able) return *first_able;  // only offloading engines can serve it: size does not matter then
    throw EngineUnavailable("no available engine supports " + what());
  }
  for (const Engine* e : registered_engines()) {
    if (e->name() != requested) continue;
    if (!available(*e))
      throw EngineUnavailable("engine '" + std::string(requested) + "' is not available: " + e->unavailable_reason());
    if (!can_serve(*e))
      throw EngineUnavailable("engine '" + std::string(requested) + "' does not support " + what());
    return *e;
  }
  for (auto known : kKnownEngines)
    if (known == requested)
      throw EngineUnavailable("engine '" + std::string(requested) + "' is not built into this version of cryptaccel");
  throw EngineUnavailable("unknown engine '" + std::string(requested) + "' (use auto, cpu, cuda or ref)");
}

}  // namespace

const Engine& select_engine(std::string_view requested, const CipherSpec& spec, Direction dir, const Work& work) {
  return select(requested, [&] { return spec.name() + " " + direction_name(dir); }, work,
                [&](const Engine& e) { return e.supports(spec, dir); });
}

const Engine& select_hash_engine(std::string_view requested, HashAlgorithm algorithm, HashUse use, const Work& work) {
  const auto name = [&] { return std::string(hash_info(algorithm).name); };
  if (use == HashUse::streaming)
    return select(requested, [&] { return "streaming " + name(); }, work,
                  [&](const Engine& e) { return e.hash_blocks_function(algorithm) != nullptr; });
  return select(requested, name, work, [&](const Engine& e) { return e.supports_hash(algorithm); });
}

const Engine& select_shacrypt_engine(std::string_view requested, bool sha256crypt, bool sha512crypt,
                                     const Work& work) {
  const auto what = [=] {
    return std::string(sha256crypt && sha512crypt ? "sha256crypt and sha512crypt"
                                                  : (sha256crypt ? "sha256crypt" : "sha512crypt"));
  };
  return select(requested, what, work, [=](const Engine& e) {
    return (!sha256crypt || e.supports_shacrypt(ShaCryptVariant::sha256)) &&
           (!sha512crypt || e.supports_shacrypt(ShaCryptVariant::sha512));
  });
}

const Engine& select_keccak_engine(std::string_view requested, const Work& work) {
  return select(requested, [] { return std::string("keccak-f[1600] batches"); }, work,
                [](const Engine& e) { return e.supports_keccak_batch(); });
}

const Engine& select_rsa_engine(std::string_view requested, std::size_t bits, const Work& work) {
  return select(requested, [=] { return "RSA-" + std::to_string(bits); }, work,
                [=](const Engine& e) { return e.supports_rsa(bits); });
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
