// Device scratch memory of a call, sized by the family's *_workspace_bytes: the library never allocates.
#pragma once

#include <cstddef>

namespace kernels {

struct Workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

}  // namespace kernels
