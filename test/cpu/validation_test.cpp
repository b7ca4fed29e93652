// Every validation error of every family's API, on a machine without a GPU: a rejected call must
// throw ValidationError before its first CUDA call (with no device, any CUDA call would fail
// with CudaError instead), naming the variant, the parameter, the value and the limit. The
// tests of one variant are instantiated under its id, so ctest runs them as that variant's entry
// (cpu.validation.<id>, labelled with the variant).
#include "harness/gtest/variant_listing.hpp"
#include "harness/numeric/operator_laws.hpp"

#include <kernels/detail/validate.hpp>
#include <kernels/errors.hpp>
#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>
#include <kernels/scan.hpp>
#include <kernels/sort.hpp>

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

// Calls of one family with a run-time type key: the C++ types behind the key, fake pointers.
void reduce_call(const VariantInfo& info, kernels::TypeKey type, Op op, const void* in, std::uint64_t n, void* out,
                 int block_size) {
  kernels::visit_type(type, [&](auto in_value, auto out_value) {
    using In = decltype(in_value);
    using Out = decltype(out_value);
    kernels::reduce<In, Out>(info.name, op, static_cast<const In*>(in), n, static_cast<Out*>(out), {}, {block_size});
  });
}

void scan_call(const VariantInfo& info, kernels::TypeKey type, kernels::ScanKind kind, Op op, std::uint64_t n,
               int block_size) {
  kernels::visit_scan_type(type, [&](auto value, auto) {
    using T = decltype(value);
    kernels::scan<T>(info.name, kind, op, reinterpret_cast<const T*>(kFakeIn), n, reinterpret_cast<T*>(kFakeOut), {},
                     {block_size});
  });
}

void sort_call(const VariantInfo& info, kernels::TypeKey type, kernels::SortForm form, std::uint64_t n,
               int block_size) {
  kernels::visit_element_type(type, [&](auto value, auto) {
    using K = decltype(value);
    const auto* keys_in = reinterpret_cast<const K*>(kFakeIn);
    auto* keys_out = reinterpret_cast<K*>(kFakeOut);
    if (form == kernels::SortForm::pairs) {
      kernels::sort_pairs<K>(info.name, keys_in, keys_out, reinterpret_cast<const std::uint32_t*>(0x30000),
                             reinterpret_cast<std::uint32_t*>(0x40000), n, {}, {block_size});
    } else {
      kernels::sort_keys<K>(info.name, keys_in, keys_out, n, {}, {block_size});
    }
  });
}

// The first op the variant declares for the type; the sum for an undeclared type, which is
// rejected before the op.
Op first_op(const VariantInfo& info, kernels::TypeKey type) {
  const auto ops = info.ops(type);
  return ops.empty() ? Op::sum : ops.front();
}

// A call of the variant in the first mode it declares for the type.
void call(const VariantInfo& info, kernels::TypeKey type, std::uint64_t n, int block_size, const void* in = kFakeIn,
          void* out = kFakeOut) {
  switch (info.family) {
    case kernels::Family::reduce: reduce_call(info, type, first_op(info, type), in, n, out, block_size); break;
    case kernels::Family::scan: scan_call(info, type, info.kinds.front(), first_op(info, type), n, block_size); break;
    case kernels::Family::sort: sort_call(info, type, info.forms.front(), n, block_size); break;
  }
}

// Every variant of every family: its declared contract, and nothing else, is accepted.
class Validation : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& info() const { return *GetParam(); }
  kernels::TypeKey type() const { return info().types().front(); }
};

TEST_P(Validation, RejectsBlockSizesItDoesNotDeclare) {
  for (int block_size : {48, 2048, -32, 256, 3, info().block_sizes.smallest() / 2}) {
    if (info().block_sizes.accepts(block_size)) continue;
    expect_rejected([&] { call(info(), type(), 0, block_size); }, info(), {"block_size", std::to_string(block_size)});
  }
}

// With every block size: the limit and the step may depend on it.
TEST_P(Validation, RejectsLengthsOutsideItsRule) {
  for (int block_size : info().block_sizes.all()) {
    SCOPED_TRACE("block_size " + std::to_string(block_size));
    const std::uint64_t limit = info().max_length_with(block_size);
    ASSERT_LT(limit, std::numeric_limits<std::uint64_t>::max()) << "every variant declares a finite limit";
    expect_rejected([&] { call(info(), type(), limit + 1, block_size); }, info(), {"n", std::to_string(limit + 1)});
    const std::uint64_t step = info().length_step(block_size, type());
    if (step > 1) {
      expect_rejected([&] { call(info(), type(), step + 1, block_size); }, info(), {"n", std::to_string(step + 1)});
    }
  }
}

TEST_P(Validation, RejectsEveryUndeclaredTypeOpKindAndForm) {
  for (kernels::TypeKey undeclared : kernels::kAllTypeKeys) {
    if (info().supports(undeclared)) continue;
    if (!kernels::family_takes(info().family, undeclared)) continue;  // no such call
    expect_rejected([&] { call(info(), undeclared, 10, 0); }, info(), {"type", std::string(kernels::name(undeclared))});
  }
  for (kernels::TypeKey declared : info().types()) {
    for (Op op : kernels::all_ops()) {
      if (info().family == kernels::Family::sort || info().supports(declared, op)) continue;
      expect_rejected(
          [&] {
            if (info().family == kernels::Family::reduce) reduce_call(info(), declared, op, kFakeIn, 10, kFakeOut, 0);
            if (info().family == kernels::Family::scan) scan_call(info(), declared, info().kinds.front(), op, 10, 0);
          },
          info(), {"op", std::string(kernels::name(op))});
    }
    for (kernels::ScanKind kind : kernels::kAllScanKinds) {
      if (info().family != kernels::Family::scan || info().supports(kind)) continue;
      expect_rejected([&] { scan_call(info(), declared, kind, first_op(info(), declared), 10, 0); }, info(),
                      {"kind", std::string(kernels::name(kind))});
    }
    for (kernels::SortForm form : kernels::kAllSortForms) {
      if (info().family != kernels::Family::sort || info().supports(form)) continue;
      expect_rejected([&] { sort_call(info(), declared, form, 10, 0); }, info(),
                      {"form", std::string(kernels::name(form))});
    }
  }
}

// A variant that combines out of input order rejects every operator that is not commutative,
// and says why, whichever type it is asked for.
TEST_P(Validation, AVariantOutOfOperandOrderSaysWhyItRejectsAnOrderedOperator) {
  if (info().family == kernels::Family::sort) GTEST_SKIP() << "sorts take no operator";
  if (info().keeps_operand_order) GTEST_SKIP() << "keeps operand order: takes every operator its types take";
  for (Op op : kernels::all_ops()) {
    if (kernels::is_commutative(op)) continue;
    try {
      if (info().family == kernels::Family::reduce) reduce_call(info(), type(), op, kFakeIn, 10, kFakeOut, 0);
      if (info().family == kernels::Family::scan) scan_call(info(), type(), info().kinds.front(), op, 10, 0);
      ADD_FAILURE() << info().id() << " accepted " << kernels::name(op);
    } catch (const ValidationError& error) {
      EXPECT_EQ(error.parameter(), "op");
      EXPECT_EQ(error.value(), kernels::name(op));
      EXPECT_NE(error.limit().find("commutative operators only"), std::string::npos) << error.what();
    }
  }
}

// An operator a library registers for its variants: a broken law would make the oracle's left fold
// wrong for every input, so it is checked where the variants that take it are (operator_laws.hpp).
TEST_P(Validation, EveryRegisteredOperatorItTakesIsLawful) {
  bool any = false;
  for (kernels::TypeKey declared : info().types()) {
    for (Op op : info().ops(declared)) {
      if (kernels::is_builtin(op)) continue;  // the suite's: cpu.operators_test
      const harness::OperatorLaws laws = harness::check_operator_laws(op, declared);
      EXPECT_FALSE(laws.violation) << info().id() << ": " << *laws.violation;
      any = true;
    }
  }
  if (!any) GTEST_SKIP() << "takes the suite's operators only";
}

TEST_P(Validation, RejectsNullAndMisalignedPointersOfAReduction) {
  if (info().family != kernels::Family::reduce) GTEST_SKIP() << "scans' and sorts' pointers: their GPU tests";
  expect_rejected([&] { call(info(), type(), 100, 0, nullptr); }, info(), {"in", "nullptr"});
  expect_rejected([&] { call(info(), type(), 100, 0, kFakeIn, nullptr); }, info(), {"out", "nullptr"});
  expect_rejected([&] { call(info(), type(), 0, 0, kFakeIn, nullptr); }, info(), {"out", "nullptr"});
  const auto* misaligned = reinterpret_cast<const char*>(kFakeIn) + 2;
  try {
    call(info(), type(), 100, 0, misaligned);
    ADD_FAILURE() << "accepted a misaligned input";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.parameter(), "in");
    EXPECT_NE(error.limit().find("aligned"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Validation, testing::ValuesIn(kernels::all_variants()),
                         harness::variant_param_id);

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
  expect_rejected(
      [&] {
        kernels::detail::require_workspace(info, {kFakeOut, 100}, 101);
      },
      info, {"workspace.bytes", "100"});
  expect_rejected(
      [&] {
        kernels::detail::require_workspace(info, {nullptr, 4096}, 64);
      },
      info, {"workspace.data", "nullptr"});
  EXPECT_NO_THROW(kernels::detail::require_workspace(info, {nullptr, 0}, 0));
}

}  // namespace
