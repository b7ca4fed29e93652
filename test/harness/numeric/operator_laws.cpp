#include "harness/numeric/operator_laws.hpp"

#include "harness/input/random_bits.hpp"

#include <kernels/operator_registry.hpp>

#include <cstdint>
#include <cstring>
#include <sstream>

namespace harness {
namespace {

// A value of the operator's type, held as its bytes (at most 8).
struct Word {
  std::uint64_t bits = 0;
  bool operator==(const Word& other) const { return bits == other.bits; }
};

std::size_t size_of(kernels::TypeKey type) {
  return kernels::visit_element_type(type, [](auto value, auto) { return sizeof(value); });
}

std::string hex(Word word) {
  std::ostringstream text;
  text << "0x" << std::hex << word.bits;
  return text.str();
}

}  // namespace

OperatorLaws check_operator_laws(kernels::Op op, kernels::TypeKey type, int samples) {
  const kernels::OperatorInfo& info = kernels::operator_info(op);
  const std::uint64_t mask = size_of(type) == 8 ? ~0ull : (1ull << (8 * size_of(type))) - 1;
  const auto step = [&](Word x, Word y) {
    Word out;
    info.reference(type, &x, &y, &out);
    return out;
  };
  OperatorLaws laws;
  const auto broken = [&](const std::string& law, Word a, Word b, Word c) {
    laws.violation = info.name + " on " + std::string(kernels::name(type)) + ": " + law + " (a = " + hex(a) +
                     ", b = " + hex(b) + ", c = " + hex(c) + ")";
    return laws;
  };
  Word identity;
  info.identity(type, &identity);
  for (int k = 0; k < samples; ++k) {
    const auto word = [&](int which) { return Word{random_bits(7, 3 * std::uint64_t(k) + which) & mask}; };
    const Word a = word(0), b = word(1), c = word(2);
    Word combined;
    info.combine(type, &a, &b, &combined);
    if (!(step(identity, a) == a)) return broken("the identity on the left changes a", a, b, c);
    if (!(step(a, identity) == a)) return broken("the identity on the right changes a", a, b, c);
    if (!(step(step(a, b), c) == step(a, step(b, c)))) return broken("not associative", a, b, c);
    if (!(combined == step(a, b))) return broken("combine(a, b) differs from reference(a, b)", a, b, c);
    laws.order_matters += !(step(a, b) == step(b, a));
    if (info.commutative && laws.order_matters > 0) return broken("declared commutative, yet order matters", a, b, c);
  }
  if (!info.commutative && laws.order_matters == 0)
    laws.violation = info.name + " on " + std::string(kernels::name(type)) +
                     ": declared not commutative, yet op(a, b) == op(b, a) on every sample";
  return laws;
}

}  // namespace harness
