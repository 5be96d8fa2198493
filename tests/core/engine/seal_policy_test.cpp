// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include "core/engine/engine.h"
#include "core/engine/seal_policy.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/doubles/engine_bench.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::FakeSanitizer;
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
  EXPECT_FALSE(validation.contains("sanitizer"));

  SanitizerReport clean = FakeSanitizer::clean();
  clean.seconds = 42.5;
  clean.shape = "M=256, N=4096";
  auto sanitized = nlohmann::json::parse(makeSeal(3, 4, c, passing(1.25, 4), f, 100.0, 99, &clean).validationReportJson);
  EXPECT_TRUE(sanitized["sanitizer"]["clean"].get<bool>());
  EXPECT_EQ(sanitized["sanitizer"]["tools"].size(), 4u);
  EXPECT_DOUBLE_EQ(sanitized["sanitizer"]["seconds"].get<double>(), 42.5);
  EXPECT_EQ(sanitized["sanitizer"]["shape"], "M=256, N=4096") << "the seal says where the tools ran";
}

TEST(SealPolicy, OnlyAWrongResultDemotesASlowOrUntimedOneIsMerelyNotSealed) {
  EXPECT_FALSE(demotionFor(passing(1.2, 8)));
  EXPECT_FALSE(demotionFor(passing(1.01, 8))) << "under the seal margin: not sealed, still correct";
  Evaluation untimed = passing(1.2, 8);
  untimed.timing.reset();
  EXPECT_FALSE(demotionFor(untimed));
}

TEST(SealPolicy, AFailedExtendedValidationDemotesToItsStatusWithTheReason) {
  Evaluation invalid = passing(1.2, 8);
  invalid.status = CandidateStatus::Invalid;
  invalid.detail = "validation failed";
  invalid.trials[6].passed = false;
  invalid.trials[6].reason = "mismatches: 17";
  auto d = demotionFor(invalid);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->status, CandidateStatus::Invalid);
  EXPECT_EQ(d->detail, "extended validation at seal time failed: validation failed (seed 6: mismatches: 17)");

  for (CandidateStatus s : {CandidateStatus::Faulted, CandidateStatus::TimedOut}) {
    Evaluation e;
    e.status = s;
    e.detail = "illegal address";
    auto f = demotionFor(e);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->status, s);
    EXPECT_EQ(f->detail, "extended validation at seal time failed: illegal address");
  }

  Evaluation inconsistent = passing(1.2, 4);   // says Valid, but a trial failed
  inconsistent.trials[2].passed = false;
  inconsistent.trials[2].reason = "NaN in output";
  auto g = demotionFor(inconsistent);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->status, CandidateStatus::Invalid);
  EXPECT_NE(g->detail.find("seed 2: NaN in output"), std::string::npos) << g->detail;
}

TEST(SealPolicy, DemotingClearsTheFitnessAndKeepsTheFailingTrials) {
  Candidate c;
  c.status = CandidateStatus::Valid;
  c.fitness = 9.5;
  c.validation = passing(9.5, 2).trials;
  Evaluation failed = passing(9.5, 4);
  failed.status = CandidateStatus::Invalid;
  failed.trials[3].passed = false;
  demote(c, *demotionFor(failed), failed);
  EXPECT_EQ(c.status, CandidateStatus::Invalid);
  EXPECT_EQ(c.fitness, 0);
  EXPECT_EQ(c.validation.size(), 6u);
  EXPECT_FALSE(c.validation.back().passed);
  EXPECT_NE(c.statusDetail.find("extended validation at seal time failed"), std::string::npos);
}

TEST(SealPolicy, TheSealNeedsACleanSanitizerRunAndSaysPlainlyWhyNot) {
  SanitizerReport clean = FakeSanitizer::clean();
  EXPECT_FALSE(sanitizerRefusal(&clean));

  auto none = sanitizerRefusal(nullptr);
  ASSERT_TRUE(none);
  EXPECT_NE(none->find("no sanitizer is configured"), std::string::npos) << *none;

  SanitizerReport missing = FakeSanitizer::unavailable("compute-sanitizer is not installed (not on PATH)");
  EXPECT_EQ(sanitizerRefusal(&missing), "the sanitizers did not run: compute-sanitizer is not installed (not on PATH)");

  SanitizerReport races = FakeSanitizer::withFindings("racecheck", 3, "Error: Potential RAW hazard detected at __shared__ 0x10");
  EXPECT_EQ(sanitizerRefusal(&races), "racecheck found 3 hazards: Error: Potential RAW hazard detected at __shared__ 0x10");

  // --print-limit: the summary counts more than the report lists.
  SanitizerReport reads = FakeSanitizer::withFindings("memcheck", 1, "Invalid __global__ read of size 4 bytes");
  reads.reportedErrors["memcheck"] = 1024;
  EXPECT_EQ(sanitizerRefusal(&reads), "memcheck found 1024 errors: Invalid __global__ read of size 4 bytes");

  SanitizerReport slow = FakeSanitizer::clean();
  slow.clean = false;
  slow.findings.push_back({"racecheck", "did not finish within 300 s"});
  slow.findings.push_back({"initcheck", "Uninitialized __global__ memory read of size 4 bytes"});
  slow.reportedErrors["initcheck"] = 1;
  EXPECT_EQ(sanitizerRefusal(&slow),
            "racecheck: did not finish within 300 s; initcheck found 1 error: Uninitialized __global__ memory read of size 4 bytes");

  SanitizerReport mute = FakeSanitizer::clean();
  mute.clean = false;
  EXPECT_TRUE(sanitizerRefusal(&mute)) << "not clean refuses even without a finding";
}

using SealedRun = testing::EngineBench;

bool logSays(const ProjectStore& store, RunId run, const std::string& text) {
  return testing::logLinesSaying(store, run, text) > 0;
}

TEST(SealedRun, FastValidCandidatesAreSealedAndTheNextRunStartsFromTheSeal) {
  SealedRun f;
  // Without look-ahead: on this seed's search path no child of the second
  // run's first generations replaces the seal's elite within its budget, so
  // its archive still shows the seal (look-ahead finds other parents).
  RunSettings sequential = testing::smallSettings();
  sequential.lookAhead = false;
  RunId first = f.engine.createRun(f.project.task(), "first", 7, Budget{40, 0, 0}, false, sequential);
  f.engine.run(first);
  auto store = f.project.open();
  auto seals = store->seals(f.project.task());
  ASSERT_FALSE(seals.empty());
  EXPECT_EQ(f.observer.count<events::Sealed>(), static_cast<int>(seals.size()));
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
    EXPECT_TRUE(nlohmann::json::parse(it->validationReportJson)["sanitizer"]["clean"].get<bool>());
  }
  EXPECT_GE(f.sanitizer.calls.load(), static_cast<int>(seals.size()));
  Seal latest = *store->latestSeal(f.project.task());

  RunId second = f.engine.createRun(f.project.task(), "second", 8, Budget{10, 0, 0}, false, sequential);
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
  EXPECT_EQ(f.observer.count<events::Sealed>(), 0);
  EXPECT_EQ(f.sanitizer.calls.load(), 0) << "the sanitizers run only after an extended validation that passed";
  EXPECT_TRUE(logSays(*store, run, "demoted")) << "the log says why nothing was sealed";
}

// What the tests of a demotion check: the candidate is on record as failed,
// and nothing of the run's search ever saw it as a good kernel.
void expectDemotedEverywhere(SealedRun& f, RunId run, CandidateStatus demotedTo) {
  auto store = f.project.open();
  std::vector<Candidate> demoted;
  double bestValid = 0;
  for (const auto& s : store->candidateSummaries(run)) {
    auto c = store->candidate(s.id);
    if (c->status == CandidateStatus::Valid) bestValid = std::max(bestValid, c->fitness);
    if (c->statusDetail.find("extended validation at seal time failed") != std::string::npos) demoted.push_back(*c);
  }
  ASSERT_EQ(demoted.size(), 1u);
  const Candidate& d = demoted.front();
  EXPECT_EQ(d.status, demotedTo);
  EXPECT_EQ(d.fitness, 0);
  ASSERT_TRUE(d.timing);
  EXPECT_GE(d.timing->speedup, 1.05) << "it looked fast enough to seal before the extended validation";
  EXPECT_FALSE(d.validation.empty());
  EXPECT_FALSE(d.validation.back().passed) << "the failing extended trial is on record";

  for (const auto& cell : store->archive(run)) EXPECT_NE(cell.elite, d.id) << "never in the archive";
  EXPECT_DOUBLE_EQ(store->run(run)->bestSpeedup, bestValid) << "the run's best counts valid candidates only";
  for (const auto& s : store->candidateSummaries(run))
    for (CandidateId p : s.parents) EXPECT_NE(p, d.id) << "candidate " << s.id << " was bred from the demoted one";
  for (const auto& seal : store->seals(f.project.task())) EXPECT_NE(seal.candidateId, d.id);

  bool evaluated = false;
  for (const auto& e : f.observer.all<events::CandidateEvaluated>()) {
    if (e.candidate != d.id) continue;
    evaluated = true;
    EXPECT_EQ(e.status, demotedTo) << "the views learn the demoted status";
    EXPECT_EQ(e.fitness, 0);
  }
  EXPECT_TRUE(evaluated);
  EXPECT_TRUE(logSays(*store, run, "candidate " + std::to_string(d.id) + " demoted to " + toString(demotedTo)));
}

TEST(SealedRun, ACandidateThatFailsExtendedValidationIsDemotedNotJustUnsealed) {
  SealedRun f;
  f.dispatcher.evaluator(0).failExtendedFirst = 1;
  RunId run = f.engine.createRun(f.project.task(), "demote", 7, Budget{40, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  expectDemotedEverywhere(f, run, CandidateStatus::Invalid);
  EXPECT_FALSE(f.project.open()->seals(f.project.task()).empty()) << "later candidates are still sealed";
}

TEST(SealedRun, AFaultAtSealTimeDemotesToFaulted) {
  SealedRun f;
  f.dispatcher.evaluator(0).failExtendedFirst = 1;
  f.dispatcher.evaluator(0).extendedFailure = CandidateStatus::Faulted;
  RunId run = f.engine.createRun(f.project.task(), "fault", 7, Budget{40, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  expectDemotedEverywhere(f, run, CandidateStatus::Faulted);
}

TEST(SealedRun, WithoutASanitizerNothingIsSealedAndTheLogSaysSo) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher{1};
  Engine engine{project.path(), proposer, compiler, dispatcher};
  RunId run = engine.createRun(project.task(), "bare", 7, Budget{30, 0, 0}, false, testing::smallSettings());
  engine.run(run);
  auto store = project.open();
  EXPECT_GT(dispatcher.evaluator(0).extendedEvaluations.load(), 0);
  EXPECT_TRUE(store->seals(project.task()).empty());
  EXPECT_TRUE(logSays(*store, run, "no sanitizer is configured: candidates are validated, but none can be sealed"));
  EXPECT_TRUE(logSays(*store, run, "not sealed: no sanitizer is configured"));
  bool stored = false;
  for (const auto& s : store->candidateSummaries(run)) {
    auto c = store->candidate(s.id);
    stored |= c->status == CandidateStatus::Valid && c->statusDetail.find("not sealed: no sanitizer") != std::string::npos;
  }
  EXPECT_TRUE(stored) << "the refusal is stored with the candidate";
}

TEST(SealedRun, SanitizerFindingsRefuseTheSealWithTheToolsReport) {
  SealedRun f;
  f.sanitizer.report = FakeSanitizer::withFindings("racecheck", 3, "Error: Potential RAW hazard detected at __shared__ 0x10");
  RunId run = f.engine.createRun(f.project.task(), "racy", 7, Budget{30, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  auto store = f.project.open();
  EXPECT_GT(f.sanitizer.calls.load(), 0);
  EXPECT_EQ(f.sanitizer.devices().front(), 0) << "the GPU of the evaluator that validated it";
  EXPECT_TRUE(store->seals(f.project.task()).empty());
  EXPECT_EQ(f.observer.count<events::Sealed>(), 0);
  EXPECT_TRUE(logSays(*store, run, "not sealed: racecheck found 3 hazards: Error: Potential RAW hazard detected"));
  EXPECT_TRUE(logSays(*store, run, "sanitizer report of candidate")) << "the tool's own report is shown";
  int refused = 0;
  for (const auto& s : store->candidateSummaries(run)) {
    auto c = store->candidate(s.id);
    if (c->statusDetail.find("not sealed: racecheck found 3 hazards") == std::string::npos) continue;
    ++refused;
    EXPECT_EQ(c->status, CandidateStatus::Valid) << "a finding refuses the seal; the results were still correct";
  }
  EXPECT_EQ(refused, f.sanitizer.calls.load());
}

TEST(SealedRun, AMissingComputeSanitizerRefusesTheSealPlainly) {
  SealedRun f;
  f.sanitizer.report = FakeSanitizer::unavailable("compute-sanitizer is not installed (not on PATH)");
  RunId run = f.engine.createRun(f.project.task(), "bare", 7, Budget{30, 0, 0}, false, testing::smallSettings());
  f.engine.run(run);
  auto store = f.project.open();
  EXPECT_TRUE(store->seals(f.project.task()).empty());
  EXPECT_TRUE(logSays(*store, run, "not sealed: the sanitizers did not run: compute-sanitizer is not installed (not on PATH)"));
}

}  // namespace
}  // namespace crucible
