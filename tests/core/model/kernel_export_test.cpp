// SPDX-License-Identifier: GPL-3.0-or-later
// An exported kernel (core/model/kernel_export.h): the .cu file the vault and
// `crucible-cli best --export` write, its launch snippet, and the record beside it.
#include <gtest/gtest.h>
#include "core/model/kernel_export.h"
#include "core/task/task_spec.h"
#include "tests/core/model/sample_seal.h"

using namespace crucible;

namespace {
Seal sealOf(TaskId task, RunId run, CandidateId c) { return crucible::testing::sampleSeal(task, run, c); }

// Everything before the source is comment lines (or empty), so the file compiles as the kernel alone.
void expectOnlyCommentsBeforeTheSource(const std::string& text, const std::string& source) {
  ASSERT_GE(text.size(), source.size() + 1);
  EXPECT_EQ(text.substr(text.size() - source.size() - 1), source + "\n");
  const std::string header = text.substr(0, text.size() - source.size() - 1);
  for (std::size_t pos = 0; pos < header.size();) {
    const std::size_t end = header.find('\n', pos);
    const std::string line = header.substr(pos, end - pos);
    EXPECT_TRUE(line.empty() || line.rfind("//", 0) == 0) << "uncommented header line: " << line;
    pos = end + 1;
  }
}

Candidate geluKernel() {
  Candidate k;
  k.id = 42;
  k.runId = 3;
  k.generation = 7;
  k.source = "extern \"C\" __global__ void gelu_kernel(const float* x, float* y, long long N) {}";
  k.launch.entry = "gelu_kernel";
  k.launch.grid[0] = "ceil_div(N, 256)";
  k.launch.block[0] = "256";
  return k;
}
}  // namespace

TEST(KernelExport, HeaderFiguresFingerprintLaunchAndSource) {
  const Candidate k = geluKernel();
  Seal s = sealOf(1, 3, 42);
  s.id = 9;
  const std::string text = sealedKernelFile(s, k, "gelu_f32_1048576", nullptr);
  EXPECT_NE(text.find("// Crucible sealed kernel: seal #9 of task gelu_f32_1048576"), std::string::npos) << text;
  EXPECT_NE(text.find("Median 57.125 us, 1.750x"), std::string::npos) << text;
  EXPECT_NE(text.find("Measured on NVIDIA H200 (sm_90), driver 580.159.04, CUDA runtime 13.0, NVRTC 13.0, SM clock 1980 MHz, memory clock 3201 MHz, host gpu-node-7"), std::string::npos) << text;
  EXPECT_NE(text.find("Sealed 2023-11-14 22:13:20 UTC"), std::string::npos) << text;
  EXPECT_NE(text.find("//   {\"trials\":5,\"passed\":5}"), std::string::npos) << text;
  EXPECT_NE(text.find("//   dim3 grid(ceil_div(N, 256), 1, 1);"), std::string::npos) << text;
  EXPECT_NE(text.find("//   gelu_kernel<<<grid, block, 0>>>(/* inputs..., outputs..., scalars (long long) */);"), std::string::npos) << text;
  // The source follows verbatim, ending in a newline; nothing after the header is uncommented but the source.
  expectOnlyCommentsBeforeTheSource(text, k.source);
  EXPECT_EQ(text, exportedKernelFile(k, "gelu_f32_1048576", nullptr, &s)) << "the vault and the CLI write the same file";
  Candidate other = k;
  other.id = 43;
  EXPECT_NE(text.find("// Candidate #42 of run #3, generation 7\n"), std::string::npos) << text;
  EXPECT_THROW(sealedKernelFile(s, other, "t", nullptr), std::invalid_argument);
}

TEST(KernelExport, LaunchSnippetNamesArgumentsFromTheSpec) {
  TaskSpec spec;
  spec.axes = {{"N", 1024}};
  spec.inputs.resize(1);
  spec.inputs[0].name = "x";
  spec.outputs.resize(1);
  spec.outputs[0].name = "y";
  spec.scalars = {"N"};
  LaunchRule r;
  r.entry = "k";
  r.dynamicSmemBytes = "4*256";
  const std::string s = launchSnippet(r, &spec);
  EXPECT_NE(s.find("N = 1024"), std::string::npos) << s;
  EXPECT_NE(s.find("k<<<grid, block, 4*256>>>(x, y, N);"), std::string::npos) << s;
}

TEST(KernelExport, LaunchSnippetCarriesTheTensorMaps) {
  TaskSpec spec;
  spec.name = "t";
  spec.axes = {{"M", 300}, {"K", 64}};
  spec.inputs.resize(1);
  spec.inputs[0].name = "A";
  spec.inputs[0].dtype = DType::BF16;
  spec.inputs[0].shape = {"M", "K"};
  spec.outputs.resize(1);
  spec.outputs[0].name = "C";
  spec.outputs[0].shape = {"M", "K"};
  spec.scalars = {"M"};
  LaunchRule r;
  r.entry = "k";
  r.tensorMaps = {{"A", 128, 64, "128B"}};
  const std::string s = launchSnippet(r, &spec);
  EXPECT_NE(s.find("k<<<grid, block, 0>>>(A, C, M, tmap_A);"), std::string::npos) << s;
  EXPECT_NE(s.find("//   tmap_A: A (300 x 64), box 128 x 64 (rows x cols), swizzle 128B\n"), std::string::npos) << s;
  EXPECT_NE(s.find("cuTensorMapEncodeTiled"), std::string::npos) << s;
  EXPECT_NE(s.find(R"(// Launch rule: {"block":["1","1","1"],"dynamicSmemBytes":"0","entry":"k","grid":["1","1","1"],)"
                   R"("tensorMaps":[{"boxCols":64,"boxRows":128,"swizzle":"128B","tensor":"A"}]})"),
            std::string::npos)
      << s;
  // Without a spec the arguments are described, maps included.
  EXPECT_NE(launchSnippet(r, nullptr).find("(/* inputs..., outputs..., scalars (long long), tensor maps */)"),
            std::string::npos)
      << launchSnippet(r, nullptr);
  // A kernel without maps gets no tensor-map lines.
  r.tensorMaps.clear();
  EXPECT_EQ(launchSnippet(r, &spec).find("ensor map"), std::string::npos) << launchSnippet(r, &spec);
}

TEST(KernelExport, AnUnsealedKernelGetsItsOwnTimingAndNoSealLines) {
  Candidate k = geluKernel();
  k.architectureKey = "vec4/row";
  Timing t;
  t.medianUs = 12.5;
  t.referenceMedianUs = 25;
  t.speedup = 2;
  t.smClockMHz = 1980;
  k.timing = t;
  const std::string text = exportedKernelFile(k, "gelu_f32_1048576", nullptr, nullptr);
  EXPECT_EQ(text.rfind("// Crucible kernel of task gelu_f32_1048576\n", 0), 0u) << text;
  EXPECT_NE(text.find("// Candidate #42 of run #3, generation 7, architecture vec4/row\n"), std::string::npos) << text;
  EXPECT_NE(text.find("// Median 12.500 us, 2.000x the reference it was measured against (25.000 us), SM clock 1980 MHz"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Sealed"), std::string::npos) << text;
  EXPECT_EQ(text.find("Validation report"), std::string::npos) << text;
  EXPECT_NE(text.find("//   gelu_kernel<<<grid, block, 0>>>("), std::string::npos) << text;
  expectOnlyCommentsBeforeTheSource(text, k.source);

  k.timing.reset();
  EXPECT_NE(exportedKernelFile(k, "t", nullptr, nullptr).find("// Not timed\n"), std::string::npos);
  Seal other = sealOf(1, 3, 43);
  EXPECT_THROW(exportedKernelFile(k, "t", nullptr, &other), std::invalid_argument);
}

TEST(KernelExport, TheRecordBesideTheFileCarriesTheLaunchWithItsTensorMaps) {
  Candidate k = geluKernel();
  k.launch.dynamicSmemBytes = "N*4";
  const auto j = exportedKernelJson("gelu_f32_1048576", "gelu", R"({"name": "gelu_f32_1048576"})", k);
  EXPECT_EQ(j["task"], "gelu_f32_1048576");
  EXPECT_EQ(j["family"], "gelu");
  EXPECT_EQ(j["spec"]["name"], "gelu_f32_1048576");
  EXPECT_EQ(j["entry"], "gelu_kernel");
  EXPECT_EQ(j["smem"], "N*4");
  EXPECT_TRUE(j["launch"]["tensorMaps"].is_array());
  EXPECT_TRUE(j["launch"]["tensorMaps"].empty());
}
