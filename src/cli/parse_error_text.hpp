// One style for command-line parser messages: CLI11 writes "The following argument was not expected: x" and "A
// subcommand is required"; every other message of the tool starts in lower case ("cryptaccel crack: unknown ...").
#pragma once
#include <cctype>
#include <string>

namespace cryptaccel::cli {

/// `message` on one line, its first letter lowered unless it begins an acronym ("RSA", "XTS").
inline std::string parse_error_text(std::string message) {
  for (char& c : message)
    if (c == '\n') c = ' ';
  if (message.size() >= 2 && std::isupper(static_cast<unsigned char>(message[0])) &&
      !std::isupper(static_cast<unsigned char>(message[1])))
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return message;
}

}  // namespace cryptaccel::cli
