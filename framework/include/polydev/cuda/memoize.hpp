#pragma once

/// @file
/// Functions memoized per current CUDA context: the counterpart of PyCUDA's
/// `context_dependent_memoize`, cleared by `polydev::clear_context_caches()` (the CUDA fixture
/// clears after every test, `autoinit` at exit).

#include <functional>
#include <tuple>
#include <type_traits>

#include "polydev/caches.hpp"

namespace polydev::cuda {

/// The current CUDA context of the calling thread, as a cache key. polydev's contexts are the
/// devices' primary contexts (one per device), so this is the current device's ordinal; -1 when
/// CUDA is unavailable (PyCUDA caches results computed without a context under `None` alike).
int current_context_key() noexcept;

template <typename Signature>
class ContextDependentMemoized;

/// A function whose results are cached per (current CUDA context, arguments) until
/// `clear_context_caches()`. A call that throws caches nothing; thread-safe, with one value per
/// key for every caller (see `KeyedCache`). Arguments must be copyable and have `operator<`.
template <typename Result, typename... Args>
class ContextDependentMemoized<Result(Args...)> {
 public:
  using Function = std::function<Result(const Args&...)>;

  explicit ContextDependentMemoized(Function function)
      : function_(std::move(function)), cache_(CacheScope::cuda_context) {}

  /// The cached result for these arguments in the current context, computed on a miss.
  Result operator()(const Args&... args) {
    Key key{current_context_key(), args...};
    return cache_.get_or_compute(key, [&] { return function_(args...); });
  }

  /// Number of cached entries (for tests and diagnostics).
  std::size_t size() const { return cache_.size(); }

 private:
  using Key = std::tuple<int, std::decay_t<Args>...>;

  Function function_;
  KeyedCache<Key, Result> cache_;
};

}  // namespace polydev::cuda
