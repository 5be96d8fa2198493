// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing what sbatch, squeue and scontrol print (no cluster needed).
#include "backends/dispatch/slurm/slurm_queue.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

TEST(SlurmQueue, SqueueArrayTasksOneLineEach) {
  const auto e = parseSqueue("12|0|RUNNING|None\n12|1|PENDING|Resources\n12|2|COMPLETED|None\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].jobId, 12);
  EXPECT_EQ(e[0].taskId, 0);
  EXPECT_EQ(e[0].state, "RUNNING");
  EXPECT_EQ(e[1].reason, "Resources");
  EXPECT_EQ(e[2].taskId, 2);
}

TEST(SlurmQueue, SqueueUnsplitPendingRangeBecomesOneEntryPerTask) {
  const auto e = parseSqueue("  7|3-5%2|PENDING|JobArrayTaskLimit  \n7|[8,10]|PENDING|Priority\n");
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].taskId, 3);
  EXPECT_EQ(e[2].taskId, 5);
  EXPECT_EQ(e[3].taskId, 8);
  EXPECT_EQ(e[4].taskId, 10);
  EXPECT_EQ(e[4].reason, "Priority");
}

TEST(SlurmQueue, SqueueJobThatIsNoArray) {
  const auto e = parseSqueue("99|N/A|CANCELLED|None\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].taskId, -1);
}

TEST(SlurmQueue, SqueueEmptyOutputIsAnEmptyQueue) { EXPECT_TRUE(parseSqueue("\n\n").empty()); }

TEST(SlurmQueue, SqueueGarbageIsRefusedQuotingTheLine) {
  try {
    parseSqueue("squeue: error: slurm_receive_msg: Socket timed out\n");
    FAIL() << "no error";
  } catch (const SlurmOutputError& e) {
    EXPECT_NE(std::string(e.what()).find("Socket timed out"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseSqueue("abc|0|RUNNING|None"), SlurmOutputError);
  EXPECT_THROW(parseSqueue("1|x|RUNNING|None"), SlurmOutputError);
  EXPECT_THROW(parseSqueue("1|5-3|RUNNING|None"), SlurmOutputError);
  EXPECT_THROW(parseSqueue("1|0||None"), SlurmOutputError);
  EXPECT_THROW(parseSqueue("1|0-99999999|PENDING|None"), SlurmOutputError);  // bounded work
}

TEST(SlurmQueue, SbatchParsable) {
  EXPECT_EQ(parseSbatchJobId("4242\n"), 4242);
  EXPECT_EQ(parseSbatchJobId("4242;cluster-a\n"), 4242);
  EXPECT_EQ(parseSbatchJobId("sbatch: warning: something\n17\n"), 17);
  EXPECT_THROW(parseSbatchJobId(""), SlurmOutputError);
  EXPECT_THROW(parseSbatchJobId("sbatch: error: Batch job submission failed: Invalid partition name specified"),
               SlurmOutputError);
}

TEST(SlurmQueue, ScontrolOneLinerRecords) {
  const std::string text =
      "JobId=3 ArrayJobId=1 ArrayTaskId=1 JobName=wrap JobState=FAILED Reason=NonZeroExitCode "
      "ExitCode=3:0 NodeList=vm Command=/bin/sh -c true\n"
      "JobId=4 ArrayJobId=1 ArrayTaskId=2 JobState=PENDING Reason=Resources ExitCode=0:0\n";
  const auto r = parseScontrolRecords(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].at("ExitCode"), "3:0");
  EXPECT_EQ(r[0].at("JobState"), "FAILED");
  EXPECT_EQ(r[0].at("Command"), "/bin/sh -c true");  // a value with spaces
  EXPECT_EQ(r[1].at("ArrayTaskId"), "2");
}

TEST(SlurmQueue, PhasesOfStates) {
  EXPECT_EQ(phaseOf("PENDING"), QueuePhase::Waiting);
  EXPECT_EQ(phaseOf("REQUEUED"), QueuePhase::Waiting);
  EXPECT_EQ(phaseOf("RUNNING"), QueuePhase::Running);
  EXPECT_EQ(phaseOf("COMPLETING"), QueuePhase::Running);
  for (const char* s : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY",
                        "BOOT_FAIL", "REQUEUE_HOLD", "SOMETHING_NEW"})
    EXPECT_EQ(phaseOf(s), QueuePhase::Ended) << s;
}

TEST(SlurmQueue, EndsAreDescribedInWords) {
  EXPECT_EQ(describeEnd("TIMEOUT", "TimeLimit"), "the job ran past its time limit (TimeLimit)");
  EXPECT_EQ(describeEnd("NODE_FAIL", "None"), "the job's node failed");
  EXPECT_EQ(describeEnd("PREEMPTED", ""), "the job was preempted");
  EXPECT_EQ(describeEnd("", ""), "the job vanished from the queue without a result (lost)");
  EXPECT_TRUE(isUnknownJobMessage("slurm_load_jobs error: Invalid job id specified"));
  EXPECT_FALSE(isUnknownJobMessage("slurm_load_jobs error: Unable to contact slurm controller"));
}

}  // namespace
}  // namespace crucible
