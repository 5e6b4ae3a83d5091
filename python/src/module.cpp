// cryptaccel._cryptaccel — the nanobind extension behind the `cryptaccel` Python package.
//
// This module is deliberately thin and private (every name starts with '_'): python/cryptaccel/__init__.py gives it
// keyword arguments, defaults and docstrings. What lives here:
//  - conversion of bytes-like arguments (ByteArg, byte_arg.hpp),
//  - GIL release around the C++ call when the data is larger than kReleaseGilAbove bytes,
//  - translation of cryptaccel::Error and its subclasses into the Python classes of cryptaccel._errors.
// The hash functions (cryptaccel.new, hash_many, keccak_f1600_batch) are bound in hash_bindings.cpp, SHA-crypt
// (cryptaccel.shacrypt) in shacrypt_bindings.cpp, cracking (cryptaccel.crack) in crack_bindings.cpp, GPU arrays (cryptaccel.cuda) in cuda_bindings.cpp,
// speed measurements (cryptaccel.bench) in bench_bindings.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "age_bindings.hpp"
#include "arg_error.hpp"
#include "bench_bindings.hpp"
#include "byte_arg.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/cryptaccel.hpp"
#include "cryptaccel/rsa.hpp"
#include "cuda_bindings.hpp"
#include "gil.hpp"
#include "hash_bindings.hpp"
#include "rsa_bindings.hpp"
#include "crack_bindings.hpp"
#include "shacrypt_bindings.hpp"
#include "stream_bindings.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;

namespace {

using pyca::kReleaseGilAbove;
using pyca::MaybeReleaseGil;

// --- exceptions --------------------------------------------------------------------------------------------------

/// The Python exception classes of cryptaccel._errors. Strong references that are never released: they must outlive
/// every call and must not be decref'd after interpreter shutdown.
struct ExceptionTypes {
  PyObject* error = nullptr;
  PyObject* invalid_argument = nullptr;
  PyObject* invalid_argument_type = nullptr;
  PyObject* authentication_failed = nullptr;
  PyObject* bad_decrypt = nullptr;
  PyObject* invalid_ciphertext = nullptr;
  PyObject* engine_unavailable = nullptr;
  PyObject* age_malformed_file = nullptr;
  PyObject* age_open_failed = nullptr;
};
ExceptionTypes g_exc;

PyObject* load_exception_type(const nb::module_& errors, const char* name) {
  nb::object type = errors.attr(name);
  return type.release().ptr();
}

/// Raises `type(what)` with the attribute `failure` set to the age test kit's name of `failure`.
void set_age_error(PyObject* type, const char* what, ca::age::Failure failure) {
  PyObject* exc = PyObject_CallFunction(type, "s", what);
  if (!exc) return;  // the call's own error stays set
  const std::string_view name = ca::age::failure_name(failure);
  PyObject* text = PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
  if (!text || PyObject_SetAttrString(exc, "failure", text) != 0) {
    Py_XDECREF(text);
    Py_DECREF(exc);
    return;
  }
  Py_DECREF(text);
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
}

void translate_cryptaccel_errors(const std::exception_ptr& p, void*) {
  // Most derived first. Exceptions that are neither cryptaccel::Error nor pyca::ArgumentTypeError propagate to
  // nanobind's other translators.
  try {
    std::rethrow_exception(p);
  } catch (const pyca::ArgumentTypeError& e) {
    PyErr_SetString(g_exc.invalid_argument_type, e.what());
  } catch (const ca::age::MalformedFile& e) {
    set_age_error(g_exc.age_malformed_file, e.what(), e.failure());
  } catch (const ca::age::OpenFailed& e) {
    set_age_error(g_exc.age_open_failed, e.what(), e.failure());
  } catch (const ca::InvalidArgument& e) {
    PyErr_SetString(g_exc.invalid_argument, e.what());
  } catch (const ca::AuthenticationFailed& e) {
    PyErr_SetString(g_exc.authentication_failed, e.what());
  } catch (const ca::BadDecrypt& e) {
    PyErr_SetString(g_exc.bad_decrypt, e.what());
  } catch (const ca::InvalidCiphertext& e) {
    PyErr_SetString(g_exc.invalid_ciphertext, e.what());
  } catch (const ca::EngineUnavailable& e) {
    PyErr_SetString(g_exc.engine_unavailable, e.what());
  } catch (const ca::Error& e) {
    PyErr_SetString(g_exc.error, e.what());
  }
}

}  // namespace

void pyca::set_python_error(const std::exception_ptr& p) noexcept {
  translate_cryptaccel_errors(p, nullptr);
  if (PyErr_Occurred()) return;
  try {
    std::rethrow_exception(p);
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_SystemError, "cryptaccel: an unknown C++ exception was raised");
  }
}

namespace {

// --- helpers -----------------------------------------------------------------------------------------------------

ca::Direction parse_direction(std::string_view text) {
  if (text == "encrypt") return ca::Direction::encrypt;
  if (text == "decrypt") return ca::Direction::decrypt;
  throw ca::InvalidArgument("unknown direction '" + std::string(text) + "' (use 'encrypt' or 'decrypt')");
}

ca::CipherSpec make_spec(std::string_view cipher, bool padding) {
  ca::CipherSpec spec = ca::CipherSpec::parse(cipher);
  spec.padding = padding;
  return spec;
}

/// The tag length every call defaults to; the only one accepted for a cipher without a tag (see check_mode_args).
constexpr std::size_t kDefaultTagLen = 16;

void check_tag_len(const ca::CipherSpec& spec, std::size_t tag_len) {
  if (spec.mode == ca::Mode::poly1305 && tag_len != 16)
    throw ca::InvalidArgument("invalid ChaCha20-Poly1305 tag length " + std::to_string(tag_len) + " (expected 16)");
  if (spec.is_aead() && (tag_len < 4 || tag_len > 16))
    throw ca::InvalidArgument("invalid GCM tag length " + std::to_string(tag_len) + " (expected 4..16 bytes)");
  if (!spec.is_aead() && tag_len != kDefaultTagLen)
    throw ca::InvalidArgument("tag_len is only valid with GCM ciphers and chacha20-poly1305 (" + spec.name() +
                              " has no tag)");
}

/// Refuses what the mode would silently ignore, as `cryptaccel enc` refuses --aad and --taglen without GCM: AAD
/// outside GCM and an IV with ECB (the C++ library ignores both). `job` prefixes the message ("job 3: ") in batches.
void check_iv_and_aad(const ca::CipherSpec& spec, std::size_t iv_size, std::size_t aad_size,
                      const std::string& job = "") {
  if (aad_size && !spec.is_aead())
    throw ca::InvalidArgument(job + "aad is only valid with GCM ciphers and chacha20-poly1305 (" + spec.name() +
                              " has no additional authenticated data)");
  if (iv_size && spec.mode == ca::Mode::ecb)
    throw ca::InvalidArgument(job + spec.name() + " takes no IV (got " + std::to_string(iv_size) +
                              " bytes; ECB uses none)");
}

/// Copies `data` into a new Python bytes object, then wipes `data` when asked (decrypted plaintext).
nb::bytes to_bytes(ca::bytes& data, bool wipe) {
  nb::bytes out(data.data(), data.size());
  if (wipe && !data.empty()) ca::secure_wipe(data.data(), data.size());
  return out;
}

// --- one-shot ----------------------------------------------------------------------------------------------------

nb::tuple one_shot(ca::Direction dir, std::string_view cipher, nb::handle key_obj, nb::handle data_obj,
                   nb::handle iv_obj, nb::handle aad_obj, std::size_t tag_len, bool padding, std::size_t xts_unit,
                   const std::string& engine) {
  const ca::CipherSpec spec = make_spec(cipher, padding);
  pyca::ByteArg key(key_obj, "key");
  pyca::ByteArg data(data_obj, "data");
  pyca::ByteArg iv(iv_obj, "iv");
  pyca::ByteArg aad(aad_obj, "aad");
  check_tag_len(spec, tag_len);
  check_iv_and_aad(spec, iv.size(), aad.size());

  ca::CipherParams params;
  params.key = key.view();
  params.iv = iv.view();
  params.aad = aad.view();
  params.tag_len = tag_len;
  params.xts_unit = xts_unit;

  // The result is written straight into a new bytes object (no intermediate buffer, no copy); a shorter result
  // (padding removed) shrinks it. A failed decryption leaves no plaintext in it: decrypt_into wipes what it wrote.
  const bool encrypting = dir == ca::Direction::encrypt;
  const std::size_t capacity = encrypting ? ca::encrypted_size(spec, data.size(), tag_len)
                               : spec.is_aead() ? data.size() - std::min(data.size(), tag_len)
                                                : data.size();
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(capacity));
  if (!out) throw nb::python_error();
  const ca::mutable_bytes buffer(reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(out)), capacity);
  std::string used;
  std::size_t produced = 0;
  try {
    MaybeReleaseGil gil(data.size() + aad.size() > kReleaseGilAbove);
    ca::prepare_fresh_output(buffer);  // a large new bytes object is fresh memory: map it on every core first
    produced = encrypting ? ca::encrypt_into(spec, params, data.view(), buffer, engine, &used)
                          : ca::decrypt_into(spec, params, data.view(), buffer, engine, &used);
  } catch (...) {
    Py_DECREF(out);
    throw;
  }
  if (produced < capacity) {
    if (!encrypting) ca::secure_wipe(buffer.data() + produced, capacity - produced);  // the padding block's bytes
    if (_PyBytes_Resize(&out, static_cast<Py_ssize_t>(produced)) != 0) throw nb::python_error();
  }
  return nb::make_tuple(nb::steal<nb::bytes>(out), used);
}

// --- batch -------------------------------------------------------------------------------------------------------

nb::tuple run_many(std::string_view cipher, std::string_view direction, nb::list keys, nb::list ivs, nb::list datas,
                   nb::list aads, std::size_t tag_len, bool padding, std::size_t xts_unit, const std::string& engine) {
  const ca::Direction dir = parse_direction(direction);
  const ca::CipherSpec spec = make_spec(cipher, padding);
  check_tag_len(spec, tag_len);
  const std::size_t n = nb::len(datas);
  if (nb::len(keys) != n || nb::len(ivs) != n || nb::len(aads) != n)
    throw ca::InvalidArgument("keys, ivs, datas and aads must have the same length (got " + std::to_string(nb::len(keys)) +
                              ", " + std::to_string(nb::len(ivs)) + ", " + std::to_string(n) + ", " +
                              std::to_string(nb::len(aads)) + ")");

  const bool aead = spec.is_aead();
  const bool encrypting = dir == ca::Direction::encrypt;

  std::vector<pyca::ByteArg> args;  // 4 per job: key, iv, data, aad
  args.reserve(4 * n);
  std::vector<ca::bytes> outs(n);
  std::vector<ca::bytes> tags(n);
  std::vector<ca::CipherJob> jobs;
  jobs.reserve(n);
  std::vector<std::size_t> job_of(n, SIZE_MAX);  // index into `jobs`; SIZE_MAX: not run (GCM input shorter than tag)
  std::size_t total = 0;

  for (std::size_t i = 0; i < n; ++i) {
    const std::string where = "[" + std::to_string(i) + "]";
    const pyca::ByteArg& key = args.emplace_back(keys[i], ("keys" + where).c_str());
    const pyca::ByteArg& iv = args.emplace_back(ivs[i], ("ivs" + where).c_str());
    const pyca::ByteArg& data = args.emplace_back(datas[i], ("datas" + where).c_str());
    const pyca::ByteArg& aad = args.emplace_back(aads[i], ("aads" + where).c_str());
    check_iv_and_aad(spec, iv.size(), aad.size(), "job " + std::to_string(i) + ": ");
    total += data.size() + aad.size();

    ca::bytes_view in = data.view();
    if (aead) {
      if (encrypting) {
        tags[i].resize(tag_len);
      } else {
        if (in.size() < tag_len) continue;  // cannot hold a tag: reported as a failed job (None)
        tags[i].assign(in.end() - static_cast<std::ptrdiff_t>(tag_len), in.end());
        in = in.first(in.size() - tag_len);
      }
    }
    outs[i].resize(encrypting ? ca::encrypted_size(spec, in.size(), tag_len) - (aead ? tag_len : 0) : in.size());
    ca::CipherJob job;
    job.key = key.view();
    job.iv = iv.view();
    job.in = in;
    job.out = outs[i];
    job.aad = aad.view();
    job.tag = tags[i];
    job_of[i] = jobs.size();
    jobs.push_back(std::move(job));
  }

  ca::BatchReport report;
  {
    MaybeReleaseGil gil(total > kReleaseGilAbove);
    ca::BatchOptions options;
    options.engine = engine;
    options.xts_unit = xts_unit;
    report = ca::run_batch(spec, dir, jobs, options);
  }

  // Arguments that are unusable are the caller's bug: raise for the first such job rather than return None.
  for (std::size_t i = 0; i < n; ++i) {
    if (job_of[i] == SIZE_MAX) continue;
    const ca::CipherJob& job = jobs[job_of[i]];
    if (job.status == ca::JobStatus::invalid_argument)
      throw ca::InvalidArgument("job " + std::to_string(i) + ": " + job.error);
    if (encrypting && job.status != ca::JobStatus::ok)
      throw ca::Error("job " + std::to_string(i) + ": " + (job.error.empty() ? "encryption failed" : job.error));
  }

  nb::list results;
  for (std::size_t i = 0; i < n; ++i) {
    if (job_of[i] == SIZE_MAX) {
      results.append(nb::none());
      continue;
    }
    const ca::CipherJob& job = jobs[job_of[i]];
    if (job.status != ca::JobStatus::ok) {  // decrypt: auth_failed or bad_decrypt
      results.append(nb::none());
      continue;
    }
    ca::bytes& out = outs[i];
    out.resize(job.out_len);
    if (encrypting && aead) out.insert(out.end(), tags[i].begin(), tags[i].end());
    results.append(to_bytes(out, !encrypting));
  }
  return nb::make_tuple(results, report.engine);
}

// --- introspection -----------------------------------------------------------------------------------------------

nb::list engines_list() {
  nb::list out;
  for (const ca::EngineInfo& e : ca::engines()) {
    nb::dict d;
    d["name"] = e.name;
    d["description"] = e.description;
    d["available"] = e.available;
    d["unavailable_reason"] = e.unavailable_reason;
    out.append(d);
  }
  return out;
}

nb::dict cipher_info(std::string_view cipher) {
  const ca::CipherSpec spec = ca::CipherSpec::parse(cipher);
  nb::dict d;
  d["name"] = spec.name();
  d["key_size"] = spec.key_size();
  d["iv_size"] = spec.iv_size();
  const bool chacha = spec.cipher == ca::BlockCipher::chacha20;
  d["block_size"] = chacha ? std::size_t{64} : std::size_t{16};  // ChaCha20: its keystream block
  d["aead"] = spec.is_aead();
  static constexpr const char* kModeNames[] = {"ecb", "cbc", "ctr", "gcm", "xts", "poly1305"};
  d["mode"] = kModeNames[static_cast<int>(spec.mode)];
  d["block_cipher"] = chacha ? "chacha20" : spec.cipher == ca::BlockCipher::sm4 ? "sm4" : "aes";
  return d;
}

nb::bytes xts_tweak(std::uint64_t n) {
  const auto t = ca::xts_tweak(n);
  return nb::bytes(t.data(), t.size());
}

}  // namespace

NB_MODULE(_cryptaccel, m) {
  m.doc() = "Private extension module of the cryptaccel package; use the functions of `cryptaccel` instead.";

  const nb::module_ errors = nb::module_::import_("cryptaccel._errors");
  g_exc.error = load_exception_type(errors, "Error");
  g_exc.invalid_argument = load_exception_type(errors, "InvalidArgument");
  g_exc.invalid_argument_type = load_exception_type(errors, "InvalidArgumentType");
  g_exc.authentication_failed = load_exception_type(errors, "AuthenticationFailed");
  g_exc.bad_decrypt = load_exception_type(errors, "BadDecrypt");
  g_exc.invalid_ciphertext = load_exception_type(errors, "InvalidCiphertext");
  g_exc.engine_unavailable = load_exception_type(errors, "EngineUnavailable");
  g_exc.age_malformed_file = load_exception_type(errors, "MalformedFile");
  g_exc.age_open_failed = load_exception_type(errors, "OpenFailed");
  nb::register_exception_translator(translate_cryptaccel_errors);

  m.attr("__version__") = ca::kVersion;
  m.attr("_built_with_cuda") = ca::kBuiltWithCuda;
  m.attr("_release_gil_above") = kReleaseGilAbove;

  // No .none() on the object arguments of _encrypt/_decrypt: it takes nanobind off its fast call path (+0.2 us per
  // call here). A None there gets nanobind's TypeError, which cryptaccel.encrypt turns into a plain message.
  m.def(
      "_encrypt",
      [](std::string_view cipher, nb::handle key, nb::handle data, nb::handle iv, nb::handle aad, std::size_t tag_len,
         bool padding, std::size_t xts_unit, const std::string& engine) {
        return one_shot(ca::Direction::encrypt, cipher, key, data, iv, aad, tag_len, padding, xts_unit, engine);
      },
      nb::arg("cipher"), nb::arg("key"), nb::arg("data"), nb::arg("iv"), nb::arg("aad"), nb::arg("tag_len"),
      nb::arg("padding"), nb::arg("xts_unit"), nb::arg("engine"),
      "_encrypt(cipher, key, data, iv, aad, tag_len, padding, xts_unit, engine) -> (bytes, engine_name)");
  m.def(
      "_decrypt",
      [](std::string_view cipher, nb::handle key, nb::handle data, nb::handle iv, nb::handle aad, std::size_t tag_len,
         bool padding, std::size_t xts_unit, const std::string& engine) {
        return one_shot(ca::Direction::decrypt, cipher, key, data, iv, aad, tag_len, padding, xts_unit, engine);
      },
      nb::arg("cipher"), nb::arg("key"), nb::arg("data"), nb::arg("iv"), nb::arg("aad"), nb::arg("tag_len"),
      nb::arg("padding"), nb::arg("xts_unit"), nb::arg("engine"),
      "_decrypt(cipher, key, data, iv, aad, tag_len, padding, xts_unit, engine) -> (bytes, engine_name)");
  m.def("_run_many", &run_many, nb::arg("cipher"), nb::arg("direction"), nb::arg("keys"), nb::arg("ivs"),
        nb::arg("datas"), nb::arg("aads"), nb::arg("tag_len"), nb::arg("padding"), nb::arg("xts_unit"),
        nb::arg("engine"),
        "_run_many(cipher, direction, keys, ivs, datas, aads, tag_len, padding, xts_unit, engine) -> "
        "(list[bytes | None], engine_name)");
  m.def(
      "_check_mode_args",
      [](std::string_view cipher, nb::handle iv_obj, nb::handle aad_obj, std::size_t tag_len) {
        const ca::CipherSpec spec = ca::CipherSpec::parse(cipher);
        check_tag_len(spec, tag_len);
        check_iv_and_aad(spec, pyca::ByteArg(iv_obj, "iv").size(), pyca::ByteArg(aad_obj, "aad").size());
      },
      nb::arg("cipher"), nb::arg("iv").none(), nb::arg("aad").none(), nb::arg("tag_len"),
      "_check_mode_args(cipher, iv, aad, tag_len): raises as _encrypt would for an IV, AAD or tag length that the "
      "cipher's mode does not take (the checks of streams and files, which run before the stream exists)");
  m.def("_engines", &engines_list, "_engines() -> list[dict]");
  m.def(
      "_resolve_engine",
      [](const std::string& engine, std::string_view cipher, std::string_view direction) {
        return ca::resolve_engine(engine, ca::CipherSpec::parse(cipher), parse_direction(direction));
      },
      nb::arg("engine"), nb::arg("cipher"), nb::arg("direction"), "_resolve_engine(engine, cipher, direction) -> str");
  m.def("_cipher_names", &ca::cipher_names, "_cipher_names() -> list[str]");
  m.def("_cipher_info", &cipher_info, nb::arg("cipher"), "_cipher_info(cipher) -> dict");
  m.def("_xts_tweak", &xts_tweak, nb::arg("n"), "_xts_tweak(n) -> bytes");

  pyca::register_hash_bindings(m);
  pyca::register_stream_bindings(m);
  pyca::register_rsa_bindings(m);
  pyca::register_shacrypt_bindings(m);
  pyca::register_crack_bindings(m);
  pyca::register_age_bindings(m);
  pyca::register_cuda_bindings(m);
  pyca::register_bench_bindings(m);
}
