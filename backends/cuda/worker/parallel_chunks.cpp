// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/parallel_chunks.h"
#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace crucible::cuda {
namespace {
std::atomic<int> forcedThreads{0};
}

int hostThreads() {
  if (const int n = forcedThreads.load(); n > 0) return n;
  return std::max(1u, std::thread::hardware_concurrency());
}

void setHostThreads(int n) { forcedThreads.store(std::max(n, 0)); }

int chunkCountFor(std::int64_t count, std::int64_t minPerChunk) {
  const std::int64_t bySize = count / std::max<std::int64_t>(minPerChunk, 1);
  return static_cast<int>(std::clamp<std::int64_t>(bySize, 1, hostThreads()));
}

void runChunks(std::int64_t count, int chunks,
               const std::function<void(int chunk, std::int64_t begin, std::int64_t end)>& body) {
  chunks = std::max(chunks, 1);
  auto begin = [&](int c) { return count * c / chunks; };
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(chunks));
  auto guarded = [&](int c) {
    try {
      body(c, begin(c), begin(c + 1));
    } catch (...) {
      errors[static_cast<std::size_t>(c)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(chunks - 1));
  for (int c = 0; c + 1 < chunks; ++c) threads.emplace_back(guarded, c);
  guarded(chunks - 1);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace crucible::cuda
