// SPDX-License-Identifier: GPL-3.0-or-later
// The user's word on a claim (schema v4): pinned, disabled, added and the
// user's wording are stored, survive the engine's updates, and a version-3
// project is migrated (read-write) or read as having none (read-only).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "core/store/project_store.h"
#include "core/store/schema.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using store_test::ScratchDir;

KnowledgeEntry claim() {
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.scopeFamily = "softmax";
  k.claim = "On sm_90, vector: 1 -> 4 makes softmax kernels 1.2x faster";
  k.decision = "vector: 1 -> 4";
  k.effect = 1.2;
  k.observations = 6;
  k.status = KnowledgeStatus::Validated;
  return k;
}

TEST(KnowledgeUserState, StoredApartFromTheMeasuredFields) {
  ScratchDir dir;
  auto store = ProjectStore::create(dir.file("p.crucible"));
  EXPECT_GE(ProjectStore::currentSchemaVersion(), store_detail::kKnowledgeUserStateSchemaVersion);
  KnowledgeEntry added = claim();
  added.decision = "vector=8";
  added.status = KnowledgeStatus::Hypothesis;
  added.observations = 0;
  added.pinned = true;
  added.userAdded = true;
  added.userClaim = "Eight-wide loads for short rows";
  added.id = store->addKnowledge(added);
  KnowledgeEntry measured = claim();
  measured.id = store->addKnowledge(measured);

  auto all = store->knowledge();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[0].pinned);
  EXPECT_TRUE(all[0].userAdded);
  EXPECT_FALSE(all[0].disabled);
  EXPECT_EQ(all[0].userClaim, "Eight-wide loads for short rows");
  EXPECT_FALSE(all[1].pinned || all[1].disabled || all[1].userAdded);

  store->setKnowledgeUserState(measured.id, false, true, "Not on this board");
  // The engine's update (which knows nothing of the user's word) leaves it alone.
  measured.effect = 1.25;
  measured.observations = 7;
  store->updateKnowledge(measured);
  all = store->knowledge();
  EXPECT_TRUE(all[1].disabled);
  EXPECT_EQ(all[1].userClaim, "Not on this board");
  EXPECT_DOUBLE_EQ(all[1].effect, 1.25);
  EXPECT_EQ(store->searchKnowledge("softmax")[0].userClaim.empty() ? 1 : 0, 0)
      << "search reads the user's columns too";

  // Unpinning keeps "added".
  store->setKnowledgeUserState(added.id, false, false, "");
  all = store->knowledge();
  EXPECT_FALSE(all[0].pinned);
  EXPECT_TRUE(all[0].userAdded);
  EXPECT_TRUE(all[0].userClaim.empty());
  EXPECT_THROW(store->setKnowledgeUserState(999, true, false, ""), StoreError);
}

// A version-3 project with one claim.
std::string versionThreeProject(ScratchDir& dir) {
  const std::string path = dir.file("v3.crucible");
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  store_detail::applyMigrations(db, 3);
  EXPECT_EQ(sqlite3_exec(db,
                         "INSERT INTO knowledge(id, scope_arch, scope_family, scope_shape, claim, decision, effect, "
                         "observations, status, probe, updated_at) VALUES (1, 'sm_90', 'softmax', '', 'old claim', "
                         "'vector: 1 -> 4', 1.2, 6, 'validated', '', 1600000000)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  return path;
}

TEST(KnowledgeUserState, AVersionThreeProjectReadsAsNoneReadOnlyAndIsMigratedReadWrite) {
  ScratchDir dir;
  const std::string path = versionThreeProject(dir);
  {
    auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    EXPECT_EQ(store->schemaVersion(), 3);
    const auto all = store->knowledge();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].claim, "old claim");
    EXPECT_FALSE(all[0].pinned || all[0].disabled || all[0].userAdded);
    EXPECT_EQ(store->searchKnowledge("old").size(), 1u);
  }
  auto store = ProjectStore::open(path);
  EXPECT_EQ(store->schemaVersion(), ProjectStore::currentSchemaVersion());
  auto all = store->knowledge();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].claim, "old claim");
  EXPECT_FALSE(all[0].pinned);
  store->setKnowledgeUserState(1, true, false, "");
  EXPECT_TRUE(store->knowledge()[0].pinned);
}

}  // namespace
}  // namespace crucible
