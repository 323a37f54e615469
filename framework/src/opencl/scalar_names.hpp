#pragma once

// The names of the scalar types, shared by DType, the registry's lookups and parse_scalar_type.

#include <optional>
#include <string>
#include <string_view>

#include "polydev/opencl/dtypes.hpp"

namespace polydev::opencl {

/// The scalar an OpenCL C spelling names: "unsigned int", "uint", "long int", "cfloat_t", ...
std::optional<ScalarType> scalar_of_c_name(std::string_view c_name);

/// The scalar a NumPy name names: "float32", "int8", ...
std::optional<ScalarType> scalar_of_dtype_name(std::string_view dtype_name);

/// The component of the vector types spelled "<element><n>": "uchar" for uchar4, ...; nothing for
/// the complex types, which have no vectors.
std::optional<ScalarType> scalar_of_vector_element(std::string_view element);

/// The element spelling of the vector types of `type` ("uchar"); empty for the complex types.
std::string_view vector_element_name(ScalarType type) noexcept;

/// The element spellings of the vector types, for messages: "char, uchar, ..., double".
std::string vector_element_names();

/// The OpenCL C scalar type names, for messages: "char, uchar, short, ...".
std::string opencl_c_scalar_names();

}  // namespace polydev::opencl
