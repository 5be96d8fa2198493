// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/compile_log.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

// Verbatim shapes of NVRTC 13 output.
constexpr const char* kNvrtcLog =
    "candidate.cu(9): error: expected a \";\"\n"
    "    }\n"
    "    ^\n"
    "\n"
    "candidate.cu(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "  extern \"C\" __global__ void k(int* a){ int unused; a[0]=1; }\n"
    "                                            ^\n"
    "\n"
    "/usr/local/cuda/include/cuda_fp16.hpp(120): error: something in a header\n"
    "\n"
    "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
    "\n"
    "1 error detected in the compilation of \"candidate.cu\".\n";

TEST(NvrtcLog, ParsesLineColumnSeverityAndMessage) {
  const auto d = parseNvrtcLog(kNvrtcLog, "candidate.cu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 9);
  EXPECT_EQ(d[0].column, 3);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "expected a \";\"");
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[1].column, 43);
  EXPECT_EQ(d[1].severity, "warning");
  EXPECT_EQ(d[1].message, "variable \"unused\" was declared but never referenced");
  // A header's diagnostic is not a candidate line: line 0, location in the message.
  EXPECT_EQ(d[2].line, 0);
  EXPECT_EQ(d[2].severity, "error");
  EXPECT_NE(d[2].message.find("cuda_fp16.hpp(120)"), std::string::npos);
}

TEST(NvrtcLog, SubtractsPreludeLines) {
  const auto d = parseNvrtcLog("candidate.cu(12): error: boom\ncandidate.cu(3): error: in prelude\n", "candidate.cu", 10);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[1].line, 0);
  EXPECT_NE(d[1].message.find("prelude line 3"), std::string::npos);
}

TEST(NvrtcLog, CatastrophicErrorIsAnError) {
  const auto d = parseNvrtcLog(
      "candidate.cu(1): catastrophic error: cannot open source file \"cstdint\"\n  #include <cstdint>\n"
      "                    ^\n",
      "candidate.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].line, 1);
  EXPECT_EQ(d[0].column, 19);
  EXPECT_EQ(d[0].message, "cannot open source file \"cstdint\"");
}

// nvJitLink -verbose info log (CUDA 13), two kernels and a device function.
constexpr const char* kPtxasLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'small' for 'sm_90'\n"
    "ptxas info    : Function properties for small\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
    "ptxas info    : Function properties for k\n"
    "ptxas         .     1024 bytes stack frame, 16 bytes spill stores, 24 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 16.358 ms\n"
    "info    : 0 bytes gmem\n"
    "info    : Function properties for 'k':\n"
    "info    : used 32 registers, used 0 barriers, 1024 stack, 0 bytes smem, 552 bytes cmem[0], 8 bytes lmem\n";

TEST(PtxasInfo, ReadsResourcesPerFunction) {
  const auto stats = parsePtxasInfo(kPtxasLog);
  ASSERT_EQ(stats.count("small"), 1u);
  ASSERT_EQ(stats.count("k"), 1u);
  const auto& small = stats.at("small");
  EXPECT_TRUE(small.entry);
  EXPECT_EQ(small.registers, 8);
  EXPECT_EQ(small.sharedBytes, 4096);
  EXPECT_EQ(small.barriers, 1);
  EXPECT_EQ(small.stackBytes, 0);
  const auto& k = stats.at("k");
  EXPECT_TRUE(k.entry);
  EXPECT_EQ(k.registers, 32);
  EXPECT_EQ(k.stackBytes, 1024);
  EXPECT_EQ(k.spillStoreBytes, 16);
  EXPECT_EQ(k.spillLoadBytes, 24);
  EXPECT_EQ(k.localBytes, 8);
  EXPECT_EQ(k.sharedBytes, 0);
}

TEST(LinkerLog, ErrorLinesBecomeDiagnostics) {
  const auto d = parseLinkerErrors(
      "ptxas error   : Entry function 'k' uses too much shared data (0x20000 bytes, 0xc000 max)\n"
      "ptxas info    : fine\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_NE(d[0].message.find("too much shared data"), std::string::npos);
}

// A log echoes source lines: a megabyte-long line, or absurd figures, are read
// without recursion (std::regex overflowed the stack) and without throwing.
TEST(CompileLog, HostileLinesAreReadInLinearTime) {
  const std::string longLine(1 << 20, '(');
  const std::string log = "candidate.cu(3): error: expected a \";\"\n  " + longLine + "\n  ^\n" + longLine + "1): error: x\n";
  const auto d = parseNvrtcLog(log, "candidate.cu");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].line, 3);
  EXPECT_EQ(d[1].line, 0);  // the file name is the line of '(' itself
  EXPECT_TRUE(parseLinkerErrors(std::string(1 << 20, ' ') + "error").empty());
  const auto stats = parsePtxasInfo("ptxas info    : Function properties for k\n"
                                    "ptxas info    : Used 99999999999999999999 registers, " + std::string(1 << 20, '7') + " bytes smem\n");
  ASSERT_EQ(stats.count("k"), 1u);
  EXPECT_EQ(stats.at("k").registers, 2147483647);
  EXPECT_EQ(stats.at("k").sharedBytes, 2147483647);
}

}  // namespace
}  // namespace crucible
