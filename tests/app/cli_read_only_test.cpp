// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli on a project on read-only storage (a read-only bind mount as
// root, a folder without write permission otherwise): the commands that read
// work and leave nothing beside the file; the commands that write say "the
// project is open read-only (<why>)" and exit 4, before any GPU is probed.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/store/project_store.h"
#include "tests/app/run_cli.h"
#include "tests/core/store/read_only_view.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;

constexpr int kProjectUnusable = 4;

std::set<std::string> namesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

class CliReadOnly : public ::testing::Test {
protected:
  void SetUp() override {
    auto store = ProjectStore::create(dir_.file("p.crucible"));
    const TaskId task = store->addTask(store_test::sampleTask());
    const RunId run = store->addRun(store_test::sampleRun(task));
    store->addCandidate(store_test::fullCandidate(run));
  }
  store_test::ScratchDir dir_;
};

TEST_F(CliReadOnly, ReadingCommandsWorkAndLeaveNothingBesideTheProject) {
  test_support::ReadOnlyView view(std::filesystem::path(dir_.file("p.crucible")).parent_path());
  if (!view.problem().empty()) GTEST_SKIP() << view.problem();
  const std::string project = quoted(view.file("p.crucible"));
  const auto before = namesIn(view.path());

  const Outcome runs = cli("runs --project " + project);
  EXPECT_EQ(runs.exitCode, 0) << runs.out;
  EXPECT_NE(runs.out.find("softmax_f32_8192x4096"), std::string::npos) << runs.out;
  // The project's one task has a Valid candidate: exit 0.
  const Outcome best = cli("best --project " + project + " --json");
  EXPECT_EQ(best.exitCode, 0) << best.out;
  EXPECT_NE(best.out.find("\"valid\": true"), std::string::npos) << best.out;
  EXPECT_EQ(namesIn(view.path()), before) << "a read-only command left files beside the project";
}

TEST_F(CliReadOnly, WritingCommandsSayTheProjectIsReadOnlyAndExitFour) {
  test_support::ReadOnlyView view(std::filesystem::path(dir_.file("p.crucible")).parent_path());
  if (!view.problem().empty()) GTEST_SKIP() << view.problem();
  const std::string project = quoted(view.file("p.crucible"));
  const auto before = namesIn(view.path());
  const std::string why = ProjectStore::writeProblem(view.file("p.crucible"));
  ASSERT_FALSE(why.empty());

  for (const std::string& command : std::vector<std::string>{"run --project " + project + " --task softmax_f32_8192x4096 --budget 5",
                                    "resume --project " + project + " --run 1",
                                    "task import transpose_f32_2048x1024 --project " + project}) {
    const Outcome o = cli(command);
    EXPECT_EQ(o.exitCode, kProjectUnusable) << command << "\n" << o.out;
    EXPECT_NE(o.out.find("the project is open read-only (" + why + ")"), std::string::npos) << command << "\n" << o.out;
  }
  const Outcome init = cli("init " + quoted(view.file("new.crucible")));
  EXPECT_EQ(init.exitCode, kProjectUnusable) << init.out;
  EXPECT_NE(init.out.find("cannot create"), std::string::npos) << init.out;
  EXPECT_EQ(namesIn(view.path()), before) << "a refused command left files beside the project";
}

}  // namespace
}  // namespace crucible
