// SPDX-License-Identifier: GPL-3.0-or-later
// A small valid task spec for the tests, and field-by-field comparison.
#pragma once
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include "core/task/task_spec.h"

namespace crucible::testing_support {

inline nlohmann::json validSpecJson() {
  return nlohmann::json::parse(R"JSON({
    "format": 1,
    "name": "scale_f32_64x32",
    "family": "scale",
    "description": "y = 2 * x",
    "axes": {"M": 64, "N": 32},
    "inputs": [
      {"name": "x", "dtype": "f32", "shape": ["M", "N"], "distribution": {"kind": "normal", "mean": 0.5, "stddev": 2.0}},
      {"name": "idx", "dtype": "i64", "shape": ["M"], "distribution": {"kind": "randint", "low": 0, "high": "N"}}
    ],
    "outputs": [{"name": "y", "dtype": "f32", "shape": ["M", "N"]}],
    "scalars": ["M", "N"],
    "tolerances": {"y": {"rtol": 1e-5, "atol": 1e-6}},
    "flops": "M*N",
    "minBytes": "4*M*N + 8*M + 4*M*N",
    "entry": "scale_kernel",
    "libraryReference": "",
    "baseline": {
      "source": ["extern \"C\" __global__ void scale_kernel(const float* __restrict__ x, const long long* __restrict__ idx,",
                 "    float* __restrict__ y, long long M, long long N) {",
                 "  long long i = blockIdx.x * 256LL + threadIdx.x;",
                 "  if (i < M * N) y[i] = 2.0f * x[i];",
                 "}", ""],
      "launch": {"entry": "scale_kernel", "grid": ["ceil_div(M*N, 256)"], "block": [256], "dynamicSmemBytes": "0"}
    },
    "oracle": {
      "source": "extern \"C\" __global__ void scale_oracle(const float* __restrict__ x, const long long* __restrict__ idx, double* __restrict__ y, long long M, long long N) {\n  long long i = blockIdx.x * 256LL + threadIdx.x;\n  if (i < M * N) y[i] = 2.0 * x[i];\n}\n",
      "launch": {"entry": "scale_oracle", "grid": ["ceil_div(M*N, 256)", 1, "1"], "block": ["256", "1", "1"]}
    }
  })JSON");
}

inline void expectSameLaunch(const LaunchRule& a, const LaunchRule& b) {
  EXPECT_EQ(a.entry, b.entry);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.grid[i], b.grid[i]) << "grid[" << i << "]";
    EXPECT_EQ(a.block[i], b.block[i]) << "block[" << i << "]";
  }
  EXPECT_EQ(a.dynamicSmemBytes, b.dynamicSmemBytes);
}

inline void expectSameTensors(const std::vector<TensorSpec>& a, const std::vector<TensorSpec>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].dtype, b[i].dtype);
    EXPECT_EQ(a[i].shape, b[i].shape);
    EXPECT_EQ(a[i].distribution.kind, b[i].distribution.kind);
    EXPECT_EQ(a[i].distribution.a, b[i].distribution.a);
    EXPECT_EQ(a[i].distribution.b, b[i].distribution.b);
  }
}

inline void expectSameSpec(const TaskSpec& a, const TaskSpec& b) {
  EXPECT_EQ(a.formatVersion, b.formatVersion);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.axes, b.axes);
  expectSameTensors(a.inputs, b.inputs);
  expectSameTensors(a.outputs, b.outputs);
  EXPECT_EQ(a.scalars, b.scalars);
  ASSERT_EQ(a.tolerances.size(), b.tolerances.size());
  for (const auto& [name, t] : a.tolerances) {
    ASSERT_TRUE(b.tolerances.count(name)) << name;
    EXPECT_EQ(t.rtol, b.tolerances.at(name).rtol);
    EXPECT_EQ(t.atol, b.tolerances.at(name).atol);
  }
  EXPECT_EQ(a.flops, b.flops);
  EXPECT_EQ(a.minBytes, b.minBytes);
  EXPECT_EQ(a.entry, b.entry);
  EXPECT_EQ(a.baseline.source, b.baseline.source);
  expectSameLaunch(a.baseline.launch, b.baseline.launch);
  EXPECT_EQ(a.oracle.source, b.oracle.source);
  expectSameLaunch(a.oracle.launch, b.oracle.launch);
  EXPECT_EQ(a.libraryReference, b.libraryReference);
  ASSERT_EQ(a.stress.size(), b.stress.size());
  for (std::size_t i = 0; i < a.stress.size(); ++i) {
    EXPECT_EQ(a.stress[i].name, b.stress[i].name);
    ASSERT_EQ(a.stress[i].inputs.size(), b.stress[i].inputs.size());
    for (const auto& [name, d] : a.stress[i].inputs) {
      ASSERT_TRUE(b.stress[i].inputs.count(name)) << name;
      EXPECT_EQ(d.kind, b.stress[i].inputs.at(name).kind);
      EXPECT_EQ(d.a, b.stress[i].inputs.at(name).a);
      EXPECT_EQ(d.b, b.stress[i].inputs.at(name).b);
    }
    ASSERT_EQ(a.stress[i].tolerances.size(), b.stress[i].tolerances.size());
    for (const auto& [name, t] : a.stress[i].tolerances) {
      ASSERT_TRUE(b.stress[i].tolerances.count(name)) << name;
      EXPECT_EQ(t.rtol, b.stress[i].tolerances.at(name).rtol);
      EXPECT_EQ(t.atol, b.stress[i].tolerances.at(name).atol);
    }
  }
}

}  // namespace crucible::testing_support
