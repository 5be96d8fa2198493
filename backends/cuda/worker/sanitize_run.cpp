// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/sanitize_run.h"

#include <cstdint>
#include <vector>
#include "backends/cuda/sanitize/sanitize_job.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/kernel_parameters.h"
#include "backends/cuda/worker/tensor_maps.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {
namespace {

constexpr int kLaunches = 2;                     // the second launch sees what the first left behind
constexpr std::uint64_t kInputSeed = 0x5A417153;  // any fixed seed: the tools judge accesses, not values
// The tools slow a kernel down by orders of magnitude; the caller's deadline
// (the per-tool timeout) is what stops a kernel that never ends.
constexpr double kWaitSeconds = 24 * 3600;

// The task's tensors in plain allocations of their exact size.
struct ExactTensors {
  std::vector<DeviceBuffer> inputs, outputs;
};

ExactTensors allocate(const TaskSpec& spec) {
  ExactTensors t;
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const TensorSpec& s = spec.inputs[i];
    HostTensor host(s.dtype, elementCount(spec, s));
    fillRandom(host, s.distribution, kInputSeed, i);
    t.inputs.emplace_back(host.byteSize());
    if (host.byteSize() > 0)
      check(driver().cuMemcpyHtoD(t.inputs.back().get(), host.bytes.data(), host.byteSize()),
            ("uploading input '" + s.name + "'").c_str());
  }
  for (const TensorSpec& s : spec.outputs)   // never written: initcheck sees reads of them
    t.outputs.emplace_back(static_cast<std::size_t>(elementCount(spec, s)) * sizeOf(s.dtype));
  return t;
}

int fail(std::ostream& err, const std::string& why, int status) {
  err << "crucible-worker --sanitize-run: " << why << "\n";
  return status;
}

}  // namespace

int sanitizeRun(const std::string& jobDir, std::ostream& out, std::ostream& err) {
  SanitizeJob job;
  TaskSpec spec;
  try {
    job = readSanitizeJob(jobDir);
    // At the task's sanitize shape where it names one: the tools slow a
    // kernel down by orders of magnitude, and a full-size GEMM under
    // racecheck does not finish in minutes.
    spec = atSanitizeShape(parseTaskSpec(job.taskSpecJson));
  } catch (const std::exception& e) {
    return fail(err, e.what(), 2);
  }
  try {
    GpuContext gpu(0);   // CUDA_VISIBLE_DEVICES shows this process only its GPU
    gpu.makeCurrent();
    KernelModule kernel(job.cubin, job.launch.entry);
    const LaunchGeometry geometry = resolveGeometry(job.launch, spec.axes, gpu.info().smCount);
    kernel.prepare(geometry, gpu.info());

    const ExactTensors tensors = allocate(spec);
    // The task's ABI, as the evaluator passes it: inputs, outputs, scalars, then tensor maps.
    std::vector<CUdeviceptr> pointers;
    for (const auto& b : tensors.inputs) pointers.push_back(b.get());
    for (const auto& b : tensors.outputs) pointers.push_back(b.get());
    std::vector<long long> scalars;
    for (const std::string& s : spec.scalars) scalars.push_back(evalExpression(s, spec.axes));
    auto bufferOf = [&](const std::string& tensor) -> CUdeviceptr {
      for (std::size_t i = 0; i < spec.inputs.size(); ++i)
        if (spec.inputs[i].name == tensor) return tensors.inputs[i].get();
      for (std::size_t i = 0; i < spec.outputs.size(); ++i)
        if (spec.outputs[i].name == tensor) return tensors.outputs[i].get();
      throw KernelFailure(CandidateStatus::ResourceError, "no buffer for tensor '" + tensor + "'");
    };
    const TensorMaps maps(spec, job.launch.tensorMaps, bufferOf, "candidate");
    std::vector<void*> params;
    for (auto& p : pointers) params.push_back(&p);
    for (auto& s : scalars) params.push_back(&s);
    maps.appendParameters(params);
    if (std::string problem = parameterProblem(kernel.function(), pointers.size() + scalars.size(), maps.size(),
                                               "the candidate '" + kernel.entry() + "'");
        !problem.empty())
      return fail(err, problem, 3);

    for (int launch = 1; launch <= kLaunches; ++launch) {
      const std::string which = "launch " + std::to_string(launch) + " of '" + kernel.entry() + "' with " +
                                geometry.describe();
      const CUresult rc = kernel.launch(geometry, gpu.stream(), params.data());
      if (rc != CUDA_SUCCESS) {
        markContextLost();   // exit without driver calls from destructors
        return fail(err, explainError(which + " was refused", rc), 3);
      }
      const WaitResult w = gpu.wait(kWaitSeconds);
      if (w.outcome != WaitOutcome::Done) {
        markContextLost();
        return fail(err, w.outcome == WaitOutcome::TimedOut ? which + " did not finish"
                                                             : explainError(which + " failed", w.error),
                    3);
      }
    }
    out << "crucible-worker --sanitize-run: " << kLaunches << " launches of '" << kernel.entry() << "' with "
        << geometry.describe() << " at " << describeAxes(spec.axes) << " completed\n";
    return 0;
  } catch (const std::exception& e) {
    markContextLost();
    return fail(err, e.what(), 3);
  }
}

}  // namespace crucible::cuda
