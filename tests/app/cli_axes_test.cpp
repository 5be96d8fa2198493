// SPDX-License-Identifier: GPL-3.0-or-later
// `--axes M=4096,N=5003` on the command line (issue 21): a task at another
// shape is a task of its own; a malformed or impossible shape is bad usage
// naming --axes and the axis, before any GPU is probed or project written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/store/project_store.h"
#include "tests/app/run_cli.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;

constexpr int kUsage = 2;
const std::string kTask = "softmax_f32_8192x4096";  // axes M=8192, N=4096; sanitizeAxes M=256

void expectUsage(const std::string& args, const std::string& message) {
  const Outcome o = cli(args);
  EXPECT_EQ(o.exitCode, kUsage) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(message), std::string::npos) << args << "\n" << o.out;
}

TEST(CliAxes, TaskShowGivesTheTaskAtTheNewShape) {
  const Outcome o = cli("task show " + kTask + " --axes M=4096,N=5003 --json", false);
  ASSERT_EQ(o.exitCode, 0) << o.out;
  const auto spec = nlohmann::json::parse(o.out);
  EXPECT_EQ(spec["name"], kTask + ".M-4096.N-5003");
  EXPECT_EQ(spec["axes"]["M"], 4096);
  EXPECT_EQ(spec["axes"]["N"], 5003);
  EXPECT_EQ(spec["sanitizeAxes"]["M"], 256);
  const Outcome text = cli("task show " + kTask + " --axes N=5003");
  ASSERT_EQ(text.exitCode, 0) << text.out;
  EXPECT_NE(text.out.find("axes: M=8192 N=5003"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(kTask + ".N-5003"), std::string::npos) << text.out;
}

TEST(CliAxes, BadAxesAreBadUsageNamingTheAxis) {
  const std::string show = "task show " + kTask + " --axes ";
  expectUsage(show + "K=5", "--axes: task " + kTask + " has no axis K (its axes: M, N)");
  expectUsage(show + "M=0", "--axes: axis M must be from 1 to 2147483647, not 0");
  expectUsage(show + "M=-4", "--axes: axis M must be a whole number, not '-4'");
  expectUsage(show + "M=4k", "--axes: axis M must be a whole number, not '4k'");
  expectUsage(show + "M=4,M=8", "--axes: axis M is given twice");
  expectUsage(show + "M4096", "--axes: 'M4096': 'M4096' is not NAME=VALUE");
  expectUsage(show + "M=2147483647,N=2147483647", "more than 64 GiB");
  expectUsage("task validate " + quoted(std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/" + kTask + ".json") +
                  " --axes Q=1",
              "has no axis Q");
  // run and eval refuse them before anything is opened, created or probed.
  store_test::ScratchDir dir;
  const std::string project = dir.file("p.crucible");
  expectUsage("run --project " + quoted(project) + " --task " + kTask + " --axes X=4", "--axes: task " + kTask + " has no axis X");
  expectUsage("run --project " + quoted(project) + " --task " + kTask + " --axes M=1.5", "--axes: axis M must be a whole number");
  EXPECT_FALSE(std::filesystem::exists(project)) << "a bad --axes created the project";
  expectUsage("eval --task " + kTask + " --kernel k.cu --axes N=0", "--axes: axis N must be from 1");
}

TEST(CliAxes, ImportedAtAnotherShapeItIsADistinctTaskOfTheProject) {
  store_test::ScratchDir dir;
  const std::string project = dir.file("p.crucible");
  const std::string p = " --project " + quoted(project);
  ASSERT_EQ(cli("task import " + kTask + p).exitCode, 0);
  const Outcome reshaped = cli("task import " + kTask + p + " --axes M=4096,N=5003");
  ASSERT_EQ(reshaped.exitCode, 0) << reshaped.out;
  EXPECT_NE(reshaped.out.find("imported " + kTask + ".M-4096.N-5003 as task"), std::string::npos) << reshaped.out;
  const Outcome again = cli("task import " + kTask + p + " --axes N=5003,M=4096");
  EXPECT_NE(again.out.find("is already task"), std::string::npos) << again.out;
  // The file's shape given as --axes is the file's task.
  const Outcome same = cli("task import " + kTask + p + " --axes M=8192");
  EXPECT_NE(same.out.find(kTask + " is already task"), std::string::npos) << same.out;
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  ASSERT_TRUE(store->taskByName(kTask));
  const auto other = store->taskByName(kTask + ".M-4096.N-5003");
  ASSERT_TRUE(other);
  EXPECT_NE(other->id, store->taskByName(kTask)->id);
  EXPECT_EQ(nlohmann::json::parse(other->specJson)["axes"]["N"], 5003);
}

}  // namespace
}  // namespace crucible
