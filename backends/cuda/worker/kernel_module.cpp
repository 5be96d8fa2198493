// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/kernel_module.h"
#include <algorithm>
#include <limits>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/shared_carveout.h"
#include "core/task/expression.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {
namespace {
unsigned dimension(const std::string& what, const std::string& expr, const std::map<std::string, std::int64_t>& names,
                   std::int64_t lo, std::int64_t hi) {
  // A value that depends on the GPU says on which SM count it was computed.
  const auto atSmCount = [&] {
    return usesSmCount(expr) ? " (sm_count = " + std::to_string(names.at(kSmCountName)) + ")" : std::string();
  };
  std::int64_t v = 0;
  try {
    v = evalExpression(expr, names);
  } catch (const std::exception& e) {
    throw KernelFailure(CandidateStatus::ResourceError, "launch rule " + what + " '" + expr + "': " + e.what());
  }
  if (v < lo || v > hi)
    throw KernelFailure(CandidateStatus::ResourceError, "launch rule " + what + " '" + expr + "' = " +
                                                            std::to_string(v) + atSmCount() + ", outside [" +
                                                            std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<unsigned>(v);
}
}  // namespace

std::string LaunchGeometry::describe() const {
  auto triple = [](const unsigned* v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  };
  return "grid " + triple(grid) + " block " + triple(block) + " smem " + std::to_string(dynamicSmemBytes) + " B";
}

LaunchGeometry resolveGeometry(const LaunchRule& rule, const std::map<std::string, std::int64_t>& axes, int smCount) {
  // A GPU always has SMs: a count below 1 means the device's attributes were not read.
  if (smCount < 1 && usesSmCount(rule))
    throw KernelFailure(CandidateStatus::ResourceError, "launch rule uses sm_count, but the GPU's SM count (" +
                                                            std::to_string(smCount) + ") is not known");
  std::map<std::string, std::int64_t> names;
  try {
    names = launchNames(axes, std::max(smCount, 0));
  } catch (const std::invalid_argument& e) {
    throw KernelFailure(CandidateStatus::ResourceError, std::string("launch rule: ") + e.what());
  }
  LaunchGeometry g;
  const char* dims[3] = {"x", "y", "z"};
  const std::int64_t gridMax[3] = {std::numeric_limits<std::int32_t>::max(), 65535, 65535};
  const std::int64_t blockMax[3] = {1024, 1024, 64};
  for (int i = 0; i < 3; ++i) {
    g.grid[i] = dimension(std::string("grid.") + dims[i], rule.grid[i], names, 1, gridMax[i]);
    g.block[i] = dimension(std::string("block.") + dims[i], rule.block[i], names, 1, blockMax[i]);
  }
  g.dynamicSmemBytes = dimension("dynamic shared memory", rule.dynamicSmemBytes.empty() ? "0" : rule.dynamicSmemBytes,
                                 names, 0, std::numeric_limits<std::int32_t>::max());
  if (g.threadsPerBlock() > 1024)
    throw KernelFailure(CandidateStatus::ResourceError,
                        "launch rule asks for " + std::to_string(g.threadsPerBlock()) + " threads per block (max 1024)");
  return g;
}

KernelModule::KernelModule(const std::string& cubin, const std::string& entry) : entry_(entry) {
  const DriverApi& d = driver();
  if (cubin.empty()) throw KernelFailure(CandidateStatus::CompileFailed, "no binary to load for '" + entry + "'");
  CUresult rc = d.cuModuleLoadData(&module_, cubin.data());
  if (rc != CUDA_SUCCESS) {
    module_ = nullptr;
    throw KernelFailure(statusForError(rc) == CandidateStatus::Faulted ? CandidateStatus::Faulted
                                                                       : CandidateStatus::CompileFailed,
                        explainError("loading the binary of '" + entry + "'", rc));
  }
  rc = d.cuModuleGetFunction(&fn_, module_, entry.c_str());
  if (rc != CUDA_SUCCESS) {
    d.cuModuleUnload(module_);
    module_ = nullptr;
    throw KernelFailure(CandidateStatus::CompileFailed, explainError("finding kernel '" + entry + "'", rc));
  }
}

KernelModule::~KernelModule() {
  if (module_ && !contextLost()) driver().cuModuleUnload(module_);
}

int KernelModule::attribute(CUfunction_attribute a) const {
  int v = 0;
  check(driver().cuFuncGetAttribute(&v, a, fn_), "cuFuncGetAttribute");
  return v;
}

void KernelModule::prepare(const LaunchGeometry& g, const DeviceInfo& device, const CarveoutPreference& carveout) {
  const int maxThreads = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  if (g.threadsPerBlock() > maxThreads)
    throw KernelFailure(CandidateStatus::ResourceError,
                        "'" + entry_ + "' can run at most " + std::to_string(maxThreads) + " threads per block with " +
                            std::to_string(attribute(CU_FUNC_ATTRIBUTE_NUM_REGS)) + " registers per thread; the launch asks for " +
                            std::to_string(g.threadsPerBlock()));
  const int staticSmem = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  if (static_cast<std::int64_t>(g.dynamicSmemBytes) + staticSmem > device.maxSmemPerBlockOptin)
    throw KernelFailure(CandidateStatus::ResourceError,
                        "'" + entry_ + "' needs " + std::to_string(g.dynamicSmemBytes) + " B dynamic + " +
                            std::to_string(staticSmem) + " B static shared memory; a block may have at most " +
                            std::to_string(device.maxSmemPerBlockOptin) + " B on " + device.name);
  // Past 48 KiB of static and dynamic together a block needs the opt-in, whichever part crosses it
  // (a kernel with 48 KiB of dynamic and a few hundred bytes of static failed to launch without it).
  constexpr std::int64_t kSmemWithoutOptIn = 48 * 1024;
  if (static_cast<std::int64_t>(g.dynamicSmemBytes) + staticSmem > kSmemWithoutOptIn) {
    CUresult rc = driver().cuFuncSetAttribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              static_cast<int>(g.dynamicSmemBytes));
    if (rc != CUDA_SUCCESS)
      throw KernelFailure(CandidateStatus::ResourceError,
                          explainError("raising the dynamic shared-memory limit of '" + entry_ + "' to " +
                                           std::to_string(g.dynamicSmemBytes) + " B",
                                       rc));
  }
  if (carveout.kind != CarveoutPreference::Kind::Unset) setCarveout(g, device, staticSmem, carveout);
}

void KernelModule::setCarveout(const LaunchGeometry& g, const DeviceInfo& device, int staticSmem,
                               const CarveoutPreference& carveout) {
  std::optional<int> percent;
  if (carveout.kind == CarveoutPreference::Kind::Percent) {
    percent = carveout.percent;
  } else {
    // The blocks an SM holds with no preference, the rest as L1. Prepared
    // again, the occupancy is asked under the preference and comes out the
    // same (Timing.APreparedKernelHasTheCarveoutItWasAskedFor).
    int blocks = 0;
    if (CUresult rc = queryActiveBlocksPerSm(g, blocks); rc != CUDA_SUCCESS)
      throw KernelFailure(CandidateStatus::ResourceError,
                          explainError("asking how many blocks of '" + entry_ + "' an SM holds with " + g.describe(), rc));
    percent = carveoutPercentFor(blocks, static_cast<long long>(g.dynamicSmemBytes) + staticSmem,
                                 device.reservedSmemPerBlock, device.maxSmemPerSm);
  }
  if (!percent) return;  // the device's figures unknown: the driver's own choice
  if (CUresult rc = driver().cuFuncSetAttribute(fn_, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, *percent);
      rc != CUDA_SUCCESS)
    throw KernelFailure(CandidateStatus::ResourceError,
                        explainError("setting the shared-memory carveout of '" + entry_ + "' to " +
                                         std::to_string(*percent) + "%",
                                     rc));
}

CUresult KernelModule::launch(const LaunchGeometry& g, CUstream stream, void** params) const {
  return driver().cuLaunchKernel(fn_, g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1], g.block[2],
                                 g.dynamicSmemBytes, stream, params, nullptr);
}

CUresult KernelModule::queryActiveBlocksPerSm(const LaunchGeometry& g, int& blocks) const {
  return driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn_, static_cast<int>(g.threadsPerBlock()),
                                                              g.dynamicSmemBytes);
}

int KernelModule::maxActiveBlocksPerSm(const LaunchGeometry& g) const {
  int blocks = 0;
  check(queryActiveBlocksPerSm(g, blocks), "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return blocks;
}

}  // namespace crucible::cuda
