// SPDX-License-Identifier: GPL-3.0-or-later
// The events a run sends to its observers. Every event but CandidateCompiled
// carries the run's counters at the time it was made (a "progress" event);
// the builders below add what each kind says about a candidate.
// Internal to core/engine.
#pragma once
#include <string>
#include "core/engine/archive.h"
#include "core/engine/engine.h"
#include "core/engine/interfaces.h"
#include "core/model/knowledge.h"

namespace crucible::engine_detail {

// kind plus the run's counters; generation is the last generation made (0 before the first).
EngineEvent runEvent(EngineEvent::Kind kind, const Run& run, double elapsedSeconds, int lastGeneration);

// Each takes the run's counters (an event from runEvent of any kind) and sets its own kind.
EngineEvent proposedEvent(EngineEvent counters, const Candidate& c);
EngineEvent awaitingReviewEvent(EngineEvent counters, const Candidate& c);
EngineEvent evaluatedEvent(EngineEvent counters, const Candidate& c);
EngineEvent eliteImprovedEvent(EngineEvent counters, const Candidate& c, Placement placement,
                               const std::string& cellKey);
EngineEvent sealedEvent(EngineEvent counters, CandidateId candidate, double speedup);
EngineEvent knowledgeEvent(EngineEvent counters, CandidateId child, const KnowledgeEntry& entry);
EngineEvent logEvent(EngineEvent counters, const std::string& level, const std::string& text);
EngineEvent withMessage(EngineEvent counters, EngineEvent::Kind kind, const std::string& message);

// Made on compile threads, which must not read the run's counters while the
// committing thread updates them: it carries only the run id.
EngineEvent compiledEvent(RunId run, const Candidate& c, const CompileResult& r);

}  // namespace crucible::engine_detail
