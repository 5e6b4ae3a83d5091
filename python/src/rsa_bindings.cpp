// RSA bindings: see rsa_bindings.hpp.
#include "rsa_bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "arg_error.hpp"
#include "byte_arg.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/rsa.hpp"
#include "cryptaccel/types.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;
namespace rsa = cryptaccel::rsa;

namespace pyca {
namespace {

// --- argument conversion -----------------------------------------------------------------------------------------

/// The digests RSA takes, as cryptaccel.new spells them ("sha1, sha224, ..."): SHA-1 and every hash of the library
/// that rsa::digest_size accepts (SHA-2, SHA-3; not SHAKE or SM3).
const std::string& rsa_digest_list() {
  static const std::string list = [] {
    std::string out = "sha1";
    for (const std::string& name : ca::hash_names()) {
      try {
        (void)rsa::digest_size(ca::parse_hash(name));
        out += ", " + name;
      } catch (const ca::InvalidArgument&) {
      }
    }
    return out;
  }();
  return list;
}

/// A digest name for RSA (`what`: "hash" or "mgf_hash", for the message). Refuses names RSA does not take, SHAKE
/// and SM3 included, with a message that lists the ones it does.
ca::HashAlgorithm parse_rsa_digest(std::string_view name, const char* what) {
  try {
    const ca::HashAlgorithm algorithm = rsa::parse_digest(name);
    (void)rsa::digest_size(algorithm);  // throws for SHAKE and SM3
    return algorithm;
  } catch (const ca::InvalidArgument&) {
    throw ca::InvalidArgument("unknown or unsupported RSA " + std::string(what) + " '" + std::string(name) +
                              "' (RSA accepts: " + rsa_digest_list() + ")");
  }
}

std::optional<ca::HashAlgorithm> parse_optional_hash(const std::optional<std::string>& name, const char* what) {
  if (!name) return std::nullopt;
  return parse_rsa_digest(*name, what);
}

/// The options of sign/verify; `engine` must outlive the result (SignOptions views it). `salt`: None, a number of
/// bytes (checked non-negative by the Python layer) or a word of openssl's rsa_pss_saltlen ("max", "auto", ...),
/// resolved per key by the library.
rsa::SignOptions sign_options(std::string_view padding, std::string_view hash, nb::handle salt,
                              const std::optional<std::string>& mgf_hash, bool prehashed, std::string_view engine) {
  rsa::SignOptions o;
  o.padding = rsa::parse_signature_padding(padding);
  o.hash = parse_rsa_digest(hash, "hash");
  if (nb::isinstance<nb::str>(salt)) rsa::set_pss_salt(o, nb::cast<std::string>(salt));
  else if (!salt.is_none()) o.salt_length = nb::cast<std::size_t>(salt);
  o.mgf_hash = parse_optional_hash(mgf_hash, "mgf_hash");
  o.prehashed = prehashed;
  o.engine = engine;
  return o;
}

/// The options of encrypt/decrypt; `label` and `engine` must outlive the result.
rsa::EncryptOptions encrypt_options(std::string_view padding, std::string_view hash,
                                    const std::optional<std::string>& mgf_hash, const ByteArg& label,
                                    std::string_view engine) {
  rsa::EncryptOptions o;
  o.padding = rsa::parse_encryption_padding(padding);
  o.hash = parse_rsa_digest(hash, "hash");
  o.mgf_hash = parse_optional_hash(mgf_hash, "mgf_hash");
  o.label = label.view();
  o.engine = engine;
  return o;
}

std::string_view as_text(const ByteArg& arg) {
  return {reinterpret_cast<const char*>(arg.view().data()), arg.size()};
}

/// Copies `data` into a Python bytes object and wipes `data` (private-key results: plaintexts).
nb::bytes take_bytes(ca::bytes& data) {
  nb::bytes out(data.data(), data.size());
  if (!data.empty()) ca::secure_wipe(data.data(), data.size());
  return out;
}

/// Each item of `keys` as a C++ key; the list keeps the Python objects (and so the C++ keys) alive.
template <class Key>
std::vector<const Key*> key_pointers(nb::list keys, const char* what) {
  std::vector<const Key*> out;
  out.reserve(nb::len(keys));
  for (std::size_t i = 0; i < nb::len(keys); ++i) {
    nb::handle item = keys[i];
    if (!nb::isinstance<Key>(item))
      throw ArgumentTypeError(std::string(what) + "[" + std::to_string(i) + "] must be an RSA " +
                              (std::is_same_v<Key, rsa::PrivateKey> ? "private" : "public") + " key");
    out.push_back(&nb::cast<const Key&>(item));
  }
  return out;
}

std::vector<ByteArg> byte_args(nb::list items, const char* what) {
  std::vector<ByteArg> out;
  out.reserve(nb::len(items));
  for (std::size_t i = 0; i < nb::len(items); ++i)
    out.emplace_back(items[i], (std::string(what) + "[" + std::to_string(i) + "]").c_str());
  return out;
}

void check_lengths(std::size_t keys, std::size_t n, const char* what) {
  if (keys != n)
    throw ca::InvalidArgument("keys has " + std::to_string(keys) + " items but " + what + " has " + std::to_string(n));
}

/// A failed job that is the caller's mistake (InvalidArgument) or an internal failure (Error), as an exception.
[[noreturn]] void raise_job(std::size_t i, ca::JobStatus status, const std::string& error, const char* fallback) {
  const std::string message = "job " + std::to_string(i) + ": " + (error.empty() ? std::string(fallback) : error);
  if (status == ca::JobStatus::invalid_argument) throw ca::InvalidArgument(message);
  throw ca::Error(message);
}

// --- keys --------------------------------------------------------------------------------------------------------

rsa::PrivateKey private_from_pem(nb::handle data, nb::handle password) {
  ByteArg pem(data, "data");
  std::optional<ByteArg> pw;
  if (!password.is_none()) pw.emplace(password, "password");
  nb::gil_scoped_release unlocked;  // an encrypted PEM runs a password-based KDF
  return rsa::PrivateKey::from_pem(as_text(pem), pw ? std::optional<std::string_view>(as_text(*pw)) : std::nullopt);
}

rsa::PrivateKey private_from_der(nb::handle data) {
  ByteArg der(data, "data");
  return rsa::PrivateKey::from_der(der.view());
}

rsa::PrivateKey private_generate(std::size_t bits, std::uint32_t e) {
  nb::gil_scoped_release unlocked;
  return rsa::PrivateKey::generate(bits, e);
}

std::string private_to_pem(const rsa::PrivateKey& key, nb::handle password) {
  std::optional<ByteArg> pw;
  if (!password.is_none()) pw.emplace(password, "password");
  nb::gil_scoped_release unlocked;
  return key.to_pem(pw ? std::optional<std::string_view>(as_text(*pw)) : std::nullopt);
}

rsa::PublicKey public_from_pem(nb::handle data) {
  ByteArg pem(data, "data");
  return rsa::PublicKey::from_pem(as_text(pem));
}

rsa::PublicKey public_from_der(nb::handle data) {
  ByteArg der(data, "data");
  return rsa::PublicKey::from_der(der.view());
}

rsa::PublicKey public_from_numbers(nb::handle n, nb::handle e) {
  ByteArg nn(n, "n");
  ByteArg ee(e, "e");
  return rsa::PublicKey::from_numbers(nn.view(), ee.view());
}

nb::bytes to_py(const ca::bytes& data) { return nb::bytes(data.data(), data.size()); }

// --- one at a time -----------------------------------------------------------------------------------------------

nb::bytes sign(const rsa::PrivateKey& key, nb::handle message, std::string_view padding, std::string_view hash,
               nb::handle salt_length, const std::optional<std::string>& mgf_hash, bool prehashed,
               const std::string& engine) {
  const rsa::SignOptions o = sign_options(padding, hash, salt_length, mgf_hash, prehashed, engine);
  ByteArg msg(message, "message");
  ca::bytes sig;
  {
    nb::gil_scoped_release unlocked;
    sig = rsa::sign(key, msg.view(), o);
  }
  return to_py(sig);
}

bool verify(const rsa::PublicKey& key, nb::handle message, nb::handle signature, std::string_view padding,
            std::string_view hash, nb::handle salt_length, const std::optional<std::string>& mgf_hash,
            bool prehashed, const std::string& engine) {
  const rsa::SignOptions o = sign_options(padding, hash, salt_length, mgf_hash, prehashed, engine);
  ByteArg msg(message, "message");
  ByteArg sig(signature, "signature");
  nb::gil_scoped_release unlocked;
  return rsa::verify(key, msg.view(), sig.view(), o);
}

nb::bytes encrypt(const rsa::PublicKey& key, nb::handle plaintext, std::string_view padding, std::string_view hash,
                  const std::optional<std::string>& mgf_hash, nb::handle label, const std::string& engine) {
  ByteArg lab(label, "label");
  const rsa::EncryptOptions o = encrypt_options(padding, hash, mgf_hash, lab, engine);
  ByteArg pt(plaintext, "plaintext");
  ca::bytes ct;
  {
    nb::gil_scoped_release unlocked;
    ct = rsa::encrypt(key, pt.view(), o);
  }
  return to_py(ct);
}

nb::bytes decrypt(const rsa::PrivateKey& key, nb::handle ciphertext, std::string_view padding, std::string_view hash,
                  const std::optional<std::string>& mgf_hash, nb::handle label, const std::string& engine) {
  ByteArg lab(label, "label");
  const rsa::EncryptOptions o = encrypt_options(padding, hash, mgf_hash, lab, engine);
  ByteArg ct(ciphertext, "ciphertext");
  ca::bytes pt;
  {
    nb::gil_scoped_release unlocked;
    pt = rsa::decrypt(key, ct.view(), o);
  }
  return take_bytes(pt);
}

// --- batches -----------------------------------------------------------------------------------------------------

nb::tuple sign_many(nb::list keys, nb::list messages, std::string_view padding, std::string_view hash,
                    nb::handle salt_length, const std::optional<std::string>& mgf_hash, bool prehashed,
                    const std::string& engine, std::size_t threads) {
  const rsa::SignOptions o = sign_options(padding, hash, salt_length, mgf_hash, prehashed, engine);
  const auto ks = key_pointers<rsa::PrivateKey>(keys, "keys");
  const std::vector<ByteArg> msgs = byte_args(messages, "messages");
  check_lengths(ks.size(), msgs.size(), "messages");

  std::vector<ca::bytes> sigs(msgs.size());
  std::vector<rsa::SignJob> jobs(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    sigs[i].assign(ks[i]->size(), 0);
    jobs[i].key = ks[i];
    jobs[i].message = msgs[i].view();
    jobs[i].signature = sigs[i];
  }
  ca::BatchOptions batch;
  batch.engine = engine;
  batch.threads = threads;
  ca::BatchReport report;
  {
    nb::gil_scoped_release unlocked;
    report = rsa::sign_batch(jobs, o, batch);
  }
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].status != ca::JobStatus::ok) raise_job(i, jobs[i].status, jobs[i].error, "signing failed");
  nb::list out;
  for (const ca::bytes& s : sigs) out.append(to_py(s));
  return nb::make_tuple(out, report.engine);
}

nb::tuple verify_many(nb::list keys, nb::list messages, nb::list signatures, std::string_view padding,
                      std::string_view hash, nb::handle salt_length,
                      const std::optional<std::string>& mgf_hash, bool prehashed, const std::string& engine,
                      std::size_t threads) {
  const rsa::SignOptions o = sign_options(padding, hash, salt_length, mgf_hash, prehashed, engine);
  const auto ks = key_pointers<rsa::PublicKey>(keys, "keys");
  const std::vector<ByteArg> msgs = byte_args(messages, "messages");
  const std::vector<ByteArg> sigs = byte_args(signatures, "signatures");
  check_lengths(ks.size(), msgs.size(), "messages");
  check_lengths(ks.size(), sigs.size(), "signatures");

  std::vector<rsa::VerifyJob> jobs(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    jobs[i].key = ks[i];
    jobs[i].message = msgs[i].view();
    jobs[i].signature = sigs[i].view();
  }
  ca::BatchOptions batch;
  batch.engine = engine;
  batch.threads = threads;
  ca::BatchReport report;
  {
    nb::gil_scoped_release unlocked;
    report = rsa::verify_batch(jobs, o, batch);
  }
  nb::list out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].status != ca::JobStatus::ok) raise_job(i, jobs[i].status, jobs[i].error, "verification failed");
    out.append(nb::bool_(jobs[i].valid));
  }
  return nb::make_tuple(out, report.engine);
}

nb::tuple decrypt_many(nb::list keys, nb::list ciphertexts, std::string_view padding, std::string_view hash,
                       const std::optional<std::string>& mgf_hash, nb::handle label, const std::string& engine,
                       std::size_t threads) {
  ByteArg lab(label, "label");
  const rsa::EncryptOptions o = encrypt_options(padding, hash, mgf_hash, lab, engine);
  const auto ks = key_pointers<rsa::PrivateKey>(keys, "keys");
  const std::vector<ByteArg> cts = byte_args(ciphertexts, "ciphertexts");
  check_lengths(ks.size(), cts.size(), "ciphertexts");

  std::vector<ca::bytes> pts(cts.size());
  std::vector<rsa::DecryptJob> jobs(cts.size());
  for (std::size_t i = 0; i < cts.size(); ++i) {
    pts[i].assign(ks[i]->size(), 0);
    jobs[i].key = ks[i];
    jobs[i].ciphertext = cts[i].view();
    jobs[i].plaintext = pts[i];
  }
  ca::BatchOptions batch;
  batch.engine = engine;
  batch.threads = threads;
  ca::BatchReport report;
  {
    nb::gil_scoped_release unlocked;
    report = rsa::decrypt_batch(jobs, o, batch);
  }
  // Wipes every plaintext buffer whatever happens below (an exception for one job must not leave the others).
  struct WipeAll {
    std::vector<ca::bytes>& v;
    ~WipeAll() {
      for (ca::bytes& b : v)
        if (!b.empty()) ca::secure_wipe(b.data(), b.size());
    }
  } wipe{pts};
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const ca::JobStatus s = jobs[i].status;
    if (s != ca::JobStatus::ok && s != ca::JobStatus::bad_decrypt) raise_job(i, s, jobs[i].error, "decryption failed");
  }
  nb::list out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].status != ca::JobStatus::ok) {
      out.append(nb::none());
      continue;
    }
    out.append(nb::bytes(pts[i].data(), jobs[i].plaintext_len));
  }
  return nb::make_tuple(out, report.engine);
}

nb::list modexp_many(nb::list bases, nb::handle exponent, nb::handle modulus, const std::string& engine,
                     std::size_t threads) {
  const std::vector<ByteArg> bs = byte_args(bases, "bases");
  ByteArg exp(exponent, "exponent");
  ByteArg mod(modulus, "modulus");
  std::vector<ca::bytes_view> views;
  views.reserve(bs.size());
  for (const ByteArg& b : bs) views.push_back(b.view());
  ca::BatchOptions batch;
  batch.engine = engine;
  batch.threads = threads;
  std::vector<ca::bytes> results;
  {
    nb::gil_scoped_release unlocked;
    results = rsa::modexp_batch(views, exp.view(), mod.view(), batch);
  }
  nb::list out;
  for (ca::bytes& r : results) out.append(take_bytes(r));  // the exponent may be a private one: results may be secret
  return out;
}

}  // namespace

void register_rsa_bindings(nb::module_& m) {
  nb::class_<rsa::PublicKey>(m, "_RsaPublicKey", "An RSA public key (use cryptaccel.rsa.PublicKey)")
      .def_static("from_pem", &public_from_pem, nb::arg("data").none())
      .def_static("from_der", &public_from_der, nb::arg("data").none())
      .def_static("from_numbers", &public_from_numbers, nb::arg("n").none(), nb::arg("e").none())
      .def_prop_ro("bits", &rsa::PublicKey::bits)
      .def_prop_ro("size", &rsa::PublicKey::size)
      .def("n", [](const rsa::PublicKey& k) { return to_py(k.n()); })
      .def("e", [](const rsa::PublicKey& k) { return to_py(k.e()); })
      .def("to_pem", &rsa::PublicKey::to_pem);

  nb::class_<rsa::PrivateKey>(m, "_RsaPrivateKey", "An RSA private key (use cryptaccel.rsa.PrivateKey)")
      .def_static("from_pem", &private_from_pem, nb::arg("data").none(), nb::arg("password").none())
      .def_static("from_der", &private_from_der, nb::arg("data").none())
      .def_static("generate", &private_generate, nb::arg("bits"), nb::arg("public_exponent"))
      .def_prop_ro("bits", &rsa::PrivateKey::bits)
      .def_prop_ro("size", &rsa::PrivateKey::size)
      .def("public_key", &rsa::PrivateKey::public_key)
      .def("to_pem", &private_to_pem, nb::arg("password").none());

  // .none() on the bytes-like arguments: None reaches ByteArg, whose message names the argument.
  m.def("_rsa_sign", &sign, nb::arg("key"), nb::arg("message").none(), nb::arg("padding"), nb::arg("hash"),
        nb::arg("salt_length").none(), nb::arg("mgf_hash").none(), nb::arg("prehashed"), nb::arg("engine"));
  m.def("_rsa_verify", &verify, nb::arg("key"), nb::arg("message").none(), nb::arg("signature").none(),
        nb::arg("padding"), nb::arg("hash"), nb::arg("salt_length").none(), nb::arg("mgf_hash").none(),
        nb::arg("prehashed"), nb::arg("engine"));
  m.def("_rsa_encrypt", &encrypt, nb::arg("key"), nb::arg("plaintext").none(), nb::arg("padding"), nb::arg("hash"),
        nb::arg("mgf_hash").none(), nb::arg("label").none(), nb::arg("engine"));
  m.def("_rsa_decrypt", &decrypt, nb::arg("key"), nb::arg("ciphertext").none(), nb::arg("padding"), nb::arg("hash"),
        nb::arg("mgf_hash").none(), nb::arg("label").none(), nb::arg("engine"));
  m.def("_rsa_sign_many", &sign_many, nb::arg("keys"), nb::arg("messages"), nb::arg("padding"), nb::arg("hash"),
        nb::arg("salt_length").none(), nb::arg("mgf_hash").none(), nb::arg("prehashed"), nb::arg("engine"),
        nb::arg("threads"), "-> (list[bytes], engine_name)");
  m.def("_rsa_verify_many", &verify_many, nb::arg("keys"), nb::arg("messages"), nb::arg("signatures"),
        nb::arg("padding"), nb::arg("hash"), nb::arg("salt_length").none(), nb::arg("mgf_hash").none(),
        nb::arg("prehashed"), nb::arg("engine"), nb::arg("threads"), "-> (list[bool], engine_name)");
  m.def("_rsa_decrypt_many", &decrypt_many, nb::arg("keys"), nb::arg("ciphertexts"), nb::arg("padding"),
        nb::arg("hash"), nb::arg("mgf_hash").none(), nb::arg("label"), nb::arg("engine"), nb::arg("threads"),
        "-> (list[bytes | None], engine_name)");
  m.def("_rsa_modexp_many", &modexp_many, nb::arg("bases"), nb::arg("exponent"), nb::arg("modulus"),
        nb::arg("engine"), nb::arg("threads"), "-> list[bytes]");
}

}  // namespace pyca
