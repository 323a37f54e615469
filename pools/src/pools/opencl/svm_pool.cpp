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
  constexpr const char* who = "PooledSVM::bind_to_queue";
  SVMBlock& block = owned_block("bind_to_queue");
  detail::require_in_order(queue, who);
  // The block is freed on its last queue: one of another context would free memory it does not
  // know. A user's allocator that does not tell its context is trusted.
  const cl::Context& context = pool()->allocator().context();
  if (context() != nullptr) {
    cl_context queue_context = nullptr;
    check(queue.getInfo(CL_QUEUE_CONTEXT, &queue_context), "clGetCommandQueueInfo",
          "CL_QUEUE_CONTEXT");
    if (queue_context != context()) {
      throw error(std::string(who) +
                  ": the queue belongs to another context than the pool's; the block is freed "
                  "and reused on queues of the context that allocated it");
    }
  }
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
