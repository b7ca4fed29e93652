// A variant library registering an operator under a name the suite already gives one (unitriangular): the
// registry refuses it while the library loads, and the loader reports the refusal with the library's name.
#include <kernels/detail/describe_operator.hpp>
#include <kernels/operators.hpp>
#include <kernels/variant_libraries.hpp>

namespace {

const kernels::Op registered =
    kernels::register_operator(kernels::detail::describe_operator<kernels::operators::Unitriangular>("unitriangular"));

}  // namespace
