#include "polydev/error.hpp"

#include <utility>

namespace polydev {

namespace {
std::string describe(const std::string& api, long code, const std::string& code_name,
                     const std::string& detail) {
  std::string text = api + " failed: " + code_name + " (" + std::to_string(code) + ")";
  if (!detail.empty()) text += ": " + detail;
  return text;
}
}  // namespace

backend_error::backend_error(std::string backend, std::string api, long code, std::string code_name,
                             const std::string& detail)
    : error(describe(api, code, code_name, detail)),
      backend_(std::move(backend)),
      api_(std::move(api)),
      code_(code),
      code_name_(std::move(code_name)) {}

}  // namespace polydev
