#include "harness/settings/environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

extern char** environ;

namespace harness {

void refuse_retired_variables() {
  static const bool checked = [] {
    constexpr std::string_view retired = "KCHECK_";
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string_view text = *entry;
      if (!text.starts_with(retired)) continue;
      const std::string_view name = text.substr(0, text.find('='));
      const std::string_view rest = name.substr(retired.size());
      std::fprintf(stderr,
                   "error: %.*s is set, but the suite's variables are named KERNELS_* now: set KERNELS_%.*s "
                   "instead (docs/running.md lists them)\n",
                   static_cast<int>(name.size()), name.data(), static_cast<int>(rest.size()), rest.data());
      std::exit(2);
    }
    return true;
  }();
  (void)checked;
}

const char* own_build_tree() {
#ifdef KERNELS_BUILD_TREE
  static const bool inside = [] {
    std::error_code error;
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    // A build folder of CMake's (CMakeFiles/ beside the program), not an install prefix placed inside one.
    return !error && program.string().starts_with(std::string(KERNELS_BUILD_TREE) + "/") &&
           std::filesystem::is_directory(program.parent_path() / "CMakeFiles", error);
  }();
  if (inside) return KERNELS_BUILD_TREE;
#endif
  return "";
}

const char* suite_variable(const char* name) {
  refuse_retired_variables();
  return std::getenv(name);
}

}  // namespace harness
