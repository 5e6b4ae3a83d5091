// Cracking: the potfile, as hashcat keeps it: one "hash:plain" line per cracked hash, plains that could
// not be read back safely written as $HEX[...]. Every find is appended with one write() and fsync'd at once, so an
// interrupted run never loses a find and never leaves a half line that a later run would believe.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace cryptaccel::crack {

/// True when `plain` must be written as $HEX[...]: hashcat's rule (not printable UTF-8: invalid UTF-8 or a byte
/// below 0x20; contains the ':' separator; looks like "$HEX[...]" itself), and also, beyond hashcat, a leading or
/// trailing space (which editors and `cut` lose).
bool plain_needs_hex(std::string_view plain);
/// `plain` as a potfile / --show field: as is, or "$HEX[" lower-case hex "]" when plain_needs_hex.
std::string encode_plain(std::string_view plain);
/// The plain of a potfile field: "$HEX[...]" (even number of hex digits, either case) decoded, anything else as is.
std::string decode_plain(std::string_view field);

/// The default potfile: $XDG_DATA_HOME/cryptaccel/cryptaccel.potfile, or ~/.local/share/cryptaccel/... when
/// XDG_DATA_HOME is unset or empty (HOME from the environment, else the password database).
std::string default_potfile_path();

/// An open potfile.
class Potfile {
 public:
  /// Reads `path` (a missing file is an empty potfile), keeping the plains of the hashes in `wanted` only (a large
  /// potfile costs no memory for other hashes). A line is split at its first ':' (no supported hash holds one); a
  /// last line without '\n' is an interrupted write and is ignored. Throws std::runtime_error "PATH: reason".
  Potfile(std::string path, const std::unordered_set<std::string>& wanted);

  /// The plain found for `hash`, or nullptr.
  const std::string* find(const std::string& hash) const;

  /// Records a find: appends "hash:plain\n" (one write, then fsync; the directory is created first when needed).
  /// Throws std::runtime_error "PATH: reason".
  void add(const std::string& hash, const std::string& plain);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unordered_map<std::string, std::string> found_;
};

/// Appends `line` + '\n' to `path` with one write() and fsync (creating the file with mode 0600); if the file's last
/// byte is not '\n' (an interrupted earlier write), a '\n' goes first. Throws std::runtime_error "PATH: reason".
void append_line_durably(const std::string& path, std::string_view line);

}  // namespace cryptaccel::crack
