// SPDX-License-Identifier: GPL-3.0-or-later
// The example tunable kernel (resources/kernels/gemv) compiles with NVRTC for
// sm_90 at its default point and at a random sample of its legal points, with
// no warnings and no spills; the example task's baseline and oracle compile
// too. No GPU needed.
#include <gtest/gtest.h>
#include <random>
#include <set>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "core/task/tunable_kernel.h"
#include "example_kernel.h"
#include "tests/backends/compile/register_fit.h"

namespace crucible {
namespace {

void expectCompiles(NvrtcCompiler& compiler, const std::string& source, const std::string& entry, const std::string& what) {
  CompileRequest request;
  request.source = source;
  request.entry = entry;
  request.arch = "sm_90";
  const CompileResult r = compiler.compile(request);
  EXPECT_TRUE(r.report.ok) << what << " failed to compile:\n" << r.report.log;
  EXPECT_FALSE(r.cubin.empty()) << what;
  EXPECT_LE(r.report.spillStoreBytes, compile_tests::kOccupancySpillBytes) << what << " spills registers";
  for (const auto& d : r.report.diagnostics)
    EXPECT_NE(d.severity, "warning") << what << ": line " << d.line << ": " << d.message;
}

// Every legal point of the table (the space is small enough to list).
std::vector<ParameterPoint> legalPoints(const TunableKernel& k) {
  std::vector<ParameterPoint> out{{}};
  for (const auto& t : k.parameters()) {
    std::vector<ParameterPoint> next;
    for (const auto& p : out)
      for (std::int64_t v : t.values) {
        ParameterPoint q = p;
        q[t.name] = v;
        next.push_back(q);
      }
    out = std::move(next);
  }
  std::erase_if(out, [&](const ParameterPoint& p) { return k.problem(p).has_value(); });
  return out;
}

TEST(TunableKernelCompile, TheExampleCompilesAtASampleOfItsLegalPoints) {
  const auto start = testing_support::gemvKernel();
  const TunableKernel k(start.name, start.source, start.tune, testing_support::gemvSpec());
  auto points = legalPoints(k);
  ASSERT_EQ(points.size(), 144u);   // 16 legal (ROWS, THREADS_PER_ROW) pairs x 3 VEC x 3 UNROLL
  std::mt19937_64 rng(2026);
  std::shuffle(points.begin(), points.end(), rng);
  points.resize(24);
  points.push_back(k.startingPoint());
  // The extremes of the block shape are in every sample.
  points.push_back({{"ROWS", 16}, {"THREADS_PER_ROW", 64}, {"VEC", 1}, {"UNROLL", 4}});
  points.push_back({{"ROWS", 1}, {"THREADS_PER_ROW", 256}, {"VEC", 4}, {"UNROLL", 1}});
  points.push_back({{"ROWS", 2}, {"THREADS_PER_ROW", 32}, {"VEC", 2}, {"UNROLL", 1}});
  NvrtcCompiler compiler;
  for (const auto& p : points) {
    ASSERT_FALSE(k.problem(p).has_value()) << *k.problem(p);
    std::string what = "gemv at";
    for (const auto& [name, value] : p) what += " " + name + "=" + std::to_string(value);
    expectCompiles(compiler, k.sourceAt(p), k.entry(), what);
  }
}

TEST(TunableKernelCompile, TheExampleTaskKernelsCompile) {
  const TaskSpec spec = testing_support::gemvSpec();
  NvrtcCompiler compiler;
  expectCompiles(compiler, spec.baseline.source, spec.baseline.launch.entry, "gemv baseline");
  expectCompiles(compiler, spec.oracle.source, spec.oracle.launch.entry, "gemv oracle");
}

// Guards the test above: a point whose defines break the source is reported.
TEST(TunableKernelCompile, ABrokenPointFailsToCompile) {
  const auto start = testing_support::gemvKernel();
  const TunableKernel k(start.name, start.source, start.tune, testing_support::gemvSpec());
  std::string source = k.sourceAt(k.startingPoint());
  source.replace(source.find("#define VEC 4"), std::string("#define VEC 4").size(), "#define VEC vec");
  NvrtcCompiler compiler;
  CompileRequest request{source, k.entry(), "sm_90", {}};
  EXPECT_FALSE(compiler.compile(request).report.ok);
}

}  // namespace
}  // namespace crucible
