#pragma once

// Synthetic devices for the characterization rules: devices of each vendor that
// pyopencl.characterize distinguishes (NVIDIA, AMD, Intel, Apple, PoCL, ARM), as the drivers of
// those vendors describe their devices. No driver involved.

#include <optional>
#include <string>
#include <utility>

#include "polydev/opencl/characterize.hpp"

namespace polydev_test {

using polydev::opencl::DeviceFacts;
using polydev::opencl::LocalMemoryType;
using polydev::opencl::Version;

inline DeviceFacts make_facts(std::string platform_name, std::string platform_vendor,
                              std::string platform_version, std::string device_name,
                              std::string device_vendor, std::string type) {
  DeviceFacts facts;
  facts.descriptor.platform.name = std::move(platform_name);
  facts.descriptor.platform.vendor = std::move(platform_vendor);
  facts.descriptor.platform.version = std::move(platform_version);
  facts.descriptor.device.name = std::move(device_name);
  facts.descriptor.device.vendor = std::move(device_vendor);
  facts.descriptor.device.type = std::move(type);
  facts.descriptor.device.version = "OpenCL 3.0";
  facts.descriptor.device.local_memory_bytes = 48 * 1024;
  facts.local_memory_type =
      facts.descriptor.device.type == "cpu" ? LocalMemoryType::global : LocalMemoryType::local;
  return facts;
}

/// NVIDIA's own driver, which answers cl_nv_device_attribute_query.
inline DeviceFacts nvidia_gpu(Version cc, std::uint64_t local_memory = 48 * 1024) {
  DeviceFacts facts = make_facts("NVIDIA CUDA", "NVIDIA Corporation", "OpenCL 3.0 CUDA 13.0.88",
                                 "NVIDIA H100", "NVIDIA Corporation", "gpu");
  facts.descriptor.device.extensions = "cl_khr_fp64 cl_nv_device_attribute_query";
  facts.descriptor.device.local_memory_bytes = local_memory;
  facts.compute_capability_nv = cc;
  facts.warp_size_nv = 32;
  return facts;
}

/// An NVIDIA GPU whose driver does not answer NVIDIA's attribute queries.
inline DeviceFacts nvidia_gpu_without_attributes() {
  return make_facts("NVIDIA CUDA", "NVIDIA Corporation", "OpenCL 3.0 CUDA 13.0.88", "NVIDIA H100",
                    "NVIDIA Corporation", "gpu");
}

/// AMD's APP SDK: GPU, CPU and accelerator; `multiple` is the kernel probe's answer.
inline DeviceFacts amd(std::string type, std::optional<std::size_t> multiple = 64) {
  const bool cpu = type == "cpu";
  DeviceFacts facts =
      make_facts("AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.",
                 "OpenCL 2.0 AMD-APP (3513.0)", cpu ? "AMD Ryzen 9" : "gfx1030",
                 cpu ? "AuthenticAMD" : "Advanced Micro Devices, Inc.", type);
  facts.descriptor.device.extensions = "cl_khr_fp64 cl_amd_fp64";
  facts.kernel_work_group_size_multiple = multiple;
  return facts;
}

/// Intel's driver; the platform vendor "Intel(R) Corporation" contains the letters "ati".
inline DeviceFacts intel(std::string type) {
  const bool cpu = type == "cpu";
  DeviceFacts facts = make_facts(
      cpu ? "Intel(R) OpenCL" : "Intel(R) OpenCL Graphics", "Intel(R) Corporation", "OpenCL 3.0 ",
      cpu ? "Intel(R) Xeon(R) Gold" : "Intel(R) Iris(R) Xe Graphics", "Intel(R) Corporation", type);
  facts.kernel_work_group_size_multiple = 32;
  return facts;
}

inline DeviceFacts apple_cpu() {
  return make_facts("Apple", "Apple", "OpenCL 1.2 (Nov 13 2023)", "Apple M2", "Apple", "cpu");
}

/// PoCL's CPU device; `platform_version` as PoCL prints it.
inline DeviceFacts pocl_cpu(std::string platform_version =
                                "OpenCL 3.0 PoCL 3.1+debian  Linux, "
                                "None+Asserts, RELOC, LLVM 15.0.6") {
  DeviceFacts facts =
      make_facts("Portable Computing Language", "The pocl project", std::move(platform_version),
                 "pthread-skylake-avx512-AMD EPYC", "AuthenticAMD", "cpu");
  facts.descriptor.device.extensions =
      "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics   cl_khr_fp64";
  facts.descriptor.device.local_memory_bytes = 4 * 1024 * 1024;
  return facts;
}

inline DeviceFacts arm_mali_gpu() {
  return make_facts("ARM Platform", "ARM", "OpenCL 3.0 v1.r40p0", "Mali-G78", "ARM", "gpu");
}

}  // namespace polydev_test
