// Variant libraries: shared libraries, built against this package, whose variant files register more variants
// into this registry when loaded (docs/your-kernels.md). The suite's test programs and kcheck load them by
// name (KERNELS_VARIANT_LIBRARIES, kcheck --variants-library), never by LD_PRELOAD.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kernels {

// A library that cannot join the registry: the message names the library and why (a missing file, a missing
// symbol, no variant registered, a record refused, a name already registered); the caller stops there (the suite exits
// 2).
class VariantLibraryError : public std::runtime_error {
 public:
  VariantLibraryError(std::string library, const std::string& why);
  const std::string& library() const noexcept { return library_; }

 private:
  std::string library_;
};

// Loads `path` (dlopen, every symbol resolved now) and returns the ids ("family/name") it registered, in
// registration order; throws VariantLibraryError as above.
std::vector<std::string> load_variant_library(const std::string& path);

}  // namespace kernels
