// SPDX-License-Identifier: GPL-3.0-or-later
// The worker's own kernels, queued on the context's stream so that they sit
// between two timed launches without a host round trip:
//  - output fills: a repeated poison pattern, or random finite values of the
//    tensor's dtype from a counter-based RNG (a new seed for every launch, so
//    a kernel never sees the values an earlier launch left);
//  - the L2 flush before every timed launch: a read of twice the L2;
//  - the scrubs of shared and local memory before every launch of a
//    candidate or a reference, checked, timed or profiled (leftover_scrub.h):
//    both outlive a kernel, and a kernel could otherwise keep results there
//    for its next launch;
//  - an order-independent, keyed 64-bit hash of a buffer: the watches of
//    the harness's and the driver's memory, and a timed launch's inputs
//    against the same draw again, without downloading them;
//  - masked copies, element-wise comparisons (count and first index) and
//    checkOutput's whole pass over an output against the oracle's fp64
//    reference, so validation compares on the device and downloads only a
//    few words (the host compare of a 33.5M-element output read a 268 MB
//    reference per launch and took as long as timing the candidate).
// They are compiled once with NVRTC for the GPU at hand; candidate code never
// shares their module.
#pragma once
#include <cuda.h>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/launch_plan.h"
#include "backends/cuda/worker/output_check.h"
#include "core/engine/interfaces.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {

class KernelModule;

class HarnessKernels {
public:
  // Compiles the kernels for `arch`; throws std::runtime_error with the
  // compiler's log if they do not compile (a worker bug).
  HarnessKernels(Compiler& compiler, const std::string& arch);  // keeps `compiler` for the local scrubs
  ~HarnessKernels();

  // Queues a fill of `count` elements of `dtype` at `data` on `stream`.
  void fill(CUdeviceptr data, DType dtype, std::int64_t count, const FillChoice& choice, CUstream stream) const;
  // Queues a draw of `count` elements of `dtype` from `dist` at `data`: the
  // values fillRandom(t, dist, seed, stream) gives on the host (bit for bit
  // but for the float normal's last bit). Throws std::invalid_argument for a
  // distribution that cannot be drawn. Validation draws its inputs here: a
  // host draw of 64M normals took ~0.1 s of every trial.
  void draw(CUdeviceptr data, DType dtype, std::int64_t count, const Distribution& dist, std::uint64_t seed,
            std::uint64_t stream, CUstream s) const;
  // The hash of `count` elements of `width` bytes at `data` (waits for the
  // stream), keyed with a key this object drew from the system's entropy and
  // never puts where a kernel can read it: a kernel that changed a buffer
  // cannot fix one word so that the buffer still hashes the same.
  std::uint64_t hash(CUdeviceptr data, int width, std::int64_t count, CUstream stream) const;
  // The same over `bytes` bytes, in words of hashWordWidth(data, bytes).
  std::uint64_t hashBytes(CUdeviceptr data, std::size_t bytes, CUstream stream) const;
  std::uint64_t hashKeyForTests() const { return hashKey_; }

  // Where the parameters of `launches` consecutive launches on `stream` lay
  // (the generic address of the first; waits for the stream): the driver's
  // ring of launch-parameter slots (parameter_ring.h).
  std::vector<std::uint64_t> parameterAddresses(int launches, CUstream stream) const;
  // The largest parameter block of the harness's kernels (the driver writes
  // that much of a slot at their launches).
  std::size_t largestParameterBlock() const { return largestParameterBlock_; }

  // Queues a read of `bytes` (a multiple of 16) at `data` by every SM, the
  // data thrown away: the L2 flush (L2Flusher), which leaves L2 clean. Sets
  // the 32-bit word at `nonZeroFlag` (when given) to 1 if a word read is not 0.
  void readThrough(CUdeviceptr data, std::size_t bytes, int smCount, CUstream stream,
                   CUdeviceptr nonZeroFlag = 0) const;

  // Queues the overwrite of all of every SM's shared memory with values
  // from a new seed (one block an SM at the opt-in maximum), so that nothing
  // a kernel left in shared memory reaches a later launch.
  void scrubSharedMemory(const DeviceInfo& device, CUstream stream) const;
  // Queues the overwrite of the top `bytesPerThread` of every thread slot's
  // local memory (a full-occupancy grid whose frame is that size: frames and
  // stacks sit at the top of a slot's window), so that no kernel whose frame
  // or stack fits in it finds what an earlier launch left there. Compiles a
  // scrub of that frame the first time (a multiple of 256 bytes; 0: nothing).
  void scrubLocalMemory(const DeviceInfo& device, std::size_t bytesPerThread, CUstream stream) const;
  // Queues the clearing of the words the harness's own kernels leave their
  // results in (a hash, a count, a tally): small, but enough to carry a
  // scalar output from one launch to the next.
  void clearResults(CUstream stream) const;
  // The rest of the whole page the result words lie in (DeviceBuffer::wholePages):
  // zero, written by no kernel of the harness.
  CUdeviceptr resultPageTail() const { return result_.get() + result_.size(); }
  std::size_t resultPageTailBytes() const { return result_.extent() - result_.size(); }

  // Queues a copy of `count` elements of `width` bytes (1, 2, 4 or 8) from
  // `src` to `dst`, each XORed with the low bytes of maskBits(key, i): what a
  // candidate must not find in device memory is kept this way.
  void maskedCopy(CUdeviceptr dst, CUdeviceptr src, int width, std::int64_t count, std::uint64_t key,
                  CUstream stream) const;
  // The elements of `width` bytes at which `a` and `b` differ (b unmasked
  // with `key` first when `bMasked`): how many and the first (waits for the stream).
  BitwiseDiff compareElements(CUdeviceptr a, CUdeviceptr b, int width, std::int64_t count, bool bMasked,
                              std::uint64_t key, CUstream stream) const;
  // The elements of the `count` doubles at `data` that are NaN or infinite:
  // how many and the first (waits for the stream). The oracle's outputs are
  // checked so on the device (checkReference's verdict, no download).
  BitwiseDiff countNonFinite(CUdeviceptr data, std::int64_t count, CUstream stream) const;
  // checkOutput's pass over `count` elements of `dtype` at `output` against
  // the reference at `maskedReference` (fp64, masked with `key` by
  // maskedCopy), with the output's `poison` and `tol`: the tally the host
  // pass computes from the same bytes, bit for bit (waits for the stream).
  OutputTally tallyOutput(CUdeviceptr output, DType dtype, std::int64_t count, CUdeviceptr maskedReference,
                          std::uint64_t key, const Tolerance& tol, const std::vector<std::byte>& poison,
                          CUstream stream) const;

  // The CUDA C++ source of the kernels (compiled by tests without a GPU).
  static const char* source();
  // The local-memory scrub with a frame of `frameBytes` (a multiple of 256).
  static std::string localScrubSource(std::size_t frameBytes);

private:
  std::unique_ptr<KernelModule> pattern_, random_, hash_, draw_, maskedCopy_, compare_, nonFinite_, tally_, read_, scrub_,
      where_;
  std::size_t largestParameterBlock_ = 0;
  mutable DeviceBuffer addresses_;  // parameterAddresses' results
  std::uint64_t scrubKey_ = 0;                  // from the system's entropy: the scrub's values are not predictable
  std::uint64_t hashKey_ = 0;                   // from the system's entropy: see hash()
  mutable std::uint64_t scrubs_ = 0;
  std::uint64_t nextScrubSeed() const;
  // Launches `kernel` (whose last parameter is the result words) over `count`
  // elements after clearing the result to (0, no index), waits, and returns
  // the count and the least index it found; `what` names the step in errors.
  BitwiseDiff countAndFirst(const KernelModule& kernel, std::int64_t count, void** params, const char* what,
                            CUstream stream) const;          // a new seed for every scrub, from scrubKey_
  mutable unsigned scrubPreparedBytes_ = 0;     // the dynamic shared memory the scrub's function was raised to
  Compiler& compiler_;
  std::string arch_;
  mutable std::map<std::size_t, std::unique_ptr<KernelModule>> localScrubs_;  // by frame bytes
  DeviceBuffer result_;   // the results: a 64-bit word, a pair of them, or a tally
};

// The bits of element `i` of a RandomFinite fill, exactly as the device
// computes them (host mirror for tests): a finite value of magnitude in
// [2^-4, 2^4) with a random sign and mantissa for floating dtypes, any value
// for integers. Returned in the low sizeOf(dtype) bytes.
std::uint64_t randomFiniteBits(DType dtype, std::uint64_t seed, std::uint64_t i);

// The mask maskedCopy XORs element i with (its low bytes for narrower elements).
std::uint64_t maskBits(std::uint64_t key, std::uint64_t i);

// The hash the device computes, on the host (tests): the wrapping sum over
// elements of mix64((element bits XOR key) + (i + 1) * golden ratio).
std::uint64_t hostHash(const void* data, int width, std::int64_t count, std::uint64_t key = 0);

// The widest word (8, 4 or 1 bytes) that divides both the address and the
// size: a region that starts past a 4-byte variable is hashed in 4-byte words
// (an 8-byte load there is a misaligned-address fault, which ends the context).
int hashWordWidth(CUdeviceptr data, std::size_t bytes);

}  // namespace crucible::cuda
