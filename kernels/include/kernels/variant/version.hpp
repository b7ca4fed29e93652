// The version of the variant interface (kernels/variant/*.cuh): raised whenever a variant library built against
// an older one would no longer work with this registry.
#pragma once

#define KERNELS_VARIANT_API_VERSION 1
