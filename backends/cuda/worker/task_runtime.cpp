// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/task_runtime.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/output_check.h"

namespace crucible::cuda {

TaskRuntime::TaskRuntime(GpuContext& gpu, TaskSpec spec, const std::string& oracleCubin)
    : gpu_(gpu), spec_(std::move(spec)) {
  for (const TensorSpec& t : spec_.inputs) {
    inputs_.push_back(std::make_unique<GuardedBuffer>(t.dtype, elementCount(spec_, t)));
    hostInputs_.emplace_back(t.dtype, elementCount(spec_, t));
    inputReadback_.emplace_back();
  }
  for (const TensorSpec& t : spec_.outputs) {
    const std::int64_t n = elementCount(spec_, t);
    outputs_.push_back(std::make_unique<GuardedBuffer>(t.dtype, n));
    oracleOutputs_.push_back(std::make_unique<GuardedBuffer>(DType::F64, n));
  }
  for (const std::string& s : spec_.scalars) scalars_.push_back(evalExpression(s, spec_.axes));

  for (auto& b : inputs_) candidateArgs_.push_back(b->data());
  oracleArgs_ = candidateArgs_;
  for (auto& b : outputs_) candidateArgs_.push_back(b->data());
  for (auto& b : oracleOutputs_) oracleArgs_.push_back(b->data());
  for (auto& a : candidateArgs_) candidateParams_.push_back(&a);
  for (auto& a : oracleArgs_) oracleParams_.push_back(&a);
  for (auto& s : scalars_) {
    candidateParams_.push_back(&s);
    oracleParams_.push_back(&s);
  }

  try {
    oracle_ = std::make_unique<KernelModule>(oracleCubin, spec_.oracle.launch.entry);
    oracleGeometry_ = resolveGeometry(spec_.oracle.launch, spec_.axes);
    oracle_->prepare(oracleGeometry_, gpu_.info());
  } catch (const KernelFailure& e) {
    throw KernelFailure(CandidateStatus::Invalid, std::string("the task's oracle cannot run: ") + e.what());
  }
}

void TaskRuntime::randomizeInputs(std::uint64_t seed) {
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    fillRandom(hostInputs_[i], spec_.inputs[i].distribution, seed, i);
    inputs_[i]->upload(hostInputs_[i]);
    inputs_[i]->writeGuards();
  }
}

void TaskRuntime::computeReference(double timeoutSeconds) {
  for (auto& b : oracleOutputs_) b->fill({std::byte{0xFF}});  // 0xFF.. is a NaN in double
  try {
    launchWith(*oracle_, oracleGeometry_, oracleParams_, TensorMaps{}, "the task's oracle");  // never any maps
    finish("the task's oracle", timeoutSeconds);
  } catch (const KernelFailure& e) {
    throw KernelFailure(e.status() == CandidateStatus::Faulted || e.status() == CandidateStatus::TimedOut
                            ? e.status()
                            : CandidateStatus::Invalid,
                        std::string(e.what()) + " (a task bug, not the candidate's)");
  }
  reference_.resize(oracleOutputs_.size());
  for (std::size_t i = 0; i < oracleOutputs_.size(); ++i) {
    // The oracle writes doubles: straight into the reference, no staging copy.
    reference_[i].resize(static_cast<std::size_t>(oracleOutputs_[i]->count()));
    oracleOutputs_[i]->download(reference_[i].data(), reference_[i].size() * sizeof(double));
    if (std::string bad = checkReference(spec_.outputs[i].name, reference_[i]); !bad.empty())
      throw KernelFailure(CandidateStatus::Invalid, bad);
  }
}

void TaskRuntime::poisonOutputs(int which) {
  for (auto& b : outputs_) {
    b->fill(poisonPattern(b->dtype(), which));
    b->writeGuards();
  }
}

std::vector<HostTensor> TaskRuntime::downloadOutputs() const {
  std::vector<HostTensor> out(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->download(out[i]);
  return out;
}

const std::vector<HostTensor>& TaskRuntime::downloadOutputs(int slot) {
  std::vector<HostTensor>& out = outputSlots_[slot == 0 ? 0 : 1];
  out.resize(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->download(out[i]);
  return out;
}

std::string TaskRuntime::inputDamage() const {
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    HostTensor& now = inputReadback_[i];
    inputs_[i]->download(now);
    const BitwiseDiff d = compareBitwise(now, hostInputs_[i]);
    if (d.differing > 0)
      return "modified input '" + spec_.inputs[i].name + "': " + std::to_string(d.differing) + " of " +
             std::to_string(now.count) + " elements changed, first at index " + std::to_string(d.first) +
             " (inputs are read-only)";
    if (std::int64_t g = inputs_[i]->damagedGuardBytes(); g > 0)
      return "wrote out of bounds around input '" + spec_.inputs[i].name + "': " + std::to_string(g) +
             " guard bytes changed";
  }
  return {};
}

std::string TaskRuntime::outputGuardDamage() const {
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (std::int64_t g = outputs_[i]->damagedGuardBytes(); g > 0)
      return "wrote out of bounds of output '" + spec_.outputs[i].name + "': " + std::to_string(g) +
             " bytes of the guard regions around it changed";
  return {};
}

// TMA needs 16-byte aligned global addresses: cuMemAlloc gives 256, and the
// guard in front of the data keeps it.
static_assert(GuardedBuffer::kGuardBytes % 256 == 0, "a tensor's data must keep its allocation's alignment");

TensorMaps TaskRuntime::tensorMaps(const std::vector<TensorMapRule>& rules, const std::string& who) const {
  auto bufferOf = [&](const std::string& tensor) -> CUdeviceptr {
    for (std::size_t i = 0; i < spec_.inputs.size(); ++i)
      if (spec_.inputs[i].name == tensor) return inputs_[i]->data();
    for (std::size_t i = 0; i < spec_.outputs.size(); ++i)
      if (spec_.outputs[i].name == tensor) return outputs_[i]->data();
    throw KernelFailure(CandidateStatus::ResourceError, who + ": no buffer for tensor '" + tensor + "'");
  };
  return TensorMaps(spec_, rules, bufferOf, who);
}

void TaskRuntime::launchWith(const KernelModule& kernel, const LaunchGeometry& g, std::vector<void*>& params,
                             const TensorMaps& maps, const std::string& who) {
  void** args = params.data();
  if (!maps.empty()) {
    launchParams_.assign(params.begin(), params.end());
    maps.appendParameters(launchParams_);
    args = launchParams_.data();
  }
  CUresult rc = kernel.launch(g, gpu_.stream(), args);
  if (rc == CUDA_SUCCESS) return;
  // A refused launch leaves the context usable; an earlier kernel's sticky
  // fault reported here does not.
  const bool usable = gpu_.stillUsable();
  throw KernelFailure(usable ? CandidateStatus::ResourceError : statusForError(rc),
                      explainError("launching " + who + " '" + kernel.entry() + "' with " + g.describe(), rc));
}

void TaskRuntime::enqueue(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps,
                          const std::string& who) {
  launchWith(kernel, g, candidateParams_, maps, who);
}

void TaskRuntime::run(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps,
                      const std::string& who, double timeoutSeconds) {
  enqueue(kernel, g, maps, who);
  finish(who, timeoutSeconds);
}

void TaskRuntime::finish(const std::string& who, double timeoutSeconds) {
  WaitResult w = gpu_.wait(timeoutSeconds);
  if (w.outcome == WaitOutcome::Done) return;
  if (w.outcome == WaitOutcome::TimedOut)
    throw KernelFailure(CandidateStatus::TimedOut, who + " was still running after " +
                                                       std::to_string(static_cast<int>(timeoutSeconds)) +
                                                       " s (an endless loop or a deadlock); the worker restarts to stop it");
  const bool usable = gpu_.stillUsable();
  const CandidateStatus s = statusForError(w.error);
  if (s == CandidateStatus::Faulted) gpu_.markLost("a kernel faulted: " + describe(w.error));
  throw KernelFailure(usable && s != CandidateStatus::Faulted ? CandidateStatus::ResourceError : s,
                      explainError(who + " failed while running", w.error));
}

}  // namespace crucible::cuda
