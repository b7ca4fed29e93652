// Cases of the `large` distribution: 2^28 to 2^32 + 2^20 + 3 ints (a sort's keys: ints or floats),
// too many to generate, upload and check on the host, so each family writes the input and judges
// the output on the device
// (harness/{reduce,scan,sort}/large_*). Such a case runs alone, once, at offset 0: it is the
// whole of its batch, and it is rerun by the same kcheck line as any other case
// (`--dist large --seed S`). What every family's large run shares is here.
#pragma once

#include "harness/runner/batch_report.hpp"

#include <kernels/registry.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace harness {

// The lengths of the large tests: 2^28, then past a signed and past an unsigned 32-bit index (an
// index or offset computed in 32 bits wraps only there; 2^20 + 3 more, so that the last tiles are
// ragged).
inline constexpr std::uint64_t kLargeTwoToThe28 = std::uint64_t(1) << 28;
inline constexpr std::uint64_t kLargePastInt32 = (std::uint64_t(1) << 31) + (1u << 20) + 3;
inline constexpr std::uint64_t kLargePastUint32 = (std::uint64_t(1) << 32) + (1u << 20) + 3;

// The case of `variant` with a large input of n elements of `type`, at its preferred block size,
// with the seed derived from the run seed (as kcheck derives it without --seed); the caller sets
// the op, kind or form.
Case large_case(const kernels::VariantInfo& variant, kernels::TypeKey type, std::uint64_t n);

// Why a large case that holds `bytes` of device memory cannot run here (the free memory, less
// what the process keeps for its context and the kernels' own allocations), or nothing.
std::optional<std::string> lacks_device_memory(std::size_t bytes);

// What a family's large run found wrong with its case.
struct LargeProblem {
  FailureKind kind;
  std::string what;
};

// The report of one large case: `run` launches it and returns its problems (none: it passed).
// A call or stream error it throws is a launch error; a run that has not returned after
// KERNELS_HANG_TIMEOUT_S (the whole deadline: its length is past the scale of a batch run's
// allowance) ends the process, as a batch's watchdog does (diagnosis/hang_watchdog.hpp).
BatchReport large_case_report(const Case& c, const std::function<std::vector<LargeProblem>()>& run);

// One family's large runs: the device memory a case holds, and its report.
struct LargeRunner {
  std::size_t (*device_bytes)(const kernels::VariantInfo& variant, const Case& c);
  BatchReport (*run)(const kernels::VariantInfo& variant, const Case& c);
};

}  // namespace harness
