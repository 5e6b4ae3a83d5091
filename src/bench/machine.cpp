// The speed harness: machine and build description, read from /proc/cpuinfo, uname(2), /etc/os-release, the
// compiler's predefined macros and the loaded libcrypto.
#include <openssl/crypto.h>

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "cryptaccel/bench/machine.hpp"
#include "cryptaccel/version.hpp"
#include "machine_json.hpp"

#ifndef CRYPTACCEL_BUILD_TYPE
#define CRYPTACCEL_BUILD_TYPE ""
#endif

namespace cryptaccel::bench {
namespace {

/// CPU features that crypto code paths depend on, as the kernel names them in /proc/cpuinfo.
#if defined(__x86_64__) || defined(__i386__)
constexpr std::string_view kCryptoFlags[] = {"aes",    "pclmulqdq", "vaes",    "vpclmulqdq",
                                             "sha_ni", "avx2",      "avx512f", "gfni"};
constexpr std::string_view kFlagsKey = "flags";
#elif defined(__aarch64__)
constexpr std::string_view kCryptoFlags[] = {"aes", "pmull", "sha1", "sha2", "sha3", "sha512", "sm3", "sm4", "sve"};
constexpr std::string_view kFlagsKey = "Features";
#else
constexpr std::string_view kCryptoFlags[] = {"aes"};
constexpr std::string_view kFlagsKey = "flags";
#endif

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

/// The value of the first "key : value" line of /proc/cpuinfo with this key, or "".
std::string cpuinfo_field(std::string_view key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim(std::string_view(line).substr(0, colon)) == key) return trim(std::string_view(line).substr(colon + 1));
  }
  return {};
}

/// PRETTY_NAME from /etc/os-release, or "".
std::string distribution() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
    std::string value = line.substr(12);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
    return value;
  }
  return {};
}

Json or_null(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace

std::string compiler() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#elif defined(_MSC_VER)
  return "MSVC " + std::to_string(_MSC_VER);
#else
  return "unknown";
#endif
}

std::string openssl_version() { return OpenSSL_version(OPENSSL_VERSION); }

std::string cpu_model() { return cpuinfo_field("model name"); }

unsigned usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

Json machine_info() {
  Json m;
  m["cpu_model"] = or_null(cpu_model());
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  m["logical_cores"] = online > 0 ? Json(online) : Json(nullptr);
  m["usable_cores"] = usable_cores();

  std::set<std::string, std::less<>> present;
  std::istringstream words(cpuinfo_field(kFlagsKey));
  for (std::string w; words >> w;) present.insert(w);
  Json flags = Json::object();
  for (const std::string_view f : kCryptoFlags) flags[std::string(f)] = present.count(f) != 0;
  m["cpu_flags"] = present.empty() ? Json(nullptr) : flags;

  Json os;
  struct utsname u {};
  if (::uname(&u) == 0) {
    os["name"] = u.sysname;
    os["release"] = u.release;
    os["arch"] = u.machine;
  } else {
    os["name"] = os["release"] = os["arch"] = nullptr;
  }
  os["distribution"] = or_null(distribution());
  m["os"] = os;
  m["gpu"] = nullptr;  // no GPU engine yet; filled in when one lands
  return m;
}

Json build_info() {
  return {
      {"cryptaccel_version", kVersion}, {"compiler", compiler()},       {"build_type", or_null(CRYPTACCEL_BUILD_TYPE)},
      {"cuda", kBuiltWithCuda},         {"openssl", openssl_version()},
  };
}

std::string machine_json() { return machine_info().dump(); }

std::string build_json() { return build_info().dump(); }

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace cryptaccel::bench
