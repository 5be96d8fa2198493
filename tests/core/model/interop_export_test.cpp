// SPDX-License-Identifier: GPL-3.0-or-later
// Exports for use outside Crucible (issue 22): the host launcher in the .cu,
// the PyTorch extension and the FlashInfer-Trace solution. The generated host
// code is compiled with nvcc where the CUDA toolkit is installed (it needs no
// GPU) and the loader is parsed by Python; building the extension against
// PyTorch and running it is the device check (tests/gpu/interop/).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include "core/model/flashinfer_solution.h"
#include "core/model/host_launcher.h"
#include "core/model/kernel_export.h"
#include "core/model/torch_extension_export.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

TaskSpec builtin(const std::string& name) {
  return loadTaskSpecFile((fs::path(builtinTasksDir()) / (name + ".json")).string());
}

Candidate baselineOf(const TaskSpec& spec) {
  Candidate c;
  c.id = 7;
  c.runId = 1;
  c.source = spec.baseline.source;
  c.launch = spec.baseline.launch;
  return c;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A kernel that takes a TMA tensor map, as the wgmma GEMM families write them.
TaskSpec tensorMapSpec(Candidate& kernel) {
  TaskSpec spec = builtin("matmul_bf16_1024x1024x1024");
  kernel = baselineOf(spec);
  kernel.launch.entry = spec.entry;
  kernel.launch.tensorMaps = {{"A", 64, 64, "128B"}};
  kernel.source = "#include <cuda_bf16.h>\n" + tensorMapTypeDeclaration() + "\n" +
                  kernelSignature(spec, KernelRole::Candidate, spec.entry, kernel.launch.tensorMaps) + " {}\n";
  return spec;
}

struct Nvcc {
  std::string path;
  Nvcc() {
    for (const char* candidate : {"/usr/local/cuda/bin/nvcc"})
      if (fs::exists(candidate)) path = candidate;
  }
  // Compiles host and device code of `source` for sm_90a; the log is returned through `log`.
  bool compiles(const std::string& source, const std::string& name, std::string& log) const {
    const fs::path dir = fs::temp_directory_path() / ("crucible-interop-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path cu = dir / (name + ".cu"), out = dir / (name + ".log");
    std::ofstream(cu) << source;
    const std::string command = path + " -std=c++17 -c -gencode=arch=compute_90a,code=sm_90a " + cu.string() +
                                " -o " + (dir / (name + ".o")).string() + " >" + out.string() + " 2>&1";
    const int rc = std::system(command.c_str());
    std::ifstream in(out);
    log.assign(std::istreambuf_iterator<char>(in), {});
    fs::remove_all(dir);
    return rc == 0;
  }
};

TEST(HostLauncher, LaunchesTheKernelWithItsRuleAtTheValidatedShape) {
  const TaskSpec spec = builtin("softmax_f32_8192x4096");
  const Candidate k = baselineOf(spec);
  const std::string text = hostLauncherSource(spec, k.launch);
  EXPECT_EQ(text.find("\n#if !defined(__CUDACC_RTC__)"), 0u) << "NVRTC must skip the launcher";
  EXPECT_NE(text.find("extern \"C\" cudaError_t crucible_launch_" + k.launch.entry + "(const void* x, void* y, cudaStream_t stream)"),
            std::string::npos)
      << text;
  // The launch rule, evaluated at the task's axes.
  long long grid0 = evaluateAxisExpression(k.launch.grid[0], spec.axes);
  EXPECT_NE(text.find("const dim3 grid(" + std::to_string(grid0) + ", "), std::string::npos) << text;
  EXPECT_NE(text.find("static_cast<const float*>(x)"), std::string::npos) << text;
  EXPECT_NE(text.find("static_cast<float*>(y)"), std::string::npos) << text;
  for (const std::string& scalar : spec.scalars)
    EXPECT_NE(text.find(std::to_string(spec.axes.at(scalar)) + "LL"), std::string::npos) << scalar;
  EXPECT_EQ(text.find("__restrict__"), std::string::npos);
}

TEST(HostLauncher, OptsInToLargeDynamicSharedMemoryAndPassesTensorMapsByValue) {
  Candidate k;
  const TaskSpec spec = tensorMapSpec(k);
  k.launch.dynamicSmemBytes = "100000";
  const std::string text = hostLauncherSource(spec, k.launch);
  EXPECT_NE(text.find("cudaFuncSetAttribute(" + spec.entry + ", cudaFuncAttributeMaxDynamicSharedMemorySize"),
            std::string::npos);
  EXPECT_NE(text.find("const void* tmap_A, cudaStream_t stream)"), std::string::npos) << text;
  EXPECT_NE(text.find(", tmap_A_value);"), std::string::npos) << text;
  k.launch.dynamicSmemBytes = "1024";
  EXPECT_EQ(hostLauncherSource(spec, k.launch).find("cudaFuncSetAttribute"), std::string::npos);
}

TEST(HostLauncher, ARuleThatDoesNotEvaluateIsRefusedWithTheField) {
  const TaskSpec spec = builtin("softmax_f32_1024x1024");
  Candidate k = baselineOf(spec);
  k.launch.grid[1] = "ceil_div(M, 0)";
  try {
    hostLauncherSource(spec, k.launch);
    FAIL() << "a division by zero must not make a launcher";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("grid[1]"), std::string::npos) << e.what();
  }
  // The exported .cu still holds the kernel, and says why it has no launcher.
  const std::string file = exportedKernelFile(k, spec.name, &spec, nullptr);
  EXPECT_NE(file.find(k.source), std::string::npos);
  EXPECT_NE(file.find("// No host launcher: the launch rule's grid[1]"), std::string::npos);
}

TEST(HostLauncher, TheExportedFileWithItsLauncherCompilesWithNvccForEveryBuiltinTask) {
  const Nvcc nvcc;
  if (nvcc.path.empty()) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda: nvcc cannot be run here";
  // One task of each family: the baselines cover every dtype the built-in tasks use.
  for (const std::string name : {"softmax_f32_1024x1024", "rmsnorm_bf16_1024x1024", "matmul_bias_relu_bf16_1024x1024x1024",
                                 "transpose_f32_2048x1024", "cross_entropy_f32_1024x32000"}) {
    const TaskSpec spec = builtin(name);
    const std::string file = exportedKernelFile(baselineOf(spec), spec.name, &spec, nullptr);
    ASSERT_EQ(count(file, "crucible_launch_"), 1u) << name;
    std::string log;
    EXPECT_TRUE(nvcc.compiles(file, name, log)) << name << ":\n" << log;
  }
  Candidate k;
  const TaskSpec spec = tensorMapSpec(k);
  std::string log;
  EXPECT_TRUE(nvcc.compiles(exportedKernelFile(k, spec.name, &spec, nullptr), "tensor_map", log)) << log;
}

TEST(TorchExtension, TheBindingChecksEveryTensorAndLaunchesOnTheCurrentStream) {
  const TaskSpec spec = builtin("matmul_bias_relu_bf16_1024x1024x1024");
  const Candidate k = baselineOf(spec);
  const std::string text = torchBindingSource(spec, k.launch, "test kernel");
  for (const TensorSpec& t : spec.inputs)
    EXPECT_NE(text.find("check_tensor(" + t.name + ", \"" + t.name + "\", torch::kBFloat16, {"), std::string::npos)
        << t.name << "\n" << text;
  for (const TensorSpec& t : spec.outputs)
    EXPECT_NE(text.find("torch::Tensor " + t.name + " = torch::empty("), std::string::npos) << text;
  EXPECT_NE(text.find("t.is_contiguous()"), std::string::npos);
  EXPECT_NE(text.find("at::cuda::getCurrentCUDAStream().stream()"), std::string::npos);
  EXPECT_NE(text.find("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)"), std::string::npos);
  EXPECT_EQ(text.find("cuTensorMapEncodeTiled"), std::string::npos) << "no tensor map, no driver API";
}

TEST(TorchExtension, TensorMapsAreEncodedAsTheWorkerEncodesThem) {
  Candidate k;
  const TaskSpec spec = tensorMapSpec(k);
  const std::string binding = torchBindingSource(spec, k.launch, "tma");
  const TensorMatrix m = tensorMatrix(spec, "A");
  EXPECT_NE(binding.find("encode_tensor_map(A, \"A\", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, " + std::to_string(m.rows) +
                         ", " + std::to_string(m.cols) + ", " + std::to_string(m.rowStrideBytes()) +
                         ", 64, 64, CU_TENSOR_MAP_SWIZZLE_128B)"),
            std::string::npos)
      << binding;
  EXPECT_NE(binding.find("&tmap_A, at::cuda::"), std::string::npos) << binding;
  const auto names = torchExtensionNames("matmul");
  EXPECT_NE(torchLoaderSource(spec, k.launch, names, "sm_90a", "tma").find("extra_ldflags=[\"-lcuda\"]"),
            std::string::npos);
}

TEST(TorchExtension, TheLoaderIsValidPythonWithTheTasksInputsAsParameters) {
  const TaskSpec spec = builtin("softmax_f32_1024x1024");
  Candidate k = baselineOf(spec);
  CompileReport report;
  report.ok = true;
  report.arch = "sm_90a";
  k.compile = report;
  const auto files = torchExtensionFiles(spec, k, exportedKernelFile(k, spec.name, &spec, nullptr), "softmax-best", "d");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].path, "softmax_best_kernel.cu");
  EXPECT_EQ(count(files[0].content, "extern \"C\" cudaError_t crucible_launch_"), 1u) << "one launcher, not two";
  EXPECT_EQ(files[1].path, "softmax_best_binding.cpp");
  EXPECT_EQ(files[2].path, "softmax_best.py");
  const std::string& loader = files[2].content;
  EXPECT_NE(loader.find("-gencode=arch=compute_90a,code=sm_90a"), std::string::npos);
  EXPECT_NE(loader.find("def run(x):"), std::string::npos) << loader;
  EXPECT_NE(loader.find("name=\"crucible_softmax_best\""), std::string::npos);
  if (std::system("python3 -c 'pass' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3 to parse the loader";
  const fs::path file = fs::temp_directory_path() / ("crucible-loader-" + std::to_string(::getpid()) + ".py");
  std::ofstream(file) << loader;
  const std::string parse = "python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' " + file.string();
  EXPECT_EQ(std::system(parse.c_str()), 0) << loader;
  fs::remove(file);
}

TEST(TorchExtension, PythonKeywordsAreNotParameterNames) {
  EXPECT_EQ(pythonParameterName("lambda"), "lambda_");
  EXPECT_EQ(pythonParameterName("in"), "in_");
  EXPECT_EQ(pythonParameterName("x"), "x");
  EXPECT_EQ(torchExtensionNames("9 lives").module, "crucible__9_lives");
}

TEST(FlashInferSolution, HoldsTheSchemaFieldsAndTheExtensionWithMainPyAsEntryPoint) {
  const TaskSpec spec = builtin("softmax_f32_1024x1024");
  const Candidate k = baselineOf(spec);
  const auto files = torchExtensionFiles(spec, k, exportedKernelFile(k, spec.name, &spec, nullptr), spec.name, "d");
  const nlohmann::json s = flashInferSolution(
      {"crucible_softmax_c7", spec.name, "the baseline", "crucible (test)", "NVIDIA H200", "13.0"}, files);
  EXPECT_EQ(s["definition"], spec.name);
  EXPECT_EQ(s["spec"]["language"], "CUDA");
  EXPECT_EQ(s["spec"]["entry_point"], "main.py::run");
  EXPECT_EQ(s["spec"]["target_hardware"], nlohmann::json::array({"NVIDIA_H200"}));
  EXPECT_EQ(s["spec"]["dependencies"], nlohmann::json::array({"torch", "CUDA >= 13.0"}));
  ASSERT_EQ(s["sources"].size(), 3u);
  EXPECT_EQ(s["sources"][2]["path"], "main.py");
  EXPECT_EQ(s["sources"][2]["content"], files[2].content);
  EXPECT_EQ(s["sources"][0]["path"], files[0].path) << "the loader finds the kernel by its own file name";
  EXPECT_THROW(flashInferSolution({}, {files[0]}), std::invalid_argument);
  EXPECT_EQ(flashInferHardwareName("NVIDIA H100 80GB HBM3"), "NVIDIA_H100_80GB_HBM3");
}

}  // namespace
}  // namespace crucible
