// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor maps without a GPU: the arguments each rule gives cuTensorMapEncodeTiled
// (checked through a stand-in encoder that records them), the parameter array
// they extend, the ResourceError a bad rule or a refused encode earns, and the
// TMA test kernels compiled with NVRTC for sm_90a.
#include <gtest/gtest.h>
#include <cstring>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/tensor_maps.h"
#include "core/task/kernel_abi.h"
#include "tests/backends/gpu/tma_kernels.h"

namespace crucible::cuda {
namespace {

// What the stand-in encoder saw, one entry per call.
struct EncodeCall {
  CUtensorMap* map = nullptr;
  TensorMapEncoding e;
  void* address = nullptr;
};
std::vector<EncodeCall> calls;
CUresult answer = CUDA_SUCCESS;

CUresult recordingEncoder(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                          const cuuint64_t* dim, const cuuint64_t* strides, const cuuint32_t* box,
                          const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                          CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  EncodeCall c;
  c.map = map;
  c.address = address;
  c.e.dataType = type;
  c.e.rank = rank;
  c.e.globalDim[0] = dim[0];
  c.e.globalDim[1] = dim[1];
  c.e.globalStrides[0] = strides[0];
  c.e.boxDim[0] = box[0];
  c.e.boxDim[1] = box[1];
  c.e.elementStrides[0] = elementStrides[0];
  c.e.elementStrides[1] = elementStrides[1];
  c.e.interleave = interleave;
  c.e.swizzle = swizzle;
  c.e.l2Promotion = l2;
  c.e.oobFill = oob;
  calls.push_back(c);
  // Marks the map so a test can tell which one a parameter points at.
  std::memset(map, static_cast<int>(calls.size()), sizeof(CUtensorMap));
  return answer;
}

TaskSpec gemmSpec() {
  // A bf16 GEMM shape: A is M x K, B is K x N, C is M x N; a batch axis on C.
  return parseTaskSpec(R"JSON({
    "format": 1, "name": "gemm_bf16", "family": "matmul", "description": "C = A B",
    "axes": {"M": 1000, "N": 512, "K": 264, "S": 2},
    "inputs": [{"name": "A", "dtype": "bf16", "shape": ["M", "K"], "distribution": {"kind": "normal", "mean": 0, "stddev": 1}},
               {"name": "B", "dtype": "bf16", "shape": ["K", "N"], "distribution": {"kind": "normal", "mean": 0, "stddev": 1}}],
    "outputs": [{"name": "C", "dtype": "f32", "shape": ["S", "M", "N"]}],
    "scalars": ["M", "N", "K"], "tolerances": {"C": {"rtol": 1e-2, "atol": 1e-2}},
    "flops": "2*M*N*K", "minBytes": "2*M*K + 2*K*N + 4*M*N", "entry": "gemm",
    "baseline": {"source": "extern \"C\" __global__ void gemm() {}", "launch": {"entry": "gemm", "grid": [1], "block": [1]}},
    "oracle": {"source": "extern \"C\" __global__ void gemm_oracle() {}", "launch": {"entry": "gemm_oracle", "grid": [1], "block": [1]}}
  })JSON");
}

// Device addresses the stand-in buffers have: 16-byte aligned, distinct.
CUdeviceptr bufferOf(const std::string& tensor) {
  if (tensor == "A") return 0x7f0000000000;
  if (tensor == "B") return 0x7f0000100000;
  return 0x7f0000200000;
}

class TensorMapsTest : public ::testing::Test {
protected:
  void SetUp() override {
    calls.clear();
    answer = CUDA_SUCCESS;
  }
  // The KernelFailure's status and message from building maps for `rules`.
  std::pair<CandidateStatus, std::string> failureOf(const std::vector<TensorMapRule>& rules,
                                                    CUdeviceptr (*buffers)(const std::string&) = bufferOf) {
    try {
      TensorMaps maps(gemmSpec(), rules, buffers, "the candidate", recordingEncoder);
    } catch (const KernelFailure& e) {
      return {e.status(), e.what()};
    }
    return {CandidateStatus::Valid, "(no KernelFailure)"};
  }
};

TEST_F(TensorMapsTest, EachRuleBecomesARankTwoMapOfItsTensorsBuffer) {
  TensorMaps maps(gemmSpec(), {{"A", 128, 64, "128B"}, {"B", 64, 128, "none"}, {"C", 256, 4, "none"}}, bufferOf,
                  "the candidate", recordingEncoder);
  ASSERT_EQ(calls.size(), 3u);
  ASSERT_EQ(maps.size(), 3u);

  const TensorMapEncoding& a = calls[0].e;
  EXPECT_EQ(calls[0].address, reinterpret_cast<void*>(bufferOf("A")));
  EXPECT_EQ(a.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.globalDim[0], 264u);       // cols: K, innermost first
  EXPECT_EQ(a.globalDim[1], 1000u);      // rows: M
  EXPECT_EQ(a.globalStrides[0], 528u);   // 264 x 2 bytes
  EXPECT_EQ(a.boxDim[0], 64u);
  EXPECT_EQ(a.boxDim[1], 128u);
  EXPECT_EQ(a.elementStrides[0], 1u);
  EXPECT_EQ(a.elementStrides[1], 1u);
  EXPECT_EQ(a.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(a.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(a.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(a.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // out of bounds reads as zeros

  EXPECT_EQ(calls[1].address, reinterpret_cast<void*>(bufferOf("B")));
  EXPECT_EQ(calls[1].e.globalDim[0], 512u);
  EXPECT_EQ(calls[1].e.globalDim[1], 264u);
  EXPECT_EQ(calls[1].e.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);

  // C is S x M x N: rows are S*M.
  EXPECT_EQ(calls[2].e.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(calls[2].e.globalDim[0], 512u);
  EXPECT_EQ(calls[2].e.globalDim[1], 2000u);
  EXPECT_EQ(calls[2].e.globalStrides[0], 2048u);

  // The maps were encoded into the object's own storage, 64-byte aligned.
  for (std::size_t i = 0; i < maps.size(); ++i) {
    EXPECT_EQ(calls[i].map, &maps.map(i));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&maps.map(i)) % 64, 0u);
  }
}

TEST_F(TensorMapsTest, EverySwizzleAndDtypeHasItsEnum) {
  const TaskSpec spec = gemmSpec();
  EXPECT_EQ(tensorMapEncoding(spec, {"A", 8, 16, "32B"}).swizzle, CU_TENSOR_MAP_SWIZZLE_32B);
  EXPECT_EQ(tensorMapEncoding(spec, {"A", 8, 32, "64B"}).swizzle, CU_TENSOR_MAP_SWIZZLE_64B);
  EXPECT_EQ(tensorMapEncoding(spec, {"A", 8, 64, "128B"}).swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(tensorMapDataType(DType::F16), CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(tensorMapDataType(DType::F64), CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
  EXPECT_EQ(tensorMapDataType(DType::I32), CU_TENSOR_MAP_DATA_TYPE_INT32);
  EXPECT_EQ(tensorMapDataType(DType::I64), CU_TENSOR_MAP_DATA_TYPE_INT64);
  EXPECT_THROW(tensorMapEncoding(spec, {"A", 300, 64, "none"}), std::invalid_argument);
}

TEST_F(TensorMapsTest, TheMapsFollowTheTasksParametersInRuleOrder) {
  TensorMaps maps(gemmSpec(), {{"B", 64, 64, "128B"}, {"A", 128, 64, "128B"}}, bufferOf, "the candidate",
                  recordingEncoder);
  CUdeviceptr a = 1, b = 2, c = 3;
  long long m = 4;
  std::vector<void*> params = {&a, &b, &c, &m};
  maps.appendParameters(params);
  ASSERT_EQ(params.size(), 6u);
  EXPECT_EQ(params[3], &m);
  EXPECT_EQ(params[4], &maps.map(0));
  EXPECT_EQ(params[5], &maps.map(1));
  // The first map encoded (B's) is the first extra parameter.
  EXPECT_EQ(static_cast<const unsigned char*>(params[4])[0], 1);
  EXPECT_EQ(static_cast<const unsigned char*>(params[5])[0], 2);
}

TEST_F(TensorMapsTest, NoRulesNoMapsNoEncoding) {
  TensorMaps maps(gemmSpec(), {}, bufferOf, "the candidate", recordingEncoder);
  EXPECT_TRUE(maps.empty());
  std::vector<void*> params = {nullptr};
  maps.appendParameters(params);
  EXPECT_EQ(params.size(), 1u);
  EXPECT_TRUE(calls.empty());
}

TEST_F(TensorMapsTest, ABadRuleIsAResourceErrorListingItsProblemsBeforeAnyEncode) {
  const auto [status, message] = failureOf({{"A", 128, 64, "128B"}, {"B", 300, 64, "none"}, {"D", 8, 8, "none"}});
  EXPECT_EQ(status, CandidateStatus::ResourceError);
  EXPECT_EQ(message,
            "the candidate's tensor maps cannot be encoded: tensorMaps[1] (B): box rows 300 outside 1..256; "
            "tensorMaps[2] (D): unknown tensor 'D' (not an input or output of task 'gemm_bf16')");
  EXPECT_TRUE(calls.empty());
}

TEST_F(TensorMapsTest, ARefusedEncodeIsAResourceErrorWithTheDriversAnswer) {
  answer = CUDA_ERROR_INVALID_VALUE;
  const auto [status, message] = failureOf({{"A", 128, 64, "128B"}});
  EXPECT_EQ(status, CandidateStatus::ResourceError);
  EXPECT_NE(message.find("the candidate's tensorMaps[0] (A): cuTensorMapEncodeTiled refused the map "
                         "(1000 x 264 elements, box 128 x 64, swizzle 128B): "),
            std::string::npos)
      << message;
  // Without a driver here the error's name cannot be looked up: its number is given.
  EXPECT_NE(message.find(std::to_string(static_cast<int>(CUDA_ERROR_INVALID_VALUE))), std::string::npos) << message;
}

TEST_F(TensorMapsTest, AMisalignedBufferIsAResourceError) {
  const auto [status, message] =
      failureOf({{"A", 128, 64, "none"}}, [](const std::string&) -> CUdeviceptr { return 0x7f0000000008; });
  EXPECT_EQ(status, CandidateStatus::ResourceError);
  EXPECT_NE(message.find("not 16-byte aligned"), std::string::npos) << message;
  EXPECT_TRUE(calls.empty());
}

// The GPU tests' TMA kernels, compiled here so a typo in their PTX shows
// without a GPU: they must build for sm_90a, copy with the bulk tensor engine,
// and take the ABI's parameters plus the map their launch rule names.
void expectTmaKernelBuilds(const std::string& source, const LaunchRule& launch) {
  const TaskSpec spec = parseTaskSpec(gputest::kTmaTaskJson);
  EXPECT_TRUE(tensorMapProblems(spec, launch.tensorMaps).empty());
  EXPECT_TRUE(sourceHasSignature(source, spec, KernelRole::Candidate, launch.entry, launch.tensorMaps))
      << "expected " << kernelSignature(spec, KernelRole::Candidate, launch.entry, launch.tensorMaps);
  EXPECT_NE(source.find(tensorMapTypeDeclaration()), std::string::npos);
  NvrtcCompiler compiler;
  const CompileResult r = compiler.compile({source, launch.entry, "sm_90a", {}});
  ASSERT_TRUE(r.report.ok) << r.report.log;
  EXPECT_EQ(r.report.arch, "sm_90a");
  EXPECT_FALSE(r.cubin.empty());
  EXPECT_GE(r.report.features.count("cp.async.bulk.tensor") ? r.report.features.at("cp.async.bulk.tensor") : 0, 1);
}

TEST(TmaTestKernels, TheUnswizzledKernelCompilesForSm90a) {
  expectTmaKernelBuilds(gputest::kTmaScaleKernel, gputest::tmaScaleLaunch());
}

TEST(TmaTestKernels, TheSwizzledKernelCompilesForSm90a) {
  expectTmaKernelBuilds(gputest::kTmaScaleSwizzledKernel, gputest::tmaScaleSwizzledLaunch());
}

TEST(TmaTestKernels, TheTasksBaselineAndOracleCompile) {
  const TaskSpec spec = parseTaskSpec(gputest::kTmaTaskJson);
  NvrtcCompiler compiler;
  EXPECT_TRUE(compiler.compile({spec.baseline.source, spec.baseline.launch.entry, "sm_90", {}}).report.ok);
  EXPECT_TRUE(compiler.compile({spec.oracle.source, spec.oracle.launch.entry, "sm_90", {}}).report.ok);
}

}  // namespace
}  // namespace crucible::cuda
