// The suite's environment variables (KERNELS_*, docs/running.md), read through one function so
// that a name of the retired KCHECK_* prefix still set stops the process instead of being ignored.
#pragma once

namespace harness {

// The value of the suite's variable `name`, or nullptr when unset. The first call in a process
// checks for retired names (refuse_retired_variables) first.
const char* suite_variable(const char* name);

// Exits 2, naming the new name, if any KCHECK_<rest> variable is set: it is KERNELS_<rest> now.
void refuse_retired_variables();

// The suite's own build folder when this program runs from it (a test program or kcheck of that build, not an
// installed copy); else empty. Defaults that name the build's files hold only there.
const char* own_build_tree();

}  // namespace harness
