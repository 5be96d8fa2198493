// SPDX-License-Identifier: GPL-3.0-or-later
// Compiles real kernels with NVRTC (whole-program, PTX and cubin): needs the toolkit, not a GPU.
#include "backends/cuda/compile/nvrtc_compiler.h"

#include <gtest/gtest.h>

#include "backends/cuda/compile/compile_all.h"

namespace crucible {
namespace {

int feature(const CompileReport& r, const std::string& key) {
  auto it = r.features.find(key);
  return it == r.features.end() ? 0 : it->second;
}

std::string allDiagnostics(const CompileReport& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += std::to_string(d.line) + ": " + d.severity + ": " + d.message + "\n";
  return s + r.log;
}

CompileResult compileOne(const std::string& source, const std::string& entry, const std::string& arch = "sm_90") {
  NvrtcCompiler compiler;
  return compiler.compile(CompileRequest{source, entry, arch, {}});
}

constexpr const char* kScale = R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void scale(const float* __restrict__ in, float* __restrict__ out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s + __half2float(__float2half(0.0f)) + __bfloat162float(__float2bfloat16(0.0f));
}
)";

TEST(NvrtcCompiler, CorrectKernelCompilesToCubinWithRegisters) {
  const auto r = compileOne(kScale, "scale");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_EQ(r.report.arch, "sm_90");
  EXPECT_GT(r.report.registers, 0);
  ASSERT_GE(r.cubin.size(), 4u);
  EXPECT_EQ(r.cubin.substr(0, 4), "\x7f" "ELF");  // a cubin is an ELF image
  EXPECT_EQ(r.report.localBytes, 0);
  EXPECT_EQ(r.report.spillStoreBytes, 0);
  EXPECT_GT(feature(r.report, "ld.global"), 0);
  EXPECT_GT(r.report.seconds, 0.0);
  EXPECT_NE(r.report.log.find("registers"), std::string::npos) << "the raw log keeps ptxas's report";
}

TEST(NvrtcCompiler, FindsTheToolkitHeadersIncludingLibcuxx) {
  const auto r = compileOne(R"(#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda/std/cstdint>
extern "C" __global__ void headers(cuda::std::uint32_t* out) { out[threadIdx.x] = threadIdx.x; }
)",
                            "headers");
  EXPECT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_FALSE(NvrtcCompiler().includeDir().empty());
}

TEST(NvrtcCompiler, SyntaxErrorReportsTheCandidateLineAndMessage) {
  const auto r = compileOne(
      "extern \"C\" __global__ void broken(float* out) {\n"
      "  int i = threadIdx.x;\n"
      "  out[i] = 1.0f +;\n"
      "}\n",
      "broken");
  EXPECT_FALSE(r.report.ok);
  EXPECT_TRUE(r.cubin.empty());
  ASSERT_FALSE(r.report.diagnostics.empty()) << r.report.log;
  const auto& d = r.report.diagnostics.front();
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 18);
  EXPECT_EQ(d.severity, "error");
  EXPECT_EQ(d.message, "expected an expression");
  EXPECT_NE(r.report.log.find("candidate.cu(3)"), std::string::npos);
}

TEST(NvrtcCompiler, DynamicallyIndexedLocalArrayUsesLocalMemory) {
  const auto r = compileOne(R"(extern "C" __global__ void local_array(const float* in, float* out, int n, int j) {
  float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int q = 0; q < 256; ++q) buf[q] = in[(i + q) % n];
  out[i] = buf[j & 255];
}
)",
                            "local_array");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_GE(r.report.localBytes, 1024) << r.report.log;  // 256 floats per thread
}

TEST(NvrtcCompiler, Float4LoadsShowAs128BitGlobalLoads) {
  const auto r = compileOne(R"(extern "C" __global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
)",
                            "copy4");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_EQ(feature(r.report, "ld.global.v4"), 1);
  EXPECT_EQ(feature(r.report, "ld.global.16B"), 1);
  EXPECT_EQ(feature(r.report, "st.global.v4"), 1);
  EXPECT_EQ(feature(r.report, "ld.global.4B"), 0);
}

TEST(NvrtcCompiler, WarpShuffleAndInlineMmaAreDetected) {
  const auto r = compileOne(R"(extern "C" __global__ void warp_mma(const unsigned* a, const unsigned* b, float* c) {
  unsigned a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], b0 = b[0], b1 = b[1];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d0 += __shfl_xor_sync(0xffffffffu, d0, 1);
  float* o = c + threadIdx.x * 4;
  o[0] = d0; o[1] = d1; o[2] = d2; o[3] = d3;
}
)",
                            "warp_mma");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_EQ(r.report.arch, "sm_90");
  EXPECT_EQ(feature(r.report, "mma"), 1);
  EXPECT_EQ(feature(r.report, "shfl"), 1);
  EXPECT_EQ(feature(r.report, "wgmma"), 0);
}

TEST(NvrtcCompiler, WgmmaSwitchesToSm90a) {
  const auto r = compileOne(R"(extern "C" __global__ void wg(unsigned long long da, unsigned long long db, float* c) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
               "wgmma.fence.sync.aligned;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n"
               "wgmma.commit_group.sync.aligned;\n"
               "wgmma.wait_group.sync.aligned 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db), "r"(1));
  float* o = c + threadIdx.x * 4;
  o[0] = d0; o[1] = d1; o[2] = d2; o[3] = d3;
}
)",
                            "wg", "sm_90");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_EQ(r.report.arch, "sm_90a");
  EXPECT_EQ(feature(r.report, "wgmma"), 1);
  EXPECT_FALSE(r.cubin.empty());
}

TEST(NvrtcCompiler, UnknownArchIsAClearError) {
  const auto r = compileOne(kScale, "scale", "hopper");
  EXPECT_FALSE(r.report.ok);
  ASSERT_EQ(r.report.diagnostics.size(), 1u);
  EXPECT_NE(r.report.diagnostics[0].message.find("'hopper'"), std::string::npos);
}

TEST(NvrtcCompiler, MissingEntryIsACompileError) {
  const auto r = compileOne(kScale, "no_such_kernel");
  EXPECT_FALSE(r.report.ok);
  EXPECT_TRUE(r.cubin.empty());
  ASSERT_FALSE(r.report.diagnostics.empty());
  EXPECT_NE(r.report.diagnostics.back().message.find("'no_such_kernel'"), std::string::npos);
}

TEST(NvrtcCompiler, ResourceOverflowIsReportedByTheAssembler) {
  // 256 KiB of static shared memory is more than any GPU has: ptxas refuses it.
  const auto r = compileOne(R"(extern "C" __global__ void hog(float* out) {
  __shared__ float big[65536];
  big[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = big[threadIdx.x ^ 1];
}
)",
                            "hog");
  EXPECT_FALSE(r.report.ok);
  ASSERT_FALSE(r.report.diagnostics.empty());
  EXPECT_EQ(r.report.diagnostics.front().line, 0);
  EXPECT_NE(r.report.diagnostics.front().message.find("shared"), std::string::npos) << allDiagnostics(r.report);
}

// A 64 x 64 transpose tile staged through padded shared memory (the template
// transpose's smem_padded, TILE=64, VEC=4, ROWS_PER_THREAD=4, 256 threads).
constexpr const char* kTransposeTile = R"(struct alignas(16) Pack { float v[4]; };
extern "C" __global__ void __launch_bounds__(256) transpose_tile(const float* __restrict__ x, float* __restrict__ y,
                                                                 long long M, long long N) {
  const long long row0 = (long long)blockIdx.y * 64, col0 = (long long)blockIdx.x * 64;
  __shared__ float tile[64][65];
  Pack in[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const long long row = row0 + threadIdx.y + i * 16;
    if (row < M && col0 + threadIdx.x * 4 < N) in[i] = reinterpret_cast<const Pack*>(x + row * N + col0)[threadIdx.x];
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = threadIdx.y + i * 16;
    if (row0 + r < M && col0 + threadIdx.x * 4 < N)
#pragma unroll
      for (int k = 0; k < 4; ++k) tile[r][threadIdx.x * 4 + k] = in[i].v[k];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int out_r = threadIdx.y + i * 16;
    const long long out_row = col0 + out_r;
    if (out_row < N && row0 + threadIdx.x * 4 < M) {
      Pack out;
#pragma unroll
      for (int k = 0; k < 4; ++k) out.v[k] = tile[threadIdx.x * 4 + k][out_r];
      reinterpret_cast<Pack*>(y + out_row * M + row0)[threadIdx.x] = out;
    }
  }
}
)";

// Candidates are compiled whole-program, as nvcc and Triton compile. Assembled as a
// separate compilation unit (nvJitLink's PTX input, ptxas -c), this kernel took 46
// registers instead of 32 on CUDA 13.0: five of its blocks fit an SM instead of eight,
// and such kernels measured up to 17% slower on the H200 (results/2026-12-03-h200-whole-program.md).
TEST(NvrtcCompiler, KernelsAreCompiledWholeProgram) {
  const auto r = compileOne(kTransposeTile, "transpose_tile");
  ASSERT_TRUE(r.report.ok) << allDiagnostics(r.report);
  EXPECT_GT(r.report.registers, 0);
  EXPECT_LE(r.report.registers, 32) << r.report.log;
  EXPECT_EQ(r.report.spillStoreBytes, 0);
  EXPECT_EQ(r.report.staticSmemBytes, 64 * 65 * 4);
}

TEST(NvrtcCompiler, SixteenParallelCompilesAllSucceed) {
  NvrtcCompiler compiler;
  std::vector<CompileRequest> requests;
  for (int i = 0; i < 16; ++i) {
    // Distinct sources so no compile can be served by another's result.
    std::string src = "extern \"C\" __global__ void k" + std::to_string(i) +
                      "(float* x) { x[threadIdx.x] *= " + std::to_string(i + 1) + ".0f; }\n";
    requests.push_back(CompileRequest{src, "k" + std::to_string(i), "sm_90", {}});
  }
  const auto results = compileAll(compiler, requests, 8);
  ASSERT_EQ(results.size(), requests.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_TRUE(results[i].report.ok) << i << ": " << allDiagnostics(results[i].report);
    EXPECT_FALSE(results[i].cubin.empty()) << i;
    EXPECT_GT(results[i].report.registers, 0) << i;
  }
}

TEST(CompileAll, AThrowingCompilerFailsOnlyThatRequest) {
  struct Flaky : Compiler {
    CompileResult compile(const CompileRequest& r) override {
      if (r.entry == "bad") throw std::runtime_error("out of luck");
      CompileResult ok;
      ok.report.ok = true;
      ok.cubin = r.entry;
      return ok;
    }
  } flaky;
  const auto results = compileAll(flaky, {{"", "a", "", {}}, {"", "bad", "", {}}, {"", "c", "", {}}}, 3);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].report.ok);
  EXPECT_EQ(results[0].cubin, "a");
  EXPECT_FALSE(results[1].report.ok);
  ASSERT_EQ(results[1].report.diagnostics.size(), 1u);
  EXPECT_NE(results[1].report.diagnostics[0].message.find("out of luck"), std::string::npos);
  EXPECT_EQ(results[2].cubin, "c");
}

}  // namespace
}  // namespace crucible
