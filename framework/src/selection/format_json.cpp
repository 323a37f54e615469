// `polydev devices --json`: the overview for scripts.
#include "io/json_writer.hpp"
#include "polydev/overview.hpp"

namespace polydev {

std::string format_json(const Overview& overview) {
  detail::JsonWriter json;
  json.begin_object().key("opencl").begin_object();
  json.key("available").value(overview.opencl.available).key("reason");
  overview.opencl.available ? json.null() : json.value(overview.opencl.reason);
  json.key("platforms").begin_array();
  for (const opencl::PlatformInfo& platform : overview.opencl.platforms) {
    json.begin_object()
        .key("index")
        .value(static_cast<std::int64_t>(platform.index))
        .key("name")
        .value(platform.name)
        .key("vendor")
        .value(platform.vendor)
        .key("version")
        .value(platform.version)
        .key("devices")
        .begin_array();
    for (const opencl::DeviceInfo& device : platform.devices) {
      json.begin_object()
          .key("index")
          .value(static_cast<std::int64_t>(device.index))
          .key("name")
          .value(device.name)
          .key("vendor")
          .value(device.vendor)
          .key("key")
          .value(device.key)
          .end_object();
    }
    json.end_array().key("devices_error");
    // Why a platform has no device (a driver that failed to list them, a malformed version).
    platform.devices_error.empty() ? json.null() : json.value(platform.devices_error);
    json.end_object();
  }
  json.end_array().key("selected");
  if (overview.opencl_selection) {
    json.begin_array();
    for (const opencl::DevicePosition& position : overview.opencl_selection->devices) {
      json.begin_array()
          .value(static_cast<std::int64_t>(position.platform))
          .value(static_cast<std::int64_t>(position.device))
          .end_array();
    }
    json.end_array();
  } else {
    json.null();
  }
  json.end_object();

  json.key("cuda").begin_object();
  json.key("available").value(overview.cuda.available).key("reason");
  overview.cuda.available ? json.null() : json.value(overview.cuda.reason);
  json.key("devices").begin_array();
  for (const cuda::DeviceInfo& device : overview.cuda.devices) {
    json.begin_object()
        .key("ordinal")
        .value(static_cast<std::int64_t>(device.ordinal))
        .key("name")
        .value(device.name)
        .key("key")
        .value(device.key)
        .end_object();
  }
  json.end_array().key("selected");
  if (overview.cuda_selection) {
    json.begin_array();
    for (int ordinal : overview.cuda_selection->ordinals)
      json.value(static_cast<std::int64_t>(ordinal));
    json.end_array();
  } else {
    json.null();
  }
  json.end_object().end_object();
  return json.text() + "\n";
}

}  // namespace polydev
