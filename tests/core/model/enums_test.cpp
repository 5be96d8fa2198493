// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"

using namespace crucible;

TEST(Enums, CandidateStatusRoundTrips) {
  for (auto s : {CandidateStatus::Proposed, CandidateStatus::AwaitingReview, CandidateStatus::Rejected,
                 CandidateStatus::Compiled, CandidateStatus::CompileFailed, CandidateStatus::Invalid,
                 CandidateStatus::Faulted, CandidateStatus::TimedOut, CandidateStatus::ResourceError,
                 CandidateStatus::Valid, CandidateStatus::Reference})
    EXPECT_EQ(candidateStatusFromString(toString(s)), s);
}

TEST(Enums, RunStatusRoundTrips) {
  for (auto s : {RunStatus::Created, RunStatus::Running, RunStatus::Paused, RunStatus::Stopped,
                 RunStatus::Finished, RunStatus::Failed})
    EXPECT_EQ(runStatusFromString(toString(s)), s);
}

TEST(Enums, UnknownNamesAreRejectedWithTheName) {
  try {
    candidateStatusFromString("bogus");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos);
  }
  EXPECT_THROW(knowledgeStatusFromString(""), std::invalid_argument);
}

TEST(Enums, AnUnknownNameIsRefusedWithTheNamesItCouldHaveBeen) {
  try {
    runStatusFromString("done");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "unknown run status 'done' (expected one of: created, running, paused, stopped, finished, failed)");
  }
  EXPECT_STREQ(toString(static_cast<RunStatus>(99)), "?");
  for (auto s : {KnowledgeStatus::Hypothesis, KnowledgeStatus::Validated, KnowledgeStatus::Refuted})
    EXPECT_EQ(knowledgeStatusFromString(toString(s)), s);
}
