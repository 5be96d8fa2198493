// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/backends/template/operator_tasks.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace crucible::testing_support {

std::vector<std::string> anyOperatorTaskFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CRUCIBLE_SOURCE_DIR) + "/tests/tasks/any-operator"))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TaskSpec loadTaskFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return parseTaskSpec(text.str());
}

TaskSpec makeOperatorTask(const std::string& name, const OperatorSpec& op, const std::vector<OperatorTensor>& inputs,
                          const OperatorTensor& output, const std::map<std::string, std::int64_t>& axes) {
  TaskSpec s;
  s.name = name;
  s.family = name;
  s.entry = "op_kernel";
  s.axes = axes;
  for (const auto& [axis, value] : axes) s.scalars.push_back(axis);
  for (const auto& t : inputs) s.inputs.push_back(TensorSpec{t.name, t.dtype, t.shape, {}});
  s.outputs.push_back(TensorSpec{output.name, output.dtype, output.shape, {}});
  s.operation = op;
  return s;
}

namespace {

OperatorSpec elementwise(const std::string& expression) { return OperatorSpec{"elementwise", expression, {}}; }
OperatorSpec rowwise(std::vector<RowReduction> reductions, const std::string& expression) {
  return OperatorSpec{"rowwise", expression, std::move(reductions)};
}

}  // namespace

std::vector<OperatorCase> elementwiseOperatorCases() {
  const DType F = DType::F32, H = DType::F16, B = DType::BF16;
  std::vector<OperatorCase> out;
  auto add = [&](const std::string& label, const OperatorSpec& op, const std::vector<OperatorTensor>& in,
                 const OperatorTensor& y, const std::map<std::string, std::int64_t>& axes) {
    out.push_back({label, makeOperatorTask(label, op, in, y, axes)});
  };
  for (const auto& [M, N] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1024, 4096}, {77, 333}, {1, 1000003}}) {
    const std::map<std::string, std::int64_t> axes = {{"M", M}, {"N", N}};
    const std::string shape = std::to_string(M) + "x" + std::to_string(N);
    add("swiglu_bf16_" + shape, elementwise("silu(gate) * up"), {{"gate", B, {"M", "N"}}, {"up", B, {"M", "N"}}},
        {"y", B, {"M", "N"}}, axes);
    add("add_gelu_f32_" + shape, elementwise("gelu(x + bias)"), {{"x", F, {"M", "N"}}, {"bias", F, {"N"}}},
        {"y", F, {"M", "N"}}, axes);
    add("scale_bias_f16_" + shape, elementwise("x * scale + bias"),
        {{"x", H, {"M", "N"}}, {"scale", H, {"M", "1"}}, {"bias", H, {"1", "N"}}}, {"y", H, {"M", "N"}}, axes);
    add("mixed_" + shape, elementwise("max(min(a, 6), -6) * sigmoid(b) + pow(abs(a), 0.5) - rsqrt(1 + b * b) / 3"),
        {{"a", F, {"M", "N"}}, {"b", B, {"M", "N"}}}, {"y", B, {"M", "N"}}, axes);
  }
  add("bias3d_f32", elementwise("tanh(x) + softplus(c) * log1p(abs(r)) - gelu_tanh(x) + exp(-x * x) * erf(c) + sin(r) * cos(x)"),
      {{"x", F, {"B", "M", "N"}}, {"c", F, {"N"}}, {"r", F, {"B", "1", "N"}}}, {"y", F, {"B", "M", "N"}},
      {{"B", 6}, {"M", 130}, {"N", 96}});
  add("relu_scalar_f16", elementwise("relu(x) * s + sqrt(abs(x) + 1)"), {{"x", H, {"N"}}, {"s", H, {"1"}}},
      {"y", H, {"N"}}, {{"N", 4097}});
  return out;
}

std::vector<OperatorCase> rowwiseOperatorCases() {
  const DType F = DType::F32, H = DType::F16, B = DType::BF16;
  std::vector<OperatorCase> out;
  auto add = [&](const std::string& label, const OperatorSpec& op, const std::vector<OperatorTensor>& in,
                 const OperatorTensor& y, const std::map<std::string, std::int64_t>& axes) {
    out.push_back({label, makeOperatorTask(label, op, in, y, axes)});
  };
  const OperatorSpec logSoftmax = rowwise({{"m", "max", "x"}, {"s", "sum", "exp(x - m)"}}, "x - m - log(s)");
  const OperatorSpec layerNorm = rowwise({{"mu", "mean", "x"}, {"var", "mean", "(x - mu) * (x - mu)"}},
                                         "(x - mu) * rsqrt(var + 1e-5) * w + b");
  const OperatorSpec addRmsNorm = rowwise({{"ms", "mean", "(x + r) * (x + r)"}}, "(x + r) * rsqrt(ms + 1e-6) * w");
  const OperatorSpec lse = rowwise({{"l", "logsumexp", "x * t"}}, "l / t");
  const OperatorSpec range = rowwise({{"lo", "min", "x"}, {"hi", "max", "x"}, {"z", "sum", "exp(x - hi)"}},
                                     "(x - lo) / (hi - lo + 1e-3) + log(z)");
  for (const auto& [M, N] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1024, 4096}, {8192, 5003}, {77, 333}, {4, 50257}, {3000, 8}}) {
    const std::map<std::string, std::int64_t> axes = {{"M", M}, {"N", N}};
    const std::string shape = std::to_string(M) + "x" + std::to_string(N);
    add("logsoftmax_f32_" + shape, logSoftmax, {{"x", F, {"M", "N"}}}, {"y", F, {"M", "N"}}, axes);
    add("layernorm_bf16_" + shape, layerNorm, {{"x", B, {"M", "N"}}, {"w", B, {"N"}}, {"b", B, {"N"}}},
        {"y", B, {"M", "N"}}, axes);
    add("add_rmsnorm_f16_" + shape, addRmsNorm, {{"x", H, {"M", "N"}}, {"r", H, {"M", "N"}}, {"w", F, {"N"}}},
        {"y", H, {"M", "N"}}, axes);
    add("lse_rows_f32_" + shape, lse, {{"x", F, {"M", "N"}}, {"t", F, {"M"}}}, {"y", F, {"M"}}, axes);
    add("range_bf16_" + shape, range, {{"x", B, {"M", "N"}}}, {"y", B, {"M", "N"}}, axes);
  }
  add("logsoftmax_3d_f32", logSoftmax, {{"x", F, {"B", "H", "N"}}}, {"y", F, {"B", "H", "N"}},
      {{"B", 4}, {"H", 12}, {"N", 197}});
  add("logsoftmax_1row_f32", logSoftmax, {{"x", F, {"N"}}}, {"y", F, {"N"}}, {{"N", 7}});
  return out;
}

std::vector<OperatorCase> batchedGemmCases() {
  std::vector<OperatorCase> out;
  auto add = [&](const std::string& family, DType d, bool batchedB, bool bias, std::int64_t batch, std::int64_t M,
                 std::int64_t N, std::int64_t K) {
    TaskSpec s;
    s.family = family;
    s.entry = family + "_kernel";
    s.name = "b" + family + "_" + toString(d) + (batchedB ? "" : "_sharedB") + "_" + std::to_string(batch) + "x" +
             std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
    s.axes = {{"Bt", batch}, {"M", M}, {"N", N}, {"K", K}};
    s.scalars = {"Bt", "M", "N", "K"};
    s.inputs.push_back(TensorSpec{"A", d, {"Bt", "M", "K"}, {}});
    s.inputs.push_back(TensorSpec{"B", d, batchedB ? std::vector<std::string>{"Bt", "K", "N"} : std::vector<std::string>{"K", "N"}, {}});
    if (bias) s.inputs.push_back(TensorSpec{"bias", d, {"N"}, {}});
    s.outputs.push_back(TensorSpec{"C", d, {"Bt", "M", "N"}, {}});
    out.push_back({s.name, s});
  };
  add("matmul", DType::F32, true, false, 8, 256, 256, 256);
  add("matmul", DType::F32, false, false, 3, 100, 36, 52);
  add("matmul", DType::BF16, true, false, 16, 512, 512, 128);
  add("matmul", DType::BF16, true, false, 5, 200, 72, 136);
  add("matmul_bias_relu", DType::BF16, false, true, 4, 264, 128, 64);
  return out;
}

}  // namespace crucible::testing_support
