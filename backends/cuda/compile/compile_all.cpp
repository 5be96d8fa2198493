// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/compile_all.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace crucible {

std::vector<CompileResult> compileAll(Compiler& compiler, const std::vector<CompileRequest>& requests, int threads) {
  std::vector<CompileResult> results(requests.size());
  if (requests.empty()) return results;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, static_cast<int>(requests.size()));

  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < requests.size(); i = next++) {
      try {
        results[i] = compiler.compile(requests[i]);
      } catch (const std::exception& e) {
        results[i] = CompileResult{};
        results[i].report.diagnostics.push_back({0, 0, "error", std::string("compiler failed: ") + e.what()});
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();  // the calling thread takes its share
  }
  return results;
}

}  // namespace crucible
