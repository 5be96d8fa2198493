// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/review_verdicts.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible::engine_detail {
namespace {

using namespace crucible::testing;

struct Waiting {
  TempProject project;
  std::unique_ptr<ProjectStore> store = project.open();
  RunId run = addTestRun(*store, project.task(), true);
  ReviewGate gate{true};
  std::vector<Candidate> candidates;
  Waiting() {
    for (int vec : {0, 1}) {
      // Two candidates of one new architecture (they differ only in a tunable parameter).
      FakeGenome g = genome(2, 1, 0);
      g.block = vec ? 128 : 256;
      candidates.push_back(addTestCandidate(*store, run, g, CandidateStatus::AwaitingReview, 1));
      gate.enqueue(candidates.back().architectureKey, candidates.back().id);
    }
  }
  ReviewVerdict verdict(bool accepted, const std::string& note = "") {
    return ReviewVerdict{run, candidates.front().architectureKey, accepted, note, 5};
  }
};

TEST(ReviewVerdicts, AnAcceptedArchitectureReleasesItsWaitingCandidates) {
  Waiting w;
  VerdictOutcome o = applyVerdict(*w.store, w.gate, w.verdict(true));
  ASSERT_EQ(o.released.size(), 2u);
  EXPECT_TRUE(o.rejected.empty());
  EXPECT_EQ(o.released[0].status, CandidateStatus::Proposed);
  EXPECT_EQ(w.store->candidate(w.candidates[1].id)->statusDetail, "architecture accepted in review");
  EXPECT_EQ(w.store->verdicts(w.run).size(), 1u);
  EXPECT_FALSE(w.gate.isWaiting());
  EXPECT_EQ(o.summary, "architecture " + w.candidates[0].architectureKey +
                           " accepted in review; 2 waiting candidate(s) released");
}

TEST(ReviewVerdicts, ARejectedArchitectureRejectsThemWithTheReviewersNote) {
  Waiting w;
  VerdictOutcome o = applyVerdict(*w.store, w.gate, w.verdict(false, "reads out of bounds"));
  EXPECT_TRUE(o.released.empty());
  EXPECT_EQ(o.rejected, (std::vector<CandidateId>{w.candidates[0].id, w.candidates[1].id}));
  auto c = w.store->candidate(w.candidates[0].id);
  EXPECT_EQ(c->status, CandidateStatus::Rejected);
  EXPECT_EQ(c->statusDetail, "architecture rejected in review: reads out of bounds");
  EXPECT_EQ(w.gate.decide(w.candidates[0].architectureKey), ReviewGate::Decision::Discard);
}

}  // namespace
}  // namespace crucible::engine_detail
