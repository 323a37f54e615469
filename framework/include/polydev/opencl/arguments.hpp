#pragma once

/// @file
/// Kernel argument descriptors, the counterparts of PyOpenCL's `VectorArg`, `ScalarArg`,
/// `parse_c_arg` and `get_arg_offset_adjuster_code`: they turn (type, name) pairs into the
/// OpenCL C declarations of a generated kernel. Pure text; needs no driver.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace polydev::opencl {

/// The element types an argument can have, named as NumPy names them (`dtype`).
enum class ScalarType {
  int8,
  uint8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  float32,
  float64,
  complex64,
  complex128,
};

/// The NumPy name: "float32", "uint8", ...
std::string_view dtype_name(ScalarType type) noexcept;

/// The OpenCL C type, as PyOpenCL's `dtype_to_ctype` spells it: "float", "unsigned char",
/// "long" (64-bit in OpenCL C), "half", "cfloat_t" / "cdouble_t" for the complex types (which need
/// PyOpenCL's complex header or an equivalent typedef in the kernel source).
std::string_view c_type_name(ScalarType type) noexcept;

/// Size of one element in bytes.
std::size_t size_of(ScalarType type) noexcept;

/// Whether the type needs double precision on the device (`float64`, `complex128`).
bool needs_fp64(ScalarType type) noexcept;

/// The type of a NumPy name ("float32", also "float", "double", "int", "uint", "half") or an
/// OpenCL C type name ("float", "unsigned int", "uint", "ulong", ...).
/// @throws polydev::error naming the text and listing the accepted names.
ScalarType parse_scalar_type(std::string_view text);

/// A pointer argument: `__global <ctype> *<name>`. With `with_offset`, the declaration is
/// `__global <ctype> *<name>__base, long <name>__offset` (two kernel arguments: a buffer and a
/// byte offset), and `offset_adjuster_code` declares `<name>` from the two at the top of the
/// kernel, so a kernel body can use a buffer at any offset without sub-buffer alignment limits.
class VectorArg {
 public:
  /// @throws polydev::error if `name` is not a C identifier or is an OpenCL C keyword or type name.
  VectorArg(ScalarType type, std::string name, bool with_offset = false);

  ScalarType type() const noexcept { return type_; }
  const std::string& name() const noexcept { return name_; }
  bool with_offset() const noexcept { return with_offset_; }

  /// The declaration in the kernel's parameter list.
  std::string declarator() const;

  friend bool operator==(const VectorArg& a, const VectorArg& b) {
    return a.type_ == b.type_ && a.name_ == b.name_ && a.with_offset_ == b.with_offset_;
  }

 private:
  ScalarType type_;
  std::string name_;
  bool with_offset_;
};

/// A by-value argument: `<ctype> <name>`.
class ScalarArg {
 public:
  /// @throws polydev::error if `name` is not a C identifier or is an OpenCL C keyword or type name.
  ScalarArg(ScalarType type, std::string name);

  ScalarType type() const noexcept { return type_; }
  const std::string& name() const noexcept { return name_; }

  /// The declaration in the kernel's parameter list.
  std::string declarator() const;

  friend bool operator==(const ScalarArg& a, const ScalarArg& b) {
    return a.type_ == b.type_ && a.name_ == b.name_;
  }

 private:
  ScalarType type_;
  std::string name_;
};

/// One kernel argument.
using Argument = std::variant<VectorArg, ScalarArg>;

/// The declaration of one argument.
std::string declarator(const Argument& argument);

/// The kernel's parameter list: the declarators joined by ", ".
/// @throws polydev::error when two arguments (or an argument and the `__base` / `__offset` names
/// an offset argument adds) have the same name.
std::string parameter_list(const std::vector<Argument>& arguments);

/// The statements that declare each offset argument's pointer from its base and byte offset
/// (`get_arg_offset_adjuster_code`), one per line; empty when no argument has an offset.
std::string offset_adjuster_code(const std::vector<Argument>& arguments);

/// How many kernel arguments the list takes (an offset argument takes two).
std::size_t kernel_argument_count(const std::vector<Argument>& arguments);

/// Whether any argument needs double precision.
bool needs_fp64(const std::vector<Argument>& arguments);

/// One C declaration, as PyOpenCL's `parse_c_arg` reads it: "__global float *x", "float *x" (a
/// pointer is a `VectorArg` with or without `__global`), "const int n", "unsigned int n" (a
/// `ScalarArg`). `with_offset` is given to every `VectorArg`.
/// @throws polydev::error for `__local` / `__constant` arguments, a missing name, an unknown type
/// or a pointer to pointer, with the text and what is accepted.
Argument parse_c_arg(std::string_view declaration, bool with_offset = false);

/// A comma-separated list of declarations, each read by `parse_c_arg`.
std::vector<Argument> parse_arg_list(std::string_view declarations, bool with_offset = false);

}  // namespace polydev::opencl
