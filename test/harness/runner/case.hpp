// One test case of any family: everything that reruns it, as one record. Failure lines print
// it (describe), rerun lines and kcheck read and write it (to_args / kcheck/case_args.hpp), so the
// line a failure prints is exactly what kcheck parses back.
#pragma once

#include "harness/input/distributions.hpp"

#include <kernels/registry.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace harness {

struct Case {
  kernels::Family family = kernels::Family::reduce;
  std::string variant;  // name within the family
  kernels::TypeKey type = kernels::TypeKey::int32;
  kernels::Op op = kernels::Op::sum;                      // reductions and scans
  kernels::ScanKind kind = kernels::ScanKind::inclusive;  // scans
  bool in_place = false;                                  // scans: out == in
  kernels::SortForm form = kernels::SortForm::keys;       // sorts
  int block_size = 0;                                     // as requested: 0 is the variant's preferred size
  std::uint64_t n = 0;
  Distribution distribution = Distribution::random;
  std::uint64_t seed = 0;  // the input is generate(distribution, n, seed), or for `large` large/large_case.hpp's
  unsigned offset = 0;     // elements between a 16-byte boundary and the input's first element
  // Runs of the case in one batch: a failure that depends on timing (a race, a cross-block
  // protocol) is rerun this many times, and a deterministic variant must repeat its bits.
  unsigned repeat = 1;
  // How the batch that holds the case is run, as the test that found it ran it: captured into one
  // CUDA graph and replayed (--graph), and beside scheduling noise, a kernel on a second stream
  // whose blocks spin up to `noise` microseconds before each run (--noise; 0 is none).
  bool graph = false;
  unsigned noise = 0;
  // With noise: the seed of the noise before the case's run, as it ran (--noise-seed; 0 derives one), so that its
  // rerun meets the same noise.
  std::uint64_t noise_seed = 0;
  // Called after the batch's earlier runs, one after another on one stream through one workspace that
  // keeps what they left (--chained): a caller's reuse of a variant's workspace.
  bool chained = false;

  bool operator==(const Case&) const = default;
  std::string id() const;  // "family/variant"
};

// The largest --offset: inputs start at most this many elements past a 16-byte boundary.
inline constexpr unsigned kMaxOffset = 15;
// The largest --repeat.
inline constexpr unsigned kMaxRepeat = 1000;
// The largest --noise, in microseconds.
inline constexpr unsigned kMaxNoise = 10000;

// "reduce/harris3_sequential op=sum type=int block=256 n=1025 dist=random seed=7 offset=1"
std::string describe(const Case& c);

// The kcheck arguments that rerun exactly this case: {"reduce/harris3_sequential", "--op", "sum", ...}.
std::vector<std::string> to_args(const Case& c);

// "kcheck " and the arguments, separated by single spaces (no argument needs quoting).
std::string kcheck_line(const Case& c);
// "kcheck" and, for a variant of a loaded library, --variants-library and that library: how a printed rerun line
// starts, so that it runs as printed (kcheck_line stays the plain form a --batch file holds).
std::string kcheck_command(const Case& c);
std::string printed_rerun_line(const Case& c);  // kcheck_command(c) and the case's options
// "sanitize case: " and the printed rerun line: what test/runtime/sanitize.sh names a report's case from.
std::string sanitize_case_line(const Case& c);

// The rerun lines of cases, one a line: a file of them is what kcheck --batch runs, in order.
std::string batch_lines(std::span<const Case> cases);

// Why the variant's contract does not cover the case (the parameter and the rule), or nothing.
// Every case the harness builds must pass this; only rejected-call tests go outside it.
struct ContractBreach {
  std::string parameter;  // "type", "op", "kind", "form", "in_place", "block_size", "n"
  std::string rule;
};
std::optional<ContractBreach> outside_contract(const kernels::VariantInfo& variant, const Case& c);

// Why a `large` case (large/large_case.hpp) cannot run as given, or nothing: it runs once, alone,
// at offset 0, as a plain call with an output of its own; its input is ints (int or int into long
// long, a sum), or a sort's int or float keys; its op sum, max, min or last_nonzero; a sort's pairs need a stable
// variant (their check demands the input order of equal keys) and number at most 2^32 (each value is its key's 32-bit
// index).
inline constexpr std::uint64_t kMaxLargePairs = std::uint64_t(1) << 32;
// The ops whose large results the device judges exactly: a scan's every step, a reduction's value.
inline constexpr bool is_large_op(kernels::Op op) {
  return op == kernels::Op::sum || op == kernels::Op::max || op == kernels::Op::min || op == kernels::Op::last_nonzero;
}
std::optional<ContractBreach> large_case_breach(const kernels::VariantInfo& variant, const Case& c);

}  // namespace harness
