// kcheck: run exactly one case of one variant against the oracle, or list the registry.
//
//   kcheck --list
//   kcheck reduce/<variant> [--op sum] [--type int] [--block 0] [--n 1000] [--dist random]
//                           [--seed S] [--offset 0]
//
// Every failing test prints the kcheck line that reruns its case: same input (regenerated
// from the seed), same guard bands, same alignment, same oracle. Without --seed, the seed is
// derived from the run seed (KCHECK_SEED or its default) exactly as the tests derive it.
// Exit status: 0 pass, 1 fail, 2 usage error or no GPU.
#include "harness/gpu_session.hpp"
#include "harness/reduce_case.hpp"
#include "harness/reduce_runner.hpp"
#include "harness/run_seed.hpp"

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
            << "       kcheck reduce/<variant> [--op sum|max|min] [--type int|unsigned|longlong|float|double|"
               "int_to_longlong]\n"
            << "                               [--block B] [--n N] [--dist D] [--seed S] [--offset K]\n";
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
              << std::setw(44) << "" << "types " << join(info->types) << "; ops " << join(info->ops) << "\n";
  }
  return kPass;
}

template <class In, class Out>
int run_reduce_case(const VariantInfo& info, const harness::ReduceCase& c) {
  const auto input = harness::make_test_input<In>(c.distribution, c.n, c.seed, c.offset);
  harness::ReduceBatch<In, Out> batch(info, c.op);
  batch.add_run(batch.add_input(input), c.block_size);
  const harness::BatchReport report = batch.run(true);
  for (const std::string& line : report.passes) std::cout << line << "\n";
  for (const std::string& line : report.failures) std::cout << line << "\n";
  return report.failures.empty() ? kPass : kFail;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--list") return list_registry();
  if (args.empty() || args[0].rfind("--", 0) == 0) return usage("name a variant, or --list");

  const VariantInfo* info = kernels::find_variant(args[0]);
  if (info == nullptr) return usage("no variant '" + args[0] + "' (kcheck --list shows them)");
  if (info->family != kernels::Family::reduce) return usage(info->id() + ": kcheck runs reductions only so far");

  std::map<std::string, std::string> options{{"--op", "sum"}, {"--type", "int"}, {"--block", "0"},
                                             {"--n", "1000"}, {"--dist", "random"}, {"--offset", "0"}};
  std::optional<std::string> seed_text;
  for (std::size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return usage("option " + args[i] + " needs a value");
    if (args[i] == "--seed") {
      seed_text = args[i + 1];
    } else if (options.count(args[i])) {
      options[args[i]] = args[i + 1];
    } else {
      return usage("unknown option " + args[i]);
    }
  }

  harness::ReduceCase c;
  c.variant = std::string(info->name);
  const auto op = kernels::parse_op(options["--op"]);
  const auto type = kernels::parse_type(options["--type"]);
  const auto distribution = harness::parse_distribution(options["--dist"]);
  if (!op) return usage("unknown op " + options["--op"]);
  if (!type) return usage("unknown type " + options["--type"]);
  if (!distribution) return usage("unknown distribution " + options["--dist"]);
  if (!harness::applies_to(*distribution, *type)) {
    return usage("distribution " + options["--dist"] + " does not apply to " + options["--type"]);
  }
  try {
    c.op = *op;
    c.type = *type;
    c.distribution = *distribution;
    c.block_size = std::stoi(options["--block"]);
    c.n = std::stoull(options["--n"]);
    c.offset = static_cast<unsigned>(std::stoul(options["--offset"]));
    c.seed = seed_text ? harness::parse_run_seed(*seed_text)
                       : harness::case_seed(harness::run_seed(), c.type, c.distribution, c.n);
  } catch (const std::exception& error) {
    return usage(std::string("bad number: ") + error.what());
  }

  const harness::GpuProbe gpu = harness::probe_gpu();
  if (!gpu.available) {
    std::cerr << "kcheck: no usable CUDA device (" << gpu.description << ")\n";
    return kUsage;
  }
  std::cout << "device: " << gpu.description << "\ncase:   " << harness::describe(c) << "\n";
  try {
    return kernels::visit_type(c.type, [&](auto in, auto out) {
      return run_reduce_case<decltype(in), decltype(out)>(*info, c);
    });
  } catch (const kernels::ValidationError& error) {
    std::cout << "REJECTED " << error.what() << "\n";
    return kFail;
  }
}
