// Compact cases of every variant of one family (SANITIZE_FAMILY), for the compute-sanitizer
// runs (ctest -L sanitize): the tools slow kernels down by one or two orders of magnitude, so
// these cover each variant's code paths (the smallest, the preferred (as 0) and the largest
// block; a partial block, an odd length past two blocks, a multi-tile length, and for a vector
// path a partial second tile ending inside its last vector, aligned; a type of each
// element width (memcheck, initcheck) or of 4 and 8 bytes (racecheck, synccheck), and every
// widening key declared; every declared op, kind and form; in-place where declared) with
// lengths of at most 70001 values (a 64th of the limit for quadratic variants), through the
// same batch runner and oracles as the full tests. Launched by test/runtime/sanitize.sh, they run with
// device buffers of exactly n elements and no guard bands (memory/buffer_layout.hpp), so memcheck
// sees any access outside [0, n). Everything comes from the variant's record: nothing outside
// its contract is called.
#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/variant_test.hpp"
#include "harness/reduce/reduce_family.hpp"
#include "harness/runner/case.hpp"
#include "harness/scan/scan_family.hpp"
#include "harness/settings/environment.hpp"
#include "harness/sort/sort_family.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace {

using harness::Distribution;
using harness::TestInput;
using kernels::Family;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr Family kFamily = Family::SANITIZE_FAMILY;

template <TypeKey Type>
class Cases : public harness::VariantTest<Type> {
 public:
  using T = typename kernels::types_of<Type>::in;
  using Out = typename kernels::types_of<Type>::out;

  explicit Cases(const VariantInfo& variant) : variant_(variant) {}
  void TestBody() override {}

  void run() {
    for (int block_size : representative_block_sizes()) {
      const std::uint64_t block = variant_.block_sizes.chosen_by_variant_itself()
                                      ? 256
                                      : std::uint64_t(variant_.resolve_block_size(block_size));
      // The long case stays well below the limit of quadratic variants (odd-even across blocks,
      // the naive scan), whose work under racecheck grows with its square (a 16th of the
      // odd-even limit took over 300 s under racecheck on the H100).
      const std::uint64_t limit = variant_.max_length_with(block_size);
      const std::uint64_t long_case = std::min<std::uint64_t>(70001, limit / 64 + 1);
      // A length past the limit becomes the limit: a single-block variant's fullest tile is where
      // a shared array one element short is read past its end.
      std::vector<std::pair<std::uint64_t, unsigned>> lengths;  // n and the input's offset
      const auto add = [&](std::uint64_t wanted, std::optional<unsigned> offset) {
        const std::uint64_t n = variant_.accepted_length_at_most(std::min(wanted, limit), block_size, Type);
        const std::pair<std::uint64_t, unsigned> length{n, offset.value_or(unsigned(n % 4))};
        if (std::find(lengths.begin(), lengths.end(), length) == lengths.end()) lengths.push_back(length);
      };
      for (std::uint64_t wanted : {std::uint64_t(1), std::uint64_t(33), 2 * block + 1, long_case}) add(wanted, {});
      // A partial tile's vector path: aligned, ending inside the second tile's last vector.
      if (variant_.vector_values != nullptr) {
        const std::uint64_t tile = variant_.tile_size(variant_.resolve_block_size(block_size), Type);
        add(2 * tile - 1, 0u);
        add(2 * tile - (variant_.vector_values(Type) - 1), 0u);
      }
      for (const auto& [n, offset] : lengths) {
        const TestInput<T>& values = this->input(Distribution::random, n, offset);
        if constexpr (kFamily == Family::reduce) {
          for (kernels::Op op : variant_.ops(Type)) check<harness::ReduceBatch<T, Out>>(op, values, block_size, false);
        } else if constexpr (kFamily == Family::scan) {
          for (harness::ScanMode mode : harness::ScanFamily<T>::modes(variant_))
            check<harness::ScanBatch<T>>(mode, values, block_size, variant_.in_place);
        } else {
          for (kernels::SortForm form : variant_.forms) check<harness::SortBatch<T>>(form, values, block_size, false);
        }
      }
    }
  }

 private:
  template <class Batch, class Mode>
  void check(Mode mode, const TestInput<T>& values, int block_size, bool also_in_place) {
    Batch batch(variant_, mode);
    const std::size_t input = batch.add_input(values);
    batch.add_run(input, block_size);
    if (also_in_place) batch.add_run(input, block_size, true);
    // test/runtime/sanitize.sh names the case of the first report it sees from this line.
    std::printf("%s\n", harness::sanitize_case_line(batch.case_of(0)).c_str());
    std::fflush(stdout);
    EXPECT_TRUE(harness::all_passed(batch.run()));
  }

  std::vector<int> representative_block_sizes() const {
    std::vector<int> sizes{variant_.block_sizes.smallest(), 0, variant_.block_sizes.largest()};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
  }

  const VariantInfo& variant_;
};

// Whether the tool running these cases (test/runtime/sanitize.sh says which) checks accesses, whose
// errors depend on the element width, rather than races and barriers, which depend on the code
// path: the same for every width here (a 1- or 2-byte type takes the 4-byte types' tiling).
bool checks_accesses() {
  const char* tool = harness::suite_variable("KERNELS_SANITIZER_TOOL");
  return tool == nullptr || std::string_view(tool) == "memcheck" || std::string_view(tool) == "initcheck";
}

// Which of the widths an entry sanitizes (KERNELS_SANITIZE_WIDTHS, set by test/sanitize/CMakeLists.txt
// where a variant's cases are cut in two entries): "narrow" the types of at most 4 bytes,
// "wide" the 8-byte ones; unset, all.
bool width_wanted(std::size_t width) {
  const char* widths = harness::suite_variable("KERNELS_SANITIZE_WIDTHS");
  if (widths == nullptr) return true;
  if (std::string_view(widths) == "narrow") return width <= 4;
  if (std::string_view(widths) == "wide") return width == 8;
  throw std::invalid_argument("KERNELS_SANITIZE_WIDTHS: '" + std::string(widths) + "' is neither narrow nor wide");
}

// The types a variant is sanitized with: for memcheck and initcheck one it declares of each
// element width (byte and 16-bit loads, 16-byte vectors, 8-byte words), for racecheck and
// synccheck one of 4 and one of 8 bytes (or its narrowest if it declares neither); the first of
// each width in the order below; and every widening key it declares; those of the wanted widths.
std::vector<TypeKey> sanitized_types(const VariantInfo& variant) {
  constexpr TypeKey kPreferred[] = {TypeKey::int32,   TypeKey::uint32,   TypeKey::float32, TypeKey::float64,
                                    TypeKey::int64,   TypeKey::uint64,   TypeKey::uint8,   TypeKey::int8,
                                    TypeKey::float16, TypeKey::bfloat16, TypeKey::int16,   TypeKey::uint16};
  std::vector<TypeKey> chosen;
  std::vector<std::size_t> widths;
  for (TypeKey type : kPreferred) {
    const std::size_t width = kernels::visit_type(type, [](auto in, auto) { return sizeof(in); });
    if (!variant.supports(type) || std::find(widths.begin(), widths.end(), width) != widths.end()) continue;
    if (!checks_accesses() && width < 4 && !widths.empty()) continue;
    chosen.push_back(type);
    widths.push_back(width);
  }
  for (TypeKey type : kernels::kAllTypeKeys) {
    if (kernels::is_widening(type) && variant.supports(type)) chosen.push_back(type);
  }
  std::erase_if(chosen, [](TypeKey type) {
    return !width_wanted(kernels::visit_type(type, [](auto in, auto) { return sizeof(in); }));
  });
  return chosen;
}

template <std::size_t... I>
void run_type(const VariantInfo& variant, TypeKey type, std::index_sequence<I...>) {
  const auto run_if = [&](auto index) {
    constexpr TypeKey key = kernels::kAllTypeKeys[decltype(index)::value];
    if constexpr (kernels::family_takes(kFamily, key)) {
      if (key == type) Cases<key>(variant).run();
    }
  };
  (run_if(std::integral_constant<std::size_t, I>{}), ...);
}

class Sanitize : public testing::TestWithParam<const VariantInfo*> {};

TEST_P(Sanitize, RepresentativeCasesOfItsDeclaredTypes) {
  const std::vector<TypeKey> types = sanitized_types(*GetParam());
  if (types.empty()) {  // only where an entry takes some widths: every variant declares a type
    GTEST_SKIP() << harness::kContractSkip << GetParam()->id() << " declares no type of the widths this entry takes";
  }
  for (TypeKey type : types) {
    SCOPED_TRACE(std::string(kernels::name(type)));
    run_type(*GetParam(), type, std::make_index_sequence<kernels::kAllTypeKeys.size()>{});
  }
}

INSTANTIATE_TEST_SUITE_P(sanitize, Sanitize, testing::ValuesIn(kernels::variants_of(kFamily)),
                         harness::variant_param_name);

}  // namespace
