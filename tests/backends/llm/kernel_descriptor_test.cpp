// SPDX-License-Identifier: GPL-3.0-or-later
// Descriptors of model-written kernels from the compile report's PTX features
// or, without one, from the source; the normalised source used for novelty.
#include <gtest/gtest.h>

#include "backends/proposers/llm/kernel_descriptor.h"
#include "tests/backends/llm/llm_test_task.h"

namespace crucible::llm {
namespace {

CompileReport reportWith(std::map<std::string, int> features, int staticSmem = 0) {
  CompileReport r;
  r.ok = true;
  r.features = std::move(features);
  r.staticSmemBytes = staticSmem;
  return r;
}

TEST(DescribeKernel, FromPtxFeatures) {
  auto d = describeKernel("", reportWith({{"wgmma", 8}, {"cp.async.bulk", 2}, {"cp.async.bulk.tensor", 2},
                                          {"ld.global.16B", 1}, {"st.global.8B", 4}}));
  EXPECT_EQ(d.at("memory"), "tma");
  EXPECT_EQ(d.at("tensor_core"), "wgmma");
  EXPECT_EQ(d.at("vector_bytes"), "16");
  EXPECT_EQ(d.at("reduction"), "none");

  d = describeKernel("", reportWith({{"mma", 4}, {"cp.async", 6}, {"ld.global.4B", 2}}));
  EXPECT_EQ(d.at("memory"), "cp_async");
  EXPECT_EQ(d.at("tensor_core"), "mma");
  EXPECT_EQ(d.at("vector_bytes"), "4");

  d = describeKernel("", reportWith({{"ld.shared", 3}, {"bar.sync", 2}, {"atom", 1}, {"ld.global.8B", 1}}));
  EXPECT_EQ(d.at("memory"), "smem");
  EXPECT_EQ(d.at("tensor_core"), "none");
  EXPECT_EQ(d.at("vector_bytes"), "8");
  EXPECT_EQ(d.at("reduction"), "atomic");
}

TEST(DescribeKernel, TheReportWinsOverTheSource) {
  // The source says float4, the compiler emitted scalar loads: the PTX is the truth.
  const auto d = describeKernel(testing::kWarpPerRowKernel, reportWith({{"ld.global.4B", 4}, {"shfl", 5}}));
  EXPECT_EQ(d.at("vector_bytes"), "4");
}

TEST(DescribeKernel, FromSourceWithoutAReport) {
  auto d = describeKernel(testing::kWarpPerRowKernel, std::nullopt);
  EXPECT_EQ(d.at("memory"), "global");
  EXPECT_EQ(d.at("vector_bytes"), "16");
  EXPECT_EQ(d.at("reduction"), "shuffle");
  EXPECT_EQ(d.at("tensor_core"), "none");

  d = describeKernel("__global__ void k() { __shared__ float s[32]; atomicAdd(p, 1); }", std::nullopt);
  EXPECT_EQ(d.at("memory"), "smem");
  EXPECT_EQ(d.at("reduction"), "atomic");

  // A failed compile's report is not evidence.
  CompileReport failed;
  failed.ok = false;
  d = describeKernel("asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\")", failed);
  EXPECT_EQ(d.at("memory"), "cp_async");

  // Comments cannot claim a feature.
  d = describeKernel("// uses __shared__ and __shfl_xor_sync and float4\n__global__ void k() {}", std::nullopt);
  EXPECT_EQ(d.at("memory"), "global");
  EXPECT_EQ(d.at("reduction"), "none");
  EXPECT_EQ(d.at("vector_bytes"), "4");
}

TEST(NormalisedSource, IgnoresCommentsAndSpacing) {
  const std::string a = "// one\nint  f(int a) {\n  return a + 1; /* inc */\n}\n";
  const std::string b = "int f(int a){return a+1;}";
  EXPECT_EQ(normalisedSource(a), normalisedSource(b));
  EXPECT_EQ(normalisedSource(b), "int f(int a){return a+1;}");
  EXPECT_NE(normalisedSource(a), normalisedSource("int f(int a){return a+2;}"));
  // Identifiers stay apart; string contents are kept verbatim.
  EXPECT_NE(normalisedSource("unsigned int x;"), normalisedSource("unsignedint x;"));
  EXPECT_NE(normalisedSource("const char* s = \"a  b\";"), normalisedSource("const char* s = \"a b\";"));
  EXPECT_EQ(normalisedSource("s = \"// not a comment\";"), "s=\"// not a comment\";");
  // Preprocessor lines keep their ends: a define cannot swallow the next line.
  EXPECT_EQ(normalisedSource("  #define A 1 // one\nint x = A;\n#include <x.h>\n"), "#define A 1\nint x=A;\n#include<x.h>\n");
  EXPECT_NE(normalisedSource("#define A 1\nint x;"), normalisedSource("#define A 1 int x;"));
}

}  // namespace
}  // namespace crucible::llm
