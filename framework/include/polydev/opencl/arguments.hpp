#pragma once

/// @file
/// Kernel argument descriptors, the counterparts of PyOpenCL's `VectorArg`, `ScalarArg`,
/// `OtherArg`, `parse_c_arg`, `parse_arg_list` and `get_arg_offset_adjuster_code`: they turn (type,
/// name) pairs into the OpenCL C declarations of a generated kernel. An argument's type is a
/// `DType`: a scalar, an OpenCL C vector (`float4`, `uchar16`, ...) or a struct registered with
/// `get_or_register_dtype` (polydev/opencl/dtypes.hpp). Pure text; needs no driver.

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "polydev/opencl/dtypes.hpp"

namespace polydev::opencl {

/// A pointer argument: `__global <ctype> *<name>`. With `with_offset`, the declaration is
/// `__global <ctype> *<name>__base, long <name>__offset` (two kernel arguments: a buffer and a
/// byte offset), and `offset_adjuster_code` declares `<name>` from the two at the top of the
/// kernel, so a kernel body can use a buffer at any offset without sub-buffer alignment limits.
class VectorArg {
 public:
  /// @throws polydev::error if `name` is not a C identifier or is an OpenCL C keyword or type name.
  VectorArg(DType dtype, std::string name, bool with_offset = false);

  /// The type of the elements pointed to.
  const DType& dtype() const noexcept { return dtype_; }
  /// The parameter's name (with an offset, the name the adjuster code declares).
  const std::string& name() const noexcept { return name_; }
  /// Whether the argument is a buffer and a byte offset.
  bool with_offset() const noexcept { return with_offset_; }

  /// The declaration in the kernel's parameter list.
  std::string declarator() const;

  /// Whether the declaration needs `cl_khr_fp16`: a pointer to `halfN` or to a struct with half
  /// fields does; a pointer to plain `half` does not (OpenCL C lets any device declare one and
  /// read it with `vload_half`).
  bool needs_fp16() const noexcept;

  /// Same type, name and offset.
  friend bool operator==(const VectorArg& a, const VectorArg& b) {
    return a.dtype_ == b.dtype_ && a.name_ == b.name_ && a.with_offset_ == b.with_offset_;
  }

 private:
  DType dtype_;
  std::string name_;
  bool with_offset_;
};

/// A by-value argument: `<ctype> <name>`.
class ScalarArg {
 public:
  /// @throws polydev::error if `name` is not a C identifier or is an OpenCL C keyword or type name.
  ScalarArg(DType dtype, std::string name);

  /// The type of the value.
  const DType& dtype() const noexcept { return dtype_; }
  /// The parameter's name.
  const std::string& name() const noexcept { return name_; }

  /// The declaration in the kernel's parameter list.
  std::string declarator() const;

  /// Whether the declaration needs `cl_khr_fp16` (a `half` or `halfN` value, a struct with half
  /// fields).
  bool needs_fp16() const noexcept { return dtype_.needs_fp16(); }

  /// Same type and name.
  friend bool operator==(const ScalarArg& a, const ScalarArg& b) {
    return a.dtype_ == b.dtype_ && a.name_ == b.name_;
  }

 private:
  DType dtype_;
  std::string name_;
};

/// Any other argument, declared in free text: `__local float *scratch`, `image2d_t img`,
/// `sampler_t s`, `__constant int *table`. The declaration is used as given; polydev reads only
/// the name, for the checks on the list's names. It names no registered type: a struct it uses
/// and any extension it needs are declared by the kernel's source.
class OtherArg {
 public:
  /// @throws polydev::error if `name` is not a C identifier or is an OpenCL C keyword or type name,
  /// if `declarator` is blank, holds a ',' or ';' (more than one argument), or does not contain
  /// `name` as a word.
  OtherArg(std::string declarator, std::string name);

  /// The parameter's name.
  const std::string& name() const noexcept { return name_; }

  /// The declaration in the kernel's parameter list, as given.
  const std::string& declarator() const noexcept { return declarator_; }

  /// Same declaration and name.
  friend bool operator==(const OtherArg& a, const OtherArg& b) {
    return a.declarator_ == b.declarator_ && a.name_ == b.name_;
  }

 private:
  std::string declarator_;
  std::string name_;
};

/// One kernel argument.
using Argument = std::variant<VectorArg, ScalarArg, OtherArg>;

/// A piece of an argument list: a C declaration for `parse_c_arg`, or an argument made by hand
/// (an `OtherArg`, which no declaration is read into).
using ArgumentSpec = std::variant<std::string, Argument>;

/// The declaration of one argument.
std::string declarator(const Argument& argument);

/// The kernel's parameter list: the declarators joined by ", ".
/// @throws polydev::error when two arguments (or an argument and the `__base` / `__offset` names
/// an offset argument adds) have the same name.
std::string parameter_list(const std::vector<Argument>& arguments);

/// The statements that declare each offset argument's pointer from its base and byte offset
/// (`get_arg_offset_adjuster_code`), one per line; empty when no argument has an offset.
std::string offset_adjuster_code(const std::vector<Argument>& arguments);

/// What a kernel source needs before a signature with these arguments: the extension pragmas
/// (`cl_khr_fp64` when `needs_fp64`, `cl_khr_fp16` when `needs_fp16`), then the declaration of
/// each registered struct type the arguments use, each once, every struct after the structs its
/// declaration names. Empty when the arguments need none. An `OtherArg` adds nothing.
std::string type_declarations(const std::vector<Argument>& arguments);

/// How many kernel arguments the list takes (an offset argument takes two).
std::size_t kernel_argument_count(const std::vector<Argument>& arguments);

/// Whether any `VectorArg` or `ScalarArg` needs double precision (an `OtherArg` has no type).
bool needs_fp64(const std::vector<Argument>& arguments);

/// Whether any argument's declaration needs `cl_khr_fp16` (see `VectorArg::needs_fp16`; an
/// `OtherArg` has no type).
bool needs_fp16(const std::vector<Argument>& arguments);

/// One C declaration, as PyOpenCL's `parse_c_arg` reads it: "__global float4 *x", "float *x" (a
/// pointer is a `VectorArg` with or without `__global`), "const int n", "unsigned int n", "pair p"
/// (a `ScalarArg`). Type names are OpenCL C's, looked up in `registry`: scalars, vectors ("int8"
/// is eight `int`) and the structs registered there. `with_offset` is given to every `VectorArg`.
/// @throws polydev::error for `__local` / `__constant` arguments (which an `OtherArg` describes),
/// a missing name, a pointer to pointer, an unknown type, or a type OpenCL C forbids as a kernel
/// argument (`bool`, `size_t`, ...), with the text and what is accepted.
Argument parse_c_arg(std::string_view declaration, bool with_offset = false,
                     const DTypeRegistry& registry = type_registry());

/// A comma-separated list of declarations, each read by `parse_c_arg`; blank pieces are skipped.
std::vector<Argument> parse_arg_list(std::string_view declarations, bool with_offset = false,
                                     const DTypeRegistry& registry = type_registry());

/// A list of pieces, each a declaration read by `parse_c_arg` (blank ones skipped) or an argument
/// taken as it is: how an `OtherArg` joins declarations, e.g.
/// `parse_arg_list({"__global float *x", OtherArg("__local float *scratch", "scratch")})`.
/// `with_offset` is given to the declarations' `VectorArg`s only. Errors as `parse_c_arg`.
std::vector<Argument> parse_arg_list(const std::vector<ArgumentSpec>& pieces,
                                     bool with_offset = false,
                                     const DTypeRegistry& registry = type_registry());

}  // namespace polydev::opencl
