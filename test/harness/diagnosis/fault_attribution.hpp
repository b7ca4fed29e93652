// A batch whose stream failed (an illegal or misaligned address, a failed launch): the fault
// kills the process's CUDA context, so every case of the batch reports the same error and the
// first case printed is rarely the one at fault. The culprit is found by rerunning the cases
// apart, in child processes of the build's kcheck: the smallest case first, by its own rerun line
// (kcheck <its arguments>); if it does not fail alone, the batch is halved, a half rerun as one
// batch (kcheck --batch), the half whose stream fails halved again, down to the one case whose
// own rerun line makes the stream fail. The report then holds that case
// alone, with a line saying how it was found. When no child reproduces the fault (it needs
// several cases together, or does not recur), the report says so and lists every case.
#pragma once

#include "harness/runner/batch_report.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace harness {

// What a case whose stream failed reports (followed by the error's name); a child's output is
// searched for it.
inline constexpr std::string_view kStreamFailed = "the batch's stream failed: ";

// The report of a batch of `cases` (in launch order) whose stream failed with `status`. In a
// child started by the attribution itself (KERNELS_ATTRIBUTING=1), for one case, or with
// attribution off, every case is reported as failed.
BatchReport attribute_stream_failure(const std::vector<Case>& cases, cudaError_t status);

// KERNELS_ATTRIBUTE_FAULTS: 1 (the default) attributes a stream failure as above; 0 reports every
// case of the batch, for a run that needs only the verdict (the generated-mutant runner,
// ci/mutation/run_mutants.py: a culprit that is not the batch's smallest case costs one child
// kcheck per halving, 14 to 16 of them and two to three minutes on a loaded machine). Parsed
// exactly: anything else throws std::invalid_argument naming the variable (nullptr is the
// default).
bool parse_attribute_faults(const char* text);
bool faults_attributed();  // from the environment, once per process

// The search over [0, count), a range known to fail: `fails(first, last)` reruns cases
// [first, last) apart and says whether they fail the same way. Case `first_guess` is rerun alone
// first (the batch's smallest: a broken kernel most often faults on its smallest input, and then
// one rerun answers instead of one per halving); if it does not fail alone, the range is halved
// down to one case. Gives the one case that fails alone, or nothing when neither half of a
// failing range fails alone; and how many times `fails` was called.
struct CulpritSearch {
  std::optional<std::size_t> culprit;
  std::size_t reruns = 0;
};
CulpritSearch find_culprit(std::size_t count, std::size_t first_guess,
                           const std::function<bool(std::size_t first, std::size_t last)>& fails);

}  // namespace harness
