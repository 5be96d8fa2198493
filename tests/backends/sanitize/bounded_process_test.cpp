// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/bounded_process.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

BoundedProcessOptions shell(const std::string& script, double timeout = 10) {
  BoundedProcessOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.environment = {{"PATH", "/usr/bin:/bin"}};
  o.timeoutSeconds = timeout;
  return o;
}

TEST(BoundedProcess, ExitStatusAndBothStreams) {
  BoundedProcessResult r = runBounded(shell("echo out; echo err >&2; exit 7"));
  ASSERT_TRUE(r.started);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(r.exitCode, 7);
  EXPECT_EQ(r.signal, 0);
  EXPECT_NE(r.output.find("out\n"), std::string::npos);
  EXPECT_NE(r.output.find("err\n"), std::string::npos);
}

TEST(BoundedProcess, OnlyTheGivenEnvironment) {
  BoundedProcessOptions o = shell("echo \"[$HOME][$PATH]\"");
  BoundedProcessResult r = runBounded(o);
  EXPECT_NE(r.output.find("[][/usr/bin:/bin]"), std::string::npos) << r.output;
}

TEST(BoundedProcess, OutputBeyondTheCapKeepsItsStartAndItsEnd) {
  BoundedProcessOptions o = shell("echo FIRST; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo LAST");
  o.outputCap = 64 * 1024;
  BoundedProcessResult r = runBounded(o);
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_GT(r.outputBytes, 3000000u);
  EXPECT_LT(r.output.size(), 64u * 1024 + 200);
  EXPECT_EQ(r.output.rfind("FIRST\n", 0), 0u);
  EXPECT_NE(r.output.find("LAST\n"), std::string::npos) << "the summary lines come last";
  EXPECT_NE(r.output.find("bytes of output left out"), std::string::npos);
}

TEST(BoundedProcess, TheDeadlineKillsTheWholeGroup) {
  BoundedProcessResult r = runBounded(shell("sleep 30 & sleep 30", 0.3));
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.signal, 9);
  EXPECT_LT(r.seconds, 3.0) << "the background sleep holding the pipe did not keep us waiting";
}

TEST(BoundedProcess, AProgramThatClosesItsOutputStillMeetsTheDeadline) {
  BoundedProcessResult r = runBounded(shell("exec >/dev/null 2>&1; sleep 30", 0.3));
  EXPECT_TRUE(r.timedOut);
  EXPECT_LT(r.seconds, 3.0);
}

TEST(BoundedProcess, AMissingProgramIsNotStarted) {
  BoundedProcessOptions o;
  o.argv = {"/nonexistent/compute-sanitizer"};
  BoundedProcessResult r = runBounded(o);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("/nonexistent/compute-sanitizer"), std::string::npos) << r.startError;
}

}  // namespace
}  // namespace crucible
