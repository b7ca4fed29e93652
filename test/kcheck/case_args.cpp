// kcheck's command line, on CLI11: the options and their help come from one description; the
// numbers are parsed here, exactly (no sign, no trailing characters, no overflow), so that a
// mistyped rerun line is an error naming its option rather than another case.
#include "kcheck/case_args.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/settings/exact_number.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <sstream>
#include <tuple>

namespace harness {
namespace {

struct CaseText {
  std::string variant;
  std::string op, kind, form, type = "int", block = "0", n = "1000", dist = "random", seed, offset = "0", repeat = "1",
                              noise = "0", noise_seed = "0";
  bool in_place = false, graph = false, chained = false;
};

std::string names_of(const auto& values) {
  std::string text;
  for (const auto& value : values) {
    if (!text.empty()) text += '|';
    text += name(value);
  }
  return text;
}

std::unique_ptr<CLI::App> describe_options(CaseText& text) {
  auto app = std::make_unique<CLI::App>(
      "kcheck: runs one case of one variant against the oracle, with the "
      "tests' input, guard bands and alignment",
      "kcheck");
  app->set_help_flag();  // kcheck answers --help itself, before any parsing
  app->add_option("variant", text.variant, "family/name of a registered variant (kcheck --list)")->required();
  app->add_option("--op", text.op,
                  "reductions and scans: " + names_of(kernels::all_ops()) + " (default: the first the type declares)");
  app->add_option("--kind", text.kind, "scans: inclusive|exclusive (default: the first declared)");
  app->add_flag("--in-place", text.in_place, "scans: out == in (in-place variants only)");
  app->add_option("--form", text.form, "sorts: keys|pairs (default: keys if declared)");
  app->add_option("--type", text.type, names_of(kernels::kAllTypeKeys) + " (default: int if declared)");
  app->add_option("--block", text.block, "block size, 0 = the variant's preferred (default 0)");
  app->add_option("--n", text.n, "number of elements (default 1000, or the longest accepted below it)");
  app->add_option("--dist", text.dist,
                  "input distribution (default random); large: the 64-bit-index tests' ints (or a sort's float "
                  "keys), generated and judged on the device, one run at offset 0, not in a --batch");
  app->add_option("--seed", text.seed, "input seed (default: derived from the run seed, as the tests derive it)");
  app->add_option("--offset", text.offset, "elements past a 16-byte boundary, 0.." + std::to_string(kMaxOffset));
  app->add_option("--repeat", text.repeat,
                  "runs of the case in one batch, 1.." + std::to_string(kMaxRepeat) +
                      " (default 1): fails if any run fails, and for a deterministic variant if any run's bits differ");
  app->add_flag("--graph", text.graph,
                "capture the runs into one CUDA graph and replay it, as the graph-capture test does");
  app->add_option("--noise", text.noise,
                  "microseconds, 0.." + std::to_string(kMaxNoise) +
                      " (default 0): before each run, a kernel on a second stream keeps random multiprocessors "
                      "busy up to this long, as the stress test does");
  app->add_option("--noise-seed", text.noise_seed,
                  "with --noise: the seed of the noise before the first run (default 0: derived), as a failure "
                  "under noise prints it");
  app->add_flag("--chained", text.chained,
                "run the batch's cases one after another on one stream through one workspace, poisoned once, as "
                "the test of calls in sequence does (a --batch file's cases: each after the ones before it)");
  return app;
}

template <class Number>
Number parse_number(const std::string& option, const std::string& text, Number low, Number high) {
  const std::optional<Number> value = exact_number(text, low, high);
  if (!value) {
    throw CaseArgsError(
        option, "'" + text + "' is not an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  }
  return *value;
}

template <class Value>
Value parse_name(const std::string& option, const std::string& text, std::optional<Value> parsed,
                 const std::string& accepted) {
  if (!parsed) throw CaseArgsError(option, "'" + text + "' is not one of " + accepted);
  return *parsed;
}

// An option given to a family it does not belong to.
void reject_unless(bool belongs, const CLI::App& app, const std::string& option, const std::string& family) {
  if (!belongs && app.count(option) > 0) throw CaseArgsError(option, "applies to " + family + " only");
}

}  // namespace

Case parse_case_args(const std::vector<std::string>& args) {
  CaseText text;
  const auto app = describe_options(text);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app->parse(reversed);
  } catch (const CLI::ParseError& error) {
    throw CaseArgsError("arguments", error.what());
  }

  const kernels::VariantInfo* variant = kernels::find_variant(text.variant);
  if (variant == nullptr)
    throw CaseArgsError("variant", "no variant '" + text.variant + "' (kcheck --list shows them)");
  Case c;
  c.family = variant->family;
  c.variant = std::string(variant->name);
  reject_unless(c.family != kernels::Family::sort, *app, "--op", "reductions and scans");
  reject_unless(c.family == kernels::Family::scan, *app, "--kind", "scans");
  reject_unless(c.family == kernels::Family::scan, *app, "--in-place", "scans");
  reject_unless(c.family == kernels::Family::sort, *app, "--form", "sorts");

  const std::vector<kernels::TypeKey> types = variant->types();
  if (app->count("--type") > 0) {
    c.type = parse_name("--type", text.type, kernels::parse_type(text.type), names_of(kernels::kAllTypeKeys));
  } else {
    c.type = std::find(types.begin(), types.end(), kernels::TypeKey::int32) != types.end() ? kernels::TypeKey::int32
                                                                                           : types.front();
  }
  if (!variant->supports(c.type)) throw CaseArgsError("--type", "declared: " + names_of(types));
  if (c.family != kernels::Family::sort) {
    const auto ops = variant->ops(c.type);
    c.op = text.op.empty() ? ops.front()
                           : parse_name("--op", text.op, kernels::parse_op(text.op), names_of(kernels::all_ops()));
  }
  if (c.family == kernels::Family::scan) {
    c.kind = text.kind.empty() ? variant->kinds.front()
                               : parse_name("--kind", text.kind, kernels::parse_scan_kind(text.kind),
                                            names_of(kernels::kAllScanKinds));
    c.in_place = text.in_place;
  } else if (c.family == kernels::Family::sort) {
    c.form = text.form.empty() ? variant->forms.front()
                               : parse_name("--form", text.form, kernels::parse_sort_form(text.form),
                                            names_of(kernels::kAllSortForms));
  }
  c.block_size = parse_number<int>("--block", text.block, 0, 1024);
  c.distribution = parse_name("--dist", text.dist, parse_distribution(text.dist),
                              names_of(kAllDistributions) + "|" + std::string(name(Distribution::large)));
  if (!applies_to(c.distribution, c.type)) {
    throw CaseArgsError("--dist",
                        std::string(name(c.distribution)) + " does not apply to " + std::string(kernels::name(c.type)));
  }
  c.offset = parse_number<unsigned>("--offset", text.offset, 0, kMaxOffset);
  c.repeat = parse_number<unsigned>("--repeat", text.repeat, 1, kMaxRepeat);
  c.graph = text.graph;
  c.chained = text.chained;
  c.noise = parse_number<unsigned>("--noise", text.noise, 0, kMaxNoise);
  c.noise_seed =
      parse_number<std::uint64_t>("--noise-seed", text.noise_seed, 0, std::numeric_limits<std::uint64_t>::max());
  if (c.noise_seed != 0 && c.noise == 0) throw CaseArgsError("--noise-seed", "needs --noise");
  if (app->count("--n") > 0) {
    c.n = parse_number<std::uint64_t>("--n", text.n, 0, std::numeric_limits<std::uint64_t>::max());
  } else if (variant->block_sizes.accepts(c.block_size)) {
    c.n = variant->accepted_length_at_most(1000, c.block_size, c.type);
  }
  const auto option_of = [](const ContractBreach& breach) {
    return breach.parameter == "block_size" ? "--block"
           : breach.parameter == "in_place" ? "--in-place"
                                            : "--" + breach.parameter;
  };
  if (const auto breach = outside_contract(*variant, c)) {
    throw CaseArgsError(option_of(*breach), "outside " + variant->id() + "'s contract: " + breach->rule);
  }
  if (const auto breach = large_case_breach(*variant, c)) {
    throw CaseArgsError(option_of(*breach), breach->rule + " with --dist large");
  }
  c.seed = text.seed.empty()
               ? case_seed(run_seed(), c.type, c.distribution, c.n)
               : parse_number<std::uint64_t>("--seed", text.seed, 0, std::numeric_limits<std::uint64_t>::max());
  return c;
}

std::vector<Case> parse_batch_lines(const std::vector<std::string>& lines) {
  std::vector<Case> cases;
  for (std::size_t number = 1; number <= lines.size(); ++number) {
    std::istringstream words(lines[number - 1]);
    std::vector<std::string> args{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    if (args.empty()) continue;
    if (args.front() == "kcheck") args.erase(args.begin());
    const std::string where = "line " + std::to_string(number) + ": ";
    try {
      cases.push_back(parse_case_args(args));
    } catch (const CaseArgsError& error) {
      throw CaseArgsError("--batch", where + error.what());
    }
    if (cases.back().distribution == Distribution::large) {
      throw CaseArgsError("--batch", where + "a --dist large case runs alone, not in a batch");
    }
    const Case& first = cases.front();
    const Case& c = cases.back();
    if (std::tie(c.family, c.variant, c.type, c.op, c.kind, c.form, c.graph, c.noise, c.chained) !=
        std::tie(first.family, first.variant, first.type, first.op, first.kind, first.form, first.graph, first.noise,
                 first.chained)) {
      throw CaseArgsError("--batch", where +
                                         "not of the first case's variant, type, op, kind or form, --graph, --noise "
                                         "and --chained");
    }
  }
  if (cases.empty()) throw CaseArgsError("--batch", "no case");
  return cases;
}

std::string case_args_help() {
  CaseText text;
  return describe_options(text)->help();
}

}  // namespace harness
