// `auto` and the GPU's fixed cost per call: the cuda engine is worth it only from its break-even sizes on
// (src/cuda/host/auto_break_even.hpp). The first GPU run found every small request through `auto` going to the GPU: one
// RSA signature's SHA-256 took a GPU round trip (~40 us), so sign and verify ran at a tenth of OpenSSL's rate.
#include <gtest/gtest.h>

#include "cuda/host/auto_break_even.hpp"

namespace cryptaccel {
namespace {

using engine::Work;
using engine::WorkKind;

constexpr WorkKind kKinds[] = {WorkKind::cipher, WorkKind::hash, WorkKind::keccak,
                               WorkKind::rsa_private, WorkKind::rsa_public, WorkKind::shacrypt};

TEST(AutoBreakEven, UnknownSizesCountAsLarge) {
  for (WorkKind kind : kKinds) {
    Work w = Work::unknown();
    w.kind = kind;
    EXPECT_TRUE(cuda::worth_auto(w)) << static_cast<int>(kind);
  }
}

TEST(AutoBreakEven, OneSmallRequestStaysOnTheHost) {
  // One message, one signature, one state, one candidate: what library internals (RSA padding digests, MGF1) and
  // one-shot calls ask for.
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::hash, 1, 32)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::hash, 1, 1 << 20)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::cipher, 1, 4096)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::keccak, 1)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::rsa_private, 1)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::rsa_public, 1)));
  EXPECT_FALSE(cuda::worth_auto(Work::of(WorkKind::shacrypt, 1, 5000)));
}

TEST(AutoBreakEven, EachBoundAloneIsEnoughAndExactlyAtIt) {
  std::size_t offloaded_kinds = 0;
  for (WorkKind kind : kKinds) {
    const cuda::BreakEven b = cuda::break_even(kind);
    if (b.items != cuda::kNever) {
      EXPECT_TRUE(cuda::worth_auto(Work::of(kind, b.items, 0)));
      EXPECT_FALSE(cuda::worth_auto(Work::of(kind, b.items - 1, 0)));
    }
    if (b.bytes != cuda::kNever) {
      EXPECT_TRUE(cuda::worth_auto(Work::of(kind, 1, b.bytes)));
      EXPECT_FALSE(cuda::worth_auto(Work::of(kind, 1, b.bytes - 1)));
    }
    if (b.items == cuda::kNever && b.bytes == cuda::kNever) {
      EXPECT_FALSE(cuda::worth_auto(Work::of(kind, ~std::size_t{0} - 1, ~std::size_t{0} - 1)));
    } else {
      ++offloaded_kinds;
    }
  }
  // RSA private operations and SHA-crypt are where the first GPU run measured a crossover.
  EXPECT_EQ(offloaded_kinds, 2u);
}

TEST(AutoBreakEven, PrivateOperationsPayBeforePublicOnes) {
  // A private RSA operation is ~100x the work of a public one (e = 65537): the GPU pays at far fewer of them.
  EXPECT_LT(cuda::break_even(WorkKind::rsa_private).items, cuda::break_even(WorkKind::rsa_public).items);
}

}  // namespace
}  // namespace cryptaccel
