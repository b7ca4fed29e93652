// A variant library with a symbol defined nowhere: it does not load, and the loader names the symbol.
int kernels_test_symbol_defined_nowhere();
const int kernels_test_value = kernels_test_symbol_defined_nowhere();
