#include "harness/session/host_threads.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace harness {

unsigned host_threads() { return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxHostThreads); }

void parallel_for(std::size_t count, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& piece) {
  grain = std::max<std::size_t>(grain, 1);
  const std::size_t threads = std::min<std::size_t>(host_threads(), (count + grain - 1) / grain);
  if (threads <= 1) {
    if (count > 0) piece(0, count);
    return;
  }
  // Pieces of about a quarter of a thread's share, taken in turn: runs of very different lengths
  // (a batch's) still end together.
  const std::size_t size = std::max(grain, count / (threads * 4));
  std::atomic<std::size_t> next{0};
  std::mutex failure_lock;
  std::exception_ptr failure;
  const auto work = [&] {
    for (std::size_t begin = next.fetch_add(size); begin < count; begin = next.fetch_add(size)) {
      try {
        piece(begin, std::min(count, begin + size));
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

void run_all(const std::vector<std::function<void()>>& tasks) {
  std::vector<std::exception_ptr> failures(tasks.size());
  parallel_for(tasks.size(), 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      try {
        tasks[k]();
      } catch (...) {
        failures[k] = std::current_exception();
      }
    }
  });
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace harness
