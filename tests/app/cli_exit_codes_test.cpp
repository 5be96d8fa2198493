// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's exit status means the same in every command (exit_codes.h):
// 2 bad usage, 4 a project that cannot be used, checked before any GPU is
// probed, so these tests need none.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/store/project_store.h"
#include "tests/app/run_cli.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;

constexpr int kUsage = 2;
constexpr int kProjectUnusable = 4;

class CliExitCodes : public ::testing::Test {
protected:
  void SetUp() override {
    auto store = ProjectStore::create(project_);
    const TaskId task = store->addTask(store_test::sampleTask());
    run_ = store->addRun(store_test::sampleRun(task));
  }
  void expectUsage(const std::string& args, const std::string& message) {
    const Outcome o = cli(args);
    EXPECT_EQ(o.exitCode, kUsage) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(message), std::string::npos) << args << "\n" << o.out;
  }
  store_test::ScratchDir dir_;
  const std::string project_ = dir_.file("p.crucible");
  const std::string p_ = "--project " + quoted(project_);
  RunId run_ = 0;
};

TEST_F(CliExitCodes, HelpDocumentsTheTable) {
  const Outcome o = cli("help");
  EXPECT_EQ(o.exitCode, 0) << o.out;
  for (const char* line : {"exit status (every command):", "  2  bad usage", "  3  no usable GPU here",
                           "  4  the project cannot be used"})
    EXPECT_NE(o.out.find(line), std::string::npos) << line << "\n" << o.out;
  EXPECT_EQ(cli("").exitCode, kUsage);
  expectUsage("frobnicate", "unknown command 'frobnicate'");
  expectUsage("version extra", "unexpected argument 'extra'");
  expectUsage("--frobnicate", "unknown option --frobnicate");
}

// CLI11's rules in crucible-cli's words (app/cli/options.h): a second command word is an extra
// argument, not a second command; a group needs one of its subcommands; a flag takes no value.
TEST_F(CliExitCodes, TheCommandLineIsOneCommandWithItsOwnOptions) {
  expectUsage("runs " + p_ + " status", "unexpected argument 'status'");
  expectUsage("task", "needs a subcommand: validate, list, show, import");
  expectUsage("seal frobnicate " + p_, "needs a subcommand: list, show, export");
  expectUsage("task show softmax_f32_8192x4096 --json=yes", "--json takes no value");
  expectUsage("runs --project", "--project needs a value");
  // Every value of an option is checked, not only the last one used.
  expectUsage("run " + p_ + " --task softmax_f32_8192x4096 --budget 0 --budget 5", "--budget must be at least 1, not 0");
  EXPECT_EQ(ProjectStore::open(project_, ProjectStore::Mode::ReadOnly)->runs().size(), 1u);
}

TEST_F(CliExitCodes, AnUnknownOptionIsBadUsageInEveryCommand) {
  for (const std::string& command : std::vector<std::string>{"runs " + p_, "best " + p_, "run " + p_ + " --task t", "resume " + p_ + " --run 1",
                                    "init " + quoted(dir_.file("n.crucible")), "task show softmax_f32_8192x4096",
                                    "task import softmax_f32_8192x4096 " + p_, "eval --task t --kernel k.cu"})
    expectUsage(command + " --frobnicate", "unknown option --frobnicate");
}

TEST_F(CliExitCodes, AnExtraArgumentIsBadUsageInEveryCommand) {
  for (const std::string& command : std::vector<std::string>{"runs " + p_, "best " + p_, "run " + p_ + " --task t", "resume " + p_ + " --run 1",
                                    "init " + quoted(dir_.file("n.crucible")), "task show softmax_f32_8192x4096",
                                    "task import softmax_f32_8192x4096 " + p_, "task list",
                                    "eval --task t --kernel k.cu"})
    expectUsage(command + " stray", "'stray'");
  EXPECT_FALSE(std::filesystem::exists(dir_.file("n.crucible"))) << "init created a project from a bad command line";
}

TEST_F(CliExitCodes, BudgetsAndTimeLimitsThatWouldMeanNoLimitOrNothingAreRefused) {
  const std::string run = "run " + p_ + " --task softmax_f32_8192x4096 ";
  expectUsage(run + "--budget -5", "--budget must be at least 1, not -5");
  expectUsage(run + "--budget 0", "--budget must be at least 1, not 0");
  expectUsage(run + "--budget 5x", "--budget must be a whole number, not '5x'");
  expectUsage(run + "--budget 1e3", "--budget must be a whole number, not '1e3'");
  for (const char* option : {"--minutes", "--gpu-minutes"}) {
    for (const char* value : {"nan", "inf", "-inf", "1e999", "10m"})
      expectUsage(run + option + " " + value, std::string(option) + " must be a finite number, not '" + value + "'");
    for (const char* value : {"0", "-1"})
      expectUsage(run + option + " " + value, std::string(option) + " must be more than 0, not " + value);
  }
  expectUsage(run + "--batch 0", "--batch must be from 1 to 4096, not 0");
  expectUsage(run + "--seed -1", "--seed must be at least 0, not -1");
  expectUsage(run + "--profile sometimes", "--profile");
  expectUsage("run " + p_ + " --task no_such_task", "no task 'no_such_task'");
  expectUsage("run --task softmax_f32_8192x4096", "missing --project");
  // None of these touched the project.
  EXPECT_EQ(ProjectStore::open(project_, ProjectStore::Mode::ReadOnly)->runs().size(), 1u);
}

TEST_F(CliExitCodes, AnUnknownRunIsBadUsageNamingTheRunAndTheProject) {
  expectUsage("resume " + p_ + " --run 999999", "no run 999999 in " + project_);
  expectUsage("resume " + p_, "missing --run");
  expectUsage("resume " + p_ + " --run 0", "--run must be at least 1, not 0");
  expectUsage("resume " + p_ + " --run one", "--run must be a whole number, not 'one'");
}

TEST_F(CliExitCodes, AProjectThatCannotBeUsedIsExitFourInEveryCommand) {
  const std::string missing = quoted(dir_.file("missing.crucible"));
  const std::string garbage = dir_.file("garbage.crucible");
  store_test::writeBytes(garbage, std::vector<char>(4096, 'x'));
  for (const std::string& project : std::vector<std::string>{missing, quoted(garbage)}) {
    for (const std::string& command : std::vector<std::string>{"runs --project " + project, "best --project " + project,
                                      "resume --project " + project + " --run 1"}) {
      const Outcome o = cli(command);
      EXPECT_EQ(o.exitCode, kProjectUnusable) << command << "\n" << o.out;
    }
  }
  const Outcome garbageRun = cli("run --project " + quoted(garbage) + " --task softmax_f32_8192x4096");
  EXPECT_EQ(garbageRun.exitCode, kProjectUnusable) << garbageRun.out;
  EXPECT_NE(garbageRun.out.find("not a Crucible project"), std::string::npos) << garbageRun.out;
  const Outcome again = cli("init " + quoted(project_));
  EXPECT_EQ(again.exitCode, kProjectUnusable) << again.out;
  EXPECT_NE(again.out.find("already exists"), std::string::npos) << again.out;
}

}  // namespace
}  // namespace crucible
