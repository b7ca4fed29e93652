// A CUDA injection library (CUDA_INJECTION64_PATH) that sums, per process, the device time of
// every kernel (by name), copy (by direction and size) and memset, from CUPTI's activity records,
// and writes them at exit to $KERNELS_GPU_TIME_OUT/<pid>.tsv: name, count, nanoseconds.
// bench/gpu_time.py runs a ctest selection under it and sums the files. A record's time is from
// its start to its end on the device: where processes take turns on one GPU it includes the
// others' turns, so shares between kernels mean more than sums against wall time.
#include <cupti.h>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace {

constexpr std::size_t kBufferBytes = std::size_t(16) << 20;
constexpr std::size_t kLongestName = 200;

struct Totals {
  std::mutex mutex;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_name;  // count, nanoseconds
};
Totals& totals() {
  static Totals* kept = new Totals;  // never destroyed: records arrive during exit
  return *kept;
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
    if (name.size() > kLongestName) name.resize(kLongestName);
    auto& [count, nanoseconds] = all.by_name[name];
    count += 1;
    nanoseconds += end - start;
  }
  std::free(buffer);
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
