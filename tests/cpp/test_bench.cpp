// The speed harness (include/cryptaccel/bench.hpp) without a speed run: the side-by-side timer, the wall-clock
// helpers, the checks of a request and the report of hand-made rows. `cryptaccel speed` and cryptaccel.bench are
// tested end to end by tests/python/test_cli_speed*.py and test_python_bench.py.
#include <gtest/gtest.h>

#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptaccel/bench.hpp"
#include "cryptaccel/error.hpp"

namespace bench = cryptaccel::bench;

namespace {

class CountingCell final : public bench::Cell {
 public:
  void run() override { ++calls; }
  int calls = 0;
};

class ThrowingCell final : public bench::Cell {
 public:
  explicit ThrowingCell(bool out_of_memory) : out_of_memory_(out_of_memory) {}
  void run() override {
    if (out_of_memory_) throw std::bad_alloc();
    throw std::runtime_error("engine 'x' failed: broken");
  }

 private:
  bool out_of_memory_;
};

bench::SpeedRequest small_request() {
  bench::SpeedRequest r;
  r.algorithms = {"aes-128-ctr"};
  r.engines = {"ref"};
  return r;
}

std::string plan_error(const bench::SpeedRequest& request) {
  try {
    bench::plan_speed(request);
  } catch (const cryptaccel::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(BenchTimer, EveryCellGetsItsBudgetAndAThrowingOneIsDropped) {
  CountingCell a, b;
  ThrowingCell broken(false), no_memory(true);
  std::vector<bench::Cell*> cells{&a, &broken, &b, &no_memory};
  std::vector<std::string> errors;
  const std::vector<bench::Measurement> m = bench::time_cells(cells, 0.02, errors);
  ASSERT_EQ(m.size(), 4u);
  ASSERT_EQ(errors.size(), 4u);
  for (const std::size_t i : {0u, 2u}) {
    EXPECT_TRUE(errors[i].empty());
    EXPECT_GE(m[i].runs, 1u);
    EXPECT_GE(m[i].seconds, 0.02);
  }
  EXPECT_EQ(static_cast<std::uint64_t>(a.calls), m[0].runs + 1);  // the warm-up call is not counted
  EXPECT_EQ(errors[1], "engine 'x' failed: broken");
  EXPECT_EQ(errors[3], "out of memory");
  EXPECT_EQ(m[1].runs, 0u);
  EXPECT_EQ(m[3].seconds, 0.0);
}

TEST(BenchTimer, MedianBestOfAndSecondsOf) {
  EXPECT_EQ(bench::median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(bench::median({4.0, 1.0, 3.0, 2.0}), 3.0);  // the upper of the middle two
  int calls = 0;
  EXPECT_GE(bench::best_of(3, [&] { ++calls; }), 0.0);
  EXPECT_EQ(calls, 3);
  EXPECT_GE(bench::seconds_of([] {}), 0.0);
}

TEST(BenchPlan, DefaultsAndDuplicates) {
  bench::SpeedRequest r = small_request();
  r.algorithms = {"AES-128-CTR", "aes-128-ctr", "sha256"};
  r.sizes = {"16", "1k", "16"};
  r.batch = "4";
  r.vs = "openssl";
  const bench::SpeedPlan plan = bench::plan_speed(r);
  EXPECT_EQ(plan.settings.algorithms, (std::vector<std::string>{"aes-128-ctr", "sha256"}));
  EXPECT_EQ(plan.settings.sizes, (std::vector<std::size_t>{16, 1024}));
  EXPECT_EQ(plan.settings.batch, 4u);
  EXPECT_EQ(plan.impls, (std::vector<std::string>{"ref", "openssl"}));
  EXPECT_EQ(plan.workloads.size(), 2u);

  const bench::SpeedPlan defaults = bench::plan_speed(bench::SpeedRequest{});
  EXPECT_EQ(defaults.settings.algorithms, bench::default_workload_names());
  EXPECT_EQ(defaults.settings.sizes, (std::vector<std::size_t>{16, 64, 256, 1024, 8192, 16384}));
  EXPECT_EQ(defaults.settings.threads, 0u);
  EXPECT_FALSE(defaults.settings.vs_openssl);
}

TEST(BenchPlan, BadValuesNameTheOption) {
  bench::SpeedRequest r = small_request();
  r.sizes = {"12q"};
  EXPECT_EQ(plan_error(r), "--bytes: not a size: '12q' (a number of bytes, optionally with k or M)");
  r = small_request();
  r.seconds = 0;
  EXPECT_EQ(plan_error(r), "--seconds must be more than 0 and at most 3600, got 0");
  r = small_request();
  r.threads = "-1";
  EXPECT_EQ(plan_error(r), "--threads: not a non-negative integer: '-1'");
  r = small_request();
  r.sizes = {"1M"};
  r.batch = "2048";
  EXPECT_EQ(plan_error(r), "--batch 2048 of 1048576-byte messages is more than 1 GiB");
  r = small_request();
  r.engines = {"openssl"};
  EXPECT_NE(plan_error(r).find("; use --vs openssl to compare with OpenSSL"), std::string::npos);
  r = small_request();
  r.algorithms = {"aes-128-foo"};
  EXPECT_EQ(plan_error(r).rfind("unknown algorithm 'aes-128-foo' (supported: ", 0), 0u);
}

TEST(BenchReport, TableAndJsonOfHandMadeRows) {
  bench::SpeedSettings s;
  s.algorithms = {"aes-128-ctr"};
  s.engines = {"ref"};
  s.sizes = {16, 32};
  s.vs_openssl = true;
  bench::RowResult ref{"aes-128-ctr", "ref", "ref", 0, "", {}, ""};
  ref.cells = {{16, bench::Measurement{1000, 1.0}, ""}, {32, std::nullopt, "too small"}};
  bench::RowResult ossl{"aes-128-ctr", "openssl", "openssl", 0, "", {}, ""};
  ossl.cells = {{16, bench::Measurement{500, 1.0}, ""}, {32, bench::Measurement{500, 1.0}, ""}};
  const std::vector<bench::RowResult> rows{ref, ossl};

  EXPECT_EQ(bench::row_label(ref), "aes-128-ctr [ref]");
  EXPECT_DOUBLE_EQ(bench::bytes_per_second(ref, ref.cells[0]), 16000.0);
  EXPECT_DOUBLE_EQ(bench::messages_per_second(ossl, ossl.cells[1]), 500.0);

  const std::string text = bench::report_text(s, rows);
  EXPECT_NE(text.find("\nThe 'numbers' are in 1000s of bytes per second processed.\n"
                      "type                       16 bytes  32 bytes\n"
                      "aes-128-ctr [ref]            16.00k       n/a\n"
                      "aes-128-ctr [openssl]         8.00k    16.00k\n"
                      "aes-128-ctr [ref/openssl]   2.0000x       n/a\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nnote: aes-128-ctr [ref] 32 bytes: n/a (too small)\n"), std::string::npos) << text;

  const std::string json = bench::report_json(s, rows);
  EXPECT_EQ(json.rfind("{\n  \"schema\": \"cryptaccel-speed/1\",\n  \"timestamp\": ", 0), 0u) << json;
  EXPECT_EQ(json.back(), '\n');
  EXPECT_NE(json.find("\"vs_openssl\": 2.0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"note\": \"too small\""), std::string::npos) << json;
}
