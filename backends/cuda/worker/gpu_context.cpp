// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/gpu_context.h"
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include "backends/cuda/worker/driver_api.h"

namespace crucible::cuda {

GpuContext::GpuContext(int ordinal) {
  const DriverApi& d = driver();
  check(d.cuInit(0), "cuInit");
  int count = 0;
  check(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0) throw DriverError(CUDA_ERROR_NO_DEVICE, "the CUDA driver is present but sees no GPU");
  if (ordinal < 0 || ordinal >= count)
    throw DriverError(CUDA_ERROR_INVALID_DEVICE, "GPU ordinal " + std::to_string(ordinal) + " does not exist (" +
                                                     std::to_string(count) + " GPU(s) present)");
  check(d.cuDeviceGet(&dev_, ordinal), "cuDeviceGet");
  info_.ordinal = ordinal;
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof name, dev_), "cuDeviceGetName");
  info_.name = name;
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    check(d.cuDeviceGetAttribute(&v, a, dev_), "cuDeviceGetAttribute");
    return v;
  };
  info_.ccMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info_.ccMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info_.smCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info_.l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  info_.maxSmemPerBlockOptin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info_.maxSmemPerSm = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  info_.reservedSmemPerBlock = attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  info_.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  info_.maxThreadsPerSm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  info_.clockRateKHz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  info_.memClockRateKHz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  char bus[64] = {};
  check(d.cuDeviceGetPCIBusId(bus, sizeof bus, dev_), "cuDeviceGetPCIBusId");
  info_.pciBusId = bus;
  check(d.cuDeviceTotalMem(&info_.totalMemory, dev_), "cuDeviceTotalMem");
  check(d.cuDriverGetVersion(&info_.driverCudaVersion), "cuDriverGetVersion");
  check(d.cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  makeCurrent();
  // A blocking stream: it orders after the legacy stream that the synchronous
  // copies and memsets use, so a launch never overtakes the poison or inputs.
  check(d.cuStreamCreate(&stream_, CU_STREAM_DEFAULT), "cuStreamCreate");
  // Before any module is loaded: the FIFO size cannot change after a kernel
  // that prints has run.
  check(d.cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, kPrintfFifoBytes), "limiting the device printf buffer");
  check(d.cuCtxGetLimit(&initialStack_, CU_LIMIT_STACK_SIZE), "reading the stack limit");
}

std::size_t GpuContext::restoreStackLimit() {
  if (lost_) return initialStack_;
  const DriverApi& d = driver();
  std::size_t now = 0;
  check(d.cuCtxGetLimit(&now, CU_LIMIT_STACK_SIZE), "reading the stack limit");
  if (now != initialStack_) check(d.cuCtxSetLimit(CU_LIMIT_STACK_SIZE, initialStack_), "restoring the stack limit");
  return now;
}

GpuContext::~GpuContext() {
  const DriverApi& d = driver();
  if (!lost_ && !contextLost()) {
    if (stream_) d.cuStreamDestroy(stream_);
    d.cuDevicePrimaryCtxRelease(dev_);
  }
}

void GpuContext::makeCurrent() const { check(driver().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }

WaitResult GpuContext::wait(double timeoutSeconds) {
  const DriverApi& d = driver();
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutSeconds);
  auto pause = std::chrono::microseconds(5);
  for (;;) {
    CUresult rc = d.cuStreamQuery(stream_);
    if (rc == CUDA_SUCCESS) return {};
    if (rc != CUDA_ERROR_NOT_READY) return {WaitOutcome::Failed, rc};
    if (Clock::now() >= deadline) {
      markLost("a kernel was still running after " + std::to_string(timeoutSeconds) + " s and cannot be stopped");
      return {WaitOutcome::TimedOut, CUDA_ERROR_NOT_READY};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

void GpuContext::markLost(const std::string& why) {
  if (!lost_) lostReason_ = why;
  lost_ = true;
  markContextLost();
}

bool GpuContext::stillUsable() {
  if (lost_) return false;
  CUresult rc = driver().cuCtxSynchronize(nullptr);  // null: the current context
  if (rc != CUDA_SUCCESS) {
    markLost("the CUDA context is unusable after " + describe(rc));
    return false;
  }
  return true;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes), extent_(bytes) {
  if (bytes == 0) return;
  CUresult rc = driver().cuMemAlloc(&ptr_, bytes);
  if (rc != CUDA_SUCCESS)
    throw DriverError(rc, "allocating " + std::to_string(bytes) + " bytes on the GPU failed: " + describe(rc));
}

namespace {
CUmemAllocationProp devicePages() {
  CUdevice dev = 0;
  check(driver().cuCtxGetDevice(&dev, nullptr), "finding the current context's device");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  return prop;
}

std::size_t granularityOf(const CUmemAllocationProp& prop) {
  std::size_t page = 0;
  check(driver().cuMemGetAllocationGranularity(&page, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "reading the device's allocation granularity");
  return page;
}
}  // namespace

std::size_t devicePageBytes() { return granularityOf(devicePages()); }

std::size_t wholePagesFor(std::size_t bytes, std::size_t page) {
  if (page == 0) throw std::logic_error("wholePagesFor: a page of 0 bytes");
  return std::max<std::size_t>(1, (bytes + page - 1) / page) * page;
}

DeviceBuffer DeviceBuffer::wholePages(std::size_t bytes) {
  const DriverApi& d = driver();
  const CUmemAllocationProp prop = devicePages();
  const std::size_t page = granularityOf(prop);
  DeviceBuffer b;
  b.bytes_ = bytes;
  b.extent_ = wholePagesFor(bytes, page);
  auto fail = [&](CUresult rc, const char* step) {
    return DriverError(rc, "allocating " + std::to_string(b.extent_) + " bytes of whole pages on the GPU failed (" +
                               step + "): " + describe(rc));
  };
  CUmemGenericAllocationHandle handle{};
  if (CUresult rc = d.cuMemCreate(&handle, b.extent_, &prop, 0); rc != CUDA_SUCCESS) throw fail(rc, "cuMemCreate");
  CUresult rc = d.cuMemAddressReserve(&b.ptr_, b.extent_, page, 0, 0);
  if (rc != CUDA_SUCCESS) {
    d.cuMemRelease(handle);
    b.ptr_ = 0;
    throw fail(rc, "cuMemAddressReserve");
  }
  rc = d.cuMemMap(b.ptr_, b.extent_, 0, handle, 0);
  // The mapping holds the memory from here on; the handle is not needed to unmap it.
  d.cuMemRelease(handle);
  if (rc != CUDA_SUCCESS) {
    d.cuMemAddressFree(b.ptr_, b.extent_);
    b.ptr_ = 0;
    throw fail(rc, "cuMemMap");
  }
  b.mapped_ = true;  // from here the destructor unmaps and frees the range
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (CUresult a = d.cuMemSetAccess(b.ptr_, b.extent_, &access, 1); a != CUDA_SUCCESS) throw fail(a, "cuMemSetAccess");
  // Fresh pages hold whatever they held: the part past `bytes` starts known.
  if (b.extent_ > bytes) check(d.cuMemsetD8(b.ptr_ + bytes, 0, b.extent_ - bytes), "clearing the end of a page");
  return b;
}

void DeviceBuffer::release() noexcept {
  if (!ptr_ || contextLost()) return;
  const DriverApi& d = driver();
  if (mapped_) {
    d.cuMemUnmap(ptr_, extent_);
    d.cuMemAddressFree(ptr_, extent_);
  } else {
    d.cuMemFree(ptr_);
  }
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    extent_ = o.extent_;
    mapped_ = o.mapped_;
    o.ptr_ = 0;
    o.bytes_ = o.extent_ = 0;
    o.mapped_ = false;
  }
  return *this;
}

EventPair::EventPair() {
  const DriverApi& d = driver();
  check(d.cuEventCreate(&start_, CU_EVENT_DEFAULT), "cuEventCreate");
  check(d.cuEventCreate(&stop_, CU_EVENT_DEFAULT), "cuEventCreate");
}

EventPair::~EventPair() {
  if (contextLost()) return;
  const DriverApi& d = driver();
  if (start_) d.cuEventDestroy(start_);
  if (stop_) d.cuEventDestroy(stop_);
}

void EventPair::recordStart(CUstream s) { check(driver().cuEventRecord(start_, s), "cuEventRecord"); }
void EventPair::recordStop(CUstream s) { check(driver().cuEventRecord(stop_, s), "cuEventRecord"); }

double EventPair::elapsedMs() const {
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
  return ms;
}

}  // namespace crucible::cuda
