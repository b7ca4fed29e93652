// Every failed case of a test process, in a file: failure reports print the first few (the
// smallest first), this file keeps them all. It is <dir>/<name>.txt, where <dir> is
// $KCHECK_FAILURES_DIR or else the build's Testing/failures (beside ctest's logs, and the JUnit
// file of `ctest --output-junit Testing/junit.xml`), and <name> is $KCHECK_TEST_NAME (the ctest
// entry's name, which its registration sets; '/' written '_') or else the executable's name.
#pragma once

#include <filesystem>
#include <string>

namespace harness {

std::filesystem::path failure_list_path();

// Removes the list a previous run of the same test left (main, before the tests).
void clear_failure_list();

// Appends text to the list.
void append_to_failure_list(const std::string& text);

}  // namespace harness
