// Every failed case of a test process, in a file: failure reports print the first few (the
// smallest first), this file keeps them all. It is <dir>/<name>.txt, where <dir> is
// $KERNELS_FAILURES_DIR or else the build's Testing/failures (beside ctest's logs, and the JUnit
// file of `ctest --output-junit Testing/junit.xml`), and <name> is $KERNELS_TEST_NAME (the ctest
// entry's name, which its registration sets; '/' written '_') or else the executable's name.
#pragma once

#include <filesystem>
#include <string>

namespace harness {

std::filesystem::path failure_list_path();

// A new file beside the list, for a batch of rerun lines that a printed line runs:
// <dir>/<name>.rerun-<k>.txt, k counting from 1 in each process.
std::filesystem::path new_rerun_file_path();

// Removes the list and the rerun files a previous run of the same test left (main, before the tests).
void clear_failure_list();

// Appends text to the list.
void append_to_failure_list(const std::string& text);

}  // namespace harness
