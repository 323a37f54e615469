#pragma once

/// @file
/// The element types of kernel arguments, the counterparts of PyOpenCL's dtypes as its argument
/// descriptors see them: the scalar types, the OpenCL C vector types (`float4`, `uchar16`, ...),
/// and struct types registered by name with `get_or_register_dtype` (with `dtype_to_ctype` naming
/// any of them in OpenCL C). Pure text; needs no driver.

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace polydev::opencl {

/// The scalar element types, named as NumPy names them (`dtype`).
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
/// OpenCL C scalar type name ("float", "unsigned int", "uint", "ulong", ...). NumPy names come
/// first: "int8" is NumPy's 8-bit integer here, while in an OpenCL C declaration it is a vector
/// of eight `int` (see `DTypeRegistry::get_or_register_dtype`).
/// @throws polydev::error naming the text and listing the accepted names.
ScalarType parse_scalar_type(std::string_view text);

namespace detail {
struct StructDefinition;
}  // namespace detail

/// The type of a kernel argument's elements: a scalar, an OpenCL C vector of 2, 3, 4, 8 or 16
/// scalars, or a struct registered with `get_or_register_dtype`. A value type; a `ScalarType`
/// converts to it.
class DType {
 public:
  /// What a DType is.
  enum class Kind { scalar, vector, structure };

  /// The scalar type itself (implicit, so that every `ScalarType` is a DType).
  DType(ScalarType scalar) noexcept;  // NOLINT(google-explicit-constructor)

  /// The OpenCL C vector of `count` elements of `component` (`vector(ScalarType::float32, 4)` is
  /// `float4`). A 3-component vector has the size and alignment of a 4-component one.
  /// @throws polydev::error when `count` is not 2, 3, 4, 8 or 16 (the widths OpenCL C has) or
  /// `component` is complex (OpenCL C has no complex vectors).
  static DType vector(ScalarType component, std::size_t count);

  /// Scalar, vector or struct.
  Kind kind() const noexcept { return kind_; }

  /// The scalar type, or a vector's component type.
  /// @throws polydev::error for a struct, which has no single scalar type.
  ScalarType scalar_type() const;

  /// The number of components: n for a vector, 1 for a scalar or a struct.
  std::size_t count() const noexcept { return count_; }

  /// Size in bytes, as OpenCL C lays the type out (a 3-component vector takes 4 components).
  std::size_t size() const noexcept;

  /// Alignment in bytes: a built-in type's size (a complex type's component size), a struct's
  /// registered alignment.
  std::size_t alignment() const noexcept;

  /// Whether declaring the type needs double precision (`double`, `doubleN`, `cdouble_t`, a struct
  /// with such a field).
  bool needs_fp64() const noexcept;

  /// Whether declaring a value of the type needs `cl_khr_fp16` (`half`, `halfN`, a struct with
  /// such a field). A pointer to plain `half` needs no extension: see `VectorArg::needs_fp16`.
  bool needs_fp16() const noexcept;

  /// A struct's declaration text, as registered; empty for the built-in types.
  const std::string& declaration() const noexcept;

  /// The registered structs a struct's declaration names, which must be declared before it, in
  /// the order they appear; empty for the built-in types.
  std::vector<DType> dependencies() const;

  /// The same built-in type, or structs of the same name and definition (size, alignment, and
  /// declaration up to spacing and comments), whichever registry they come from.
  friend bool operator==(const DType& a, const DType& b) noexcept;
  /// Not `==`.
  friend bool operator!=(const DType& a, const DType& b) noexcept { return !(a == b); }

 private:
  friend class DTypeRegistry;
  friend std::string dtype_to_ctype(const DType& dtype);
  explicit DType(std::shared_ptr<const detail::StructDefinition> definition) noexcept;

  Kind kind_;
  ScalarType scalar_;
  std::size_t count_;
  std::shared_ptr<const detail::StructDefinition> struct_;
};

/// The OpenCL C name of the type: "float", "unsigned char", "float4", "uchar16", a registered
/// struct's name.
std::string dtype_to_ctype(const DType& dtype);

/// C type names and the DTypes they name: the OpenCL C built-in scalar and vector types, and the
/// struct types registered here (the counterpart of PyOpenCL's `DTypeRegistry`). Thread-safe.
class DTypeRegistry {
 public:
  /// Registers the struct type `name`: its size and alignment in bytes, and `declaration`, the
  /// OpenCL C text that defines it (e.g. "typedef struct { int id; float value; } id_val;"),
  /// which `type_declarations` emits before a kernel that uses it. Registering the same name again
  /// with the same definition returns the same DType. Another registered struct named in
  /// `declaration` is declared before it.
  /// @throws polydev::error when `name` is not a C identifier, is an OpenCL C keyword or built-in
  /// type, or is registered with a different definition; when `size` is 0, `alignment` is not a
  /// power of two or `size` not a multiple of it; when `declaration` does not mention `name`, has
  /// an unterminated comment, or has a field type OpenCL C forbids in kernel arguments (`bool`,
  /// `size_t`, `ptrdiff_t`, `intptr_t`, `uintptr_t`).
  DType get_or_register_dtype(const std::string& name, std::size_t size, std::size_t alignment,
                              const std::string& declaration);

  /// The type a C type name denotes in an OpenCL C declaration: a scalar ("float", "unsigned
  /// int", "uint", "long int", "cfloat_t", ...), a vector ("float4", "uchar16", "int8" is eight
  /// `int`), or a struct registered here.
  /// @throws polydev::error for a type OpenCL C forbids as a kernel argument ("'bool' cannot be a
  /// kernel argument in OpenCL C: ..."), a vector width OpenCL C does not have, or an unknown name
  /// ("unknown argument type ...; register it with get_or_register_dtype ...").
  DType get_or_register_dtype(std::string_view c_name) const;

  /// The names of the registered struct types, sorted.
  std::vector<std::string> registered_names() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const detail::StructDefinition>, std::less<>> structs_;
};

/// The process-wide registry, which the functions below and the argument parsers use by default
/// (PyOpenCL's `TYPE_REGISTRY`).
DTypeRegistry& type_registry();

/// `type_registry().get_or_register_dtype(name, size, alignment, declaration)`.
DType get_or_register_dtype(const std::string& name, std::size_t size, std::size_t alignment,
                            const std::string& declaration);

/// Registers `name` with the size and alignment of the host type `T`, which must have the layout
/// `declaration` gives the device (trivially copyable, standard layout).
template <typename T>
DType get_or_register_dtype(const std::string& name, const std::string& declaration) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
                "a kernel argument's host type must be trivially copyable and standard layout");
  return get_or_register_dtype(name, sizeof(T), alignof(T), declaration);
}

/// `type_registry().get_or_register_dtype(c_name)`.
DType get_or_register_dtype(std::string_view c_name);

}  // namespace polydev::opencl
