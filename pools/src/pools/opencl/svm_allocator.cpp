#include "polydev/opencl/svm_allocator.hpp"

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/detail/svm_allocator.hpp"
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

}  // namespace

namespace detail {

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

}  // namespace detail

SVMAllocator::SVMAllocator(cl::Context context, cl_uint alignment, cl_svm_mem_flags flags,
                           std::optional<cl::CommandQueue> queue)
    : context_(std::move(context)), alignment_(alignment), flags_(flags), queue_(std::move(queue)) {
  if ((alignment & (alignment - 1)) != 0) {
    throw error("SVMAllocator: alignment " + std::to_string(alignment) +
                " is not a power of two (0 asks for the driver's default)");
  }
  std::vector<cl::Device> devices;
  check(context_.getInfo(CL_CONTEXT_DEVICES, &devices), "clGetContextInfo", "CL_CONTEXT_DEVICES");
  max_allocation_ = std::numeric_limits<cl_ulong>::max();
  for (const cl::Device& device : devices) {
    const cl_device_svm_capabilities capabilities = svm_capabilities(device);
    if ((capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) == 0) {
      throw error("SVMAllocator: device '" + device_name(device) +
                  "' does not support shared virtual memory (CL_DEVICE_SVM_CAPABILITIES has no "
                  "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER; OpenCL 2.0 or later with SVM is needed)");
    }
    if ((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0 &&
        (capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
      throw error("SVMAllocator: flags ask for CL_MEM_SVM_FINE_GRAIN_BUFFER but device '" +
                  device_name(device) + "' supports coarse-grain SVM buffers only");
    }
    if ((flags & CL_MEM_SVM_ATOMICS) != 0 && (capabilities & CL_DEVICE_SVM_ATOMICS) == 0) {
      throw error("SVMAllocator: flags ask for CL_MEM_SVM_ATOMICS but device '" +
                  device_name(device) + "' does not support SVM atomics");
    }
    cl_ulong max_allocation = 0;
    check(device.getInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE, &max_allocation), "clGetDeviceInfo",
          "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    if (max_allocation < max_allocation_) max_allocation_ = max_allocation;
  }
  if (queue_) {
    detail::require_in_order(*queue_, "SVMAllocator");
    cl_context queue_context = nullptr;
    check(queue_->getInfo(CL_QUEUE_CONTEXT, &queue_context), "clGetCommandQueueInfo",
          "CL_QUEUE_CONTEXT");
    if (queue_context != context_()) {
      throw error("SVMAllocator: the queue belongs to another context than the allocator's");
    }
  }
}

SVMBlock SVMAllocator::allocate(std::size_t bytes) const {
  SVMBlock block;
  if (queue_) block.queue = *queue_;
  if (bytes == 0) return block;
  if (bytes > max_allocation_) {
    throw backend_error("OpenCL", "clSVMAlloc", CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE",
                        std::to_string(bytes) +
                            " bytes is more than CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                            std::to_string(max_allocation_) + ")");
  }
  block.ptr = clSVMAlloc(context_(), flags_, bytes, alignment_);
  if (block.ptr == nullptr) {
    throw out_of_memory("clSVMAlloc of " + std::to_string(bytes) + " bytes (alignment " +
                        std::to_string(alignment_) +
                        ") returned null: the driver could not provide the memory (or does not "
                        "honour the alignment: OpenCL promises up to 128 bytes)");
  }
  return block;
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

}  // namespace polydev::opencl
