#pragma once

/// @file
/// Which shard of a pool a thread uses: a number per live thread, the lowest free one.

#include <array>
#include <cstdint>
#include <mutex>

namespace polydev::pools::detail {

// The numbers of the live threads that have used a pool. A thread gets the lowest number no live
// thread has at its first pool operation and gives it back when it exits, so threads alive at the
// same time have distinct numbers, and a pool with at least as many shards gives each its own,
// whatever threads came and went before. (Numbering threads by arrival did not: a long-lived
// thread, such as a benchmark's main thread, shared its shard with one of each later group of
// threads about as often as the group covered the shards; the 8-thread runs of the peer benchmark
// on a 16-shard pool fell to a quarter of their speed in about half the runs.)
class ThreadNumbers {
 public:
  static ThreadNumbers& instance() noexcept {
    // Never destroyed: threads that exit during or after static destruction still give theirs back.
    static ThreadNumbers* const numbers = new ThreadNumbers;
    return *numbers;
  }

  // The lowest free number. Beyond `tracked` live threads, the numbers from `tracked` on repeat
  // (distinct shards for so many threads cannot be had anyway: pools have at most 64); they are
  // never marked, so a thread that gives one back cannot free a number a live thread holds.
  unsigned acquire() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (unsigned word = 0; word < taken_.size(); ++word) {
      if (~taken_[word] != 0) {
        const unsigned bit = static_cast<unsigned>(__builtin_ctzll(~taken_[word]));
        taken_[word] |= std::uint64_t{1} << bit;
        return word * 64 + bit;
      }
    }
    return tracked + overflow_++ % tracked;
  }

  void release(unsigned number) noexcept {
    if (number >= tracked) return;
    std::lock_guard<std::mutex> lock(mutex_);
    taken_[number / 64] &= ~(std::uint64_t{1} << (number % 64));
  }

  static constexpr unsigned tracked = 4096;

 private:
  ThreadNumbers() = default;

  std::mutex mutex_;
  std::array<std::uint64_t, tracked / 64> taken_{};
  unsigned overflow_ = 0;
};

// This thread's number, held from its first call until the thread exits.
inline unsigned this_thread_number() noexcept {
  struct Held {
    const unsigned number = ThreadNumbers::instance().acquire();
    ~Held() { ThreadNumbers::instance().release(number); }
  };
  thread_local const Held held;
  return held.number;
}

}  // namespace polydev::pools::detail
