# Sources of the scan family (included by kernels/CMakeLists.txt).
set(KERNELS_SCAN_SOURCES
  scan/scan.cpp
  scan/naive.cu
  scan/hillis_steele_two_barriers.cu
  scan/hillis_steele_double_buffer.cu
  scan/blelloch_plain.cu
  scan/blelloch_padded.cu
  scan/warp_shuffle.cu
  scan/decoupled_lookback.cu
  scan/cub.cu
)
