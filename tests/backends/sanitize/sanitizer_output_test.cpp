// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/sanitizer_output.h"

#include <gtest/gtest.h>
#include <limits>
#include "tests/backends/sanitize/sample_logs.h"

namespace crucible {
namespace {

TEST(SanitizerLog, ACleanRunHasASummaryOfZeroAndNoReport) {
  SanitizerLog memcheck = parseSanitizerLog(samples::kCleanMemcheck);
  EXPECT_TRUE(memcheck.reports.empty());
  EXPECT_EQ(memcheck.errorSummary, 0);
  EXPECT_FALSE(memcheck.racecheckSummary);
  SanitizerLog racecheck = parseSanitizerLog(samples::kCleanRacecheck);
  EXPECT_TRUE(racecheck.reports.empty());
  EXPECT_EQ(racecheck.racecheckSummary, 0);
}

TEST(SanitizerLog, MemcheckReportsAreTheirHeadLinesNotTheirDetails) {
  SanitizerLog log = parseSanitizerLog(samples::kMemcheckOutOfBounds);
  ASSERT_EQ(log.reports.size(), 2u);
  EXPECT_EQ(log.reports[0], "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(log.reports[1], "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(log.errorSummary, 256) << "--print-limit: the summary counts what was not printed too";
  EXPECT_TRUE(log.targetFailed);
}

TEST(SanitizerLog, InitcheckAndSynccheckReports) {
  SanitizerLog init = parseSanitizerLog(samples::kInitcheckUnwrittenOutput);
  ASSERT_EQ(init.reports.size(), 1u);
  EXPECT_EQ(init.reports[0], "Uninitialized __global__ memory read of size 4 bytes");
  EXPECT_EQ(init.errorSummary, 1);
  SanitizerLog sync = parseSanitizerLog(samples::kSynccheckDivergentBarrier);
  ASSERT_EQ(sync.reports.size(), 1u);
  EXPECT_EQ(sync.reports[0], "Barrier error detected. Divergent thread(s) in block.");
}

TEST(SanitizerLog, RacecheckHazardsErrorsAndWarningsAlike) {
  SanitizerLog hazards = parseSanitizerLog(samples::kRacecheckHazards);
  ASSERT_EQ(hazards.reports.size(), 3u);
  EXPECT_EQ(hazards.reports[0], "Error: Potential RAW hazard detected at __shared__ 0x3fc in block (0,0,0) :");
  EXPECT_EQ(hazards.reports[2].rfind("Warning: Potential RAW hazard", 0), 0u)
      << "a warp-synchronous hazard is a bug since independent thread scheduling";
  EXPECT_EQ(hazards.racecheckSummary, 3);

  SanitizerLog analysis = parseSanitizerLog(samples::kRacecheckAnalysis);
  ASSERT_EQ(analysis.reports.size(), 1u);
  EXPECT_EQ(analysis.reports[0], "ERROR: Race reported between Write access at gelu_kernel+0x60");
  EXPECT_EQ(analysis.racecheckSummary, 1);

  SanitizerLog wrapped = parseSanitizerLog(samples::kRacecheckWrappedSummary);
  EXPECT_EQ(wrapped.reports.size(), 1u);
  EXPECT_EQ(wrapped.racecheckSummary, 4528 + 66) << "the counts beyond the displayed hazards";
}

TEST(SanitizerLog, TheToolsOwnErrorIsAFinding) {
  SanitizerLog log = parseSanitizerLog(samples::kNoInstrumentedCall);
  ASSERT_EQ(log.reports.size(), 1u);
  EXPECT_NE(log.reports[0].find("before first instrumented API call"), std::string::npos);
  EXPECT_FALSE(log.errorSummary);
}

ToolRunOutcome outcome(const std::string& tool, const char* log, int exitCode) {
  ToolRunOutcome o;
  o.tool = tool;
  o.sanitizerLog = log;
  o.exitCode = exitCode;
  o.timeoutSeconds = 300;
  return o;
}

TEST(ToolVerdict, CleanNeedsExitZeroASummaryAndNothingReported) {
  ToolVerdict v = judgeToolRun(outcome("memcheck", samples::kCleanMemcheck, 0));
  EXPECT_TRUE(v.clean);
  EXPECT_TRUE(v.findings.empty());
  EXPECT_TRUE(judgeToolRun(outcome("racecheck", samples::kCleanRacecheck, 0)).clean);

  ToolVerdict silent = judgeToolRun(outcome("memcheck", "========= COMPUTE-SANITIZER\n", 0));
  EXPECT_FALSE(silent.clean) << "no summary: nothing proves the tool checked a launch";
  ASSERT_EQ(silent.findings.size(), 1u);
  EXPECT_NE(silent.findings[0].find("printed no summary"), std::string::npos);
}

TEST(ToolVerdict, TheProgramsOwnOutputCannotPassForTheTools) {
  // A kernel's printf goes to the program's output: a forged summary there changes nothing.
  ToolRunOutcome forged = outcome("memcheck", "========= COMPUTE-SANITIZER\n", 0);
  forged.programOutput = "========= ERROR SUMMARY: 0 errors\n";
  EXPECT_FALSE(judgeToolRun(forged).clean);
}

TEST(ToolVerdict, ReportsAreTheFindingsAndTheSummaryTheCount) {
  ToolVerdict v = judgeToolRun(outcome("racecheck", samples::kRacecheckHazards, 99));
  EXPECT_FALSE(v.clean);
  EXPECT_EQ(v.reported, 3);
  ASSERT_EQ(v.findings.size(), 3u);
  EXPECT_EQ(v.findings[0], "Error: Potential RAW hazard detected at __shared__ 0x3fc in block (0,0,0) :");

  ToolVerdict counted = judgeToolRun(outcome("memcheck", "========= ERROR SUMMARY: 5 errors\n", 0));
  EXPECT_FALSE(counted.clean) << "a count with no report is still a count";
  EXPECT_EQ(counted.reported, 5);
  ASSERT_EQ(counted.findings.size(), 1u);
  EXPECT_NE(counted.findings[0].find("its summary counts 5 error(s)"), std::string::npos);

  ToolVerdict bare = judgeToolRun(outcome("synccheck", "", 99));
  EXPECT_FALSE(bare.clean);
  ASSERT_EQ(bare.findings.size(), 1u);
  EXPECT_NE(bare.findings[0].find("error exit code (99)"), std::string::npos);
}

TEST(ToolVerdict, AFailedLaunchSaysWhyInTheWorkersWords) {
  ToolRunOutcome failed = outcome("memcheck",
                                  "========= COMPUTE-SANITIZER\n"
                                  "========= Target application returned an error\n"
                                  "========= ERROR SUMMARY: 1 error\n",
                                  3);
  failed.programOutput =
      "crucible-worker --sanitize-run: launch 1 of 'gelu_kernel' with grid (4096,1,1) block (2048,1,1) smem 0 B "
      "was refused: CUDA_ERROR_INVALID_VALUE\n";
  ToolVerdict v = judgeToolRun(failed);
  EXPECT_FALSE(v.clean);
  ASSERT_EQ(v.findings.size(), 1u) << "the failed run explains the summary's one error";
  EXPECT_EQ(v.findings[0].rfind("the kernel's run under memcheck failed (exit code 3): crucible-worker", 0), 0u)
      << v.findings[0];
  EXPECT_NE(v.findings[0].find("CUDA_ERROR_INVALID_VALUE"), std::string::npos);

  ToolVerdict outOfBounds = judgeToolRun(outcome("memcheck", samples::kMemcheckOutOfBounds, 99));
  EXPECT_EQ(outOfBounds.findings.front(), "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(outOfBounds.reported, 256);
}

TEST(ToolVerdict, WhatATimedOutToolReportedComesBeforeTheDeadline) {
  ToolRunOutcome busy = outcome("initcheck", samples::kInitcheckUnwrittenOutput, -1);
  busy.timedOut = true;
  busy.signal = 9;
  const ToolVerdict v = judgeToolRun(busy);
  EXPECT_FALSE(v.clean);
  ASSERT_GE(v.findings.size(), 2u);
  EXPECT_NE(v.findings.front().find("Uninitialized"), std::string::npos) << v.findings.front();
  EXPECT_EQ(v.findings.back(), "did not finish within 300 s");
}

TEST(ToolVerdict, TimeoutsSignalsAndStartFailuresAreNeverClean) {
  ToolRunOutcome slow = outcome("racecheck", "", -1);
  slow.timedOut = true;
  slow.signal = 9;
  ToolVerdict v = judgeToolRun(slow);
  EXPECT_FALSE(v.clean);
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0], "did not finish within 300 s");

  ToolRunOutcome killed = outcome("initcheck", samples::kCleanMemcheck, -1);
  killed.signal = 11;
  EXPECT_FALSE(judgeToolRun(killed).clean);
  EXPECT_NE(judgeToolRun(killed).findings[0].find("signal 11"), std::string::npos);

  ToolRunOutcome notStarted;
  notStarted.tool = "memcheck";
  notStarted.started = false;
  notStarted.startError = "cannot start /x/compute-sanitizer: Permission denied";
  EXPECT_EQ(judgeToolRun(notStarted).findings.at(0),
            "compute-sanitizer could not be started: cannot start /x/compute-sanitizer: Permission denied");
}

}  // namespace
}  // namespace crucible

namespace crucible {
namespace {

// The log is about a kernel that may be hostile: a count of any length, or a
// line of any length, is read without a throw or a regex.
TEST(SanitizerLogHostile, HugeCountsSaturateAndLongLinesAreScannedLinearly) {
  const std::string huge = "========= ERROR SUMMARY: " + std::string(1000, '9') + " errors\n";
  const SanitizerLog a = parseSanitizerLog(huge);
  ASSERT_TRUE(a.errorSummary);
  EXPECT_EQ(*a.errorSummary, std::numeric_limits<int>::max());
  const std::string longLine = "========= Invalid __global__ read " + std::string(2'000'000, '(') + "\n" +
                               "========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)\n";
  const SanitizerLog b = parseSanitizerLog(longLine);
  EXPECT_EQ(b.reports.size(), 1u);
  ASSERT_TRUE(b.racecheckSummary);
  EXPECT_EQ(*b.racecheckSummary, 3);
}

}  // namespace
}  // namespace crucible
