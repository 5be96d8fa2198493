// SPDX-License-Identifier: GPL-3.0-or-later
// The project's hardware knowledge as one run reads and feeds it: loaded
// from the store with evidence rebuilt from stored candidates on demand, and
// updated (in the store too) by each child that differs from its one parent
// in a single decision. Internal to core/engine.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/engine/run_settings.h"
#include "core/knowledge/knowledge_statistics.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

class RunKnowledge {
public:
  // The task gives the scope of what this run learns and reads: its
  // operator family and shape class.
  RunKnowledge(ProjectStore& store, const RunSettings& settings, const Task& task = {});

  // The claims in scope on this device arch, ranked and weighted
  // (claim_scope.h), into a proposal's context: ctx.knowledge (the facts, for
  // prompts) and ctx.claims (with weights and refuted claims, for priors).
  void supply(ProposalContext& ctx, const std::string& deviceArch) const;

  // Observes child against parent (the reference counts as fitness 1) and
  // stores the entry it changed; nullptr when the pair says nothing: the
  // child has not exactly one parent, either is not valid and timed, or they
  // differ in other than one decision. Call inside the commit's transaction.
  const KnowledgeEntry* observe(const Candidate& child, const Candidate& parent, const std::string& deviceArch,
                                const std::string& family);

  // Adds or updates claims that come from elsewhere than a one-change pair
  // (a reference analysis). Call inside a transaction.
  void record(const std::vector<KnowledgeEntry>& entries);

  // What the hardware says about the run's reference (issue 19): profiles it
  // when it has no profile yet and `profile` allows (the profile is stored
  // with it), then records the claims of core/knowledge/reference_analysis.h,
  // with the reference as their evidence. A reference that cannot be
  // profiled (counters not permitted) still gives the claims its timing and
  // compile report support; what is left out is logged, never fatal.
  void learnFromReference(Candidate& reference, const std::string& cubin, Evaluator& evaluator, const Task& task,
                          const Fingerprint& device, bool profile,
                          const std::function<void(const std::string&, const std::string&)>& log);

  const std::string& shapeClass() const { return shapeClass_; }

private:
  // Writes a book entry to the store (added, and its id kept, when new), stamped now.
  void persist(const KnowledgeEntry& entry);

  ProjectStore& store_;
  std::string family_;
  std::string shapeClass_;
  KnowledgeBook book_;
};

}  // namespace crucible::engine_detail
