#include "polydev/opencl/svm_pool.hpp"

#include <string>

#include "polydev/error.hpp"
#include "polydev/opencl/detail/svm_allocator.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl {

SVMBlock& PooledSVM::owned_block(const char* who) {
  if (!valid()) throw error(std::string("PooledSVM::") + who + ": the block was released");
  // The base class hands out the block read-only because most pooled handles must not change it;
  // the queue binding is the one part an SVM handle changes, and the object itself is not const.
  return const_cast<SVMBlock&>(block());
}

void PooledSVM::bind_to_queue(const cl::CommandQueue& queue) {
  SVMBlock& block = owned_block("bind_to_queue");
  detail::require_in_order(queue, "PooledSVM::bind_to_queue");
  if (block.queue() != nullptr && block.queue() != queue()) detail::order_after(block.queue, queue);
  block.queue = queue;
}

void PooledSVM::unbind_from_queue() {
  SVMBlock& block = owned_block("unbind_from_queue");
  if (block.queue() == nullptr) return;
  check(clFinish(block.queue()), "clFinish", "PooledSVM::unbind_from_queue");
  block.queue = cl::CommandQueue();
}

}  // namespace polydev::opencl
