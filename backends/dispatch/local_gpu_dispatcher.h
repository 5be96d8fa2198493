// SPDX-License-Identifier: GPL-3.0-or-later
// The GPUs of this machine, one crucible-worker process each.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/dispatch/worker_evaluator.h"
#include "backends/gpu_probe.h"
#include "core/engine/interfaces.h"

namespace crucible {

struct LocalGpuDispatcherOptions {
  std::string workerExecutable;         // empty: defaultWorkerExecutable()
  std::vector<std::string> workerArguments;
  WorkerEvaluatorOptions evaluator;
  std::chrono::milliseconds workerStartTimeout{60000};
};

class LocalGpuDispatcher : public Dispatcher {
public:
  // Probes this machine's GPUs (probeGpus()).
  explicit LocalGpuDispatcher(LocalGpuDispatcherOptions options = {});
  // Uses a probe already made.
  LocalGpuDispatcher(const GpuProbe& probe, LocalGpuDispatcherOptions options);

  std::string name() const override { return "local"; }
  // One WorkerEvaluator per visible GPU of the first visible GPU's model
  // (name and compute capability): a run compiles for one architecture and
  // compares its candidates' speedups in one archive, so a GPU of another
  // model is left out and status() names it. Empty when nothing can be
  // evaluated here (no driver, no GPU, or no worker executable): status()
  // says which. Workers start lazily, on their first call; the engine hands
  // each of them the next compiled candidate as soon as it is free.
  std::vector<Evaluator*> evaluators() override;

  bool canEvaluate() const { return !evaluators_.empty(); }
  // One sentence for status bars and logs: the GPUs served, or why none is.
  const std::string& status() const { return status_; }
  const std::string& workerExecutable() const { return workerExecutable_; }
  // The CUDA_VISIBLE_DEVICES value each evaluator's worker runs with, in evaluators() order.
  const std::vector<std::string>& workerDevices() const { return workerDevices_; }

  // crucible-worker in the running executable's directory (/proc/self/exe).
  static std::string defaultWorkerExecutable();
  // The CUDA_VISIBLE_DEVICES value that shows a worker only GPU `ordinal` of
  // this process's view, honouring the engine's own CUDA_VISIBLE_DEVICES.
  static std::string visibleDeviceFor(int ordinal);

private:
  std::string workerExecutable_;
  std::string status_;
  std::vector<std::string> workerDevices_;
  std::vector<std::unique_ptr<WorkerEvaluator>> evaluators_;
};

}  // namespace crucible
