// CipherStream (include/cryptaccel/stream.hpp) against the one-shot API: every streamable mode, both directions, on
// every host engine, with small chunks and batches so that streams cross many chunk and batch boundaries, fed in
// random pieces (byte by byte included). Random cases draw from a seed printed on failure; CRYPTACCEL_TEST_SEED
// replays one.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cryptaccel/error.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/stream.hpp"
#include "test_util.hpp"

namespace cryptaccel {
namespace {

std::uint64_t test_seed() { return test::seed_or(20261127); }

/// Runs a whole stream: `data` fed in pieces of random sizes up to `max_piece`; returns everything the sink got.
bytes run_stream(CipherStream& stream, bytes_view data, std::mt19937_64& rng, std::size_t max_piece) {
  bytes out;
  const StreamSink sink = [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); };
  for (std::size_t at = 0; at < data.size();) {
    const std::size_t n = std::min<std::size_t>(data.size() - at, 1 + rng() % max_piece);
    stream.update(data.subspan(at, n), sink);
    at += n;
  }
  stream.finish(sink);
  return out;
}

/// Runs a whole stream through pipe(): `data` read in batch-sized reads (the last one short), or given in memory;
/// the output collected.
bytes run_pipe(CipherStream& stream, bytes_view data, bool in_memory = false) {
  bytes out;
  if (in_memory) {
    stream.pipe(data, [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); });
    return out;
  }
  std::size_t at = 0;
  stream.pipe(
      [&](mutable_bytes buffer) {
        const std::size_t n = std::min(buffer.size(), data.size() - at);
        std::copy_n(data.begin() + at, n, buffer.begin());
        at += n;
        return n;
      },
      [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); });
  return out;
}

struct Case {
  std::string engine, cipher;
  bool padding;
  std::size_t xts_unit;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* engine : {"ref", "cpu"})
    for (const char* cipher : {"aes-128-ctr", "aes-256-ctr", "sm4-ctr", "aes-128-ecb", "aes-192-cbc", "aes-256-cbc",
                               "sm4-cbc", "sm4-ecb"}) {
      const CipherSpec spec = CipherSpec::parse(cipher);
      for (bool padding : {true, false}) {
        if (!padding && !spec.pads()) continue;
        out.push_back({engine, cipher, padding, 0});
      }
    }
  for (const char* engine : {"ref", "cpu"})
    for (const char* cipher : {"aes-128-gcm", "aes-256-gcm", "sm4-gcm"}) out.push_back({engine, cipher, false, 0});
  for (const char* cipher : {"aes-128-xts", "aes-256-xts"}) out.push_back({"cpu", cipher, false, 0});  // one unit
  for (const char* engine : {"ref", "cpu"})
    for (std::size_t unit : {16u, 48u, 512u}) {
      out.push_back({engine, "aes-128-xts", false, unit});
      out.push_back({engine, "aes-256-xts", false, unit});
    }
  return out;
}

/// Whether the cpu engine has its XTS kernel that starts at any block (AES-NI) on this machine.
bool CipherStreamTestCpuXts() {
  return streamable(CipherSpec::parse("aes-128-xts"), 0, "cpu");
}

class CipherStreamVsOneShot : public testing::TestWithParam<Case> {};

TEST_P(CipherStreamVsOneShot, RandomLengthsChunksAndPieces) {
  const Case& c = GetParam();
  if (CipherSpec::parse(c.cipher).mode == Mode::xts && c.xts_unit == 0 && !CipherStreamTestCpuXts())
    GTEST_SKIP() << "no AES-NI here: the cpu engine has no XTS kernel that starts at any block";
  CipherSpec spec = CipherSpec::parse(c.cipher);
  spec.padding = c.padding;
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("CRYPTACCEL_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed ^ std::hash<std::string>()(c.engine + c.cipher + std::to_string(c.padding) +
                                                      std::to_string(c.xts_unit)));
  for (int round = 0; round < 40; ++round) {
    const bytes key = test::random_bytes(rng, spec.key_size());
    const bool gcm = spec.mode == Mode::gcm;
    const bytes iv = spec.mode == Mode::ecb ? bytes{} : test::random_bytes(rng, gcm && rng() % 2 ? 1 + rng() % 40 : 16);
    const bytes aad = gcm ? test::random_bytes(rng, rng() % 50) : bytes{};
    StreamOptions o;
    o.engine = c.engine;
    o.chunk_bytes = 16 * (1 + rng() % 6);  // 16..96 bytes (XTS: rounded to whole units)
    o.chunks_per_batch = 1 + rng() % 4;
    const std::size_t batch_bytes = std::max(o.chunk_bytes, c.xts_unit) * o.chunks_per_batch;
    std::size_t len = rng() % (3 * batch_bytes + 40);
    if (!spec.pads() && spec.mode != Mode::ctr && !gcm) len = len / 16 * 16;  // ECB/CBC without padding, XTS
    if (spec.mode == Mode::xts) len = std::max<std::size_t>(len, 16);
    const std::size_t unit = c.xts_unit ? c.xts_unit : std::size_t(-1);  // 0: the whole stream one data unit
    if (spec.mode == Mode::xts && len % unit != 0 && len % unit < 16) len += 16;  // last unit >= 16
    if (spec.mode == Mode::xts && rng() % 2) len += rng() % 16;            // ciphertext stealing in the last unit
    if (spec.mode == Mode::xts && len % unit != 0 && len % unit < 16) len = len / 16 * 16;
    const bytes plain = test::random_bytes(rng, len);
    CipherParams p;
    p.key = key, p.iv = iv, p.aad = aad, p.xts_unit = c.xts_unit;
    if (gcm) p.tag_len = 4 + rng() % 13;
    SCOPED_TRACE("round " + std::to_string(round) + ", length " + std::to_string(len) + ", chunk " +
                 std::to_string(o.chunk_bytes) + " x " + std::to_string(o.chunks_per_batch));
    const bytes expected = encrypt(spec, p, plain, "ref");
    const std::size_t max_piece = rng() % 4 == 0 ? 1 : 1 + rng() % (2 * batch_bytes);
    CipherStream enc(spec, Direction::encrypt, p, o);
    ASSERT_EQ(test::to_hex(run_stream(enc, plain, rng, max_piece)), test::to_hex(expected));
    EXPECT_EQ(enc.bytes_in(), len);
    CipherStream dec(spec, Direction::decrypt, p, o);
    ASSERT_EQ(test::to_hex(run_stream(dec, expected, rng, max_piece)), test::to_hex(plain));
    // The same through pipe(), with 3..5 buffers in flight, from a reader and from memory.
    o.pipeline_buffers = 3 + rng() % 3;
    for (bool in_memory : {false, true}) {
      SCOPED_TRACE(in_memory ? "pipe from memory" : "pipe from a reader");
      CipherStream pipe_enc(spec, Direction::encrypt, p, o);
      ASSERT_EQ(test::to_hex(run_pipe(pipe_enc, plain, in_memory)), test::to_hex(expected));
      EXPECT_EQ(pipe_enc.bytes_in(), len);
      CipherStream pipe_dec(spec, Direction::decrypt, p, o);
      ASSERT_EQ(test::to_hex(run_pipe(pipe_dec, expected, in_memory)), test::to_hex(plain));
    }
    if (gcm) {  // any flipped bit, tag included, fails at finish
      bytes forged = expected;
      forged[rng() % forged.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      CipherStream bad(spec, Direction::decrypt, p, o);
      EXPECT_THROW(run_stream(bad, forged, rng, max_piece), AuthenticationFailed);
      CipherStream bad_pipe(spec, Direction::decrypt, p, o);
      EXPECT_THROW(run_pipe(bad_pipe, forged), AuthenticationFailed);
      CipherStream bad_pipe_in_memory(spec, Direction::decrypt, p, o);
      EXPECT_THROW(run_pipe(bad_pipe_in_memory, forged, true), AuthenticationFailed);
    }
    if (len > 0) {
      EXPECT_EQ(dec.engine_used(), c.engine);
    }
  }
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const bool pads = CipherSpec::parse(info.param.cipher).pads();
  std::string name = info.param.engine + "_" + info.param.cipher + (info.param.padding || !pads ? "" : "_nopad") +
                     (info.param.xts_unit ? "_unit" + std::to_string(info.param.xts_unit) : "");
  for (char& ch : name) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(HostEngines, CipherStreamVsOneShot, testing::ValuesIn(cases()), case_name);

TEST(CipherStream, BadPaddingAndBadLengthsAreBadDecrypt) {
  const CipherSpec spec = CipherSpec::parse("aes-128-cbc");
  const bytes key(16, 1), iv(16, 2);
  CipherParams p;
  p.key = key, p.iv = iv;
  const StreamSink ignore = [](bytes_view) {};
  StreamOptions o;
  o.chunk_bytes = 32, o.chunks_per_batch = 2;
  bytes ct = encrypt(spec, p, bytes(100, 7));
  ct.back() ^= 1;  // the padding block decrypts to garbage
  CipherStream bad(spec, Direction::decrypt, p, o);
  bad.update(ct, ignore);
  EXPECT_THROW(bad.finish(ignore), BadDecrypt);
  for (std::size_t len : {0u, 15u, 33u}) {
    CipherStream s(spec, Direction::decrypt, p, o);
    s.update(bytes(len, 1), ignore);
    EXPECT_THROW(s.finish(ignore), BadDecrypt) << len;
  }
}

TEST(CipherStream, PipeStopsAtTheFirstErrorAndWithholdsABadLastBatch) {
  const CipherSpec spec = CipherSpec::parse("aes-128-cbc");
  const bytes key(16, 1), iv(16, 2), plain(1000, 7);
  CipherParams p;
  p.key = key, p.iv = iv;
  StreamOptions o;
  o.engine = "cpu", o.chunk_bytes = 64, o.chunks_per_batch = 2, o.pipeline_buffers = 3;
  bytes ct = encrypt(spec, p, plain);
  ct.back() ^= 1;  // the padding block decrypts to garbage
  {
    // Nothing of the last batch (the one with the padding) reaches the writer.
    CipherStream bad(spec, Direction::decrypt, p, o);
    bytes out;
    std::size_t at = 0;
    EXPECT_THROW(bad.pipe(
                     [&](mutable_bytes b) {
                       const std::size_t n = std::min(b.size(), ct.size() - at);
                       std::copy_n(ct.begin() + at, n, b.begin());
                       return at += n, n;
                     },
                     [&](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); }),
                 BadDecrypt);
    EXPECT_LE(out.size(), ct.size() - 128 + 1);  // at most what came before the last 128-byte batch (+ one kept back)
    EXPECT_EQ(test::to_hex(out), test::to_hex(bytes_view(plain).first(out.size())));
  }
  // An exception from the reader or the writer stops the pipe and comes back to the caller, as it was.
  struct ReadFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  int reads = 0;
  CipherStream reader_fails(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p, o);
  EXPECT_THROW(reader_fails.pipe(
                   [&](mutable_bytes b) -> std::size_t {
                     if (++reads == 5) throw ReadFailed("read failed");
                     return b.size();
                   },
                   [](bytes_view) {}),
               ReadFailed);
  int writes = 0;
  CipherStream writer_fails(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p, o);
  EXPECT_THROW(writer_fails.pipe([](mutable_bytes b) { return b.size(); },  // an endless input
                                 [&](bytes_view) {
                                   if (++writes == 3) throw std::length_error("disk full");
                                 }),
               std::length_error);
  // pipe() takes a fresh stream only.
  CipherStream used(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p, o);
  used.update(bytes(1), [](bytes_view) {});
  EXPECT_THROW(used.pipe([](mutable_bytes) { return std::size_t{0}; }, [](bytes_view) {}), InvalidArgument);
}

/// A temporary file holding `data`, removed with the object.
struct TempFile {
  std::string path;
  explicit TempFile(bytes_view data) {
    char name[] = "/tmp/cryptaccel-stream-test-XXXXXX";
    const int fd = ::mkstemp(name);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
    ::close(fd);
    path = name;
  }
  ~TempFile() { ::unlink(path.c_str()); }
};

/// pipe_fd over a file of `plain` that is cut to 10 000 bytes after the first batch: the stream fails with Error.
void expect_shrinking_file_fails(const CipherSpec& spec, const CipherParams& p, const StreamOptions& o,
                                 const bytes& plain) {
  TempFile file(plain);
  const int fd = ::open(file.path.c_str(), O_RDONLY);
  CipherStream s(spec, Direction::encrypt, p, o);
  bool truncated = false;
  EXPECT_THROW(s.pipe_fd(fd, "'shrinking'", [](bytes_view) {},
                         [&](std::uint64_t) {
                           if (!truncated) {
                             ASSERT_EQ(::truncate(file.path.c_str(), 10000), 0);
                           }
                           truncated = true;
                         }),
               Error);
  ::close(fd);
  EXPECT_TRUE(truncated);
}

TEST(CipherStream, PipeFdReadsRegularFilesInParallelWhenAsked) {
  // FileInput::read (the way for GPU engines): each batch read by several pread()s at once, from the file's offset.
  const CipherSpec spec = CipherSpec::parse("aes-256-ctr");
  const bytes key(32, 3), iv(16, 4);
  CipherParams p;
  p.key = key, p.iv = iv;
  StreamOptions o;
  o.engine = "cpu", o.chunk_bytes = 65536, o.chunks_per_batch = 4, o.pipeline_buffers = 3, o.threads = 16;
  o.file_input = StreamOptions::FileInput::read;
  std::mt19937_64 rng(test_seed());
  const bytes plain = test::random_bytes(rng, 3 * 1000 * 1000 + 11);
  const auto collect = [](bytes& out) { return [&out](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); }; };
  for (off_t skip : {off_t{0}, off_t{4097}}) {
    TempFile file(plain);
    const int fd = ::open(file.path.c_str(), O_RDONLY);
    ASSERT_EQ(::lseek(fd, skip, SEEK_SET), skip);
    bytes out;
    std::vector<std::uint64_t> checks;
    CipherStream s(spec, Direction::encrypt, p, o);
    s.pipe_fd(fd, "file", collect(out), [&](std::uint64_t n) { checks.push_back(n); });
    EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), static_cast<off_t>(plain.size()));
    ::close(fd);
    EXPECT_EQ(test::to_hex(out), test::to_hex(encrypt(spec, p, bytes_view(plain).subspan(skip), "ref")));
    ASSERT_FALSE(checks.empty());
    EXPECT_EQ(checks.back(), plain.size() - skip);
  }
  {  // the file shrinks mid-stream: the stream fails
    expect_shrinking_file_fails(spec, p, o, plain);
  }
}

TEST(CipherStream, PipeFdMapsRegularFilesReadsPipesAndSurvivesAShrinkingFile) {
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  const bytes key(16, 9), iv(16, 8);
  CipherParams p;
  p.key = key, p.iv = iv;
  StreamOptions o;
  o.engine = "cpu", o.chunk_bytes = 4096, o.chunks_per_batch = 4, o.pipeline_buffers = 3;
  std::mt19937_64 rng(test_seed());
  const bytes plain = test::random_bytes(rng, 1000 * 1000 + 7);
  const bytes expected = encrypt(spec, p, plain, "ref");
  const auto collect = [](bytes& out) { return [&out](bytes_view b) { out.insert(out.end(), b.begin(), b.end()); }; };
  {  // a regular file, from an offset (the rest of it), mapped
    TempFile file(plain);
    const int fd = ::open(file.path.c_str(), O_RDONLY);
    ASSERT_EQ(::lseek(fd, 5000, SEEK_SET), 5000);
    bytes out;
    std::vector<std::uint64_t> checks;
    CipherStream s(spec, Direction::encrypt, p, o);
    s.pipe_fd(fd, "file", collect(out), [&](std::uint64_t n) { checks.push_back(n); });
    EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), static_cast<off_t>(plain.size()));  // consumed, as by read()
    ::close(fd);
    EXPECT_EQ(test::to_hex(out), test::to_hex(encrypt(spec, p, bytes_view(plain).subspan(5000), "ref")));
    EXPECT_FALSE(checks.empty());
  }
  {  // a pipe, read
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::thread feeder([&] {
      for (std::size_t at = 0; at < plain.size(); at += 65536)
        ASSERT_GT(::write(fds[1], plain.data() + at, std::min<std::size_t>(65536, plain.size() - at)), 0);
      ::close(fds[1]);
    });
    bytes out;
    CipherStream s(spec, Direction::encrypt, p, o);
    s.pipe_fd(fds[0], "pipe", collect(out));
    feeder.join();
    ::close(fds[0]);
    EXPECT_EQ(test::to_hex(out), test::to_hex(expected));
  }
  {  // a read error: one system_error naming the input
    const int fd = ::open("/tmp", O_RDONLY | O_DIRECTORY);
    CipherStream s(spec, Direction::encrypt, p, o);
    bytes out;
    try {
      s.pipe_fd(fd, "'/tmp'", collect(out));
      ADD_FAILURE() << "reading a directory succeeded";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().value(), EISDIR);
      EXPECT_EQ(std::string(e.what()).rfind("cannot read '/tmp': ", 0), 0u) << e.what();
    }
    ::close(fd);
  }
  {  // the file shrinks mid-stream: the pages lost read as zeros (no SIGBUS), and the stream fails
    expect_shrinking_file_fails(spec, p, o, plain);
  }
}

TEST(CipherStream, RefusesWhatItCannotStreamAndBadParameters) {
  const bytes key16(16, 1), key32(32, 1), iv(16, 2);
  CipherParams p;
  p.key = key16, p.iv = iv;
  EXPECT_TRUE(streamable(CipherSpec::parse("aes-128-gcm"), 0));
  EXPECT_FALSE(streamable(CipherSpec::parse("aes-128-xts"), 0, "ref"));  // ref has no XTS kernel that starts anywhere
  EXPECT_TRUE(streamable(CipherSpec::parse("aes-128-xts"), 512, "ref"));
  EXPECT_EQ(streamable(CipherSpec::parse("aes-128-xts"), 0, "cpu"), CipherStreamTestCpuXts());
  p.tag_len = 3;
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-gcm"), Direction::encrypt, p), InvalidArgument);  // tag length
  p.tag_len = 16, p.iv = {};
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-gcm"), Direction::encrypt, p), InvalidArgument);  // no nonce
  p.iv = iv;
  {
    CipherStream short_gcm(CipherSpec::parse("aes-128-gcm"), Direction::decrypt, p);
    const StreamSink ignore = [](bytes_view) {};
    short_gcm.update(bytes(15), ignore);
    EXPECT_THROW(short_gcm.finish(ignore), BadDecrypt);  // shorter than the tag
  }
  p.key = key32;
  StreamOptions on_ref;
  on_ref.engine = "ref";
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-xts"), Direction::encrypt, p, on_ref), Error);  // same halves
  bytes distinct = key32;
  distinct[20] ^= 1;
  p.key = distinct;
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-xts"), Direction::encrypt, p, on_ref), EngineUnavailable);
  p.key = key32;
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p), InvalidArgument);  // key size
  p.key = key16, p.iv = bytes_view(iv).first(12);
  EXPECT_THROW(CipherStream(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p), InvalidArgument);  // IV size
  p.iv = iv;
  CipherStream s(CipherSpec::parse("aes-128-ctr"), Direction::encrypt, p);
  const StreamSink ignore = [](bytes_view) {};
  s.finish(ignore);
  EXPECT_THROW(s.update(bytes(1), ignore), InvalidArgument);
  EXPECT_THROW(s.finish(ignore), InvalidArgument);
}

TEST(CipherStream, MemoryStaysWithinTheBatchWhateverTheInput) {
  // 64 MiB through a stream of 4 chunks of 64 KiB: no single output piece is larger than a batch (+ a block).
  const CipherSpec spec = CipherSpec::parse("aes-128-ctr");
  const bytes key(16, 3), iv(16, 4), piece(1 << 20, 5);
  CipherParams p;
  p.key = key, p.iv = iv;
  StreamOptions o;
  o.engine = "cpu", o.chunk_bytes = 64 << 10, o.chunks_per_batch = 4;
  CipherStream s(spec, Direction::encrypt, p, o);
  std::size_t largest = 0, total = 0;
  const StreamSink sink = [&](bytes_view b) { largest = std::max(largest, b.size()), total += b.size(); };
  for (int i = 0; i < 64; ++i) s.update(piece, sink);
  s.finish(sink);
  EXPECT_EQ(total, std::size_t{64} << 20);
  EXPECT_LE(largest, std::size_t{256} << 10);
}

}  // namespace
}  // namespace cryptaccel
