#include "stream_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>


namespace cryptaccel::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
struct sigaction g_old_int {}, g_old_term {}, g_old_xfsz {};

extern "C" void on_stream_stop_signal(int sig) { g_stop_signal = sig; }

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

}  // namespace

StreamInput::StreamInput(const std::string& path) : name_(is_stdio(path) ? "stdin" : "'" + path + "'") {
  if (is_stdio(path)) return;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("cannot open " + name_ + ": " + std::strerror(errno));
  owned_ = true;
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd_);
    throw std::runtime_error("cannot read " + name_ + ": " + std::strerror(EISDIR));
  }
}

StreamInput::~StreamInput() {
  if (owned_) ::close(fd_);
}

std::size_t StreamInput::read(mutable_bytes buffer) {
  std::size_t got = 0;
  while (got < buffer.size()) {
    StopOnSignal::throw_if_requested();
    const ssize_t n = ::read(fd_, buffer.data() + got, buffer.size() - got);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot read " + name_ + ": " + std::strerror(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  return got;
}

StopOnSignal::StopOnSignal() {
  g_stop_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stream_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // no SA_RESTART: a blocked read returns EINTR and the flag is seen at once
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
  // Past the file-size limit (ulimit -f) a write fails with EFBIG instead of the process dying with SIGXFSZ, so the
  // temporary output file is removed like after any other write error.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGXFSZ, &ignore, &g_old_xfsz);
}

StopOnSignal::~StopOnSignal() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  sigaction(SIGXFSZ, &g_old_xfsz, nullptr);
}

void StopOnSignal::throw_if_requested() {
  if (g_stop_signal)
    throw std::runtime_error(std::string("interrupted by ") + (g_stop_signal == SIGINT ? "SIGINT" : "SIGTERM"));
}

bytes read_rest(ByteSource& input) {
  bytes data;
  for (std::size_t piece = std::size_t{1} << 20;;) {
    const std::size_t old = data.size();
    data.resize(old + piece);
    const std::size_t got = input.read(mutable_bytes(data.data() + old, piece));
    data.resize(old + got);
    if (got < piece) return data;
  }
}

}  // namespace cryptaccel::cli
