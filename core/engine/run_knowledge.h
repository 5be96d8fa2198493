// SPDX-License-Identifier: GPL-3.0-or-later
// The project's hardware knowledge as one run reads and feeds it: loaded
// from the store with evidence rebuilt from stored candidates on demand, and
// updated (in the store too) by each child that differs from its one parent
// in a single decision. Internal to core/engine.
#pragma once
#include <string>
#include <vector>
#include "core/engine/run_settings.h"
#include "core/knowledge/knowledge_statistics.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

class RunKnowledge {
public:
  RunKnowledge(ProjectStore& store, const RunSettings& settings);

  std::vector<const KnowledgeEntry*> validatedInScope(const std::string& arch, const std::string& family) const {
    return book_.validatedInScope(arch, family);
  }

  // Observes child against parent (the reference counts as fitness 1) and
  // stores the entry it changed; nullptr when the pair says nothing: the
  // child has not exactly one parent, either is not valid and timed, or they
  // differ in other than one decision. Call inside the commit's transaction.
  const KnowledgeEntry* observe(const Candidate& child, const Candidate& parent, const std::string& deviceArch,
                                const std::string& family);

private:
  ProjectStore& store_;
  KnowledgeBook book_;
};

}  // namespace crucible::engine_detail
