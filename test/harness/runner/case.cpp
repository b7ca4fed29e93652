#include "harness/runner/case.hpp"

#include "harness/settings/variant_libraries.hpp"

#include <sstream>

namespace harness {

std::string Case::id() const { return std::string(kernels::name(family)) + "/" + variant; }

std::string describe(const Case& c) {
  std::ostringstream text;
  text << c.id();
  switch (c.family) {
    case kernels::Family::reduce: text << " op=" << kernels::name(c.op); break;
    case kernels::Family::scan: text << " kind=" << kernels::name(c.kind) << " op=" << kernels::name(c.op); break;
    case kernels::Family::sort: text << " form=" << kernels::name(c.form); break;
  }
  text << " type=" << kernels::name(c.type) << " block=" << c.block_size << " n=" << c.n
       << " dist=" << name(c.distribution) << " seed=" << c.seed << " offset=" << c.offset;
  if (c.in_place) text << " in-place";
  if (c.repeat != 1) text << " repeat=" << c.repeat;
  if (c.graph) text << " graph";
  if (c.noise != 0) text << " noise=" << c.noise << "us";
  if (c.noise != 0 && c.noise_seed != 0) text << " noise_seed=" << c.noise_seed;
  if (c.chained) text << " chained";
  return text.str();
}

std::vector<std::string> to_args(const Case& c) {
  std::vector<std::string> args{c.id()};
  switch (c.family) {
    case kernels::Family::reduce: args.insert(args.end(), {"--op", std::string(kernels::name(c.op))}); break;
    case kernels::Family::scan:
      args.insert(args.end(), {"--kind", std::string(kernels::name(c.kind)), "--op", std::string(kernels::name(c.op))});
      break;
    case kernels::Family::sort: args.insert(args.end(), {"--form", std::string(kernels::name(c.form))}); break;
  }
  args.insert(args.end(),
              {"--type", std::string(kernels::name(c.type)), "--block", std::to_string(c.block_size), "--n",
               std::to_string(c.n), "--dist", std::string(name(c.distribution)), "--seed", std::to_string(c.seed)});
  if (c.offset != 0) args.insert(args.end(), {"--offset", std::to_string(c.offset)});
  if (c.in_place) args.emplace_back("--in-place");
  if (c.repeat != 1) args.insert(args.end(), {"--repeat", std::to_string(c.repeat)});
  if (c.graph) args.emplace_back("--graph");
  if (c.noise != 0) args.insert(args.end(), {"--noise", std::to_string(c.noise)});
  if (c.noise != 0 && c.noise_seed != 0) args.insert(args.end(), {"--noise-seed", std::to_string(c.noise_seed)});
  if (c.chained) args.emplace_back("--chained");
  return args;
}

namespace {

std::string joined_args(const Case& c) {
  std::string text;
  for (const std::string& arg : to_args(c)) text += " " + arg;
  return text;
}

}  // namespace

std::string kcheck_line(const Case& c) { return "kcheck" + joined_args(c); }

std::string printed_rerun_line(const Case& c) { return kcheck_command(c) + joined_args(c); }

std::string sanitize_case_line(const Case& c) { return "sanitize case: " + printed_rerun_line(c); }

std::string kcheck_command(const Case& c) {
  const std::string library = variant_library_of(c.id());
  return library.empty() ? "kcheck" : "kcheck --variants-library " + library;
}

std::string batch_lines(std::span<const Case> cases) {
  std::string lines;
  for (const Case& c : cases) lines += kcheck_line(c) + "\n";
  return lines;
}

std::optional<ContractBreach> outside_contract(const kernels::VariantInfo& variant, const Case& c) {
  const auto join = [](const auto& values) {
    std::string text;
    for (const auto& value : values) text += (text.empty() ? "" : ", ") + std::string(kernels::name(value));
    return text;
  };
  if (!variant.supports(c.type)) return ContractBreach{"type", "declared: " + join(variant.types())};
  if (c.family != kernels::Family::sort && variant.refuses_for_order(c.op)) {
    return ContractBreach{"op", "this variant does not keep operand order, so takes commutative operators only; " +
                                    std::string(kernels::name(c.op)) + " is not commutative"};
  }
  if (c.family != kernels::Family::sort && !variant.supports(c.type, c.op)) {
    return ContractBreach{"op",
                          "declared for " + std::string(kernels::name(c.type)) + ": " + join(variant.ops(c.type))};
  }
  if (c.family == kernels::Family::scan && !variant.supports(c.kind)) {
    return ContractBreach{"kind", "declared: " + join(variant.kinds)};
  }
  if (c.family == kernels::Family::sort && !variant.supports(c.form)) {
    return ContractBreach{"form", "declared: " + join(variant.forms)};
  }
  if (c.in_place && !variant.in_place) return ContractBreach{"in_place", "this variant is not in-place"};
  if (!variant.block_sizes.accepts(c.block_size)) {
    return ContractBreach{"block_size", "must be " + variant.block_sizes.describe()};
  }
  if (!variant.accepts_length(c.n, c.block_size, c.type)) {
    std::string rule = "at most " + std::to_string(variant.max_length_with(c.block_size));
    const std::uint64_t step = variant.length_step(c.block_size, c.type);
    if (step > 1) rule += " and a multiple of " + std::to_string(step);
    return ContractBreach{"n", rule + " with block_size " + std::to_string(c.block_size)};
  }
  return std::nullopt;
}

std::optional<ContractBreach> large_case_breach(const kernels::VariantInfo& variant, const Case& c) {
  if (c.distribution != Distribution::large) return std::nullopt;
  if (c.offset != 0) return ContractBreach{"offset", "the input starts at offset 0"};
  if (c.repeat != 1) return ContractBreach{"repeat", "a case runs once"};
  if (c.graph) return ContractBreach{"graph", "a case runs as a plain call"};
  if (c.noise != 0) return ContractBreach{"noise", "a case runs without noise"};
  if (c.chained) return ContractBreach{"chained", "a case runs alone"};
  if (c.in_place) return ContractBreach{"in_place", "a scan writes an output of its own"};
  if (c.family != kernels::Family::sort && !is_large_op(c.op)) {
    return ContractBreach{"op", "the large oracle knows sum, max, min and last_nonzero"};
  }
  if (kernels::is_widening(c.type) && c.op != kernels::Op::sum) {
    return ContractBreach{"op", "a widening large case is a sum"};
  }
  if (c.type == kernels::TypeKey::float32 && c.family != kernels::Family::sort) {
    return ContractBreach{"type", "large floats are sort keys only (sums of floats have no exact large oracle)"};
  }
  if (c.family == kernels::Family::sort && c.form == kernels::SortForm::pairs) {
    if (!variant.stable) {
      return ContractBreach{"form", "pairs are judged by the input order of equal keys, so need a stable variant"};
    }
    if (c.n > kMaxLargePairs) {
      return ContractBreach{"n", "pairs' values are their keys' 32-bit indices, so at most " +
                                     std::to_string(kMaxLargePairs) + " of them"};
    }
  }
  return std::nullopt;
}

}  // namespace harness
