#include "harness/settings/environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

const char* suite_variable(const char* name) {
  refuse_retired_variables();
  return std::getenv(name);
}

}  // namespace harness
