#include "polydev/opencl/memory/memory_object.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "operations_support.hpp"
#include "polydev/opencl/error.hpp"

namespace polydev::opencl::memory {

namespace {

std::size_t image_size_info(const cl::Memory& memory, cl_image_info what, const char* name) {
  std::size_t value = 0;
  check(clGetImageInfo(memory(), what, sizeof value, &value, nullptr), "clGetImageInfo", name);
  return value;
}

// The bytes an image made over host memory spans there, by its pitches (which, with
// CL_MEM_USE_HOST_PTR, are the host memory's).
std::size_t image_host_bytes(const cl::Memory& memory, cl_mem_object_type type) {
  const std::size_t row_pitch = image_size_info(memory, CL_IMAGE_ROW_PITCH, "CL_IMAGE_ROW_PITCH");
  const std::size_t slice_pitch =
      image_size_info(memory, CL_IMAGE_SLICE_PITCH, "CL_IMAGE_SLICE_PITCH");
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return row_pitch;
    case CL_MEM_OBJECT_IMAGE2D:
      return row_pitch * image_size_info(memory, CL_IMAGE_HEIGHT, "CL_IMAGE_HEIGHT");
    case CL_MEM_OBJECT_IMAGE3D:
      return slice_pitch * image_size_info(memory, CL_IMAGE_DEPTH, "CL_IMAGE_DEPTH");
    default:  // arrays of 1D or 2D images
      return slice_pitch * image_size_info(memory, CL_IMAGE_ARRAY_SIZE, "CL_IMAGE_ARRAY_SIZE");
  }
}

// The object and event lists of a migration, kept until it completes.
struct MigrationLists {
  std::vector<cl_mem> handles;
  std::vector<cl_event> waits;
};

void CL_CALLBACK free_lists(cl_event /*event*/, cl_int /*status*/, void* lists) {
  delete static_cast<MigrationLists*>(lists);
}

}  // namespace

std::optional<HostSpan> hostbuf(const cl::Memory& memory) {
  if (memory() == nullptr) {
    throw std::invalid_argument("hostbuf: the memory object is an empty handle (no cl_mem)");
  }
  cl_mem_flags flags = 0;
  check(memory.getInfo(CL_MEM_FLAGS, &flags), "clGetMemObjectInfo", "CL_MEM_FLAGS");
  void* host = nullptr;
  check(memory.getInfo(CL_MEM_HOST_PTR, &host), "clGetMemObjectInfo", "CL_MEM_HOST_PTR");
  if ((flags & CL_MEM_USE_HOST_PTR) == 0 || host == nullptr) return std::nullopt;
  cl_mem_object_type type = 0;
  check(memory.getInfo(CL_MEM_TYPE, &type), "clGetMemObjectInfo", "CL_MEM_TYPE");
  if (type == CL_MEM_OBJECT_BUFFER) {
    std::size_t size = 0;
    check(memory.getInfo(CL_MEM_SIZE, &size), "clGetMemObjectInfo", "CL_MEM_SIZE");
    return HostSpan(host, size);
  }
  return HostSpan(host, image_host_bytes(memory, type));
}

namespace detail {

void* host_array_start(const cl::Memory& memory, const ArrayLayout& layout, std::size_t alignment) {
  constexpr const char* who = "get_host_array";
  const std::optional<HostSpan> host = hostbuf(memory);
  if (!host) {
    throw std::invalid_argument(std::string(who) +
                                ": the memory object was made without CL_MEM_USE_HOST_PTR, so "
                                "it has no host memory of its own (its hostbuf is empty); make "
                                "it over host memory with CL_MEM_USE_HOST_PTR, or map it");
  }
  if (layout.bytes > host->size()) {
    throw std::out_of_range(std::string(who) + ": shape " + describe_shape(layout.shape) + " of " +
                            std::to_string(layout.itemsize) + "-byte elements needs " +
                            std::to_string(layout.bytes) + " bytes; the memory object spans " +
                            std::to_string(host->size()) + " bytes of host memory");
  }
  const auto address = reinterpret_cast<std::uintptr_t>(host->data());
  if (address % alignment != 0) {
    throw std::invalid_argument(std::string(who) + ": the host memory at " +
                                std::to_string(address) + " is not aligned to the " +
                                std::to_string(alignment) + " bytes its elements need");
  }
  return host->data();
}

}  // namespace detail

cl::Event enqueue_migrate_mem_objects(const cl::CommandQueue& queue,
                                      const std::vector<cl::Memory>& mem_objects,
                                      cl_mem_migration_flags flags,
                                      const std::vector<cl::Event>& wait_for) {
  constexpr const char* who = "enqueue_migrate_mem_objects";
  constexpr cl_mem_migration_flags known =
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  if ((flags & ~known) != 0) {
    throw std::invalid_argument(std::string(who) + ": flags " + std::to_string(flags) +
                                " hold bits other than CL_MIGRATE_MEM_OBJECT_HOST (" +
                                std::to_string(CL_MIGRATE_MEM_OBJECT_HOST) +
                                ") and CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED (" +
                                std::to_string(CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) + ")");
  }
  auto lists = std::make_unique<MigrationLists>();
  lists->handles.reserve(mem_objects.size());
  for (std::size_t i = 0; i < mem_objects.size(); ++i) {
    if (mem_objects[i]() == nullptr) {
      throw std::invalid_argument(std::string(who) + ": mem_objects[" + std::to_string(i) +
                                  "] is an empty handle (no cl_mem)");
    }
    lists->handles.push_back(mem_objects[i]());
  }
  detail::require_queue_opencl_version(queue, 1, 2,
                                       "enqueue_migrate_mem_objects (clEnqueueMigrateMemObjects)");
  if (lists->handles.empty()) return detail::enqueue_marker(queue, wait_for, false, who);
  for (const cl::Event& event : wait_for) lists->waits.push_back(event());
  cl::Event done;
  check(clEnqueueMigrateMemObjects(queue(), static_cast<cl_uint>(lists->handles.size()),
                                   lists->handles.data(), flags,
                                   static_cast<cl_uint>(lists->waits.size()),
                                   lists->waits.empty() ? nullptr : lists->waits.data(), &done()),
        "clEnqueueMigrateMemObjects");
  // NVIDIA's driver (580.159) reads these lists again when a migration that had to wait runs, after
  // this call has returned (it crashed in its worker thread when they were freed): they live until
  // the command completes. Without a callback, waiting for it is the safe way to free them.
  if (clSetEventCallback(done(), CL_COMPLETE, free_lists, lists.get()) == CL_SUCCESS) {
    lists.release();
  } else {
    check(done.wait(), "clWaitForEvents", who);
  }
  return done;
}

}  // namespace polydev::opencl::memory
