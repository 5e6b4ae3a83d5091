// prepare_fresh_output (include/cryptaccel/memory.hpp): only advice, so what must hold is that it never changes
// memory (fresh or written, aligned or not, small or large) and that the buffer is usable afterwards.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cryptaccel/cryptaccel.hpp"

namespace ca = cryptaccel;

TEST(PrepareFreshOutput, KeepsWrittenContentsAtEveryAlignment) {
  for (const std::size_t offset : {0u, 1u, 17u, 4095u, 4096u}) {
    for (const std::size_t len : {std::size_t{0}, std::size_t{100}, ca::kPrepareOutputFrom - 1, ca::kPrepareOutputFrom,
                                  ca::kPrepareOutputFrom + 4097, std::size_t{9} << 20}) {
      std::vector<std::uint8_t> memory(len + offset + 1);
      for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<std::uint8_t>(i * 131 + i / 4096);
      const std::vector<std::uint8_t> before = memory;
      ca::prepare_fresh_output(ca::mutable_bytes(memory.data() + offset, len));
      ASSERT_EQ(memory, before) << "offset " << offset << ", length " << len;
    }
  }
}

TEST(PrepareFreshOutput, FreshMemoryThenTakesAnEncryption) {
  const std::size_t len = (std::size_t{8} << 20) + 16;
  std::unique_ptr<std::uint8_t, decltype(&std::free)> fresh(static_cast<std::uint8_t*>(std::malloc(len + 33)), &std::free);
  ASSERT_NE(fresh, nullptr);
  const ca::mutable_bytes out(fresh.get() + 33, len);
  ca::prepare_fresh_output(out, 2);

  const std::vector<std::uint8_t> plaintext(len - 16, 0x5a), key(32, 7), iv(12, 9);
  const auto spec = ca::CipherSpec::parse("aes-256-gcm");
  ca::CipherParams params;
  params.key = key;
  params.iv = iv;
  params.tag_len = 16;
  ASSERT_EQ(ca::encrypt_into(spec, params, plaintext, out, "ref"), len);
  EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), ca::encrypt(spec, params, plaintext, "ref"));
}
