// The ISA lab's experiment runner (include/cryptaccel/rvlab/experiment.hpp): tests/rv/experiments/tiny.json through
// load_experiment and run_experiment on the build's kernels (skipped when they were not built), and malformed data
// files, each one clear error line.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cryptaccel/rvlab.hpp"

namespace {

namespace fs = std::filesystem;
namespace lab = cryptaccel::rvlab;

std::string tiny_path() { return std::string(CRYPTACCEL_TEST_RV_EXPERIMENTS) + "/tiny.json"; }

/// The error line load_experiment gives for a data file holding `text`.
std::string load_error(const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("rvlab-bad-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
  std::ofstream(p) << text;
  std::string what;
  try {
    lab::load_experiment(p.string());
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  fs::remove(p);
  return what;
}

TEST(RvlabExperiment, LoadsTheTinyFile) {
  const lab::Experiment e = lab::load_experiment(tiny_path());
  EXPECT_EQ(e.name, "tiny");
  EXPECT_EQ(e.layout, "generic");
  EXPECT_FALSE(e.missing_is_error);
  ASSERT_EQ(e.rows.size(), 3u);
  EXPECT_EQ(e.rows[0].variants, (std::vector<std::string>{"software-naive", "native"}));
  EXPECT_EQ(e.rows[0].xlens, (std::vector<unsigned>{32, 64}));
  ASSERT_EQ(e.rows[1].runs.size(), 2u);
  EXPECT_EQ(e.rows[1].runs[1].label, "12 rounds");
  EXPECT_TRUE(e.rows[1].first_xlen);
  EXPECT_NE(e.rows[0].extra_json.find("\"paper\""), std::string::npos);
}

TEST(RvlabExperiment, RunsTheTinyFile) {
  const std::string manifest_path = CRYPTACCEL_TEST_RV_MANIFEST;  // the build's (empty: the kernels were not built)
  if (manifest_path.empty() || !fs::is_regular_file(manifest_path)) {
    GTEST_SKIP() << "RISC-V kernels not built (clang-19 / ld.lld-19 missing)";
  }
  const lab::Manifest m = lab::load_manifest(lab::locate_manifest(manifest_path));
  if (m.kernel("sha256") == nullptr || m.kernel("keccak-f1600") == nullptr) GTEST_SKIP() << "kernels missing";
  lab::ExperimentSettings s;
  s.seed = 7;
  const lab::ExperimentResult r = lab::run_experiment(lab::load_experiment(tiny_path()), m, s);
  // 2 variants x 2 XLENs, one Keccak cell, one cell for the absent kernel.
  ASSERT_EQ(r.cells.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(r.cells[i].status, "ok") << i;
  EXPECT_EQ(r.cells[5].status, "missing");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], "absent reference rv64: the kernel manifest has no kernel no-such-kernel (not built yet)");
  EXPECT_EQ(r.rows[0].label, "SHA-256, 64 B");
  EXPECT_EQ(r.rows[1].label, "Keccak-f[1600], 1 state");
  // The shared input: every variant and XLEN hashed the same message.
  EXPECT_EQ(r.cells[0].runs[0]->input.stdin_bytes, r.cells[3].runs[0]->input.stdin_bytes);
  // Two runs of the Keccak cell: 24 rounds cost more than 12.
  const lab::ExperimentCell& k = r.cells[4];
  ASSERT_EQ(k.runs.size(), 2u);
  EXPECT_EQ(k.xlen, 64u);
  EXPECT_GT(k.runs[0]->result.region.instret, k.runs[1]->result.region.instret);
  // The native kernel needs fewer instructions than the naive software one.
  const lab::ExperimentCell* soft = r.cell("sha256-64", "software-naive", 64);
  const lab::ExperimentCell* native = r.cell("sha256-64", "native", 64);
  ASSERT_NE(soft, nullptr);
  ASSERT_NE(native, nullptr);
  EXPECT_LT(native->runs[0]->result.region.instret, soft->runs[0]->result.region.instret);
  // The reports: text and JSON with the environment after the title, the paper figures per cell.
  const std::string json = lab::report_json(r, R"({"timestamp": "now"})");
  EXPECT_NE(json.find("\"title\": \"A tiny experiment"), std::string::npos);
  EXPECT_LT(json.find("\"title\""), json.find("\"timestamp\": \"now\""));
  EXPECT_NE(json.find("\"instret\": 1000"), std::string::npos);
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  lab::write_report_text(out, r);
  std::rewind(out);
  std::string text(8192, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  EXPECT_NE(text.find("SHA-256, 64 B"), std::string::npos);
  EXPECT_NE(text.find("6 runs in"), std::string::npos);
}

TEST(RvlabExperiment, MalformedFilesGiveOneLine) {
  struct Case {
    const char* text;
    const char* words;
  };
  const Case cases[] = {
      {"{", "parse error"},
      {R"({"format": "cryptaccel-rv-experiment/2", "name": "x", "title": "t", "rows": []})", "\"format\""},
      {R"({"format": "cryptaccel-rv-experiment/1", "name": "x", "title": "t"})", "\"rows\" must be a non-empty list"},
      {R"({"format": "cryptaccel-rv-experiment/1", "name": "x", "title": "t", "rows": [
         {"id": "a", "kernel": "sha256", "variants": ["native"], "xlens": [48]}]})",
       "rows[0] (\"a\"): \"xlens\" must be a non-empty list of 32 and 64"},
      {R"({"format": "cryptaccel-rv-experiment/1", "name": "x", "title": "t", "rows": [
         {"id": "a", "kernel": "sha256", "variants": ["native"], "xlens": [64], "workload": {"size": 3}}]})",
       "rows[0] (\"a\"), \"workload\": unknown key \"size\""},
      {R"({"format": "cryptaccel-rv-experiment/1", "name": "x", "title": "t", "layout": "seed999", "rows": [
         {"id": "a", "kernel": "sha256", "variants": ["native"], "xlens": [64]}]})",
       "unknown \"layout\" \"seed999\""},
      {R"({"format": "cryptaccel-rv-experiment/1", "name": "x", "title": "t", "layout": "seed001", "rows": [
         {"id": "a", "kernel": "sha256", "variants": ["native"], "xlens": [64]}]})",
       "layout seed001"},
  };
  for (const Case& c : cases) {
    const std::string what = load_error(c.text);
    EXPECT_NE(what.find("malformed experiment file "), std::string::npos) << what;
    EXPECT_NE(what.find(c.words), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(RvlabExperiment, ShippedFilesLoad) {
  for (const char* name : {"seed000", "seed001", "seed004"}) {
    const lab::Experiment e =
        lab::load_experiment(std::string(CRYPTACCEL_TEST_RV_EXPERIMENTS) + "/../../../rv/experiments/" + name + ".json");
    EXPECT_EQ(e.name, name);
    EXPECT_EQ(e.layout, name);
  }
}

}  // namespace
