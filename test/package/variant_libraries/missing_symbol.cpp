// A variant library with a symbol defined nowhere: it does not load, and the loader names the symbol.
#include <kernels/variant_libraries.hpp>

int kernels_test_symbol_defined_nowhere();
const int kernels_test_value = kernels_test_symbol_defined_nowhere();
