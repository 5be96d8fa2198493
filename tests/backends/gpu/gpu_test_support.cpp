// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_test_support.h"
#include <iostream>
#include <stdexcept>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/gpu_probe.h"
#include "core/task/task_library.h"

namespace crucible::gputest {

std::string whyNoGpu() {
  static const std::string why = [] {
    GpuProbe p = probeGpus();
    return p.gpus.empty() ? p.message : std::string();
  }();
  return why;
}

Task taskFromJson(const std::string& specJson) {
  TaskSpec spec = parseTaskSpec(specJson);
  Task t;
  t.name = spec.name;
  t.family = spec.family;
  t.specJson = specJson;
  return t;
}

Task builtinTask(const std::string& name) {
  auto file = findBuiltinTaskFile(name);
  if (!file) throw std::runtime_error("built-in task '" + name + "' not found under '" + builtinTasksDir() + "'");
  return taskFromJson(readTaskSpecText(*file));
}

namespace {
std::string arch() {
  GpuProbe p = probeGpus();
  return p.gpus.empty() ? "sm_90" : p.gpus.front().arch();
}
KernelBinary build(const std::string& source, const LaunchRule& launch) {
  static NvrtcCompiler compiler;
  CompileRequest req;
  req.source = source;
  req.entry = launch.entry;
  req.arch = arch();
  CompileResult r = compiler.compile(req);
  if (!r.report.ok) throw std::runtime_error("test kernel '" + launch.entry + "' does not compile:\n" + r.report.log);
  return KernelBinary{r.cubin, launch};
}
}  // namespace

KernelBinary compileKernel(const std::string& source, const std::string& entry, const std::string& grid,
                           const std::string& block, const std::string& smem) {
  LaunchRule rule;
  rule.entry = entry;
  rule.grid[0] = grid;
  rule.block[0] = block;
  rule.dynamicSmemBytes = smem;
  return build(source, rule);
}

KernelBinary compileKernel(const std::string& source, const LaunchRule& launch) { return build(source, launch); }

KernelBinary compileBaseline(const Task& task) {
  TaskSpec spec = parseTaskSpec(task.specJson);
  return build(spec.baseline.source, spec.baseline.launch);
}

EvaluationRequest timedRequest(const Task& task, const KernelBinary& candidate, const KernelBinary& reference) {
  EvaluationRequest r;
  r.task = &task;
  r.candidate = candidate;
  r.reference = reference;
  r.seeds = {1};
  r.time = true;
  return r;
}

cuda::CudaEvaluator& sharedEvaluator() {
  static cuda::CudaEvaluator evaluator(std::make_shared<NvrtcCompiler>());
  return evaluator;
}

Evaluation evaluateTimed(const Task& task, const KernelBinary& candidate, const std::vector<std::uint64_t>& seeds) {
  EvaluationRequest r;
  r.task = &task;
  r.candidate = candidate;
  r.reference = compileBaseline(task);
  r.seeds = seeds;
  r.time = true;
  Evaluation e = sharedEvaluator().evaluate(r);
  std::cout << "[ verdict  ] " << toString(e.status) << ": " << e.detail << "\n";
  return e;
}

}  // namespace crucible::gputest
