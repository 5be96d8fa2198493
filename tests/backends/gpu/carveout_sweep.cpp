// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: one built-in task's baseline timed against itself, with the
// harness asking the driver for one carveout preference (shared_carveout.h),
// in a process of its own, since what ran before in a process moves the
// driver's choice. tests/bench/carveout_sweep.py runs it for each preference
// and task and prints the table that says which setting the judge can take.
//
//   carveout_sweep PREFERENCE TASK [REPEATS]     PREFERENCE: unset | least | 0-100
//
// One line per evaluation, fields "key=value" separated by spaces:
//   sweep preference=least task=softmax_f32_8192x4096 repeat=1 candidate_us=106.2 reference_us=119.6
//         candidate_iqr_us=0.6 reference_iqr_us=0.7 speedup=1.126 samples=175 sm_mhz=1980
// and first a line "device gpu=... driver=... sm_mhz=... mem_mhz=..." (spaces in the name as '_').
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/cuda_evaluator.h"
#include "backends/gpu_probe.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"

using namespace crucible;

namespace {

std::string noSpaces(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
}

KernelBinary compileBaseline(const TaskSpec& spec) {
  GpuProbe probe = probeGpus();
  if (probe.gpus.empty()) throw std::runtime_error("no GPU: " + probe.message);
  NvrtcCompiler compiler;
  CompileRequest req;
  req.source = spec.baseline.source;
  req.entry = spec.baseline.launch.entry;
  req.arch = probe.gpus.front().arch();
  CompileResult r = compiler.compile(req);
  if (!r.report.ok) throw std::runtime_error("the baseline of '" + spec.name + "' does not compile:\n" + r.report.log);
  return KernelBinary{r.cubin, spec.baseline.launch};
}

int run(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: carveout_sweep PREFERENCE TASK [REPEATS]   (PREFERENCE: unset | least | 0-100)\n");
    return 2;
  }
  const std::optional<cuda::CarveoutPreference> preference = cuda::parseCarveoutPreference(argv[1]);
  if (!preference) {
    std::fprintf(stderr, "carveout_sweep: '%s' is not a preference (unset, least, or a percent 0-100)\n", argv[1]);
    return 2;
  }
  const int repeats = argc == 4 ? std::stoi(argv[3]) : 1;
  const std::optional<std::string> file = findBuiltinTaskFile(argv[2]);
  if (!file) {
    std::fprintf(stderr, "carveout_sweep: no built-in task '%s' under '%s'\n", argv[2], builtinTasksDir().c_str());
    return 2;
  }
  Task task;
  task.specJson = readTaskSpecText(*file);
  const TaskSpec spec = parseTaskSpec(task.specJson);
  task.name = spec.name;
  task.family = spec.family;
  const KernelBinary baseline = compileBaseline(spec);

  cuda::CudaEvaluatorOptions options;
  options.carveout = *preference;
  cuda::CudaEvaluator evaluator(std::make_shared<NvrtcCompiler>(), options);
  const Fingerprint f = evaluator.device();
  std::printf("device gpu=%s driver=%s sm_mhz=%.0f mem_mhz=%.0f\n", noSpaces(f.gpu).c_str(), f.driver.c_str(),
              f.smClockMHz, f.memClockMHz);
  for (int i = 1; i <= repeats; ++i) {
    EvaluationRequest r;
    r.task = &task;
    r.candidate = baseline;
    r.reference = baseline;
    r.seeds = {1};
    r.time = true;
    const Evaluation e = evaluator.evaluate(r);
    if (e.status != CandidateStatus::Valid || !e.timing) {
      std::fprintf(stderr, "carveout_sweep: %s under '%s': %s: %s\n", spec.name.c_str(), argv[1],
                   toString(e.status), e.detail.c_str());
      return 1;
    }
    const Timing& t = *e.timing;
    std::printf("sweep preference=%s task=%s repeat=%d candidate_us=%.3f reference_us=%.3f candidate_iqr_us=%.3f "
                "reference_iqr_us=%.3f speedup=%.5f samples=%zu sm_mhz=%.0f\n",
                cuda::toString(*preference).c_str(), spec.name.c_str(), i, t.medianUs, t.referenceMedianUs, t.iqrUs,
                t.referenceIqrUs, t.speedup, t.samplesUs.size(), t.smClockMHz);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "carveout_sweep: %s\n", e.what());
    return 1;
  }
}
