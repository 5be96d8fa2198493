// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/backends/template/suite_tasks.h"

#include <stdexcept>

namespace crucible::testing_support {
namespace {

TensorSpec tensor(const std::string& name, DType d, std::vector<std::string> shape) {
  TensorSpec t;
  t.name = name;
  t.dtype = d;
  t.shape = std::move(shape);
  return t;
}

}  // namespace

TaskSpec makeTask(const std::string& family, DType d, const std::map<std::string, std::int64_t>& axes) {
  TaskSpec s;
  s.family = family;
  s.entry = family + "_kernel";
  s.axes = axes;
  s.name = family + "_" + toString(d);
  for (const auto& [k, v] : axes) s.name += "_" + k + std::to_string(v);
  if (family == "gelu") {
    s.inputs = {tensor("x", d, {"N"})};
    s.outputs = {tensor("y", d, {"N"})};
    s.scalars = {"N"};
  } else if (family == "softmax") {
    s.inputs = {tensor("x", d, {"M", "N"})};
    s.outputs = {tensor("y", d, {"M", "N"})};
    s.scalars = {"M", "N"};
  } else if (family == "layernorm") {
    s.inputs = {tensor("x", d, {"M", "N"}), tensor("weight", d, {"N"}), tensor("bias", d, {"N"})};
    s.outputs = {tensor("y", d, {"M", "N"})};
    s.scalars = {"M", "N"};
  } else if (family == "rmsnorm") {
    s.inputs = {tensor("x", d, {"M", "N"}), tensor("weight", d, {"N"})};
    s.outputs = {tensor("y", d, {"M", "N"})};
    s.scalars = {"M", "N"};
  } else if (family == "rowsum") {
    s.inputs = {tensor("x", d, {"M", "N"})};
    s.outputs = {tensor("y", d, {"M"})};
    s.scalars = {"M", "N"};
  } else if (family == "transpose") {
    s.inputs = {tensor("x", d, {"M", "N"})};
    s.outputs = {tensor("y", d, {"N", "M"})};
    s.scalars = {"M", "N"};
  } else if (family == "matmul") {
    s.inputs = {tensor("A", d, {"M", "K"}), tensor("B", d, {"K", "N"})};
    s.outputs = {tensor("C", d, {"M", "N"})};
    s.scalars = {"M", "N", "K"};
  } else if (family == "matmul_bias_relu") {
    s.inputs = {tensor("A", d, {"M", "K"}), tensor("B", d, {"K", "N"}), tensor("bias", d, {"N"})};
    s.outputs = {tensor("C", d, {"M", "N"})};
    s.scalars = {"M", "N", "K"};
  } else if (family == "cross_entropy") {
    s.inputs = {tensor("logits", d, {"M", "V"}), tensor("targets", DType::I64, {"M"})};
    s.outputs = {tensor("loss", d, {"M"})};
    s.scalars = {"M", "V"};
  } else {
    throw std::invalid_argument("makeTask: unknown family " + family);
  }
  return s;
}

std::vector<std::string> suiteFamilies() {
  return {"gelu", "softmax", "layernorm", "rmsnorm", "rowsum", "transpose", "matmul", "matmul_bias_relu", "cross_entropy"};
}

TaskSpec withTensorNamesRotated(TaskSpec spec) {
  std::vector<TensorSpec*> all;
  for (auto& t : spec.inputs) all.push_back(&t);
  for (auto& t : spec.outputs) all.push_back(&t);
  std::vector<std::string> names;
  for (const auto* t : all) names.push_back(t->name);
  for (std::size_t i = 0; i < all.size(); ++i) all[i]->name = names[(i + 1) % names.size()];
  return spec;
}

TaskSpec batchedGemm(TaskSpec gemm, std::int64_t batch, bool batchedB) {
  gemm.axes["Bt"] = batch;
  gemm.scalars.insert(gemm.scalars.begin(), "Bt");
  gemm.name = "b" + gemm.name + "_Bt" + std::to_string(batch) + (batchedB ? "" : "_sharedB");
  for (TensorSpec* t : {&gemm.inputs.at(0), &gemm.outputs.at(0)}) t->shape.insert(t->shape.begin(), "Bt");
  if (batchedB) gemm.inputs.at(1).shape.insert(gemm.inputs.at(1).shape.begin(), "Bt");
  return gemm;
}

std::vector<ShapeCase> shapeCases(const std::string& family) {
  auto make = [&](DType d, std::map<std::string, std::int64_t> axes) {
    ShapeCase c;
    c.spec = makeTask(family, d, axes);
    c.label = c.spec.name;
    return c;
  };
  const DType F = DType::F32, B = DType::BF16;
  if (family == "gelu") return {make(F, {{"N", 1 << 20}}), make(F, {{"N", 67108864}}), make(F, {{"N", 1000003}})};
  if (family == "softmax" || family == "layernorm" || family == "rowsum")
    return {make(F, {{"M", 1024}, {"N", 1024}}), make(F, {{"M", 8192}, {"N", 4096}}), make(F, {{"M", 1000}, {"N", 1000}}),
            make(F, {{"M", 77}, {"N", 333}})};
  if (family == "rmsnorm")
    return {make(B, {{"M", 1024}, {"N", 1024}}), make(B, {{"M", 8192}, {"N", 8192}}), make(B, {{"M", 999}, {"N", 776}})};
  if (family == "transpose")
    return {make(F, {{"M", 2048}, {"N", 1024}}), make(F, {{"M", 8192}, {"N", 8192}}), make(F, {{"M", 1000}, {"N", 36}}),
            make(F, {{"M", 77}, {"N", 333}})};
  if (family == "matmul")
    return {make(F, {{"M", 1024}, {"N", 1024}, {"K", 1024}}), make(F, {{"M", 4096}, {"N", 4096}, {"K", 4096}}),
            make(F, {{"M", 100}, {"N", 36}, {"K", 52}}), make(B, {{"M", 1024}, {"N", 1024}, {"K", 1024}}),
            make(B, {{"M", 8192}, {"N", 8192}, {"K", 8192}}), make(B, {{"M", 1000}, {"N", 200}, {"K", 72}})};
  if (family == "matmul_bias_relu")
    return {make(B, {{"M", 1024}, {"N", 1024}, {"K", 1024}}), make(B, {{"M", 4096}, {"N", 4096}, {"K", 4096}}),
            make(B, {{"M", 333}, {"N", 264}, {"K", 136}})};
  if (family == "cross_entropy")
    return {make(F, {{"M", 1024}, {"V", 32000}}), make(F, {{"M", 8192}, {"V", 32000}}), make(F, {{"M", 100}, {"V", 50257}})};
  throw std::invalid_argument("shapeCases: unknown family " + family);
}

}  // namespace crucible::testing_support
