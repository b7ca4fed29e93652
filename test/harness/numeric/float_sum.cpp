#include "harness/numeric/float_sum.hpp"

#include "harness/reduce/reduce_oracle.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace harness {
namespace {

long double gamma(long double depth, long double unit_roundoff) {
  const long double du = depth * unit_roundoff;
  return du >= 1 ? std::numeric_limits<long double>::infinity() : du / (1 - du);
}

template <class T>
bool same_bits(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);  // any NaN payload
  return std::signbit(a) == std::signbit(b) && a == b;
}

}  // namespace

template <class Out, bool Describe>
std::optional<std::string> judge_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth);

template <class Out>
FloatSumJudge<Out>::FloatSumJudge(std::uint64_t depth)
    : depth_(depth),
      gamma_(static_cast<double>(
          gamma(static_cast<long double>(depth), std::ldexp(1.0L, -std::numeric_limits<Out>::digits)))),
      overflow_(static_cast<double>(std::numeric_limits<Out>::max())) {}

template <class Out>
std::optional<std::string> FloatSumJudge<Out>::judge(const FloatSumFacts& facts, Out got) const {
  return judge_float_sum(facts, got, depth_);
}

template <class Out>
bool FloatSumJudge<Out>::wrong(const FloatSumFacts& facts, Out got) const {
  return !accepts(facts, got) && judge_sum<Out, false>(facts, got, depth_).has_value();
}

template class FloatSumJudge<float>;
template class FloatSumJudge<double>;

// The verdict, and with Describe the message: without, a wrong sum gives an empty string, so
// that an oracle can count wrong outputs without formatting each (FloatSumJudge::wrong).
template <class Out, bool Describe>
std::optional<std::string> judge_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth) {
  auto fail = [&](const std::string& expected) {
    return Describe ? "expected " + expected + ", got " + show_value(got) : std::string();
  };
  if (facts.has_nan || (facts.has_pos_inf && facts.has_neg_inf)) {
    return std::isnan(got) ? std::nullopt : std::optional(fail("NaN (NaN or +inf and -inf among the terms)"));
  }
  if (facts.has_pos_inf || facts.has_neg_inf) {
    const Out inf = facts.has_pos_inf ? std::numeric_limits<Out>::infinity() : -std::numeric_limits<Out>::infinity();
    return same_bits(got, inf) ? std::nullopt : std::optional(fail(show_value(inf)));
  }
  if (facts.all_zero) {
    const Out zero = facts.count > 0 && facts.all_negative_zero ? -Out(0) : Out(0);
    return same_bits(got, zero) ? std::nullopt : std::optional(fail(show_value(zero) + " (a sum of zeros)"));
  }
  const long double u = std::ldexp(1.0L, -std::numeric_limits<Out>::digits);
  const long double g = gamma(static_cast<long double>(depth), u);
  const long double bound = g * facts.abs_bound() + facts.reference_error();
  const bool may_overflow = facts.abs_bound() * (1 + g) >= static_cast<long double>(std::numeric_limits<Out>::max());
  const bool mixed_signs = facts.has_positive && facts.has_negative;
  if (may_overflow && std::isnan(got) && mixed_signs) return std::nullopt;
  if (may_overflow && std::isinf(got) && (mixed_signs || (got > 0) == facts.has_positive)) return std::nullopt;
  const long double error = std::fabs(static_cast<long double>(got) - facts.exact());
  if (std::isfinite(got) && error <= bound) return std::nullopt;
  if (!Describe) return std::string();
  std::ostringstream expected;
  expected << std::setprecision(std::numeric_limits<long double>::max_digits10) << facts.exact() << " +- "
           << std::setprecision(3) << bound << " (accumulation depth " << depth << ", sum|x| " << facts.abs_sum
           << (may_overflow ? ", may overflow" : "") << ")";
  if (std::isfinite(got)) expected << "; off by " << error;
  return fail(expected.str());
}

template <class Out>
std::optional<std::string> judge_float_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth) {
  return judge_sum<Out, true>(facts, got, depth);
}

template std::optional<std::string> judge_float_sum<float>(const FloatSumFacts&, float, std::uint64_t);
template std::optional<std::string> judge_float_sum<double>(const FloatSumFacts&, double, std::uint64_t);

}  // namespace harness
