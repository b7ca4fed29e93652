// The variant interface, kernels::variant: what a variant file of any family uses (docs/your-kernels.md). A variant
// file includes its family's header (reduce.cuh, scan.cuh, sort.cuh), which includes this one.
//
//   register_variant(make_<family>_variant<Impl>({record}))  joins the variant to the registry when its library
//                                                            loads; once per file, into a namespace-scope constant
//   launch_kernel(KernelLabel{id, type, operation, stage}, &kernel, grid, block, shared_bytes, stream, args...)
//                                                            a launch whose failure names the kernel and its shape
//   dynamic_shared<T>()                                      the block's dynamic shared memory as T[]
//   multiprocessor_count(), device_filling_grid(block)       the device's size (cached lookups)
//   ceil_div(a, b), align_up(bytes), log2_exact(power_of_two)
//   empty_result<OpT, T>()                                   what an empty reduction returns, exclusive[0]
//   OperatorList<MyOp...>                                    an Impl's own operators: using Operators = ...;
//
// An Impl declares, optionally and in one vocabulary (absent: everything its family takes):
//   static constexpr std::array kTypes{TypeKey::...};        the element or key types it offers
//   static constexpr std::array kOps{Op::...};               reductions and scans: the operators it offers
//   static constexpr bool kKeepsOperandOrder = false;        reductions and scans: it combines out of input order
//   static constexpr ZeroSum kZeroSum = ZeroSum::positive;   a float sum starts from +0.0, not IEEE's -0.0
//   using Operators = OperatorList<MyOp>;                    operators of its own besides the suite's
//   static std::uint64_t vector_values(TypeKey);             with tile_size: a vector path, its values a load
// and each family's header lists what its Impl must provide. Types, ops and BlockSizes are in namespace kernels.
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/ops.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/detail/variant_table.hpp>
#include <kernels/variant_libraries.hpp>
