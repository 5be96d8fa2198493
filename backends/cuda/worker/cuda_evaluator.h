// SPDX-License-Identifier: GPL-3.0-or-later
// The Evaluator that runs inside crucible-worker, on one GPU: loads cubins,
// validates candidates against the task's double-precision oracle on fresh
// random inputs, times candidate and reference interleaved, profiles with the
// CUPTI range profiler, and measures the device's ceilings.
//
// Candidate code runs in this process. After a fault or a hung kernel the CUDA
// context is dead: the evaluation is still answered (Faulted / TimedOut), then
// contextLost() is true and the worker must exit so the engine restarts it.
#pragma once
#include <memory>
#include <string>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "backends/cuda/worker/nvml_clocks.h"
#include "backends/cuda/worker/shared_carveout.h"
#include "core/engine/interfaces.h"

namespace crucible::cuda {

class TaskRuntime;
class CuptiProfiler;
class HarnessKernels;
class DeviceOutputCapture;

struct CudaEvaluatorOptions {
  int deviceOrdinal = 0;
  double launchTimeoutSeconds = 10;   // one validation launch; longer counts as hung
  int defaultSeeds = 3;               // when a request names none
  int extendedExtraSeeds = 8;         // added for the seal's extended validation
  TimingOptions timing;
  // The L1 / shared split asked for the candidate and the reference, alike
  // (shared_carveout.h says why the judge keeps Unset).
  CarveoutPreference carveout;
};

class LaunchPlan;
struct CandidateUnderTest;

// What happened around the timed launches, for the evaluation's detail.
struct TimedChecks {
  int timedLaunches = 0;
  int checked = 0;
  std::string describe() const;  // "812 timed launches, each on inputs drawn afresh, 9 checked against the oracle"
};

class CudaEvaluator : public Evaluator {
public:
  // Throws DriverError (with a sentence for the user) when there is no driver
  // or no such GPU. `compiler` builds the oracles and the ceiling kernels.
  CudaEvaluator(std::shared_ptr<Compiler> compiler, CudaEvaluatorOptions options = {});
  ~CudaEvaluator() override;

  Fingerprint device() const override;
  Evaluation evaluate(const EvaluationRequest& request) override;
  ProfileResult profile(const Task& task, const KernelBinary& kernel) override;
  std::vector<Ceiling> measureCeilings() override;

  // True after a fault or a hung kernel: nothing more can run in this process.
  bool contextLost() const { return gpu_.lost(); }
  // From now on what kernels print with printf (the process's stdout) is
  // captured, capped per evaluation and reported in its detail, instead of
  // flowing unbounded into the worker's stderr.
  void captureDeviceOutput();
  const std::string& contextLostReason() const { return gpu_.lostReason(); }
  const DeviceInfo& deviceInfo() const { return gpu_.info(); }

private:
  // The task's buffers and oracle, built once per task (keyed by its spec).
  TaskRuntime& runtimeFor(const Task& task);
  Evaluation evaluateOnGpu(const EvaluationRequest& request);
  // Validation trials and interleaved timing, in the order the launch plan
  // interleaves them (validation.h, launch_plan.h).
  void validateAndTime(const EvaluationRequest& request, TaskRuntime& task, Evaluation& ev);
  // Candidate and reference interleaved, every launch on fresh inputs, every
  // candidate launch after a fresh output fill, some of them checked against
  // the oracle.
  Timing timeCandidate(const EvaluationRequest& request, TaskRuntime& task, const CandidateUnderTest& candidate,
                       LaunchPlan& plan, TimedChecks& checks);
  // Throws KernelFailure (Invalid) when a timed kernel wrote into the
  // harness's own memory: a flush since the timing began read a word of its
  // buffer that was not zero (L2Flusher), or a region of `task`'s watched
  // memory no longer hashes as the harness left it (TaskRuntime::harnessMemoryDamage),
  // or the driver's memory around the candidate's module variables or launch
  // parameters changed (DriverPagesWatch).
  void refuseWritesToHarnessMemory(const TaskRuntime& task, const CandidateUnderTest& candidate);
  // A candidate may have made the driver raise the context's per-thread
  // stack (and so its local-memory reservation): put it back so the next
  // candidate runs in the context the first one found.
  void restoreContextLimits(Evaluation& ev);

  std::shared_ptr<Compiler> compiler_;
  CudaEvaluatorOptions options_;
  GpuContext gpu_;
  NvmlClocks clocks_;
  std::string runtimeKey_;
  std::unique_ptr<TaskRuntime> runtime_;
  std::unique_ptr<CuptiProfiler> profiler_;
  std::unique_ptr<HarnessKernels> harness_;
  std::unique_ptr<L2Flusher> flusher_;  // reads through harness_'s kernel; made with it (runtimeFor)
  std::unique_ptr<DeviceOutputCapture> deviceOutput_;
};

}  // namespace crucible::cuda
