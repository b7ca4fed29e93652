// Every validation error of the reduction API, on a machine without a GPU: a rejected call must
// throw ValidationError before its first CUDA call (with no device, any CUDA call would fail
// with CudaError instead), naming the variant, the parameter, the value and the limit.
#include <kernels/detail/validate.hpp>
#include <kernels/errors.hpp>
#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

namespace {

using kernels::Op;
using kernels::ValidationError;
using kernels::VariantInfo;

// Never dereferenced: validation fails before anything touches them.
int* const kFakeIn = reinterpret_cast<int*>(0x10000);
int* const kFakeOut = reinterpret_cast<int*>(0x20000);

struct Expected {
  std::string parameter;
  std::string value;
};

void expect_rejected(const std::function<void()>& call, const VariantInfo& info, const Expected& expected) {
  try {
    call();
    ADD_FAILURE() << info.id() << ": accepted a call with a bad " << expected.parameter;
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.variant(), info.id());
    EXPECT_EQ(error.parameter(), expected.parameter);
    EXPECT_EQ(error.value(), expected.value);
    EXPECT_FALSE(error.limit().empty());
    const std::string message = error.what();
    for (const std::string& part : {info.id(), expected.parameter, expected.value, error.limit()}) {
      EXPECT_NE(message.find(part), std::string::npos) << "message '" << message << "' lacks '" << part << "'";
    }
  } catch (const std::exception& other) {
    ADD_FAILURE() << info.id() << ": expected ValidationError for " << expected.parameter << ", got " << other.what();
  }
}

class ReduceValidation : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& info() const { return *GetParam(); }
  std::string name() const { return std::string(info().name); }
  void reduce(const int* in, std::uint64_t n, int* out, int block_size) const {
    kernels::reduce<int, int>(info().name, Op::sum, in, n, out, {}, {block_size});
  }
};

TEST_P(ReduceValidation, RejectsBlockSizesItDoesNotSupport) {
  std::vector<int> bad{48, 2048, -32};
  if (info().block_sizes.chosen_by_variant()) bad.push_back(256);
  if (info().block_sizes.min > 1) bad.push_back(info().block_sizes.min / 2);
  for (int block_size : bad) {
    expect_rejected([&] { reduce(kFakeIn, 100, kFakeOut, block_size); }, info(),
                    {"block_size", std::to_string(block_size)});
    expect_rejected([&] { kernels::reduce_workspace_bytes<int, int>(info().name, Op::sum, 100, {block_size}); },
                    info(), {"block_size", std::to_string(block_size)});
  }
}

TEST_P(ReduceValidation, RejectsLengthsAboveItsLimit) {
  const int block_size = info().resolve_block_size(0);
  const std::uint64_t limit = info().max_length(block_size);
  ASSERT_LT(limit, std::numeric_limits<std::uint64_t>::max()) << "every variant declares a finite limit";
  expect_rejected([&] { reduce(kFakeIn, limit + 1, kFakeOut, 0); }, info(), {"n", std::to_string(limit + 1)});
}

TEST_P(ReduceValidation, RejectsNullAndMisalignedPointers) {
  expect_rejected([&] { reduce(nullptr, 100, kFakeOut, 0); }, info(), {"in", "nullptr"});
  expect_rejected([&] { reduce(kFakeIn, 100, nullptr, 0); }, info(), {"out", "nullptr"});
  expect_rejected([&] { reduce(kFakeIn, 0, nullptr, 0); }, info(), {"out", "nullptr"});
  const auto* misaligned = reinterpret_cast<const int*>(reinterpret_cast<char*>(kFakeIn) + 2);
  try {
    reduce(misaligned, 100, kFakeOut, 0);
    ADD_FAILURE() << "accepted a misaligned input";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.parameter(), "in");
    EXPECT_NE(error.limit().find("aligned"), std::string::npos);
  }
}

TEST_P(ReduceValidation, RejectsOpsTheWideningTypeLacks) {
  for (Op op : {Op::max, Op::min}) {
    expect_rejected(
        [&] {
          kernels::reduce<int, long long>(info().name, op, kFakeIn, 100, reinterpret_cast<long long*>(kFakeOut), {});
        },
        info(), {"op", std::string(kernels::name(op))});
  }
}

std::string param_name(const testing::TestParamInfo<const VariantInfo*>& param) {
  return std::string(param.param->name);
}

INSTANTIATE_TEST_SUITE_P(AllReduceVariants, ReduceValidation,
                         testing::ValuesIn(kernels::variants_of(kernels::Family::reduce)), param_name);

TEST(Validation, RejectsUnknownVariants) {
  try {
    kernels::reduce<int, int>("harris9_imaginary", Op::sum, kFakeIn, 10, kFakeOut, {});
    ADD_FAILURE() << "accepted an unknown variant";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.parameter(), "variant");
    EXPECT_EQ(error.value(), "harris9_imaginary");
    EXPECT_NE(error.limit().find("harris3_sequential"), std::string::npos) << "the message lists the known variants";
  }
}

TEST(Validation, RejectsAWorkspaceSmallerThanItsQuery) {
  const VariantInfo& info = *kernels::variants_of(kernels::Family::reduce).front();
  expect_rejected([&] { kernels::detail::require_workspace(info, {kFakeOut, 100}, 101); }, info,
                  {"workspace.bytes", "100"});
  expect_rejected([&] { kernels::detail::require_workspace(info, {nullptr, 4096}, 64); }, info,
                  {"workspace.data", "nullptr"});
  EXPECT_NO_THROW(kernels::detail::require_workspace(info, {nullptr, 0}, 0));
}

}  // namespace
