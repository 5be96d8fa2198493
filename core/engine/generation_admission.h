// SPDX-License-Identifier: GPL-3.0-or-later
// The proposals admitted into one generation, held in memory until the
// generation is complete and then stored in one transaction, with the
// tuning cache entries that keep each configuration from being measured
// twice and the strategy and archive counters the admissions moved.
// Internal to core/engine.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>
#include "core/engine/archive.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

struct Admitted {
  Candidate candidate;   // stored: has its id
  int island = 0;
  bool kept = false;     // a failed proposal kept for inspection: never evaluated
};

class GenerationAdmission {
public:
  GenerationAdmission(ProjectStore& store, TaskId task);

  // True when the configuration was admitted earlier in this generation or
  // measured before in the project: it is not proposed again.
  bool known(const std::string& configKey) const;
  void add(Candidate c, int island, std::string configKey);
  // A failed proposal the proposer asked to keep: stored with the admissions
  // (in order), with no tuning cache entry (nothing of it was measured).
  void keep(Candidate c, int island);
  // A strategy's or an archive cell's counters moved; store() writes them.
  void touchStrategy(MetaPromptId id);
  void touchCell(int island, const std::string& key);
  std::size_t size() const { return pending_.size(); }

  // Stores the admissions (in the order admitted), their tuning cache
  // entries and the touched strategies and cells in one transaction, and
  // starts the next generation empty.
  std::vector<Admitted> store(const std::vector<MetaPrompt>& strategies, const Archive& archive);

private:
  struct Pending {
    Candidate candidate;
    int island = 0;
    std::string configKey;
    bool kept = false;
  };
  ProjectStore& store_;
  TaskId task_;
  std::vector<Pending> pending_;
  std::set<std::string> keys_;
  std::set<MetaPromptId> touchedStrategies_;
  std::set<std::pair<int, std::string>> touchedCells_;
};

}  // namespace crucible::engine_detail
