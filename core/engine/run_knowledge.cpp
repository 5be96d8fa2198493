// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_knowledge.h"
#include "core/engine/unix_time.h"
#include "core/knowledge/reference_analysis.h"
#include "core/task/task_spec.h"

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

// The task's shape class; "" (any shape) when its spec does not parse.
std::string shapeClassOfTask(const Task& task) {
  try {
    return shapeClassOf(parseTaskSpec(task.specJson).axes);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

RunKnowledge::RunKnowledge(ProjectStore& store, const RunSettings& settings, const Task& task)
    : store_(store),
      family_(task.family),
      shapeClass_(shapeClassOfTask(task)),
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
  o.shape = family == family_ ? shapeClass_ : "";
  o.change = *change;
  // Both fitnesses are speedups against the reference timed beside them, so
  // their ratio is robust to clock drift between the two measurements.
  o.effect = child.fitness / parentFitness;
  o.child = child.id;
  const KnowledgeEntry& entry = book_.observe(o);
  persist(entry);
  return &entry;
}

void RunKnowledge::supply(ProposalContext& ctx, const std::string& deviceArch) const {
  const auto ranked = book_.inScope(ClaimScope{deviceArch, family_, shapeClass_});
  ctx.knowledge = factsOf(ranked);
  ctx.claims = weightedOf(ranked);
}

void RunKnowledge::record(const std::vector<KnowledgeEntry>& entries) {
  for (const KnowledgeEntry& e : entries) persist(book_.put(e));
}

void RunKnowledge::persist(const KnowledgeEntry& entry) {
  KnowledgeEntry stored = entry;
  stored.updatedAt = unixSeconds();
  if (entry.id == 0)
    book_.setId(entry, store_.addKnowledge(stored));
  else
    store_.updateKnowledge(stored);
}

}  // namespace crucible::engine_detail

namespace crucible::engine_detail {

void RunKnowledge::learnFromReference(Candidate& reference, const std::string& cubin, Evaluator& evaluator,
                                      const Task& task, const Fingerprint& device, bool profile,
                                      const std::function<void(const std::string&, const std::string&)>& log) {
  if (profile && reference.profile.empty() && reference.timing) {
    try {
      ProfileResult r = evaluator.profile(task, KernelBinary{cubin, reference.launch});
      if (r.permitted && !r.metrics.empty()) {
        reference.profile = r.metrics;
        store_.transaction([&] { store_.updateCandidate(reference); });
        log("info", "reference profiled: " + std::to_string(r.metrics.size()) + " metrics");
      } else {
        log("info", "the reference was not profiled" + (r.detail.empty() ? std::string() : ": " + r.detail));
      }
    } catch (const std::exception& e) {
      log("warning", std::string("the reference could not be profiled: ") + e.what());
    }
  }
  TaskSpec spec;
  try {
    spec = parseTaskSpec(task.specJson);
  } catch (const std::exception& e) {
    log("warning", std::string("no reference analysis: the task spec does not parse: ") + e.what());
    return;
  }
  const ReferenceAnalysis analysis =
      analyseReference({&reference, &spec, task.family, device.arch, device.gpu, store_.ceilings(device.gpu), device.smCount});
  store_.transaction([&] { record(analysis.claims); });
  std::string left;
  for (const std::string& m : analysis.missing) left += (left.empty() ? "" : "; ") + m;
  log("info", "reference analysis: " + std::to_string(analysis.claims.size()) + " claim(s) recorded" +
                  (left.empty() ? std::string() : " (left out: " + left + ")"));
}

}  // namespace crucible::engine_detail
