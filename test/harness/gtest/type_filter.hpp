// KERNELS_TEST_TYPES=<type>[,<type>...]: a GPU test process runs the per-type tests of these
// element types only (names as kcheck's --type takes them: int, float, half_to_float). An entry
// runs one variant of every type in one process, so this is how `ctest -L <variant>` narrows to
// a type. The properties and the large tests, whose names carry no type, run as they are.
// KERNELS_TEST_TYPE_GROUP, which ctest sets for an entry (cmake/KernelsTesting.cmake), narrows the
// same way to the entry's group of types; KERNELS_TEST_TYPES then narrows within it.
#pragma once

#include <string>

namespace harness {

// `filter` (a --gtest_filter value) with the tests of every other type left out: each is named
// <type>/<suite>.<test>/<variant>, so their <type>/* patterns join the negative patterns.
// Unset or empty `types` keeps the filter. Throws std::invalid_argument naming `variable` (where
// `types` came from), the unknown name and the accepted ones.
std::string filter_for_types(const std::string& filter, const char* types, const char* variable = "KERNELS_TEST_TYPES");

}  // namespace harness
