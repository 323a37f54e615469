#include "polydev/opencl/memory/sampler.hpp"

#include <algorithm>
#include <string>

#include "operations_support.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/characterize.hpp"
#include "polydev/opencl/error.hpp"
#include "polydev/opencl/memory/detail/sampler_properties.hpp"

namespace polydev::opencl::memory {

namespace {

const char* addressing_name(cl_addressing_mode mode) noexcept {
  switch (mode) {
    case CL_ADDRESS_NONE:
      return "CL_ADDRESS_NONE";
    case CL_ADDRESS_CLAMP_TO_EDGE:
      return "CL_ADDRESS_CLAMP_TO_EDGE";
    case CL_ADDRESS_CLAMP:
      return "CL_ADDRESS_CLAMP";
    case CL_ADDRESS_REPEAT:
      return "CL_ADDRESS_REPEAT";
    case CL_ADDRESS_MIRRORED_REPEAT:
      return "CL_ADDRESS_MIRRORED_REPEAT";
    default:
      return nullptr;
  }
}

bool is_filter(cl_filter_mode mode) noexcept {
  return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR;
}

// The rules both forms share.
void check_settings(bool normalized_coords, cl_addressing_mode addressing_mode,
                    cl_filter_mode filter_mode, const char* who) {
  const char* addressing = addressing_name(addressing_mode);
  if (addressing == nullptr) {
    throw error(std::string(who) + ": addressing mode " + std::to_string(addressing_mode) +
                " is not one of CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, "
                "CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT");
  }
  if (!normalized_coords &&
      (addressing_mode == CL_ADDRESS_REPEAT || addressing_mode == CL_ADDRESS_MIRRORED_REPEAT)) {
    throw error(std::string(who) + ": " + addressing +
                " with unnormalized coordinates; OpenCL defines the repeat modes for "
                "normalized coordinates only");
  }
  if (!is_filter(filter_mode)) {
    throw error(std::string(who) + ": filter mode " + std::to_string(filter_mode) +
                " is not CL_FILTER_NEAREST or CL_FILTER_LINEAR");
  }
}

const char* property_name(cl_sampler_properties name) noexcept {
  switch (name) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      return "CL_SAMPLER_NORMALIZED_COORDS";
    case CL_SAMPLER_ADDRESSING_MODE:
      return "CL_SAMPLER_ADDRESSING_MODE";
    case CL_SAMPLER_FILTER_MODE:
      return "CL_SAMPLER_FILTER_MODE";
    case CL_SAMPLER_MIP_FILTER_MODE_KHR:
      return "CL_SAMPLER_MIP_FILTER_MODE_KHR";
    case CL_SAMPLER_LOD_MIN_KHR:
      return "CL_SAMPLER_LOD_MIN_KHR";
    case CL_SAMPLER_LOD_MAX_KHR:
      return "CL_SAMPLER_LOD_MAX_KHR";
    default:
      return nullptr;
  }
}

// @throws polydev::error naming the first of `devices` without cl_khr_mipmap_image.
void require_mipmaps(const std::vector<cl::Device>& devices, const char* who) {
  for (const cl::Device& device : devices) {
    std::string extensions;
    check(device.getInfo(CL_DEVICE_EXTENSIONS, &extensions), "clGetDeviceInfo",
          "CL_DEVICE_EXTENSIONS");
    if (!has_extension(extensions, "cl_khr_mipmap_image")) {
      throw error(std::string(who) +
                  ": mip-map sampler properties need cl_khr_mipmap_image, "
                  "which device '" +
                  detail::device_name(device) + "' lacks");
    }
  }
}

}  // namespace

namespace detail {

SamplerProperties parse_sampler_properties(const std::vector<cl_sampler_properties>& properties,
                                           const char* who) {
  if (properties.size() % 2 != 0) {
    throw error(std::string(who) + ": " + std::to_string(properties.size()) +
                " property entries; they come in (name, value) pairs, without the terminating 0 "
                "(polydev adds it)");
  }
  SamplerProperties parsed;
  std::vector<cl_sampler_properties> seen;
  for (std::size_t i = 0; i < properties.size(); i += 2) {
    const cl_sampler_properties name = properties[i];
    const cl_sampler_properties value = properties[i + 1];
    const char* known = property_name(name);
    if (name == 0) {
      throw error(std::string(who) + ": property name 0 at entry " + std::to_string(i) +
                  "; leave out the terminating 0 (polydev adds it) and give only pairs");
    }
    if (known == nullptr) {
      throw error(std::string(who) + ": property name " + std::to_string(name) +
                  " is not one of CL_SAMPLER_NORMALIZED_COORDS, CL_SAMPLER_ADDRESSING_MODE, "
                  "CL_SAMPLER_FILTER_MODE, CL_SAMPLER_MIP_FILTER_MODE_KHR, "
                  "CL_SAMPLER_LOD_MIN_KHR, CL_SAMPLER_LOD_MAX_KHR");
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw error(std::string(who) + ": " + known + " given twice; OpenCL takes each once");
    }
    seen.push_back(name);
    switch (name) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        if (value != CL_TRUE && value != CL_FALSE) {
          throw error(std::string(who) + ": CL_SAMPLER_NORMALIZED_COORDS is " +
                      std::to_string(value) + "; use CL_TRUE or CL_FALSE");
        }
        parsed.normalized_coords = static_cast<cl_bool>(value);
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        parsed.addressing_mode = static_cast<cl_addressing_mode>(value);
        if (value != parsed.addressing_mode || addressing_name(parsed.addressing_mode) == nullptr) {
          throw error(std::string(who) + ": addressing mode " + std::to_string(value) +
                      " is not one of CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, "
                      "CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT");
        }
        break;
      case CL_SAMPLER_FILTER_MODE:
      case CL_SAMPLER_MIP_FILTER_MODE_KHR:
        if (value != CL_FILTER_NEAREST && value != CL_FILTER_LINEAR) {
          throw error(std::string(who) + ": " + known + " " + std::to_string(value) +
                      " is not CL_FILTER_NEAREST or CL_FILTER_LINEAR");
        }
        if (name == CL_SAMPLER_FILTER_MODE) {
          parsed.filter_mode = static_cast<cl_filter_mode>(value);
        } else {
          parsed.mipmap.insert(parsed.mipmap.end(), {name, value});
        }
        break;
      default:  // the level-of-detail bounds, whose floats the driver reads
        parsed.mipmap.insert(parsed.mipmap.end(), {name, value});
        break;
    }
  }
  check_settings(parsed.normalized_coords == CL_TRUE, parsed.addressing_mode, parsed.filter_mode,
                 who);
  return parsed;
}

bool use_properties_api(const SamplerProperties& properties, const std::string& platform_version,
                        const char* who) {
  const std::optional<Version> version = parse_opencl_version(platform_version);
  if (!version) {
    throw error(std::string(who) + ": platform version '" + platform_version +
                "' is not 'OpenCL <major>.<minor> ...'; cannot tell whether "
                "clCreateSamplerWithProperties exists");
  }
  if (Version{2, 0} < *version || *version == Version{2, 0}) return true;
  if (!properties.mipmap.empty()) {
    throw error(std::string(who) +
                ": mip-map sampler properties need "
                "clCreateSamplerWithProperties (OpenCL 2.0); the platform is '" +
                platform_version +
                "': give only CL_SAMPLER_NORMALIZED_COORDS, CL_SAMPLER_ADDRESSING_MODE and "
                "CL_SAMPLER_FILTER_MODE there");
  }
  return false;
}

}  // namespace detail

namespace {

std::string platform_version_of(const std::vector<cl::Device>& devices) {
  cl_platform_id platform = nullptr;
  check(devices.front().getInfo(CL_DEVICE_PLATFORM, &platform), "clGetDeviceInfo",
        "CL_DEVICE_PLATFORM");
  std::string version;
  check(cl::Platform(platform).getInfo(CL_PLATFORM_VERSION, &version), "clGetPlatformInfo",
        "CL_PLATFORM_VERSION");
  return version;
}

// Both forms end here: clCreateSamplerWithProperties with `list` (pairs, unterminated) where the
// platform has it (OpenCL 2.0 on), clCreateSampler with `parsed` before. The bindings' constructor
// calls the former whatever the platform.
cl::Sampler create(const cl::Context& context, const detail::SamplerProperties& parsed,
                   std::vector<cl_sampler_properties> list, const char* who) {
  detail::require_image_support(context, who);
  const std::vector<cl::Device> devices = detail::context_devices(context);
  if (devices.empty()) throw error(std::string(who) + ": the context has no devices");
  if (!parsed.mipmap.empty()) require_mipmaps(devices, who);
  cl_int status = CL_SUCCESS;
  if (!detail::use_properties_api(parsed, platform_version_of(devices), who)) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    cl_sampler sampler = clCreateSampler(context(), parsed.normalized_coords,
                                         parsed.addressing_mode, parsed.filter_mode, &status);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    check(status, "clCreateSampler");
    return cl::Sampler(sampler);
  }
  list.push_back(0);
  cl_sampler sampler = clCreateSamplerWithProperties(context(), list.data(), &status);
  check(status, "clCreateSamplerWithProperties");
  return cl::Sampler(sampler);
}

}  // namespace

cl::Sampler make_sampler(const cl::Context& context, bool normalized_coords,
                         cl_addressing_mode addressing_mode, cl_filter_mode filter_mode) {
  constexpr const char* who = "make_sampler";
  check_settings(normalized_coords, addressing_mode, filter_mode, who);
  detail::SamplerProperties parsed;
  parsed.normalized_coords = normalized_coords ? CL_TRUE : CL_FALSE;
  parsed.addressing_mode = addressing_mode;
  parsed.filter_mode = filter_mode;
  return create(context, parsed,
                {CL_SAMPLER_NORMALIZED_COORDS, parsed.normalized_coords, CL_SAMPLER_ADDRESSING_MODE,
                 addressing_mode, CL_SAMPLER_FILTER_MODE, filter_mode},
                who);
}

cl::Sampler make_sampler(const cl::Context& context,
                         const std::vector<cl_sampler_properties>& properties) {
  constexpr const char* who = "make_sampler";
  return create(context, detail::parse_sampler_properties(properties, who), properties, who);
}

}  // namespace polydev::opencl::memory
