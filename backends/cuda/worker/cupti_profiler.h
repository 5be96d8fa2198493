// SPDX-License-Identifier: GPL-3.0-or-later
// Hardware counters for one kernel launch through the CUPTI range profiler
// (one user range, user replay: the kernel is launched once per pass; kernel
// replay where the driver refuses that): duration, DRAM bytes, FP32 instruction counts,
// tensor-core operations (bf16/fp16 mma.sync and wgmma), L2 and L1 bytes, achieved occupancy. Never used
// while timing: replay and counter collection change the kernel's time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "core/engine/interfaces.h"

namespace crucible::cuda {

class CuptiProfiler {
public:
  explicit CuptiProfiler(GpuContext& gpu);
  ~CuptiProfiler();
  CuptiProfiler(const CuptiProfiler&) = delete;
  CuptiProfiler& operator=(const CuptiProfiler&) = delete;

  // Runs `launchAndWait` (exactly one kernel launch, then a wait) under the
  // profiler. Metrics the chip does not offer are dropped and named in
  // `detail`; counters the machine forbids give permitted=false. Also fills
  // "crucible__fp32_flops" = fadd + fmul + 2*ffma (thread instructions) and
  // "crucible__tensor_flops" = the bf16/fp16 tensor-path operations (FLOPs).
  // `beforeEachPass`, when given, runs (and waits) before each pass starts,
  // outside the profiled range: with user replay, what every launch must
  // find (shared memory scrubbed), as timed launches do.
  ProfileResult profile(const std::function<void()>& launchAndWait, const std::function<void()>& beforeEachPass = {});

  // The metrics asked for, in order.
  static const std::vector<std::string>& requestedMetrics();

private:
  // Sets up the host object and config image once; returns "" or why not.
  std::string setUp(bool& permitted);
  // One profile with the given replay mode; empty metrics and a detail on failure.
  ProfileResult collect(const std::function<void()>& launchAndWait, const std::function<void()>& beforeEachPass,
                        bool userReplay);

  GpuContext& gpu_;
  bool ready_ = false;
  std::string chip_;
  std::vector<std::string> metrics_;   // accepted by this chip
  std::vector<std::string> dropped_;   // requested but unknown here
  std::vector<std::uint8_t> configImage_;
  std::size_t passes_ = 0;
  void* hostObject_ = nullptr;         // CUpti_Profiler_Host_Object*
  bool userReplay_ = true;             // false once user replay failed on this machine
  std::string userReplayFailure_;      // why, named in every later profile's detail
};

}  // namespace crucible::cuda
