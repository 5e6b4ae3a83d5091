#include "cryptaccel/rvlab/manifest.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "cryptaccel/rvlab/data_files.hpp"
#include "json.hpp"

namespace cryptaccel::rvlab {
namespace {

namespace fs = std::filesystem;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// The ELF named by the manifest: a relative name is beside the manifest (an installed kernels directory); a listed
/// path that is gone (a manifest copied elsewhere) is looked up beside the manifest by its file name.
std::string resolve_elf(const std::string& listed, const std::string& manifest_path) {
  const fs::path dir = fs::path(manifest_path).parent_path();
  if (!listed.empty() && fs::path(listed).is_relative()) return (dir / listed).string();
  if (listed.empty() || fs::exists(listed)) return listed;
  const fs::path beside = dir / fs::path(listed).filename();
  return fs::exists(beside) ? beside.string() : listed;
}

}  // namespace

std::optional<std::uint64_t> NamedWorkload::size(const std::string& key) const {
  for (const auto& [k, v] : sizes)
    if (k == key) return v;
  return std::nullopt;
}

std::string ManifestEntry::spike_isa(unsigned vlen) const {
  return vector() ? isa + "_zvl" + std::to_string(vlen != 0 ? vlen : default_vlen) + "b" : isa;
}

bool KernelSpec::decryption_schedule() const {
  return std::find(defines.begin(), defines.end(), "KERNEL_AES_KEYEXP_DEC") != defines.end();
}

const NamedWorkload* KernelSpec::workload(const std::string& name) const {
  for (const NamedWorkload& w : workloads)
    if (w.name == name) return &w;
  return nullptr;
}

const KernelSpec* Manifest::kernel(const std::string& name) const {
  for (const KernelSpec& k : kernels)
    if (k.kernel == name) return &k;
  return nullptr;
}

const ManifestEntry* Manifest::find(const std::string& name, const std::string& variant, unsigned xlen) const {
  for (const ManifestEntry& e : entries)
    if (e.kernel == name && e.variant == variant && e.xlen == xlen) return &e;
  return nullptr;
}

const ManifestEntry& Manifest::entry(const std::string& name, const std::string& variant, unsigned xlen) const {
  const KernelSpec* spec = kernel(name);
  if (spec == nullptr) {
    std::vector<std::string> names;
    for (const KernelSpec& k : kernels) names.push_back(k.kernel);
    throw std::runtime_error("unknown kernel '" + name + "' (kernels: " + join(names) + ")");
  }
  std::set<unsigned> xlens;
  for (const ManifestEntry& e : entries) {
    if (e.kernel != name || e.variant != variant) continue;
    if (e.xlen == xlen) return e;
    xlens.insert(e.xlen);
  }
  if (xlens.empty()) {
    throw std::runtime_error("kernel " + name + " has no variant '" + variant + "' (variants: " +
                             join(spec->variants) + ")");
  }
  std::string shown;
  for (const unsigned x : xlens) shown += (shown.empty() ? "" : ", ") + std::to_string(x);
  throw std::runtime_error("kernel " + name + " " + variant + " is not built for RV" + std::to_string(xlen) +
                           " (XLEN: " + shown + ")");
}

std::string locate_manifest(const std::string& option) {
  if (!option.empty()) {
    if (!fs::is_regular_file(option)) throw std::runtime_error("--manifest: no such file: " + option);
    return option;
  }
  if (const char* env = std::getenv("CRYPTACCEL_RV_MANIFEST"); env != nullptr && *env != '\0') {
    if (!fs::is_regular_file(env)) {
      throw std::runtime_error(std::string("CRYPTACCEL_RV_MANIFEST names no file: ") + env);
    }
    return env;
  }
  if (std::string found = find_data_file("kernels", "manifest.json"); !found.empty()) return found;
  throw std::runtime_error(
      "no RISC-V kernel manifest: the kernels were not built (they need clang-19 and ld.lld-19, e.g. Debian "
      "clang-19 lld-19; configure with -DCRYPTACCEL_RV_KERNELS=ON to require them), or give --manifest FILE or "
      "CRYPTACCEL_RV_MANIFEST");
}

Manifest load_manifest(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the kernel manifest " + path);
  Manifest m;
  m.path = path;
  try {
    const Json doc = Json::parse(in);
    m.compiler = doc.value("compiler", "");
    const Json variants = doc.value("variants", Json::object());
    for (const Json& k : doc.at("kernels")) {
      KernelSpec s;
      s.kernel = k.at("kernel").get<std::string>();
      s.algorithm = k.value("algorithm", "");
      s.layout = k.at("layout").get<std::string>();
      s.key_bytes = k.value("key_bytes", std::size_t{0});
      s.rounds = k.value("rounds", std::size_t{0});
      s.digest_bytes = k.value("digest_bytes", std::size_t{0});
      if (k.contains("defines")) s.defines = k.at("defines").get<std::vector<std::string>>();
      if (k.contains("variants")) s.variants = k.at("variants").get<std::vector<std::string>>();
      const Json workloads = k.value("workloads", Json::object());
      for (const auto& [name, w] : workloads.items()) {
        NamedWorkload nw;
        nw.name = name;
        for (const auto& [key, v] : w.items())
          if (v.is_number_unsigned()) nw.sizes.emplace_back(key, v.get<std::uint64_t>());
        s.workloads.push_back(std::move(nw));
      }
      m.kernels.push_back(std::move(s));
    }
    for (const Json& e : doc.at("entries")) {
      ManifestEntry x;
      x.kernel = e.at("kernel").get<std::string>();
      x.variant = e.at("variant").get<std::string>();
      x.xlen = e.at("xlen").get<unsigned>();
      x.isa = e.at("isa").get<std::string>();
      if (e.contains("extensions")) x.extensions = e.at("extensions").get<std::vector<std::string>>();
      x.elf = resolve_elf(e.at("elf").get<std::string>(), path);
      if (variants.contains(x.variant)) {  // vector variants: "vlens" and "default_vlen" (kernels.json)
        const Json& v = variants.at(x.variant);
        x.default_vlen = v.value("default_vlen", 0u);
        if (v.contains("vlens")) x.vlens = v.at("vlens").get<std::vector<unsigned>>();
        if (x.default_vlen != 0 && x.vlens.empty()) x.vlens = {x.default_vlen};
      }
      x.built = !x.elf.empty() && fs::is_regular_file(x.elf);
      m.entries.push_back(std::move(x));
    }
  } catch (const Json::exception& e) {
    throw std::runtime_error("malformed kernel manifest " + path + ": " + e.what());
  }
  return m;
}

}  // namespace cryptaccel::rvlab
