#include "harness/numeric/float_sum.hpp"

#include "harness/numeric/element_traits.hpp"
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

}  // namespace

template <class Out, bool Describe>
std::optional<std::string> judge_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth, bool positive_zero);

template <class Out>
FloatSumJudge<Out>::FloatSumJudge(std::uint64_t depth, bool positive_zero)
    : depth_(depth),
      positive_zero_(positive_zero),
      gamma_(static_cast<double>(gamma(static_cast<long double>(depth), std::ldexp(1.0L, -limits<Out>::digits)))) {}

template <class Out>
std::optional<std::string> FloatSumJudge<Out>::judge(const FloatSumFacts& facts, Out got) const {
  return judge_float_sum(facts, got, depth_, positive_zero_);
}

template <class Out>
bool FloatSumJudge<Out>::wrong(const FloatSumFacts& facts, Out got) const {
  return !accepts(facts, got) && judge_sum<Out, false>(facts, got, depth_, positive_zero_).has_value();
}

#define HARNESS_INSTANTIATE_FLOAT_SUM_JUDGE(Out) template class FloatSumJudge<Out>;
HARNESS_FOR_EACH_FLOAT(HARNESS_INSTANTIATE_FLOAT_SUM_JUDGE)
#undef HARNESS_INSTANTIATE_FLOAT_SUM_JUDGE

// The verdict, and with Describe the message: without, a wrong sum gives an empty string, so
// that an oracle can count wrong outputs without formatting each (FloatSumJudge::wrong).
template <class Out, bool Describe>
std::optional<std::string> judge_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth, bool positive_zero) {
  auto fail = [&](const std::string& expected) {
    return Describe ? "expected " + expected + ", got " + show_value(got) : std::string();
  };
  if (facts.has_nan || (facts.has_pos_inf && facts.has_neg_inf)) {
    return is_nan(got) ? std::nullopt : std::optional(fail("NaN (NaN or +inf and -inf among the terms)"));
  }
  if (facts.has_pos_inf || facts.has_neg_inf) {
    const Out inf = facts.has_pos_inf ? limits<Out>::infinity() : -limits<Out>::infinity();
    return same_value(got, inf) ? std::nullopt : std::optional(fail(show_value(inf)));
  }
  if (facts.all_zero) {
    const Out zero = from_double<Out>(facts.count > 0 && facts.all_negative_zero && !positive_zero ? -0.0 : 0.0);
    const char* why = positive_zero ? " (a sum of zeros; the variant declares +0.0)" : " (a sum of zeros)";
    return same_value(got, zero) ? std::nullopt : std::optional(fail(show_value(zero) + why));
  }
  const long double u = std::ldexp(1.0L, -limits<Out>::digits);
  const long double g = gamma(static_cast<long double>(depth), u);
  const long double bound = g * facts.abs_bound() + facts.reference_error();
  const bool may_overflow = facts.abs_bound() * (1 + g) >= static_cast<long double>(as_double(limits<Out>::max()));
  const bool mixed_signs = facts.has_positive && facts.has_negative;
  const bool finite = cuda::std::isfinite(got);
  if (may_overflow && is_nan(got) && mixed_signs) return std::nullopt;
  if (may_overflow && cuda::std::isinf(got) && (mixed_signs || (as_double(got) > 0) == facts.has_positive)) {
    return std::nullopt;
  }
  const long double error = std::fabs(static_cast<long double>(as_double(got)) - facts.exact());
  if (finite && error <= bound) return std::nullopt;
  if (!Describe) return std::string();
  std::ostringstream expected;
  expected << std::setprecision(std::numeric_limits<long double>::max_digits10) << facts.exact() << " +- "
           << std::setprecision(3) << bound << " (accumulation depth " << depth << ", sum|x| " << facts.abs_sum
           << (may_overflow ? ", may overflow" : "") << ")";
  if (finite) expected << "; off by " << error;
  return fail(expected.str());
}

template <class Out>
std::optional<std::string> judge_float_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth,
                                           bool positive_zero) {
  return judge_sum<Out, true>(facts, got, depth, positive_zero);
}

#define HARNESS_INSTANTIATE_JUDGE_FLOAT_SUM(Out) \
  template std::optional<std::string> judge_float_sum<Out>(const FloatSumFacts&, Out, std::uint64_t, bool);
HARNESS_FOR_EACH_FLOAT(HARNESS_INSTANTIATE_JUDGE_FLOAT_SUM)
#undef HARNESS_INSTANTIATE_JUDGE_FLOAT_SUM

}  // namespace harness
