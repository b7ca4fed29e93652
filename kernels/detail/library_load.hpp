// Registrations made while a variant library loads (src/variant_libraries.cpp): a throw from a library's static
// initialisation would end the process, so a refused record is kept here, to be reported with the library's name.
#pragma once

#include <string>
#include <vector>

namespace kernels::detail {

struct LibraryRegistrations {
  std::vector<std::string> registered;  // ids, in order
  std::vector<std::string> refused;     // "family/name: why"
};

void begin_library_load();
LibraryRegistrations end_library_load();

}  // namespace kernels::detail
