// read_whole_file (include/cryptaccel/file.hpp).
#include "cryptaccel/file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace cryptaccel {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

/// Reads `f` to its end in 64 KiB steps (one allocation when the size is known: a regular file).
bytes read_stream(std::FILE* f, const std::string& name) {
  bytes data;
  struct stat st {};
  if (::fstat(fileno(f), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::runtime_error("cannot read " + name + ": Is a directory");
    if (S_ISREG(st.st_mode) && st.st_size > 0) data.reserve(static_cast<std::size_t>(st.st_size) + 1);
  }
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  for (;;) {
    const std::size_t old_size = data.size();
    data.resize(std::max(old_size + kChunk, data.capacity()));
    const std::size_t want = data.size() - old_size;
    const std::size_t got = std::fread(data.data() + old_size, 1, want, f);
    data.resize(old_size + got);
    if (got < want) {
      if (std::ferror(f)) throw std::runtime_error("cannot read " + name + ": " + std::strerror(errno));
      return data;
    }
  }
}

}  // namespace

bytes read_whole_file(const std::string& path) {
  if (path == "-") return read_stream(stdin, "stdin");
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  return read_stream(f.get(), "'" + path + "'");
}

}  // namespace cryptaccel
