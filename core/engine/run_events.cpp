// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_events.h"

#include <algorithm>

namespace crucible::engine_detail {

RunCounters runCounters(const Run& run, double elapsedSeconds, int lastGeneration) {
  RunCounters counters;
  counters.evaluationsDone = run.evaluationsDone;
  counters.budget = run.budget;
  counters.bestSpeedup = run.bestSpeedup;
  counters.elapsedSeconds = elapsedSeconds;
  counters.gpuSeconds = run.gpuSecondsUsed;
  counters.generation = std::max(0, lastGeneration);
  return counters;
}

events::CandidateProposed proposedEvent(const RunCounters& counters, const Candidate& c) {
  return {counters, c.id, c.generation, c.architectureKey, c.status, c.mutation};
}

events::AwaitingReview awaitingReviewEvent(const RunCounters& counters, const Candidate& c) {
  return {counters, c.id, c.generation, c.architectureKey};
}

events::CandidateEvaluated evaluatedEvent(const RunCounters& counters, const Candidate& c) {
  return {counters, c.id, c.generation, c.architectureKey, c.status, c.fitness, c.statusDetail};
}

events::EliteImproved eliteImprovedEvent(const RunCounters& counters, const Candidate& c, Placement placement,
                                         const std::string& cellKey) {
  // The counters' generation stays the run's: the cell changed now, whatever generation made its elite.
  return {counters, c.id, c.architectureKey, c.fitness, cellKey, placement == Placement::NewCell};
}

events::KnowledgeUpdated knowledgeEvent(const RunCounters& counters, CandidateId child, const KnowledgeEntry& entry) {
  return {counters, child, entry.status, entry.claim};
}

events::CandidateCompiled compiledEvent(const Candidate& c, const CompileResult& r) {
  return {c.id, c.generation, c.architectureKey,
          r.report.ok ? CandidateStatus::Compiled : CandidateStatus::CompileFailed};
}

}  // namespace crucible::engine_detail
