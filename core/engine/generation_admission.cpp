// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/generation_admission.h"

namespace crucible::engine_detail {

GenerationAdmission::GenerationAdmission(ProjectStore& store, TaskId task) : store_(store), task_(task) {}

bool GenerationAdmission::known(const std::string& configKey) const {
  return keys_.count(configKey) || store_.lookupTuning(task_, configKey);
}

void GenerationAdmission::add(Candidate c, int island, std::string configKey) {
  keys_.insert(configKey);
  pending_.push_back({std::move(c), island, std::move(configKey)});
}

void GenerationAdmission::keep(Candidate c, int island) { pending_.push_back({std::move(c), island, "", true}); }

void GenerationAdmission::touchStrategy(MetaPromptId id) { touchedStrategies_.insert(id); }

void GenerationAdmission::touchCell(int island, const std::string& key) { touchedCells_.insert({island, key}); }

std::vector<Admitted> GenerationAdmission::store(const std::vector<MetaPrompt>& strategies, const Archive& archive) {
  // Each is stored (Proposed or AwaitingReview; a kept failure with its own
  // status) before anything of it is compiled.
  store_.transaction([&] {
    for (Pending& p : pending_) {
      p.candidate.id = store_.addCandidate(p.candidate);
      if (!p.kept) store_.recordTuning(task_, p.configKey, p.candidate.id);
    }
    for (const MetaPrompt& m : strategies)
      if (touchedStrategies_.count(m.id)) store_.updateMetaPrompt(m);
    for (const auto& [island, key] : touchedCells_)
      if (const ArchiveCell* cell = archive.cell(island, key)) store_.putArchiveCell(*cell);
  });
  std::vector<Admitted> admitted;
  admitted.reserve(pending_.size());
  for (Pending& p : pending_) admitted.push_back({std::move(p.candidate), p.island, p.kept});
  pending_.clear();
  keys_.clear();
  touchedStrategies_.clear();
  touchedCells_.clear();
  return admitted;
}

}  // namespace crucible::engine_detail
