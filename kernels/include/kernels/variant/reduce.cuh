// The reductions' variant interface, kernels::variant (the shared part: launch.cuh). An Impl provides
//   template <class OpT, class In, class Out> static void run(const In* in, Out* out, const ReduceCall& call);
//   template <class OpT, class In, class Out> static std::size_t workspace_bytes(std::uint64_t n, int block);
//   static std::uint64_t max_length(int block);
//   static std::uint64_t accumulation_depth(std::uint64_t n, int block);  // roundings any input passes through
// and optionally launch.cuh's declarations (kTypes, kOps, kKeepsOperandOrder, kZeroSum, Operators, vector path).
// ReduceCall carries variant_id, n (> 0), block_size (resolved), workspace and stream.
//   make_reduce_variant<Impl>(VariantInfo)   the record's table: every declared (type, op) instantiated
//   MultiPass<K>                             an Impl from a block kernel K, repeated over the blocks' results until
//                                            one value is left; K from OneChunkPerBlock<PerThread> or
//                                            DeviceFillingGrid<PerStep> (docs/kernels.md#reduce says what K holds)
#pragma once

#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/launch.cuh>
