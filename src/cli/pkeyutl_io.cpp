// `cryptaccel pkeyutl`: inputs and keys (see the header). Keys are parsed by the library (OpenSSL).
#include "pkeyutl_io.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "cryptaccel/error.hpp"
#include "password_source.hpp"

namespace cryptaccel::cli::pkeyutl {
namespace {

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

bytes read_stream(std::FILE* f, const std::string& name) {
  bytes data;
  struct stat st {};
  if (::fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    data.reserve(static_cast<std::size_t>(st.st_size) + 1);
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  for (;;) {
    const std::size_t old_size = data.size();
    data.resize(std::max(old_size + kChunk, data.capacity()));
    const std::size_t want = data.size() - old_size;
    const std::size_t got = std::fread(data.data() + old_size, 1, want, f);
    data.resize(old_size + got);
    if (got < want) {
      if (std::ferror(f)) throw std::runtime_error("cannot read " + name + ": " + std::strerror(errno));
      return data;
    }
  }
}

std::string_view as_text(const bytes& data) { return {reinterpret_cast<const char*>(data.data()), data.size()}; }

bool looks_like_pem(const bytes& data) {
  const std::string_view text = as_text(data);
  return text.find("-----BEGIN ") != std::string_view::npos;
}

/// Wipes a buffer that held a password or a private key file when it goes.
struct Wiped {
  bytes data;
  ~Wiped() {
    if (!data.empty()) secure_wipe(data.data(), data.size());
  }
};

}  // namespace

bytes read_input(const std::string& path) {
  if (is_stdio(path)) return read_stream(stdin, "stdin");
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  return read_stream(f.get(), "'" + path + "'");
}

LoadedKey load_key(const std::string& path, bool pubin, const std::optional<std::string>& passin) {
  if (path.empty()) throw InvalidArgument("-inkey is required");
  Wiped file{read_input(path)};
  const bool pem = looks_like_pem(file.data);
  const std::string where = "'" + path + "'";
  try {
    if (pubin) {
      rsa::PublicKey pub = pem ? rsa::PublicKey::from_pem(as_text(file.data)) : rsa::PublicKey::from_der(file.data);
      return LoadedKey{std::nullopt, std::move(pub)};
    }
    if (pem && as_text(file.data).find("PUBLIC KEY-----") != std::string_view::npos &&
        as_text(file.data).find("PRIVATE KEY-----") == std::string_view::npos)
      throw InvalidArgument("it holds a public key (add -pubin)");
    std::optional<std::string> password;
    if (passin) password = read_password(*passin, "-passin");
    struct WipePassword {
      std::optional<std::string>& p;
      ~WipePassword() {
        if (p && !p->empty()) secure_wipe(p->data(), p->size());
      }
    } wipe_password{password};
    if (pem && !password && as_text(file.data).find("ENCRYPTED") != std::string_view::npos)
      throw InvalidArgument("the key is encrypted: give its password with -passin (pass:X, env:VAR, file:PATH)");
    rsa::PrivateKey key = pem ? rsa::PrivateKey::from_pem(as_text(file.data),
                                                          password ? std::optional<std::string_view>(*password)
                                                                   : std::nullopt)
                              : rsa::PrivateKey::from_der(file.data);
    rsa::PublicKey pub = key.public_key();
    return LoadedKey{std::move(key), std::move(pub)};
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("cannot load " + std::string(pubin ? "public" : "private") + " key from " + where + ": " +
                          e.what());
  }
}

}  // namespace cryptaccel::cli::pkeyutl
