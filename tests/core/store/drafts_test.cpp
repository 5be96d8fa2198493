// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's drafts and the seals validated again (schema v3): saved
// as typed and read back exactly, one per (run, parent), replaced by a newer
// save, deleted; a version-2 project is migrated and gets both tables; a
// read-only store refuses to write a draft, and reads a version-2 file
// (which it cannot migrate) as holding none.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <limits>

#include "core/store/project_store.h"
#include "core/store/schema.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using store_test::ScratchDir;

struct Project {
  std::unique_ptr<ProjectStore> store;
  RunId run = 0;
  CandidateId candidate = 0;
};

Project makeProject(const std::string& path) {
  Project p;
  p.store = ProjectStore::create(path);
  const TaskId task = p.store->addTask(store_test::sampleTask());
  p.run = p.store->addRun(store_test::sampleRun(task));
  p.candidate = p.store->addCandidate(store_test::fullCandidate(p.run));
  return p;
}

KernelDraft typedDraft(RunId run, CandidateId parent) {
  KernelDraft d;
  d.runId = run;
  d.parent = parent;
  // Unicode, quotes, CR LF and a trailing blank line: restored byte for byte.
  d.source = "extern \"C\" __global__ void k(float* y) {\r\n  y[0] = 1.0f; // \xc2\xb5s\n}\n\n";
  d.launch.entry = "k";
  d.launch.grid[0] = "ceil_div(N, 256)";
  d.launch.grid[1] = "";  // blank as typed
  d.launch.block[0] = "256";
  d.launch.dynamicSmemBytes = "";
  d.note = "unroll by 4";
  d.origin = "Fork of #1 (valid, seed)";
  d.savedAt = 1764600000123;
  return d;
}

TEST(StoreDrafts, ADraftReadsBackExactly) {
  ScratchDir dir;
  Project p = makeProject(dir.file("d.crucible"));
  const KernelDraft d = typedDraft(p.run, p.candidate);
  p.store->saveDraft(d);
  const auto back = p.store->draft(p.run, p.candidate);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->runId, d.runId);
  EXPECT_EQ(back->parent, d.parent);
  EXPECT_EQ(back->source, d.source);
  EXPECT_EQ(back->note, d.note);
  EXPECT_EQ(back->origin, d.origin);
  EXPECT_EQ(back->savedAt, d.savedAt);
  EXPECT_EQ(back->launch.entry, "k");
  EXPECT_EQ(back->launch.grid[0], "ceil_div(N, 256)");
  EXPECT_EQ(back->launch.grid[1], "");
  EXPECT_EQ(back->launch.block[0], "256");
  EXPECT_EQ(back->launch.dynamicSmemBytes, "");
  // Another connection (the GUI's, opened read-only) sees it committed.
  auto reader = ProjectStore::open(dir.file("d.crucible"), ProjectStore::Mode::ReadOnly);
  ASSERT_EQ(reader->drafts().size(), 1u);
  EXPECT_EQ(reader->drafts().front().source, d.source);
}

TEST(StoreDrafts, OnePerKernelANewerSaveReplacesItAndDeleteRemovesOnlyIt) {
  ScratchDir dir;
  Project p = makeProject(dir.file("d.crucible"));
  KernelDraft fork = typedDraft(p.run, p.candidate);
  KernelDraft file = typedDraft(p.run, 0);  // a kernel opened from a file
  file.savedAt = fork.savedAt + 10;
  p.store->saveDraft(fork);
  p.store->saveDraft(file);
  fork.source = "newer text";
  fork.savedAt = file.savedAt + 10;
  p.store->saveDraft(fork);
  auto all = p.store->drafts();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].parent, p.candidate) << "newest first";
  EXPECT_EQ(all[0].source, "newer text");
  EXPECT_EQ(all[1].parent, 0);
  p.store->deleteDraft(p.run, p.candidate);
  all = p.store->drafts();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].parent, 0);
  EXPECT_FALSE(p.store->draft(p.run, p.candidate));
  p.store->deleteDraft(p.run, p.candidate);  // already gone: nothing happens
  EXPECT_EQ(p.store->drafts().size(), 1u);
}

TEST(StoreDrafts, SavedAtZeroMeansNowAndADraftNeedsARun) {
  ScratchDir dir;
  Project p = makeProject(dir.file("d.crucible"));
  KernelDraft d = typedDraft(p.run, p.candidate);
  d.savedAt = 0;
  p.store->saveDraft(d);
  EXPECT_GT(p.store->draft(p.run, p.candidate)->savedAt, 1700000000000);  // milliseconds
  d.runId = 0;
  EXPECT_THROW(p.store->saveDraft(d), StoreError);
  d.runId = p.run + 100;  // no such run: the foreign key refuses it
  EXPECT_THROW(p.store->saveDraft(d), StoreError);
}

TEST(StoreDrafts, AReadOnlyStoreRefusesToSaveOrDelete) {
  ScratchDir dir;
  const std::string path = dir.file("d.crucible");
  RunId run = 0;
  CandidateId c = 0;
  {
    Project p = makeProject(path);
    run = p.run;
    c = p.candidate;
  }
  auto reader = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  EXPECT_THROW(reader->saveDraft(typedDraft(run, c)), StoreError);
  EXPECT_THROW(reader->deleteDraft(run, c), StoreError);
}

TEST(StoreSealRevalidations, NewFiguresAndTheirFingerprintSitBesideTheSeal) {
  ScratchDir dir;
  Project p = makeProject(dir.file("r.crucible"));
  Seal seal;
  seal.taskId = p.store->run(p.run)->taskId;
  seal.candidateId = p.candidate;
  seal.runId = p.run;
  seal.speedup = 1.5;
  seal.medianUs = 10;
  seal.fingerprint.gpu = "NVIDIA H100";
  const SealId sealId = p.store->addSeal(seal);
  const CandidateId again = p.store->addCandidate(store_test::fullCandidate(p.run, {p.candidate}));
  SealRevalidation r;
  r.sealId = sealId;
  r.candidateId = again;
  r.status = "valid";
  r.medianUs = 8.25;
  r.speedup = 1.75;
  r.fingerprint = {"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980, 3201, "node7"};
  r.validatedAt = 1764600000;
  const auto id = p.store->addSealRevalidation(r);
  SealRevalidation notTimed = r;
  notTimed.status = "invalid";
  notTimed.medianUs = std::numeric_limits<double>::quiet_NaN();
  notTimed.speedup = std::numeric_limits<double>::quiet_NaN();
  notTimed.validatedAt = 0;
  p.store->addSealRevalidation(notTimed);
  const auto back = p.store->sealRevalidations(sealId);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].id, id);
  EXPECT_EQ(back[0].candidateId, again);
  EXPECT_EQ(back[0].status, "valid");
  EXPECT_DOUBLE_EQ(back[0].medianUs, 8.25);
  EXPECT_DOUBLE_EQ(back[0].speedup, 1.75);
  EXPECT_EQ(back[0].fingerprint.gpu, "NVIDIA H200");
  EXPECT_EQ(back[0].fingerprint.driver, "580.159.04");
  EXPECT_EQ(back[0].fingerprint.cudaRuntime, "13.0");
  EXPECT_EQ(back[0].fingerprint.host, "node7");
  EXPECT_DOUBLE_EQ(back[0].fingerprint.memClockMHz, 3201);
  EXPECT_EQ(back[0].validatedAt, 1764600000);
  EXPECT_TRUE(std::isnan(back[1].medianUs)) << "a figure not measured must not read as 0";
  EXPECT_TRUE(std::isnan(back[1].speedup));
  EXPECT_GT(back[1].validatedAt, 1700000000);
  // The seal itself is untouched: the old figures stay.
  EXPECT_EQ(p.store->seals().front().fingerprint.gpu, "NVIDIA H100");
  EXPECT_TRUE(p.store->sealRevalidations(sealId + 1).empty());
  r.sealId = sealId + 1;  // no such seal
  EXPECT_THROW(p.store->addSealRevalidation(r), StoreError);
}

TEST(StoreDrafts, AVersionTwoProjectIsMigratedAndGetsTheNewTables) {
  ScratchDir dir;
  const std::string path = dir.file("v2.crucible");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    store_detail::applyMigrations(db, 2);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO tasks(id, name, family, spec_json, spec_version) VALUES (1, 't', 'f', '{}', 1);"
                           "INSERT INTO runs(id, task_id, name, proposer, seed, budget_evaluations, "
                           "budget_wall_seconds, budget_gpu_seconds, gated, settings_json, status, "
                           "reference_candidate, created_at, evaluations_done, wall_seconds_used, gpu_seconds_used, "
                           "best_speedup) VALUES (1, 1, 'r', 'template', 1, 1, 0, 0, 0, '{}', 'paused', NULL, 1, 0, 0, "
                           "0, 0);",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  ASSERT_GE(ProjectStore::currentSchemaVersion(), 3);
  {
    // Read-only (a reviewer, the GUI's own connections): opens as it is, without the new tables.
    const auto before = store_test::fileBytes(path);
    auto reader = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    EXPECT_EQ(reader->schemaVersion(), 2);
    EXPECT_TRUE(reader->drafts().empty());
    EXPECT_FALSE(reader->draft(1, 0));
    EXPECT_TRUE(reader->sealRevalidations(1).empty());
    EXPECT_EQ(reader->runs().size(), 1u);
    reader.reset();
    EXPECT_TRUE(store_test::fileBytes(path) == before) << "a read-only open changed the file";
  }
  auto store = ProjectStore::open(path);
  EXPECT_EQ(store->schemaVersion(), ProjectStore::currentSchemaVersion());
  EXPECT_TRUE(store->drafts().empty());
  store->saveDraft(typedDraft(1, 0));
  EXPECT_EQ(store->drafts().size(), 1u);
  EXPECT_TRUE(store->sealRevalidations(1).empty());
}

}  // namespace
}  // namespace crucible
