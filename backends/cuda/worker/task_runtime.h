// SPDX-License-Identifier: GPL-3.0-or-later
// One task made concrete on the GPU: guarded device buffers for its inputs and
// outputs, the oracle's double-precision outputs, host copies of the inputs
// (to prove a kernel left them alone), and launches that wait with a deadline
// and turn every failure into a KernelFailure with a precise reason.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/guarded_buffer.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/tensor_maps.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {

class TaskRuntime {
public:
  // `oracleCubin` is the task's oracle compiled for this GPU.
  TaskRuntime(GpuContext& gpu, TaskSpec spec, const std::string& oracleCubin);
  // Kernel parameters point into this object: it never moves.
  TaskRuntime(const TaskRuntime&) = delete;
  TaskRuntime& operator=(const TaskRuntime&) = delete;

  const TaskSpec& spec() const { return spec_; }

  // Draws every input from its distribution with `seed` and uploads it, into
  // the same device buffers each time (a kernel cannot tell new inputs by
  // their address). Guards are rewritten too.
  void randomizeInputs(std::uint64_t seed);
  // Runs the oracle on the current inputs and downloads its outputs; throws
  // KernelFailure (Invalid) naming the task when the oracle fails or leaves
  // non-finite values.
  void computeReference(double timeoutSeconds);
  const std::vector<std::vector<double>>& reference() const { return reference_; }

  // Fills every output with poison pattern 0 or 1 and rewrites its guards.
  void poisonOutputs(int which);
  std::vector<HostTensor> downloadOutputs() const;
  // The outputs downloaded into host buffers this object keeps (slot 0 or 1),
  // reused from call to call: no allocation or page faulting of hundreds of
  // MiB per launch. The result stays valid until the same slot is reused.
  const std::vector<HostTensor>& downloadOutputs(int slot);

  // Empty when the inputs (and their guards) still hold exactly what was
  // uploaded; else which input changed and how many bytes.
  std::string inputDamage() const;
  // Empty when no output guard changed; else which output was overrun.
  std::string outputGuardDamage() const;

  // The tensor maps `rules` ask for, encoded for this runtime's input and
  // output buffers (the same buffers for every launch, so once per kernel).
  // Throws KernelFailure (ResourceError) naming `who` when a rule cannot be encoded.
  TensorMaps tensorMaps(const std::vector<TensorMapRule>& rules, const std::string& who) const;

  // Queues `kernel` with the task's ABI (inputs, outputs, scalars, then the
  // kernel's tensor maps) and waits. Throws KernelFailure with the status the
  // failure earns; `who` names the kernel in the message ("candidate", "reference").
  void run(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps, const std::string& who,
           double timeoutSeconds);
  // Queues the launch only (timing); throws KernelFailure if refused.
  void enqueue(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps, const std::string& who);
  // Waits for queued work; throws KernelFailure on a fault or timeout.
  void finish(const std::string& who, double timeoutSeconds);

  std::size_t inputCount() const { return inputs_.size(); }
  const GuardedBuffer& input(std::size_t i) const { return *inputs_[i]; }

private:
  void launchWith(const KernelModule& kernel, const LaunchGeometry& g, std::vector<void*>& params,
                  const TensorMaps& maps, const std::string& who);

  GpuContext& gpu_;
  TaskSpec spec_;
  std::unique_ptr<KernelModule> oracle_;
  LaunchGeometry oracleGeometry_;
  std::vector<std::unique_ptr<GuardedBuffer>> inputs_, outputs_, oracleOutputs_;
  std::vector<HostTensor> hostInputs_;
  // Reused host buffers: what the device holds for each input (inputDamage)
  // and two sets of downloaded outputs (downloadOutputs(slot)).
  mutable std::vector<HostTensor> inputReadback_;
  std::vector<HostTensor> outputSlots_[2];
  std::vector<std::vector<double>> reference_;
  // Kernel arguments: device pointers then scalars, and the arrays of their
  // addresses that cuLaunchKernel takes.
  std::vector<CUdeviceptr> candidateArgs_, oracleArgs_;
  std::vector<long long> scalars_;
  std::vector<void*> candidateParams_, oracleParams_;
  // candidateParams_ followed by a kernel's tensor maps, rebuilt for each launch that has some.
  std::vector<void*> launchParams_;
};

}  // namespace crucible::cuda
