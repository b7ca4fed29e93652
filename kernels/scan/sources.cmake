# Sources of the scan family (included by kernels/CMakeLists.txt).
set(KERNELS_SCAN_SOURCES
  scan/scan.cpp
  scan/variants.cpp
)
