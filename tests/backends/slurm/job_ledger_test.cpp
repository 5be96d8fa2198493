// SPDX-License-Identifier: GPL-3.0-or-later
// The requeue bookkeeping alone: bounded retries, one result per request,
// late duplicates dropped.
#include "backends/dispatch/slurm/job_ledger.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

JobRequest evaluate(const std::string& payload) { return JobRequest{WorkerMessage::EvaluateRequest, payload}; }

JobResult resultFrom(const std::string& host) {
  JobResult r;
  r.type = WorkerMessage::EvaluateReply;
  r.device.gpu = "Fake GPU";
  r.device.host = host;
  return r;
}

AttemptPlace place(std::int64_t job, int task) { return AttemptPlace{"/shared/b/" + std::to_string(task), job, task}; }

TEST(JobLedger, ResultIsTakenOnceAndALateDuplicateIsDropped) {
  JobLedger ledger(3);
  const Ticket t = ledger.add(evaluate("a"));
  EXPECT_EQ(ledger.waiting(), std::vector<Ticket>{t});
  const auto attempt = ledger.submitted(t, place(10, 0));
  EXPECT_TRUE(ledger.waiting().empty());
  ASSERT_EQ(ledger.live().size(), 1u);
  EXPECT_TRUE(ledger.deliver(t, attempt, resultFrom("node1")));
  EXPECT_TRUE(ledger.ended(t));
  EXPECT_TRUE(ledger.live().empty());
  EXPECT_FALSE(ledger.deliver(t, attempt, resultFrom("node1")));   // the same result seen again
  EXPECT_EQ(ledger.failed(t, attempt, "ended"), AfterFailure::Ignored);
  const auto o = ledger.outcome(t);
  EXPECT_EQ(o.state, TicketState::Done);
  ASSERT_TRUE(o.result);
  EXPECT_EQ(o.result->device.host, "node1");
  ledger.erase(t);
  EXPECT_FALSE(ledger.deliver(t, attempt, resultFrom("node1")));   // after the caller took it
  EXPECT_EQ(ledger.counts().resultsTaken, 1u);
  EXPECT_EQ(ledger.counts().duplicatesDropped, 2u);
}

TEST(JobLedger, FailedAttemptsAreRequeuedThenGivenUpWithEveryReason) {
  JobLedger ledger(3);
  const Ticket t = ledger.add(evaluate("a"));
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(ledger.waiting(), std::vector<Ticket>{t}) << i;
    const auto a = ledger.submitted(t, place(20 + i, 0));
    const AfterFailure f = ledger.failed(t, a, "the job was cancelled");
    EXPECT_EQ(f, i < 2 ? AfterFailure::Requeued : AfterFailure::GaveUp) << i;
  }
  EXPECT_TRUE(ledger.ended(t));
  EXPECT_TRUE(ledger.waiting().empty());
  const auto o = ledger.outcome(t);
  EXPECT_EQ(o.state, TicketState::GaveUp);
  ASSERT_EQ(o.failures.size(), 3u);
  EXPECT_EQ(o.failures[0], "attempt 1 (job 20_0): the job was cancelled");
  EXPECT_EQ(o.failures[2], "attempt 3 (job 22_0): the job was cancelled");
  EXPECT_EQ(ledger.counts().requeues, 2u);
  EXPECT_EQ(ledger.counts().givenUp, 1u);
}

TEST(JobLedger, AFailureIsCountedOncePerAttempt) {
  JobLedger ledger(2);
  const Ticket t = ledger.add(evaluate("a"));
  const auto a = ledger.submitted(t, place(1, 0));
  EXPECT_EQ(ledger.failed(t, a, "lost"), AfterFailure::Requeued);
  EXPECT_EQ(ledger.failed(t, a, "lost again"), AfterFailure::Ignored);  // seen on the next poll too
  EXPECT_EQ(ledger.outcome(t).failures.size(), 1u);
  EXPECT_FALSE(ledger.ended(t));
}

TEST(JobLedger, AResultOfAnyLiveAttemptWinsAndTheOthersAreToBeCancelled) {
  JobLedger ledger(3);
  const Ticket t = ledger.add(evaluate("a"));
  const auto first = ledger.submitted(t, place(1, 4));
  // The first attempt looked lost but still runs; a requeue is not possible while it is live.
  EXPECT_TRUE(ledger.waiting().empty());
  std::vector<AttemptRef> cancel;
  EXPECT_TRUE(ledger.deliver(t, first, resultFrom("n"), &cancel));
  EXPECT_TRUE(cancel.empty());

  const Ticket u = ledger.add(evaluate("b"));
  const auto u1 = ledger.submitted(u, place(2, 0));
  EXPECT_EQ(ledger.failed(u, u1, "node failed"), AfterFailure::Requeued);
  const auto u2 = ledger.submitted(u, place(3, 0));
  EXPECT_EQ(ledger.live().size(), 1u);
  EXPECT_TRUE(ledger.deliver(u, u2, resultFrom("m"), &cancel));
  EXPECT_FALSE(ledger.deliver(u, u1, resultFrom("late")));  // the lost one's late result
  EXPECT_EQ(ledger.outcome(u).result->device.host, "m");
}

TEST(JobLedger, AbandonEndsATicketAndListsItsLiveAttempts) {
  JobLedger ledger(3);
  const Ticket t = ledger.add(evaluate("a"));
  ledger.submitted(t, place(5, 1));
  std::vector<AttemptRef> cancel;
  ledger.abandon(t, "shutting down", &cancel);
  ASSERT_EQ(cancel.size(), 1u);
  EXPECT_EQ(cancel[0].place.jobId, 5);
  EXPECT_EQ(ledger.outcome(t).state, TicketState::GaveUp);
  EXPECT_FALSE(ledger.deliver(t, 0, resultFrom("x")));
}

TEST(JobLedger, TicketsAreIndependent) {
  JobLedger ledger(1);
  const Ticket a = ledger.add(evaluate("a"));
  const Ticket b = ledger.add(evaluate("b"));
  EXPECT_EQ(ledger.waiting().size(), 2u);
  EXPECT_EQ(ledger.request(b).payload, "b");
  const auto aa = ledger.submitted(a, place(1, 0));
  const auto bb = ledger.submitted(b, place(1, 1));
  EXPECT_EQ(ledger.failed(a, aa, "x"), AfterFailure::GaveUp);  // maxAttempts 1
  EXPECT_TRUE(ledger.deliver(b, bb, resultFrom("n")));
  EXPECT_EQ(ledger.active().size(), 0u);
}

}  // namespace
}  // namespace crucible
