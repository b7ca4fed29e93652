// A CUDA injection library (CUDA_INJECTION64_PATH) that sums, per process, the device time of
// every kernel (by name), copy (by direction and size) and memset, from CUPTI's activity records,
// and writes them at exit to $KERNELS_GPU_TIME_OUT/<pid>.tsv: name, count, nanoseconds. With
// KERNELS_GPU_TIME_BY_GRID=1 a kernel's name ends with its grid's size class, " [1 block]",
// " [2-132 blocks]" (at most one an SM), " [133-4224 blocks]" (at most one wave of 32 an SM) or
// " [over 4224 blocks]": where a variant's time goes between its short and its long cases.
// A last line, "busy", gives the union of the process's records: the time its GPU work took
// where no record is counted twice (two kernels side by side on the process's queues). Run
// one process at a time, the sum of the unions is the GPU time the selection needs.
// bench/gpu_time.py runs a ctest selection under it and sums the files. A record's time is from
// its start to its end on the device: where processes take turns on one GPU it includes the
// others' turns, so shares between kernels mean more than sums against wall time.
#include <cupti.h>

#include <unistd.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t kBufferBytes = std::size_t(16) << 20;
constexpr std::size_t kLongestName = 200;

struct Totals {
  std::mutex mutex;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_name;  // count, nanoseconds
  std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals;          // start, end
};
Totals& totals() {
  static Totals* kept = new Totals;  // never destroyed: records arrive during exit
  return *kept;
}

// The size class of a grid of `blocks` blocks (an H100 has 132 SMs, each holds at most 32 blocks).
const char* grid_class(std::uint64_t blocks) {
  if (blocks <= 1) return " [1 block]";
  if (blocks <= 132) return " [2-132 blocks]";
  if (blocks <= 132 * 32) return " [133-4224 blocks]";
  return " [over 4224 blocks]";
}

bool by_grid() {
  static const bool wanted = [] {
    const char* value = std::getenv("KERNELS_GPU_TIME_BY_GRID");
    return value != nullptr && std::string(value) == "1";
  }();
  return wanted;
}

void CUPTIAPI give_buffer(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *size = kBufferBytes;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *max_records = 0;
}

std::string copy_name(const CUpti_ActivityMemcpy6& copy) {
  const char* direction = copy.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? "host to device"
                          : copy.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? "device to host"
                          : copy.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD ? "device to device"
                                                                             : "other";
  return std::string("copy ") + direction + (copy.bytes > (1u << 20) ? ", over 1 MiB" : ", up to 1 MiB");
}

void CUPTIAPI take_buffer(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  Totals& all = totals();
  const std::lock_guard<std::mutex> lock(all.mutex);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    std::string name;
    std::uint64_t start = 0, end = 0;
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      name = std::string("kernel ") + (kernel->name != nullptr ? kernel->name : "?");
      if (name.size() > kLongestName) name.resize(kLongestName);
      if (by_grid()) name += grid_class(std::uint64_t(kernel->gridX) * kernel->gridY * kernel->gridZ);
      start = kernel->start, end = kernel->end;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      name = copy_name(*copy);
      start = copy->start, end = copy->end;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      name = "memset";
      start = set->start, end = set->end;
    } else {
      continue;
    }
    auto& [count, nanoseconds] = all.by_name[name];
    count += 1;
    nanoseconds += end - start;
    all.intervals.emplace_back(start, end);
  }
  std::free(buffer);
}

// Nanoseconds covered by at least one of the intervals.
std::uint64_t union_of(std::vector<std::pair<std::uint64_t, std::uint64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::uint64_t covered = 0, reached = 0;
  for (const auto& [start, end] : intervals) {
    if (end <= reached) continue;
    covered += end - std::max(start, reached);
    reached = end;
  }
  return covered;
}

void write_totals() {
  cuptiActivityFlushAll(1);
  const char* folder = std::getenv("KERNELS_GPU_TIME_OUT");
  if (folder == nullptr) return;
  const std::string path = std::string(folder) + "/" + std::to_string(getpid()) + ".tsv";
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return;
  Totals& all = totals();
  const std::lock_guard<std::mutex> lock(all.mutex);
  for (const auto& [name, sums] : all.by_name) {
    std::fprintf(file, "%s\t%llu\t%llu\n", name.c_str(), static_cast<unsigned long long>(sums.first),
                 static_cast<unsigned long long>(sums.second));
  }
  std::fprintf(file, "busy\t%zu\t%llu\n", all.intervals.size(),
               static_cast<unsigned long long>(union_of(all.intervals)));
  std::fclose(file);
}

}  // namespace

// Called by the CUDA driver when it loads this library.
extern "C" int InitializeInjection() {
  if (cuptiActivityRegisterCallbacks(give_buffer, take_buffer) != CUPTI_SUCCESS) return 0;
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  std::atexit(write_totals);
  return 1;
}
