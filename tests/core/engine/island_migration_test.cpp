// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/island_migration.h"
#include "tests/core/engine/engine_fixture.h"
#include "tests/core/engine/unit_fixture.h"

namespace crucible::engine_detail {
namespace {

using namespace crucible::testing;

TEST(IslandMigration, EachIslandSendsItsBestToTheNextOneHopOnly) {
  TempProject project;
  auto store = project.open();
  RunId run = addTestRun(*store, project.task());
  Candidate a = addTestCandidate(*store, run, genome(0), CandidateStatus::Valid, 0, 2.0);
  Candidate b = addTestCandidate(*store, run, genome(1), CandidateStatus::Valid, 0, 1.5);
  Candidate weak = addTestCandidate(*store, run, genome(2), CandidateStatus::Valid, 0, 1.1);
  Archive archive(run, 3);
  archive.insert(0, "a", a.id, 2.0);
  archive.insert(0, "weak", weak.id, 1.1);
  archive.insert(1, "b", b.id, 1.5);

  EXPECT_EQ(migrateElites(archive, *store), 2);
  ASSERT_TRUE(archive.cell(1, "a"));
  EXPECT_EQ(archive.cell(1, "a")->elite, a.id);
  ASSERT_TRUE(archive.cell(2, "b"));
  EXPECT_FALSE(archive.cell(2, "a")) << "one hop per migration";
  EXPECT_FALSE(archive.cell(1, "weak")) << "only the best elite travels";
  EXPECT_EQ(store->archive(run).size(), 2u) << "the cells that changed are stored";

  // a's copy on island 1 ties with the a it would send on: ties keep the elite in place.
  EXPECT_EQ(migrateElites(archive, *store), 2) << "a travels on to island 2 and b to island 0";
  EXPECT_TRUE(archive.cell(2, "a"));
  EXPECT_TRUE(archive.cell(0, "b"));
}

}  // namespace
}  // namespace crucible::engine_detail
