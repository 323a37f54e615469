// KeyedCache and the global clear functions (clear_first_arg_caches, clear_context_caches).
#include "polydev/caches.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using polydev::CacheScope;
using polydev::KeyedCache;

TEST(KeyedCache, ComputesOncePerKey) {
  KeyedCache<int, std::string> cache(CacheScope::first_argument);
  int computations = 0;
  const auto compute = [&computations] {
    ++computations;
    return std::string("value ") + std::to_string(computations);
  };
  EXPECT_EQ(cache.get_or_compute(1, compute), "value 1");
  EXPECT_EQ(cache.get_or_compute(1, compute), "value 1");
  EXPECT_EQ(computations, 1);
  EXPECT_EQ(cache.get_or_compute(2, compute), "value 2");
  EXPECT_EQ(cache.get_or_compute(2, compute), "value 2");
  EXPECT_EQ(cache.get_or_compute(1, compute), "value 1");
  EXPECT_EQ(computations, 2);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(KeyedCache, ExceptionIsNotCached) {
  KeyedCache<int, int> cache(CacheScope::first_argument);
  int calls = 0;
  EXPECT_THROW(cache.get_or_compute(7,
                                    [&calls]() -> int {
                                      ++calls;
                                      throw std::runtime_error("first try fails");
                                    }),
               std::runtime_error);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.get_or_compute(7,
                                 [&calls] {
                                   ++calls;
                                   return 70;
                                 }),
            70);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(KeyedCache, ClearEmptiesAndRecomputes) {
  KeyedCache<int, int> cache(CacheScope::first_argument);
  int calls = 0;
  const auto compute = [&calls] { return ++calls; };
  EXPECT_EQ(cache.get_or_compute(0, compute), 1);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.get_or_compute(0, compute), 2);
}

TEST(CacheScopes, ClearFirstArgCachesLeavesContextCaches) {
  KeyedCache<int, int> first_arg(CacheScope::first_argument);
  KeyedCache<int, int> context(CacheScope::cuda_context);
  first_arg.get_or_compute(1, [] { return 1; });
  context.get_or_compute(1, [] { return 1; });
  polydev::clear_first_arg_caches();
  EXPECT_EQ(first_arg.size(), 0u);
  EXPECT_EQ(context.size(), 1u);
}

TEST(CacheScopes, ClearContextCachesLeavesFirstArgCaches) {
  KeyedCache<int, int> first_arg(CacheScope::first_argument);
  KeyedCache<int, int> context(CacheScope::cuda_context);
  first_arg.get_or_compute(1, [] { return 1; });
  context.get_or_compute(1, [] { return 1; });
  polydev::clear_context_caches();
  EXPECT_EQ(first_arg.size(), 1u);
  EXPECT_EQ(context.size(), 0u);
}

TEST(CacheScopes, EveryCacheOfTheScopeIsCleared) {
  KeyedCache<int, int> a(CacheScope::cuda_context);
  KeyedCache<std::string, int> b(CacheScope::cuda_context);
  a.get_or_compute(1, [] { return 1; });
  b.get_or_compute("x", [] { return 1; });
  polydev::clear_context_caches();
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.size(), 0u);
}

TEST(CacheScopes, DestroyedCacheIsUnregistered) {
  using Cache = KeyedCache<int, int>;
  // Put a second cache of the other scope at the very address of a destroyed one: if the destroyed
  // cache were still registered, clearing its scope would empty the new cache through `this`.
  alignas(Cache) unsigned char storage[sizeof(Cache)];
  auto* first = new (storage) Cache(CacheScope::first_argument);
  first->get_or_compute(1, [] { return 1; });
  first->~Cache();
  auto* second = new (storage) Cache(CacheScope::cuda_context);
  second->get_or_compute(2, [] { return 2; });
  polydev::clear_first_arg_caches();
  EXPECT_EQ(second->size(), 1u);
  second->~Cache();
  polydev::clear_first_arg_caches();
  polydev::clear_context_caches();
}

TEST(CacheScopes, UnregisteredClearFunctionIsNotCalled) {
  int cleared = 0;
  const std::size_t handle =
      polydev::detail::register_cache(CacheScope::first_argument, [&cleared] { ++cleared; });
  polydev::clear_first_arg_caches();
  EXPECT_EQ(cleared, 1);
  polydev::clear_context_caches();
  EXPECT_EQ(cleared, 1);
  polydev::detail::unregister_cache(handle);
  polydev::clear_first_arg_caches();
  EXPECT_EQ(cleared, 1);
}

TEST(KeyedCache, ValuesAreReleasedOnClear) {
  KeyedCache<int, std::shared_ptr<int>> cache(CacheScope::first_argument);
  std::weak_ptr<int> watch;
  {
    const std::shared_ptr<int> value =
        cache.get_or_compute(0, [] { return std::make_shared<int>(5); });
    watch = value;
    EXPECT_EQ(value.use_count(), 2);  // ours and the cache's
  }
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(watch.use_count(), 1);
  cache.clear();
  EXPECT_TRUE(watch.expired());
}

TEST(KeyedCache, ValuesAreReleasedByTheGlobalClear) {
  KeyedCache<int, std::shared_ptr<int>> first_arg(CacheScope::first_argument);
  KeyedCache<int, std::shared_ptr<int>> context(CacheScope::cuda_context);
  const std::weak_ptr<int> first_arg_value =
      first_arg.get_or_compute(0, [] { return std::make_shared<int>(1); });
  const std::weak_ptr<int> context_value =
      context.get_or_compute(0, [] { return std::make_shared<int>(2); });
  polydev::clear_first_arg_caches();
  EXPECT_TRUE(first_arg_value.expired());
  EXPECT_FALSE(context_value.expired());
  polydev::clear_context_caches();
  EXPECT_TRUE(context_value.expired());
}

TEST(KeyedCache, ValuesAreReleasedWhenTheCacheIsDestroyed) {
  std::weak_ptr<int> watch;
  {
    KeyedCache<int, std::shared_ptr<int>> cache(CacheScope::cuda_context);
    watch = cache.get_or_compute(0, [] { return std::make_shared<int>(1); });
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_TRUE(watch.expired());
}

TEST(KeyedCache, ConcurrentCallsAgreeOnOneValuePerKey) {
  constexpr int kThreads = 8;
  constexpr int kKeys = 32;
  constexpr int kRounds = 3;
  KeyedCache<int, std::shared_ptr<const int>> cache(CacheScope::first_argument);
  std::atomic<int> computations{0};
  std::atomic<int> ready{0};
  // seen[t][round * kKeys + key]: what thread t got for key in that round.
  std::vector<std::vector<std::shared_ptr<const int>>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      for (int round = 0; round < kRounds; ++round) {
        for (int key = 0; key < kKeys; ++key) {
          // Every thread walks the keys in the same order and computes slowly, so that misses of
          // one key overlap and several threads compute it.
          seen[t].push_back(cache.get_or_compute(key, [&computations, key] {
            ++computations;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            return std::make_shared<const int>(key * 10);
          }));
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();

  EXPECT_EQ(cache.size(), static_cast<std::size_t>(kKeys));
  EXPECT_GE(computations.load(), kKeys);
  for (int key = 0; key < kKeys; ++key) {
    const std::shared_ptr<const int> stored =
        cache.get_or_compute(key, []() -> std::shared_ptr<const int> {
          ADD_FAILURE() << "a stored key was computed again";
          return nullptr;
        });
    ASSERT_NE(stored, nullptr);
    EXPECT_EQ(*stored, key * 10);
    // Whoever computed, every caller got the one stored object, from the first round on.
    for (int t = 0; t < kThreads; ++t) {
      for (int round = 0; round < kRounds; ++round) {
        EXPECT_EQ(seen[t][static_cast<std::size_t>(round * kKeys + key)], stored)
            << "thread " << t << ", round " << round << ", key " << key;
      }
    }
  }
}

TEST(KeyedCache, ConcurrentCallsAndClearsDoNotLoseCorrectness) {
  KeyedCache<int, int> cache(CacheScope::cuda_context);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 7; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        const int key = (i + t) % 16;
        if (cache.get_or_compute(key, [key] { return key + 100; }) != key + 100) ++wrong;
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop.load()) polydev::clear_context_caches();
  });
  for (std::size_t i = 0; i + 1 < threads.size(); ++i) threads[i].join();
  stop = true;
  threads.back().join();
  EXPECT_EQ(wrong.load(), 0);
}

// A value whose destruction uses the cache it lived in.
struct UsesCacheOnDestruction {
  KeyedCache<int, std::shared_ptr<UsesCacheOnDestruction>>* cache = nullptr;
  ~UsesCacheOnDestruction() {
    if (cache) cache->get_or_compute(99, [] { return std::shared_ptr<UsesCacheOnDestruction>(); });
  }
};

TEST(KeyedCache, ReleasingAValueMayReenterTheCache) {
  // Leaked, so that a deadlocked worker never touches a destroyed cache.
  auto* cache =
      new KeyedCache<int, std::shared_ptr<UsesCacheOnDestruction>>(CacheScope::first_argument);
  cache->get_or_compute(0, [cache] {
    auto value = std::make_shared<UsesCacheOnDestruction>();
    value->cache = cache;
    return value;
  });
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([cache, done] {
    polydev::clear_first_arg_caches();
    done->set_value();
  }).detach();
  ASSERT_EQ(finished.wait_for(std::chrono::seconds(20)), std::future_status::ready)
      << "clearing deadlocked while a released value used its cache";
  EXPECT_EQ(cache->size(), 1u);  // the entry stored from the destructor
  delete cache;
}

TEST(CacheScopes, ReleasingAValueMayDestroyAnotherCache) {
  // Clearing `outer` destroys `inner` (registered later, same scope) in the middle of the clear.
  using Inner = KeyedCache<int, std::shared_ptr<int>>;
  KeyedCache<int, std::shared_ptr<Inner>> outer(CacheScope::first_argument);
  std::weak_ptr<Inner> inner_watch;
  std::weak_ptr<int> inner_value;
  {
    auto inner =
        outer.get_or_compute(0, [] { return std::make_shared<Inner>(CacheScope::first_argument); });
    inner_value = inner->get_or_compute(0, [] { return std::make_shared<int>(3); });
    inner_watch = inner;
  }
  polydev::clear_first_arg_caches();
  EXPECT_TRUE(inner_watch.expired());
  EXPECT_TRUE(inner_value.expired());
  EXPECT_EQ(outer.size(), 0u);
  polydev::clear_first_arg_caches();  // nothing dangling left behind
}

}  // namespace
