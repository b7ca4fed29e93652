#include <kernels/detail/library_load.hpp>
#include <kernels/variant_libraries.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <map>

namespace kernels {

VariantLibraryError::VariantLibraryError(std::string library, const std::string& why)
    : std::runtime_error("variant library '" + library + "': " + why), library_(std::move(library)) {}

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
  return text;
}

}  // namespace

std::vector<std::string> load_variant_library(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw VariantLibraryError(path, "no such file");
  static std::map<std::string, std::vector<std::string>> loaded;  // loading one again registers nothing new
  const std::string canonical = std::filesystem::canonical(path, error).string();
  if (const auto earlier = loaded.find(canonical); earlier != loaded.end()) return earlier->second;
  detail::begin_library_load();
  // RTLD_NOW: a missing symbol fails here, not at a variant's first call; RTLD_GLOBAL: one registry for all.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_GLOBAL);
  const char* why = handle == nullptr ? dlerror() : nullptr;
  detail::LibraryRegistrations made = detail::end_library_load();
  if (handle == nullptr) throw VariantLibraryError(path, std::string("does not load: ") + (why ? why : "?"));
  if (!made.refused.empty()) throw VariantLibraryError(path, "a record refused: " + joined(made.refused));
  if (made.registered.empty()) throw VariantLibraryError(path, "registers no variant");
  return loaded[canonical] = made.registered;
}

}  // namespace kernels
