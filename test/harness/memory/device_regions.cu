#include "harness/memory/device_regions.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>

namespace harness {
namespace {

constexpr unsigned kBlock = 256;
// Regions are cut into pieces of at most this many words, one block each: a 2^24-element
// segment then spreads over the whole GPU, as thousands of short ones do.
constexpr std::size_t kPieceWords = std::size_t(1) << 14;

template <class Word>
__global__ void fill_kernel(Word* destination, std::size_t count, Word pattern) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    destination[i] = pattern;
  }
}

template <class Word>
__global__ void copy_kernel(Word* destination, const Word* source, const RegionCopy* pieces) {
  const RegionCopy piece = pieces[blockIdx.x];
  for (std::size_t i = threadIdx.x; i < piece.count; i += blockDim.x) {
    destination[piece.to + i] = source[piece.from + i];
  }
}

// changed[b] = 1 when a word of piece b differs from the pattern.
template <class Word>
__global__ void hold_kernel(const Word* base, const Region* pieces, Word pattern, unsigned char* changed) {
  const Region piece = pieces[blockIdx.x];
  bool found = false;
  for (std::size_t i = threadIdx.x; i < piece.count; i += blockDim.x) found |= base[piece.begin + i] != pattern;
  if (__syncthreads_or(found) && threadIdx.x == 0) changed[blockIdx.x] = 1;
}

template <class F>
void by_word(std::size_t word_bytes, F&& launch) {
  switch (word_bytes) {
    case 1: launch(std::uint8_t{}); break;
    case 2: launch(std::uint16_t{}); break;
    case 4: launch(std::uint32_t{}); break;
    case 8: launch(std::uint64_t{}); break;
    default: throw std::logic_error("device regions: words of 1, 2, 4 or 8 bytes, not " + std::to_string(word_bytes));
  }
  kernels::check_cuda(cudaGetLastError(), "device regions: kernel launch");
}

}  // namespace

void fill_words_on_device(void* destination, std::size_t count, std::size_t word_bytes, std::uint64_t pattern) {
  if (count == 0) return;
  const auto grid = static_cast<unsigned>(std::clamp<std::size_t>((count + kBlock - 1) / kBlock, 1, 4096));
  by_word(word_bytes, [&](auto word) {
    using Word = decltype(word);
    fill_kernel<<<grid, kBlock, 0, test_stream()>>>(static_cast<Word*>(destination), count, static_cast<Word>(pattern));
  });
}

void copy_regions_on_device(void* destination, const void* source, const std::vector<RegionCopy>& copies,
                            std::size_t word_bytes) {
  std::vector<RegionCopy> pieces;
  for (const RegionCopy& copy : copies) {
    for (std::size_t done = 0; done < copy.count; done += kPieceWords) {
      pieces.push_back({copy.from + done, copy.to + done, std::min(kPieceWords, copy.count - done)});
    }
  }
  if (pieces.empty()) return;
  const DeviceBuffer<RegionCopy> device_pieces{std::span<const RegionCopy>(pieces)};
  by_word(word_bytes, [&](auto word) {
    using Word = decltype(word);
    copy_kernel<<<static_cast<unsigned>(pieces.size()), kBlock, 0, test_stream()>>>(
        static_cast<Word*>(destination), static_cast<const Word*>(source), device_pieces.data());
  });
}

std::vector<bool> regions_hold_on_device(const void* base, const std::vector<Region>& regions, std::size_t word_bytes,
                                         std::uint64_t pattern) {
  std::vector<Region> pieces;
  std::vector<std::size_t> region_of_piece;
  for (std::size_t k = 0; k < regions.size(); ++k) {
    for (std::size_t done = 0; done < regions[k].count; done += kPieceWords) {
      pieces.push_back({regions[k].begin + done, std::min(kPieceWords, regions[k].count - done)});
      region_of_piece.push_back(k);
    }
  }
  std::vector<bool> hold(regions.size(), true);
  if (pieces.empty()) return hold;
  const DeviceBuffer<Region> device_pieces{std::span<const Region>(pieces)};
  DeviceBuffer<unsigned char> changed(pieces.size());
  changed.fill_bytes(0);
  by_word(word_bytes, [&](auto word) {
    using Word = decltype(word);
    hold_kernel<<<static_cast<unsigned>(pieces.size()), kBlock, 0, test_stream()>>>(
        static_cast<const Word*>(base), device_pieces.data(), static_cast<Word>(pattern), changed.data());
  });
  const std::vector<unsigned char> flags = changed.download();
  for (std::size_t p = 0; p < flags.size(); ++p) {
    if (flags[p] != 0) hold[region_of_piece[p]] = false;
  }
  return hold;
}

}  // namespace harness
