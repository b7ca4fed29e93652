// A record refused while a variant library loads is kept here: a throw from its static initialisation ends the process.
#pragma once

#include <string>
#include <vector>

namespace kernels::detail {

struct LibraryRegistrations {
  std::vector<std::string> registered;  // ids, in order
  std::vector<std::string> refused;     // "family/name: why"
};

void begin_library_load();
// Keeps a refusal made while a library loads (true), or leaves it to the caller to throw (false).
bool refused_while_loading(const std::string& why);
LibraryRegistrations end_library_load();

}  // namespace kernels::detail
