// Hash bindings: see hash_bindings.hpp.
//
// Inputs are read in place through the buffer protocol (HeldBuffer), not copied: a held buffer cannot be resized or
// freed by its owner (bytearray, mmap and numpy refuse while an export exists), so the C++ code may read it with the
// GIL released. A concurrent writer can change the bytes being hashed, exactly as with hashlib; it cannot make the
// extension read freed memory.
//
// Each hash object has a mutex, as hashlib's objects do, because update() of a large input runs without the GIL: two
// Python threads sharing one hash object must not run Hasher::update at the same time. The mutex is only ever taken
// by a thread that does not hold the GIL, or with try_lock (Locked below), so the GIL and the mutex cannot deadlock.
// As in hashlib, an object is only locked once it has been used without the GIL (PyHash::use_mutex): until then the
// GIL alone serialises its use, and a small update() or digest() pays for no lock.
#include "hash_bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arg_error.hpp"
#include "cryptaccel/cryptaccel.hpp"
#include "gil.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;

namespace pyca {
namespace {

// --- buffers -----------------------------------------------------------------------------------------------------

/// A bytes-like argument, viewed in place for the lifetime of this object (see the file comment).
class HeldBuffer {
 public:
  /// `what` names the argument in error messages ("data"; with `index`, "messages[3]"): the name is only formatted
  /// when there is an error, so a batch of many small messages pays nothing for it. A bytes object is read directly
  /// (no buffer protocol round trip).
  HeldBuffer(nb::handle obj, const char* what, std::size_t index = kNoIndex) {
    if (PyBytes_CheckExact(obj.ptr())) {
      view_.buf = PyBytes_AS_STRING(obj.ptr());
      view_.len = PyBytes_GET_SIZE(obj.ptr());
      return;  // not held: nothing to release (the caller keeps the object alive)
    }
    if (PyUnicode_Check(obj.ptr()))
      throw ArgumentTypeError(name(what, index) + ": strings must be encoded before hashing");
    if (!PyObject_CheckBuffer(obj.ptr()))
      throw ArgumentTypeError(name(what, index) + " must be a bytes-like object, not '" + Py_TYPE(obj.ptr())->tp_name +
                              "'");
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) {
      PyErr_Clear();
      throw ArgumentTypeError(name(what, index) + " must be a C-contiguous bytes-like object");
    }
    held_ = true;
  }
  ~HeldBuffer() {
    if (held_) PyBuffer_Release(&view_);  // always destroyed with the GIL held
  }
  HeldBuffer(HeldBuffer&& other) noexcept : view_(other.view_), held_(other.held_) { other.held_ = false; }
  HeldBuffer(const HeldBuffer&) = delete;
  HeldBuffer& operator=(const HeldBuffer&) = delete;
  HeldBuffer& operator=(HeldBuffer&&) = delete;

  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);

  ca::bytes_view view() const {
    return {static_cast<const std::uint8_t*>(view_.buf), static_cast<std::size_t>(view_.len)};
  }
  std::size_t size() const { return static_cast<std::size_t>(view_.len); }

 private:
  static std::string name(const char* what, std::size_t index) {
    return index == kNoIndex ? std::string(what) : std::string(what) + "[" + std::to_string(index) + "]";
  }

  Py_buffer view_{};
  bool held_ = false;
};

/// A new, uninitialised bytes object of `n` bytes (MemoryError when it cannot be allocated).
nb::bytes new_bytes(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<Py_ssize_t>::max())) throw std::bad_alloc();
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
  if (!out) throw nb::python_error();
  return nb::steal<nb::bytes>(out);
}

/// `obj` as a fast sequence (list or tuple; other iterables are copied into a list). An object that is not iterable
/// raises ArgumentTypeError with `message` and its type; an error raised while iterating propagates unchanged.
nb::object as_sequence(nb::handle obj, const std::string& message) {
  nb::object seq = nb::steal(PySequence_Fast(obj.ptr(), message.c_str()));
  if (seq.is_valid()) return seq;
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw nb::python_error();
  PyErr_Clear();
  throw ArgumentTypeError(message + ", not '" + Py_TYPE(obj.ptr())->tp_name + "'");
}

std::uint8_t* bytes_data(nb::bytes& b) { return reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(b.ptr())); }

// --- hash objects ------------------------------------------------------------------------------------------------

/// The object behind cryptaccel.Hash (and HashXOF, for SHAKE): one Hasher and the mutex that serialises its use.
struct PyHash {
  PyHash(ca::HashAlgorithm algorithm, std::string_view engine) : hasher(algorithm, engine) {}
  explicit PyHash(const ca::Hasher& other) : hasher(other) {}
  virtual ~PyHash() = default;
  PyHash(const PyHash&) = delete;
  PyHash& operator=(const PyHash&) = delete;

  ca::Hasher hasher;
  std::mutex mutex;  ///< serialises use of `hasher` (see the file comment), once use_mutex is set
  /// Set, with the GIL held, before the first use of `hasher` without the GIL; read only with the GIL held. While it
  /// is false no thread can be using `hasher` without the GIL, so a thread that holds the GIL needs no lock.
  bool use_mutex = false;
};

/// A SHAKE object: the same state; only the Python methods differ (digest and hexdigest take a length).
struct PyHashXOF final : PyHash {
  using PyHash::PyHash;
};

/// The Python types Hash and HashXOF (set by register_hash_bindings, alive as long as the module).
PyTypeObject* g_hash_type = nullptr;
PyTypeObject* g_hash_xof_type = nullptr;

/// A new Hash object (HashXOF when `xof`) whose PyHash (PyHashXOF) is built from `args` in place, inside the Python
/// object: no separate heap allocation and no look-up of the dynamic type, as nb::cast(new PyHash) had. The object is
/// not ready yet: the caller may still feed the hasher, then calls nb::inst_mark_ready. If the construction throws,
/// the object is freed unbuilt (nanobind does not run the destructor of an instance that is not ready).
template <class... Args>
std::pair<nb::object, PyHash*> emplace_hash(bool xof, const Args&... args) {
  nb::object obj = nb::inst_alloc(xof ? g_hash_xof_type : g_hash_type);
  void* storage = nb::inst_ptr<void>(obj);
  PyHash* h = xof ? static_cast<PyHash*>(new (storage) PyHashXOF(args...)) : new (storage) PyHash(args...);
  return {std::move(obj), h};
}

/// A new hash object for `algorithm` on `engine`, fed with `data`: the GIL is released only for inputs over
/// kReleaseGilAbove bytes (giving it up and taking it back costs about 0.1 us, as much as hashing 16 bytes).
nb::object new_hash(ca::HashAlgorithm algorithm, std::string_view engine, ca::bytes_view data) {
  auto [obj, h] = emplace_hash(ca::hash_info(algorithm).xof, algorithm, engine);
  if (data.size() > kReleaseGilAbove) {
    nb::gil_scoped_release release;  // nobody else can see the object yet: no lock needed
    h->hasher.update(data);
  } else if (!data.empty()) {
    h->hasher.update(data);
  }
  nb::inst_mark_ready(obj);
  return std::move(obj);
}

/// Holds a PyHash's mutex if it has ever been used without the GIL (use_mutex); called with the GIL held. Waits
/// without the GIL if another thread has the mutex (that thread is inside a GIL-released update and may take a while),
/// as hashlib's ENTER_HASHLIB does.
class Locked {
 public:
  explicit Locked(PyHash& h) {
#ifndef Py_GIL_DISABLED  // (a free-threaded build has no GIL to rely on: always lock there)
    if (!h.use_mutex) return;  // nobody has used it without the GIL: the GIL we hold serialises its use
#endif
    lock_ = std::unique_lock<std::mutex>(h.mutex, std::try_to_lock);
    if (!lock_.owns_lock()) {
      nb::gil_scoped_release release;
      lock_.lock();
    }
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

void hash_update(PyHash& self, nb::handle data) {
  HeldBuffer buf(data, "data");
  if (buf.size() > kReleaseGilAbove) {
    self.use_mutex = true;  // before the GIL is released (see PyHash::use_mutex)
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(self.mutex);
    self.hasher.update(buf.view());
  } else {
    Locked lock(self);
    self.hasher.update(buf.view());
  }
}

/// cryptaccel.new(): a hash object for `name`, fed with `data`.
nb::object hash_new(std::string_view name, nb::handle data, std::string_view engine) {
  HeldBuffer buf(data, "data");  // type errors before engine errors, as hashlib
  return new_hash(ca::parse_hash(name), engine, buf.view());
}

// --- the named constructors ----------------------------------------------------------------------------------------
//
// cryptaccel.sha256(data=b'', *, engine='auto', usedforsecurity=True, string=None) and its twelve siblings are plain
// CPython functions (METH_FASTCALL | METH_KEYWORDS), not Python wrappers around _new: a Python frame, the keyword
// defaults and nanobind's argument dispatch cost more than hashing 16 bytes. They check what the Python wrappers
// checked, in the same order and with the same messages: data and string together, the engine's type, the data's
// type, then the engine itself.

/// Every algorithm, in hash.hpp's order: one constructor each.
constexpr ca::HashAlgorithm kConstructorAlgorithms[] = {
    ca::HashAlgorithm::sha224,     ca::HashAlgorithm::sha256,     ca::HashAlgorithm::sha384,
    ca::HashAlgorithm::sha512,     ca::HashAlgorithm::sha512_224, ca::HashAlgorithm::sha512_256,
    ca::HashAlgorithm::sha3_224,   ca::HashAlgorithm::sha3_256,   ca::HashAlgorithm::sha3_384,
    ca::HashAlgorithm::sha3_512,   ca::HashAlgorithm::shake128,   ca::HashAlgorithm::shake256,
    ca::HashAlgorithm::sm3,
};
constexpr std::size_t kConstructors = std::size(kConstructorAlgorithms);

/// The constructors' keyword names, interned (a call site's keywords are usually these very objects).
struct ConstructorKeywords {
  PyObject* data = nullptr;
  PyObject* string = nullptr;
  PyObject* engine = nullptr;
  PyObject* usedforsecurity = nullptr;
};
ConstructorKeywords g_keywords;
/// b"": the data when none is given.
PyObject* g_empty_bytes = nullptr;

/// The Python name of `obj`'s type, as type(obj).__name__ ("int", "NoneType").
const char* type_name(PyObject* obj) {
  const char* name = Py_TYPE(obj)->tp_name;
  const char* dot = std::strrchr(name, '.');
  return dot ? dot + 1 : name;
}

/// The slot of keyword `key` among data/string/engine/usedforsecurity (nullptr for another name).
PyObject** keyword_slot(PyObject* key, PyObject** data, PyObject** string, PyObject** engine,
                        PyObject** usedforsecurity) {
  const ConstructorKeywords& k = g_keywords;
  if (key == k.data) return data;
  if (key == k.string) return string;
  if (key == k.engine) return engine;
  if (key == k.usedforsecurity) return usedforsecurity;
  // Not interned (a **kwargs dict built at run time): compare the text.
  if (PyUnicode_Compare(key, k.data) == 0) return data;
  if (PyUnicode_Compare(key, k.string) == 0) return string;
  if (PyUnicode_Compare(key, k.engine) == 0) return engine;
  if (PyUnicode_Compare(key, k.usedforsecurity) == 0) return usedforsecurity;
  PyErr_Clear();  // PyUnicode_Compare cannot fail on two str objects; be safe anyway
  return nullptr;
}

/// The body of every named constructor (`algorithm`, `name` for messages). Never lets a C++ exception out.
PyObject* construct(ca::HashAlgorithm algorithm, const char* name, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames) noexcept {
  try {
    if (nargs > 1) {
      PyErr_Format(PyExc_TypeError, "%s() takes at most 1 positional argument (%zd given)", name, nargs);
      return nullptr;
    }
    PyObject* data = nargs ? args[0] : nullptr;
    PyObject *string = nullptr, *engine = nullptr, *usedforsecurity = nullptr;  // usedforsecurity: ignored
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; ++i) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, i);
      PyObject** slot = keyword_slot(key, &data, &string, &engine, &usedforsecurity);
      if (!slot) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name, key);
        return nullptr;
      }
      if (*slot) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", name, key);
        return nullptr;
      }
      *slot = args[nargs + i];
    }
    if (string && string != Py_None) {  // hashlib's older name of data (None: not given)
      if (data)
        throw ArgumentTypeError("'data' and 'string' are mutually exclusive (string= is hashlib's older name of "
                                "data=)");
      data = string;
    }
    std::string_view engine_name = "auto";
    if (engine) {
      if (!PyUnicode_Check(engine)) throw ArgumentTypeError(std::string("engine must be a str, not ") + type_name(engine));
      Py_ssize_t len = 0;
      const char* text = PyUnicode_AsUTF8AndSize(engine, &len);
      if (!text) {  // a lone surrogate: a type error, as nanobind's str conversion answered before
        PyErr_Clear();
        throw ArgumentTypeError("engine must be a str of encodable characters (it has a lone surrogate)");
      }
      engine_name = std::string_view(text, static_cast<std::size_t>(len));
    }
    HeldBuffer buf(data ? data : g_empty_bytes, "data");  // type errors before engine errors, as hashlib
    return new_hash(algorithm, engine_name, buf.view()).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

/// The C function of the constructor of kConstructorAlgorithms[I].
template <std::size_t I>
PyObject* named_constructor(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const std::string name(ca::hash_info(kConstructorAlgorithms[I]).name);
  return construct(kConstructorAlgorithms[I], name.c_str(), args, nargs, kwnames);
}

/// The constructors' C functions, as PyMethodDef takes them (METH_FASTCALL | METH_KEYWORDS says their real type).
template <std::size_t... I>
std::array<PyCFunction, kConstructors> constructor_functions(std::index_sequence<I...>) {
  return {reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&named_constructor<I>))...};
}

/// The dict {name: constructor} of the named constructors, functions of module "cryptaccel" (their __name__,
/// __qualname__ and __module__ read as hashlib's; the docstring carries the signature for help() and inspect).
nb::dict make_constructors() {
  g_keywords.data = PyUnicode_InternFromString("data");
  g_keywords.string = PyUnicode_InternFromString("string");
  g_keywords.engine = PyUnicode_InternFromString("engine");
  g_keywords.usedforsecurity = PyUnicode_InternFromString("usedforsecurity");
  g_empty_bytes = PyBytes_FromStringAndSize(nullptr, 0);
  if (!g_keywords.data || !g_keywords.string || !g_keywords.engine || !g_keywords.usedforsecurity || !g_empty_bytes)
    throw nb::python_error();

  // Static storage: CPython keeps pointers to the method definitions, names and docstrings for good.
  static const auto functions = constructor_functions(std::make_index_sequence<kConstructors>());
  static std::array<std::string, kConstructors> names, docs;
  static std::array<PyMethodDef, kConstructors> defs{};
  const nb::str module("cryptaccel");
  nb::dict out;
  for (std::size_t i = 0; i < kConstructors; ++i) {
    const ca::HashInfo& info = ca::hash_info(kConstructorAlgorithms[i]);
    names[i] = std::string(info.name);
    const std::string kind =
        info.xof ? std::string("SHAKE (extendable-output)") : std::to_string(info.digest_size * 8) + "-bit";
    docs[i] = names[i] + "(data=b'', *, engine='auto', usedforsecurity=True, string=None)\n--\n\n" +
              "Returns a new " + std::string(info.display_name) + " hash object (" + kind +
              "), optionally fed with ``data`` (by position, ``data=`` or hashlib's older ``string=``); as "
              "``hashlib." + names[i] + "``. ``engine``: ``\"auto\"`` or an engine name. ``usedforsecurity`` is "
              "accepted and ignored.";
    defs[i] = PyMethodDef{names[i].c_str(), functions[i], METH_FASTCALL | METH_KEYWORDS, docs[i].c_str()};
    nb::object fn = nb::steal(PyCFunction_NewEx(&defs[i], nullptr, module.ptr()));
    if (!fn.is_valid()) throw nb::python_error();
    out[names[i].c_str()] = fn;
  }
  return out;
}

/// The default of HashXOF.digest's `length`: a private object that stands for "not given".
nb::handle missing_length() {
  // A new reference, kept for the life of the process (nanobind holds it as the default too).
  static PyObject* const sentinel = PyObject_CallNoArgs(reinterpret_cast<PyObject*>(&PyBaseObject_Type));
  return sentinel;
}

/// The `length` argument of HashXOF.digest: an int (InvalidArgumentType otherwise), >= 0 (InvalidArgument otherwise).
/// `method` ("digest", "hexdigest") names the method in the message for a missing length.
std::size_t xof_length(nb::handle length, const char* method) {
  if (length.is(missing_length()))
    throw ArgumentTypeError(std::string("HashXOF.") + method + "() missing required argument 'length' (pos 1)");
  nb::object as_int = nb::steal(PyNumber_Index(length.ptr()));
  if (!as_int.is_valid()) {
    PyErr_Clear();
    throw ArgumentTypeError(std::string("length must be an int, not '") + Py_TYPE(length.ptr())->tp_name + "'");
  }
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(as_int.ptr(), &overflow);
  if (overflow > 0) throw ca::InvalidArgument("output length " + nb::cast<std::string>(nb::str(as_int)) + " is too large");
  if (overflow < 0 || n < 0)
    throw ca::InvalidArgument("invalid output length " + nb::cast<std::string>(nb::str(as_int)) +
                              " (must be non-negative)");
  return static_cast<std::size_t>(n);
}

/// The digest so far: `length` bytes for SHAKE (0 gives b"", as hashlib), the digest size otherwise.
nb::bytes hash_digest(PyHash& self, std::size_t length) {
  const ca::HashInfo& info = self.hasher.info();
  const std::size_t n = info.xof ? length : info.digest_size;
  nb::bytes out = new_bytes(n);
  if (n == 0) return out;
  const ca::mutable_bytes dst(bytes_data(out), n);
  if (n > kReleaseGilAbove) {
    self.use_mutex = true;  // before the GIL is released (see PyHash::use_mutex)
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(self.mutex);
    self.hasher.digest_into(dst);
  } else {
    Locked lock(self);
    self.hasher.digest_into(dst);
  }
  return out;
}

nb::str hex_str(const nb::bytes& b) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(b.ptr()));
  const std::string hex =
      cryptaccel::to_hex(cryptaccel::bytes_view(p, static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr()))));
  return nb::str(hex.data(), hex.size());
}

nb::object hash_copy(PyHash& self) {
  Locked lock(self);
  auto [obj, h] = emplace_hash(self.hasher.info().xof, self.hasher);
  nb::inst_mark_ready(obj);
  return std::move(obj);
}

std::string hash_repr(nb::handle self_obj, const PyHash& self) {
  const char* type = self.hasher.info().xof ? "HashXOF" : "Hash";
  char addr[32];
  std::snprintf(addr, sizeof addr, "%p", static_cast<void*>(self_obj.ptr()));
  return "<" + std::string(self.hasher.info().name) + " cryptaccel." + type + " object (engine " +
         std::string(self.hasher.engine_name()) + ") @ " + addr + ">";
}

// --- update(), digest() and hexdigest() of Hash -----------------------------------------------------------------
//
// Plain CPython methods (METH_O, METH_NOARGS) installed on the Hash type, not nanobind methods: the interpreter calls
// them directly, without nanobind's dispatch (about 30 ns of a 16-byte update). The method descriptor has already
// checked that `self` is a Hash (or HashXOF, which inherits update() and has its own digest(length)). A wrong number
// of arguments gets the interpreter's TypeError, as any built-in method; update(None) and update("text") reach
// HeldBuffer, whose messages name the argument as hashlib's do.

/// The PyHash of `self`, or nullptr with a TypeError when it was never built (Hash.__new__(Hash) makes such objects).
PyHash* built_hash(PyObject* self) {
  if (nb::inst_ready(self)) return nb::inst_ptr<PyHash>(self);
  PyErr_SetString(PyExc_TypeError, "this hash object was not made by cryptaccel.new() or a named constructor");
  return nullptr;
}

PyObject* update_method(PyObject* self, PyObject* data) noexcept {
  PyHash* h = built_hash(self);
  if (!h) return nullptr;
  try {
    hash_update(*h, data);
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyObject* digest_method(PyObject* self, PyObject*) noexcept {
  PyHash* h = built_hash(self);
  if (!h) return nullptr;
  try {
    return hash_digest(*h, 0).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* hexdigest_method(PyObject* self, PyObject*) noexcept {
  PyHash* h = built_hash(self);
  if (!h) return nullptr;
  try {
    return hex_str(hash_digest(*h, 0)).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

/// Adds update, digest and hexdigest to `type` (Hash).
void add_fast_methods(PyTypeObject* type) {
  // Static storage: the descriptors keep pointers to these definitions.
  static PyMethodDef defs[] = {
      {"update", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&update_method)), METH_O,
       "update($self, data, /)\n--\n\nAbsorbs ``data`` (any C-contiguous bytes-like object). Inputs over 4 KiB are "
       "hashed with the GIL released."},
      {"digest", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&digest_method)), METH_NOARGS,
       "digest($self, /)\n--\n\nThe digest of the data absorbed so far, as bytes. Does not finalise: more updates "
       "may follow."},
      {"hexdigest", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&hexdigest_method)), METH_NOARGS,
       "hexdigest($self, /)\n--\n\nAs digest(), as a string of lower-case hex digits."},
  };
  static_assert(kReleaseGilAbove == 4096, "update's docstring says 4 KiB");
  for (PyMethodDef& def : defs) {
    nb::object descr = nb::steal(PyDescr_NewMethod(type, &def));
    if (!descr.is_valid() || PyObject_SetAttrString(reinterpret_cast<PyObject*>(type), def.ml_name, descr.ptr()) != 0)
      throw nb::python_error();
  }
}

// --- batch hashing -----------------------------------------------------------------------------------------------

/// Hashes every item of `messages` in one hash_batch call. `length`: output length for SHAKE (0: b"" for every
/// message); must be the digest size otherwise. Returns (list[bytes], engine name).
nb::tuple hash_many(std::string_view name, nb::handle messages, std::size_t length, const std::string& engine,
                    std::size_t threads) {
  const ca::HashAlgorithm algorithm = ca::parse_hash(name);
  const ca::HashInfo& info = ca::hash_info(algorithm);
  if (!info.xof && length != info.digest_size)
    throw ca::InvalidArgument(std::string(info.name) + " digests are " + std::to_string(info.digest_size) +
                              " bytes, not " + std::to_string(length) + "; only SHAKE takes an output length");

  nb::object seq = as_sequence(messages, "messages must be a sequence of bytes-like objects");
  const std::size_t n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  if (length != 0 && n > std::numeric_limits<std::size_t>::max() / length) throw std::bad_alloc();
  nb::object out = nb::steal(PyList_New(static_cast<Py_ssize_t>(n)));
  if (!out.is_valid()) throw nb::python_error();

  // The messages go to the engine in slices of kSlice: the jobs, buffer views and digests of one slice stay in the
  // cache and are reused (a single slice of 200 000 jobs was ~35 MB of fresh pages, faulted in on every call).
  constexpr std::size_t kSlice = 8192;
  std::vector<HeldBuffer> held;  // one per message of the slice (a bytes object is read directly: nothing held)
  held.reserve(std::min(kSlice, n));
  std::vector<ca::HashJob> jobs;
  std::vector<std::uint8_t> digests;
  ca::BatchReport report;
  for (std::size_t first = 0; first < n || (first == 0 && n == 0); first += kSlice) {
    const std::size_t count = std::min(kSlice, n - first);
    held.clear();
    jobs.clear();
    digests.resize(count * length);
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
      held.emplace_back(nb::handle(items[first + i]), "messages", first + i);
      ca::HashJob job;
      job.in = held.back().view();
      job.digest = ca::mutable_bytes(digests.data() + i * length, length);
      total += job.in.size();
      if (length != 0) jobs.push_back(std::move(job));  // SHAKE with length 0: nothing to compute
    }
    {
      MaybeReleaseGil gil(total + count * length > kReleaseGilAbove);
      ca::BatchOptions options;
      options.engine = engine;
      options.threads = threads;
      report = ca::hash_batch(algorithm, jobs, options);  // still called for n == 0: the engine is resolved
    }
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].status != ca::JobStatus::ok)
        throw ca::InvalidArgument("message " + std::to_string(first + i) + ": " +
                                  (jobs[i].error.empty() ? std::string("hashing failed") : jobs[i].error));
    for (std::size_t i = 0; i < count; ++i) {
      PyObject* digest = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(digests.data() + i * length),
                                                   static_cast<Py_ssize_t>(length));
      if (!digest) throw nb::python_error();
      PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(first + i), digest);  // steals the reference
    }
    if (n == 0) break;
  }
  return nb::make_tuple(out, report.engine);
}

// --- Keccak-f[1600] ----------------------------------------------------------------------------------------------

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void store_le64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::string permute(std::vector<ca::KeccakState>& states, const std::string& engine) {
  MaybeReleaseGil gil(states.size() * sizeof(ca::KeccakState) > kReleaseGilAbove);
  return ca::keccak_f1600_batch(states, engine);
}

/// `states`: a bytes-like object of n*200 bytes (n states of 25 little-endian 64-bit lanes), answered with bytes in
/// the same layout; or a sequence of n sequences of 25 ints, answered with a list of n lists of 25 ints.
nb::tuple keccak_batch(nb::handle states_obj, const std::string& engine) {
  if (PyObject_CheckBuffer(states_obj.ptr())) {
    HeldBuffer buf(states_obj, "states");
    if (buf.size() % sizeof(ca::KeccakState) != 0)
      throw ca::InvalidArgument("a bytes-like states argument must be a multiple of 200 bytes (25 little-endian "
                                "64-bit lanes per state), got " + std::to_string(buf.size()) + " bytes");
    const std::size_t n = buf.size() / sizeof(ca::KeccakState);
    std::vector<ca::KeccakState> states(n);
    const std::uint8_t* p = buf.view().data();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 25; ++j) states[i][j] = load_le64(p + 200 * i + 8 * j);
    const std::string used = permute(states, engine);
    nb::bytes out = new_bytes(buf.size());
    std::uint8_t* q = bytes_data(out);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 25; ++j) store_le64(q + 200 * i + 8 * j, states[i][j]);
    return nb::make_tuple(out, used);
  }
  if (PyUnicode_Check(states_obj.ptr()))
    throw ArgumentTypeError("states must be a sequence of 25-int sequences or a bytes-like object, not 'str'");

  nb::object seq =
      as_sequence(states_obj, "states must be a sequence of 25-int sequences or a bytes-like object of n*200 bytes");
  const std::size_t n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(seq.ptr()));
  std::vector<ca::KeccakState> states(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string where = "states[" + std::to_string(i) + "]";
    PyObject* item = PySequence_Fast_GET_ITEM(seq.ptr(), i);
    if (PyUnicode_Check(item) || PyObject_CheckBuffer(item))
      throw ArgumentTypeError(where + " must be a sequence of 25 ints, not '" + Py_TYPE(item)->tp_name + "'");
    nb::object lanes = as_sequence(item, where + " must be a sequence of 25 ints");
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(lanes.ptr());
    if (len != 25)
      throw ca::InvalidArgument(where + " has " + std::to_string(len) + " lanes (a Keccak-f[1600] state has 25)");
    for (std::size_t j = 0; j < 25; ++j) {
      PyObject* lane = PySequence_Fast_GET_ITEM(lanes.ptr(), j);
      nb::object as_int = nb::steal(PyNumber_Index(lane));
      if (!as_int.is_valid()) {
        PyErr_Clear();
        throw ArgumentTypeError(where + "[" + std::to_string(j) + "] must be an int, not '" + Py_TYPE(lane)->tp_name +
                                "'");
      }
      const unsigned long long v = PyLong_AsUnsignedLongLong(as_int.ptr());
      if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        throw ca::InvalidArgument(where + "[" + std::to_string(j) + "] = " +
                                  nb::cast<std::string>(nb::str(as_int)) + " is not a 64-bit lane (0 .. 2**64-1)");
      }
      states[i][j] = static_cast<std::uint64_t>(v);
    }
  }
  const std::string used = permute(states, engine);
  nb::list out;
  for (const ca::KeccakState& s : states) {
    nb::list lanes;
    for (std::uint64_t v : s) lanes.append(nb::steal(PyLong_FromUnsignedLongLong(v)));
    out.append(lanes);
  }
  return nb::make_tuple(out, used);
}

// --- introspection -----------------------------------------------------------------------------------------------

nb::dict hash_info_dict(std::string_view name) {
  const ca::HashInfo& info = ca::hash_info(ca::parse_hash(name));
  nb::dict d;
  d["name"] = info.name;
  d["display_name"] = info.display_name;
  d["digest_size"] = info.digest_size;
  d["block_size"] = info.block_size;
  d["xof"] = info.xof;
  return d;
}

/// Whether an available engine streams `name` (what cryptaccel.new needs with engine="auto").
bool hash_available(std::string_view name) {
  try {
    ca::Hasher probe(ca::parse_hash(name), "auto");
    return true;
  } catch (const ca::EngineUnavailable&) {
    return false;
  }
}

}  // namespace

void register_hash_bindings(nb::module_& m) {
  nb::class_<PyHash>(m, "Hash",
                     "A hash object with hashlib's interface: feed it with update(), read the digest with digest().\n\n"
                     "Made by cryptaccel.new() or a named constructor such as cryptaccel.sha256(); not instantiated "
                     "directly. Thread-safe: one object may be shared by threads (calls are serialised).")
      // update(), digest() and hexdigest() are added below as plain CPython methods (add_fast_methods).
      .def("copy", &hash_copy, "An independent copy of this object (same algorithm, engine and state).")
      .def_prop_ro(
          "name", [](const PyHash& h) { return std::string(h.hasher.info().name); },
          "The algorithm's name as hashlib spells it (\"sha256\", \"sha3_256\", \"shake_128\", \"sm3\").")
      .def_prop_ro(
          "digest_size", [](const PyHash& h) { return h.hasher.info().xof ? 0 : h.hasher.info().digest_size; },
          "Size of the digest in bytes (0 for SHAKE, whose output length is chosen per call, as in hashlib).")
      .def_prop_ro(
          "block_size", [](const PyHash& h) { return h.hasher.info().block_size; },
          "Internal block size in bytes (SHA-3/SHAKE: the sponge rate).")
      .def_prop_ro(
          "engine", [](const PyHash& h) { return std::string(h.hasher.engine_name()); },
          "Name of the engine whose block function this object uses (\"ref\", \"cpu\", ...).")
      .def("__repr__", [](nb::handle self_obj) { return hash_repr(self_obj, nb::cast<const PyHash&>(self_obj)); });

  nb::class_<PyHashXOF, PyHash>(m, "HashXOF",
                                "A SHAKE object: as Hash, but digest() and hexdigest() take the output length in "
                                "bytes (which may be 0), as hashlib's shake objects.")
      // `length` by position or keyword, as hashlib's; its default is a private sentinel so that a missing length
      // gets hashlib's message from xof_length rather than nanobind's.
      .def(
          "digest",
          [](PyHashXOF& self, nb::handle length) { return hash_digest(self, xof_length(length, "digest")); },
          nb::arg("length").none() = missing_length(), nb::sig("def digest(self, length: int) -> bytes"),
          "The first ``length`` bytes of output for the data absorbed so far. Does not finalise.")
      .def(
          "hexdigest",
          [](PyHashXOF& self, nb::handle length) {
            return hex_str(hash_digest(self, xof_length(length, "hexdigest")));
          },
          nb::arg("length").none() = missing_length(), nb::sig("def hexdigest(self, length: int) -> str"),
          "As digest(length), as 2*length lower-case hex digits.");
  // Strong references kept for the life of the process (new_hash allocates instances of both).
  g_hash_type = reinterpret_cast<PyTypeObject*>(nb::type<PyHash>().inc_ref().ptr());
  g_hash_xof_type = reinterpret_cast<PyTypeObject*>(nb::type<PyHashXOF>().inc_ref().ptr());
  add_fast_methods(g_hash_type);

  m.attr("_constructors") = make_constructors();

  // .none() on the object arguments: None reaches HeldBuffer and as_sequence, whose messages name the argument.
  m.def("_new", &hash_new, nb::arg("name"), nb::arg("data").none(), nb::arg("engine"),
        "_new(name, data, engine) -> Hash | HashXOF");
  m.def("_hash_many", &hash_many, nb::arg("name"), nb::arg("messages").none(), nb::arg("length"), nb::arg("engine"),
        nb::arg("threads"), "_hash_many(name, messages, length, engine, threads) -> (list[bytes], engine_name)");
  m.def("_keccak_f1600_batch", &keccak_batch, nb::arg("states").none(), nb::arg("engine"),
        "_keccak_f1600_batch(states, engine) -> (states, engine_name)");
  m.def("_hash_names", &ca::hash_names, "_hash_names() -> list[str]");
  m.def("_hash_info", &hash_info_dict, nb::arg("name"), "_hash_info(name) -> dict");
  m.def("_hash_available", &hash_available, nb::arg("name"), "_hash_available(name) -> bool");
}

}  // namespace pyca
