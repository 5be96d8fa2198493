// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's compiler (issue 17): real NVRTC (no GPU needed), with a
// stand-in nvdisasm (a shell script) so the SASS path is tested where the
// toolkit has none; the real nvdisasm is used by the device run when present.
#include "backends/cuda/compile/kernel_inspector.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

// Line 4 computes, line 5 stores: the maps must find both.
constexpr const char* kScale = R"(// a kernel the editor shows
extern "C" __global__ void scale(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] * 3.0f : 0.0f;
  if (i < n) out[i] = v;
}
)";

class ScratchDir {
public:
  ScratchDir() : dir_(fs::temp_directory_path() / ("crucible-inspector-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~ScratchDir() { fs::remove_all(dir_); }
  // An executable script `name` in the folder with this body.
  std::string script(const std::string& name, const std::string& body) const {
    const fs::path p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    ::chmod(p.c_str(), 0755);
    return p.string();
  }
  const fs::path& path() const { return dir_; }

private:
  fs::path dir_;
};

InspectionRequest scaleRequest() {
  InspectionRequest r;
  r.source = kScale;
  r.launch.entry = "scale";
  r.arch = "sm_90";
  return r;
}

TEST(KernelInspector, PtxComesWithTheSourceLinesOfItsInstructions) {
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector(compiler, {"/nonexistent/nvdisasm", 30});
  const KernelInspection k = inspector.inspect(scaleRequest());
  ASSERT_TRUE(k.report.ok) << k.report.log;
  EXPECT_GT(k.report.registers, 0);
  ASSERT_NE(k.ptx.find(".entry scale"), std::string::npos);
  EXPECT_FALSE(k.ptxLines.linesFor(4).empty()) << "the multiply has PTX";
  EXPECT_FALSE(k.ptxLines.linesFor(5).empty()) << "the store has PTX";
  EXPECT_TRUE(k.ptxLines.linesFor(1).empty()) << "a comment makes no code";
  // The store's PTX lines hold the store.
  bool store = false;
  std::vector<std::string> lines;
  for (std::size_t a = 0, b; a <= k.ptx.size(); a = b + 1) {
    b = k.ptx.find('\n', a);
    if (b == std::string::npos) b = k.ptx.size();
    lines.push_back(k.ptx.substr(a, b - a));
  }
  for (int l : k.ptxLines.linesFor(5)) store = store || lines.at(l - 1).find("st.global") != std::string::npos;
  EXPECT_TRUE(store);
  EXPECT_TRUE(k.abiProblems.empty()) << "no task, no ABI check";
  EXPECT_NE(k.sassUnavailable.find("nvdisasm could not be started"), std::string::npos) << k.sassUnavailable;
}

TEST(KernelInspector, ACompileErrorComesOnItsLineAndNoListing) {
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector(compiler, {"/nonexistent/nvdisasm", 30});
  InspectionRequest r = scaleRequest();
  r.source.replace(r.source.find("3.0f"), 4, "undeclared_thing");
  const KernelInspection k = inspector.inspect(r);
  EXPECT_FALSE(k.report.ok);
  bool onLine4 = false;
  for (const auto& d : k.report.diagnostics) onLine4 = onLine4 || (d.line == 4 && d.severity == "error");
  EXPECT_TRUE(onLine4) << k.report.log;
  EXPECT_TRUE(k.ptx.empty());
  EXPECT_EQ(k.sassUnavailable, "no SASS: the kernel did not compile");
}

TEST(KernelInspector, TheSignatureIsCheckedAgainstTheTask) {
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector(compiler, {"/nonexistent/nvdisasm", 30});
  const std::string file = builtinTasksDir() + "/softmax_f32_1024x1024.json";
  std::ifstream in(file);
  const std::string specJson((std::istreambuf_iterator<char>(in)), {});
  const TaskSpec spec = parseTaskSpec(specJson);
  InspectionRequest r = scaleRequest();  // scale(in, out, n) is not softmax's ABI
  r.taskSpecJson = specJson;
  r.launch.entry = spec.entry;
  KernelInspection k = inspector.inspect(r);
  ASSERT_EQ(k.abiProblems.size(), 1u);
  EXPECT_NE(k.abiProblems[0].find(kernelSignature(spec, KernelRole::Candidate, spec.entry)), std::string::npos)
      << "the message shows the signature the task expects";
  r.source = spec.baseline.source;  // the task's own baseline follows it
  k = inspector.inspect(r);
  EXPECT_TRUE(k.abiProblems.empty()) << k.abiProblems.front();
  EXPECT_TRUE(k.report.ok);
}

TEST(KernelInspector, SassComesFromNvdisasmWithItsLineInfo) {
  ScratchDir dir;
  // The stand-in checks it was given a cubin (an ELF file), then prints a listing as nvdisasm does.
  const std::string tool = dir.script("nvdisasm", R"(
for last; do :; done
head -c 4 "$last" | grep -q ELF || { echo "not a cubin: $last" >&2; exit 3; }
echo "$@" > ")" + (dir.path() / "args").string() + R"("
printf '.text.scale:\n\t//## File "candidate.cu", line 4\n        /*0000*/  FMUL R0, R2, 3 ;\n\t//## File "candidate.cu", line 5\n        /*0010*/  STG.E [R4.64], R0 ;\n'
)");
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector(compiler, {tool, 30});
  const KernelInspection k = inspector.inspect(scaleRequest());
  ASSERT_TRUE(k.sassUnavailable.empty()) << k.sassUnavailable;
  EXPECT_EQ(k.sassLines.linesFor(4), (std::vector<int>{3}));
  EXPECT_EQ(k.sassLines.linesFor(5), (std::vector<int>{5}));
  std::ifstream args(dir.path() / "args");
  const std::string given((std::istreambuf_iterator<char>(args)), {});
  EXPECT_NE(given.find("--print-line-info"), std::string::npos) << given;
}

// The toolkit's own nvdisasm, where installed (the device image has it; this
// machine's Debian CUDA toolkit may not): the real listing, parsed the same way.
TEST(KernelInspector, TheToolkitsNvdisasmGivesSassWithSourceLines) {
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector(compiler);   // nvdisasm found on PATH or in the toolkit
  const KernelInspection k = inspector.inspect(scaleRequest());
  ASSERT_TRUE(k.report.ok);
  if (!k.sassUnavailable.empty()) GTEST_SKIP() << "no nvdisasm here: " << k.sassUnavailable;
  EXPECT_FALSE(k.sass.empty());
  // The multiply is on line 4 and the store on line 5; each has instructions, and a store among line 5's.
  ASSERT_FALSE(k.sassLines.linesFor(4).empty()) << k.sass;
  ASSERT_FALSE(k.sassLines.linesFor(5).empty()) << k.sass;
  std::vector<std::string> listing;   // listing line n is listing[n - 1], as the maps count
  std::istringstream in(k.sass);
  for (std::string line; std::getline(in, line);) listing.push_back(line);
  bool storeOnLine5 = false;
  for (int line : k.sassLines.linesFor(5))
    storeOnLine5 |= line >= 1 && line <= static_cast<int>(listing.size()) &&
                    listing[line - 1].find("STG") != std::string::npos;
  EXPECT_TRUE(storeOnLine5) << k.sass;
  std::cout << "nvdisasm: " << k.sass.size() << " bytes of SASS; line 4 -> " << k.sassLines.linesFor(4).size()
            << " instructions, line 5 -> " << k.sassLines.linesFor(5).size() << "\n";
}

TEST(KernelInspector, AFailingOrHangingNvdisasmIsReportedNotFatal) {
  ScratchDir dir;
  NvrtcCompiler compiler;
  {
    NvrtcKernelInspector inspector(compiler, {dir.script("fails", "echo 'nvdisasm fatal : bad input' >&2\nexit 1\n"), 30});
    const KernelInspection k = inspector.inspect(scaleRequest());
    EXPECT_TRUE(k.report.ok);
    EXPECT_NE(k.sassUnavailable.find("nvdisasm failed: nvdisasm fatal : bad input"), std::string::npos)
        << k.sassUnavailable;
  }
  NvrtcKernelInspector inspector(compiler, {dir.script("hangs", "sleep 30\n"), 0.5});
  const KernelInspection k = inspector.inspect(scaleRequest());
  EXPECT_NE(k.sassUnavailable.find("longer than its limit"), std::string::npos) << k.sassUnavailable;
  EXPECT_FALSE(k.ptx.empty()) << "the PTX is still shown";
}

}  // namespace
}  // namespace crucible
