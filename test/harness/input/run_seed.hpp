// The run seed every generated input derives from. Fixed by default so that CI is
// reproducible; KERNELS_SEED=<number> picks another, KERNELS_SEED=random draws a fresh one (the
// nightly mode). Printed once per process; every failure prints the per-case seed derived
// from it, which kcheck takes directly.
#pragma once

#include "harness/input/distributions.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <string>

namespace harness {

inline constexpr std::uint64_t kDefaultRunSeed = 20261122;

// Parses a KERNELS_SEED value; "random" draws from std::random_device. Throws
// std::invalid_argument for anything else that is not a decimal number.
std::uint64_t parse_run_seed(const std::string& text);

// KERNELS_SEED from the environment, or the default; computed once per process.
std::uint64_t run_seed();

// "run seed 20261122 (KERNELS_SEED=...)": the line a test process prints once.
std::string describe_run_seed();

// The seed of a case's input, derived from a run seed: independent of the family, the variant
// and the block size, so every variant of a run sees the same inputs.
std::uint64_t case_seed(std::uint64_t run_seed, kernels::TypeKey type, Distribution distribution, std::uint64_t n);

}  // namespace harness
