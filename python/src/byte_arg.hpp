// ByteArg: a bytes-like Python argument (bytes, bytearray, memoryview, array.array, ...) seen as cryptaccel::bytes_view.
//
// `bytes` objects are immutable, so they are used in place (a reference keeps them alive). Every other buffer is
// copied while the GIL is held: its owner could resize or rewrite it from another thread once the GIL is released,
// and a GCM decryption that verified one ciphertext must not decrypt another. Copies are wiped on destruction, since
// they may hold keys or plaintext.
#pragma once
#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arg_error.hpp"
#include "cryptaccel/types.hpp"

namespace pyca {

class ByteArg {
 public:
  /// `what` names the argument in error messages ("key", "datas[3]").
  ByteArg(nanobind::handle obj, const char* what) {
    if (PyBytes_Check(obj.ptr())) {
      owner_ = nanobind::borrow(obj);
      data_ = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(obj.ptr()));
      size_ = static_cast<std::size_t>(PyBytes_GET_SIZE(obj.ptr()));
      return;
    }
    if (!PyObject_CheckBuffer(obj.ptr()))
      throw ArgumentTypeError(std::string(what) + " must be a bytes-like object, not '" + Py_TYPE(obj.ptr())->tp_name +
                              "'");
    Py_buffer view;
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
      PyErr_Clear();
      throw ArgumentTypeError(std::string(what) + " must be a C-contiguous bytes-like object");
    }
    const auto* p = static_cast<const std::uint8_t*>(view.buf);
    try {
      copy_.assign(p, p + view.len);
    } catch (...) {
      PyBuffer_Release(&view);
      throw;
    }
    PyBuffer_Release(&view);
    data_ = copy_.data();
    size_ = copy_.size();
  }

  ~ByteArg() {
    if (!copy_.empty()) cryptaccel::secure_wipe(copy_.data(), copy_.size());
  }

  ByteArg(ByteArg&& other) noexcept
      : owner_(std::move(other.owner_)), copy_(std::move(other.copy_)), data_(other.data_), size_(other.size_) {
    if (!copy_.empty()) data_ = copy_.data();  // vector move keeps the heap block; be explicit anyway
    other.data_ = nullptr;
    other.size_ = 0;
  }
  ByteArg(const ByteArg&) = delete;
  ByteArg& operator=(const ByteArg&) = delete;
  ByteArg& operator=(ByteArg&&) = delete;

  cryptaccel::bytes_view view() const { return {data_, size_}; }
  std::size_t size() const { return size_; }

 private:
  nanobind::object owner_;         ///< the bytes object viewed in place, if any
  std::vector<std::uint8_t> copy_;  ///< the copy of any other buffer
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pyca
