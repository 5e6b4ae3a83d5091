// `cryptaccel pkeyutl --batch`: see pkeyutl_batch.hpp for the manifest and result formats. This file reads the
// manifest, loads each line's key and inputs and writes the results; the library's rsa::run_mixed_batch groups and
// runs the operations.
#include "pkeyutl_batch.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cryptaccel/atomic_output.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hex.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/rsa_batch.hpp"
#include "pkeyutl_io.hpp"

namespace cryptaccel::cli::pkeyutl {
namespace {

using Json = nlohmann::json;

/// One manifest line: what it asks for, then what happened.
struct Line {
  std::size_t number = 0;
  Op op = Op::sign;
  std::string key_path;
  KeySource key_source = KeySource::private_key;
  KeyForm keyform = KeyForm::detect;
  std::optional<std::string> passin;
  std::string in_path;
  std::optional<bytes> in_inline;
  std::string out_path;
  std::string sig_path;
  std::optional<bytes> sig_inline;
  CryptoSettings crypto;

  const LoadedKey* key = nullptr;
  std::unique_ptr<AtomicOutput> output;
  bytes input, signature, result;
  rsa::MixedJob job;  // set by prepare(): the operation, key, settings and buffers the library runs
  bool ok = false, verified = false;
  std::string error, engine;

  ~Line() {
    if (!result.empty()) secure_wipe(result.data(), result.size());
    if (!input.empty()) secure_wipe(input.data(), input.size());
  }
};

std::string text_field(const Json& value, const std::string& name, std::size_t number) {
  if (!value.is_string())
    throw InvalidArgument("manifest line " + std::to_string(number) + ": \"" + name + "\" must be a string");
  return value.get<std::string>();
}

bool bool_field(const Json& value, const std::string& name, std::size_t number) {
  if (!value.is_boolean())
    throw InvalidArgument("manifest line " + std::to_string(number) + ": \"" + name + "\" must be true or false");
  return value.get<bool>();
}

bytes hex_field(const Json& value, const std::string& name, std::size_t number) {
  try {
    return from_hex(text_field(value, name, number));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("manifest line " + std::to_string(number) + ": \"" + name + "\": " + e.what());
  }
}

/// Parses one manifest line over the command line's defaults. Throws InvalidArgument (the manifest is malformed).
std::unique_ptr<Line> parse_line(const std::string& text, std::size_t number, const Options& defaults) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::exception& e) {  // parse_error, and out_of_range for a number beyond a double (1e999)
    throw InvalidArgument("manifest line " + std::to_string(number) + ": not JSON (" + e.what() + ")");
  }
  if (!doc.is_object()) throw InvalidArgument("manifest line " + std::to_string(number) + ": not a JSON object");
  auto line = std::make_unique<Line>();
  line->number = number;
  line->op = defaults.op;
  line->key_path = defaults.key_path;
  line->key_source = defaults.key_source;
  line->keyform = defaults.keyform;
  line->passin = defaults.passin;
  line->crypto = defaults.crypto;
  line->in_path = "\x01";  // "not given": stdin cannot serve many lines
  std::optional<bool> pubin, certin;
  for (const auto& [name, value] : doc.items()) {
    try {
      if (name == "op") {
        line->op = parse_op(text_field(value, name, number));
      } else if (name == "inkey") {
        line->key_path = text_field(value, name, number);
      } else if (name == "pubin") {
        pubin = bool_field(value, name, number);
      } else if (name == "certin") {
        certin = bool_field(value, name, number);
      } else if (name == "keyform") {
        const std::string form = text_field(value, name, number);
        if (form == "PEM" || form == "pem") {
          line->keyform = KeyForm::pem;
        } else if (form == "DER" || form == "der") {
          line->keyform = KeyForm::der;
        } else {
          throw InvalidArgument("\"keyform\" must be \"PEM\" or \"DER\"");
        }
      } else if (name == "passin") {
        line->passin = text_field(value, name, number);
      } else if (name == "in") {
        line->in_path = text_field(value, name, number);
      } else if (name == "in_hex") {
        line->in_inline = hex_field(value, name, number);
      } else if (name == "out") {
        line->out_path = text_field(value, name, number);
      } else if (name == "sigfile") {
        line->sig_path = text_field(value, name, number);
      } else if (name == "sig_hex") {
        line->sig_inline = hex_field(value, name, number);
      } else if (name == "rawin") {
        line->crypto.rawin = bool_field(value, name, number);
      } else if (name == "digest") {
        apply_pkeyopt(line->crypto, "digest:" + text_field(value, name, number));
      } else if (name == "pkeyopt") {
        if (!value.is_array()) throw InvalidArgument("\"pkeyopt\" must be a list of \"NAME:VALUE\" strings");
        for (const Json& item : value) apply_pkeyopt(line->crypto, text_field(item, name, number));
      } else {
        throw InvalidArgument("unknown field \"" + name + "\"");
      }
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      if (what.rfind("manifest line", 0) == 0) throw;
      throw InvalidArgument("manifest line " + std::to_string(number) + ": " + what);
    }
  }
  // "pubin" and "certin" override the command line's -pubin / -certin; false means a private key again.
  if (pubin && certin && *pubin && *certin)
    throw InvalidArgument("manifest line " + std::to_string(number) + ": both \"pubin\" and \"certin\"");
  const auto apply = [&](const std::optional<bool>& flag, KeySource source) {
    if (flag && *flag) {
      line->key_source = source;
    } else if (flag && line->key_source == source) {
      line->key_source = KeySource::private_key;
    }
  };
  apply(pubin, KeySource::public_key);
  apply(certin, KeySource::certificate);
  if (line->in_path == "\x01") {
    line->in_path.clear();
    if (!line->in_inline) throw InvalidArgument("manifest line " + std::to_string(number) + ": no \"in\" or \"in_hex\"");
  } else if (line->in_inline) {
    throw InvalidArgument("manifest line " + std::to_string(number) + ": both \"in\" and \"in_hex\"");
  }
  if (line->op == Op::verify && line->sig_path.empty() && !line->sig_inline)
    throw InvalidArgument("manifest line " + std::to_string(number) + ": verify needs \"sigfile\" or \"sig_hex\"");
  if (line->op != Op::verify && (!line->sig_path.empty() || line->sig_inline))
    throw InvalidArgument("manifest line " + std::to_string(number) + ": a signature is only for verify");
  if (line->op == Op::verify && !line->out_path.empty())
    throw InvalidArgument("manifest line " + std::to_string(number) + ": verify has no \"out\"");
  return line;
}

rsa::Operation operation_of(Op op) {
  switch (op) {
    case Op::sign: return rsa::Operation::sign;
    case Op::verify: return rsa::Operation::verify;
    case Op::verifyrecover: return rsa::Operation::verify_recover;
    case Op::encrypt: return rsa::Operation::encrypt;
    case Op::decrypt: return rsa::Operation::decrypt;
  }
  return rsa::Operation::sign;
}

/// Loads keys once per (file, pubin, passin); a failure is remembered and reported for every line that uses it.
class KeyCache {
 public:
  const LoadedKey& get(const Line& line) {
    const std::string id = line.key_path + '\0' + std::to_string(static_cast<int>(line.key_source)) + '\0' +
                           std::to_string(static_cast<int>(line.keyform)) + '\0' + line.passin.value_or("");
    auto it = entries_.find(id);
    if (it == entries_.end()) {
      Entry entry;
      try {
        entry.key = std::make_unique<LoadedKey>(load_key(line.key_path, line.key_source, line.keyform, line.passin));
      } catch (const std::exception& e) {
        entry.error = e.what();
      }
      it = entries_.emplace(id, std::move(entry)).first;
    }
    if (!it->second.key) throw InvalidArgument(it->second.error);
    return *it->second.key;
  }

 private:
  struct Entry {
    std::unique_ptr<LoadedKey> key;
    std::string error;
  };
  std::map<std::string, Entry> entries_;
};

/// Loads the key and the inputs of a line, checks its settings for the key and sets up its job; throws with the
/// line's error.
void prepare(Line& line, KeyCache& keys, const std::string& engine) {
  if ((line.op == Op::sign || line.op == Op::decrypt) && line.key_source != KeySource::private_key)
    throw InvalidArgument(std::string(op_name(line.op)) + " needs a private key (not " +
                          (line.key_source == KeySource::certificate ? "certin" : "pubin") + ")");
  line.key = &keys.get(line);
  const KeyTraits traits = key_traits(*line.key);
  rsa::MixedJob& job = line.job;
  job.op = operation_of(line.op);
  switch (line.op) {  // checks the settings for the key; the library groups lines whose settings are the same
    case Op::sign:
    case Op::verify:
      job.sign = sign_options(line.crypto, traits, line.op == Op::sign, engine);
      break;
    case Op::encrypt:
    case Op::decrypt:
      job.encrypt = encrypt_options(line.crypto, traits, engine);
      break;
    case Op::verifyrecover:
      job.recover = recover_options(line.crypto, traits);
      break;
  }
  if (!line.out_path.empty()) line.output = std::make_unique<AtomicOutput>(line.out_path);
  line.input = line.in_inline ? *line.in_inline : read_input(line.in_path);
  if (line.op == Op::verify) line.signature = line.sig_inline ? *line.sig_inline : read_input(line.sig_path);
  if (line.op != Op::verify) line.result.assign(line.key->public_key.size(), 0);
  job.private_key = line.key->private_key ? &*line.key->private_key : nullptr;
  job.public_key = &line.key->public_key;
  job.input = line.input;
  job.signature = line.signature;
  job.output = line.result;
}

}  // namespace

void check_manifest_line(const std::string& text, std::size_t number, const Options& defaults) {
  (void)parse_line(text, number, defaults);
}

int run_batch(const Options& options) {
  if (!options.in_path.empty() || !options.out_path.empty() || !options.sig_path.empty())
    throw InvalidArgument("with --batch, -in, -out and -sigfile belong in the manifest's lines");
  const bytes manifest = read_input(options.batch_path);
  std::vector<std::unique_ptr<Line>> lines;
  {
    std::size_t number = 0;
    std::size_t start = 0;
    const std::string text(manifest.begin(), manifest.end());
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string row = text.substr(start, end - start);
      start = end + 1;
      ++number;
      if (!row.empty() && row.back() == '\r') row.pop_back();
      if (row.find_first_not_of(" \t") == std::string::npos || row[row.find_first_not_of(" \t")] == '#') continue;
      lines.push_back(parse_line(row, number, options));
    }
  }

  KeyCache keys;
  std::vector<Line*> prepared;
  for (auto& line : lines) {
    try {
      prepare(*line, keys, options.engine);
    } catch (const std::exception& e) {
      line->error = e.what();
      continue;
    }
    prepared.push_back(line.get());
  }
  std::vector<rsa::MixedJob> jobs;
  jobs.reserve(prepared.size());
  for (const Line* line : prepared) jobs.push_back(line->job);
  BatchOptions batch;
  batch.engine = options.engine;
  batch.threads = options.threads;
  const rsa::MixedBatchReport report = rsa::run_mixed_batch(jobs, batch);
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    Line& line = *prepared[i];
    const rsa::MixedJob& job = jobs[i];
    line.ok = job.status == JobStatus::ok;
    line.verified = line.ok && job.verified;
    line.engine = job.engine;
    line.error = job.error;
    if (line.ok) line.result.resize(job.output_len);
  }

  bool all_ok = true;
  for (auto& line : lines) {
    Json r;
    r["line"] = line->number;
    r["op"] = std::string(op_name(line->op));
    if (line->ok && line->output) {
      try {
        line->output->commit(line->result);
        r["out"] = line->out_path;
      } catch (const std::exception& e) {
        line->ok = false;
        line->error = e.what();
      }
    } else if (line->ok && line->op != Op::verify) {
      r["out_hex"] = to_hex(line->result);
    }
    r["ok"] = line->ok;
    if (line->op == Op::verify) r["verified"] = line->verified;
    if (!line->engine.empty()) r["engine"] = line->engine;
    if (!line->ok) r["error"] = line->error;
    all_ok = all_ok && line->ok && (line->op != Op::verify || line->verified);
    std::printf("%s\n", r.dump().c_str());
  }
  std::fflush(stdout);
  if (options.verbose)
    std::fprintf(stderr, "cryptaccel pkeyutl: %zu operations in %zu batches\n", lines.size(), report.groups);
  return all_ok ? 0 : 1;
}

}  // namespace cryptaccel::cli::pkeyutl
