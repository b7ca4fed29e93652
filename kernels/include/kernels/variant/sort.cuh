// The sorts' variant interface, kernels::variant (the shared part: launch.cuh). An Impl provides
//   template <SortForm form, class K> static void run(const K* keys_in, K* keys_out, const SortCall& call);
//   template <SortForm form, class K> static std::size_t workspace_bytes(std::uint64_t n, int block);
//   static std::uint64_t max_length(int block);
// and optionally launch.cuh's kTypes, and
//   static constexpr bool kSortsPairs = true;   the key-value form too (uint32 values; stable sorts only)
// SortCall carries variant_id, values_in and values_out (null for SortForm::keys), n (> 0), block_size (resolved),
// workspace and stream.
//   make_sort_variant<Impl>(VariantInfo)     the record's table: every declared (key type, form) instantiated
//   ordered_bits_t<K>, encode_order(key), decode_order<K>(bits)
//                                            keys as unsigned bits whose order is the sort order (IEEE totalOrder)
//   load_window(keys, count, window), store_window(window, count, keys), compare_exchange(window, i, j)
//                                            a block's window of encoded keys in shared memory
#pragma once

#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/shared_window.cuh>
#include <kernels/sort/detail/total_order.cuh>
#include <kernels/variant/launch.cuh>
