#pragma once

/// @file
/// Memoized functions keyed by their first argument: the counterpart of PyOpenCL's
/// `first_arg_dependent_memoize` (its alias `context_dependent_memoize` is the same object there).
/// PyCUDA's `context_dependent_memoize`, keyed by the current CUDA context, is
/// `polydev::cuda::ContextDependentMemoized` in `polydev/cuda/memoize.hpp`.

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "polydev/caches.hpp"

namespace polydev {

/// How a first argument is compared in a memo key. By default the value itself (it needs
/// `operator<`). OpenCL C++ wrappers (`cl::Context`, `cl::CommandQueue`, ...) compare by their
/// handle, so two wrappers of one `cl_context` share entries, as PyOpenCL's objects do.
template <typename T, typename = void>
struct MemoKey {
  using type = T;
  static const T& of(const T& value) { return value; }
};

template <typename T>
struct MemoKey<T, std::void_t<typename T::cl_type>> {
  using type = typename T::cl_type;
  static type of(const T& value) { return value(); }
};

template <typename Signature>
class FirstArgMemoized;

/// A function whose results are cached per (first argument, other arguments) until
/// `clear_first_arg_caches()`, like PyOpenCL's `first_arg_dependent_memoize`:
///
/// - entries hold the first argument and the result strongly (a cached program keeps its context
///   alive) until cleared: the OpenCL context factory of the fixtures clears before each context;
/// - a call that throws caches nothing; the next call computes again;
/// - thread-safe; if two threads miss one key at once both compute and both get the value stored
///   first, so every caller sees one value per key.
///
/// `Result` may be `void` (PyOpenCL's `test_context_dep_memoize` memoizes such a function): the
/// function then runs once per key for its effect, and later calls with that key do nothing
/// until the caches are cleared (two threads that miss one key at once may both run it).
///
/// Every argument after the first must be copyable and have `operator<`.
template <typename Result, typename First, typename... Rest>
class FirstArgMemoized<Result(First, Rest...)> {
 public:
  using Function = std::function<Result(const First&, const Rest&...)>;

  explicit FirstArgMemoized(Function function)
      : function_(std::move(function)), cache_(CacheScope::first_argument) {}

  /// The cached result for these arguments, computed on a miss.
  Result operator()(const First& first, const Rest&... rest) {
    Key key{MemoKey<First>::of(first), rest...};
    if constexpr (std::is_void_v<Result>) {
      cache_.get_or_compute(key, [&] {
        function_(first, rest...);
        return Entry{first, Stored{}};
      });
    } else {
      return cache_.get_or_compute(key,
                                   [&] {
                                     return Entry{first, function_(first, rest...)};
                                   })
          .second;
    }
  }

  /// Number of cached entries (for tests and diagnostics).
  std::size_t size() const { return cache_.size(); }

 private:
  using Key = std::tuple<typename MemoKey<First>::type, std::decay_t<Rest>...>;
  // A void function leaves only the fact that it ran: an empty value marks the key as done.
  struct Ran {};
  using Stored = std::conditional_t<std::is_void_v<Result>, Ran, Result>;
  // The first argument is kept with the result: a key of a raw handle does not own it.
  using Entry = std::pair<First, Stored>;

  Function function_;
  KeyedCache<Key, Entry> cache_;
};

}  // namespace polydev
