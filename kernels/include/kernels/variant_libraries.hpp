// Variant libraries loaded by name, and the variant interface's version (docs/your-kernels.md).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#define KERNELS_VARIANT_API_VERSION 2
#define KERNELS_VARIANT_API_PASTE(prefix, version) prefix##version
#define KERNELS_VARIANT_API_MARK(version) KERNELS_VARIANT_API_PASTE(kernels_variant_api_v, version)
// Every library that includes this defines the mark of its version, which the loader reads before it loads one.
extern "C" __attribute__((weak, visibility("default")))
const int KERNELS_VARIANT_API_MARK(KERNELS_VARIANT_API_VERSION) = KERNELS_VARIANT_API_VERSION;

namespace kernels {

class VariantLibraryError : public std::runtime_error {
 public:
  VariantLibraryError(std::string library, const std::string& why);
  const std::string& library() const noexcept { return library_; }

 private:
  std::string library_;
};

// dlopen: the ids it registered, or VariantLibraryError; known by file name, the first of two wins (your-kernels.md)
std::vector<std::string> load_variant_library(const std::string& path);

std::string kit_library_path();  // where this library, libkernels.so, was loaded from

}  // namespace kernels
