// SPDX-License-Identifier: GPL-3.0-or-later
// The real compute-sanitizer on the real worker, on a GPU: a correct kernel
// runs clean under every tool, and each tool names the defect it exists for
// (a read past a tensor's end, a read of an unwritten output, a shared-memory
// race, a divergent barrier). Skips, saying why, without a GPU or the tool.
#include <gtest/gtest.h>
#include <cstdlib>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/sanitize/compute_sanitizer.h"
#include "backends/cuda/sanitize/sanitizer_executable.h"
#include "backends/gpu_probe.h"
#include "core/engine/seal_policy.h"
#include "core/task/task_spec.h"
#include "tests/backends/sanitize/fake_tools.h"

namespace crucible {
namespace {

constexpr const char* kSignature =
    "extern \"C\" __global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, long long N) {\n"
    "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n";

class SanitizerOnGpu : public ::testing::Test {
protected:
  void SetUp() override {
    const GpuProbe probe = probeGpus();
    if (probe.gpus.empty()) GTEST_SKIP() << "no GPU here: " << probe.message;
    const char* path = std::getenv("PATH");
    const char* home = std::getenv("CUDA_HOME");
    const SanitizerExecutable tool = findComputeSanitizer(path ? path : "", "/usr/local/cuda/bin", home ? home : "");
    if (tool.path.empty()) GTEST_SKIP() << "compute-sanitizer is not installed: " << tool.whyNot;
    arch_ = probe.gpus.front().arch();
    task_.name = "gelu_f32_1048576";
    task_.specJson = testing::readText(std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/gelu_f32_1048576.json");
  }

  KernelBinary compile(const std::string& source) {
    const TaskSpec spec = parseTaskSpec(task_.specJson);
    CompileResult r = NvrtcCompiler().compile({source, spec.entry, arch_, {}});
    EXPECT_TRUE(r.report.ok) << r.report.log;
    return KernelBinary{r.cubin, spec.baseline.launch};
  }

  SanitizerReport sanitize(const std::string& source, std::vector<std::string> tools) {
    ComputeSanitizerOptions options;
    options.workerExecutable = CRUCIBLE_WORKER;
    options.tools = std::move(tools);
    options.toolTimeoutSeconds = 120;
    options.stopAtFirstFinding = false;
    return ComputeSanitizer(options).sanitize(task_, compile(source), 0);
  }

  std::string arch_;
  Task task_;
};

bool found(const SanitizerReport& r, const std::string& tool, const std::string& text) {
  for (const auto& f : r.findings)
    if (f.tool == tool && f.message.find(text) != std::string::npos) return true;
  return false;
}

TEST_F(SanitizerOnGpu, TheTasksBaselineRunsCleanUnderEveryTool) {
  SanitizerReport r = sanitize(parseTaskSpec(task_.specJson).baseline.source,
                               {"memcheck", "racecheck", "initcheck", "synccheck"});
  EXPECT_TRUE(r.ran) << r.unavailableReason;
  EXPECT_TRUE(r.clean) << r.log;
  EXPECT_FALSE(sanitizerRefusal(&r));
}

TEST_F(SanitizerOnGpu, MemcheckSeesAReadOneElementPastTheInput) {
  SanitizerReport r = sanitize(std::string(kSignature) + "  if (i < N) y[i] = x[i + 1];\n}\n", {"memcheck"});
  EXPECT_FALSE(r.clean);
  EXPECT_TRUE(found(r, "memcheck", "Invalid __global__ read")) << r.log;
}

TEST_F(SanitizerOnGpu, InitcheckSeesAReadOfTheUnwrittenOutput) {
  SanitizerReport r = sanitize(std::string(kSignature) +
                                   // One block reads its output first: a few errors, not a million
                                   // (a tool reporting every one of them runs for minutes).
                                   "  if (i < N) { float old = blockIdx.x == 0 ? y[i] : 0.0f; y[i] = x[i] + old * 0.0f; }\n}\n",
                               {"initcheck"});
  EXPECT_FALSE(r.clean);
  EXPECT_TRUE(found(r, "initcheck", "Uninitialized __global__ memory read")) << r.log;
}

TEST_F(SanitizerOnGpu, RacecheckSeesASharedMemoryReadWithoutABarrier) {
  SanitizerReport r = sanitize(std::string(kSignature) +
                                   "  __shared__ float s[256];\n"
                                   "  s[threadIdx.x] = i < N ? x[i] : 0.0f;\n"
                                   // The race in one block only, so the tool reports a few hazards and ends.
                                   "  float v = blockIdx.x == 0 ? s[(threadIdx.x + 32) % 256] : s[threadIdx.x];\n"
                                   "  if (i < N) y[i] = v;\n}\n",
                               {"racecheck"});
  EXPECT_FALSE(r.clean);
  EXPECT_TRUE(found(r, "racecheck", "hazard")) << r.log;
  auto why = sanitizerRefusal(&r);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("racecheck found ", 0), 0u) << *why;
}

// (A __syncthreads() that only part of a block reaches is no error on Volta
// and later, where exited threads count as arrived: this one is.)
TEST_F(SanitizerOnGpu, SynccheckSeesASyncwarpMaskWithoutTheCallingLane) {
  SanitizerReport r = sanitize(std::string(kSignature) +
                                   "  float v = i < N ? x[i] : 0.0f;\n"
                                   "  if (blockIdx.x == 0) __syncwarp(0x0000FFFFu);  // lanes 16-31 are not in the mask\n"
                                   "  if (i < N) y[i] = v;\n}\n",
                               {"synccheck"});
  EXPECT_FALSE(r.clean) << r.log;
  EXPECT_FALSE(r.findings.empty());
}

}  // namespace
}  // namespace crucible
