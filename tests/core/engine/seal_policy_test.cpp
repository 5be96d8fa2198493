// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include "core/engine/engine.h"
#include "core/engine/seal_policy.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;

TEST(SealPolicy, OnlyValidCandidatesBeyondTheMarginAndThePreviousSealQualify) {
  EXPECT_TRUE(deservesExtendedValidation(CandidateStatus::Valid, 1.05, 0.05, 0));
  EXPECT_FALSE(deservesExtendedValidation(CandidateStatus::Valid, 1.04, 0.05, 0));
  EXPECT_FALSE(deservesExtendedValidation(CandidateStatus::Invalid, 3.0, 0.05, 0));
  EXPECT_FALSE(deservesExtendedValidation(CandidateStatus::Valid, 1.5, 0.05, 1.5)) << "must beat the last seal";
  EXPECT_TRUE(deservesExtendedValidation(CandidateStatus::Valid, 1.6, 0.05, 1.5));
}

Evaluation passing(double speedup, int seeds) {
  Evaluation e;
  e.status = CandidateStatus::Valid;
  for (int i = 0; i < seeds; ++i) e.trials.push_back({static_cast<std::uint64_t>(i), true, "", 0, 0, 0});
  Timing t;
  t.medianUs = 100.0 / speedup;
  t.referenceMedianUs = 100.0;
  t.speedup = speedup;
  e.timing = t;
  return e;
}

TEST(SealPolicy, ExtendedValidationMustPassEverySeedAndKeepTheSpeedup) {
  EXPECT_FALSE(extendedValidationFailure(passing(1.2, 8), 0.05));
  Evaluation failedSeed = passing(1.2, 8);
  failedSeed.trials[5].passed = false;
  failedSeed.trials[5].reason = "NaN in output";
  auto why = extendedValidationFailure(failedSeed, 0.05);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("NaN in output"), std::string::npos);
  EXPECT_TRUE(extendedValidationFailure(passing(1.03, 8), 0.05)) << "speedup fell under the margin";
  Evaluation untimed = passing(1.2, 8);
  untimed.timing.reset();
  EXPECT_TRUE(extendedValidationFailure(untimed, 0.05));
  EXPECT_TRUE(extendedValidationFailure(passing(1.2, 0), 0.05)) << "no trials is no validation";
}

TEST(SealPolicy, SealCarriesReportsAndFingerprint) {
  Candidate c;
  c.id = 17;
  Fingerprint f;
  f.gpu = "NVIDIA H200";
  f.arch = "sm_90";
  Seal s = makeSeal(3, 4, c, passing(1.25, 4), f, 100.0, 99);
  EXPECT_EQ(s.taskId, 3);
  EXPECT_EQ(s.runId, 4);
  EXPECT_EQ(s.candidateId, 17);
  EXPECT_DOUBLE_EQ(s.speedup, 1.25);
  EXPECT_DOUBLE_EQ(s.medianUs, 80.0);
  EXPECT_EQ(s.fingerprint.gpu, "NVIDIA H200");
  auto validation = nlohmann::json::parse(s.validationReportJson);
  EXPECT_EQ(validation["trials"].size(), 4u);
  auto performance = nlohmann::json::parse(s.performanceReportJson);
  EXPECT_DOUBLE_EQ(performance["referenceMedianUs"].get<double>(), 100.0);
}

struct SealedRun {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher{1};
  RecordingObserver observer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer};
};

TEST(SealedRun, FastValidCandidatesAreSealedAndTheNextRunStartsFromTheSeal) {
  SealedRun f;
  RunId first = f.engine.createRun(f.project.task(), "first", 7, Budget{40, 0, 0}, false, testing::smallSettings());
  f.engine.run(first);
  auto store = f.project.open();
  auto seals = store->seals(f.project.task());
  ASSERT_FALSE(seals.empty());
  EXPECT_EQ(f.observer.count(EngineEvent::Kind::Sealed), static_cast<int>(seals.size()));
  EXPECT_GT(f.dispatcher.evaluator(0).extendedEvaluations.load(), 0);
  double previous = 0;
  for (auto it = seals.rbegin(); it != seals.rend(); ++it) {   // oldest first
    EXPECT_GE(it->speedup, 1.05 * std::max(1.0, previous)) << "each seal beats the last by the margin";
    previous = it->speedup;
    EXPECT_EQ(it->fingerprint.gpu, "Fake GPU 0");
    EXPECT_EQ(it->fingerprint.arch, "sm_90");
    auto c = store->candidate(it->candidateId);
    EXPECT_EQ(c->status, CandidateStatus::Valid);
    EXPECT_EQ(nlohmann::json::parse(it->validationReportJson)["trials"].size(), 4u);
  }
  Seal latest = *store->latestSeal(f.project.task());

  RunId second = f.engine.createRun(f.project.task(), "second", 8, Budget{10, 0, 0}, false, testing::smallSettings());
  f.engine.run(second);
  auto run = store->run(second);
  auto reference = store->candidate(run->referenceCandidate);
  EXPECT_EQ(reference->status, CandidateStatus::Reference);
  EXPECT_EQ(reference->proposer, "seal");
  EXPECT_EQ(reference->source, store->candidate(latest.candidateId)->source);
  EXPECT_EQ(reference->parents, std::vector<CandidateId>{latest.candidateId});
  bool seeded = false;
  for (const auto& cell : store->archive(second)) seeded |= cell.elite == reference->id;
  EXPECT_TRUE(seeded) << "from-seal: the archive starts from the seal's architecture";
}

TEST(SealedRun, AwayFromSealAvoidsTheSealedArchitecture) {
  SealedRun f;
  RunId first = f.engine.createRun(f.project.task(), "first", 7, Budget{30, 0, 0}, false, testing::smallSettings());
  f.engine.run(first);
  auto store = f.project.open();
  ASSERT_TRUE(store->latestSeal(f.project.task()));
  RunSettings away = testing::smallSettings();
  away.sealStart = SealStart::AwayFromSeal;
  RunId second = f.engine.createRun(f.project.task(), "away", 8, Budget{20, 0, 0}, false, away);
  f.engine.run(second);
  auto reference = store->candidate(store->run(second)->referenceCandidate);
  EXPECT_EQ(reference->proposer, "seal");
  for (const auto& cell : store->archive(second)) EXPECT_NE(cell.elite, reference->id);
  int candidates = 0;
  for (const auto& s : store->candidateSummaries(second)) {
    if (s.status == CandidateStatus::Reference) continue;
    ++candidates;
    EXPECT_NE(s.architectureKey, reference->architectureKey);
  }
  EXPECT_GT(candidates, 0);
}

TEST(SealedRun, FailedExtendedValidationSealsNothing) {
  SealedRun f;
  f.dispatcher.evaluator(0).failExtended = true;
  RunId run = f.engine.createRun(f.project.task(), "strict", 7, Budget{30, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  auto store = f.project.open();
  EXPECT_GT(f.dispatcher.evaluator(0).extendedEvaluations.load(), 0);
  EXPECT_TRUE(store->seals(f.project.task()).empty());
  EXPECT_EQ(f.observer.count(EngineEvent::Kind::Sealed), 0);
  bool explained = false;
  for (const auto& line : store->log(run)) explained |= line.text.find("not sealed") != std::string::npos;
  EXPECT_TRUE(explained) << "the log says why nothing was sealed";
}

}  // namespace
}  // namespace crucible
