// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_events.h"

#include <algorithm>

namespace crucible::engine_detail {

namespace {
EngineEvent about(EngineEvent e, EngineEvent::Kind kind, const Candidate& c) {
  e.kind = kind;
  e.candidate = c.id;
  e.architectureKey = c.architectureKey;
  e.status = c.status;
  e.generation = c.generation;
  return e;
}
}  // namespace

EngineEvent runEvent(EngineEvent::Kind kind, const Run& run, double elapsedSeconds, int lastGeneration) {
  EngineEvent e;
  e.kind = kind;
  e.run = run.id;
  e.evaluationsDone = run.evaluationsDone;
  e.budget = run.budget;
  e.bestSpeedup = run.bestSpeedup;
  e.elapsedSeconds = elapsedSeconds;
  e.gpuSeconds = run.gpuSecondsUsed;
  e.generation = std::max(0, lastGeneration);
  return e;
}

EngineEvent proposedEvent(EngineEvent counters, const Candidate& c) {
  EngineEvent e = about(std::move(counters), EngineEvent::Kind::CandidateProposed, c);
  e.message = c.mutation;
  return e;
}

EngineEvent awaitingReviewEvent(EngineEvent counters, const Candidate& c) {
  EngineEvent e = about(std::move(counters), EngineEvent::Kind::AwaitingReview, c);
  e.message = "new architecture " + c.architectureKey + " waits for review";
  return e;
}

EngineEvent evaluatedEvent(EngineEvent counters, const Candidate& c) {
  EngineEvent e = about(std::move(counters), EngineEvent::Kind::CandidateEvaluated, c);
  e.fitness = c.fitness;
  e.message = c.statusDetail;
  return e;
}

EngineEvent eliteImprovedEvent(EngineEvent e, const Candidate& c, Placement placement, const std::string& cellKey) {
  // The generation stays the run's: the cell changed now, whatever generation made its elite.
  e.kind = EngineEvent::Kind::EliteImproved;
  e.candidate = c.id;
  e.fitness = c.fitness;
  e.architectureKey = c.architectureKey;
  e.message = placement == Placement::NewCell ? "new cell " + cellKey : "better elite for " + cellKey;
  return e;
}

EngineEvent sealedEvent(EngineEvent e, CandidateId candidate, double speedup) {
  e.kind = EngineEvent::Kind::Sealed;
  e.candidate = candidate;
  e.fitness = speedup;
  return e;
}

EngineEvent knowledgeEvent(EngineEvent e, CandidateId child, const KnowledgeEntry& entry) {
  e.kind = EngineEvent::Kind::KnowledgeUpdated;
  e.candidate = child;
  e.message = std::string(toString(entry.status)) + ": " + entry.claim;
  return e;
}

EngineEvent logEvent(EngineEvent e, const std::string& level, const std::string& text) {
  e.kind = EngineEvent::Kind::Log;
  e.level = level;
  e.message = text;
  return e;
}

EngineEvent withMessage(EngineEvent e, EngineEvent::Kind kind, const std::string& message) {
  e.kind = kind;
  e.message = message;
  return e;
}

EngineEvent compiledEvent(RunId run, const Candidate& c, const CompileResult& r) {
  EngineEvent e;
  e.kind = EngineEvent::Kind::CandidateCompiled;
  e.run = run;
  e.candidate = c.id;
  e.generation = c.generation;
  e.architectureKey = c.architectureKey;
  e.status = r.report.ok ? CandidateStatus::Compiled : CandidateStatus::CompileFailed;
  return e;
}

}  // namespace crucible::engine_detail
