// SPDX-License-Identifier: GPL-3.0-or-later
// Migrations are append-only: a released step is never edited, a change to
// the schema is a new step. Step N takes a version N-1 file to version N.
#include "core/store/schema.h"

#include <sqlite3.h>

#include <array>
#include <string>

#include "core/store/project_store.h"
#include "core/store/statement.h"

namespace crucible::store_detail {
namespace {

// v1: the tables. Ids of 0 in the model are stored as NULL so that foreign
// keys hold. Candidates keep their measured reports as JSON documents and
// copy the few figures that lists sort and show (median, speedup, registers)
// into columns, so summaries never parse JSON. Small columns come first and
// the large documents last, and the (immutable, large) source lives in its
// own table: SQLite reads a row's columns in order through its overflow
// pages and rewrites the whole row on UPDATE, so this keeps summaries and
// the engine's status updates from touching kilobytes they do not need.
// WITHOUT ROWID tables list their primary-key columns first: SQLite 3.40's
// quick_check misreads NOT NULL columns placed before the key columns and
// would report a healthy project as corrupt.
constexpr const char* kV1Tables = R"sql(
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  family TEXT NOT NULL,
  spec_json TEXT NOT NULL,
  spec_version INTEGER NOT NULL
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  name TEXT NOT NULL,
  proposer TEXT NOT NULL,
  seed INTEGER NOT NULL,
  budget_evaluations INTEGER NOT NULL,
  budget_wall_seconds REAL NOT NULL,
  budget_gpu_seconds REAL NOT NULL,
  gated INTEGER NOT NULL,
  settings_json TEXT NOT NULL,
  status TEXT NOT NULL,
  reference_candidate INTEGER REFERENCES candidates(id),
  created_at INTEGER NOT NULL,
  evaluations_done INTEGER NOT NULL,
  wall_seconds_used REAL NOT NULL,
  gpu_seconds_used REAL NOT NULL,
  best_speedup REAL NOT NULL
);
CREATE TABLE meta_prompts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER REFERENCES runs(id),
  parent_id INTEGER REFERENCES meta_prompts(id),
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  uses INTEGER NOT NULL,
  improvements INTEGER NOT NULL
);
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  generation INTEGER NOT NULL,
  proposer TEXT NOT NULL,
  mutation TEXT NOT NULL,
  meta_prompt_id INTEGER REFERENCES meta_prompts(id),
  architecture_key TEXT NOT NULL,
  status TEXT NOT NULL,
  fitness REAL NOT NULL,
  median_us REAL NOT NULL,
  speedup REAL NOT NULL,
  registers INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  status_detail TEXT NOT NULL,
  launch_json TEXT NOT NULL,
  genome_json TEXT NOT NULL,
  descriptor_json TEXT NOT NULL,
  compile_json TEXT,
  validation_json TEXT NOT NULL,
  timing_json TEXT,
  profile_json TEXT NOT NULL
);
CREATE TABLE candidate_sources (
  candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id),
  source TEXT NOT NULL
);
CREATE TABLE lineage (
  child_id INTEGER NOT NULL REFERENCES candidates(id),
  position INTEGER NOT NULL,
  parent_id INTEGER NOT NULL REFERENCES candidates(id),
  PRIMARY KEY (child_id, position)
) WITHOUT ROWID;
CREATE TABLE archive_cells (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  island INTEGER NOT NULL,
  key TEXT NOT NULL,
  elite_id INTEGER REFERENCES candidates(id),
  fitness REAL NOT NULL,
  selections INTEGER NOT NULL,
  improvements INTEGER NOT NULL,
  PRIMARY KEY (run_id, island, key)
) WITHOUT ROWID;
CREATE TABLE review_verdicts (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  architecture_key TEXT NOT NULL,
  accepted INTEGER NOT NULL,
  note TEXT NOT NULL,
  decided_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, architecture_key)
) WITHOUT ROWID;
CREATE TABLE knowledge (
  id INTEGER PRIMARY KEY,
  scope_arch TEXT NOT NULL,
  scope_family TEXT NOT NULL,
  scope_shape TEXT NOT NULL,
  claim TEXT NOT NULL,
  decision TEXT NOT NULL,
  effect REAL NOT NULL,
  observations INTEGER NOT NULL,
  status TEXT NOT NULL,
  probe TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE knowledge_evidence (
  knowledge_id INTEGER NOT NULL REFERENCES knowledge(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  PRIMARY KEY (knowledge_id, position)
) WITHOUT ROWID;
CREATE TABLE seals (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  run_id INTEGER REFERENCES runs(id),
  speedup REAL NOT NULL,
  median_us REAL NOT NULL,
  validation_report_json TEXT NOT NULL,
  performance_report_json TEXT NOT NULL,
  fp_gpu TEXT NOT NULL,
  fp_arch TEXT NOT NULL,
  fp_driver TEXT NOT NULL,
  fp_cuda_runtime TEXT NOT NULL,
  fp_nvrtc TEXT NOT NULL,
  fp_sm_clock_mhz REAL NOT NULL,
  fp_mem_clock_mhz REAL NOT NULL,
  fp_host TEXT NOT NULL,
  sealed_at INTEGER NOT NULL
);
CREATE TABLE ceilings (
  device TEXT NOT NULL,
  name TEXT NOT NULL,
  measured REAL NOT NULL,
  datasheet REAL NOT NULL,
  unit TEXT NOT NULL,
  measured_at INTEGER NOT NULL,
  PRIMARY KEY (device, name)
) WITHOUT ROWID;
CREATE TABLE tuning_cache (
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  config_key TEXT NOT NULL,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  PRIMARY KEY (task_id, config_key)
) WITHOUT ROWID;
CREATE TABLE engine_log (
  id INTEGER PRIMARY KEY,
  run_id INTEGER REFERENCES runs(id),
  at INTEGER NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'error')),
  text TEXT NOT NULL
);
)sql";

// v2: the indices the engine's per-candidate work and the views' lists need,
// per-run candidate counts,
// and the FTS5 index over knowledge (external content, kept by triggers;
// 'rebuild' indexes what a v1 file already holds).
constexpr const char* kV2IndicesAndSearch = R"sql(
CREATE INDEX candidates_by_run ON candidates(run_id);
CREATE INDEX candidates_by_run_status ON candidates(run_id, status);
CREATE INDEX candidates_by_run_architecture ON candidates(run_id, architecture_key);
CREATE INDEX lineage_by_parent ON lineage(parent_id);
CREATE INDEX knowledge_evidence_by_candidate ON knowledge_evidence(candidate_id);
CREATE INDEX seals_by_task ON seals(task_id, sealed_at);
CREATE INDEX engine_log_by_run ON engine_log(run_id, id);
CREATE INDEX meta_prompts_by_run ON meta_prompts(run_id);
CREATE INDEX runs_by_task ON runs(task_id);

-- Candidates per run, kept by triggers: counting index entries is O(n), and
-- the engine and the views ask for the count all the time.
CREATE TABLE run_candidate_counts (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id),
  candidates INTEGER NOT NULL
);
INSERT INTO run_candidate_counts(run_id, candidates) SELECT run_id, count(*) FROM candidates GROUP BY run_id;
CREATE TRIGGER run_candidate_counts_insert AFTER INSERT ON candidates BEGIN
  INSERT OR IGNORE INTO run_candidate_counts(run_id, candidates) VALUES (new.run_id, 0);
  UPDATE run_candidate_counts SET candidates = candidates + 1 WHERE run_id = new.run_id;
END;
CREATE TRIGGER run_candidate_counts_delete AFTER DELETE ON candidates BEGIN
  UPDATE run_candidate_counts SET candidates = candidates - 1 WHERE run_id = old.run_id;
END;
CREATE TRIGGER run_candidate_counts_move AFTER UPDATE OF run_id ON candidates BEGIN
  UPDATE run_candidate_counts SET candidates = candidates - 1 WHERE run_id = old.run_id;
  INSERT OR IGNORE INTO run_candidate_counts(run_id, candidates) VALUES (new.run_id, 0);
  UPDATE run_candidate_counts SET candidates = candidates + 1 WHERE run_id = new.run_id;
END;

CREATE VIRTUAL TABLE knowledge_fts USING fts5(
  claim, decision, scope_arch, scope_family, scope_shape,
  content='knowledge', content_rowid='id'
);
CREATE TRIGGER knowledge_fts_insert AFTER INSERT ON knowledge BEGIN
  INSERT INTO knowledge_fts(rowid, claim, decision, scope_arch, scope_family, scope_shape)
  VALUES (new.id, new.claim, new.decision, new.scope_arch, new.scope_family, new.scope_shape);
END;
CREATE TRIGGER knowledge_fts_delete AFTER DELETE ON knowledge BEGIN
  INSERT INTO knowledge_fts(knowledge_fts, rowid, claim, decision, scope_arch, scope_family, scope_shape)
  VALUES ('delete', old.id, old.claim, old.decision, old.scope_arch, old.scope_family, old.scope_shape);
END;
CREATE TRIGGER knowledge_fts_update AFTER UPDATE ON knowledge BEGIN
  INSERT INTO knowledge_fts(knowledge_fts, rowid, claim, decision, scope_arch, scope_family, scope_shape)
  VALUES ('delete', old.id, old.claim, old.decision, old.scope_arch, old.scope_family, old.scope_shape);
  INSERT INTO knowledge_fts(rowid, claim, decision, scope_arch, scope_family, scope_shape)
  VALUES (new.id, new.claim, new.decision, new.scope_arch, new.scope_family, new.scope_shape);
END;
INSERT INTO knowledge_fts(knowledge_fts) VALUES ('rebuild');
)sql";

// v3: the kernel editor's unsaved drafts (issue 17: nothing typed is lost;
// one per edited kernel: a fork of parent_id, or a file kernel of run_id when
// parent_id is 0, which is why parent_id has no foreign key), and the seals
// validated again on other hardware: each links the seal to the user
// candidate that holds the new measurement and keeps the fingerprint it was
// measured on (a candidate row has none), beside the seal's own figures;
// a figure not measured (the kernel did not validate) is NULL.
constexpr const char* kV3DraftsAndRevalidations = R"sql(
CREATE TABLE drafts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  parent_id INTEGER NOT NULL,
  saved_at INTEGER NOT NULL,
  origin TEXT NOT NULL,
  note TEXT NOT NULL,
  launch_json TEXT NOT NULL,
  source TEXT NOT NULL,
  UNIQUE (run_id, parent_id)
);
CREATE TABLE seal_revalidations (
  id INTEGER PRIMARY KEY,
  seal_id INTEGER NOT NULL REFERENCES seals(id),
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  status TEXT NOT NULL,
  median_us REAL,
  speedup REAL,
  fp_gpu TEXT NOT NULL,
  fp_arch TEXT NOT NULL,
  fp_driver TEXT NOT NULL,
  fp_cuda_runtime TEXT NOT NULL,
  fp_nvrtc TEXT NOT NULL,
  fp_sm_clock_mhz REAL NOT NULL,
  fp_mem_clock_mhz REAL NOT NULL,
  fp_host TEXT NOT NULL,
  validated_at INTEGER NOT NULL
);
CREATE INDEX seal_revalidations_by_seal ON seal_revalidations(seal_id, id);
)sql";

// v4: the user's word on a claim (issue 19, the knowledge browser): "pinned",
// "disabled" and "added" (comma-separated) in user_state, and the user's
// wording of the claim in user_claim ('' = the measured claim's text).
// Kept apart from the measured columns, which the engine rewrites.
constexpr const char* kV4KnowledgeUserState = R"sql(
ALTER TABLE knowledge ADD COLUMN user_state TEXT NOT NULL DEFAULT '';
ALTER TABLE knowledge ADD COLUMN user_claim TEXT NOT NULL DEFAULT '';
)sql";

constexpr std::array<const char*, 4> kMigrations{kV1Tables, kV2IndicesAndSearch, kV3DraftsAndRevalidations,
                                                 kV4KnowledgeUserState};

int userVersion(sqlite3* db) {
  Statement s(db, "PRAGMA user_version");
  return s.step() ? s.intAt(0) : 0;
}

// Closes the transaction it opened unless committed: a failed step leaves
// the file at the previous version.
class MigrationTransaction {
public:
  explicit MigrationTransaction(sqlite3* db) : db_(db) { executeScript(db_, "BEGIN IMMEDIATE"); }
  ~MigrationTransaction() {
    if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    executeScript(db_, "COMMIT");
    open_ = false;
  }

private:
  sqlite3* db_;
  bool open_ = true;
};

}  // namespace

int latestSchemaVersion() { return static_cast<int>(kMigrations.size()); }

// v3 only adds tables (drafts, seal_revalidations) that read as empty when
// absent; v4 only adds the knowledge's user columns, read as '' when absent.
int oldestReadableSchemaVersion() { return 2; }

void applyMigrations(sqlite3* db, int upTo) {
  if (upTo > latestSchemaVersion()) {
    const char* file = sqlite3_db_filename(db, "main");
    throw StoreError(std::string(file ? file : "") + ": cannot migrate to schema " + std::to_string(upTo) +
                     "; this build knows up to " + std::to_string(latestSchemaVersion()));
  }
  for (;;) {
    MigrationTransaction transaction(db);
    // Read the version inside the write lock: another process may have
    // migrated the file since we looked.
    const int version = userVersion(db);
    if (version >= upTo) return;  // the transaction rolls back, having changed nothing
    if (version == 0) executeScript(db, "PRAGMA application_id = " + std::to_string(kApplicationId));
    executeScript(db, kMigrations[static_cast<std::size_t>(version)]);
    executeScript(db, "PRAGMA user_version = " + std::to_string(version + 1));
    transaction.commit();
  }
}

}  // namespace crucible::store_detail
