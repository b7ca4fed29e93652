#include "planted_slowdown.hpp"

#include <harness/settings/environment.hpp>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

namespace bench {
namespace {

constexpr const char* kVariable = "KERNELS_BENCH_SLOWDOWN";

struct Plant {
  std::regex rows;
  double fraction = 0;
};

[[noreturn]] void malformed(const std::string& value, const std::string& why) {
  throw std::invalid_argument(std::string(kVariable) + "='" + value + "' is malformed (" + why +
                              "); expected <row regex>=<fraction>, e.g. " + kVariable + "='^scan/naive/=0.10'");
}

// Unset or empty: nothing planted. The regex is what precedes the last '=', so it may hold '='.
std::optional<Plant> parse(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string value = text;
  const std::size_t equals = value.rfind('=');
  if (equals == std::string::npos || equals == 0) malformed(value, "no row regex before an '='");
  const std::string fraction_text = value.substr(equals + 1);
  char* end = nullptr;
  const double fraction = std::strtod(fraction_text.c_str(), &end);
  if (fraction_text.empty() || *end != '\0' || !std::isfinite(fraction) || fraction <= 0) {
    malformed(value, "the fraction is not a finite number above 0");
  }
  try {
    return Plant{std::regex(value.substr(0, equals)), fraction};
  } catch (const std::regex_error& error) {
    malformed(value, std::string("the row regex does not compile: ") + error.what());
  }
}

// Parsed on first use; a malformed value throws on every use, so no row runs with it.
const std::optional<Plant>& plant() {
  static const std::optional<Plant> parsed = parse(harness::suite_variable(kVariable));
  return parsed;
}

}  // namespace

void check_planted_slowdown() { (void)plant(); }

std::optional<double> planted_fraction(const std::string& row) {
  const std::optional<Plant>& planted = plant();
  if (!planted || !std::regex_search(row, planted->rows)) return std::nullopt;
  return planted->fraction;
}

}  // namespace bench
