// SPDX-License-Identifier: GPL-3.0-or-later
// Candidates with their lineage, and the tuning cache.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include <algorithm>

#include "core/model/model_json.h"
#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

// ---------------------------------------------------------------- candidates

CandidateId ProjectStore::addCandidate(const Candidate& c) {
  CandidateId id = 0;
  write("add candidate", [&] {
    {
      auto s = statements_->get(
          "INSERT INTO candidates(run_id, generation, launch_json, proposer, mutation, meta_prompt_id, "
          "genome_json, architecture_key, descriptor_json, status, status_detail, compile_json, validation_json, "
          "timing_json, profile_json, fitness, median_us, speedup, registers, created_at) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)");
      s->bindAll(c.runId, c.generation, toJson(c.launch).dump(), c.proposer, c.mutation);
      s->bindIdOrNull(6, c.metaPrompt);
      s->bind(7, c.genomeJson);
      s->bind(8, c.architectureKey);
      bindMeasured(*s, 9, c);
      s->bind(20, c.createdAt != 0 ? c.createdAt : nowSeconds());
      s->execute();
      id = sqlite3_last_insert_rowid(db_);
    }
    {
      auto s = statements_->get("INSERT INTO candidate_sources(candidate_id, source) VALUES (?1, ?2)");
      s->bindAll(id, c.source);
      s->execute();
    }
    auto edge = statements_->get("INSERT INTO lineage(child_id, parent_id, position) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < c.parents.size(); ++i) {
      edge->bindAll(id, c.parents[i], static_cast<std::int64_t>(i));
      edge->execute();
      edge->reset();
    }
  });
  return id;
}

void ProjectStore::updateCandidate(const Candidate& c) {
  write("update candidate", [&] {
    auto s = statements_->get(queries::kUpdateCandidate);
    s->bind(1, c.id);
    bindMeasured(*s, 2, c);
    s->execute();
    if (sqlite3_changes(db_) != 1) throw StoreError(path_ + ": no candidate " + std::to_string(c.id));
  });
}

std::optional<Candidate> ProjectStore::candidate(CandidateId id) const {
  std::optional<Candidate> c;
  {
    auto s = statements_->get(queries::kCandidateById);
    s->bindAll(id);
    if (!s->step()) return std::nullopt;
    c = decodeRow(path_, "candidate", *s, decodeCandidate);
  }
  auto parents = statements_->get(queries::kParentsOf);
  parents->bindAll(id);
  while (parents->step()) c->parents.push_back(parents->int64At(0));
  return c;
}

std::vector<CandidateSummary> ProjectStore::candidateSummaries(RunId run) const {
  std::vector<CandidateSummary> out;
  {
    auto s = statements_->get(run == 0 ? queries::select(queries::kSummaryColumns, "FROM candidates ORDER BY id")
                                       : queries::kSummariesOfRun);
    if (run != 0) s->bindAll(run);
    while (s->step()) out.push_back(decodeRow(path_, "candidate", *s, decodeSummary));
  }
  // Both lists are ordered by candidate id: merge the edges in one pass.
  auto edges = statements_->get(run == 0 ? "SELECT child_id, parent_id FROM lineage ORDER BY child_id, position"
                                         : queries::kEdgesOfRun);
  if (run != 0) edges->bindAll(run);
  auto it = out.begin();
  while (edges->step()) {
    const CandidateId child = edges->int64At(0);
    while (it != out.end() && it->id < child) ++it;
    if (it == out.end()) break;
    if (it->id == child) it->parents.push_back(edges->int64At(1));
  }
  return out;
}

namespace {
void addParents(StatementCache& statements, std::vector<CandidateSummary>& out) {
  // Few rows between two looks of a reader: one index lookup each.
  auto parents = statements.get(queries::kParentsOf);
  for (auto& c : out) {
    parents->bindAll(c.id);
    while (parents->step()) c.parents.push_back(parents->int64At(0));
    parents->reset();
  }
}
}  // namespace

std::vector<CandidateSummary> ProjectStore::candidateSummariesSince(RunId run, CandidateId afterId) const {
  std::vector<CandidateSummary> out;
  {
    auto s = statements_->get(queries::kSummariesSince);
    s->bindAll(run, afterId);
    while (s->step()) out.push_back(decodeRow(path_, "candidate", *s, decodeSummary));
  }
  addParents(*statements_, out);
  return out;
}

std::vector<CandidateSummary> ProjectStore::candidateSummariesById(const std::vector<CandidateId>& ids) const {
  std::vector<CandidateSummary> out;
  {
    auto s = statements_->get(queries::kSummaryById);
    for (CandidateId id : ids) {
      s->bindAll(id);
      if (s->step()) out.push_back(decodeRow(path_, "candidate", *s, decodeSummary));
      s->reset();
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  addParents(*statements_, out);
  return out;
}

std::vector<Candidate> ProjectStore::candidatesWithStatus(RunId run, CandidateStatus status) const {
  std::vector<Candidate> out;
  {
    auto s = statements_->get(queries::kCandidatesWithStatus);
    s->bindAll(run, toString(status));
    while (s->step()) out.push_back(decodeRow(path_, "candidate", *s, decodeCandidate));
  }
  auto parents = statements_->get(queries::kParentsOf);
  for (auto& c : out) {
    parents->bindAll(c.id);
    while (parents->step()) c.parents.push_back(parents->int64At(0));
    parents->reset();
  }
  return out;
}

std::int64_t ProjectStore::candidateCount(RunId run) const {
  auto s = statements_->get(run == 0 ? "SELECT coalesce(sum(candidates), 0) FROM run_candidate_counts"
                                     : queries::kCandidateCountOfRun);
  if (run != 0) s->bindAll(run);
  return s->step() ? s->int64At(0) : 0;
}

// ---------------------------------------------------------------- tuning cache

void ProjectStore::recordTuning(TaskId task, const std::string& configKey, CandidateId candidate) {
  write("record tuning", [&] {
    auto s = statements_->get(
        "INSERT INTO tuning_cache(task_id, config_key, candidate_id) VALUES (?1, ?2, ?3) "
        "ON CONFLICT(task_id, config_key) DO UPDATE SET candidate_id = excluded.candidate_id");
    s->bindAll(task, configKey, candidate);
    s->execute();
  });
}

std::optional<CandidateId> ProjectStore::lookupTuning(TaskId task, const std::string& configKey) const {
  auto s = statements_->get(queries::kLookupTuning);
  s->bindAll(task, configKey);
  if (!s->step()) return std::nullopt;
  return s->int64At(0);
}

}  // namespace crucible
