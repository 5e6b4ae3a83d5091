#include "stream/gcm_offload.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "algo/bits.hpp"
#include "api/job_failure.hpp"
#include "cryptaccel/batch.hpp"

namespace cryptaccel {

engine::GcmStreamState::BulkCtr gcm_ctr_through_batches(BlockCipher cipher, bytes_view key, std::string engine,
                                                         std::size_t threads) {
  CipherSpec ctr;
  ctr.cipher = cipher;
  ctr.mode = Mode::ctr;
  ctr.padding = false;
  return [ctr, key, engine = std::move(engine), threads](const std::uint8_t counter[16], const std::uint8_t* in,
                                                         std::uint8_t* out, std::size_t len) {
    // One CTR job per run of blocks before the low 32 bits wrap: at most two per 64 GiB. The counter blocks are
    // wiped however this ends (J0 of a long IV depends on H).
    std::vector<std::array<std::uint8_t, 16>> ivs;
    std::vector<CipherJob> jobs;
    std::array<std::uint8_t, 16> iv;
    struct Wipe {
      std::vector<std::array<std::uint8_t, 16>>& ivs;
      std::array<std::uint8_t, 16>& iv;
      ~Wipe() {
        for (auto& v : ivs) secure_wipe(v.data(), v.size());
        secure_wipe(iv.data(), iv.size());
      }
    } wipe{ivs, iv};
    std::memcpy(iv.data(), counter, 16);
    for (std::size_t off = 0; off < len;) {
      const std::uint64_t to_wrap = (std::uint64_t{1} << 32) - algo::load_be32(iv.data() + 12);
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(len - off, to_wrap * 16));
      ivs.push_back(iv);
      jobs.push_back(CipherJob{key, {}, bytes_view(in + off, n), mutable_bytes(out + off, n)});
      off += n;
      algo::store_be32(iv.data() + 12, 0);  // the next run starts where the low word wrapped to 0
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].iv = bytes_view(ivs[i].data(), 16);
    run_batch(ctr, Direction::encrypt, jobs, BatchOptions{engine, 0, threads});
    for (const CipherJob& job : jobs) throw_on_failure(job);
  };
}

}  // namespace cryptaccel
