// SPDX-License-Identifier: GPL-3.0-or-later
// Splits element-wise host work (drawing inputs, checking outputs) over the
// machine's cores with std::thread. Work is cut into contiguous chunks that
// the caller merges in chunk order, so every result (first failing index,
// counts, maxima) is the same whatever the thread count.
#pragma once
#include <cstdint>
#include <functional>

namespace crucible::cuda {

// Threads used for host work: setHostThreads(n) if n > 0 was called, else
// std::thread::hardware_concurrency() (at least 1).
int hostThreads();
// 0 restores the default. For tests and benchmarks: results never depend on it.
void setHostThreads(int n);

// How many chunks `count` elements are cut into: one per thread, but never
// chunks smaller than `minPerChunk` (below that, starting a thread costs more
// than it saves), and at least one.
int chunkCountFor(std::int64_t count, std::int64_t minPerChunk = 1 << 16);

// Runs body(chunk, begin, end) for chunk = 0..chunks-1 over [0, count), chunk c
// covering [count*c/chunks, count*(c+1)/chunks), each on its own thread (the
// last on the calling thread). Rethrows the first chunk's exception, if any,
// after every chunk has finished.
void runChunks(std::int64_t count, int chunks,
               const std::function<void(int chunk, std::int64_t begin, std::int64_t end)>& body);

}  // namespace crucible::cuda
