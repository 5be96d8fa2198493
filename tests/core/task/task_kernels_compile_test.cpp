// SPDX-License-Identifier: GPL-3.0-or-later
// Every baseline and oracle of the built-in suite compiles with NVRTC for
// sm_90 (no GPU needed): they define correctness for every candidate.
#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "core/task/task_library.h"
#include "tests/backends/compile/register_fit.h"

namespace crucible {
namespace {

void expectCompiles(NvrtcCompiler& compiler, const SpecKernel& k, const std::string& what) {
  CompileRequest request;
  request.source = k.source;
  request.entry = k.launch.entry;
  request.arch = "sm_90";
  const CompileResult r = compiler.compile(request);
  EXPECT_TRUE(r.report.ok) << what << " failed to compile:\n" << r.report.log;
  EXPECT_FALSE(r.cubin.empty()) << what;
  EXPECT_LE(r.report.spillStoreBytes, compile_tests::kOccupancySpillBytes) << what << " spills registers";
  for (const auto& d : r.report.diagnostics)
    EXPECT_NE(d.severity, "warning") << what << ": line " << d.line << ": " << d.message;
}

TEST(TaskKernels, EveryBaselineAndOracleCompilesForSm90) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(CRUCIBLE_TEST_TASKS_DIR))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u);
  NvrtcCompiler compiler;
  for (const auto& file : files) {
    const TaskSpec s = loadTaskSpecFile(file);
    expectCompiles(compiler, s.baseline, s.name + " baseline");
    expectCompiles(compiler, s.oracle, s.name + " oracle");
  }
}

// Guards the test above: the compiler in use does report a broken kernel.
TEST(TaskKernels, ABrokenKernelFailsToCompile) {
  NvrtcCompiler compiler;
  CompileRequest request;
  request.source = "extern \"C\" __global__ void broken_kernel(float* y) { y[0] = undefined_name; }\n";
  request.entry = "broken_kernel";
  request.arch = "sm_90";
  EXPECT_FALSE(compiler.compile(request).report.ok);
}

}  // namespace
}  // namespace crucible
