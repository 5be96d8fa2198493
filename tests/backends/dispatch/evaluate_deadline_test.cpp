// SPDX-License-Identifier: GPL-3.0-or-later
// evaluateDeadline: a large task's evaluation gets time in proportion to its
// data and its seeds; small tasks, unparseable specs and explicit short
// deadlines keep the base.
#include <gtest/gtest.h>
#include <fstream>
#include <sstream>
#include "backends/dispatch/worker_evaluator.h"

namespace crucible {
namespace {
using namespace std::chrono_literals;

Task taskFrom(const std::string& file) {
  std::ifstream in(std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/" + file);
  std::ostringstream text;
  text << in.rdbuf();
  Task t;
  t.name = file;
  t.specJson = text.str();
  return t;
}

TEST(EvaluateDeadline, GrowsWithTheTaskDataAndTheSeeds) {
  const Task gelu = taskFrom("gelu_f32_67108864.json");  // 2^26 f32 in, f32 out, double reference: 1 GiB
  ASSERT_FALSE(gelu.specJson.empty());
  EvaluationRequest r;
  r.task = &gelu;
  r.seeds = {1, 2, 3};
  r.time = true;
  WorkerEvaluatorOptions o;
  o.evaluateTimeout = 60s;
  o.perSeedPerGiB = 10s;
  EXPECT_EQ(evaluateDeadline(r, o), 60s + 4 * 10s);  // 3 seeds + timing, 1 GiB each
  r.time = false;
  r.seeds = {1};
  EXPECT_EQ(evaluateDeadline(r, o), 60s + 10s);
  r.seeds.clear();  // the worker's default 3
  EXPECT_EQ(evaluateDeadline(r, o), 60s + 30s);
  r.extended = true;  // its base, plus the 8 extra seeds
  EXPECT_EQ(evaluateDeadline(r, o), o.extendedEvaluateTimeout + 11 * 10s);
}

TEST(EvaluateDeadline, SmallTasksKeepTheBase) {
  const Task small = taskFrom("gelu_f32_1048576.json");  // 16 MiB: under a second more
  EvaluationRequest r;
  r.task = &small;
  WorkerEvaluatorOptions o;
  EXPECT_GE(evaluateDeadline(r, o), o.evaluateTimeout);
  EXPECT_LT(evaluateDeadline(r, o), o.evaluateTimeout + 2s);
}

TEST(EvaluateDeadline, UnparseableSpecsAndDisabledScalingKeepTheBase) {
  Task fake;
  fake.specJson = R"({"spec":"fake"})";
  EvaluationRequest r;
  r.task = &fake;
  WorkerEvaluatorOptions o;
  o.evaluateTimeout = 300ms;  // the hang tests' short deadline stays short
  EXPECT_EQ(evaluateDeadline(r, o), 300ms);
  const Task big = taskFrom("cross_entropy_f32_8192x32000.json");
  r.task = &big;
  EXPECT_GT(evaluateDeadline(r, o), 300ms + 60s);  // ~1 GiB of logits, 3 seeds and timing
  o.perSeedPerGiB = 0ms;
  EXPECT_EQ(evaluateDeadline(r, o), 300ms);
}

}  // namespace
}  // namespace crucible
