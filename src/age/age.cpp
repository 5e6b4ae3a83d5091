// age encryption and decryption: the file key, the recipient stanzas (X25519, scrypt), the header MAC and the
// payload (src/age/payload.cpp).
#include <cstring>
#include <memory>

#include "age/age_base64.hpp"
#include "age/age_input.hpp"
#include "age/age_primitives.hpp"
#include "age/header.hpp"
#include "age/payload.hpp"
#include "common/ct.hpp"
#include "cryptaccel/age.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::age {
namespace {

using FileKey = std::array<std::uint8_t, 16>;
constexpr std::string_view kX25519Info = "age-encryption.org/v1/X25519";
constexpr std::string_view kScryptLabel = "age-encryption.org/v1/scrypt";
constexpr std::size_t kWrappedKey = 32;  // the 16-byte file key and its tag

const CipherSpec& chacha() {
  static const CipherSpec spec = CipherSpec::parse("chacha20-poly1305");
  return spec;
}

/// ChaCha20-Poly1305 of the file key under `key` with the all-zero nonce (each wrapping key is used once).
bytes wrap(const Key32& key, const FileKey& file_key) {
  const std::uint8_t zero[12] = {};
  CipherParams p;
  p.key = key;
  p.iv = zero;
  return encrypt(chacha(), p, file_key);
}

/// The file key from a stanza body, or nothing when the tag does not verify (this stanza is not for us).
std::optional<FileKey> unwrap(const Key32& key, bytes_view body) {
  const std::uint8_t zero[12] = {};
  CipherParams p;
  p.key = key;
  p.iv = zero;
  try {
    bytes k = decrypt(chacha(), p, body);
    FileKey out{};
    std::memcpy(out.data(), k.data(), out.size());
    secure_wipe(k.data(), k.size());
    return out;
  } catch (const AuthenticationFailed&) {
    return std::nullopt;
  }
}

Key32 hkdf32(bytes_view ikm, bytes_view salt, std::string_view info) {
  Key32 out{};
  hkdf_sha256(ikm, salt, info, out);
  return out;
}

bytes_view as_bytes(std::string_view s) { return bytes_view(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()); }

Stanza x25519_stanza(const Recipient& to, const FileKey& file_key) {
  Key32 ephemeral{};
  random_fill(ephemeral);
  const Key32 share = x25519_public(ephemeral);
  std::optional<Key32> shared = x25519_shared(ephemeral, to.key());
  secure_wipe(ephemeral.data(), ephemeral.size());
  if (!shared) throw InvalidArgument("age: the recipient " + to.to_string() + " is a low-order point (no shared secret)");
  bytes salt(share.begin(), share.end());
  salt.insert(salt.end(), to.key().begin(), to.key().end());
  Key32 wrap_key = hkdf32(*shared, salt, kX25519Info);
  secure_wipe(shared->data(), shared->size());
  Stanza s{"X25519", {base64_encode(share, false)}, wrap(wrap_key, file_key)};
  secure_wipe(wrap_key.data(), wrap_key.size());
  return s;
}

std::optional<FileKey> open_x25519(const Stanza& s, const std::vector<Identity>& identities) {
  if (s.args.size() != 1) throw MalformedFile(Failure::header, "age header: an X25519 stanza must have one argument");
  const auto share = base64_decode(s.args[0], false);
  if (!share || share->size() != 32) throw MalformedFile(Failure::header, "age header: malformed X25519 share");
  if (s.body.size() != kWrappedKey) throw MalformedFile(Failure::header, "age header: an X25519 stanza body must be 32 bytes");
  Key32 share32{};
  std::copy(share->begin(), share->end(), share32.begin());
  for (const Identity& id : identities) {
    std::optional<Key32> shared = x25519_shared(id.secret(), share32);
    if (!shared) throw MalformedFile(Failure::header, "age header: an X25519 share of low order (no shared secret)");
    const Recipient me = id.recipient();
    bytes salt(share32.begin(), share32.end());
    salt.insert(salt.end(), me.key().begin(), me.key().end());
    Key32 wrap_key = hkdf32(*shared, salt, kX25519Info);
    secure_wipe(shared->data(), shared->size());
    auto key = unwrap(wrap_key, s.body);
    secure_wipe(wrap_key.data(), wrap_key.size());
    if (key) return key;
  }
  return std::nullopt;
}

Key32 scrypt_wrap_key(std::string_view passphrase, bytes_view salt, unsigned log2_n) {
  bytes full(kScryptLabel.begin(), kScryptLabel.end());
  full.insert(full.end(), salt.begin(), salt.end());
  return scrypt_key(passphrase, full, log2_n);
}

Stanza scrypt_stanza(std::string_view passphrase, unsigned log2_n, const FileKey& file_key) {
  std::array<std::uint8_t, 16> salt{};
  random_fill(salt);
  Key32 key = scrypt_wrap_key(passphrase, salt, log2_n);
  Stanza s{"scrypt", {base64_encode(salt, false), std::to_string(log2_n)}, wrap(key, file_key)};
  secure_wipe(key.data(), key.size());
  return s;
}

std::optional<FileKey> open_scrypt(const Stanza& s, const DecryptOptions& options) {
  if (s.args.size() != 2) throw MalformedFile(Failure::header, "age header: an scrypt stanza must have two arguments");
  const auto salt = base64_decode(s.args[0], false);
  if (!salt || salt->size() != 16) throw MalformedFile(Failure::header, "age header: malformed scrypt salt");
  const std::string& wf = s.args[1];
  if (wf.empty() || wf.size() > 2 || wf[0] == '0' || wf.find_first_not_of("0123456789") != std::string::npos)
    throw MalformedFile(Failure::header, "age header: malformed scrypt work factor '" + wf + "'");
  const unsigned log2_n = static_cast<unsigned>(std::stoul(wf));
  if (log2_n > options.max_scrypt_log2_n)
    throw MalformedFile(Failure::header, "age: the scrypt work factor 2^" + wf + " is above the limit 2^" +
                                                std::to_string(options.max_scrypt_log2_n) +
                                                " (opening it would take too long)");
  if (s.body.size() != kWrappedKey) throw MalformedFile(Failure::header, "age header: an scrypt stanza body must be 32 bytes");
  Key32 key = scrypt_wrap_key(options.passphrase, *salt, log2_n);
  auto file_key = unwrap(key, s.body);
  secure_wipe(key.data(), key.size());
  if (!file_key) throw OpenFailed(Failure::no_match, "age: wrong passphrase (the scrypt stanza did not open)");
  return file_key;
}

/// The file key from the header's stanzas.
FileKey find_file_key(const Header& h, const DecryptOptions& options) {
  bool has_scrypt = false;
  for (const Stanza& s : h.stanzas) has_scrypt |= s.type == "scrypt";
  if (has_scrypt) {
    if (h.stanzas.size() != 1) throw MalformedFile(Failure::header, "age header: an scrypt stanza must be the only stanza");
    if (options.passphrase.empty())
      throw InvalidArgument("age: the file is encrypted with a passphrase; give the passphrase, not identities");
    return *open_scrypt(h.stanzas[0], options);
  }
  if (options.identities.empty() && !options.passphrase.empty())
    throw OpenFailed(Failure::no_match, "age: the file is not encrypted with a passphrase (it has no scrypt stanza)");
  if (options.identities.empty()) throw InvalidArgument("age: no identity given to open the file with");
  for (const Stanza& s : h.stanzas) {
    if (s.type != "X25519") continue;  // other recipient types are not ours: skipped, as the spec says
    if (auto key = open_x25519(s, options.identities)) return *key;
  }
  throw OpenFailed(Failure::no_match, "age: no identity matched any of the file's recipients");
}

/// A StreamReader over memory that stays valid while it is used.
StreamReader memory_reader(bytes_view data) {
  return [data, at = std::size_t{0}](mutable_bytes out) mutable {
    const std::size_t n = std::min(out.size(), data.size() - at);
    copy_bytes(out.data(), data.data() + at, n);
    at += n;
    return n;
  };
}

/// An age file's input: the bytes of `read`, through the armor's decoder when `armored` says so or, unset, when
/// the file starts with the armor.
class FileInput {
 public:
  explicit FileInput(const StreamReader& read, std::optional<bool> armored = std::nullopt)
      : raw_(std::make_shared<AgeInput>(read)), armored_(armored) {}
  AgeInput& get() {
    if (!decided_) {
      decided_ = true;
      if (armored_ ? *armored_ : age::is_armored(raw_->peek(kArmorBegin.size() + 64)))
        decoded_ = std::make_unique<AgeInput>(armor_reader(raw_));
    }
    return decoded_ ? *decoded_ : *raw_;
  }

 private:
  std::shared_ptr<AgeInput> raw_;
  std::optional<bool> armored_;
  std::unique_ptr<AgeInput> decoded_;
  bool decided_ = false;
};

}  // namespace

bool is_armored(bytes_view start) {
  std::size_t at = 0;
  while (at < start.size() && (start[at] == ' ' || start[at] == '\t' || start[at] == '\r' || start[at] == '\n')) ++at;
  const bytes_view rest = start.subspan(at);
  const std::size_t n = std::min(rest.size(), kArmorBegin.size());
  return n > 0 && std::memcmp(rest.data(), kArmorBegin.data(), n) == 0 && n == kArmorBegin.size();
}

void encrypt(const StreamReader& read, const StreamSink& write, const EncryptOptions& options) {
  if (options.recipients.empty() && options.passphrase.empty())
    throw InvalidArgument("age: no recipient (give at least one age1... recipient or a passphrase)");
  if (!options.recipients.empty() && !options.passphrase.empty())
    throw InvalidArgument("age: a passphrase cannot be combined with recipients");
  if (options.scrypt_log2_n < 1 || options.scrypt_log2_n > 30)
    throw InvalidArgument("age: the scrypt work factor must be 1..30");
  FileKey file_key{};
  random_fill(file_key);
  std::vector<Stanza> stanzas;
  if (!options.passphrase.empty()) {
    stanzas.push_back(scrypt_stanza(options.passphrase, options.scrypt_log2_n, file_key));
  } else {
    for (const Recipient& r : options.recipients) stanzas.push_back(x25519_stanza(r, file_key));
  }
  std::string header = header_mac_input(stanzas);
  Key32 mac_key = hkdf32(file_key, {}, "header");
  const Key32 mac = hmac_sha256(mac_key, as_bytes(header));
  secure_wipe(mac_key.data(), mac_key.size());
  header.append(" ").append(base64_encode(mac, false)).append("\n");

  std::array<std::uint8_t, 16> nonce{};
  random_fill(nonce);
  Key32 payload_key = hkdf32(file_key, nonce, "payload");
  secure_wipe(file_key.data(), file_key.size());

  std::unique_ptr<ArmorWriter> armor;
  StreamSink out = write;
  if (options.armor) {
    armor = std::make_unique<ArmorWriter>(write);
    out = [&](bytes_view b) { armor->write(b); };
  }
  out(as_bytes(header));
  out(nonce);
  try {
    seal_payload(payload_key, read, out, options.run);
  } catch (...) {
    secure_wipe(payload_key.data(), payload_key.size());
    throw;
  }
  secure_wipe(payload_key.data(), payload_key.size());
  if (armor) armor->finish();
}

std::string_view failure_name(Failure failure) {
  switch (failure) {
    case Failure::armor: return "armor failure";
    case Failure::header: return "header failure";
    case Failure::no_match: return "no match";
    case Failure::header_mac: return "HMAC failure";
    case Failure::payload: return "payload failure";
  }
  return "unknown failure";
}

void decrypt(const StreamReader& read, const StreamSink& write, const DecryptOptions& options) {
  FileInput file(read, options.armored);
  AgeInput* in = &file.get();
  const Header h = read_header(*in);
  FileKey file_key = find_file_key(h, options);
  Key32 mac_key = hkdf32(file_key, {}, "header");
  const Key32 mac = hmac_sha256(mac_key, as_bytes(h.mac_input));
  secure_wipe(mac_key.data(), mac_key.size());
  if (!ct::equal(mac.data(), h.mac.data(), mac.size())) {
    secure_wipe(file_key.data(), file_key.size());
    throw OpenFailed(Failure::header_mac, "age: the header MAC does not verify: the header was modified");
  }
  std::array<std::uint8_t, 16> nonce{};
  if (in->read(nonce) != nonce.size()) {
    secure_wipe(file_key.data(), file_key.size());
    throw MalformedFile(Failure::header, "age: the file ends after the header (no whole payload nonce)");
  }
  Key32 payload_key = hkdf32(file_key, nonce, "payload");
  secure_wipe(file_key.data(), file_key.size());
  try {
    open_payload(payload_key, *in, write, options.run);
  } catch (...) {
    secure_wipe(payload_key.data(), payload_key.size());
    throw;
  }
  secure_wipe(payload_key.data(), payload_key.size());
}

bool needs_passphrase(bytes_view start) {
  try {
    FileInput file(memory_reader(start));
    for (const Stanza& s : read_header(file.get()).stanzas)
      if (s.type == "scrypt") return true;
  } catch (const Error&) {  // not (all of) a header: nothing to ask for yet
  }
  return false;
}

bytes encrypt(bytes_view plaintext, const EncryptOptions& options) {
  bytes out;
  encrypt(memory_reader(plaintext), [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); }, options);
  return out;
}

bytes decrypt(bytes_view file, const DecryptOptions& options) {
  bytes out;
  out.reserve(file.size());  // the plaintext is shorter: no reallocation leaves copies of it behind
  try {
    decrypt(memory_reader(file), [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); }, options);
  } catch (...) {
    secure_wipe(out.data(), out.size());
    throw;
  }
  return out;
}

}  // namespace cryptaccel::age
