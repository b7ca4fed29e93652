// A variant library built against another version of the variant interface (its mark is v0): refused before it
// loads, naming the version this package expects.
extern "C" __attribute__((visibility("default"))) const int kernels_variant_api_v0 = 0;
