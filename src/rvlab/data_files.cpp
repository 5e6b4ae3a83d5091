#include "cryptaccel/rvlab/data_files.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace cryptaccel::rvlab {
namespace {

namespace fs = std::filesystem;

void add_if_directory(std::vector<std::string>& out, const fs::path& dir) {
  std::error_code ec;
  if (!dir.empty() && fs::is_directory(dir, ec)) out.push_back(dir.lexically_normal().string());
}

}  // namespace

std::string executable_directory() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

std::vector<std::string> data_directories() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv(kDataDirEnv); env != nullptr && *env != '\0') add_if_directory(dirs, env);
  const std::string exe = executable_directory();
  if (!exe.empty()) {
    add_if_directory(dirs, fs::path(exe) / ".." / "share" / "cryptaccel" / "rv");  // <prefix>/bin/cryptaccel
    add_if_directory(dirs, fs::path(exe) / ".." / ".." / "rv");                     // <build>/src/cli/cryptaccel
  }
  return dirs;
}

std::string find_data_file(const std::string& sub, const std::string& name) {
  for (const std::string& dir : data_directories()) {
    const fs::path p = fs::path(dir) / sub / name;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

}  // namespace cryptaccel::rvlab
