// kcheck: run exactly one case of one variant against the oracle, or list the registry.
//
//   kcheck --list
//   kcheck reduce/<variant> [--op sum] [--type int] [--block 0] [--n 1000] [--dist random]
//                           [--seed S] [--offset 0]
//   kcheck scan/<variant>   [--kind inclusive] [--in-place] and the same common options
//   kcheck sort/<variant>   [--form keys] and the same common options
//
// Every failing test prints the kcheck line that reruns its case: same input (regenerated
// from the seed), same guard bands, same alignment, same oracle. Without --seed, the seed is
// derived from the run seed (KCHECK_SEED or its default) exactly as the tests derive it.
// Exit status: 0 pass, 1 fail, 2 usage error or no GPU.
#include "harness/gpu_session.hpp"
#include "harness/reduce_case.hpp"
#include "harness/reduce_runner.hpp"
#include "harness/run_seed.hpp"
#include "harness/scan_case.hpp"
#include "harness/scan_runner.hpp"
#include "harness/sort_case.hpp"
#include "harness/sort_runner.hpp"

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace {

using kernels::VariantInfo;

constexpr int kPass = 0, kFail = 1, kUsage = 2;

int usage(const std::string& problem) {
  std::cerr << "kcheck: " << problem << "\n"
            << "usage: kcheck --list\n"
            << "       kcheck reduce/<variant> [--op sum|max|min] [common options]\n"
            << "       kcheck scan/<variant>   [--kind inclusive|exclusive] [--in-place] [common options]\n"
            << "       kcheck sort/<variant>   [--form keys|pairs] [common options]\n"
            << "common options: [--type int|unsigned|longlong|float|double|int_to_longlong] [--block B] [--n N]\n"
            << "                [--dist D] [--seed S] [--offset K]\n";
  return kUsage;
}

template <class T>
std::string join(const std::vector<T>& values) {
  std::ostringstream text;
  const char* separator = "";
  for (const T& value : values) {
    text << separator << kernels::name(value);
    separator = ",";
  }
  return text.str();
}

int list_registry() {
  std::cout << std::left << std::setw(44) << "variant" << std::setw(12) << "blocks" << std::setw(22)
            << "max n (preferred)" << std::setw(6) << "det." << "description\n";
  for (const VariantInfo* info : kernels::all_variants()) {
    const kernels::BlockSizes& sizes = info->block_sizes;
    const std::string blocks = sizes.chosen_by_variant()
                                   ? std::string("own")
                                   : std::to_string(sizes.min) + ".." + std::to_string(sizes.max);
    std::cout << std::setw(44) << info->id() << std::setw(12) << blocks << std::setw(22)
              << info->max_length(info->resolve_block_size(0)) << std::setw(6) << (info->deterministic ? "yes" : "no")
              << info->description << "\n"
              << std::setw(44) << "" << "types " << join(info->types);
    if (!info->ops.empty()) std::cout << "; ops " << join(info->ops);
    if (info->in_place) std::cout << "; in-place";
    if (info->sorts_pairs) std::cout << "; key-value form";
    if (info->stable) std::cout << "; stable";
    std::cout << "\n";
  }
  return kPass;
}

int print(const harness::BatchReport& report) {
  for (const std::string& line : report.passes) std::cout << line << "\n";
  for (const std::string& line : report.failures) std::cout << line << "\n";
  return report.failures.empty() ? kPass : kFail;
}

template <class In, class Out>
int run_reduce_case(const VariantInfo& info, const harness::ReduceCase& c) {
  const auto input = harness::make_test_input<In>(c.distribution, c.n, c.seed, c.offset);
  harness::ReduceBatch<In, Out> batch(info, c.op);
  batch.add_run(batch.add_input(input), c.block_size);
  return print(batch.run(true));
}

template <class T>
int run_scan_case(const VariantInfo& info, const harness::ScanCase& c) {
  const auto input = harness::make_test_input<T>(c.distribution, c.n, c.seed, c.offset);
  harness::ScanBatch<T> batch(info, c.kind);
  batch.add_run(batch.add_input(input), c.block_size, c.in_place);
  return print(batch.run(true));
}

template <class K>
int run_sort_case(const VariantInfo& info, const harness::SortCase& c) {
  const auto input = harness::make_test_input<K>(c.distribution, c.n, c.seed, c.offset);
  harness::SortBatch<K> batch(info, c.form);
  batch.add_run(batch.add_input(input), c.block_size);
  return print(batch.run(true));
}

// What every family's case has in common.
struct CommonOptions {
  kernels::TypeKey type = kernels::TypeKey::int32;
  int block_size = 0;
  std::uint64_t n = 0;
  harness::Distribution distribution = harness::Distribution::random;
  std::uint64_t seed = 0;
  unsigned offset = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--list") return list_registry();
  if (args.empty() || args[0].rfind("--", 0) == 0) return usage("name a variant, or --list");

  const VariantInfo* info = kernels::find_variant(args[0]);
  if (info == nullptr) return usage("no variant '" + args[0] + "' (kcheck --list shows them)");

  std::map<std::string, std::string> options{{"--op", "sum"},   {"--kind", "inclusive"}, {"--form", "keys"}, {"--type", "int"},
                                             {"--block", "0"},  {"--n", "1000"},         {"--dist", "random"},
                                             {"--offset", "0"}};
  std::optional<std::string> seed_text;
  bool in_place = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--in-place") {
      in_place = true;
      continue;
    }
    if (i + 1 >= args.size()) return usage("option " + args[i] + " needs a value");
    if (args[i] == "--seed") {
      seed_text = args[i + 1];
    } else if (options.count(args[i])) {
      options[args[i]] = args[i + 1];
    } else {
      return usage("unknown option " + args[i]);
    }
    ++i;
  }

  CommonOptions common;
  const auto type = kernels::parse_type(options["--type"]);
  const auto distribution = harness::parse_distribution(options["--dist"]);
  if (!type) return usage("unknown type " + options["--type"]);
  if (!distribution) return usage("unknown distribution " + options["--dist"]);
  if (!harness::applies_to(*distribution, *type)) {
    return usage("distribution " + options["--dist"] + " does not apply to " + options["--type"]);
  }
  try {
    common.type = *type;
    common.distribution = *distribution;
    common.block_size = std::stoi(options["--block"]);
    common.n = std::stoull(options["--n"]);
    common.offset = static_cast<unsigned>(std::stoul(options["--offset"]));
    common.seed = seed_text ? harness::parse_run_seed(*seed_text)
                            : harness::case_seed(harness::run_seed(), common.type, common.distribution, common.n);
  } catch (const std::exception& error) {
    return usage(std::string("bad number: ") + error.what());
  }

  const harness::GpuProbe gpu = harness::probe_gpu();
  if (!gpu.available) {
    std::cerr << "kcheck: no usable CUDA device (" << gpu.description << ")\n";
    return kUsage;
  }
  std::cout << "device: " << gpu.description << "\n";
  try {
    if (info->family == kernels::Family::reduce) {
      const auto op = kernels::parse_op(options["--op"]);
      if (!op) return usage("unknown op " + options["--op"]);
      const harness::ReduceCase c{std::string(info->name), common.type, *op, common.block_size, common.n,
                                  common.distribution, common.seed, common.offset};
      std::cout << "case:   " << harness::describe(c) << "\n";
      return kernels::visit_type(c.type, [&](auto in, auto out) {
        return run_reduce_case<decltype(in), decltype(out)>(*info, c);
      });
    }
    if (kernels::is_widening(common.type)) return usage("only reductions have the widening type");
    if (info->family == kernels::Family::sort) {
      const auto form = kernels::parse_sort_form(options["--form"]);
      if (!form) return usage("unknown sort form " + options["--form"]);
      const harness::SortCase c{std::string(info->name), common.type, *form, common.block_size, common.n,
                                common.distribution, common.seed, common.offset};
      std::cout << "case:   " << harness::describe(c) << "\n";
      return kernels::visit_type(c.type, [&](auto key, auto) { return run_sort_case<decltype(key)>(*info, c); });
    }
    const auto kind = kernels::parse_scan_kind(options["--kind"]);
    if (!kind) return usage("unknown scan kind " + options["--kind"]);
    const harness::ScanCase c{std::string(info->name), common.type, *kind, common.block_size, common.n,
                              common.distribution, common.seed, common.offset, in_place};
    std::cout << "case:   " << harness::describe(c) << "\n";
    return kernels::visit_type(c.type, [&](auto value, auto) { return run_scan_case<decltype(value)>(*info, c); });
  } catch (const kernels::ValidationError& error) {
    std::cout << "REJECTED " << error.what() << "\n";
    return kFail;
  }
}
