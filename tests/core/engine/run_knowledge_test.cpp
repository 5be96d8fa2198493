// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/run_knowledge.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible::engine_detail {
namespace {

using namespace crucible::testing;

struct Lineage {
  TempProject project;
  std::unique_ptr<ProjectStore> store = project.open();
  RunId run = addTestRun(*store, project.task());
  Candidate parent = addTestCandidate(*store, run, genome(0), CandidateStatus::Valid, 0, 1.0);
  // Differs from the parent in its memory strategy only.
  Candidate child(double fitness) {
    return addTestCandidate(*store, run, genome(1), CandidateStatus::Valid, 1, fitness, {parent.id});
  }
};

TEST(RunKnowledge, AOneDecisionChildIsObservedAndStored) {
  Lineage l;
  RunKnowledge knowledge(*l.store, smallSettings());
  const KnowledgeEntry* entry = knowledge.observe(l.child(1.5), l.parent, "sm_90", "gelu");
  ASSERT_NE(entry, nullptr);
  EXPECT_GT(entry->id, 0) << "a new entry is added to the store";
  ASSERT_EQ(l.store->knowledge().size(), 1u);

  const KnowledgeEntry* again = knowledge.observe(l.child(1.4), l.parent, "sm_90", "gelu");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->id, entry->id);
  EXPECT_EQ(l.store->knowledge().size(), 1u) << "the same decision updates its entry";

  RunKnowledge reloaded(*l.store, smallSettings());
  EXPECT_EQ(reloaded.observe(l.child(1.45), l.parent, "sm_90", "gelu")->id, entry->id)
      << "a later session continues the stored entry";
}

TEST(RunKnowledge, PairsThatSayNothingAreNotObserved) {
  Lineage l;
  RunKnowledge knowledge(*l.store, smallSettings());
  Candidate twoParents = l.child(1.5);
  twoParents.parents.push_back(l.parent.id);
  EXPECT_EQ(knowledge.observe(twoParents, l.parent, "sm_90", "gelu"), nullptr);
  EXPECT_EQ(knowledge.observe(l.child(0), l.parent, "sm_90", "gelu"), nullptr) << "not timed";
  Candidate invalidParent = l.parent;
  invalidParent.status = CandidateStatus::Invalid;
  EXPECT_EQ(knowledge.observe(l.child(1.5), invalidParent, "sm_90", "gelu"), nullptr);
  Candidate same = addTestCandidate(*l.store, l.run, genome(0), CandidateStatus::Valid, 1, 1.2, {l.parent.id});
  EXPECT_EQ(knowledge.observe(same, l.parent, "sm_90", "gelu"), nullptr) << "no decision changed";
  EXPECT_TRUE(l.store->knowledge().empty());
}

TEST(RunKnowledge, TheReferenceCountsAsFitnessOne) {
  Lineage l;
  RunKnowledge knowledge(*l.store, smallSettings());
  Candidate reference = l.parent;
  reference.status = CandidateStatus::Reference;
  reference.fitness = 0;
  EXPECT_NE(knowledge.observe(l.child(1.5), reference, "sm_90", "gelu"), nullptr);
}

// An evaluator whose profile is a recorded one (an H200 row sum's counters).
class RecordedProfiler : public Evaluator {
public:
  Fingerprint device() const override { return Fingerprint{"Test GPU", "sm_90"}; }
  Evaluation evaluate(const EvaluationRequest&) override { return {}; }
  ProfileResult profile(const Task&, const KernelBinary&) override {
    ++profiles;
    ProfileResult p;
    p.permitted = permitted;
    if (permitted)
      p.metrics = {{"dram__bytes_read.sum", 4.0e8}, {"dram__bytes_write.sum", 0.0},
                   {"sm__warps_active.avg.pct_of_peak_sustained_active", 58.0}};
    else
      p.detail = "counters not permitted";
    return p;
  }
  std::vector<Ceiling> measureCeilings() override { return {}; }
  int profiles = 0;
  bool permitted = true;
};

TEST(RunKnowledge, TheReferenceIsProfiledOnceAndItsAnalysisRecordedWithItAsEvidence) {
  Lineage l;
  const Task task = *l.store->task(l.project.task());
  l.store->putCeiling({"Test GPU", "dram_bw", 4.0e12, 4.8e12, "B/s", 1});
  Candidate reference = addTestCandidate(*l.store, l.run, genome(0), CandidateStatus::Reference, 0, 1.0);
  CompileReport compile;
  compile.ok = true;
  compile.registers = 40;
  compile.features = {{"ld.global", 2}, {"ld.global.16B", 2}, {"shfl", 5}};
  reference.compile = compile;
  reference.timing->medianUs = 200;  // 4e8 bytes in 200 us: 2 TB/s, half the roof
  l.store->updateCandidate(reference);

  RecordedProfiler gpu;
  std::vector<std::string> lines;
  auto log = [&](const std::string& level, const std::string& text) { lines.push_back(level + " " + text); };
  RunKnowledge knowledge(*l.store, smallSettings(), task);
  const Fingerprint device{"Test GPU", "sm_90"};
  knowledge.learnFromReference(reference, "cubin", gpu, task, device, /*profile=*/true, log);
  EXPECT_EQ(gpu.profiles, 1);
  ASSERT_FALSE(l.store->candidate(reference.id)->profile.empty()) << "the reference's profile is stored";
  auto claims = l.store->knowledge();
  std::map<std::string, KnowledgeEntry> byDecision;
  for (const auto& k : claims) byDecision[k.decision] = k;
  ASSERT_TRUE(byDecision.count("reference.bound")) << (lines.empty() ? "" : lines.back());
  EXPECT_NE(byDecision["reference.bound"].claim.find("50% of the 4 TB/s"), std::string::npos)
      << byDecision["reference.bound"].claim;
  EXPECT_TRUE(byDecision.count("reference.registers"));
  EXPECT_TRUE(byDecision.count("reference.features"));
  for (const auto& k : claims) {
    EXPECT_EQ(k.evidence, (std::vector<CandidateId>{reference.id})) << k.decision;
    EXPECT_EQ(k.scopeArch, "sm_90");
    EXPECT_EQ(k.scopeFamily, task.family);
    EXPECT_EQ(k.scopeShape, knowledge.shapeClass());
  }

  // A resumed run: the stored profile is used, the claims are updated, not added again.
  Candidate again = *l.store->candidate(reference.id);
  RunKnowledge resumed(*l.store, smallSettings(), task);
  resumed.learnFromReference(again, "cubin", gpu, task, device, true, log);
  EXPECT_EQ(gpu.profiles, 1);
  EXPECT_EQ(l.store->knowledge().size(), claims.size());
}

TEST(RunKnowledge, AReferenceThatCannotBeProfiledStillGivesWhatItsCompileReportSupports) {
  Lineage l;
  const Task task = *l.store->task(l.project.task());
  Candidate reference = addTestCandidate(*l.store, l.run, genome(0), CandidateStatus::Reference, 0, 1.0);
  CompileReport compile;
  compile.registers = 40;
  reference.compile = compile;
  RecordedProfiler gpu;
  gpu.permitted = false;
  std::vector<std::string> lines;
  auto log = [&](const std::string& level, const std::string& text) { lines.push_back(level + " " + text); };
  RunKnowledge knowledge(*l.store, smallSettings(), task);
  knowledge.learnFromReference(reference, "cubin", gpu, task, Fingerprint{"Test GPU", "sm_90"}, true, log);
  EXPECT_EQ(gpu.profiles, 1);
  EXPECT_TRUE(l.store->candidate(reference.id)->profile.empty());
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "info the reference was not profiled: counters not permitted");
  EXPECT_NE(lines.back().find("reference.bound: the reference is not profiled"), std::string::npos) << lines.back();
  bool registers = false;
  for (const auto& k : l.store->knowledge()) registers |= k.decision == "reference.registers";
  EXPECT_TRUE(registers);

  // With profiling off (the run's profile mode "none") nothing is profiled.
  RecordedProfiler quiet;
  knowledge.learnFromReference(reference, "cubin", quiet, task, Fingerprint{"Test GPU", "sm_90"}, false, log);
  EXPECT_EQ(quiet.profiles, 0);
}

TEST(RunKnowledge, SupplyGivesAProposalTheRankedClaimsWithTheUsersWord) {
  Lineage l;
  const Task task = *l.store->task(l.project.task());
  auto entry = [&](const std::string& family, const std::string& decision, KnowledgeStatus status) {
    KnowledgeEntry k;
    k.scopeArch = "sm_90";
    k.scopeFamily = family;
    k.decision = decision;
    k.claim = decision;
    k.effect = 1.2;
    k.observations = 6;
    k.status = status;
    return k;
  };
  KnowledgeEntry pinned = entry(task.family, "vector: 1 -> 4", KnowledgeStatus::Hypothesis);
  pinned.pinned = true;
  pinned.userClaim = "Wide loads";
  KnowledgeEntry disabled = entry(task.family, "memory: global -> smem", KnowledgeStatus::Validated);
  disabled.disabled = true;
  l.store->addKnowledge(pinned);
  l.store->addKnowledge(disabled);
  l.store->addKnowledge(entry("some_other_family", "grid: 1 -> 2", KnowledgeStatus::Validated));
  l.store->addKnowledge(entry(task.family, "unroll: 1 -> 2", KnowledgeStatus::Refuted));
  RunKnowledge knowledge(*l.store, smallSettings(), task);
  ProposalContext ctx;
  knowledge.supply(ctx, "sm_90");
  ASSERT_EQ(ctx.knowledge.size(), 2u) << "the pinned claim and the other family's; not the disabled or refuted";
  EXPECT_EQ(ctx.knowledge[0]->claim, "Wide loads");
  EXPECT_EQ(ctx.knowledge[0]->status, KnowledgeStatus::Validated);
  EXPECT_EQ(ctx.knowledge[1]->decision, "grid: 1 -> 2");
  ASSERT_EQ(ctx.claims.size(), 3u) << "priors see the refuted claim too";
  EXPECT_DOUBLE_EQ(ctx.claims[0].weight, 1.0);
  EXPECT_EQ(ctx.claims[1].entry->decision, "unroll: 1 -> 2");
  EXPECT_LT(ctx.claims[2].weight, 1.0) << "another family's claim weighs less";
  ProposalContext other;
  knowledge.supply(other, "sm_80");
  EXPECT_TRUE(other.claims.empty()) << "claims about other hardware are not used";
}

}  // namespace
}  // namespace crucible::engine_detail
