#include "harness/input/run_seed.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/settings/environment.hpp"

#include <cstdlib>
#include <random>
#include <stdexcept>

namespace harness {

std::uint64_t parse_run_seed(const std::string& text) {
  if (text == "random") {
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ device();
  }
  const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  try {
    if (digits_only) return std::stoull(text);
  } catch (const std::out_of_range&) {
  }
  throw std::invalid_argument("a seed must be a decimal number below 2^64 or 'random', not '" + text + "'");
}

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    const char* text = harness::suite_variable("KERNELS_SEED");
    return text ? parse_run_seed(text) : kDefaultRunSeed;
  }();
  return seed;
}

std::string describe_run_seed() {
  return "run seed " + std::to_string(run_seed()) + " (rerun with KERNELS_SEED=" + std::to_string(run_seed()) +
         "; KERNELS_SEED=random draws a fresh one)";
}

std::uint64_t case_seed(std::uint64_t seed, kernels::TypeKey type, Distribution distribution, std::uint64_t n) {
  return derive_seed(seed, static_cast<std::uint64_t>(type), static_cast<std::uint64_t>(distribution), n);
}

}  // namespace harness
