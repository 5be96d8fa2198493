// SPDX-License-Identifier: GPL-3.0-or-later
// The one task-import policy (core/task/task_import.h) that the GUI, `crucible-cli
// run` and `crucible-cli task import` share: added, already there, name clash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "core/store/project_store.h"
#include "core/task/task_import.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"
#include "tests/core/store/store_test_support.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

using testing_support::validSpecJson;

class TaskImportTest : public ::testing::Test {
protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_.file(name);
    std::ofstream(path) << text;
    return path;
  }
  store_test::ScratchDir dir_;
  std::unique_ptr<ProjectStore> store_ = ProjectStore::create(dir_.file("p.crucible"));
};

TEST_F(TaskImportTest, ANewSpecIsAddedVerbatim) {
  const std::string text = validSpecJson().dump(2);
  const TaskImport r = importTaskSpec(*store_, text);
  EXPECT_EQ(r.outcome, TaskImport::Outcome::Added);
  EXPECT_EQ(r.name, "scale_f32_64x32");
  const auto task = store_->task(r.id);
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->name, "scale_f32_64x32");
  EXPECT_EQ(task->family, "scale");
  EXPECT_EQ(task->specJson, text);
}

TEST_F(TaskImportTest, TheSameSpecAgainIsAlreadyPresentEvenReformatted) {
  const TaskImport first = importTaskSpec(*store_, validSpecJson().dump(2));
  const TaskImport again = importTaskSpec(*store_, validSpecJson().dump(2));
  EXPECT_EQ(again.outcome, TaskImport::Outcome::AlreadyPresent);
  EXPECT_EQ(again.id, first.id);
  const TaskImport compact = importTaskSpec(*store_, validSpecJson().dump());  // other whitespace, same document
  EXPECT_EQ(compact.outcome, TaskImport::Outcome::AlreadyPresent);
  EXPECT_EQ(compact.id, first.id);
  EXPECT_EQ(store_->tasks().size(), 1u);
}

TEST_F(TaskImportTest, ADifferentSpecUnderATakenNameIsRefusedAndNamesTheTask) {
  const TaskImport first = importTaskSpec(*store_, validSpecJson().dump(2));
  nlohmann::json other = validSpecJson();
  other["tolerances"]["y"]["rtol"] = 1e-3;
  const std::string file = write("other.json", other.dump(2));
  try {
    importTaskFile(*store_, file);
    FAIL() << "a different spec under a taken name was accepted";
  } catch (const TaskNameClash& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("scale_f32_64x32"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("task " + std::to_string(first.id)));
    EXPECT_THAT(e.what(), ::testing::HasSubstr(file));
  }
  ASSERT_EQ(store_->tasks().size(), 1u);
  EXPECT_EQ(store_->task(first.id)->specJson, validSpecJson().dump(2)) << "the project's spec was changed";
}

TEST_F(TaskImportTest, AnInvalidOrUnreadableFileIsRefusedNamingItAndAddsNothing) {
  const std::string bad = write("bad_task.json", R"({"format": 1, "name": "bad"})");
  try {
    importTaskFile(*store_, bad);
    FAIL() << "an incomplete spec was imported";
  } catch (const TaskSpecError& e) {
    EXPECT_FALSE(e.field().empty());
    EXPECT_THAT(e.what(), ::testing::HasSubstr("bad_task.json"));
  }
  EXPECT_THROW(importTaskFile(*store_, dir_.file("missing.json")), TaskSpecError);
  EXPECT_TRUE(store_->tasks().empty());
}

TEST_F(TaskImportTest, AFileIsAddedThenFoundAgain) {
  const std::string file = write("scale.json", validSpecJson().dump(2));
  const TaskImport added = importTaskFile(*store_, file);
  EXPECT_EQ(added.outcome, TaskImport::Outcome::Added);
  const TaskImport again = importTaskFile(*store_, file);
  EXPECT_EQ(again.outcome, TaskImport::Outcome::AlreadyPresent);
  EXPECT_EQ(again.id, added.id);
}

TEST_F(TaskImportTest, ANameOrFileArgumentIsAPathFirstThenABuiltinName) {
  const std::string file = write("scale.json", validSpecJson().dump(2));
  EXPECT_EQ(findTaskSpecFile(file), file);
  const auto builtin = findTaskSpecFile("softmax_f32_1024x1024");
  ASSERT_TRUE(builtin.has_value());
  EXPECT_EQ(importTaskFile(*store_, *builtin).name, "softmax_f32_1024x1024");
  EXPECT_FALSE(findTaskSpecFile(dir_.file("no_such_task")).has_value());
}

}  // namespace
}  // namespace crucible
