// Includes the public headers, links GpuPrimitives::kernels and calls into the library where no
// GPU is needed: the registry, and a call refused before anything reaches the device (the
// exception type crosses the library boundary).
#include <kernels/errors.hpp>
#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>

#include <cstdio>

int main() {
  const auto& variants = kernels::all_variants();
  if (variants.empty()) {
    std::puts("no variant registered");
    return 1;
  }
  try {
    kernels::reduce_workspace_bytes<int, int>("no_such_variant", kernels::Op::sum, 1);
  } catch (const kernels::ValidationError& error) {
    std::printf("%zu variants; refused as it should be: %s\n", variants.size(), error.what());
    return 0;
  }
  std::puts("an unknown variant was not refused");
  return 1;
}
