// A variant library whose record contradicts itself (a reduction of no element type): the registry refuses it
// while the library loads, and the loader reports the refusal with the library's name.
#include <kernels/reduce/detail/reduce_variant.hpp>
#include <kernels/variant_libraries.hpp>

namespace {

kernels::detail::ReduceVariant contradicting_record() {
  kernels::detail::ReduceVariant variant;
  variant.info.family = kernels::Family::reduce;
  variant.info.name = "contradicting_record";
  variant.info.description = "a record of no element type";
  variant.id = variant.info.id();
  return variant;
}

const bool registered = kernels::detail::register_variant(contradicting_record());

}  // namespace
