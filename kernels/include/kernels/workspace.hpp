// Device scratch memory handed to a call. The library never allocates during a call: the
// caller sizes the workspace with the family's *_workspace_bytes query and allocates it once.
#pragma once

#include <cstddef>

namespace kernels {

struct Workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

}  // namespace kernels
