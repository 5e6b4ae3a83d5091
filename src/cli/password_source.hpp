// The password an openssl-style argument names (`enc -pass`, `pkeyutl -passin`): pass:X, env:VAR, file:PATH, fd:N
// or stdin. One reader for every command.
#pragma once
#include <string>
#include <string_view>

namespace cryptaccel::cli {

/// The password `spec` names. file:, fd: and stdin give their first line (up to the first '\r' or '\n'), read a byte
/// at a time so that nothing after it is taken from a stream (stdin may carry the data after the password line).
/// `option` ("-pass", "-passin") names the argument in messages. Throws InvalidArgument for an unknown form or a bad
/// descriptor number, std::runtime_error when the password cannot be read.
std::string read_password(const std::string& spec, std::string_view option);

}  // namespace cryptaccel::cli
