// SPDX-License-Identifier: GPL-3.0-or-later
// Opening: files that are not (usable) Crucible projects are refused with the
// file's name and the reason, and are left byte for byte as they were; older
// schemas are migrated forward keeping their data; read-only never writes.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <random>

#include "core/store/project_store.h"
#include "core/store/schema.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

// A raw connection for building files the store would never write itself.
class RawDb {
public:
  explicit RawDb(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error(sqlite3_errmsg(db_));
  }
  ~RawDb() { sqlite3_close(db_); }
  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error(message + " in: " + sql);
    }
  }
  sqlite3* get() { return db_; }

private:
  sqlite3* db_ = nullptr;
};

// Expects open() in both modes to throw a StoreError naming the file and
// containing `reason`, and the file's bytes to be exactly as before.
void expectRefused(const std::string& path, const std::string& reason) {
  const bool existed = std::filesystem::exists(path);
  const auto before = existed ? fileBytes(path) : std::vector<char>{};
  for (auto mode : {ProjectStore::Mode::ReadWrite, ProjectStore::Mode::ReadOnly}) {
    try {
      ProjectStore::open(path, mode);
      ADD_FAILURE() << "opened " << path;
    } catch (const StoreError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << "message does not start with the file: " << message;
      EXPECT_NE(message.find(reason), std::string::npos) << "expected '" << reason << "' in: " << message;
    }
  }
  EXPECT_EQ(std::filesystem::exists(path), existed);
  if (existed) {
    EXPECT_TRUE(fileBytes(path) == before) << "the refused file was modified";
  }
}

std::vector<char> randomBytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<char> bytes(n);
  for (auto& b : bytes) b = static_cast<char>(gen() & 0xff);
  return bytes;
}

TEST(StoreOpen, MissingFileIsRefusedAndNotCreated) {
  ScratchDir dir;
  expectRefused(dir.file("missing.crucible"), "no such file");
}

TEST(StoreOpen, RandomBytesAreNotSqlite) {
  ScratchDir dir;
  const auto path = dir.file("noise.crucible");
  writeBytes(path, randomBytes(8192, 1));
  expectRefused(path, "not an SQLite database");
}

TEST(StoreOpen, EmptyFileIsNotSqlite) {
  ScratchDir dir;
  const auto path = dir.file("empty.crucible");
  writeBytes(path, {});
  expectRefused(path, "not an SQLite database");
}

TEST(StoreOpen, ForeignSqliteIsNotACrucibleProject) {
  ScratchDir dir;
  const auto path = dir.file("foreign.db");
  {
    RawDb db(path);
    db.exec("CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes(text) VALUES ('hello');"
            "PRAGMA user_version = 1;");
  }
  expectRefused(path, "not a Crucible project (SQLite database with application_id 0x00000000)");
}

TEST(StoreOpen, NewerSchemaIsRefused) {
  ScratchDir dir;
  const auto path = dir.file("future.crucible");
  ProjectStore::create(path)->addTask(sampleTask());
  const int future = ProjectStore::currentSchemaVersion() + 5;
  {
    RawDb db(path);
    db.exec("PRAGMA user_version = " + std::to_string(future));
  }
  expectRefused(path, "written by a newer Crucible (schema " + std::to_string(future) + "; this build reads up to " +
                          std::to_string(ProjectStore::currentSchemaVersion()) + ")");
}

TEST(StoreOpen, CorruptProjectIsRefused) {
  ScratchDir dir;
  const auto path = dir.file("damaged.crucible");
  {
    auto store = ProjectStore::create(path);
    const RunId run = store->addRun(sampleRun(store->addTask(sampleTask())));
    store->transaction([&] {
      for (int i = 0; i < 200; ++i) store->addCandidate(fullCandidate(run));
    });
  }
  ASSERT_FALSE(std::filesystem::exists(path + "-wal")) << "closing should checkpoint the WAL into the file";
  auto bytes = fileBytes(path);
  constexpr std::size_t kPage = 4096;
  ASSERT_GT(bytes.size(), 20 * kPage);
  // Page 1 (header, schema) stays intact; table pages in the middle become noise.
  const auto noise = randomBytes(8 * kPage, 2);
  std::copy(noise.begin(), noise.end(), bytes.begin() + static_cast<std::ptrdiff_t>(kPage * 4));
  writeBytes(path, bytes);
  expectRefused(path, "the file is corrupt");
}

TEST(StoreOpen, ReadOnlyStoreReadsButRefusesWrites) {
  ScratchDir dir;
  const auto path = dir.file("p.crucible");
  TaskId task = 0;
  {
    auto store = ProjectStore::create(path);
    task = store->addTask(sampleTask());
    store->addRun(sampleRun(task));
  }
  const auto before = fileBytes(path);
  {
    auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    EXPECT_EQ(store->tasks().size(), 1u);
    EXPECT_EQ(store->runs().size(), 1u);
    EXPECT_EQ(store->schemaVersion(), ProjectStore::currentSchemaVersion());
    try {
      store->addTask(sampleTask("another"));
      FAIL() << "a read-only store wrote";
    } catch (const StoreError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("the project is open read-only (opened for reading)"), std::string::npos)
          << e.what();
    }
    EXPECT_THROW(store->appendLog(0, "info", "x"), StoreError);
    EXPECT_THROW(store->putCeiling({"gpu", "dram_bw", 1, 1, "B/s", 1}), StoreError);
    EXPECT_THROW(store->transaction([] {}), StoreError);
  }
  EXPECT_TRUE(fileBytes(path) == before);
  EXPECT_EQ(ProjectStore::open(path)->tasks().size(), 1u);
}

TEST(StoreOpen, VersionOneFileIsMigratedAndKeepsItsData) {
  ScratchDir dir;
  const auto path = dir.file("v1.crucible");
  {
    RawDb db(path);
    store_detail::applyMigrations(db.get(), 1);
    db.exec(R"sql(
      INSERT INTO tasks(id, name, family, spec_json, spec_version) VALUES (1, 'softmax', 'softmax', '{}', 1);
      INSERT INTO runs(id, task_id, name, proposer, seed, budget_evaluations, budget_wall_seconds,
        budget_gpu_seconds, gated, settings_json, status, reference_candidate, created_at, evaluations_done,
        wall_seconds_used, gpu_seconds_used, best_speedup)
        VALUES (1, 1, 'old run', 'template', 42, 100, 0, 0, 0, '{}', 'paused', NULL, 1600000000, 3, 1.5, 0.5, 1.25);
      INSERT INTO candidates(id, run_id, generation, launch_json, proposer, mutation, meta_prompt_id,
        genome_json, architecture_key, descriptor_json, status, status_detail, compile_json, validation_json,
        timing_json, profile_json, fitness, median_us, speedup, registers, created_at)
        VALUES (1, 1, 0, '{"entry":"k","grid":["1","1","1"],"block":["256","1","1"],"dynamicSmemBytes":"0"}',
          'template', 'seed', NULL, '{}', 'vec=1', '{"vector":"1"}', 'valid', '', NULL, '[]', NULL, '{}', 1.25, 0, 0, 0,
          1600000001);
      INSERT INTO candidate_sources(candidate_id, source) VALUES (1, 'old source');
      INSERT INTO knowledge(id, scope_arch, scope_family, scope_shape, claim, decision, effect, observations, status,
        probe, updated_at) VALUES (1, 'sm_90', 'softmax', '', 'registers beat shared memory for short rows',
        'memory=registers', 1.2, 3, 'hypothesis', '', 1600000002);
      INSERT INTO knowledge_evidence(knowledge_id, position, candidate_id) VALUES (1, 0, 1);
    )sql");
    int version = 0;
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db.get(), "PRAGMA user_version", -1, &s, nullptr);
    if (sqlite3_step(s) == SQLITE_ROW) version = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    ASSERT_EQ(version, 1);
  }

  // A read-only open cannot migrate, so it refuses and writes nothing.
  const auto before = fileBytes(path);
  try {
    ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    FAIL() << "read-only open of an old schema";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("schema 1 is older"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fileBytes(path) == before);

  {
    auto store = ProjectStore::open(path);
    EXPECT_EQ(store->schemaVersion(), ProjectStore::currentSchemaVersion());
    ASSERT_TRUE(store->taskByName("softmax"));
    const auto run = store->run(1);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->name, "old run");
    EXPECT_EQ(run->status, RunStatus::Paused);
    const auto c = store->candidate(1);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->source, "old source");
    EXPECT_EQ(c->launch.block[0], "256");
    EXPECT_EQ(c->descriptor.at("vector"), "1");
    // The v2 search index covers knowledge written before it existed.
    const auto hits = store->searchKnowledge("registers");
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].evidence, (std::vector<CandidateId>{1}));
    // And the migrated file takes new data.
    store->addCandidate(fullCandidate(1, {1}));
    EXPECT_EQ(store->candidateSummaries(1).back().parents, (std::vector<CandidateId>{1}));
  }
  EXPECT_EQ(ProjectStore::open(path, ProjectStore::Mode::ReadOnly)->candidateCount(), 2);
}

TEST(StoreOpen, MigratingBeyondThisBuildIsRefused) {
  ScratchDir dir;
  RawDb db(dir.file("x.crucible"));
  EXPECT_THROW(store_detail::applyMigrations(db.get(), ProjectStore::currentSchemaVersion() + 1), StoreError);
}

}  // namespace
