// SHA-crypt bindings. Every call runs with the GIL released: one password hash is thousands of SHA-2 blocks
// (milliseconds), so other Python threads keep running. Password arguments are ByteArgs (copied and wiped unless
// they are immutable bytes).
#include "shacrypt_bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <algorithm>
#include <string>
#include <vector>

#include "byte_arg.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/shacrypt.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;

namespace pyca {
namespace {

/// The password argument `obj` (`what`: "password", "passwords[3]"), refused when it holds a NUL byte: crypt(3)
/// reads a C string and would hash only what comes before it, so the hash could not be checked by any other
/// implementation (passlib refuses such passwords too).
ByteArg password_arg(nb::handle obj, const std::string& what) {
  ByteArg pw(obj, what.c_str());
  const ca::bytes_view v = pw.view();
  if (std::find(v.begin(), v.end(), std::uint8_t{0}) != v.end())
    throw ca::InvalidArgument(what + " contains a NUL byte, which crypt(3) cannot hash (it reads a C string)");
  return pw;
}

ca::ShaCryptVariant parse_variant(int variant) {
  if (variant == 512 || variant == 6) return ca::ShaCryptVariant::sha512;
  if (variant == 256 || variant == 5) return ca::ShaCryptVariant::sha256;
  throw ca::InvalidArgument("unknown SHA-crypt variant " + std::to_string(variant) +
                            " (accepted: 512 or 6 for sha512crypt '$6$', 256 or 5 for sha256crypt '$5$')");
}

/// The setting for `salt` (None: a fresh random one) and `rounds`, checked as a hash string would be.
ca::ShaCryptSetting make_setting(ca::ShaCryptVariant variant, nb::handle salt, std::uint32_t rounds) {
  if (rounds < ca::kShaCryptMinRounds || rounds > ca::kShaCryptMaxRounds)
    throw ca::InvalidArgument("rounds " + std::to_string(rounds) + " outside SHA-crypt's 1000..999999999");
  if (salt.is_none()) return ca::shacrypt_random_setting(variant, rounds);
  ca::ShaCryptSetting s;
  s.variant = variant;
  s.rounds = rounds;
  s.rounds_explicit = rounds != ca::kShaCryptDefaultRounds;
  s.salt = nb::cast<std::string>(salt);
  return s;
}

std::string hash(nb::handle password, int variant, nb::handle salt, std::uint32_t rounds, const std::string& engine) {
  const ca::ShaCryptSetting setting = make_setting(parse_variant(variant), salt, rounds);
  const ByteArg pw = password_arg(password, "password");
  nb::gil_scoped_release release;
  return ca::shacrypt_hash(pw.view(), setting, engine);
}

std::string hash_setting(nb::handle password, const std::string& setting_string, const std::string& engine) {
  const ca::ShaCryptHash parsed = ca::parse_shacrypt(setting_string);
  const ByteArg pw = password_arg(password, "password");
  nb::gil_scoped_release release;
  return ca::shacrypt_hash(pw.view(), parsed.setting, engine);
}

bool verify(nb::handle password, const std::string& hash_string, const std::string& engine) {
  const ByteArg pw = password_arg(password, "password");
  nb::gil_scoped_release release;
  return ca::shacrypt_verify(pw.view(), hash_string, engine);
}

/// Hashes every password with the setting parsed from its entry of `settings` (one string each, or one for all),
/// in one batch; returns (hash strings, engine name).
nb::tuple hash_many(nb::list passwords, nb::list settings, const std::string& engine) {
  const std::size_t n = nb::len(passwords);
  const std::size_t ns = nb::len(settings);
  if (ns != 1 && ns != n)
    throw ca::InvalidArgument("settings must hold one string or one per password (got " + std::to_string(ns) +
                              " for " + std::to_string(n) + " passwords)");
  std::vector<ca::ShaCryptSetting> parsed;
  parsed.reserve(ns);
  for (std::size_t i = 0; i < ns; ++i) parsed.push_back(ca::parse_shacrypt(nb::cast<std::string>(settings[i])).setting);
  std::vector<ByteArg> args;
  args.reserve(n);
  std::vector<ca::bytes> digests(n);
  std::vector<ca::ShaCryptJob> jobs(n);
  for (std::size_t i = 0; i < n; ++i) {
    args.push_back(password_arg(passwords[i], "passwords[" + std::to_string(i) + "]"));
    const ca::ShaCryptSetting& s = parsed[ns == 1 ? 0 : i];
    digests[i].resize(s.variant == ca::ShaCryptVariant::sha512 ? 64 : 32);
    jobs[i] = ca::ShaCryptJob{args[i].view(), &s, digests[i]};
  }
  ca::BatchReport report;
  {
    nb::gil_scoped_release release;
    ca::BatchOptions options;
    options.engine = engine;
    report = ca::shacrypt_batch(jobs, options);
  }
  nb::list out;
  for (std::size_t i = 0; i < n; ++i) {
    if (jobs[i].status != ca::JobStatus::ok) throw ca::InvalidArgument("password " + std::to_string(i) + ": " + jobs[i].error);
    out.append(ca::shacrypt_format(*jobs[i].setting, digests[i]));
  }
  return nb::make_tuple(out, report.engine);
}

nb::dict parse(const std::string& text) {
  const ca::ShaCryptHash h = ca::parse_shacrypt(text);
  nb::dict d;
  d["variant"] = h.setting.variant == ca::ShaCryptVariant::sha512 ? 512 : 256;
  d["rounds"] = h.setting.rounds;
  d["rounds_explicit"] = h.setting.rounds_explicit;
  d["salt"] = h.setting.salt;
  d["digest"] = h.digest_size ? nb::object(nb::bytes(h.digest, h.digest_size)) : nb::none();
  return d;
}

}  // namespace

void register_shacrypt_bindings(nb::module_& m) {
  // .none() on the passwords: None reaches ByteArg, whose message names the argument.
  m.def("_shacrypt_hash", &hash, nb::arg("password").none(), nb::arg("variant"), nb::arg("salt").none(), nb::arg("rounds"),
        nb::arg("engine"), "_shacrypt_hash(password, variant, salt, rounds, engine) -> str");
  m.def("_shacrypt_hash_setting", &hash_setting, nb::arg("password").none(), nb::arg("setting"), nb::arg("engine"),
        "_shacrypt_hash_setting(password, setting, engine) -> str");
  m.def("_shacrypt_verify", &verify, nb::arg("password").none(), nb::arg("hash"), nb::arg("engine"),
        "_shacrypt_verify(password, hash, engine) -> bool");
  m.def("_shacrypt_hash_many", &hash_many, nb::arg("passwords"), nb::arg("settings"), nb::arg("engine"),
        "_shacrypt_hash_many(passwords, settings, engine) -> (list[str], engine_name)");
  m.def("_shacrypt_parse", &parse, nb::arg("hash"), "_shacrypt_parse(hash) -> dict");
}

}  // namespace pyca
