#include "harness/settings/variant_libraries.hpp"

#include "harness/settings/environment.hpp"

#include <kernels/variant_libraries.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

namespace harness {
namespace {

std::vector<std::string>& libraries() {
  static std::vector<std::string> loaded;
  return loaded;
}

std::vector<std::string>& registered_ids() {
  static std::vector<std::string> ids;
  return ids;
}

bool& given() {
  static bool given = false;
  return given;
}

std::map<std::string, std::string>& library_of_id() {
  static std::map<std::string, std::string> libraries;
  return libraries;
}

// KERNELS_BUILD_TREE_LIBRARIES (':'-separated) when this program runs from the suite's own build, which bakes it
// in; an installed copy of the program loads only what it is given.
std::string build_tree_default() {
#ifdef KERNELS_BUILD_TREE_LIBRARIES
  if (*own_build_tree() != '\0') return KERNELS_BUILD_TREE_LIBRARIES;
#endif
  return {};
}

bool is_kit_library(const std::string& path) {
  std::error_code error;
  const std::filesystem::path given = std::filesystem::canonical(path, error);
  return !error && given.filename() == std::filesystem::path(kernels::kit_library_path()).filename();
}

}  // namespace

const std::vector<std::string>& loaded_variant_libraries() { return libraries(); }
const std::vector<std::string>& loaded_variant_ids() { return registered_ids(); }
bool variant_libraries_given() { return given(); }

std::string variant_library_of(const std::string& id) {
  const auto found = library_of_id().find(id);
  return found == library_of_id().end() ? std::string() : found->second;
}

std::vector<std::string> load_variant_libraries(const std::vector<std::string>& more) {
  std::vector<std::string> paths;
  const char* listed = suite_variable("KERNELS_VARIANT_LIBRARIES");
  const std::string text = listed != nullptr ? listed : more.empty() ? build_tree_default() : std::string();
  given() = given() || listed != nullptr || !more.empty();
  std::istringstream items(text);
  for (std::string path; std::getline(items, path, ':');) {
    if (!path.empty()) paths.push_back(path);
  }
  paths.insert(paths.end(), more.begin(), more.end());
  std::vector<std::string> ids;
  for (const std::string& path : paths) {
    try {
      const std::vector<std::string> registered = kernels::load_variant_library(path);
      const bool kit = is_kit_library(path);
      if (!kit && std::find(libraries().begin(), libraries().end(), path) == libraries().end())
        libraries().push_back(path);
      for (const std::string& id : registered) {
        ids.push_back(id);
        if (!kit) library_of_id().emplace(id, path);  // the first library of a file name wins, as it loads
        if (std::find(registered_ids().begin(), registered_ids().end(), id) == registered_ids().end())
          registered_ids().push_back(id);
      }
    } catch (const kernels::VariantLibraryError& error) {
      std::fprintf(stderr, "error: %s (KERNELS_VARIANT_LIBRARIES, --variants-library)\n", error.what());
      std::exit(2);
    }
  }
  return ids;
}

}  // namespace harness
