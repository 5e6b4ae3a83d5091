// One way for every command to report a failure: "cryptaccel COMMAND: MESSAGE" on one line of stderr (newlines in the
// message become spaces), after whatever stdout holds so that the two stay in order on a terminal; and one wrapper
// that turns an exception escaping a command into that line and an exit status.
#pragma once
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <string_view>

namespace cryptaccel::cli {

/// Prints "cryptaccel COMMAND: MESSAGE" on stderr as one line.
inline void report_error(std::string_view command, std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fflush(stdout);
  std::fprintf(stderr, "cryptaccel %.*s: %s\n", static_cast<int>(command.size()), command.data(), message.c_str());
}

/// Returns body(); an exception escaping it is reported by report_error ("out of memory" for std::bad_alloc, else
/// describe(e), by default e.what()) and gives `exit_status`.
template <class Body, class Describe>
int run_reporting_errors(std::string_view command, int exit_status, Body&& body, Describe&& describe) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    report_error(command, "out of memory");
  } catch (const std::exception& e) {
    report_error(command, describe(e));
  }
  return exit_status;
}
template <class Body>
int run_reporting_errors(std::string_view command, int exit_status, Body&& body) {
  return run_reporting_errors(command, exit_status, body, [](const std::exception& e) { return std::string(e.what()); });
}

}  // namespace cryptaccel::cli
