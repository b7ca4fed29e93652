# Sources of the sort family (included by kernels/CMakeLists.txt).
set(KERNELS_SORT_SOURCES
  sort/sort.cpp
  sort/odd_even_block.cu
  sort/odd_even_multi_block.cu
  sort/bitonic.cu
  sort/radix_lsd.cu
  sort/radix_onesweep.cu
  sort/cub.cu
)
