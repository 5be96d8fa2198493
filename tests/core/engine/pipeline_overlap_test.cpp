// SPDX-License-Identifier: GPL-3.0-or-later
// Compile ahead of evaluation (issue 20): the batch pipeline compiles while
// the evaluator works, the run loop appends the next generation while this
// one is evaluated, results stay in proposal order and a run stays the same
// for a seed whatever the timing; and the per-phase account says where the
// session's time went. Bounds on wall time are generous (a loaded machine
// only slows the sleeps' surroundings); the comparisons use the pipeline's
// own sums, whose lower bounds are the doubles' sleeps.
#include <gtest/gtest.h>
#include <chrono>
#include "core/engine/batch_pipeline.h"
#include "core/engine/engine.h"
#include "core/engine/phase_times.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_genome.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/doubles/engine_bench.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using engine_detail::BatchPipeline;
using engine_detail::PipelineConfig;
using engine_detail::PipelineItem;
using engine_detail::PipelineResult;
using testing::FakeCompiler;
using testing::FakeEvaluator;
using testing::FakeGenome;

constexpr int kMs = 1000;   // the doubles' delays are in microseconds

std::vector<PipelineItem> itemsOf(int count, int firstBlock = 0) {
  std::vector<PipelineItem> items;
  for (int i = 0; i < count; ++i) {
    FakeGenome g;
    g.mem = 1;
    g.block = testing::kBlock[static_cast<std::size_t>(i % 4)];
    g.nonce = static_cast<std::uint64_t>(firstBlock + i + 1);   // distinct sources
    PipelineItem item;
    item.candidate.id = firstBlock + i + 1;
    item.candidate.source = g.source();
    item.candidate.launch.entry = "k";
    item.seeds = {1, 2};
    item.profileAbove = 1e9;   // no profiles: this test is about compile and evaluation
    item.bestSealedSpeedup = 1e9;
    items.push_back(std::move(item));
  }
  return items;
}

PipelineConfig configFor(Compiler& compiler, Evaluator& evaluator, const Task& task, bool acceptsMore) {
  PipelineConfig c;
  c.compiler = &compiler;
  c.evaluators = {&evaluator};
  c.compileThreads = 1;
  c.compileArch = "sm_90";
  c.task = &task;
  c.referenceMedianUs = 100;
  c.sealMargin = 0.05;
  c.acceptsMore = acceptsMore;
  return c;
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Compile 100 ms and evaluate 100 ms per candidate on one compile thread and
// one evaluator: N candidates take about (N+1) x 100 ms, not N x 200 ms.
TEST(PipelineOverlap, CompilesRunAheadOfTheEvaluator) {
  const Task task = testing::geluTask();
  FakeCompiler compiler;
  compiler.delayMicroseconds = 100 * kMs;
  FakeEvaluator evaluator;
  evaluator.delayMicroseconds = 100 * kMs;
  constexpr int n = 8;
  const auto start = std::chrono::steady_clock::now();
  BatchPipeline pipeline(configFor(compiler, evaluator, task, /*acceptsMore=*/false), itemsOf(n));
  for (std::size_t i = 0; i < pipeline.size(); ++i)
    EXPECT_EQ(pipeline.waitFor(i, nullptr).state, PipelineResult::State::Done) << i;
  const double wall = secondsSince(start);
  const PhaseTimes t = pipeline.times();

  EXPECT_EQ(compiler.calls.load(), n);
  EXPECT_EQ(evaluator.evaluations.load(), n);
  EXPECT_GE(t.compileSeconds, n * 0.1 * 0.99);
  EXPECT_GE(t.evaluateSeconds, n * 0.1 * 0.99);
  // Serial, the evaluator would wait for every compile (0.8 s); ahead, only the first. Its wait
  // starts when its thread first asks, which may be some milliseconds into that compile (a fresh
  // clone's ThreadSanitizer run on two busy cores measured 96 ms): half the compile is the floor.
  EXPECT_GE(t.waitCompileSeconds, 0.1 * 0.5);
  EXPECT_LT(t.waitCompileSeconds, 0.4) << describe(t);
  EXPECT_GE(wall, (n + 1) * 0.1 * 0.99);
  EXPECT_LT(wall, n * 0.2 * 0.8) << "compile and evaluation did not overlap: " << describe(t);
}

// An open pipeline takes the next generation while it evaluates this one:
// its compiles are done by the time the evaluator gets to it.
TEST(PipelineOverlap, AnOpenPipelineCompilesTheNextGenerationDuringThisOne) {
  const Task task = testing::geluTask();
  FakeCompiler compiler;
  compiler.delayMicroseconds = 50 * kMs;
  FakeEvaluator evaluator;
  evaluator.delayMicroseconds = 300 * kMs;
  BatchPipeline pipeline(configFor(compiler, evaluator, task, /*acceptsMore=*/true), {});
  EXPECT_EQ(pipeline.append(itemsOf(4)), 0u);
  EXPECT_EQ(pipeline.waitFor(0, nullptr).state, PipelineResult::State::Done);
  // The run loop appends the next generation once the previous one is committed.
  EXPECT_EQ(pipeline.append(itemsOf(4, 4)), 4u);
  for (std::size_t i = 0; i < 8; ++i) {
    const PipelineResult& r = pipeline.waitFor(i, nullptr);
    EXPECT_EQ(r.state, PipelineResult::State::Done) << i;
    // Compiled ahead: no wait near a compile's 50 ms (0.45 s of evaluation stood between).
    if (i >= 4) EXPECT_LT(r.waitCompileSeconds, 0.045) << "item " << i << " was not compiled ahead";
  }
  pipeline.close();
  EXPECT_THROW(pipeline.append(itemsOf(1, 8)), std::logic_error);
  const PhaseTimes t = pipeline.times();
  EXPECT_EQ(t.evaluators, 1);
  EXPECT_GE(t.evaluateSeconds, 8 * 0.15 * 0.99);
  // The first compile is waited for: most of its 50 ms, since the evaluator
  // thread starts waiting a little after the compile starts (0.048 s was
  // seen under a ctest -j 4 load on two cores).
  EXPECT_GE(t.waitCompileSeconds, 0.05 * 0.5) << "the first compile is waited for: " << describe(t);
  EXPECT_LT(t.waitCompileSeconds, 0.2) << describe(t);
}

TEST(PipelineOverlap, ItemsAppendedAfterAHaltAreSkippedNotLeftPending) {
  const Task task = testing::geluTask();
  FakeCompiler compiler;
  FakeEvaluator evaluator;
  BatchPipeline pipeline(configFor(compiler, evaluator, task, /*acceptsMore=*/true), itemsOf(2));
  pipeline.waitFor(1, nullptr);
  pipeline.halt();
  const std::size_t first = pipeline.append(itemsOf(2, 2));
  EXPECT_EQ(pipeline.waitFor(first, nullptr).state, PipelineResult::State::Skipped);
  EXPECT_EQ(pipeline.waitFor(first + 1, nullptr).state, PipelineResult::State::Skipped);
  EXPECT_EQ(evaluator.evaluations.load(), 2);
}

using Bench = testing::EngineBench;

struct Outcome {
  std::vector<std::string> sequence;
  PhaseTimes phases;
  std::vector<std::string> log;
};

Outcome runWith(bool lookAhead, int compileMs, int evaluateMs, int budget = 24) {
  Bench b;
  b.compiler.delayMicroseconds = compileMs * kMs;
  b.dispatcher.evaluator(0).delayMicroseconds = evaluateMs * kMs;
  RunSettings s = testing::smallSettings();   // 4 candidates per generation
  s.lookAhead = lookAhead;
  s.tuningShare = 0.3;
  RunId run = b.engine.createRun(b.project.task(), "overlap", 5, Budget{budget, 0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  Outcome o;
  o.sequence = testing::candidateSequence(*store, run);
  const auto finished = b.observer.all<events::RunFinished>();
  EXPECT_EQ(finished.size(), 1u);
  if (!finished.empty()) o.phases = finished.front().phases;
  for (const auto& line : store->log(run)) o.log.push_back(line.text);
  return o;
}

// With look-ahead the generation boundary costs no compile wait: the next
// generation was compiled while this one was evaluated. Without it, every
// generation's first compile is waited for (a lower bound: the sleeps).
TEST(PipelineOverlap, LookAheadHidesTheCompileAtEveryGenerationBoundary) {
  const Outcome serial = runWith(false, 40, 40);
  const Outcome ahead = runWith(true, 40, 40);
  const int generations = 24 / 4;   // the budget's evaluations in generations of 4 (seeds included)
  EXPECT_GE(serial.phases.waitCompileSeconds, (generations - 1) * 0.04 * 0.99) << describe(serial.phases);
  EXPECT_LT(ahead.phases.waitCompileSeconds, serial.phases.waitCompileSeconds - 0.04)
      << "serial: " << describe(serial.phases) << "\nahead: " << describe(ahead.phases);
  EXPECT_EQ(ahead.phases.evaluations, 24);
  EXPECT_EQ(serial.phases.evaluations, 24);
}

// The look-ahead's rule (generation g+1 proposed before g is committed) does
// not depend on timing: the same seed gives the same run with any latencies.
TEST(PipelineOverlap, ALookAheadRunIsTheSameForASeedWhateverTheLatencies) {
  const Outcome fast = runWith(true, 0, 0, 32);
  const Outcome slowCompile = runWith(true, 15, 1, 32);
  const Outcome slowEvaluate = runWith(true, 1, 15, 32);
  EXPECT_EQ(fast.sequence, slowCompile.sequence);
  EXPECT_EQ(fast.sequence, slowEvaluate.sequence);
  EXPECT_EQ(fast.sequence.size(), slowEvaluate.sequence.size());
}

// The run's account: every phase measured, printed in the log before the
// run's last line, and carried by RunFinished.
TEST(PipelineOverlap, TheRunReportsWhereItsTimeWent) {
  const Outcome o = runWith(true, 10, 20, 12);
  const PhaseTimes& t = o.phases;
  EXPECT_EQ(t.evaluations, 12);
  EXPECT_EQ(t.evaluators, 1);
  EXPECT_GE(t.compileSeconds, 12 * 0.01 * 0.99);
  EXPECT_GE(t.evaluateSeconds, 12 * 0.02 * 0.99);
  EXPECT_GT(t.proposeSeconds, 0);
  EXPECT_GT(t.commitSeconds, 0);
  // The fake's evaluations say 1 ms each; extended validations add theirs.
  EXPECT_GE(t.gpuSeconds, 12 * 0.001 - 1e-9);
  EXPECT_GT(t.profiles, 0) << "elites are profiled";
  EXPECT_GE(t.wallSeconds, t.evaluateSeconds + t.profileSeconds + t.extendedSeconds);
  EXPECT_GE(t.gpuIdleShare(), 0.0);
  EXPECT_LT(t.gpuIdleShare(), 1.0);
  ASSERT_GE(o.log.size(), 2u);
  EXPECT_EQ(o.log[o.log.size() - 2].rfind("pipeline: 12 evaluations in ", 0), 0u) << o.log[o.log.size() - 2];
  EXPECT_NE(o.log.back().find("run finished"), std::string::npos);
}

TEST(PhaseTimes, SharesAndRatesFollowFromTheSums) {
  PhaseTimes t;
  EXPECT_EQ(t.gpuIdleShare(), 0);
  EXPECT_EQ(t.evaluationsPerWallMinute(), 0);
  t.wallSeconds = 60;
  t.evaluators = 2;
  t.evaluations = 90;
  t.evaluateSeconds = 50;
  t.profileSeconds = 10;
  t.extendedSeconds = 5;
  t.sanitizeSeconds = 1;
  t.gpuSeconds = 45;
  EXPECT_DOUBLE_EQ(t.busySeconds(), 66);
  EXPECT_DOUBLE_EQ(t.gpuIdleShare(), 1 - 66.0 / 120.0);
  EXPECT_DOUBLE_EQ(t.evaluationsPerWallMinute(), 90);
  EXPECT_DOUBLE_EQ(t.evaluationsPerGpuMinute(), 120);
  PhaseTimes more = t;
  more += t;
  EXPECT_EQ(more.evaluations, 180);
  EXPECT_EQ(more.evaluators, 2);
  EXPECT_NE(describe(t).find("90 evaluations in 60.0 s wall on 2 evaluator(s) (90.0/wall-min, 120.0/GPU-min)"),
            std::string::npos)
      << describe(t);
  EXPECT_NE(describe(t).find("GPU idle 45.0%"), std::string::npos) << describe(t);
}

// A wall-time budget that runs out inside a generation stops what has not
// started (it stays Proposed, for a resume) instead of evaluating the rest of
// that generation: with 300 ms evaluations and a 1 s budget, the seeds (two,
// and one extended validation) end at 0.9 s and nothing after them is
// evaluated; without the halt a third evaluation ran (1.5 s of wall). A slower
// machine reaches the budget earlier in the work, so the bound holds there too.
TEST(PipelineOverlap, AWallBudgetSpentInsideAGenerationStartsNothingNew) {
  Bench b;
  b.dispatcher.evaluator(0).delayMicroseconds = 300 * kMs;
  RunSettings s = testing::smallSettings();   // 4 candidates per generation
  RunId run = b.engine.createRun(b.project.task(), "wall", 5, Budget{100, 1.0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  const auto finished = b.observer.all<events::RunFinished>();
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_NE(finished.front().reason.find("wall-time budget"), std::string::npos) << finished.front().reason;
  EXPECT_LE(finished.front().phases.evaluations, 2) << describe(finished.front().phases);
  EXPECT_GE(finished.front().phases.evaluations, 1);
}

}  // namespace
}  // namespace crucible
