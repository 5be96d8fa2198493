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

}  // namespace
}  // namespace crucible::engine_detail
