// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/generation_admission.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible::engine_detail {
namespace {

using namespace crucible::testing;

Candidate proposal(RunId run, int mem) {
  Candidate c = FakeProposer::candidateOf(genome(mem));
  c.runId = run;
  c.status = CandidateStatus::Proposed;
  c.generation = 1;
  return c;
}

TEST(GenerationAdmission, HoldsAdmissionsUntilTheGenerationIsStored) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  GenerationAdmission admission(*store, project.task());

  EXPECT_FALSE(admission.known("k1"));
  admission.add(proposal(run, 0), 0, "k1");
  admission.add(proposal(run, 1), 1, "k2");
  EXPECT_TRUE(admission.known("k1")) << "admitted earlier in this generation";
  EXPECT_EQ(admission.size(), 2u);
  EXPECT_TRUE(store->candidateSummaries(run).empty()) << "nothing stored before the generation is complete";

  auto admitted = admission.store({}, Archive(run, 2));
  ASSERT_EQ(admitted.size(), 2u);
  EXPECT_EQ(admitted[0].island, 0);
  EXPECT_EQ(admitted[1].island, 1);
  EXPECT_LT(admitted[0].candidate.id, admitted[1].candidate.id) << "stored in the order admitted";
  EXPECT_EQ(store->lookupTuning(project.task(), "k1"), admitted[0].candidate.id);
  EXPECT_EQ(store->candidate(admitted[1].candidate.id)->status, CandidateStatus::Proposed);
  EXPECT_EQ(admission.size(), 0u);

  GenerationAdmission next(*store, project.task());
  EXPECT_TRUE(next.known("k2")) << "measured before in the project";
  EXPECT_FALSE(next.known("k3"));
}

TEST(GenerationAdmission, StoresTheCountersTheAdmissionsMoved) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  MetaPrompt strategy;
  strategy.runId = run;
  strategy.name = "mutate:memory";
  strategy.id = store->addMetaPrompt(strategy);
  MetaPrompt untouched = strategy;
  untouched.name = "mutate:vector";
  untouched.id = store->addMetaPrompt(untouched);
  Candidate elite = addTestCandidate(*store, run, genome(0), CandidateStatus::Valid, 0, 1.2);
  Archive archive(run, 1);
  archive.insert(0, "cell", elite.id, 1.2);

  GenerationAdmission admission(*store, project.task());
  strategy.uses = 3;
  untouched.uses = 9;   // moved in memory, not touched: not written
  archive.cell(0, "cell")->selections = 2;
  admission.touchStrategy(strategy.id);
  admission.touchCell(0, "cell");
  admission.add(proposal(run, 1), 0, "k1");
  admission.store({strategy, untouched}, archive);

  for (const MetaPrompt& m : store->metaPrompts(run)) {
    if (m.id == strategy.id) {
      EXPECT_EQ(m.uses, 3);
    } else if (m.id == untouched.id) {
      EXPECT_EQ(m.uses, 0);
    }
  }
  auto cells = store->archive(run);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].selections, 2);
}

}  // namespace
}  // namespace crucible::engine_detail
