#pragma once

/// @file
/// Functions memoized per current CUDA context: the counterpart of PyCUDA's
/// `context_dependent_memoize`, cleared by `polydev::clear_context_caches()` (the CUDA fixture
/// clears after every test, `autoinit` at exit).
///
/// The key is the context current on the calling thread, as the driver identifies it
/// (`current_context_id()`): the primary context of a device and a context made with `cuCtxCreate`
/// on the same device have entries of their own. Entries are not dropped when their context is
/// destroyed (the driver tells no one); they stay until `clear_context_caches()`, but are never
/// returned for another context, since the driver never gives a later context an earlier one's
/// ID, not even the primary context made again after `cudaDeviceReset`.

#include <functional>
#include <tuple>
#include <type_traits>

#include "polydev/caches.hpp"
#include "polydev/cuda/context.hpp"

namespace polydev::cuda {

template <typename Signature>
class ContextDependentMemoized;

/// A function whose results are cached per (current CUDA context, arguments) until
/// `clear_context_caches()`. A call that throws caches nothing; thread-safe, with one value per
/// key for every caller (see `KeyedCache`). Arguments must be copyable and have `operator<`.
///
/// Unlike PyCUDA, which caches results computed without a context under `None`, a call with no
/// context current on the calling thread is an error: such a result would belong to no context.
template <typename Result, typename... Args>
class ContextDependentMemoized<Result(Args...)> {
 public:
  using Function = std::function<Result(const Args&...)>;

  explicit ContextDependentMemoized(Function function)
      : function_(std::move(function)), cache_(CacheScope::cuda_context) {}

  /// The cached result for these arguments in the current context, computed on a miss.
  /// @throws what `current_context_id()` throws (no current context, no driver), before `function`
  /// runs; what `function` throws.
  Result operator()(const Args&... args) {
    Key key{current_context_id(), args...};
    return cache_.get_or_compute(key, [&] { return function_(args...); });
  }

  /// Number of cached entries, over all contexts (for tests and diagnostics).
  std::size_t size() const { return cache_.size(); }

 private:
  using Key = std::tuple<unsigned long long, std::decay_t<Args>...>;

  Function function_;
  KeyedCache<Key, Result> cache_;
};

}  // namespace polydev::cuda
