// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli fork (app/cli/cmd_fork.cpp) on a machine without a GPU: the
// command line and the project are checked before the GPU is probed, so a
// wrong command is exit 2, a corrupt project exit 4 (and left as it was), and
// a correct command exit 3 with the reason and nothing stored. The
// evaluation itself is tested with CPU doubles in
// tests/core/engine/user_evaluation_test.cpp.
#include <gtest/gtest.h>

#include <fstream>

#include "core/store/project_store.h"
#include "tests/app/run_cli.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;

constexpr int kUsage = 2;
constexpr int kNoGpu = 3;
constexpr int kProjectUnusable = 4;

class CliFork : public ::testing::Test {
protected:
  void SetUp() override {
    auto store = ProjectStore::create(project_);
    const TaskId task = store->addTask(store_test::sampleTask());
    run_ = store->addRun(store_test::sampleRun(task));
    candidate_ = store->addCandidate(store_test::fullCandidate(run_));
    std::ofstream(kernel_) << "extern \"C\" __global__ void softmax(const float* x, float* y) { y[0] = x[0]; }\n";
  }
  std::int64_t candidates() const {
    return ProjectStore::open(project_, ProjectStore::Mode::ReadOnly)->candidateCount();
  }
  void expectUsage(const std::string& args, const std::string& message) {
    const Outcome o = cli("fork " + args);
    EXPECT_EQ(o.exitCode, kUsage) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(message), std::string::npos) << args << "\n" << o.out;
  }
  store_test::ScratchDir dir_;
  const std::string project_ = dir_.file("p.crucible");
  const std::string kernel_ = dir_.file("edited.cu");
  const std::string p_ = "--project " + quoted(project_);
  const std::string k_ = "--kernel " + quoted(kernel_);
  RunId run_ = 0;
  CandidateId candidate_ = 0;
};

TEST_F(CliFork, IsListedInHelp) {
  const Outcome o = cli("help");
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_NE(o.out.find("  fork "), std::string::npos) << o.out;
  const Outcome usage = cli("fork --help");
  EXPECT_EQ(usage.exitCode, 0);
  EXPECT_NE(usage.out.find("--candidate N"), std::string::npos) << usage.out;
}

TEST_F(CliFork, BadArgumentsAreExitTwo) {
  const std::string c = " --candidate " + std::to_string(candidate_);
  expectUsage(k_ + c, "missing --project");
  expectUsage(p_ + " " + k_, "missing --candidate");
  expectUsage(p_ + c, "missing --kernel");
  expectUsage(p_ + " " + k_ + c + " --run " + std::to_string(run_), "not both");
  expectUsage(p_ + " " + k_ + " --candidate 0", "--candidate must be at least 1, not 0");
  expectUsage(p_ + " " + k_ + " --candidate seven", "--candidate must be a whole number, not 'seven'");
  expectUsage(p_ + " " + k_ + c + " --frobnicate", "unknown option --frobnicate");
  expectUsage(p_ + " " + k_ + c + " stray", "'stray'");
  expectUsage(p_ + " --kernel " + quoted(dir_.file("none.cu")) + c, "none.cu");
  expectUsage(p_ + " " + k_ + c + " --launch " + quoted(dir_.file("none.json")), "none.json");
  expectUsage(p_ + " " + k_ + c + " --sanitize-timeout 0", "--sanitize-timeout");
  EXPECT_EQ(candidates(), 1) << "nothing was stored";
}

TEST_F(CliFork, AMissingCandidateOrRunIsExitTwoNamingItAndTheProject) {
  expectUsage(p_ + " " + k_ + " --candidate 999999", "no candidate 999999 in " + project_);
  expectUsage(p_ + " " + k_ + " --run 424242", "no run 424242 in " + project_);
  EXPECT_EQ(candidates(), 1);
}

TEST_F(CliFork, WithoutAGpuItIsExitThreeWithTheReasonAndStoresNothing) {
  // `version` prints the GPU probe's line (backends/gpu_probe.cpp): "N GPU(s): ..." when one is usable.
  const Outcome version = cli("version");
  if (version.out.find(" GPU(s): ") != std::string::npos)
    GTEST_SKIP() << "a GPU is usable here, so fork does not stop for want of one";
  const Outcome o = cli("fork " + p_ + " " + k_ + " --candidate " + std::to_string(candidate_) + " --note 'try it'",
                        true, 120);
  EXPECT_EQ(o.exitCode, kNoGpu) << o.out;
  EXPECT_NE(o.out.find("cannot evaluate kernels here: "), std::string::npos) << o.out;
  EXPECT_EQ(candidates(), 1);
  const Outcome fromFile = cli("fork " + p_ + " " + k_ + " --run " + std::to_string(run_), true, 120);
  EXPECT_EQ(fromFile.exitCode, kNoGpu) << fromFile.out;
  EXPECT_EQ(candidates(), 1);
}

TEST_F(CliFork, AProjectThatCannotBeUsedIsExitFourAndLeftUnchanged) {
  const std::string garbage = dir_.file("garbage.crucible");
  store_test::writeBytes(garbage, std::vector<char>(4096, 'x'));
  const auto bytes = store_test::fileBytes(garbage);
  const Outcome o = cli("fork --project " + quoted(garbage) + " " + k_ + " --candidate 1");
  EXPECT_EQ(o.exitCode, kProjectUnusable) << o.out;
  EXPECT_NE(o.out.find("not a Crucible project"), std::string::npos) << o.out;
  EXPECT_EQ(store_test::fileBytes(garbage), bytes) << "the corrupt file was changed";
  EXPECT_FALSE(std::filesystem::exists(garbage + "-wal"));

  const std::string missing = dir_.file("missing.crucible");
  const Outcome none = cli("fork --project " + quoted(missing) + " " + k_ + " --candidate 1");
  EXPECT_EQ(none.exitCode, kProjectUnusable) << none.out;
  EXPECT_FALSE(std::filesystem::exists(missing)) << "fork created a project";
}

}  // namespace
}  // namespace crucible
