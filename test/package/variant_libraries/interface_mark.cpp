// The fixture's file includes the detail headers, as the suite's own variants do: this gives its library the mark
// of the variant interface's version, as <kernels/variant/reduce.cuh> gives a user's.
#include <kernels/variant_libraries.hpp>
