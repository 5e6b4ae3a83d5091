// Fuzzes the streaming pipeline (CipherStream: update/finish in arbitrary pieces, small chunks and batches so that
// every boundary is crossed, then pipe() from a reader): for any streamable cipher, encrypting the fuzzer's message
// must equal the one-shot encryption, and decrypting the fuzzer's bytes as a ciphertext must give the one-shot
// result or the same error (bad padding, a length the mode cannot take, a GCM tag mismatch).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cryptaccel/cipher.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/stream.hpp"
#include "fuzz_checks.hpp"

namespace ca = cryptaccel;
using ca::bytes;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  static const std::vector<std::string> names = [] {
    std::vector<std::string> streamable;
    for (const std::string& n : ca::cipher_names())
      if (ca::CipherSpec::parse(n).mode != ca::Mode::poly1305) streamable.push_back(n);  // one tag over the whole
    return streamable;
  }();
  const ca::CipherSpec spec = ca::CipherSpec::parse(names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]);
  const ca::Direction dir = in.ConsumeBool() ? ca::Direction::encrypt : ca::Direction::decrypt;
  bytes key(spec.key_size());
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i * 7 + 1);  // XTS halves differ
  const bytes iv = in.ConsumeBytes<std::uint8_t>(spec.iv_size()), aad = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 40));
  if (iv.size() != spec.iv_size()) return 0;
  ca::CipherParams p{key, iv, spec.mode == ca::Mode::gcm ? ca::bytes_view(aad) : ca::bytes_view{}};
  ca::StreamOptions o;
  o.engine = in.ConsumeBool() ? "cpu" : "ref";
  o.chunk_bytes = in.ConsumeIntegralInRange<std::size_t>(16, 300);
  o.chunks_per_batch = in.ConsumeIntegralInRange<std::size_t>(1, 4);
  o.threads = 1;
  std::vector<std::size_t> pieces;
  for (int i = 0; i < 6; ++i) pieces.push_back(in.ConsumeIntegralInRange<std::size_t>(0, 200));
  const bytes input = in.ConsumeRemainingBytes<std::uint8_t>();

  bytes one_shot;
  const std::string one_shot_error = fuzz::error_kind([&] {
    one_shot = dir == ca::Direction::encrypt ? ca::encrypt(spec, p, input, "ref") : ca::decrypt(spec, p, input, "ref");
  });
  if (one_shot_error == "InvalidArgument") return 0;  // e.g. an XTS message shorter than a block: not streamable

  bytes streamed;
  const ca::StreamSink sink = [&](ca::bytes_view b) { streamed.insert(streamed.end(), b.begin(), b.end()); };
  const std::string stream_error = fuzz::error_kind([&] {
    ca::CipherStream s(spec, dir, p, o);
    std::size_t at = 0;
    for (std::size_t i = 0; at < input.size(); ++i) {
      const std::size_t n = std::min(pieces[i % pieces.size()] + 1, input.size() - at);
      s.update(ca::bytes_view(input).subspan(at, n), sink);
      at += n;
    }
    s.finish(sink);
  });
  if (stream_error == "EngineUnavailable") return 0;
  FUZZ_CHECK(stream_error == one_shot_error);
  FUZZ_CHECK(!stream_error.empty() || streamed == one_shot);

  bytes piped;
  const std::string pipe_error = fuzz::error_kind([&] {
    ca::CipherStream s(spec, dir, p, o);
    std::size_t at = 0;
    s.pipe(
        [&](ca::mutable_bytes out) {
          const std::size_t n = std::min(out.size(), input.size() - at);
          std::copy_n(input.begin() + static_cast<std::ptrdiff_t>(at), n, out.begin());
          at += n;
          return n;
        },
        [&](ca::bytes_view b) { piped.insert(piped.end(), b.begin(), b.end()); });
  });
  FUZZ_CHECK(pipe_error == one_shot_error);
  FUZZ_CHECK(!pipe_error.empty() || piped == one_shot);
  return 0;
}
