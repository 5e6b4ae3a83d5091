// `cryptaccel crack --ray` (see crack_cluster.hpp): the Python runner as a child process, its events read back.
#include "crack_cluster.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "cryptaccel/crack/potfile.hpp"
#include "cryptaccel/hex.hpp"
#include "cryptaccel/file.hpp"

extern char** environ;

namespace cryptaccel::cli::crack {
namespace {

using json = nlohmann::json;

constexpr int kPollMilliseconds = 200;  // how often a stop request is looked for while the runner is quiet

std::string python_executable() {
  const char* env = std::getenv("CRYPTACCEL_PYTHON");
  return env != nullptr && *env != '\0' ? env : "python3";
}

/// The runner's request: crack.run's keyword arguments, as the command line gave them.
std::string request_json(const CrackOptions& o, const std::vector<std::string>& known) {
  json r;
  r["hash_file"] = o.hash_file;
  r["wordlist"] = o.wordlist;
  r["rule_files"] = o.rules_files;
  r["mode"] = o.mode ? json(std::string(hash_mode_name(*o.mode))) : json(nullptr);
  r["engine"] = o.engine;
  r["threads"] = o.threads;
  r["batch"] = o.batch;
  r["skip"] = o.skip;
  r["limit"] = o.limit ? json(*o.limit) : json(nullptr);
  r["known"] = known;
  r["cluster"] = o.ray;
  r["restore_file"] = restore_file_path(o);
  r["restore"] = o.restore;
  r["unit_seconds"] = o.ray_unit_seconds;
  return r.dump() + "\n";
}

/// A status event's snapshot (the keys of Python's status dict).
StatusSnapshot snapshot_of(const json& s) {
  StatusSnapshot snap;
  snap.state = s.value("state", "running");
  snap.progress = s.value("progress", std::uint64_t{0});
  if (s.contains("total") && !s["total"].is_null()) snap.total = s["total"].get<std::uint64_t>();
  snap.speed = s.value("speed", 0.0);
  snap.elapsed = s.value("elapsed", 0.0);
  if (s.contains("eta") && !s["eta"].is_null()) snap.eta = s["eta"].get<double>();
  snap.recovered = s.value("recovered", std::uint64_t{0});
  snap.targets = s.value("targets", std::uint64_t{0});
  snap.recovered_settings = s.value("recovered_settings", std::uint64_t{0});
  snap.settings = s.value("settings", std::uint64_t{0});
  snap.engine = s.value("engine", "ray");
  snap.time_start = s.value("time_start", 0.0);
  for (const json& w : s.value("workers", json::array())) {
    WorkerStatus ws;
    ws.node = w.value("node", "");
    ws.pid = w.value("pid", std::int64_t{0});
    ws.engine = w.value("engine", "");
    ws.speed = w.value("speed", 0.0);
    ws.units = w.value("units", std::uint64_t{0});
    ws.lost = w.value("lost", false);
    snap.workers.push_back(std::move(ws));
  }
  return snap;
}

/// The runner: a child process with its stdin and stdout on pipes (stderr is ours, for Python's own errors). Its
/// stdin carries the request line, then stays open while the attack should go on.
class Runner {
 public:
  Runner() {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    // A process group of its own: Ctrl-C reaches this process only, which asks the runner to stop by closing its
    // stdin (Ray replaces a driver's signal handlers, so signals are no way to ask it).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const std::string python = python_executable();
    std::vector<char*> argv{const_cast<char*>(python.c_str()), const_cast<char*>("-m"),
                            const_cast<char*>("cryptaccel._ray_crack_pipe"), nullptr};
    const int rc = ::posix_spawnp(&pid_, python.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    if (rc != 0) {
      close_pipes();
      throw std::runtime_error("--ray: cannot start " + python + " (set CRYPTACCEL_PYTHON): " + std::strerror(rc));
    }
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  ~Runner() {
    close_pipes();
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }

  /// Sends the request line; stdin stays open until stop().
  void send(const std::string& text) {
    const int err = write_all(to_child_, bytes_view(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    if (err != 0 && err != EPIPE) throw std::runtime_error(std::string("--ray: ") + std::strerror(err));
  }

  /// Asks the runner to stop: end of its stdin.
  void stop() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
  }

  /// The next line from the runner; false at its end. `should_stop` is asked while waiting.
  bool next_line(std::string& line, const std::function<bool()>& should_stop) {
    for (;;) {
      const std::size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        line.assign(buffer_, 0, newline);
        buffer_.erase(0, newline + 1);
        return true;
      }
      if (from_child_ < 0) return false;
      if (to_child_ >= 0 && should_stop()) stop();
      pollfd p{from_child_, POLLIN, 0};
      const int ready = ::poll(&p, 1, kPollMilliseconds);
      if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("--ray: ") + std::strerror(errno));
      if (ready <= 0) continue;
      char chunk[65536];
      const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(from_child_);
        from_child_ = -1;
        continue;
      }
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  /// Waits for the runner; its exit status (128 + N for a signal).
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  void close_pipes() {
    if (to_child_ >= 0) ::close(to_child_);
    if (from_child_ >= 0) ::close(from_child_);
    to_child_ = from_child_ = -1;
  }

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

AttackEnd end_of(const std::string& name) {
  if (name == "cracked") return AttackEnd::cracked;
  if (name == "stopped") return AttackEnd::stopped;
  return AttackEnd::exhausted;
}

}  // namespace

std::string restore_file_path(const CrackOptions& o) {
  if (!o.restore_file_path.empty()) return o.restore_file_path;
  const std::string pot = default_potfile_path();
  const std::size_t slash = pot.rfind('/');
  return (slash == std::string::npos ? std::string(".") : pot.substr(0, slash)) + "/sessions/" + o.session +
         ".restore";
}

AttackEnd run_cluster_attack(const CrackOptions& o, const std::vector<std::string>& known,
                             const Attack::FindHandler& on_find, const Attack::ProgressHandler& on_progress,
                             const std::function<bool()>& should_stop, StatusSnapshot& last) {
  Runner runner;
  runner.send(request_json(o, known));
  std::string line;
  std::optional<AttackEnd> end;
  std::string error;
  while (runner.next_line(line, should_stop)) {
    json event;
    try {
      event = json::parse(line);
    } catch (const json::exception&) {
      continue;  // not an event (a library printing to stdout): ignored
    }
    const std::string kind = event.value("event", "");
    if (kind == "find") {
      const bytes plain = from_hex(event.value("plain", ""));
      on_find(Find{event.value("target", std::size_t{0}), std::string(plain.begin(), plain.end()),
                   event.value("position", std::uint64_t{0})});
    } else if (kind == "status") {
      last = snapshot_of(event["status"]);
      on_progress(last);
    } else if (kind == "end") {
      last = snapshot_of(event["status"]);
      end = end_of(event.value("end", ""));
    } else if (kind == "error") {
      error = event.value("message", "the Ray runner failed");
    }
  }
  const int status = runner.wait();
  if (!error.empty()) throw std::runtime_error(error);
  if (!end)
    throw std::runtime_error("--ray: the runner (" + python_executable() +
                             " -m cryptaccel._ray_crack_pipe) ended without a result (exit status " +
                             std::to_string(status) + "); is the cryptaccel Python package installed there?");
  return *end;
}

}  // namespace cryptaccel::cli::crack
