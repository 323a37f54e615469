// SVMAllocator, the SVMAllocation it hands out, and the SVM capability checks they share.
#include "polydev/opencl/svm_allocator.hpp"

#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/detail/svm_allocator.hpp"
#include "polydev/opencl/detail/svm_capabilities.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl {

namespace {

std::string device_name(const cl::Device& device) {
  std::string name;
  return device.getInfo(CL_DEVICE_NAME, &name) == CL_SUCCESS ? name : std::string("(unnamed)");
}

// CL_DEVICE_SVM_CAPABILITIES, or 0 where the device predates OpenCL 2.0 (the query then fails).
cl_device_svm_capabilities svm_capabilities(const cl::Device& device) {
  cl_device_svm_capabilities capabilities = 0;
  if (device.getInfo(CL_DEVICE_SVM_CAPABILITIES, &capabilities) != CL_SUCCESS) return 0;
  return capabilities;
}

// @throws polydev::error unless `queue` belongs to `context`.
void require_context_of(const cl::CommandQueue& queue, const cl::Context& context,
                        const char* who) {
  cl_context queue_context = nullptr;
  check(queue.getInfo(CL_QUEUE_CONTEXT, &queue_context), "clGetCommandQueueInfo",
        "CL_QUEUE_CONTEXT");
  if (queue_context != context()) {
    throw error(std::string(who) +
                ": the queue belongs to another context than the SVM memory's; SVM is freed and "
                "used on queues of the context that allocated it");
  }
}

}  // namespace

namespace detail {

std::string svm_capability_names(cl_device_svm_capabilities capabilities) {
  if (capabilities == 0) return "none";
  static constexpr std::pair<cl_device_svm_capabilities, const char*> names[] = {
      {CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER"},
      {CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "CL_DEVICE_SVM_FINE_GRAIN_BUFFER"},
      {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "CL_DEVICE_SVM_FINE_GRAIN_SYSTEM"},
      {CL_DEVICE_SVM_ATOMICS, "CL_DEVICE_SVM_ATOMICS"},
  };
  std::string text;
  cl_device_svm_capabilities rest = capabilities;
  for (const auto& [bit, name] : names) {
    if ((capabilities & bit) == 0) continue;
    text += (text.empty() ? "" : " | ") + std::string(name);
    rest &= ~bit;
  }
  if (rest != 0) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(rest));
    text += (text.empty() ? "" : " | ") + std::string(hex);
  }
  return text;
}

std::optional<std::string> svm_flags_problem(const std::string& device_name,
                                             cl_device_svm_capabilities capabilities,
                                             cl_svm_mem_flags flags, const char* who) {
  const std::string device = "device '" + device_name + "'";
  const std::string has =
      " (its CL_DEVICE_SVM_CAPABILITIES: " + svm_capability_names(capabilities) + ")";
  if ((capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) == 0) {
    return std::string(who) + ": " + device + " does not support shared virtual memory" + has +
           "; SVM needs an OpenCL 2.0 or later device with CL_DEVICE_SVM_COARSE_GRAIN_BUFFER";
  }
  if ((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0 &&
      (capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
    return std::string(who) +
           ": fine-grain SVM (CL_MEM_SVM_FINE_GRAIN_BUFFER) was asked for, but " + device +
           " has no fine-grain SVM buffers" + has +
           "; use coarse-grain SVM (csvm_empty, or flags without CL_MEM_SVM_FINE_GRAIN_BUFFER), "
           "which the host maps before it touches the memory";
  }
  if ((flags & CL_MEM_SVM_ATOMICS) != 0 && (capabilities & CL_DEVICE_SVM_ATOMICS) == 0) {
    return std::string(who) + ": SVM atomics (CL_MEM_SVM_ATOMICS) were asked for, but " + device +
           " does not support them" + has + "; leave CL_MEM_SVM_ATOMICS out of the flags";
  }
  return std::nullopt;
}

void require_in_order(const cl::CommandQueue& queue, const char* who) {
  cl_command_queue_properties properties = 0;
  check(queue.getInfo(CL_QUEUE_PROPERTIES, &properties), "clGetCommandQueueInfo",
        "CL_QUEUE_PROPERTIES");
  if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
    throw error(std::string(who) +
                ": the queue is out of order; SVM blocks bind to in-order queues only, whose "
                "order makes a free or a reuse wait for the work enqueued before it");
  }
}

void order_after(const cl::CommandQueue& previous, const cl::CommandQueue& next) {
  cl::Event marker;
  check(clEnqueueMarkerWithWaitList(previous(), 0, nullptr, &marker()),
        "clEnqueueMarkerWithWaitList", "on the SVM block's previous queue");
  check(clEnqueueBarrierWithWaitList(next(), 1, &marker(), nullptr), "clEnqueueBarrierWithWaitList",
        "on the SVM block's new queue");
  // The previous queue may never be flushed otherwise, and the new one would wait forever.
  check(clFlush(previous()), "clFlush", "the SVM block's previous queue");
}

SVMAllocation allocate_svm(const cl::Context& context, std::size_t bytes, cl_uint alignment,
                           cl_svm_mem_flags flags, std::optional<cl::CommandQueue> queue,
                           const char* who) {
  const SVMAllocator allocator(context, alignment, flags, std::move(queue), who);
  return SVMAllocation(context, allocator.allocate(bytes, who), bytes);
}

}  // namespace detail

// ----- SVMAllocator

SVMAllocator::SVMAllocator(cl::Context context, cl_uint alignment, cl_svm_mem_flags flags,
                           std::optional<cl::CommandQueue> queue)
    : SVMAllocator(std::move(context), alignment, flags, std::move(queue), "SVMAllocator") {}

SVMAllocator::SVMAllocator(cl::Context context, cl_uint alignment, cl_svm_mem_flags flags,
                           std::optional<cl::CommandQueue> queue, const char* who)
    : context_(std::move(context)), alignment_(alignment), flags_(flags), queue_(std::move(queue)) {
  if ((alignment & (alignment - 1)) != 0) {
    throw error(std::string(who) + ": alignment " + std::to_string(alignment) +
                " is not a power of two (0 asks for the driver's default)");
  }
  std::vector<cl::Device> devices;
  check(context_.getInfo(CL_CONTEXT_DEVICES, &devices), "clGetContextInfo", "CL_CONTEXT_DEVICES");
  max_allocation_ = std::numeric_limits<cl_ulong>::max();
  for (const cl::Device& device : devices) {
    if (auto problem =
            detail::svm_flags_problem(device_name(device), svm_capabilities(device), flags, who)) {
      throw error(*problem);
    }
    cl_ulong max_allocation = 0;
    check(device.getInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE, &max_allocation), "clGetDeviceInfo",
          "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    if (max_allocation < max_allocation_) max_allocation_ = max_allocation;
  }
  if (queue_) {
    detail::require_in_order(*queue_, who);
    require_context_of(*queue_, context_, who);
  }
}

SVMBlock SVMAllocator::allocate(std::size_t bytes) const { return allocate(bytes, "SVMAllocator"); }

SVMBlock SVMAllocator::allocate(std::size_t bytes, const char* who) const {
  SVMBlock block;
  if (queue_) block.queue = *queue_;
  if (bytes == 0) return block;
  if (bytes > max_allocation_) {
    throw backend_error("OpenCL", "clSVMAlloc", CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE",
                        std::string(who) + ": " + std::to_string(bytes) +
                            " bytes is more than CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                            std::to_string(max_allocation_) + ")");
  }
  block.ptr = clSVMAlloc(context_(), flags_, bytes, alignment_);
  if (block.ptr == nullptr) {
    throw out_of_memory(std::string(who) + ": clSVMAlloc of " + std::to_string(bytes) +
                        " bytes (alignment " + std::to_string(alignment_) +
                        ") returned null: the driver could not provide the memory (or does not "
                        "honour the alignment: OpenCL promises up to 128 bytes)");
  }
  return block;
}

SVMAllocation SVMAllocator::operator()(std::size_t bytes) const {
  return SVMAllocation(context_, allocate(bytes), bytes);
}

void SVMAllocator::free(SVMBlock block) const noexcept {
  if (block.ptr == nullptr) return;
  if (block.queue()) {
    if (clEnqueueSVMFree(block.queue(), 1, &block.ptr, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_SUCCESS) {
      clFlush(block.queue());
      return;
    }
    // Could not enqueue: wait for the queue's work, then free at once.
    clFinish(block.queue());
  }
  clSVMFree(context_(), block.ptr);
}

void SVMAllocator::hand_out_existing_block(SVMBlock& block) const noexcept {
  if (queue_) {
    if (block.queue() != nullptr && block.queue() != (*queue_)()) {
      try {
        detail::order_after(block.queue, *queue_);
      } catch (...) {
        clFinish(block.queue());
      }
    }
    block.queue = *queue_;
  } else if (block.queue() != nullptr) {
    clFinish(block.queue());
    block.queue = cl::CommandQueue();
  }
}

// ----- SVMAllocation

SVMAllocation::SVMAllocation(const cl::Context& context, std::size_t size, cl_uint alignment,
                             cl_svm_mem_flags flags, std::optional<cl::CommandQueue> queue)
    : SVMAllocation(detail::allocate_svm(context, size, alignment, flags, std::move(queue),
                                         "SVMAllocation")) {}

SVMAllocation::SVMAllocation(SVMAllocation&& other) noexcept
    : context_(std::move(other.context_)),
      block_(std::exchange(other.block_, SVMBlock{})),
      size_(std::exchange(other.size_, 0)),
      owns_(std::exchange(other.owns_, false)) {}

SVMAllocation& SVMAllocation::operator=(SVMAllocation&& other) noexcept {
  if (this != &other) {
    free_now();
    context_ = std::move(other.context_);
    block_ = std::exchange(other.block_, SVMBlock{});
    size_ = std::exchange(other.size_, 0);
    owns_ = std::exchange(other.owns_, false);
  }
  return *this;
}

SVMAllocation::~SVMAllocation() { free_now(); }

void SVMAllocation::require_owned(const char* who) const {
  if (!owns_) {
    throw error(std::string("SVMAllocation::") + who +
                ": the allocation was released (or moved from); it owns no memory");
  }
}

void SVMAllocation::free_now() noexcept {
  if (!owns_) return;
  // The allocator's free: on the bound queue after its work, else at once.
  if (block_.ptr != nullptr) {
    if (block_.queue() != nullptr && clEnqueueSVMFree(block_.queue(), 1, &block_.ptr, nullptr,
                                                      nullptr, 0, nullptr, nullptr) == CL_SUCCESS) {
      clFlush(block_.queue());
    } else {
      if (block_.queue() != nullptr) clFinish(block_.queue());
      clSVMFree(context_(), block_.ptr);
    }
  }
  forget();
}

void SVMAllocation::forget() noexcept {
  context_ = cl::Context();
  block_ = SVMBlock{};
  size_ = 0;
  owns_ = false;
}

void SVMAllocation::release() {
  require_owned("release");
  free_now();
}

cl::Event SVMAllocation::enqueue_release(const std::vector<cl::Event>& wait_for) {
  require_owned("enqueue_release");
  if (block_.queue() == nullptr) {
    throw error(
        "SVMAllocation::enqueue_release: no queue was given and the allocation is bound to none; "
        "pass the queue that uses the memory last (enqueue_release(queue, wait_for)), or bind "
        "the allocation to it first (bind_to_queue)");
  }
  const cl::CommandQueue queue = block_.queue;
  return enqueue_release(queue, wait_for);
}

cl::Event SVMAllocation::enqueue_release(const cl::CommandQueue& queue,
                                         const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "SVMAllocation::enqueue_release";
  require_owned("enqueue_release");
  require_context_of(queue, context_, who);
  if (block_.queue() != nullptr && block_.queue() != queue())
    detail::order_after(block_.queue, queue);
  std::vector<cl_event> events;
  events.reserve(wait_for.size());
  for (const cl::Event& event : wait_for) events.push_back(event());
  const auto count = static_cast<cl_uint>(events.size());
  const cl_event* list = events.empty() ? nullptr : events.data();
  cl::Event done;
  if (block_.ptr == nullptr) {
    // Nothing to free, but the caller is owed an event that completes after `wait_for`.
    check(clEnqueueMarkerWithWaitList(queue(), count, list, &done()), "clEnqueueMarkerWithWaitList",
          who);
  } else {
    check(clEnqueueSVMFree(queue(), 1, &block_.ptr, nullptr, nullptr, count, list, &done()),
          "clEnqueueSVMFree", who);
  }
  forget();
  // Without a flush the free may wait for one that never comes.
  check(clFlush(queue()), "clFlush", who);
  return done;
}

void SVMAllocation::bind_to_queue(const cl::CommandQueue& queue) {
  constexpr const char* who = "SVMAllocation::bind_to_queue";
  require_owned("bind_to_queue");
  detail::require_in_order(queue, who);
  require_context_of(queue, context_, who);
  if (block_.queue() != nullptr && block_.queue() != queue())
    detail::order_after(block_.queue, queue);
  block_.queue = queue;
}

void SVMAllocation::unbind_from_queue() {
  require_owned("unbind_from_queue");
  if (block_.queue() == nullptr) return;
  check(clFinish(block_.queue()), "clFinish", "SVMAllocation::unbind_from_queue");
  block_.queue = cl::CommandQueue();
}

}  // namespace polydev::opencl
