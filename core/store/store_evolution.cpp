// SPDX-License-Identifier: GPL-3.0-or-later
// The state of the search: MAP-Elites archive, review verdicts, meta-prompts.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

// ---------------------------------------------------------------- archive

void ProjectStore::putArchiveCell(const ArchiveCell& cell) {
  write("put archive cell", [&] {
    auto s = statements_->get(
        "INSERT INTO archive_cells(run_id, island, key, elite_id, fitness, selections, improvements) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(run_id, island, key) DO UPDATE SET "
        "elite_id = excluded.elite_id, fitness = excluded.fitness, selections = excluded.selections, "
        "improvements = excluded.improvements");
    s->bindAll(cell.runId, cell.island, cell.key);
    s->bindIdOrNull(4, cell.elite);
    s->bind(5, cell.fitness);
    s->bind(6, cell.selections);
    s->bind(7, cell.improvements);
    s->execute();
  });
}

void ProjectStore::removeArchiveCell(RunId run, int island, const std::string& key) {
  write("remove archive cell", [&] {
    auto s = statements_->get("DELETE FROM archive_cells WHERE run_id = ?1 AND island = ?2 AND key = ?3");
    s->bindAll(run, island, key);
    s->execute();
  });
}

std::vector<ArchiveCell> ProjectStore::archive(RunId run) const {
  auto s = statements_->get(queries::kArchiveOfRun);
  s->bindAll(run);
  std::vector<ArchiveCell> out;
  while (s->step())
    out.push_back({s->int64At(0), s->intAt(1), s->textAt(2), s->int64At(3), s->doubleAt(4), s->int64At(5),
                   s->int64At(6)});
  return out;
}

// ---------------------------------------------------------------- review gate

void ProjectStore::recordVerdict(const ReviewVerdict& v) {
  write("record verdict", [&] {
    auto s = statements_->get(
        "INSERT INTO review_verdicts(run_id, architecture_key, accepted, note, decided_at) VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT(run_id, architecture_key) DO UPDATE SET accepted = excluded.accepted, note = excluded.note, "
        "decided_at = excluded.decided_at");
    s->bindAll(v.runId, v.architectureKey, v.accepted, v.note, v.decidedAt != 0 ? v.decidedAt : nowSeconds());
    s->execute();
  });
}

std::optional<ReviewVerdict> ProjectStore::verdict(RunId run, const std::string& architectureKey) const {
  auto s = statements_->get(queries::kVerdict);
  s->bindAll(run, architectureKey);
  if (!s->step()) return std::nullopt;
  return ReviewVerdict{s->int64At(0), s->textAt(1), s->int64At(2) != 0, s->textAt(3), s->int64At(4)};
}

std::vector<ReviewVerdict> ProjectStore::verdicts(RunId run) const {
  auto s = statements_->get(
      "SELECT run_id, architecture_key, accepted, note, decided_at FROM review_verdicts "
      "WHERE run_id = ?1 ORDER BY decided_at, architecture_key");
  s->bindAll(run);
  std::vector<ReviewVerdict> out;
  while (s->step()) out.push_back({s->int64At(0), s->textAt(1), s->int64At(2) != 0, s->textAt(3), s->int64At(4)});
  return out;
}

// ---------------------------------------------------------------- meta-prompts

MetaPromptId ProjectStore::addMetaPrompt(const MetaPrompt& m) {
  MetaPromptId id = 0;
  write("add meta-prompt", [&] {
    auto s = statements_->get(
        "INSERT INTO meta_prompts(run_id, parent_id, name, text, uses, improvements) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    s->bindIdOrNull(1, m.runId);
    s->bindIdOrNull(2, m.parent);
    s->bind(3, m.name);
    s->bind(4, m.text);
    s->bind(5, m.uses);
    s->bind(6, m.improvements);
    s->execute();
    id = sqlite3_last_insert_rowid(db_);
  });
  return id;
}

void ProjectStore::updateMetaPrompt(const MetaPrompt& m) {
  write("update meta-prompt", [&] {
    auto s = statements_->get(
        "UPDATE meta_prompts SET run_id = ?2, parent_id = ?3, name = ?4, text = ?5, uses = ?6, improvements = ?7 "
        "WHERE id = ?1");
    s->bind(1, m.id);
    s->bindIdOrNull(2, m.runId);
    s->bindIdOrNull(3, m.parent);
    s->bind(4, m.name);
    s->bind(5, m.text);
    s->bind(6, m.uses);
    s->bind(7, m.improvements);
    s->execute();
    if (sqlite3_changes(db_) != 1) throw StoreError(path_ + ": no meta-prompt " + std::to_string(m.id));
  });
}

std::vector<MetaPrompt> ProjectStore::metaPrompts(RunId run) const {
  auto s = statements_->get(
      run == 0 ? queries::select(queries::kMetaPromptColumns, "FROM meta_prompts WHERE run_id IS NULL ORDER BY id")
               : queries::kMetaPromptsOfRun);
  if (run != 0) s->bindAll(run);
  std::vector<MetaPrompt> out;
  while (s->step()) out.push_back(decodeMetaPrompt(*s));
  return out;
}

}  // namespace crucible
