// A small fork-join pool. Each parallel_for posts up to threads-1 "tickets" to the shared queue; a worker that takes a
// ticket joins the loop over the items. The caller works on the items too, then withdraws its tickets that no worker
// has taken yet, so a parallel_for never waits for a queued ticket: nesting cannot deadlock.
//
// Waking a sleeping thread through the kernel takes tens of microseconds (more in a VM), as long as a 1 MiB AES-CTR
// piece takes to encrypt: so a worker that runs out of tickets, and a caller waiting for its helpers, first spin for
// a short while (kSpin) before they sleep. Back-to-back calls (a stream of batches) then never sleep.
#include "engine/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cryptaccel::engine {
namespace {

/// How long a worker or a waiting caller spins before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(100);

/// Spins until `done()` or kSpin has passed; returns done().
template <class Done>
bool spin_until(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 0;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
    if (i % 64 == 63 && std::chrono::steady_clock::now() >= deadline) return done();
  }
}

/// One participant's share of a loop's items, [next, end), on a cache line of its own.
struct alignas(64) Share {
  std::atomic<std::size_t> next{0};
  std::size_t end = 0;
};

/// One parallel_for call; lives on the caller's stack until every taken ticket has finished.
///
/// The items are cut into one contiguous share per participant (the caller is participant 0; each worker that takes
/// a ticket becomes the next one). A participant works through its own share first, then takes over what is left of
/// the others'. Consecutive items usually touch consecutive memory (the pieces of one split job): with fixed shares,
/// a call repeated on the same buffers finds the caller's share still in its core's cache (a 1 MiB AES-CTR job on
/// two cores: 1.57-1.69x one core when all items were handed out from one counter, bench/results/
/// 2026-11-28b-xeon-2c-short-msgs), and taking over keeps uneven items and late helpers balanced.
struct Loop {
  std::size_t n = 0;
  const std::function<void(std::size_t)>* fn = nullptr;
  std::size_t participants = 1;
  std::unique_ptr<Share[]> shares;
  std::atomic<std::size_t> joined{0};           // workers that took a ticket so far
  std::atomic<std::size_t> running_tickets{0};  // changed under the pool mutex; read without it while spinning
  std::exception_ptr error;         // guarded by the pool mutex
  std::condition_variable finished;

  /// Cuts the items into `p` shares.
  void share_out(std::size_t p) {
    participants = p;
    shares.reset(new Share[p]);
    for (std::size_t r = 0; r < p; ++r) {
      shares[r].next.store(r * n / p, std::memory_order_relaxed);
      shares[r].end = (r + 1) * n / p;
    }
  }

  /// Runs items, participant `self`'s share first, until none is left; returns the first exception it caught.
  std::exception_ptr work(std::size_t self) {
    for (std::size_t k = 0; k < participants; ++k) {
      Share& share = shares[(self + k) % participants];
      for (std::size_t i; (i = share.next.fetch_add(1, std::memory_order_relaxed)) < share.end;) {
        try {
          (*fn)(i);
        } catch (...) {
          for (std::size_t r = 0; r < participants; ++r)  // stop handing out items
            shares[r].next.store(shares[r].end, std::memory_order_relaxed);
          return std::current_exception();
        }
      }
    }
    return nullptr;
  }
};

class Pool {
 public:
  Pool() {
    const std::size_t workers = hardware_threads() - 1;
    for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { worker(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      stopping_flag_.store(true);
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  void run(Loop& loop, std::size_t helpers) {
    helpers = std::min(helpers, threads_.size());
    loop.share_out(helpers + 1);
    {
      std::lock_guard lock(mutex_);
      for (std::size_t i = 0; i < helpers; ++i) queue_.push_back(&loop);
      queued_.store(queue_.size(), std::memory_order_release);
    }
    if (helpers == 1) wake_.notify_one();
    else if (helpers > 1) wake_.notify_all();

    std::exception_ptr mine = loop.work(0);
    std::unique_lock lock(mutex_);
    queue_.erase(std::remove(queue_.begin(), queue_.end(), &loop), queue_.end());  // withdraw untaken tickets
    queued_.store(queue_.size(), std::memory_order_release);
    if (loop.running_tickets.load() != 0) {
      lock.unlock();
      spin_until([&] { return loop.running_tickets.load(std::memory_order_acquire) == 0; });
      lock.lock();  // also waits until the last worker has left notify_all, so `loop` may go
    }
    loop.finished.wait(lock, [&] { return loop.running_tickets.load() == 0; });
    if (!loop.error) loop.error = mine;
    if (loop.error) std::rethrow_exception(loop.error);
  }

 private:
  void worker() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (queue_.empty() && !stopping_) {
        lock.unlock();
        spin_until([&] { return queued_.load(std::memory_order_acquire) != 0 || stopping_flag_.load(); });
        lock.lock();
      }
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      Loop* loop = queue_.front();
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_release);
      ++loop->running_tickets;
      lock.unlock();
      std::exception_ptr error = loop->work(loop->joined.fetch_add(1, std::memory_order_relaxed) + 1);
      lock.lock();
      if (error && !loop->error) loop->error = error;
      if (--loop->running_tickets == 0) loop->finished.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Loop*> queue_;
  std::atomic<std::size_t> queued_{0};  ///< queue_.size(), for spinning workers (written under mutex_)
  bool stopping_ = false;
  std::atomic<bool> stopping_flag_{false};  ///< stopping_, for spinning workers
  std::vector<std::thread> threads_;
};

}  // namespace

std::size_t hardware_threads() {
  static const std::size_t n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn) {
  if (threads == 0) threads = hardware_threads();
  threads = std::min(threads, n);
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  static Pool pool;
  Loop loop;
  loop.n = n;
  loop.fn = &fn;
  pool.run(loop, threads - 1);
}

}  // namespace cryptaccel::engine
