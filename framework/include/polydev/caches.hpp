#pragma once

/// @file
/// Context-keyed caches and the functions that clear them all: the counterparts of PyOpenCL's
/// `first_arg_dependent_memoize` / `clear_first_arg_caches` and PyCUDA's
/// `context_dependent_memoize` / `clear_context_caches`.
///
/// Clearing matters because a cache keyed by a context holds references to it: the OpenCL context
/// factory of the fixtures clears the first-argument caches before it makes a new context, and the
/// CUDA fixture clears the context caches after each test, so no test keeps a previous test's
/// contexts (or the memory behind them) alive.

#include <functional>
#include <map>
#include <mutex>

namespace polydev {

/// Which global clear function empties a cache.
enum class CacheScope {
  first_argument,  ///< cleared by `clear_first_arg_caches()` (keys are e.g. OpenCL contexts)
  cuda_context,    ///< cleared by `clear_context_caches()` (keys are CUDA contexts or devices)
};

/// Empties every live cache of scope `first_argument`. Thread-safe.
void clear_first_arg_caches();

/// Empties every live cache of scope `cuda_context`. Thread-safe.
void clear_context_caches();

namespace detail {
/// Registers `clear` under `scope`; returns a handle for `unregister_cache`.
std::size_t register_cache(CacheScope scope, std::function<void()> clear);
void unregister_cache(std::size_t handle) noexcept;
}  // namespace detail

/// A thread-safe map from a key (first argument or context) to a computed value, registered with
/// the global clear functions for as long as it lives.
///
/// `get_or_compute` runs `compute` outside the lock, so a slow build does not block other keys; if
/// two threads miss the same key at once, both compute and the first stored value wins. A
/// `compute` that throws stores nothing: the next call tries again.
template <typename Key, typename Value, typename Compare = std::less<Key>>
class KeyedCache {
 public:
  explicit KeyedCache(CacheScope scope)
      : handle_(detail::register_cache(scope, [this] { clear(); })) {}
  ~KeyedCache() { detail::unregister_cache(handle_); }
  KeyedCache(const KeyedCache&) = delete;
  KeyedCache& operator=(const KeyedCache&) = delete;

  template <typename Compute>
  Value get_or_compute(const Key& key, Compute&& compute) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    }
    Value value = std::forward<Compute>(compute)();
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.emplace(key, std::move(value)).first->second;
  }

  /// Drops every entry (and with it every reference the entries held).
  void clear() {
    std::map<Key, Value, Compare> dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      dropped.swap(entries_);
    }
    // `dropped` is destroyed here, outside the lock: releasing a value may re-enter a cache.
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::map<Key, Value, Compare> entries_;
  std::size_t handle_;
};

}  // namespace polydev
