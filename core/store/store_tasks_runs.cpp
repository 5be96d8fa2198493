// SPDX-License-Identifier: GPL-3.0-or-later
// Tasks and runs.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

// ---------------------------------------------------------------- tasks

TaskId ProjectStore::addTask(const Task& task) {
  TaskId id = 0;
  write("add task", [&] {
    {
      auto existing = statements_->get("SELECT 1 FROM tasks WHERE name = ?1");
      existing->bindAll(task.name);
      if (existing->step()) throw StoreError(path_ + ": a task named '" + task.name + "' already exists");
    }
    auto s = statements_->get("INSERT INTO tasks(name, family, spec_json, spec_version) VALUES (?1, ?2, ?3, ?4)");
    s->bindAll(task.name, task.family, task.specJson, task.specVersion);
    s->execute();
    id = sqlite3_last_insert_rowid(db_);
  });
  return id;
}

std::optional<Task> ProjectStore::task(TaskId id) const {
  auto s = statements_->get(queries::select(queries::kTaskColumns, "FROM tasks WHERE id = ?1"));
  s->bindAll(id);
  if (!s->step()) return std::nullopt;
  return decodeTask(*s);
}

std::optional<Task> ProjectStore::taskByName(const std::string& name) const {
  auto s = statements_->get(queries::kTaskByName);
  s->bindAll(name);
  if (!s->step()) return std::nullopt;
  return decodeTask(*s);
}

std::vector<Task> ProjectStore::tasks() const {
  auto s = statements_->get(queries::select(queries::kTaskColumns, "FROM tasks ORDER BY id"));
  std::vector<Task> out;
  while (s->step()) out.push_back(decodeTask(*s));
  return out;
}

// ---------------------------------------------------------------- runs

RunId ProjectStore::addRun(const Run& run) {
  RunId id = 0;
  write("add run", [&] {
    auto s = statements_->get(
        "INSERT INTO runs(task_id, name, proposer, seed, budget_evaluations, budget_wall_seconds, "
        "budget_gpu_seconds, gated, settings_json, status, reference_candidate, created_at, evaluations_done, "
        "wall_seconds_used, gpu_seconds_used, best_speedup) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    s->bindAll(run.taskId, run.name, run.proposer, toStored(run.seed), run.budget.evaluations, run.budget.wallSeconds,
               run.budget.gpuSeconds, run.gated, run.settingsJson, toString(run.status));
    s->bindIdOrNull(11, run.referenceCandidate);
    s->bind(12, run.createdAt != 0 ? run.createdAt : nowSeconds());
    s->bind(13, run.evaluationsDone);
    s->bind(14, run.wallSecondsUsed);
    s->bind(15, run.gpuSecondsUsed);
    s->bind(16, run.bestSpeedup);
    s->execute();
    id = sqlite3_last_insert_rowid(db_);
  });
  return id;
}

void ProjectStore::updateRun(const Run& run) {
  write("update run", [&] {
    auto s = statements_->get(
        "UPDATE runs SET task_id = ?2, name = ?3, proposer = ?4, seed = ?5, budget_evaluations = ?6, "
        "budget_wall_seconds = ?7, budget_gpu_seconds = ?8, gated = ?9, settings_json = ?10, status = ?11, "
        "reference_candidate = ?12, evaluations_done = ?13, wall_seconds_used = ?14, gpu_seconds_used = ?15, "
        "best_speedup = ?16 WHERE id = ?1");
    s->bindAll(run.id, run.taskId, run.name, run.proposer, toStored(run.seed), run.budget.evaluations,
               run.budget.wallSeconds, run.budget.gpuSeconds, run.gated, run.settingsJson, toString(run.status));
    s->bindIdOrNull(12, run.referenceCandidate);
    s->bind(13, run.evaluationsDone);
    s->bind(14, run.wallSecondsUsed);
    s->bind(15, run.gpuSecondsUsed);
    s->bind(16, run.bestSpeedup);
    s->execute();
    if (sqlite3_changes(db_) != 1) throw StoreError(path_ + ": no run " + std::to_string(run.id));
  });
}

std::optional<Run> ProjectStore::run(RunId id) const {
  auto s = statements_->get(queries::select(queries::kRunColumns, "FROM runs WHERE id = ?1"));
  s->bindAll(id);
  if (!s->step()) return std::nullopt;
  return decodeRow(path_, "run", *s, decodeRun);
}

std::vector<Run> ProjectStore::runs() const {
  auto s = statements_->get(queries::select(queries::kRunColumns, "FROM runs ORDER BY id"));
  std::vector<Run> out;
  while (s->step()) out.push_back(decodeRow(path_, "run", *s, decodeRun));
  return out;
}

}  // namespace crucible
