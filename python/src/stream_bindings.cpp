#include "stream_bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>

#include "byte_arg.hpp"
#include "cryptaccel/atomic_output.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/file.hpp"
#include "cryptaccel/stream.hpp"
#include "gil.hpp"

namespace nb = nanobind;
namespace ca = cryptaccel;

namespace pyca {
namespace {

/// Raises OSError (errno, message) for an OutputError: Python's subclass for the errno (FileNotFoundError, ...).
[[noreturn]] void raise_os_error(const ca::OutputError& e) {
  PyObject* args = Py_BuildValue("(is)", e.error_code(), e.what());
  PyErr_SetObject(PyExc_OSError, args);
  Py_XDECREF(args);
  throw nb::python_error();
}

/// A destination file of encrypt_file/decrypt_file, all or nothing (cryptaccel::AtomicOutput): nothing appears, and
/// an existing file is untouched, until finish(); its mode, owner and extended attributes are kept.
class PyAtomicOutput {
 public:
  explicit PyAtomicOutput(const std::string& path) {
    try {
      out_ = std::make_unique<ca::AtomicOutput>(path);
      out_->begin();
    } catch (const ca::OutputError& e) {
      raise_os_error(e);
    }
  }

  std::size_t write(nb::handle data_obj) {
    const ByteArg data(data_obj, "data");
    try {
      MaybeReleaseGil gil(data.size() > kReleaseGilAbove);
      output().write(data.view());
    } catch (const ca::OutputError& e) {
      raise_os_error(e);
    }
    return data.size();
  }

  /// Publishes the file (fsync, rename).
  void finish() {
    try {
      nb::gil_scoped_release release;
      output().finish();
    } catch (const ca::OutputError& e) {
      raise_os_error(e);
    }
  }

  /// Drops the unpublished file (after a failure); the destination stays as it was.
  void abandon() { out_.reset(); }

  ca::AtomicOutput& output() {
    if (!out_) throw ca::InvalidArgument("the output was abandoned");
    return *out_;
  }

 private:
  std::unique_ptr<ca::AtomicOutput> out_;  // destroyed unfinished: the temporary file is removed
};

/// One CipherStream, usable from Python: each call's output comes back as one bytes object. Calls run with the GIL
/// released above kReleaseGilAbove bytes; a mutex keeps two threads that share the object from interleaving.
class PyCipherStream {
 public:
  PyCipherStream(std::string_view cipher, std::string_view direction, nb::handle key_obj, nb::handle iv_obj,
                 nb::handle aad_obj, std::size_t tag_len, bool padding, std::size_t xts_unit, const std::string& engine,
                 std::size_t chunk_bytes)
      : engine_(engine) {
    ca::CipherSpec spec = ca::CipherSpec::parse(cipher);
    spec.padding = padding;
    if (direction != "encrypt" && direction != "decrypt")
      throw ca::InvalidArgument("unknown direction '" + std::string(direction) + "' (use 'encrypt' or 'decrypt')");
    const ByteArg key(key_obj, "key"), iv(iv_obj, "iv"), aad(aad_obj, "aad");
    ca::CipherParams params;
    params.key = key.view();
    params.iv = iv.view();
    params.aad = aad.view();  // hashed by the constructor (GCM)
    params.tag_len = tag_len;
    params.xts_unit = xts_unit;
    ca::StreamOptions options;
    options.engine = engine_;  // the stream keeps a view: engine_ lives as long as it
    if (chunk_bytes) options.chunk_bytes = chunk_bytes;
    stream_ = std::make_unique<ca::CipherStream>(spec, direction == "encrypt" ? ca::Direction::encrypt
                                                                             : ca::Direction::decrypt,
                                                 params, options);
  }

  nb::bytes update(nb::handle data_obj) {
    const ByteArg data(data_obj, "data");
    return run(data.size(), [&](const ca::StreamSink& sink) { stream_->update(data.view(), sink); });
  }

  nb::bytes finish() {
    return run(0, [&](const ca::StreamSink& sink) { stream_->finish(sink); });
  }

  /// The whole stream from file descriptor `in_fd` (a regular file is mapped: CipherStream::pipe_fd) into `out`,
  /// read, processed and written on three threads with the GIL released. Python signals (Ctrl-C) are checked after
  /// every batch; read and write errors raise OSError. `out` is not finished here.
  void pipe_to(int in_fd, PyAtomicOutput& out, const std::string& in_name) {
    struct Interrupted {};  // a Python signal handler raised: its exception is set in this thread
    try {
      nb::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex_);
      stream_->pipe_fd(
          in_fd, in_name, [&](ca::bytes_view piece) { out.output().write(piece); },
          [](std::uint64_t) {
            nb::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw Interrupted{};
          });
    } catch (const Interrupted&) {
      throw nb::python_error();
    } catch (const ca::OutputError& e) {
      raise_os_error(e);
    } catch (const std::system_error& e) {
      errno = e.code().value();
      PyErr_SetFromErrno(PyExc_OSError);
      throw nb::python_error();
    }
  }

  std::string engine_used() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stream_->engine_used();
  }

 private:
  template <class F>
  nb::bytes run(std::size_t input_bytes, F&& f) {
    ca::bytes out;
    {
      MaybeReleaseGil gil(input_bytes > kReleaseGilAbove || input_bytes == 0);
      std::lock_guard<std::mutex> lock(mutex_);
      f([&](ca::bytes_view piece) { out.insert(out.end(), piece.begin(), piece.end()); });
    }
    nb::bytes result(out.data(), out.size());
    ca::secure_wipe(out.data(), out.size());  // plaintext when decrypting
    return result;
  }

  std::string engine_;
  std::mutex mutex_;
  std::unique_ptr<ca::CipherStream> stream_;
};

}  // namespace

void register_stream_bindings(nb::module_& m) {
  nb::class_<PyAtomicOutput>(m, "_AtomicOutput")
      .def(nb::init<const std::string&>(), nb::arg("path"))
      .def("write", &PyAtomicOutput::write, nb::arg("data"), "write(data) -> int: appends to the unpublished file")
      .def("finish", &PyAtomicOutput::finish, "finish(): publishes the file (fsync, rename over the destination)")
      .def("abandon", &PyAtomicOutput::abandon, "abandon(): removes the unpublished file; the destination is untouched");
  nb::class_<PyCipherStream>(m, "_CipherStream")
      .def(nb::init<std::string_view, std::string_view, nb::handle, nb::handle, nb::handle, std::size_t, bool,
                    std::size_t, const std::string&, std::size_t>(),
           nb::arg("cipher"), nb::arg("direction"), nb::arg("key"), nb::arg("iv"), nb::arg("aad"), nb::arg("tag_len"),
           nb::arg("padding"), nb::arg("xts_unit"), nb::arg("engine"), nb::arg("chunk_bytes"))
      .def("update", &PyCipherStream::update, nb::arg("data"), "update(data) -> bytes: the output ready so far")
      .def("finish", &PyCipherStream::finish,
           "finish() -> bytes: the rest of the output (padding done; GCM: the tag appended, or verified)")
      .def("pipe_to", &PyCipherStream::pipe_to, nb::arg("in_fd"), nb::arg("out"), nb::arg("in_name"),
           "pipe_to(in_fd, out, in_name): the whole stream from a file descriptor into an _AtomicOutput, finished")
      .def_prop_ro("engine_used", &PyCipherStream::engine_used);
  m.def(
      "_streamable",
      [](std::string_view cipher, std::size_t xts_unit, const std::string& engine) {
        return ca::streamable(ca::CipherSpec::parse(cipher), xts_unit, engine);
      },
      nb::arg("cipher"), nb::arg("xts_unit"), nb::arg("engine"), "_streamable(cipher, xts_unit, engine) -> bool");
}

}  // namespace pyca
