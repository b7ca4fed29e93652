// kcheck: run exactly one case of one variant against the oracle, or list the registry.
//
//   kcheck --help | --list
//   kcheck <family>/<variant> [options]      (kcheck --help lists them)
//   kcheck --batch <file>                    the cases of a file of rerun lines as one batch
//
// Every failing test prints the kcheck line that reruns its case: same input (regenerated
// from the seed, or written on the device for --dist large), same guard bands, same alignment,
// same oracle. Arguments are parsed and checked against the variant's contract before any GPU
// is touched. --batch runs cases of one
// variant, type and op, kind or form together, the way a test batches them: the rerun of part
// of a batch whose stream failed (harness/diagnosis/fault_attribution.hpp).
// Exit status: 0 pass, 1 fail, 2 usage error, a case outside the contract, no GPU, or too
// little device memory for a large case.
#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/large/large_case.hpp"
#include "harness/reduce/reduce_family.hpp"
#include "harness/reduce/reduce_large.hpp"
#include "harness/runner/case.hpp"
#include "harness/runner/declared_contract.hpp"
#include "harness/scan/scan_family.hpp"
#include "harness/scan/scan_large.hpp"
#include "harness/session/gpu_session.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/variant_libraries.hpp"
#include "harness/sort/sort_family.hpp"
#include "harness/sort/sort_large.hpp"
#include "kcheck/case_args.hpp"

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

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

// Every variant's contract as test/cpu/declared_contracts.txt holds it (the build writes the file
// from this, cmake/DeclaredContracts.cmake).
// Every variant's contract, or only the variant libraries' when any is loaded (what their own repository keeps).
int print_contracts(const std::vector<std::string>& loaded) {
  for (const VariantInfo* info : kernels::all_variants()) {
    if (!loaded.empty() && std::find(loaded.begin(), loaded.end(), info->id()) == loaded.end()) continue;
    for (const std::string& line : harness::contract_lines(*info)) std::cout << line << "\n";
  }
  return kPass;
}

int list_registry() {
  // The id and block columns are as wide as their longest entry and two spaces: nothing is cut,
  // and the first word of a line is its id.
  std::size_t id_width = 0, block_width = 0;
  for (const VariantInfo* info : kernels::all_variants()) {
    id_width = std::max(id_width, info->id().size() + 2);
    block_width = std::max(block_width, info->block_sizes.describe().size() + 2);
  }
  const int ids = static_cast<int>(id_width), blocks = static_cast<int>(block_width);
  std::cout << std::left << std::setw(ids) << "variant" << std::setw(blocks) << "blocks" << std::setw(22)
            << "max n (preferred)" << std::setw(6) << "det."
            << "description\n";
  for (const VariantInfo* info : kernels::all_variants()) {
    std::cout << std::setw(ids) << info->id() << std::setw(blocks) << info->block_sizes.describe() << std::setw(22)
              << info->max_length_with(0) << std::setw(6) << (info->deterministic ? "yes" : "no") << info->description
              << "\n"
              << std::setw(ids) << ""
              << "types";
    for (const kernels::TypeOps& entry : info->type_ops) {
      std::cout << " " << kernels::name(entry.type);
      if (info->family != kernels::Family::sort) std::cout << "(" << join(entry.ops) << ")";
    }
    if (!info->kinds.empty()) std::cout << "; kinds " << join(info->kinds);
    if (!info->forms.empty()) std::cout << "; forms " << join(info->forms);
    if (info->length_multiple == kernels::LengthMultiple::block) std::cout << "; n a multiple of the block";
    if (info->length_multiple == kernels::LengthMultiple::tile) std::cout << "; n a multiple of the tile";
    if (info->in_place) std::cout << "; in-place";
    if (info->stable) std::cout << "; stable";
    if (info->family != kernels::Family::sort && !info->keeps_operand_order)
      std::cout << "; combines out of input order: commutative ops only";
    if (info->zero_sum == kernels::ZeroSum::positive) std::cout << "; a float sum of zeros is +0.0";
    std::cout << "\n";
  }
  return kPass;
}

int print_report(const harness::BatchReport& report) {
  for (const std::string& line : report.passes) std::cout << line << "\n";
  if (!report.how_found.empty()) std::cout << report.how_found << "\n";
  for (const harness::CaseFailure& failure : report.failures) std::cout << failure.lines() << "\n";
  if (report.cases > 1) std::cout << report.failures.size() << " of " << report.cases << " runs failed\n";
  return report.failures.empty() ? kPass : kFail;
}

// The cases as one batch, in order, each as many times as its --repeat; each distinct input is
// generated and uploaded once. Repeats of a deterministic variant must give the same bits.
template <class Family>
int run_cases(const VariantInfo& info, const std::vector<harness::Case>& cases, typename Family::Mode mode) {
  using Input = harness::TestInput<typename Family::In>;
  std::vector<Input> inputs;
  inputs.reserve(cases.size());  // the batch keeps pointers to them
  std::map<std::tuple<harness::Distribution, std::uint64_t, std::uint64_t, unsigned>, std::size_t> input_of;
  harness::Batch<Family> batch(info, mode);
  for (const harness::Case& c : cases) {
    const auto [slot, added] = input_of.try_emplace({c.distribution, c.n, c.seed, c.offset}, inputs.size());
    if (added) {
      inputs.push_back(harness::make_test_input<typename Family::In>(c.distribution, c.n, c.seed, c.offset));
      batch.add_input(inputs.back());
    }
    for (unsigned k = 0; k < c.repeat; ++k) batch.add_run(slot->second, c.block_size, c.in_place);
  }
  const bool repeated = std::any_of(cases.begin(), cases.end(), [](const harness::Case& c) { return c.repeat > 1; });
  // One batch runs one way (parse_batch_lines checks it): the first case's graph, noise and chaining.
  return print_report(batch.run({.describe_passes = cases.size() == 1 && !repeated,
                                 .as_graph = cases.front().graph,
                                 .same_bits_when_repeated = info.deterministic && repeated,
                                 .noise_us = cases.front().noise,
                                 .noise_seed = cases.front().noise_seed,
                                 .chained = cases.front().chained}));
}

// A `large` case, alone (harness/large/large_case.hpp).
int run_large(const VariantInfo& info, const harness::Case& c) {
  const harness::LargeRunner& runner = c.family == kernels::Family::reduce ? harness::kLargeReduce
                                       : c.family == kernels::Family::scan ? harness::kLargeScan
                                                                           : harness::kLargeSort;
  if (const auto lack = harness::lacks_device_memory(runner.device_bytes(info, c))) {
    std::cerr << "kcheck: this case " << *lack << "\n";
    return kUsage;
  }
  return print_report(runner.run(info, c));
}

// Cases of one variant, type and op, kind or form (the first case's). The contract check has
// rejected a type the family does not take.
int run(const VariantInfo& info, const std::vector<harness::Case>& cases) {
  const harness::Case& c = cases.front();
  switch (c.family) {
    case kernels::Family::reduce:
      return kernels::visit_type(c.type, [&](auto in, auto out) {
        return run_cases<harness::ReduceFamily<decltype(in), decltype(out)>>(info, cases, c.op);
      });
    case kernels::Family::scan:
      return kernels::visit_scan_type(c.type, [&](auto value, auto) {
        return run_cases<harness::ScanFamily<decltype(value)>>(info, cases, harness::ScanMode{c.kind, c.op});
      });
    case kernels::Family::sort:
      return kernels::visit_element_type(
          c.type, [&](auto key, auto) { return run_cases<harness::SortFamily<decltype(key)>>(info, cases, c.form); });
  }
  return kUsage;
}

// The cases of a file of rerun lines (harness::parse_batch_lines).
std::vector<harness::Case> read_batch(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw harness::CaseArgsError("--batch", "cannot read '" + path + "'");
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return harness::parse_batch_lines(lines);
}

}  // namespace

int main(int argc, char** argv) {
  harness::refuse_retired_variables();
  std::vector<std::string> args, libraries;  // --variants-library <path>, anywhere, loaded before the rest is read
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) != "--variants-library") {
      args.emplace_back(argv[i]);
    } else if (i + 1 < argc) {
      libraries.emplace_back(argv[++i]);
    } else {
      std::cerr << "kcheck: --variants-library takes a library's path\n(kcheck --help shows the options)\n";
      return kUsage;
    }
  }
  const std::vector<std::string> loaded = harness::load_variant_libraries(libraries);
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << harness::case_args_help() << "\nAlso: kcheck --list (every variant and its contract);\n"
              << "      kcheck --contracts (every contract, as test/cpu/declared_contracts.txt holds it; with variant\n"
              << "      libraries, theirs only);\n"
              << "      kcheck --batch <file> (the rerun lines of a file, one a line, as one batch);\n"
              << "      --variants-library <path> with any of these loads a variant library first (as\n"
              << "      KERNELS_VARIANT_LIBRARIES=<path>:<path>... does; docs/your-kernels.md).\n"
              << "A batch that has not finished after KERNELS_HANG_TIMEOUT_S seconds (default "
              << harness::kDefaultHangTimeoutSeconds << "; 0: never) fails, naming the case that hangs.\n"
              << "Exit status: 0 pass, 1 fail, 2 usage or contract error, no GPU, or too little device memory (a "
                 "--dist large case).\n";
    return kPass;
  }
  if (args.size() == 1 && args[0] == "--list") return list_registry();
  if (args.size() == 1 && args[0] == "--contracts")
    return print_contracts(harness::variant_libraries_given() ? loaded : std::vector<std::string>{});

  std::vector<harness::Case> cases;
  try {
    if (!args.empty() && args[0] == "--batch") {
      if (args.size() != 2) throw harness::CaseArgsError("--batch", "takes one file and nothing else");
      cases = read_batch(args[1]);
    } else {
      cases.push_back(harness::parse_case_args(args));
    }
    harness::hang_timeout_seconds();  // a malformed KERNELS_HANG_TIMEOUT_S is named before any GPU work
  } catch (const harness::CaseArgsError& error) {
    std::cerr << "kcheck: " << error.what() << "\n(kcheck --help shows the options)\n";
    return kUsage;
  } catch (const std::invalid_argument& error) {
    std::cerr << "kcheck: " << error.what() << "\n";
    return kUsage;
  }
  const VariantInfo& info = *kernels::find_variant(cases.front().id());

  const harness::GpuProbe gpu = harness::probe_gpu();
  if (!gpu.available) {
    std::cerr << (gpu.lost ? "GPU LOST: " : "kcheck: no usable CUDA device: ") << gpu.description << "\n";
    return gpu.lost ? kFail : kUsage;
  }
  std::cout << "device: " << gpu.description << "\n";
  if (cases.size() == 1) std::cout << "case:   " << harness::describe(cases.front()) << "\n";
  // Under test/runtime/sanitize.sh a report names its case from this line, as a test's does.
  if (harness::suite_variable("KERNELS_SANITIZER_TOOL") != nullptr && cases.size() == 1)
    std::cout << harness::sanitize_case_line(cases.front()) << std::endl;
  try {
    if (cases.front().distribution == harness::Distribution::large) return run_large(info, cases.front());
    return run(info, cases);
  } catch (const std::exception& error) {
    std::cout << "ERROR " << error.what() << "\n";
    return kFail;
  }
}
