// The variant libraries a test program or kcheck loads before anything else (docs/your-kernels.md).
#pragma once

#include <string>
#include <vector>

namespace harness {

// Loads KERNELS_VARIANT_LIBRARIES (paths separated by ':'), then `more` (kcheck's --variants-library), and
// returns the ids they registered. A library that cannot join the registry exits 2, naming it and why.
// With neither given, a program of the suite's own build folder run from there loads the libraries that build
// gives its entries (the test fixtures), so a program run by hand finds what its entries run.
std::vector<std::string> load_variant_libraries(const std::vector<std::string>& more = {});

// Whether libraries were given (KERNELS_VARIANT_LIBRARIES or `more`), not only the build folder's default.
bool variant_libraries_given();

// The libraries loaded, as given, but the kit's own (libkernels.so, whose variants every program holds).
const std::vector<std::string>& loaded_variant_libraries();
const std::vector<std::string>& loaded_variant_ids();  // what they registered, the kit's own variants too

// The library, as given, that registered `id`; empty for a variant of the kit's own library. A rerun line names
// it (kcheck_command), so that it runs where it is printed.
std::string variant_library_of(const std::string& id);

}  // namespace harness
