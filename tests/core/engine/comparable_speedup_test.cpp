// SPDX-License-Identifier: GPL-3.0-or-later
// A candidate's speedup never divides timings taken on different hardware:
// the interleaved reference (one worker, one GPU) is always comparable; the
// run's own reference time only on the same GPU model and driver. And the
// pipeline's fitness, the candidate's detail and the stored timing follow it.
#include "core/engine/comparable_speedup.h"

#include <gtest/gtest.h>

#include "core/engine/batch_pipeline.h"
#include "core/engine/commit_outcome.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"

namespace crucible {
namespace {

Fingerprint gpu(const std::string& name, const std::string& arch = "sm_90", const std::string& driver = "580.159.04") {
  Fingerprint f;
  f.gpu = name;
  f.arch = arch;
  f.driver = driver;
  f.host = "node";
  return f;
}

// A timing of the candidate alone, with no reference timed beside it.
Timing alone(double medianUs, const Fingerprint& device) {
  Timing t;
  t.samplesUs = {medianUs};
  t.medianUs = medianUs;
  t.device = device;
  return t;
}

TEST(ComparableSpeedup, TheInterleavedReferenceIsTakenWhateverTheRunsReferenceWasTimedOn) {
  Timing t = alone(50, gpu("NVIDIA A100-SXM4-80GB", "sm_80"));
  t.referenceMedianUs = 100;  // timed beside the candidate, by the same worker, on the A100
  const ComparedSpeedup s = comparableSpeedup(t, 80.0, gpu("NVIDIA H200"));
  EXPECT_DOUBLE_EQ(s.speedup, 2.0);
  EXPECT_TRUE(s.interleaved);
  EXPECT_TRUE(s.refusal.empty());
  t.speedup = 2.05;  // the worker's own ratio wins over recomputing it
  EXPECT_DOUBLE_EQ(comparableSpeedup(t, 80.0, gpu("NVIDIA H200")).speedup, 2.05);
}

TEST(ComparableSpeedup, TheRunsReferenceTimeIsUsedOnTheSameHardwareOnly) {
  const Fingerprint h200 = gpu("NVIDIA H200");
  Fingerprint otherH200 = h200;
  otherH200.host = "node-2";
  otherH200.smClockMHz = 1755;
  ComparedSpeedup same = comparableSpeedup(alone(40, otherH200), 80.0, h200);
  EXPECT_DOUBLE_EQ(same.speedup, 2.0);
  EXPECT_FALSE(same.interleaved);
  EXPECT_TRUE(same.refusal.empty());

  ComparedSpeedup model = comparableSpeedup(alone(40, gpu("NVIDIA A100-SXM4-80GB", "sm_80")), 80.0, h200);
  EXPECT_EQ(model.speedup, 0);
  EXPECT_NE(model.refusal.find("different GPU models"), std::string::npos) << model.refusal;
  EXPECT_NE(model.refusal.find("timed on NVIDIA A100-SXM4-80GB"), std::string::npos) << model.refusal;
  EXPECT_NE(model.refusal.find("the run's reference on NVIDIA H200"), std::string::npos) << model.refusal;

  ComparedSpeedup driver = comparableSpeedup(alone(40, gpu("NVIDIA H200", "sm_90", "575.57.08")), 80.0, h200);
  EXPECT_EQ(driver.speedup, 0);
  EXPECT_NE(driver.refusal.find("different drivers"), std::string::npos) << driver.refusal;

  ComparedSpeedup unknown = comparableSpeedup(alone(40, Fingerprint{}), 80.0, h200);
  EXPECT_EQ(unknown.speedup, 0);
  EXPECT_NE(unknown.refusal.find("not recorded"), std::string::npos) << unknown.refusal;
}

TEST(ComparableSpeedup, NothingMeasuredIsNoSpeedupAndNoRefusal) {
  EXPECT_EQ(comparableSpeedup(alone(0, gpu("NVIDIA H200")), 80.0, gpu("NVIDIA H200")).speedup, 0);
  const ComparedSpeedup none = comparableSpeedup(alone(40, gpu("NVIDIA H200")), 0, gpu("NVIDIA H200"));
  EXPECT_EQ(none.speedup, 0);
  EXPECT_TRUE(none.refusal.empty());
}

TEST(ComparableSpeedup, AResumedRunOnOtherHardwareIsLogged) {
  Timing reference = alone(80, gpu("NVIDIA H200"));
  EXPECT_EQ(referenceHardwareNote(reference, gpu("NVIDIA H200")), std::nullopt);
  const auto note = referenceHardwareNote(reference, gpu("NVIDIA B200", "sm_100"));
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("this session evaluates on NVIDIA B200"), std::string::npos) << *note;
  EXPECT_NE(note->find("the run's reference was timed on NVIDIA H200"), std::string::npos) << *note;
  // A reference timed before devices were kept says nothing either way.
  EXPECT_EQ(referenceHardwareNote(alone(80, Fingerprint{}), gpu("NVIDIA B200", "sm_100")), std::nullopt);
}

TEST(ComparableSpeedup, ARefusedSpeedupIsFitnessZeroAndTheCandidateSaysWhy) {
  Evaluation e;
  e.status = CandidateStatus::Valid;
  e.trials = {{1, true, "", 0, 0, 0}};
  e.timing = alone(40, gpu("NVIDIA A100-SXM4-80GB", "sm_80"));
  const ComparedSpeedup s = engine_detail::fitnessOf(e, 80.0, gpu("NVIDIA H200"));
  EXPECT_EQ(s.speedup, 0);
  ASSERT_FALSE(s.refusal.empty());

  engine_detail::PipelineResult r;
  r.state = engine_detail::PipelineResult::State::Done;
  r.compile.report.ok = true;
  r.compiled = true;
  r.evaluation = e;
  r.fitness = s.speedup;
  r.speedupRefusal = s.refusal;
  r.device = e.timing->device;
  Candidate c;
  c.id = 9;
  const engine_detail::CommitOutcome o = engine_detail::outcomeOf(c, r, {3, 4, 0.05, 80.0, 0, 1234});
  EXPECT_EQ(o.candidate.status, CandidateStatus::Valid);
  EXPECT_EQ(o.candidate.fitness, 0);
  EXPECT_NE(o.candidate.statusDetail.find("different GPU models"), std::string::npos) << o.candidate.statusDetail;
  // The stored timing keeps the GPU it was taken on.
  ASSERT_TRUE(o.candidate.timing);
  EXPECT_EQ(o.candidate.timing->device.gpu, "NVIDIA A100-SXM4-80GB");

  // An invalid result has no speedup to refuse.
  e.status = CandidateStatus::Invalid;
  EXPECT_TRUE(engine_detail::fitnessOf(e, 80.0, gpu("NVIDIA H200")).refusal.empty());
}

TEST(ComparableSpeedup, ASealCarriesTheFingerprintOfTheGpuThatRanItsExtendedValidation) {
  // On a cluster the extended validation is another job, possibly on another node.
  Fingerprint nodeA = gpu("NVIDIA H200");
  nodeA.host = "node-a";
  Fingerprint nodeB = nodeA;
  nodeB.host = "node-b";
  Evaluation first;
  first.status = CandidateStatus::Valid;
  first.trials = {{1, true, "", 0, 0, 0}};
  first.timing = alone(40, nodeA);
  first.timing->referenceMedianUs = 80;
  first.timing->speedup = 2.0;
  Evaluation extended = first;
  extended.trials = {{2, true, "", 0, 0, 0}, {3, true, "", 0, 0, 0}};
  extended.timing->device = nodeB;

  engine_detail::PipelineResult r;
  r.state = engine_detail::PipelineResult::State::Done;
  r.compile.report.ok = true;
  r.compiled = true;
  r.evaluation = first;
  r.fitness = 2.0;
  r.device = nodeA;
  r.extended = extended;
  r.sanitizer = testing::FakeSanitizer::clean();
  Candidate c;
  c.id = 9;
  const engine_detail::CommitOutcome o = engine_detail::outcomeOf(c, r, {3, 4, 0.05, 80.0, 0, 1234});
  ASSERT_TRUE(o.seal) << o.sealNote;
  EXPECT_EQ(o.seal->fingerprint.host, "node-b");
  EXPECT_EQ(o.candidate.timing->device.host, "node-a");   // the candidate's own timing stays where it was taken
}

}  // namespace
}  // namespace crucible
