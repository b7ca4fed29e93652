# Sources of the reduction family (included by kernels/CMakeLists.txt).
set(KERNELS_REDUCE_SOURCES
  reduce/reduce.cpp
  reduce/empty_result.cu
  reduce/harris1_interleaved_divergent.cu
  reduce/harris2_interleaved_strided.cu
  reduce/harris3_sequential.cu
  reduce/harris4_first_add_during_load.cu
  reduce/harris5_unroll_last_warp.cu
  reduce/harris6_complete_unroll.cu
  reduce/harris7_multi_element.cu
  reduce/warp_shuffle.cu
  reduce/vectorized_single_pass.cu
  reduce/cub.cu
)
