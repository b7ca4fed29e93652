// A variant library that registers no variant: loading it is an error, not a silent no-op.
#include <kernels/variant_libraries.hpp>

int kernels_test_library_without_variants() { return 0; }
