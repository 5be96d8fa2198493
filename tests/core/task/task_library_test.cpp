// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in suite: every file in resources/tasks parses, validates, keeps
// the tensors other engineers write kernels against, and follows the ABI.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>
#include "core/task/kernel_abi.h"
#include "core/task/task_library.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {
namespace fs = std::filesystem;

// The source tree's folder, independent of builtinTasksDir()'s search.
std::vector<std::string> suiteFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(CRUCIBLE_TEST_TASKS_DIR))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TaskLibrary, EveryFileParsesAndValidates) {
  const auto files = suiteFiles();
  EXPECT_GE(files.size(), 20u);
  std::set<std::string> names;
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    TaskSpec s;
    ASSERT_NO_THROW(s = loadTaskSpecFile(file));
    EXPECT_EQ(fs::path(file).stem().string(), s.name) << "file name and spec name differ";
    EXPECT_TRUE(names.insert(s.name).second) << "duplicate task name";
    EXPECT_FALSE(s.description.empty());
    EXPECT_EQ(s.baseline.launch.entry, s.entry) << "the baseline can be used as a candidate";
    EXPECT_NE(s.oracle.launch.entry, s.entry);
  }
}

TEST(TaskLibrary, EveryFileRoundTripsThroughToJson) {
  for (const auto& file : suiteFiles()) {
    SCOPED_TRACE(file);
    const TaskSpec s = loadTaskSpecFile(file);
    testing_support::expectSameSpec(s, parseTaskSpec(toJson(s)));
  }
}

TEST(TaskLibrary, BaselinesAndOraclesFollowTheKernelAbi) {
  for (const auto& file : suiteFiles()) {
    SCOPED_TRACE(file);
    const TaskSpec s = loadTaskSpecFile(file);
    EXPECT_TRUE(sourceHasSignature(s.baseline.source, s, KernelRole::Candidate, s.baseline.launch.entry))
        << "expected: " << kernelSignature(s, KernelRole::Candidate, s.baseline.launch.entry);
    EXPECT_TRUE(sourceHasSignature(s.oracle.source, s, KernelRole::Oracle, s.oracle.launch.entry))
        << "expected: " << kernelSignature(s, KernelRole::Oracle, s.oracle.launch.entry);
  }
}

// The tensors, in order, that engineers write kernels against (the brief's table).
struct Expected {
  const char* family;
  std::vector<std::string> inputs;   // "name:dtype:shape"
  std::vector<std::string> outputs;
  std::vector<std::string> scalars;
  const char* entry;
  const char* library;
};

std::string describe(const TensorSpec& t) {
  std::string s = t.name + ":" + toString(t.dtype) + ":";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : "") + t.shape[i];
  return s;
}

TEST(TaskLibrary, SuiteHasTheAgreedTensors) {
  const std::map<std::string, Expected> expected = {
      {"softmax_f32_8192x4096", {"softmax", {"x:f32:M,N"}, {"y:f32:M,N"}, {"M", "N"}, "softmax_kernel", ""}},
      {"layernorm_f32_8192x4096", {"layernorm", {"x:f32:M,N", "weight:f32:N", "bias:f32:N"}, {"y:f32:M,N"}, {"M", "N"}, "layernorm_kernel", ""}},
      {"rmsnorm_bf16_8192x8192", {"rmsnorm", {"x:bf16:M,N", "weight:bf16:N"}, {"y:bf16:M,N"}, {"M", "N"}, "rmsnorm_kernel", ""}},
      {"gelu_f32_67108864", {"gelu", {"x:f32:N"}, {"y:f32:N"}, {"N"}, "gelu_kernel", ""}},
      {"rowsum_f32_8192x8192", {"rowsum", {"x:f32:M,N"}, {"y:f32:M"}, {"M", "N"}, "rowsum_kernel", ""}},
      {"transpose_f32_8192x8192", {"transpose", {"x:f32:M,N"}, {"y:f32:N,M"}, {"M", "N"}, "transpose_kernel", ""}},
      {"matmul_f32_4096x4096x4096", {"matmul", {"A:f32:M,K", "B:f32:K,N"}, {"C:f32:M,N"}, {"M", "N", "K"}, "matmul_kernel", "cublas_sgemm"}},
      {"matmul_bf16_8192x8192x8192", {"matmul", {"A:bf16:M,K", "B:bf16:K,N"}, {"C:bf16:M,N"}, {"M", "N", "K"}, "matmul_kernel", "cublaslt_bf16_gemm"}},
      {"matmul_bias_relu_bf16_4096x4096x4096", {"matmul_bias_relu", {"A:bf16:M,K", "B:bf16:K,N", "bias:bf16:N"}, {"C:bf16:M,N"}, {"M", "N", "K"}, "matmul_bias_relu_kernel", "cublaslt_bf16_gemm_bias_relu"}},
      {"cross_entropy_f32_8192x32000", {"cross_entropy", {"logits:f32:M,V", "targets:i64:M"}, {"loss:f32:M"}, {"M", "V"}, "cross_entropy_kernel", ""}},
  };
  std::map<std::string, int> shapesPerFamilyAndDtype;
  for (const auto& file : suiteFiles()) {
    const TaskSpec s = loadTaskSpecFile(file);
    ++shapesPerFamilyAndDtype[s.family + "/" + toString(s.inputs[0].dtype)];
  }
  for (const auto& [name, e] : expected) {
    SCOPED_TRACE(name);
    const std::string file = std::string(CRUCIBLE_TEST_TASKS_DIR) + "/" + name + ".json";
    ASSERT_TRUE(fs::exists(file));
    const TaskSpec s = loadTaskSpecFile(file);
    EXPECT_EQ(s.family, e.family);
    std::vector<std::string> in, out;
    for (const auto& t : s.inputs) in.push_back(describe(t));
    for (const auto& t : s.outputs) out.push_back(describe(t));
    EXPECT_EQ(in, e.inputs);
    EXPECT_EQ(out, e.outputs);
    EXPECT_EQ(s.scalars, e.scalars);
    EXPECT_EQ(s.entry, e.entry);
    EXPECT_EQ(s.libraryReference, e.library);
    // Each task also comes at one smaller shape.
    EXPECT_EQ(shapesPerFamilyAndDtype[s.family + "/" + toString(s.inputs[0].dtype)], 2);
  }
}

TEST(TaskLibrary, CountsFollowTheShapes) {
  const TaskSpec mm = loadTaskSpecFile(std::string(CRUCIBLE_TEST_TASKS_DIR) + "/matmul_f32_4096x4096x4096.json");
  EXPECT_EQ(evalExpression(mm.flops, mm.axes), 2LL * 4096 * 4096 * 4096);
  EXPECT_EQ(evalExpression(mm.minBytes, mm.axes), 3LL * 4 * 4096 * 4096);
  // minBytes is every input read once plus every output written once, for every task.
  for (const auto& file : suiteFiles()) {
    SCOPED_TRACE(file);
    const TaskSpec s = loadTaskSpecFile(file);
    std::int64_t bytes = 0;
    for (const auto& t : s.inputs) bytes += elementCount(s, t) * std::int64_t(sizeOf(t.dtype));
    for (const auto& t : s.outputs) bytes += elementCount(s, t) * std::int64_t(sizeOf(t.dtype));
    EXPECT_EQ(evalExpression(s.minBytes, s.axes), bytes);
  }
}

TEST(TaskLibrary, BuiltinDirectoryIsFoundAndListed) {
  const char* saved = std::getenv("CRUCIBLE_TASKS_DIR");
  ASSERT_EQ(saved, nullptr) << "the test expects no CRUCIBLE_TASKS_DIR override";
  const std::string dir = builtinTasksDir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(fs::equivalent(dir, CRUCIBLE_TEST_TASKS_DIR));
  EXPECT_EQ(builtinTaskFiles(), suiteFiles());
  const auto found = findBuiltinTaskFile("softmax_f32_1024x1024");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(fs::path(*found).filename(), "softmax_f32_1024x1024.json");
  EXPECT_FALSE(findBuiltinTaskFile("no_such_task").has_value());
}

TEST(TaskLibrary, EnvironmentOverridesTheFolder) {
  const fs::path tmp = fs::temp_directory_path() / "crucible_task_library_test";
  fs::create_directories(tmp);
  setenv("CRUCIBLE_TASKS_DIR", tmp.c_str(), 1);
  EXPECT_EQ(builtinTasksDir(), tmp.string());
  EXPECT_TRUE(builtinTaskFiles().empty());
  setenv("CRUCIBLE_TASKS_DIR", (tmp / "missing").c_str(), 1);
  EXPECT_EQ(builtinTasksDir(), "");  // an explicit override that does not exist is not silently replaced
  unsetenv("CRUCIBLE_TASKS_DIR");
  fs::remove_all(tmp);
}

TEST(TaskLibrary, LoadErrorsNameTheFile) {
  try {
    loadTaskSpecFile("/nonexistent/task.json");
    FAIL();
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "/nonexistent/task.json");
  }
  const fs::path tmp = fs::temp_directory_path() / "crucible_bad_task.json";
  {
    std::ofstream(tmp) << R"({"format": 3})";
  }
  try {
    loadTaskSpecFile(tmp.string());
    FAIL();
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "format");
    EXPECT_THAT(e.what(), testing::HasSubstr(tmp.string()));
  }
  fs::remove(tmp);
}

}  // namespace
}  // namespace crucible

namespace crucible {

TEST(TaskLibrary, TaskRecordKeepsTheSpecTextVerbatim) {
  const auto file = findBuiltinTaskFile("softmax_f32_1024x1024");
  ASSERT_TRUE(file.has_value());
  const std::string text = readTaskSpecText(*file);
  const Task t = taskRecord(text);
  EXPECT_EQ(t.name, "softmax_f32_1024x1024");
  EXPECT_EQ(t.family, "softmax");
  EXPECT_EQ(t.specJson, text);
  EXPECT_EQ(t.specVersion, 1);
  try {
    taskRecord(R"({"format": 1, "name": "x"})");
    FAIL() << "an incomplete spec became a task";
  } catch (const TaskSpecError& e) {
    EXPECT_FALSE(e.field().empty());
  }
}

}  // namespace crucible
