// parallel_for: every index once, in pieces of at least the grain, the first exception rethrown.
// run_all: every task once, the lowest-numbered task's exception rethrown.
#include "harness/session/host_threads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using harness::parallel_for;
using harness::run_all;

TEST(HostThreads, EveryIndexOnceInPiecesOfAtLeastTheGrain) {
  constexpr std::size_t kCount = 100003;
  std::vector<std::atomic<int>> seen(kCount);
  std::mutex lock;
  std::vector<std::pair<std::size_t, std::size_t>> pieces;
  parallel_for(kCount, 1000, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) ++seen[i];
    const std::lock_guard<std::mutex> hold(lock);
    pieces.emplace_back(begin, end);
  });
  for (std::size_t i = 0; i < kCount; ++i) ASSERT_EQ(seen[i], 1) << i;
  for (const auto& [begin, end] : pieces) {
    if (end != kCount) {
      EXPECT_GE(end - begin, 1000u);
    }
  }
}

TEST(HostThreads, ASmallCountIsOnePieceOnTheCallersThread) {
  const std::thread::id caller = std::this_thread::get_id();
  int pieces = 0;
  parallel_for(500, 1000, [&](std::size_t begin, std::size_t end) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    EXPECT_EQ(begin, 0u);
    EXPECT_EQ(end, 500u);
    ++pieces;
  });
  EXPECT_EQ(pieces, 1);
  parallel_for(0, 1, [&](std::size_t, std::size_t) { ++pieces; });
  EXPECT_EQ(pieces, 1);
}

TEST(HostThreads, AFailingPieceIsRethrownAfterTheOthersEnd) {
  std::atomic<std::size_t> done{0};
  EXPECT_THROW(parallel_for(64, 1,
                            [&](std::size_t begin, std::size_t end) {
                              done += end - begin;
                              if (begin <= 7 && 7 < end) throw std::runtime_error("the piece of 7");
                            }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 64u);
}

TEST(HostThreads, RunAllRethrowsTheLowestNumberedFailureWhicheverEndsFirst) {
  std::vector<std::atomic<int>> ran(12);
  std::vector<std::function<void()>> tasks;
  for (std::size_t k = 0; k < ran.size(); ++k) {
    tasks.emplace_back([&ran, k] {
      ++ran[k];
      // Task 2 fails last, task 9 at once: the failure rethrown is still task 2's.
      if (k == 2) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        throw std::runtime_error("task 2");
      }
      if (k == 9) throw std::runtime_error("task 9");
    });
  }
  try {
    run_all(tasks);
    FAIL() << "run_all returned although two tasks threw";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "task 2");
  }
  for (std::size_t k = 0; k < ran.size(); ++k) EXPECT_EQ(ran[k], 1) << k;
}

TEST(HostThreads, RunAllReturnsWhenNoTaskThrows) {
  std::atomic<int> ran{0};
  run_all(std::vector<std::function<void()>>(5, [&ran] { ++ran; }));
  EXPECT_EQ(ran.load(), 5);
  run_all({});
}

}  // namespace
