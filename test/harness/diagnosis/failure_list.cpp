#include "harness/diagnosis/failure_list.hpp"
#include "harness/settings/environment.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>

namespace harness {

std::filesystem::path failure_list_path() {
  const char* dir = harness::suite_variable("KERNELS_FAILURES_DIR");
  const char* test = harness::suite_variable("KERNELS_TEST_NAME");
  std::string name = test != nullptr && *test != '\0' ? test : program_invocation_short_name;
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  if (dir != nullptr && *dir != '\0') return std::filesystem::path(dir) / (name + ".txt");
  // Else the build's Testing/failures: the suite's own build folder, or the folder ctest runs an entry in (where
  // gpu_primitives_add_tests made it).
  const std::filesystem::path build = *own_build_tree() != '\0' ? own_build_tree() : std::filesystem::current_path();
  return build / "Testing" / "failures" / (name + ".txt");
}

std::filesystem::path new_rerun_file_path() {
  static unsigned files = 0;
  const std::filesystem::path list = failure_list_path();
  std::error_code ignored;
  std::filesystem::create_directories(list.parent_path(), ignored);
  return list.parent_path() / (list.stem().string() + ".rerun-" + std::to_string(++files) + ".txt");
}

void clear_failure_list() {
  const std::filesystem::path list = failure_list_path();
  const std::string rerun_files = list.stem().string() + ".rerun-";
  std::error_code ignored;
  std::filesystem::remove(list, ignored);
  for (const auto& entry : std::filesystem::directory_iterator(list.parent_path(), ignored)) {
    if (entry.path().filename().string().rfind(rerun_files, 0) == 0) std::filesystem::remove(entry.path(), ignored);
  }
}

void append_to_failure_list(const std::string& text) {
  const std::filesystem::path path = failure_list_path();
  std::error_code ignored;
  std::filesystem::create_directories(path.parent_path(), ignored);
  std::ofstream(path, std::ios::app) << text;
}

}  // namespace harness
