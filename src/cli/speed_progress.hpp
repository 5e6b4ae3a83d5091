// `cryptaccel speed`: what a run shows on stderr as it goes. Progress lines ("Checking ...", "Doing ...: N calls")
// only when stderr is a terminal, as `openssl speed` does; failures always, one "cryptaccel speed: ..." line each.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "cryptaccel/bench/speed.hpp"

namespace cryptaccel::cli {

/// The observer `cryptaccel speed` hands to bench::run_speed.
class SpeedProgress final : public bench::SpeedObserver {
 public:
  SpeedProgress();
  void checking(const bench::RowResult& row) override;
  void timing(const bench::RowResult& row, std::size_t cell, const std::vector<std::string>& impls,
              double seconds) override;
  void timed(const std::vector<bench::Measurement>& measured, const std::vector<std::string>& errors) override;
  void failed(const std::string& message) override;

 private:
  bool terminal_;  ///< stderr is a terminal: show progress
};

}  // namespace cryptaccel::cli
