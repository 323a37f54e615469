#pragma once

/// @file
/// polydev's exception types. Every error polydev raises derives from a standard exception, so a
/// generic `catch (const std::exception&)` still sees it, and carries a message that says what was
/// wrong and what would be right.

#include <new>
#include <stdexcept>
#include <string>

namespace polydev {

/// Base of every polydev error that is not an out-of-memory condition.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A device selector (`PYOPENCL_TEST`, `PYOPENCL_CTX`, `CUDA_DEVICE`, `~/.cuda_device`,
/// `POLYDEV_REQUIRE_DEVICES`) is malformed or selects nothing. `what()` names the source, the
/// offending entry and what exists.
class selection_error : public error {
 public:
  using error::error;
};

/// A driver call failed. Keeps the backend ("OpenCL", "CUDA"), the API call, the numeric status and
/// its symbolic name; `what()` is "<api> failed: <NAME> (<code>)[: <detail>]".
class backend_error : public error {
 public:
  backend_error(std::string backend, std::string api, long code, std::string code_name,
                const std::string& detail = {});

  const std::string& backend() const noexcept { return backend_; }
  const std::string& api() const noexcept { return api_; }
  long code() const noexcept { return code_; }
  const std::string& code_name() const noexcept { return code_name_; }

 private:
  std::string backend_;
  std::string api_;
  long code_;
  std::string code_name_;
};

/// Memory could not be allocated. Derives from `std::bad_alloc` (as RMM's `out_of_memory` does) so
/// that code written for the standard allocator handles it; `what()` carries the details.
class out_of_memory : public std::bad_alloc {
 public:
  explicit out_of_memory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

}  // namespace polydev
