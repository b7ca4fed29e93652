// A variant library that registers no variant: loading it is an error, not a silent no-op.
int kernels_test_library_without_variants() { return 0; }
