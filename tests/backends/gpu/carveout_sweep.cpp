// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: one built-in task's baseline timed against itself, with the
// harness asking the driver for one carveout preference (shared_carveout.h),
// in a process of its own, since what ran before in a process moves where
// its buffers lie, and that moved a kernel's time (the self-timing bias of
// results/2026-12-07-h100-self-timing-bias.md). tests/bench/carveout_sweep.py
// runs it for each preference and task and prints the table that says which
// settings time every baseline alike, and what each does to their times.
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
#include <stdexcept>
#include <string>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/cuda_evaluator.h"
#include "core/task/task_library.h"
#include "tests/backends/gpu/gpu_test_support.h"

using namespace crucible;

namespace {

std::string noSpaces(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
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
  if (!findBuiltinTaskFile(argv[2])) {
    std::fprintf(stderr, "carveout_sweep: no built-in task '%s' under '%s'\n", argv[2], builtinTasksDir().c_str());
    return 2;
  }
  if (std::string why = gputest::whyNoGpu(); !why.empty()) throw std::runtime_error("no GPU: " + why);
  const Task task = gputest::builtinTask(argv[2]);
  const KernelBinary baseline = gputest::compileBaseline(task);

  cuda::CudaEvaluatorOptions options;
  options.carveout = *preference;
  cuda::CudaEvaluator evaluator(std::make_shared<NvrtcCompiler>(), options);
  const Fingerprint f = evaluator.device();
  std::printf("device gpu=%s driver=%s sm_mhz=%.0f mem_mhz=%.0f\n", noSpaces(f.gpu).c_str(), f.driver.c_str(),
              f.smClockMHz, f.memClockMHz);
  for (int i = 1; i <= repeats; ++i) {
    const Evaluation e = evaluator.evaluate(gputest::timedRequest(task, baseline, baseline));
    if (e.status != CandidateStatus::Valid || !e.timing) {
      std::fprintf(stderr, "carveout_sweep: %s under '%s': %s: %s\n", task.name.c_str(), argv[1],
                   toString(e.status), e.detail.c_str());
      return 1;
    }
    const Timing& t = *e.timing;
    std::printf("sweep preference=%s task=%s repeat=%d candidate_us=%.3f reference_us=%.3f candidate_iqr_us=%.3f "
                "reference_iqr_us=%.3f speedup=%.5f samples=%zu sm_mhz=%.0f\n",
                cuda::toString(*preference).c_str(), task.name.c_str(), i, t.medianUs, t.referenceMedianUs, t.iqrUs,
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
