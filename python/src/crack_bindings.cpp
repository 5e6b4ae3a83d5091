// Cracking bindings. An attack runs with the GIL released; the callbacks (finds, progress, the stop check) take it
// back for the Python call only, after each batch.
#include "crack_bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stop_token>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

#include "cryptaccel/crack.hpp"
#include "cryptaccel/error.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;
namespace crack = cryptaccel::crack;

namespace pyca {
namespace {

std::optional<crack::HashMode> parse_mode(const std::optional<std::string>& mode) {
  if (!mode) return std::nullopt;
  try {
    return crack::parse_hash_mode(*mode);
  } catch (const std::invalid_argument& e) {
    throw ca::InvalidArgument(e.what());
  }
}

nb::bytes as_bytes(std::string_view s) { return nb::bytes(s.data(), s.size()); }

const char* bad_kind_name(crack::BadLineKind k) {
  switch (k) {
    case crack::BadLineKind::unusable: return "unusable";
    case crack::BadLineKind::no_password_hash: return "no_password_hash";
    case crack::BadLineKind::empty_password: return "empty_password";
  }
  return "unusable";
}

nb::dict status_dict(const crack::StatusSnapshot& s) {
  nb::dict d;
  d["state"] = s.state;
  d["progress"] = s.progress;
  d["total"] = s.total ? nb::cast(*s.total) : nb::none();
  d["speed"] = s.speed;
  d["elapsed"] = s.elapsed;
  d["eta"] = s.eta ? nb::cast(*s.eta) : nb::none();
  d["recovered"] = s.recovered;
  d["targets"] = s.targets;
  d["recovered_settings"] = s.recovered_settings;
  d["settings"] = s.settings;
  d["engine"] = s.engine;
  d["time_start"] = s.time_start;
  return d;
}

/// The targets: a hash file (`path`), or hash lines (`lines`: one per element, as in a hash file).
crack::HashFile load_targets(const std::optional<std::string>& path, const std::vector<std::string>& lines,
                             std::optional<crack::HashMode> mode) {
  if (path) {
    try {
      return crack::load_hash_file(*path, mode);
    } catch (const std::runtime_error& e) {
      throw ca::InvalidArgument(e.what());
    }
  }
  crack::HashFile file;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    auto parsed = crack::parse_hash_line(lines[i], mode);
    if (auto* t = std::get_if<crack::Target>(&parsed)) {
      t->line = i + 1;
      file.targets.push_back(std::move(*t));
    } else {
      file.bad.push_back({i + 1, std::get<std::string>(parsed), crack::BadLineKind::unusable, {}});
    }
  }
  return file;
}

std::vector<crack::Rule> load_rules(const std::vector<std::string>& rule_files, const std::vector<std::string>& rules) {
  std::vector<std::vector<crack::Rule>> lists;
  try {
    for (const std::string& path : rule_files) lists.push_back(crack::load_rule_file(path, {}));
    if (!rules.empty()) {
      std::vector<crack::Rule> inline_rules;
      for (const std::string& r : rules) inline_rules.push_back(crack::parse_rule(r));
      lists.push_back(std::move(inline_rules));
    }
  } catch (const std::invalid_argument& e) {
    throw ca::InvalidArgument(e.what());
  } catch (const std::runtime_error& e) {
    throw ca::InvalidArgument(e.what());
  }
  return lists.empty() ? std::vector<crack::Rule>{} : crack::stack_rules(lists);
}

crack::AttackOptions attack_options(const std::string& wordlist, std::vector<crack::Rule> rules,
                                    const std::string& engine, std::size_t threads, std::size_t batch,
                                    std::uint64_t skip, std::optional<std::uint64_t> limit) {
  crack::AttackOptions o;
  o.wordlist = wordlist;
  o.rules = std::move(rules);
  o.engine = engine;
  o.threads = threads;
  o.batch = batch;
  o.skip = skip;
  o.limit = limit;
  return o;
}

/// Runs an attack; returns (end, finds, status, bad lines). finds: (target index, hash, user, line, plain, position).
nb::tuple run(const std::optional<std::string>& hash_file, const std::vector<std::string>& hash_lines,
              const std::optional<std::string>& mode, const std::string& wordlist,
              const std::vector<std::string>& rule_files, const std::vector<std::string>& rules,
              const std::string& engine, std::size_t threads, std::size_t batch, std::uint64_t skip,
              std::optional<std::uint64_t> limit, const std::vector<std::string>& known, nb::object on_find,
              nb::object on_progress) {
  const crack::HashFile file = load_targets(hash_file, hash_lines, parse_mode(mode));
  nb::list bad;
  for (const crack::BadLine& b : file.bad) bad.append(nb::make_tuple(b.line, b.reason, bad_kind_name(b.kind), b.user));
  std::vector<bool> cracked(file.targets.size(), false);
  const std::unordered_set<std::string> known_set(known.begin(), known.end());
  for (std::size_t i = 0; i < file.targets.size(); ++i) cracked[i] = known_set.count(file.targets[i].hash) != 0;

  nb::list finds;
  crack::AttackEnd end = crack::AttackEnd::exhausted;
  crack::StatusSnapshot status;
  if (!file.targets.empty()) {
    std::optional<crack::Attack> attack;
    try {
      attack.emplace(file.targets, cracked,
                     attack_options(wordlist, load_rules(rule_files, rules), engine, threads, batch, skip, limit));
    } catch (const std::runtime_error& e) {
      if (dynamic_cast<const ca::Error*>(&e)) throw;
      throw ca::InvalidArgument(e.what());  // the wordlist cannot be read
    }
    std::stop_source stop;
    {
      nb::gil_scoped_release release;
      end = attack->run(
          stop.get_token(),
          [&](const crack::Find& f) {
            nb::gil_scoped_acquire acquire;
            const crack::Target& t = file.targets[f.target];
            nb::tuple item = nb::make_tuple(f.target, t.hash, t.user, t.line, as_bytes(f.plain), f.position);
            finds.append(item);
            if (!on_find.is_none()) on_find(item);
          },
          [&](const crack::StatusSnapshot& s) {
            if (on_progress.is_none()) return;
            nb::gil_scoped_acquire acquire;
            if (nb::cast<bool>(on_progress(status_dict(s)))) stop.request_stop();
          });
    }
    status = attack->status();
  }
  const char* end_name = end == crack::AttackEnd::cracked ? "cracked" : end == crack::AttackEnd::stopped ? "stopped"
                                                                                                   : "exhausted";
  if (file.targets.empty()) status.state = "exhausted";
  return nb::make_tuple(end_name, finds, status_dict(status), bad);
}

/// The key of the setting `t` is searched under (the attack's groups): targets with one key are hashed together.
std::string setting_key(const crack::Target& t) {
  std::string key(crack::hash_mode_name(t.mode));
  if (crack::is_crypt(t.mode)) key += ":" + std::to_string(t.setting.rounds) + ":" + t.setting.salt;
  return key;
}

/// The targets of a hash file or hash lines without attacking them: (targets, bad lines); targets: (hash, user,
/// line, setting key).
nb::tuple targets(const std::optional<std::string>& hash_file, const std::vector<std::string>& hash_lines,
                  const std::optional<std::string>& mode) {
  const crack::HashFile file = load_targets(hash_file, hash_lines, parse_mode(mode));
  nb::list targets, bad;
  for (const crack::Target& t : file.targets) targets.append(nb::make_tuple(t.hash, t.user, t.line, setting_key(t)));
  for (const crack::BadLine& b : file.bad) bad.append(nb::make_tuple(b.line, b.reason, bad_kind_name(b.kind), b.user));
  return nb::make_tuple(targets, bad);
}

/// Candidates per word: the size of the stacked rules (1 without rules), as an attack with them counts.
std::size_t rules_per_word(const std::vector<std::string>& rule_files, const std::vector<std::string>& rules) {
  const std::vector<crack::Rule> stacked = load_rules(rule_files, rules);
  return stacked.empty() ? 1 : stacked.size();
}

nb::bytes candidates(const std::string& wordlist, const std::vector<std::string>& rule_files,
                     const std::vector<std::string>& rules, std::uint64_t skip, std::optional<std::uint64_t> limit) {
  const crack::AttackOptions o = attack_options(wordlist, load_rules(rule_files, rules), "auto", 0, 0, skip, limit);
  std::string all;
  try {
    nb::gil_scoped_release release;
    crack::list_candidates(o, [&](std::string_view lines) { all += lines; });
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const ca::Error*>(&e)) throw;
    throw ca::InvalidArgument(e.what());
  }
  return as_bytes(all);
}

std::optional<nb::bytes> apply_rule(const std::string& rule, nb::bytes word) {
  crack::Rule parsed;
  try {
    parsed = crack::parse_rule(rule);
  } catch (const std::invalid_argument& e) {
    throw ca::InvalidArgument(e.what());
  }
  const auto out = crack::apply_rule(parsed, std::string_view(static_cast<const char*>(word.data()), word.size()));
  if (!out) return std::nullopt;
  return as_bytes(*out);
}

}  // namespace

void register_crack_bindings(nb::module_& m) {
  m.def("_crack_run", &run, nb::arg("hash_file").none(), nb::arg("hash_lines"), nb::arg("mode").none(),
        nb::arg("wordlist"), nb::arg("rule_files"), nb::arg("rules"), nb::arg("engine"), nb::arg("threads"),
        nb::arg("batch"), nb::arg("skip"), nb::arg("limit").none(), nb::arg("known"), nb::arg("on_find").none(),
        nb::arg("on_progress").none());
  m.def("_crack_targets", &targets, nb::arg("hash_file").none(), nb::arg("hash_lines"), nb::arg("mode").none());
  m.def("_crack_rules_per_word", &rules_per_word, nb::arg("rule_files"), nb::arg("rules"));
  m.def("_crack_candidates", &candidates, nb::arg("wordlist"), nb::arg("rule_files"), nb::arg("rules"),
        nb::arg("skip"), nb::arg("limit").none());
  m.def("_crack_apply_rule", &apply_rule, nb::arg("rule"), nb::arg("word"));
}

}  // namespace pyca
