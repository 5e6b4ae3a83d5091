// `cryptaccel rv list`: the runnable kernels (built ELFs) of the manifest, as a table or JSON: one row per kernel x
// variant x XLEN, and for the vector (zvk) kernels one per VLEN they are listed for.
#include <algorithm>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "rv_cmds.hpp"

namespace cryptaccel::cli::rvcmd {

using namespace cryptaccel::rvlab;
using Json = nlohmann::ordered_json;  // keys in the order written

int rv_list(const ListOptions& options) {
  const Manifest m = load_manifest(locate_manifest(options.manifest));
  Json list = Json::array();
  std::size_t missing = 0;
  for (const ManifestEntry& e : m.entries) {
    if (!e.built) {
      ++missing;
      continue;
    }
    const KernelSpec* k = m.kernel(e.kernel);
    const std::vector<unsigned> vlens = e.vector() ? e.vlens : std::vector<unsigned>{0};
    for (const unsigned vlen : vlens) {
      Json row = {{"kernel", e.kernel}, {"variant", e.variant}, {"xlen", e.xlen}};
      if (vlen != 0) row["vlen"] = vlen;
      row["isa"] = e.isa;
      if (vlen != 0) row["spike_isa"] = e.spike_isa(vlen);
      row["extensions"] = e.extensions;
      row["algorithm"] = k != nullptr ? k->algorithm : "";
      row["layout"] = k != nullptr ? k->layout : "";
      row["elf"] = e.elf;
      list.push_back(std::move(row));
    }
  }
  if (list.empty()) {
    throw std::runtime_error("the manifest " + m.path + " lists " + std::to_string(m.entries.size()) +
                             " kernels but none is built (build the rv_kernels target)");
  }
  if (options.json) {
    std::printf("%s\n", list.dump(2).c_str());
    return 0;
  }
  std::size_t kw = 6, vw = 7;
  for (const Json& j : list) {
    kw = std::max(kw, j["kernel"].get<std::string>().size());
    vw = std::max(vw, j["variant"].get<std::string>().size());
  }
  std::printf("%-*s  %-*s  %4s  %4s  %s\n", static_cast<int>(kw), "KERNEL", static_cast<int>(vw), "VARIANT", "XLEN",
              "VLEN", "ISA");
  for (const Json& j : list) {
    const std::string vlen = j.contains("vlen") ? std::to_string(j["vlen"].get<unsigned>()) : "-";
    std::printf("%-*s  %-*s  %4u  %4s  %s\n", static_cast<int>(kw), j["kernel"].get<std::string>().c_str(),
                static_cast<int>(vw), j["variant"].get<std::string>().c_str(), j["xlen"].get<unsigned>(), vlen.c_str(),
                j["isa"].get<std::string>().c_str());
  }
  if (missing != 0) std::fprintf(stderr, "cryptaccel rv: %zu manifest entries not built (left out)\n", missing);
  return 0;
}

}  // namespace cryptaccel::cli::rvcmd
