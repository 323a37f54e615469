#pragma once

/// @file
/// The lock of a pool shard.

#include <atomic>
#include <thread>

namespace polydev::pools::detail {

// The pool's lock. Critical sections are a few loads and stores (a vector push or pop and the
// counters), so a spin lock with one atomic exchange to lock and a plain release store to unlock
// costs less than a mutex (two atomic read-modify-writes); a waiter that keeps finding it taken
// yields its time slice rather than burning it.
class SpinLock {
 public:
  void lock() noexcept {
    int spins = 0;
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
          __builtin_ia32_pause();
#endif
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace polydev::pools::detail
