// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/kept_proposal.h"

namespace crucible::engine_detail {
namespace {

Candidate reply(CandidateStatus status) {
  Candidate c;
  c.id = 99;   // whatever the proposer left there: the store gives the id
  c.source = "I would tile the rows in shared memory.";
  c.status = status;
  c.statusDetail = "no-code: the reply has no code block";
  return c;
}

TEST(KeptProposal, AFailureIsKeptAsItIsWithTheRunsBookkeeping) {
  KeptProposal kept = keptProposal(reply(CandidateStatus::CompileFailed), {7, 3, {11, 12}, "llm:model", 1700});
  ASSERT_TRUE(kept.candidate) << kept.problem;
  const Candidate& c = *kept.candidate;
  EXPECT_EQ(c.id, 0);
  EXPECT_EQ(c.runId, 7);
  EXPECT_EQ(c.generation, 3);
  EXPECT_EQ(c.parents, (std::vector<CandidateId>{11, 12}));
  EXPECT_EQ(c.proposer, "llm:model");
  EXPECT_EQ(c.createdAt, 1700);
  EXPECT_EQ(c.status, CandidateStatus::CompileFailed);
  EXPECT_EQ(c.statusDetail, "no-code: the reply has no code block");
  EXPECT_EQ(c.source, "I would tile the rows in shared memory.");
}

TEST(KeptProposal, WhatTheProposerSetIsNotOverwritten) {
  Candidate mine = reply(CandidateStatus::Invalid);
  mine.parents = {5};
  mine.proposer = "llm:other";
  KeptProposal kept = keptProposal(mine, {7, 3, {11}, "llm:model", 1700});
  ASSERT_TRUE(kept.candidate);
  EXPECT_EQ(kept.candidate->parents, (std::vector<CandidateId>{5}));
  EXPECT_EQ(kept.candidate->proposer, "llm:other");
}

TEST(KeptProposal, OnlyAFailureStatusIsKept) {
  for (CandidateStatus s : {CandidateStatus::CompileFailed, CandidateStatus::Invalid, CandidateStatus::Faulted,
                            CandidateStatus::TimedOut, CandidateStatus::ResourceError})
    EXPECT_TRUE(keptProposal(reply(s), {}).candidate) << toString(s);
  for (CandidateStatus s : {CandidateStatus::Proposed, CandidateStatus::AwaitingReview, CandidateStatus::Compiled,
                            CandidateStatus::Valid, CandidateStatus::Reference, CandidateStatus::Rejected}) {
    KeptProposal kept = keptProposal(reply(s), {});
    EXPECT_FALSE(kept.candidate) << toString(s);
    EXPECT_NE(kept.problem.find(toString(s)), std::string::npos) << kept.problem;
  }
}

}  // namespace
}  // namespace crucible::engine_detail
