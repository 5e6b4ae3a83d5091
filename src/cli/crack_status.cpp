// Status line and JSON status of `cryptaccel crack` (see crack_status.hpp).
#include "crack_status.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace cryptaccel::cli::crack {

using namespace cryptaccel::crack;
namespace {

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 100.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

std::string format_duration(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(seconds));
  char buf[48];
  if (s >= 86400)
    std::snprintf(buf, sizeof buf, "%llud %02llu:%02llu:%02llu", static_cast<unsigned long long>(s / 86400),
                  static_cast<unsigned long long>(s / 3600 % 24), static_cast<unsigned long long>(s / 60 % 60),
                  static_cast<unsigned long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  return buf;
}

std::string capitalised(std::string word) {
  if (!word.empty() && word[0] >= 'a' && word[0] <= 'z') word[0] = static_cast<char>(word[0] - 32);
  return word;
}

}  // namespace

std::string format_speed(double hs) {
  static const char* kUnits[] = {"H/s", "kH/s", "MH/s", "GH/s", "TH/s"};
  int unit = 0;
  while (hs >= 1000.0 && unit < 4) {
    hs /= 1000.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.2f %s", hs, kUnits[unit]);
  return buf;
}

std::string status_line(const StatusSnapshot& s) {
  char progress[96];
  if (s.total)
    std::snprintf(progress, sizeof progress, "%llu/%llu (%.2f%%)", static_cast<unsigned long long>(s.progress),
                  static_cast<unsigned long long>(*s.total), percent(s.progress, *s.total));
  else  // a wordlist on stdin: no total
    std::snprintf(progress, sizeof progress, "%llu", static_cast<unsigned long long>(s.progress));
  char recovered[96];
  std::snprintf(recovered, sizeof recovered, "%llu/%llu (%.2f%%)", static_cast<unsigned long long>(s.recovered),
                static_cast<unsigned long long>(s.targets), percent(s.recovered, s.targets));
  std::string line = "Status: " + capitalised(s.state) + " | Progress: " + progress +
                     " | Speed: " + format_speed(s.speed) + " | ETA: " + (s.eta ? format_duration(*s.eta) : "--:--:--") +
                     " | Recovered: " + recovered + " | Elapsed: " + format_duration(s.elapsed) +
                     " | Engine: " + s.engine;
  if (!s.workers.empty()) {  // a cluster run: each worker's rate
    line += " | Workers:";
    for (std::size_t i = 0; i < s.workers.size(); ++i) {
      const WorkerStatus& w = s.workers[i];
      line += (i ? ", " : " ") + w.node + " " + (w.lost ? std::string("lost") : format_speed(w.speed));
    }
  }
  return line;
}

std::string status_line_compact(const StatusSnapshot& s, std::size_t columns) {
  char progress[32];
  if (s.total)
    std::snprintf(progress, sizeof progress, "%.2f%%", percent(s.progress, *s.total));
  else
    std::snprintf(progress, sizeof progress, "%llu tried", static_cast<unsigned long long>(s.progress));
  std::string line = capitalised(s.state) + " " + progress + " | " + format_speed(s.speed) + " | ETA " +
                     (s.eta ? format_duration(*s.eta) : "--:--:--") + " | Recovered " + std::to_string(s.recovered) +
                     "/" + std::to_string(s.targets) + " | " + format_duration(s.elapsed) + " | " + s.engine;
  if (line.size() > columns) line.resize(columns);
  return line;
}

std::string status_json(const StatusSnapshot& s) {
  nlohmann::json j;
  j["status"] = s.state;
  j["progress"] = {s.progress, s.total ? nlohmann::json(*s.total) : nlohmann::json(nullptr)};
  j["progress_percent"] = s.total ? nlohmann::json(std::round(percent(s.progress, *s.total) * 100.0) / 100.0)
                                  : nlohmann::json(nullptr);
  j["speed_hs"] = std::round(s.speed * 10.0) / 10.0;
  j["elapsed_s"] = std::round(s.elapsed * 1000.0) / 1000.0;
  j["eta_s"] = s.eta ? nlohmann::json(std::round(*s.eta * 10.0) / 10.0) : nlohmann::json(nullptr);
  j["recovered_hashes"] = {s.recovered, s.targets};
  j["recovered_settings"] = {s.recovered_settings, s.settings};
  j["engine"] = s.engine;
  j["time_start"] = static_cast<std::int64_t>(s.time_start);
  j["estimated_stop"] = s.eta ? nlohmann::json(static_cast<std::int64_t>(s.time_start + s.elapsed + *s.eta))
                              : nlohmann::json(nullptr);
  if (!s.workers.empty()) {
    nlohmann::json workers = nlohmann::json::array();
    for (const WorkerStatus& w : s.workers)
      workers.push_back({{"node", w.node}, {"pid", w.pid}, {"engine", w.engine},
                         {"speed_hs", std::round(w.speed * 10.0) / 10.0}, {"units", w.units}, {"lost", w.lost}});
    j["workers"] = workers;
  }
  return j.dump();
}

}  // namespace cryptaccel::cli::crack
