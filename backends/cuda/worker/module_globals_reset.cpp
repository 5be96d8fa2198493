// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/module_globals_reset.h"
#include "backends/cuda/worker/cubin_globals.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"

namespace crucible::cuda {

ModuleGlobalsReset::ModuleGlobalsReset(CUmodule module, const std::string& cubin) {
  std::vector<CubinGlobal> globals;
  try {
    globals = writableGlobals(cubin);
  } catch (const CubinFormatError& e) {
    throw KernelFailure(CandidateStatus::CompileFailed, std::string("cannot read the kernel's binary: ") + e.what());
  }
  const DriverApi& d = driver();
  std::uint64_t total = 0;
  for (const CubinGlobal& g : globals) {
    Entry e;
    CUresult rc = d.cuModuleGetGlobal(&e.where, &e.bytes, module, g.name.c_str());
    if (rc != CUDA_SUCCESS)
      throw KernelFailure(CandidateStatus::Invalid,
                          "the module-scope variable '" + g.name + "' cannot be reset between launches (" +
                              describe(rc) + "); state that outlives a launch is not allowed");
    total += e.bytes;
    if (total > kMaxBytes)
      throw KernelFailure(CandidateStatus::Invalid, "module-scope variables of more than " +
                                                        std::to_string(kMaxBytes >> 20) +
                                                        " MiB (they are reset before every launch)");
    if (g.initialised && e.bytes > 0) {
      e.initial.resize(e.bytes);
      check(d.cuMemcpyDtoH(e.initial.data(), e.where, e.bytes), "keeping a module variable's load-time contents");
    }
    entries_.push_back(std::move(e));
  }
}

void refuseDeviceHeap(const std::string& cubin) {
  std::vector<std::string> calls;
  try {
    calls = deviceHeapCalls(cubin);
  } catch (const CubinFormatError& e) {
    throw KernelFailure(CandidateStatus::CompileFailed, std::string("cannot read the kernel's binary: ") + e.what());
  }
  if (calls.empty()) return;
  throw KernelFailure(CandidateStatus::Invalid,
                      "the kernel calls '" + calls.front() +
                          "' (the device heap): a block one launch allocates outlives it and cannot be reset, so "
                          "results could pass from one launch to the next there; use shared memory, registers or a "
                          "__device__ array (reset before every launch) for scratch");
}

std::vector<DeviceSpan> ModuleGlobalsReset::spans() const {
  std::vector<DeviceSpan> out;
  for (const Entry& e : entries_) out.push_back({e.where, e.bytes});
  return out;
}

void ModuleGlobalsReset::restore(CUstream stream) const {
  const DriverApi& d = driver();
  for (const Entry& e : entries_) {
    if (e.bytes == 0) continue;
    if (e.initial.empty())
      check(d.cuMemsetD8Async(e.where, 0, e.bytes, stream), "clearing a module variable");
    else
      check(d.cuMemcpyHtoDAsync(e.where, e.initial.data(), e.bytes, stream), "resetting a module variable");
  }
}

}  // namespace crucible::cuda
