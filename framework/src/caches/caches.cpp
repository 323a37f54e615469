#include "polydev/caches.hpp"

#include <utility>
#include <vector>

namespace polydev {

namespace {

// A recursive mutex, held while a cache is cleared: a cache cannot be destroyed in the middle of
// its own clear by another thread, and a value whose destructor unregisters another cache (same
// thread) does not deadlock.
struct Registry {
  std::recursive_mutex mutex;
  std::size_t next_handle = 1;
  std::map<std::size_t, std::pair<CacheScope, std::function<void()>>> caches;
};

Registry& registry() {
  // Leaked on purpose: caches with static storage may unregister after any other static would
  // have been destroyed.
  static Registry* instance = new Registry;
  return *instance;
}

void clear_scope(CacheScope scope) {
  std::lock_guard<std::recursive_mutex> lock(registry().mutex);
  std::vector<std::size_t> handles;
  for (const auto& [handle, entry] : registry().caches) {
    if (entry.first == scope) handles.push_back(handle);
  }
  // Look each one up again: clearing one cache may have unregistered another.
  for (std::size_t handle : handles) {
    if (auto it = registry().caches.find(handle); it != registry().caches.end())
      it->second.second();
  }
}

}  // namespace

void clear_first_arg_caches() { clear_scope(CacheScope::first_argument); }
void clear_context_caches() { clear_scope(CacheScope::cuda_context); }

namespace detail {

std::size_t register_cache(CacheScope scope, std::function<void()> clear) {
  std::lock_guard<std::recursive_mutex> lock(registry().mutex);
  const std::size_t handle = registry().next_handle++;
  registry().caches.emplace(handle, std::make_pair(scope, std::move(clear)));
  return handle;
}

void unregister_cache(std::size_t handle) noexcept {
  std::lock_guard<std::recursive_mutex> lock(registry().mutex);
  registry().caches.erase(handle);
}

}  // namespace detail

}  // namespace polydev
