// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/commit_outcome.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"

namespace crucible::engine_detail {
namespace {

using testing::FakeSanitizer;

Evaluation passing(double speedup, int seeds, double gpuSeconds) {
  Evaluation e;
  e.status = CandidateStatus::Valid;
  for (int i = 0; i < seeds; ++i) e.trials.push_back({static_cast<std::uint64_t>(i), true, "", 0, 0, 0});
  Timing t;
  t.medianUs = 100.0 / speedup;
  t.referenceMedianUs = 100.0;
  t.speedup = speedup;
  e.timing = t;
  e.gpuSeconds = gpuSeconds;
  return e;
}

// A result whose candidate compiled and passed at `speedup`.
PipelineResult evaluated(double speedup) {
  PipelineResult r;
  r.state = PipelineResult::State::Done;
  r.compile.report.ok = true;
  r.compiled = true;
  r.evaluation = passing(speedup, 2, 0.5);
  r.fitness = speedup;
  return r;
}

Candidate proposed() {
  Candidate c;
  c.id = 9;
  c.status = CandidateStatus::Proposed;
  return c;
}

OutcomeRules rules(double bestSealed = 0) {
  return OutcomeRules{3, 4, 0.05, 100.0, bestSealed, 1234};
}

TEST(CommitOutcome, AFailedCompileSaysItsFirstError) {
  PipelineResult r;
  r.compile.report.ok = false;
  r.compile.report.diagnostics = {{4, 1, "warning", "unused"}, {12, 3, "error", "undefined BLOCK"}};
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  EXPECT_EQ(o.candidate.status, CandidateStatus::CompileFailed);
  EXPECT_EQ(o.candidate.statusDetail, "line 12: undefined BLOCK");
  EXPECT_EQ(o.candidate.fitness, 0);
  EXPECT_EQ(o.gpuSeconds, 0);
  EXPECT_FALSE(o.seal);
  EXPECT_TRUE(sealLog(o, r).empty());

  CompileReport silent;
  EXPECT_EQ(firstError(silent), "compilation failed without a diagnostic");
  silent.log = "nvrtc: out of memory";
  EXPECT_EQ(firstError(silent), "nvrtc: out of memory");
}

TEST(CommitOutcome, AnEvaluationGivesStatusReportsAndFitness) {
  PipelineResult r = evaluated(1.02);
  r.profile = ProfileResult{true, "", {{"dram__throughput", 0.8}}};
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  EXPECT_EQ(o.candidate.status, CandidateStatus::Valid);
  EXPECT_DOUBLE_EQ(o.candidate.fitness, 1.02);
  EXPECT_EQ(o.candidate.validation.size(), 2u);
  ASSERT_TRUE(o.candidate.timing);
  EXPECT_EQ(o.candidate.profile.count("dram__throughput"), 1u);
  EXPECT_DOUBLE_EQ(o.gpuSeconds, 0.5);
  EXPECT_FALSE(o.seal);
  EXPECT_TRUE(o.sealNote.empty()) << "not validated further: no seal decision";

  PipelineResult untimed = evaluated(1.0);
  untimed.fitness = 0;
  EXPECT_EQ(outcomeOf(proposed(), untimed, rules()).candidate.statusDetail, " (valid but not timed: fitness 0)");
}

TEST(CommitOutcome, ACleanExtendedValidationSeals) {
  PipelineResult r = evaluated(1.5);
  r.extended = passing(1.5, 8, 2.0);
  r.sanitizer = FakeSanitizer::clean();
  r.sanitizer->seconds = 1.0;
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  ASSERT_TRUE(o.seal);
  EXPECT_EQ(o.seal->taskId, 3);
  EXPECT_EQ(o.seal->runId, 4);
  EXPECT_EQ(o.seal->candidateId, 9);
  EXPECT_DOUBLE_EQ(o.seal->speedup, 1.5);
  EXPECT_DOUBLE_EQ(o.gpuSeconds, 3.5) << "evaluation, extended validation and sanitizers";
  auto lines = sealLog(o, r);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].level, "info");
  EXPECT_EQ(lines[0].text.rfind("sealed candidate 9: ", 0), 0u) << lines[0].text;
}

TEST(CommitOutcome, ASealMustBeatTheBestSealOfThisBatch) {
  PipelineResult r = evaluated(1.5);
  r.extended = passing(1.5, 8, 0);
  r.sanitizer = FakeSanitizer::clean();
  CommitOutcome o = outcomeOf(proposed(), r, rules(1.45));
  EXPECT_FALSE(o.seal);
  EXPECT_EQ(o.sealNote, "a better seal was made earlier in this batch");
  EXPECT_EQ(sealLog(o, r).at(0).text, "candidate 9 not sealed: a better seal was made earlier in this batch");
}

TEST(CommitOutcome, AFailedExtendedValidationDemotes) {
  PipelineResult r = evaluated(1.5);
  r.extended = passing(1.5, 8, 0);
  r.extended->status = CandidateStatus::Invalid;
  r.extended->trials[5].passed = false;
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  ASSERT_TRUE(o.demotion);
  EXPECT_EQ(o.candidate.status, CandidateStatus::Invalid);
  EXPECT_EQ(o.candidate.fitness, 0);
  EXPECT_FALSE(o.seal);
  auto lines = sealLog(o, r);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].level, "warning");
  EXPECT_NE(lines[0].text.find("demoted to"), std::string::npos);
}

TEST(CommitOutcome, ADirtySanitizerRefusesTheSealAndItsReportIsLogged) {
  PipelineResult r = evaluated(1.5);
  r.extended = passing(1.5, 8, 0);
  r.sanitizer = FakeSanitizer::withFindings("racecheck", 2, "race on smem");
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  EXPECT_FALSE(o.seal);
  EXPECT_FALSE(o.demotion);
  EXPECT_FALSE(o.sealNote.empty());
  EXPECT_NE(o.candidate.statusDetail.find("not sealed: "), std::string::npos) << o.candidate.statusDetail;
  EXPECT_EQ(o.candidate.status, CandidateStatus::Valid) << "racy, but its results were right";
  auto lines = sealLog(o, r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].level, "warning");
  EXPECT_EQ(lines[1].text.rfind("sanitizer report of candidate 9:\n", 0), 0u);
}

TEST(CommitOutcome, NoSanitizerMeansNoSeal) {
  PipelineResult r = evaluated(1.5);
  r.extended = passing(1.5, 8, 0);
  CommitOutcome o = outcomeOf(proposed(), r, rules());
  EXPECT_FALSE(o.seal);
  EXPECT_FALSE(o.sealNote.empty());
  EXPECT_EQ(sealLog(o, r).at(0).level, "info");
}

}  // namespace
}  // namespace crucible::engine_detail
