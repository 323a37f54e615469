// The numbers that pick a thread's pool shard (thread_number.hpp): threads alive at the same time
// have distinct numbers, and an exited thread's number goes to the next new thread, so a
// long-lived thread never shares its shard with a later group of threads that fits the shards.
#include "polydev/pools/detail/thread_number.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

using polydev::pools::detail::this_thread_number;

// The numbers of `count` threads that are all alive when they read them.
std::vector<unsigned> numbers_of_a_group(unsigned count) {
  std::vector<unsigned> numbers(count);
  std::mutex mutex;
  std::condition_variable all_read;
  unsigned read = 0;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      numbers[t] = this_thread_number();
      std::unique_lock<std::mutex> lock(mutex);
      if (++read == count) all_read.notify_all();
      all_read.wait(lock, [&] { return read == count; });  // nobody exits before all have read
    });
  }
  for (std::thread& thread : threads) thread.join();
  return numbers;
}

TEST(ThreadNumber, IsTheSameForEveryCallOfAThread) {
  const unsigned first = this_thread_number();
  EXPECT_EQ(this_thread_number(), first);
}

TEST(ThreadNumber, ThreadsAliveTogetherNeverShareOneWithEachOtherOrALongLivedThread) {
  const unsigned main_number = this_thread_number();
  std::set<unsigned> seen_in_groups;
  for (int round = 0; round < 20; ++round) {
    const std::vector<unsigned> group = numbers_of_a_group(7);
    std::set<unsigned> distinct(group.begin(), group.end());
    distinct.insert(main_number);
    EXPECT_EQ(distinct.size(), 8u) << "round " << round << ": two live threads share a number";
    seen_in_groups.insert(group.begin(), group.end());
  }
  // Exited threads' numbers are reused: 20 groups of 7 needed only 7 numbers (numbering threads by
  // arrival would have used 140, and wrapped them onto the main thread's shard).
  EXPECT_EQ(seen_in_groups.size(), 7u);
}

}  // namespace
