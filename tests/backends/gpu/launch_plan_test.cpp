// SPDX-License-Identifier: GPL-3.0-or-later
// The launch plan without a GPU: output fills that never repeat and never
// tell a checked launch from a timed one, a new input seed for every timed
// launch, and the schedule of checked timed launches. And the fill kernels: they compile with
// NVRTC (no GPU needed) and their host mirror draws finite values.
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/launch_plan.h"
#include "backends/cuda/worker/harness_kernels.h"

namespace crucible::cuda {
namespace {

TEST(LaunchPlan, ConsecutiveFillsAlwaysDiffer) {
  LaunchPlan plan(42);
  FillChoice previous = plan.nextFill();
  std::set<std::uint64_t> randomSeeds;
  int kinds[3] = {0, 0, 0};
  for (int i = 0; i < 20000; ++i) {
    const FillChoice f = plan.nextFill(/*mustBePoison=*/i % 7 == 0);
    ASSERT_FALSE(f == previous) << "launch " << i << " got the same fill as the one before: " << f.describe();
    if (f.kind == OutputFill::RandomFinite) EXPECT_TRUE(randomSeeds.insert(f.seed).second) << "a random fill's seed repeated";
    ++kinds[static_cast<int>(f.kind)];
    previous = f;
  }
  // All three kinds are used, none rarely: their mix must not tell anything.
  for (int k : kinds) EXPECT_GT(k, 4000);
}

TEST(LaunchPlan, PoisonIsForcedOnlyWhereAsked) {
  LaunchPlan plan(7);
  int poison0 = 0, poison1 = 0;
  for (int i = 0; i < 1000; ++i) {
    const FillChoice f = plan.nextFill(true);
    ASSERT_TRUE(f.isPoison());
    (f.poisonIndex() == 0 ? poison0 : poison1)++;
  }
  EXPECT_GT(poison0, 300);  // both poisons: the first launch's pattern is not always the same either
  EXPECT_GT(poison1, 300);
}

TEST(LaunchPlan, PlansWithDifferentSeedsDiffer) {
  LaunchPlan a(1), b(2);
  int same = 0;
  for (int i = 0; i < 100; ++i) same += a.nextFill() == b.nextFill();
  EXPECT_LT(same, 60);
  EXPECT_NE(unpredictableSeed(5), unpredictableSeed(5)) << "the system's entropy is mixed in";
}

TEST(LaunchPlan, LastTimedLaunchIsAlwaysCheckedAndSamplesSpreadOverTheRun) {
  for (int pairs : {1, 2, 5, 30, 100, 1000, 20000}) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      LaunchPlan plan(seed);
      std::vector<int> checked;
      for (int p = 0; p < pairs; ++p)
        if (plan.checkAfter(p, p + 1 == pairs)) checked.push_back(p);
      ASSERT_FALSE(checked.empty());
      EXPECT_EQ(checked.back(), pairs - 1) << "the last timed launch is always checked";
      EXPECT_LE(checked.front(), 3) << "an early launch is checked";
      // About log2(pairs) sampled checks: enough to see a change of behaviour
      // at any point, few enough to keep timing cheap.
      const double expected = std::log2(std::max(pairs, 2));
      EXPECT_LE(static_cast<double>(checked.size()), expected + 3) << pairs << " pairs";
      if (pairs >= 100) EXPECT_GE(static_cast<double>(checked.size()), expected / 2) << pairs << " pairs";
      // No stretch longer than half the run (plus the first gap) goes unchecked.
      int previous = -1;
      for (int c : checked) {
        EXPECT_LE(c - previous, std::max(8, pairs / 2 + 8)) << "unchecked stretch before launch " << c;
        previous = c;
      }
    }
  }
}

// Every timed candidate launch gets inputs of a seed never used before, and
// two plans (two evaluations) share none: a kernel meets no input twice.
TEST(LaunchPlan, EveryTimedLaunchGetsANewInputSeed) {
  LaunchPlan a(9), b(9 ^ 1);
  std::set<std::uint64_t> seen;
  for (int p = 0; p < 4000; ++p) {
    EXPECT_TRUE(seen.insert(a.nextInputSeed()).second) << "seed repeated at launch " << p;
    EXPECT_TRUE(seen.insert(b.nextInputSeed()).second) << "the other plan repeated a seed at launch " << p;
  }
}

TEST(OutputFill, RandomFiniteValuesAreFiniteVariedAndOfModerateSize) {
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::F64}) {
    std::set<std::uint64_t> distinct;
    for (std::uint64_t i = 0; i < 4096; ++i) {
      const std::uint64_t bits = randomFiniteBits(d, 1234, i);
      HostTensor t(d, 1);
      std::memcpy(t.bytes.data(), &bits, sizeOf(d));
      const double v = t.valueAt(0);
      ASSERT_TRUE(std::isfinite(v)) << toString(d) << " element " << i;
      EXPECT_GE(std::fabs(v), 0.0625);
      EXPECT_LT(std::fabs(v), 16.0);
      distinct.insert(bits);
    }
    EXPECT_GT(distinct.size(), 1000u) << toString(d);
    // Never one of the poisons, so a random fill is not mistaken for one.
    for (int which : {0, 1}) {
      std::uint64_t poison = 0;
      const auto p = poisonPattern(d, which);
      std::memcpy(&poison, p.data(), p.size());
      EXPECT_EQ(distinct.count(poison), 0u);
    }
  }
  EXPECT_NE(randomFiniteBits(DType::F32, 1, 0), randomFiniteBits(DType::F32, 2, 0)) << "a new seed, new values";
}

TEST(HarnessKernels, HostHashSeesEveryElementAndItsPlace) {
  std::vector<float> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f;
  const std::uint64_t h = hostHash(v.data(), 4, 1000);
  std::vector<float> w = v;
  w[999] = std::nextafter(w[999], 1e9f);  // one ulp
  EXPECT_NE(hostHash(w.data(), 4, 1000), h);
  w = v;
  std::swap(w[3], w[4]);  // same values, other places
  EXPECT_NE(hostHash(w.data(), 4, 1000), h);
  EXPECT_EQ(hostHash(v.data(), 4, 1000), h);
}

TEST(HarnessKernels, CompileWithNvrtc) {
  NvrtcCompiler compiler;
  CompileRequest req;
  req.source = HarnessKernels::source();
  req.entry = "crucible_fill_random";
  req.arch = "sm_90";
  const CompileResult r = compiler.compile(req);
  ASSERT_TRUE(r.report.ok) << r.report.log;
  EXPECT_FALSE(r.cubin.empty());
}

// Every kernel the worker loads from the module is defined in it (the
// compiler checks the PTX for the entry), the device output check included.
TEST(HarnessKernels, DefineEveryEntryTheWorkerLoads) {
  NvrtcCompiler compiler;
  for (const char* entry : {"crucible_fill_pattern", "crucible_fill_random", "crucible_hash",
                            "crucible_count_nonfinite", "crucible_draw", "crucible_masked_copy",
                            "crucible_compare_elements", "crucible_tally_output", "crucible_l2_read",
                            "crucible_scrub_shared"}) {
    CompileRequest req;
    req.source = HarnessKernels::source();
    req.entry = entry;
    req.arch = "sm_90";
    const CompileResult r = compiler.compile(req);
    EXPECT_TRUE(r.report.ok) << entry << ": " << r.report.log;
  }
}

// The text of the harness module from `signature` up to the next extern "C"
// kernel (or the end of the function, for a device helper).
std::string pieceOfHarness(const std::string& signature, bool helper = false) {
  const std::string all = HarnessKernels::source();
  const std::size_t begin = all.find(signature);
  if (begin == std::string::npos) {
    ADD_FAILURE() << "no '" << signature << "' in the harness module";
    return "";
  }
  const std::size_t end = helper ? all.find("\n}\n", begin) + 3 : all.find("extern \"C\"", begin + 1);
  return all.substr(begin, end - begin);
}

// The PTX features of one harness kernel compiled alone (the module's count
// every kernel), after `prelude`.
std::map<std::string, int> featuresAlone(const std::string& entry, const std::string& prelude) {
  NvrtcCompiler compiler;
  CompileRequest req;
  req.source = "typedef unsigned long long u64;\n" + prelude +
               pieceOfHarness("extern \"C\" __global__ void " + entry + "(");
  req.entry = entry;
  req.arch = "sm_90";
  const CompileResult r = compiler.compile(req);
  EXPECT_TRUE(r.report.ok) << r.report.log;
  return r.report.features;
}

int countOf(const std::map<std::string, int>& features, const std::string& key) {
  const auto it = features.find(key);
  return it == features.end() ? 0 : it->second;
}

// The L2 flush reads 16 bytes at a time and keeps its loads (no result is
// used but the one store the zeroed buffer never triggers), and stores nothing
// else: it leaves L2 clean.
TEST(HarnessKernels, TheL2FlushOnlyReadsSixteenBytesAtATime) {
  const auto features = featuresAlone("crucible_l2_read", "");
  auto count = [&](const std::string& key) { return countOf(features, key); };
  EXPECT_GE(count("ld.global.16B"), 4);  // four in flight per thread, and the tail's
  EXPECT_EQ(count("ld.global.4B") + count("ld.global.8B"), 0);
  EXPECT_EQ(count("st.global.4B"), 1);  // the sink
  for (const char* wider : {"st.global.8B", "st.global.16B"}) EXPECT_EQ(count(wider), 0) << wider;
}

// The shared-memory scrub's stores stay in the PTX (nothing reads them, so a
// compiler may drop stores that are not volatile), for the dynamic window and
// for the reserved window before it; it touches no global memory.
TEST(HarnessKernels, TheSharedMemoryScrubKeepsItsStores) {
  const auto features = featuresAlone(
      "crucible_scrub_shared", "#define GAMMA 0x9E3779B97F4A7C15ull\n" +
                                   pieceOfHarness("__device__ __forceinline__ u64 crucible_mix64(", /*helper=*/true));
  auto count = [&](const std::string& key) { return countOf(features, key); };
  EXPECT_GE(count("st.shared"), 2);
  EXPECT_EQ(count("ld.global") + count("st.global"), 0);
}

// The local-memory scrub's frame is the size asked for, its stores kept: a
// smaller frame would leave the bottom of a slot's window as it was.
TEST(HarnessKernels, TheLocalMemoryScrubHasTheFrameItIsCompiledFor) {
  NvrtcCompiler compiler;
  for (std::size_t frame : {256u, 1024u, 4096u}) {
    CompileRequest req;
    req.source = HarnessKernels::localScrubSource(frame);
    req.entry = "crucible_scrub_local";
    req.arch = "sm_90";
    const CompileResult r = compiler.compile(req);
    ASSERT_TRUE(r.report.ok) << r.report.log;
    EXPECT_EQ(r.report.localBytes, static_cast<int>(frame));
    EXPECT_LE(r.report.registers, 32) << "two blocks of 1024 threads must fit an SM";
    EXPECT_EQ(r.report.spillStoreBytes, 0);
  }
}

}  // namespace
}  // namespace crucible::cuda
