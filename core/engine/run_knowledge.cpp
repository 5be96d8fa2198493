// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_knowledge.h"
#include "core/engine/unix_time.h"

#include <cmath>
#include <ctime>

namespace crucible::engine_detail {

namespace {

KnowledgeRules rulesOf(const RunSettings& settings) {
  KnowledgeRules rules;
  rules.minObservations = settings.knowledgeMinObservations;
  rules.effectThreshold = settings.knowledgeEffectThreshold;
  return rules;
}

double fitnessAsParent(const Candidate& parent) {
  return parent.status == CandidateStatus::Reference ? 1.0 : parent.fitness;
}

}  // namespace

RunKnowledge::RunKnowledge(ProjectStore& store, const RunSettings& settings)
    : store_(store),
      // Rebuilds an observation from its evidence: the child, its one parent,
      // and the fitness ratio in the entry's canonical orientation.
      book_(rulesOf(settings), [&store](const KnowledgeEntry& entry, CandidateId childId) -> std::optional<double> {
        auto child = store.candidate(childId);
        if (!child || child->parents.size() != 1 || child->fitness <= 0) return std::nullopt;
        auto parent = store.candidate(child->parents.front());
        if (!parent) return std::nullopt;
        double parentFitness = fitnessAsParent(*parent);
        if (parentFitness <= 0) return std::nullopt;
        auto change = singleDifference(*parent, *child);
        if (!change) return std::nullopt;
        bool inverted = false;
        if (KnowledgeBook::canonicalDecision(*change, inverted) != entry.decision) return std::nullopt;
        double l = std::log(child->fitness / parentFitness);
        return inverted ? -l : l;
      }) {
  book_.load(store_.knowledge());
}

const KnowledgeEntry* RunKnowledge::observe(const Candidate& child, const Candidate& parent,
                                            const std::string& deviceArch, const std::string& family) {
  if (child.parents.size() != 1 || child.fitness <= 0) return nullptr;
  double parentFitness = fitnessAsParent(parent);
  if (parentFitness <= 0 || (parent.status != CandidateStatus::Valid && parent.status != CandidateStatus::Reference))
    return nullptr;
  auto change = singleDifference(parent, child);
  if (!change) return nullptr;
  KnowledgeObservation o;
  o.arch = deviceArch;
  o.family = family;
  o.change = *change;
  // Both fitnesses are speedups against the reference timed beside them, so
  // their ratio is robust to clock drift between the two measurements.
  o.effect = child.fitness / parentFitness;
  o.child = child.id;
  const KnowledgeEntry& entry = book_.observe(o);
  KnowledgeEntry stored = entry;
  stored.updatedAt = unixSeconds();
  if (entry.id == 0)
    book_.setId(entry, store_.addKnowledge(stored));
  else
    store_.updateKnowledge(stored);
  return &entry;
}

}  // namespace crucible::engine_detail
