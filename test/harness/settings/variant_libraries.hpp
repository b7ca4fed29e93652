// The variant libraries a test program or kcheck loads before anything else (docs/your-kernels.md).
#pragma once

#include <string>
#include <vector>

namespace harness {

// Loads KERNELS_VARIANT_LIBRARIES (paths separated by ':'), then `more` (kcheck's --variants-library), and
// returns the ids they registered. A library that cannot join the registry exits 2, naming it and why.
std::vector<std::string> load_variant_libraries(const std::vector<std::string>& more = {});

// The libraries loaded, as given: a rerun line names them (kcheck_command), so that it runs where it is printed.
const std::vector<std::string>& loaded_variant_libraries();
const std::vector<std::string>& loaded_variant_ids();  // what they registered

}  // namespace harness
