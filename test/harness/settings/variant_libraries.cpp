#include "harness/settings/variant_libraries.hpp"

#include "harness/settings/environment.hpp"

#include <kernels/variant_libraries.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

}  // namespace

const std::vector<std::string>& loaded_variant_libraries() { return libraries(); }
const std::vector<std::string>& loaded_variant_ids() { return registered_ids(); }

std::vector<std::string> load_variant_libraries(const std::vector<std::string>& more) {
  std::vector<std::string> paths;
  if (const char* listed = suite_variable("KERNELS_VARIANT_LIBRARIES")) {
    std::istringstream text(listed);
    for (std::string path; std::getline(text, path, ':');) {
      if (!path.empty()) paths.push_back(path);
    }
  }
  paths.insert(paths.end(), more.begin(), more.end());
  std::vector<std::string> ids;
  for (const std::string& path : paths) {
    try {
      for (std::string& id : kernels::load_variant_library(path)) ids.push_back(std::move(id));
      if (std::find(libraries().begin(), libraries().end(), path) == libraries().end()) libraries().push_back(path);
      for (const std::string& id : ids) {
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
