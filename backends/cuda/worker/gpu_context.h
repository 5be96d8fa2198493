// SPDX-License-Identifier: GPL-3.0-or-later
// One GPU as the worker uses it: its primary context, one stream, the device
// attributes validation and timing need, and a wait with a deadline (a hung
// kernel must not hang the worker silently).
#pragma once
#include <cuda.h>
#include <atomic>
#include <cstddef>
#include <string>
#include <utility>

namespace crucible::cuda {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int l2Bytes = 0;
  int maxSmemPerBlockOptin = 0;   // bytes a block may get after raising its dynamic limit
  int maxSmemPerSm = 0;           // an SM's shared memory at its largest carveout
  int reservedSmemPerBlock = 0;   // shared memory the system keeps for each resident block
  int maxThreadsPerBlock = 0;
  int maxThreadsPerSm = 0;        // resident threads an SM holds (2048 on Hopper): the local-memory slots
  int clockRateKHz = 0;           // the device's nominal peak SM clock
  int memClockRateKHz = 0;
  std::string pciBusId;
  std::size_t totalMemory = 0;
  int driverCudaVersion = 0;      // e.g. 13000
  std::string arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
};

enum class WaitOutcome { Done, Failed, TimedOut };
struct WaitResult {
  WaitOutcome outcome = WaitOutcome::Done;
  CUresult error = CUDA_SUCCESS;
};

class GpuContext {
public:
  // Loads the driver, initialises it and retains the device's primary context.
  // Throws DriverError with a clear sentence when there is no driver or GPU.
  explicit GpuContext(int ordinal);
  ~GpuContext();
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  const DeviceInfo& info() const { return info_; }
  CUcontext context() const { return ctx_; }
  CUstream stream() const { return stream_; }
  CUdevice device() const { return dev_; }
  void makeCurrent() const;

  // Waits for all work queued on the stream, polling, for at most
  // `timeoutSeconds`. A kernel still running then is reported TimedOut: it
  // cannot be stopped, so the context is marked lost.
  WaitResult wait(double timeoutSeconds);

  // After a sticky error (illegal address, trap...) or a hung kernel, nothing
  // more can run in this process: the worker replies, then exits.
  bool lost() const { return lost_; }
  const std::string& lostReason() const { return lostReason_; }
  void markLost(const std::string& why);
  // The context's per-thread stack limit as it was when the worker started,
  // and a way back to it (a candidate's launch may raise it for good).
  std::size_t initialStackBytes() const { return initialStack_; }
  // Returns the stack limit found before restoring it (== initial when unchanged).
  std::size_t restoreStackLimit();
  // The device printf FIFO every kernel of this context shares; a kernel's
  // printf output beyond it is dropped by the driver.
  static constexpr std::size_t kPrintfFifoBytes = 64 * 1024;

  // True if the context still answers (used after an error to tell a sticky
  // one from a launch that was merely refused).
  bool stillUsable();

private:
  DeviceInfo info_;
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  CUstream stream_ = nullptr;
  std::size_t initialStack_ = 0;
  std::atomic<bool> lost_{false};  // read by the worker's reply relay thread
  std::string lostReason_;
};

// A device allocation, freed on destruction (errors ignored then: after a
// fault the context refuses frees and the process is about to exit anyway).
//
// DeviceBuffer(bytes) is cuMemAlloc's: exactly `bytes` as far as the driver
// and compute-sanitizer know, in pages the driver may share with other
// allocations (the sanitizer's runs want that exactness).
//
// wholePages(bytes) is for the harness's own memory in the evaluating
// process: mapped through the virtual memory API in whole pages of the
// device's allocation granularity (2 MiB on Hopper) that hold nothing else,
// the end of the last page zeroed. A kernel can write anywhere it can
// address without a fault, and cuMemAlloc packs small allocations into
// shared pages: the end of a page behind a harness buffer would otherwise be
// memory nobody owns, watches or resets. extent() is all of it.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  static DeviceBuffer wholePages(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  CUdeviceptr get() const { return ptr_; }
  std::size_t size() const { return bytes_; }
  // The bytes mapped for this buffer alone: size() for a cuMemAlloc buffer,
  // whole pages for wholePages.
  std::size_t extent() const { return extent_; }
private:
  void release() noexcept;
  CUdeviceptr ptr_ = 0;
  std::size_t bytes_ = 0;
  std::size_t extent_ = 0;
  bool mapped_ = false;  // wholePages: unmapped and its address range freed, not cuMemFree'd
};

// The device's allocation granularity for wholePages (the current context's device).
std::size_t devicePageBytes();
// `bytes` rounded up to whole pages of `page` bytes (at least one page).
std::size_t wholePagesFor(std::size_t bytes, std::size_t page);

// A device event pair for one timed region.
class EventPair {
public:
  EventPair();
  ~EventPair();
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  void recordStart(CUstream s);
  void recordStop(CUstream s);
  double elapsedMs() const;  // after the stop event completed
private:
  CUevent start_ = nullptr, stop_ = nullptr;
};

}  // namespace crucible::cuda
