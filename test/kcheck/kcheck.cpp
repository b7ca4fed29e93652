// kcheck: run exactly one case of one variant against the oracle, or list the registry.
//
//   kcheck --help | --list
//   kcheck <family>/<variant> [options]      (kcheck --help lists them)
//
// Every failing test prints the kcheck line that reruns its case: same input (regenerated
// from the seed), same guard bands, same alignment, same oracle. Arguments are parsed and
// checked against the variant's contract before any GPU is touched.
// Exit status: 0 pass, 1 fail, 2 usage error, a case outside the contract, or no GPU.
#include "harness/core/case.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/reduce/reduce_family.hpp"
#include "harness/scan/scan_family.hpp"
#include "harness/sort/sort_family.hpp"

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

namespace {

using kernels::VariantInfo;

constexpr int kPass = 0, kFail = 1, kUsage = 2;

template <class Values>
std::string join(const Values& values) {
  std::ostringstream text;
  const char* separator = "";
  for (const auto& value : values) {
    text << separator << kernels::name(value);
    separator = ",";
  }
  return text.str();
}

int list_registry() {
  std::cout << std::left << std::setw(44) << "variant" << std::setw(22) << "blocks" << std::setw(22)
            << "max n (preferred)" << std::setw(6) << "det." << "description\n";
  for (const VariantInfo* info : kernels::all_variants()) {
    std::cout << std::setw(44) << info->id() << std::setw(22) << info->block_sizes.describe().substr(0, 21)
              << std::setw(22) << info->max_length_with(0) << std::setw(6) << (info->deterministic ? "yes" : "no")
              << info->description << "\n"
              << std::setw(44) << "" << "types";
    for (const kernels::TypeOps& entry : info->type_ops) {
      std::cout << " " << kernels::name(entry.type);
      if (info->family == kernels::Family::reduce) std::cout << "(" << join(entry.ops) << ")";
    }
    if (!info->kinds.empty()) std::cout << "; kinds " << join(info->kinds);
    if (!info->forms.empty()) std::cout << "; forms " << join(info->forms);
    if (info->length_multiple == kernels::LengthMultiple::block) std::cout << "; n a multiple of the block";
    if (info->length_multiple == kernels::LengthMultiple::tile) std::cout << "; n a multiple of the tile";
    if (info->in_place) std::cout << "; in-place";
    if (info->stable) std::cout << "; stable";
    std::cout << "\n";
  }
  return kPass;
}

template <class Family>
int run_case(const VariantInfo& info, const harness::Case& c, typename Family::Mode mode) {
  const auto input = harness::make_test_input<typename Family::In>(c.distribution, c.n, c.seed, c.offset);
  harness::Batch<Family> batch(info, mode);
  batch.add_run(batch.add_input(input), c.block_size, c.in_place);
  const harness::BatchReport report = batch.run({.describe_passes = true});
  for (const std::string& line : report.passes) std::cout << line << "\n";
  for (const harness::CaseFailure& failure : report.failures) std::cout << failure.lines() << "\n";
  return report.failures.empty() ? kPass : kFail;
}

int run(const VariantInfo& info, const harness::Case& c) {
  return kernels::visit_type(c.type, [&](auto in, auto out) {
    using In = decltype(in);
    using Out = decltype(out);
    switch (c.family) {
      case kernels::Family::reduce: return run_case<harness::ReduceFamily<In, Out>>(info, c, c.op);
      case kernels::Family::scan:
        if constexpr (std::is_same_v<In, Out>) return run_case<harness::ScanFamily<In>>(info, c, c.kind);
        break;
      case kernels::Family::sort:
        if constexpr (std::is_same_v<In, Out>) return run_case<harness::SortFamily<In>>(info, c, c.form);
        break;
    }
    return kUsage;  // the widening type outside reductions: rejected by the contract check already
  });
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << harness::case_args_help() << "\nAlso: kcheck --list (every variant and its contract).\n"
              << "Exit status: 0 pass, 1 fail, 2 usage or contract error, or no GPU.\n";
    return kPass;
  }
  if (args.size() == 1 && args[0] == "--list") return list_registry();

  harness::Case c;
  try {
    c = harness::parse_case_args(args);
  } catch (const harness::CaseArgsError& error) {
    std::cerr << "kcheck: " << error.what() << "\n(kcheck --help shows the options)\n";
    return kUsage;
  }
  const VariantInfo& info = *kernels::find_variant(c.id());

  const harness::GpuProbe gpu = harness::probe_gpu();
  if (!gpu.available) {
    std::cerr << "kcheck: no usable CUDA device (" << gpu.description << ")\n";
    return kUsage;
  }
  std::cout << "device: " << gpu.description << "\n" << "case:   " << harness::describe(c) << "\n";
  try {
    return run(info, c);
  } catch (const std::exception& error) {
    std::cout << "ERROR " << error.what() << "\n";
    return kFail;
  }
}
