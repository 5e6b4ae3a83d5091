// The engine registry: `auto` resolves to an available engine, forcing an unusable one is a clear error, and the
// report of a batch names the engine that actually ran.
#include <gtest/gtest.h>

#include "cryptaccel/batch.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/version.hpp"

using namespace cryptaccel;

TEST(EngineRegistry, RefIsAlwaysPresentAndAvailable) {
  bool found = false;
  for (const auto& e : engines())
    if (e.name == "ref") found = e.available;
  EXPECT_TRUE(found);
}

TEST(EngineRegistry, AutoPicksTheFirstAvailableSupportingEngine) {
  const auto spec = CipherSpec::parse("aes-128-ctr");
  std::string expected;
  for (const auto& e : engines())
    if (e.available) { expected = e.name; break; }
  EXPECT_EQ(resolve_engine("auto", spec, Direction::encrypt), expected);
}

TEST(EngineRegistry, ReportNamesTheEngineThatRan) {
  const bytes key(16, 1), iv(16, 2), in(100, 3);
  std::string used;
  encrypt(CipherSpec::parse("aes-128-ctr"), CipherParams{key, iv}, in, "ref", &used);
  EXPECT_EQ(used, "ref");
  bytes out(100);
  CipherJob jobs[] = {CipherJob{key, iv, in, out}};
  EXPECT_EQ(run_batch(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, jobs, {"ref"}).engine, "ref");
}

TEST(EngineRegistry, UnknownEngineIsAClearError) {
  try {
    resolve_engine("nosuch", CipherSpec::parse("aes-128-cbc"), Direction::encrypt);
    FAIL() << "expected EngineUnavailable";
  } catch (const EngineUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("unknown engine 'nosuch'"), std::string::npos) << e.what();
  }
}

TEST(EngineRegistry, ForcingAnEngineThisBuildLacksIsAClearError) {
  for (const char* name : {"cpu", "cuda"}) {
    bool present = false;
    for (const auto& e : engines()) present |= e.name == name && e.available;
    if (present) continue;
    try {
      encrypt(CipherSpec::parse("aes-128-ctr"), CipherParams{bytes(16), bytes(16)}, bytes(16), name);
      FAIL() << "expected EngineUnavailable for " << name;
    } catch (const EngineUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

TEST(EngineRegistry, VersionIsSet) { EXPECT_STRNE(kVersion, ""); }
