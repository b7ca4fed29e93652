// Variant libraries loaded by name, and the variant interface's version (docs/your-kernels.md).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#define KERNELS_VARIANT_API_VERSION 1

namespace kernels {

class VariantLibraryError : public std::runtime_error {
 public:
  VariantLibraryError(std::string library, const std::string& why);
  const std::string& library() const noexcept { return library_; }

 private:
  std::string library_;
};

// dlopen (every symbol resolved now, once a library); the ids it registered, or VariantLibraryError naming why not.
std::vector<std::string> load_variant_library(const std::string& path);

}  // namespace kernels
