// age bindings. Encryption and decryption run with the GIL released; the stream forms take it back only to call the
// Python reader and writer (one call per batch of chunks, megabytes at a time).
#include "age_bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "byte_arg.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;
namespace age = cryptaccel::age;

namespace pyca {
namespace {

age::EngineOptions engine_options(const std::string& engine, std::size_t threads) {
  age::EngineOptions run;
  run.engine = engine;
  run.threads = threads;
  return run;
}

age::EncryptOptions encrypt_options(const std::vector<std::string>& recipients, const std::optional<std::string>& pass,
                                    unsigned work_factor, bool armor) {
  age::EncryptOptions o;
  for (const std::string& r : recipients) o.recipients.push_back(age::Recipient::parse(r));
  if (pass) o.passphrase = *pass;
  o.scrypt_log2_n = work_factor;
  o.armor = armor;
  return o;
}

age::DecryptOptions decrypt_options(const std::vector<std::string>& identities, const std::optional<std::string>& pass,
                                    unsigned max_work_factor, std::optional<bool> armored) {
  age::DecryptOptions o;
  o.armored = armored;
  for (const std::string& i : identities) o.identities.push_back(age::Identity::parse(i));
  if (pass) o.passphrase = *pass;
  o.max_scrypt_log2_n = max_work_factor;
  return o;
}

nb::bytes to_py(ca::bytes& b) {
  nb::bytes out(b.data(), b.size());
  ca::secure_wipe(b.data(), b.size());
  return out;
}

/// A StreamReader over a Python `readinto`-style callable: reader(n) returns up to n bytes, b"" at the end. Called
/// with the GIL taken back; repeated until `out` is full or the reader is exhausted.
ca::StreamReader python_reader(nb::callable reader) {
  return [reader](ca::mutable_bytes out) -> std::size_t {
    nb::gil_scoped_acquire gil;
    std::size_t done = 0;
    while (done < out.size()) {
      nb::object piece = reader(out.size() - done);
      const ByteArg b(piece, "what read() returned");
      if (b.size() == 0) break;
      if (b.size() > out.size() - done) throw ca::InvalidArgument("read(n) returned more than n bytes");
      std::memcpy(out.data() + done, b.view().data(), b.size());
      done += b.size();
    }
    return done;
  };
}

ca::StreamSink python_writer(nb::callable writer) {
  return [writer](ca::bytes_view data) {
    nb::gil_scoped_acquire gil;
    writer(nb::bytes(data.data(), data.size()));
  };
}

}  // namespace

void register_age_bindings(nb::module_& m) {
  m.def("_age_generate", [] { return age::Identity::generate().to_string(); });
  m.def("_age_recipient_of", [](const std::string& identity) {
    return age::Identity::parse(identity).recipient().to_string();
  });
  m.def("_age_check_recipient", [](const std::string& r) { return age::Recipient::parse(r).to_string(); });
  m.def("_age_parse_identities", [](const std::string& text) {
    std::vector<std::string> out;
    for (const age::Identity& id : age::parse_identities(text)) out.push_back(id.to_string());
    return out;
  });
  m.def("_age_parse_recipients", [](const std::string& text) {
    std::vector<std::string> out;
    for (const age::Recipient& r : age::parse_recipients(text)) out.push_back(r.to_string());
    return out;
  });
  m.def("_age_identity_file", [](const std::string& identity) {
    return age::identity_file(age::Identity::parse(identity));
  });
  m.def("_age_encrypt",
        [](nb::handle data, const std::vector<std::string>& recipients, const std::optional<std::string>& pass,
           unsigned work_factor, bool armor, const std::string& engine, std::size_t threads) {
          const ByteArg in(data, "data");
          age::EncryptOptions o = encrypt_options(recipients, pass, work_factor, armor);
          o.run = engine_options(engine, threads);
          ca::bytes out;
          {
            nb::gil_scoped_release release;
            out = age::encrypt(in.view(), o);
          }
          return nb::bytes(out.data(), out.size());
        });
  m.def("_age_decrypt",
        [](nb::handle data, const std::vector<std::string>& identities, const std::optional<std::string>& pass,
           unsigned max_work_factor, std::optional<bool> armored, const std::string& engine, std::size_t threads) {
          const ByteArg in(data, "data");
          age::DecryptOptions o = decrypt_options(identities, pass, max_work_factor, armored);
          o.run = engine_options(engine, threads);
          ca::bytes out;
          {
            nb::gil_scoped_release release;
            out = age::decrypt(in.view(), o);
          }
          return to_py(out);
        });
  m.def("_age_encrypt_io",
        [](nb::callable reader, nb::callable writer, const std::vector<std::string>& recipients,
           const std::optional<std::string>& pass, unsigned work_factor, bool armor, const std::string& engine,
           std::size_t threads) {
          age::EncryptOptions o = encrypt_options(recipients, pass, work_factor, armor);
          o.run = engine_options(engine, threads);
          const ca::StreamReader read = python_reader(reader);
          const ca::StreamSink write = python_writer(writer);
          nb::gil_scoped_release release;
          age::encrypt(read, write, o);
        });
  m.def("_age_decrypt_io",
        [](nb::callable reader, nb::callable writer, const std::vector<std::string>& identities,
           const std::optional<std::string>& pass, unsigned max_work_factor, std::optional<bool> armored,
           const std::string& engine, std::size_t threads) {
          age::DecryptOptions o = decrypt_options(identities, pass, max_work_factor, armored);
          o.run = engine_options(engine, threads);
          const ca::StreamReader read = python_reader(reader);
          const ca::StreamSink write = python_writer(writer);
          nb::gil_scoped_release release;
          age::decrypt(read, write, o);
        });
  m.def("_age_needs_passphrase", [](nb::handle start) {
    const ByteArg b(start, "start");
    return age::needs_passphrase(b.view());
  });
}

}  // namespace pyca
