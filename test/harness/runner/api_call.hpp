// The arguments of one call of a family's public API outside any batch: what the shared
// rejected-call test (test/variants/contract/contract_test.cpp) starts from, valid, and changes one at a time.
// Each family's ApiCall (harness/<family>/<family>_family.hpp) owns poisoned arrays of n elements
// and makes the call.
#pragma once

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cstdint>
#include <string_view>

namespace harness {

template <class Family>
struct ApiArgs {
  std::string_view variant;
  typename Family::Mode mode;
  const typename Family::In* in;
  std::uint64_t n;
  typename Family::Out* out;
  kernels::Workspace workspace;
  int block_size = 0;
};

// What every family's ApiCall starts from: the variant, the mode and the length of the call.
template <class Mode>
class ApiCallBase {
 public:
  ApiCallBase(const kernels::VariantInfo& variant, Mode mode, std::uint64_t n)
      : variant_(variant), mode_(mode), n_(n) {}

 protected:
  const kernels::VariantInfo& variant_;
  const Mode mode_;
  const std::uint64_t n_;
};

}  // namespace harness
