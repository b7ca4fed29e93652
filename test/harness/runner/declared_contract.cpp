#include "harness/runner/declared_contract.hpp"

#include <sstream>

namespace harness {

std::vector<std::string> contract_lines(const kernels::VariantInfo& info) {
  std::vector<std::string> lines;
  std::ostringstream flags;
  flags << info.id() << " deterministic=" << info.deterministic << " cross_block=" << info.cross_block
        << " in_place=" << info.in_place << " stable=" << info.stable
        << " keeps_operand_order=" << info.keeps_operand_order
        << " zero_sum=" << (info.zero_sum == kernels::ZeroSum::ieee ? "ieee" : "positive") << " ops=";
  for (kernels::TypeKey type : info.types()) {
    flags << name(type) << ":";
    for (kernels::Op op : info.ops(type)) flags << name(op) << (op == info.ops(type).back() ? "" : "+");
    flags << (type == info.types().back() ? "" : ",");
  }
  for (kernels::ScanKind kind : info.kinds) flags << " " << name(kind);
  for (kernels::SortForm form : info.forms) flags << " " << name(form);
  if (info.vector_values != nullptr) {
    flags << " vector_values=";
    for (kernels::TypeKey type : info.types())
      flags << name(type) << ":" << info.vector_values(type) << (type == info.types().back() ? "" : ",");
  }
  lines.push_back(flags.str());
  for (int block : info.block_sizes.all()) {
    lines.push_back(info.id() + " block=" + std::to_string(block) +
                    " max_length=" + std::to_string(info.max_length_with(block)));
  }
  return lines;
}

}  // namespace harness
