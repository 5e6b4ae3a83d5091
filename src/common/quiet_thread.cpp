#include "common/quiet_thread.hpp"

#include <pthread.h>
#include <signal.h>

namespace cryptaccel {

std::thread start_thread_without_signals(std::function<void()> fn) {
  sigset_t blocked, old;
  sigfillset(&blocked);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS, SIGPIPE, SIGXFSZ}) sigdelset(&blocked, sig);
  pthread_sigmask(SIG_BLOCK, &blocked, &old);
  struct RestoreMask {
    sigset_t& mask;
    ~RestoreMask() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } restore{old};
  return std::thread(std::move(fn));
}

}  // namespace cryptaccel
