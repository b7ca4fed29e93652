// A variant's contract as text, one line of flags, types and modes, then one line per block size
// with the longest input it admits: what test/cpu/declared_contracts.txt holds for every variant.
// The build writes that file from the registry (cmake/DeclaredContracts.cmake), so a contract
// that moves shows in review; cpu.registry.<variant> compares each loaded record with it.
#pragma once

#include <kernels/registry.hpp>

#include <string>
#include <vector>

namespace harness {

std::vector<std::string> contract_lines(const kernels::VariantInfo& info);

}  // namespace harness
